"""A frozen vision tower's forward with images (engine/models/vision.py tower_forward_peak_bytes, engine/memory/detailed.py
_frozen_tower_forward): its blocks save nothing, but one block's working set is alive during the tower's forward, on
top of the weights and states alive when the forward starts.

Expected figures: a hand count per operation of transformers 5.25.0 models/qwen3_vl/modeling_qwen3_vl.py (lines 77-87
the MLP, 193-204 the rotary, 244-330 the attention; Qwen3.5's and Qwen2.5-VL's blocks run the same code), and the CPU
trace validation/frozen_tower_forward_trace.py (Qwen3.5's tower, one 768 px image, bf16, no_grad): SDPA 84,934,656
bytes above the block's input, eager 881,197,060 (of which 4 bytes are a scalar the engine leaves out).
"""

import pytest

from engine import estimate, model_from_hf_config
from engine.models.vision import tower_forward_peak_bytes
from engine.scenario import scenario_from_dict
from tests.test_qwen3_vl_tower import _released

# one 768 x 768 image: the tower's native grid, 48 x 48 patches of 16 px
PATCHES, HIDDEN, FFN, HEADS, BF16 = 2304, 1152, 4304, 16, 2
TRACE_SDPA_BYTES = 84_934_656
TRACE_EAGER_BYTES = 881_197_060 - 4


def _qwen35_tower():
    return model_from_hf_config(_released("qwen3.5-9b")).vision


def test_one_block_sdpa_matches_the_hand_count_and_the_trace():
    """Above the block's input (the residual, bf16): the norm output and the fused qkv output (bf16), then at k's
    rotation six fp32 q/k-sized tensors (q.float(), q's result, k.float(), k * cos, rotate_half(k), their product);
    the MLP's norm output, fc1 and GELU outputs are less (2 x (1,152 + 2 x 4,304) < 8 x 1,152 + 24 x 1,152)."""
    n, d, c = PATCHES, HIDDEN, BF16
    above_input = c * n * d + 3 * c * n * d + 6 * 4 * n * d
    assert above_input == TRACE_SDPA_BYTES
    assert tower_forward_peak_bytes(_qwen35_tower(), n, 1, c) == c * n * d + above_input


def test_one_block_eager_matches_the_hand_count_and_the_trace():
    """Eager attention: the bf16 scores, ATen softmax's fp32 copy of them and its fp32 output (SoftMax.cpp: bf16 takes
    the copy path) beside the norm output, qkv and the rotated q and k (bf16)."""
    n, d, c = PATCHES, HIDDEN, BF16
    above_input = 6 * c * n * d + (c + 4 + 4) * HEADS * n * n
    assert above_input == TRACE_EAGER_BYTES
    assert tower_forward_peak_bytes(_qwen35_tower(), n, 1, c, eager=True) == c * n * d + above_input


def test_qwen2_5_vl_block_takes_the_larger_of_attention_and_the_swiglu_mlp():
    """Qwen2.5-VL-7B's tower (hidden 1280, MLP 3420, SwiGLU): at the gate * up product the activation, up output
    and product (3 x 3,420 a patch), the residual sum and the norm output; the attention's rotary moment
    (32 x 1,280) is larger."""
    model = {"name": "Qwen2.5-VL-7B", "hf_config": {
        "model_type": "qwen2_5_vl", "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
        "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
        "vision_config": {"hidden_size": 1280, "intermediate_size": 3420, "depth": 32, "num_heads": 16}}}
    v = model_from_hf_config(model["hf_config"]).vision
    n, d, f, c = 1024, 1280, 3420, BF16
    # the residual sum and the norm output beside the three SwiGLU tensors
    mlp, attention = c * (2 * d + 3 * f) * n, (4 * c + 24) * d * n
    assert attention > mlp
    assert tower_forward_peak_bytes(v, n, 1, c) == c * d * n + attention


@pytest.mark.parametrize(("eager", "trace_bytes"), [(False, 89_391_104), (True, 2_722_103_296)])
def test_siglip_block_matches_the_hand_count_and_the_trace(eager, trace_bytes):
    """Gemma 3's SigLIP tower, one 896 px image (64 x 64 = 4,096 patches of 14 px). SDPA: the MLP's moment is the
    largest, the residual sum (the encoder loop still holds the block's input), the norm output, fc1 and GELU outputs;
    eager: the norm output, Q, K, V and the scores, softmax's fp32 copy and output (validation/frozen_tower_forward_
    trace.py, SiglipVisionModel)."""
    gemma3 = {"model_type": "gemma3", "mm_tokens_per_image": 256,
              "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240,
                              "num_attention_heads": 8, "num_key_value_heads": 4, "num_hidden_layers": 34,
                              "head_dim": 256, "vocab_size": 262208},
              "vision_config": {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27,
                                "num_attention_heads": 16, "patch_size": 14, "image_size": 896}}
    v = model_from_hf_config(gemma3).vision
    n, d, f, c = v.patches_per_image(896), HIDDEN, FFN, BF16
    assert n == 4096
    above_input = (4 * c * d * n + (c + 8) * HEADS * n * n) if eager else c * (2 * d + 2 * f) * n
    assert above_input == trace_bytes
    assert tower_forward_peak_bytes(v, n, 1, c, eager) == c * d * n + above_input


def _plan(**extra):
    base = {"model": {"name": "Qwen/Qwen3.5-9B", "hf_config": _released("qwen3.5-9b")}, "gpu": "h100-sxm-80gb",
            "method": "lora", "precision": "bf16", "seq_len": 8192, "images_per_sample": 2, "image_resolution": 768}
    return estimate(scenario_from_dict({**base, **extra}))


def _parts(est):
    comps = {c.key: c for c in est.busiest.components}
    forward = comps["vision_forward"]
    inputs = dict(forward.inputs)
    return comps, forward, inputs


def test_text_only_and_trained_towers_have_no_frozen_forward_component():
    assert "vision_forward" not in {c.key for c in _plan(images_per_sample=0).busiest.components}
    full_trained = _plan(method="full", vision_tower="trained")
    assert "vision_forward" not in {c.key for c in full_trained.busiest.components}


@pytest.mark.parametrize("attention", ["sdpa", "eager"])
def test_the_forward_phase_peak_is_the_larger_of_the_tower_and_the_end_of_forward(attention):
    """The tower's moment (what is alive at the forward's start + its peak) against the end of the forward: the
    component adds only the difference, so the forward phase is their maximum."""
    est = _plan(attention=attention)
    comps, forward, inputs = _parts(est)
    v = _qwen35_tower()
    assert inputs["tower_peak_bytes"] == round(tower_forward_peak_bytes(v, 2 * PATCHES, 2, BF16, attention == "eager"))
    end_of_forward = est.phases["forward"] - forward.moments.forward
    tower_moment = inputs["alive_at_start_bytes"] + inputs["tower_peak_bytes"]
    assert est.phases["forward"] == pytest.approx(max(end_of_forward, tower_moment), abs=2)
    assert forward.moments[1:] == (0.0, 0.0, 0.0)


def test_eager_attention_over_a_large_image_makes_the_tower_the_step_peak_and_moves_the_verdict():
    """One 2,048 px image (128 x 128 = 16,384 patches) under eager attention: 16 heads x 16,384^2 scores at 10 bytes
    (40 GiB) in one block's softmax, on the ~17.6 GiB of weights and states alive when the forward starts: above the
    decoder's end of forward and backward (checkpointed, 8,192 tokens). On a 64 GB MI250X the plan fitted before
    (59.5 GiB, backward's peak, as under SDPA) and no longer does."""
    plans = {att: _plan(gpu="mi250x", images_per_sample=1, image_resolution=2048, attention=att,
                        checkpointing="full") for att in ("sdpa", "eager")}
    sdpa, eager = plans["sdpa"], plans["eager"]
    assert _parts(sdpa)[1].moments.forward == 0.0  # under SDPA the end of the forward stays the larger
    assert sdpa.peak_phase == "backward" and sdpa.verdict == "fits"
    _, forward, inputs = _parts(eager)
    assert inputs["patches"] == 128 * 128
    assert inputs["tower_peak_bytes"] > 10 * HEADS * 16384**2
    assert eager.peak_phase == "forward"
    assert eager.peak_allocated_bytes == pytest.approx(inputs["alive_at_start_bytes"] + inputs["tower_peak_bytes"],
                                                       abs=2)
    assert eager.verdict == "does not fit"
