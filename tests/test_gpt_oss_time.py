"""GPT-OSS as Megatron-Core runs it (engine/timing/costs.py gpt_oss_unfused_bytes, presets/efficiency.json
gpt_oss_megatron_unfused): the element-wise kernels it runs outside the fused ones. Expected counts are read off
the source, one PyTorch kernel at a time, in elements read plus written per unit of the tensor each acts on:
- RoPE: Megatron-Bridge turns apply_rope_fusion off for position_embedding_type 'yarn' (NVIDIA-NeMo/Megatron-Bridge
  src/megatron/bridge/utils/fusions.py validate_rope_fusion_compatibility at v0.3.0), so q and k go through
  Megatron-Core's _apply_rotary_pos_emb_bshd (megatron/core/models/common/embeddings/rope_utils.py, core_v0.15.0
  lines 110-126): t * cos, neg of one half, cat(-x2, x1), * sin, add, cat((t, t_pass));
- the clamped GLU: weighted_bias_quick_geglu_impl (megatron/core/fusions/fused_bias_geglu.py core_v0.15.0 lines
  424-431) clamps both halves and concatenates them before the compiled quick-GEGLU;
- the experts' fc2 bias: TEGroupedMLP._apply_bias (megatron/core/transformer/moe/experts.py core_v0.15.0 lines
  823-840): b * p, t + b * p, torch.cat over the local experts;
- the attention output bias: _bias_dropout_add_func (megatron/core/fusions/fused_bias_dropout.py) with
  bias_dropout_fusion False (Megatron-Bridge's gpt-oss provider): x + bias apart from the residual add.
"""

from __future__ import annotations

import math

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.costs import gpt_oss_unfused_bytes, layer_cost
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates

# elements read + written per unit, kernel by kernel (see the module docstring)
ROPE_FWD = [2, 1, 2, 2, 3, 2]  # t*cos, neg (half the units), cat(-x2, x1), *sin, add, cat((t, t_pass))
ROPE_BWD = [2, 2, 1, 2, 3, 3]  # grad*cos, grad*sin, neg, the chunk's grads concatenated, two paths added, slice
FUSED_ROPE = 2  # one kernel reads t and writes the rotated t
CLAMP_FWD = [2, 2, 4]  # per unit of expert_ffn: clamp(gate half), clamp(linear half), cat of the two halves
CLAMP_BWD = [3, 3, 4]  # where(mask, grad, 0) per half (reads grad and input, writes), the halves' grads concatenated
BIAS_FWD = [1, 3, 2]  # b * p written, t + b*p, torch.cat of the experts' pieces
BIAS_BWD = [3, 3, 2]  # grad * p and its row sum, grad * b and its hidden sum, the split's grads concatenated


def _spec(model: str = "gpt-oss-120b"):
    return resolve_model(scenario_from_dict({"model": model, "gpu": "b200", "gpus_per_node": 8, "ep": 8}))


def test_the_figures_are_the_kernels_counted_from_source():
    table = efficiency()["gpt_oss_megatron_unfused"]
    assert table["rope_per_qk_unit"] == {"forward": sum(ROPE_FWD) - FUSED_ROPE, "backward": sum(ROPE_BWD) - FUSED_ROPE}
    assert table["clamp_per_expert_unit"] == {"forward": sum(CLAMP_FWD), "backward": sum(CLAMP_BWD)}
    assert table["expert_output_bias_per_hidden_unit"] == {"forward": sum(BIAS_FWD), "backward": sum(BIAS_BWD)}
    # x + bias (read x, write) apart from the residual add; backward: the bias gradient's sum reads the gradient
    assert table["output_bias_per_hidden_unit"] == {"forward": 2, "backward": 1}


def test_gpt_oss_120b_bytes_per_token():
    """gpt-oss-120b (openai/gpt-oss-120b config.json: hidden 2880, 64 query heads and 8 KV heads of 64, 4 of 128
    experts of 2880, attention bias) at TP 1 in bf16: q + k = 4,096 + 512 = 4,608 rotated units, 4 x 2,880 =
    11,520 clamped units and as many routed hidden units for the expert bias, 2,880 output-bias units."""
    spec = _spec()
    rope_units, expert_units, hidden = 64 * 64 + 8 * 64, 4 * 2880, 2880
    forward = 2 * (10 * rope_units + 8 * expert_units + 6 * expert_units + 2 * hidden)
    backward = 2 * (11 * rope_units + 10 * expert_units + 8 * expert_units + 1 * hidden)
    assert gpt_oss_unfused_bytes(spec, True, 1, False, 2) == (forward, backward)
    # TE's fused grouped-MLP ops (fused_expert_mlp) take the clamp and the experts' biases: RoPE and o bias stay
    assert gpt_oss_unfused_bytes(spec, False, 1, False, 2) == (2 * (10 * rope_units + 2 * hidden),
                                                                2 * (11 * rope_units + 1 * hidden))
    # TP 2 with sequence parallelism: heads, expert ffn and the sequence-parallel hidden split; the routed copies
    # keep the full hidden width
    assert gpt_oss_unfused_bytes(spec, True, 2, True, 2) == (
        2 * (10 * rope_units / 2 + 8 * expert_units / 2 + 6 * expert_units + 2 * hidden / 2),
        2 * (11 * rope_units / 2 + 10 * expert_units / 2 + 8 * expert_units + 1 * hidden / 2))


def test_fp32_probabilities_make_the_expert_bias_kernels_fp32():
    """The flex dispatcher hands the experts fp32 probabilities (token_dispatcher.py _HybridEPManager: 'HybridEP
    only supports float32 probs'), so b x p, the add and the cat run in fp32 and a cast follows: bytes per routed
    hidden unit with bf16 activations, kernel by kernel (read + written)."""
    forward = 4 + (2 + 4 + 4) + (4 + 4) + (4 + 2)  # b*p, t + b*p, cat, .to(bf16)
    backward = (2 + 4) + (4 + 2) + (4 + 4 + 4) + (4 + 4 + 4) + (2 + 2)
    table = efficiency()["gpt_oss_megatron_unfused"]["expert_output_bias_fp32_probs_bytes"]
    assert (table["forward"], table["backward"]) == (forward, backward)
    spec = _spec()
    bf16_fwd, bf16_bwd = gpt_oss_unfused_bytes(spec, True, 1, False, 2)
    fp32_fwd, fp32_bwd = gpt_oss_unfused_bytes(spec, True, 1, False, 2, True)
    routed = 4 * 2880
    assert (fp32_fwd - bf16_fwd, fp32_bwd - bf16_bwd) == ((forward - 12) * routed, (backward - 16) * routed)


def test_only_models_with_expert_biases_have_these_kernels():
    assert gpt_oss_unfused_bytes(_spec("qwen3-30b-a3b"), True, 1, False, 2) == (0.0, 0.0)


def test_layer_cost_streams_the_extra_bytes_at_the_memory_rate():
    memory, tokens = 8e12, 16384.0
    rates = Rates(1e15, 1e15, 1e15, memory, 2, 148)
    spec = _spec()
    args = (spec, True, tokens, 4096, 1, 8, 1, False, rates, "fused", "fused", "", (), 0, 0, 4, 4.0)
    plain, megatron = layer_cost(*args), layer_cost(*args, gpt_oss_unfused=True)
    forward, backward = gpt_oss_unfused_bytes(spec, True, 1, False, 2)
    assert math.isclose(megatron.elem_fwd - plain.elem_fwd, tokens * forward / memory)
    assert math.isclose(megatron.elem_bwd - plain.elem_bwd, tokens * backward / memory)
    assert megatron.gemm_fwd == plain.gemm_fwd and megatron.attn_fwd == plain.attn_fwd


def test_megatron_runs_them_and_the_fused_grouped_mlp_takes_the_experts_part():
    assert framework_profile("megatron")["gpt_oss_unfused"] is True
    assert "gpt_oss_unfused" not in framework_profile("torchtitan")
    base = {"model": "gpt-oss-120b", "gpu": "gb200", "gpus_per_node": 4, "nodes": 16, "framework": "megatron",
            "precision": "mixed-bf16", "micro_batch": 4, "grad_accum": 2, "seq_len": 4096, "ep": 64,
            "zero_stage": 1}
    eager = step_time(scenario_from_dict(base)).step_seconds
    fused = step_time(scenario_from_dict({**base, "fused_expert_mlp": True})).step_seconds
    assert fused < eager
    dense = {**base, "model": "llama-3.1-8b", "ep": 1, "nodes": 1}
    assert step_time(scenario_from_dict(dense)).step_seconds == step_time(
        scenario_from_dict({**dense, "fused_expert_mlp": True})).step_seconds
