"""Qwen3.5's and Qwen3-VL's vision tower (engine/models/vision.py kind qwen3_vl): a released config.json is accepted.

Expected parameter counts are transformers 5.25.0's own: Qwen3_5ForConditionalGeneration /
Qwen3_5MoeForConditionalGeneration / Qwen3VLForConditionalGeneration built from these configs on the meta device
(validation/count_params.py's method), sum of parameter numel. Per tensor, the modules of
transformers 5.25.0 models/qwen3_5/modeling_qwen3_5.py lines 1022-1233 (Qwen3-VL's modeling_qwen3_vl.py lines 77-180,
620-663 the same, with its deepstack mergers).
"""

import json

import pytest

from engine import estimate, model_from_hf_config, model_presets
from engine.models.vision import tower_block_bytes, tower_outside_bytes
from engine.scenario import scenario_from_dict

# vision_config of the released Qwen3.5 checkpoints (Qwen/Qwen3.5-397B-A17B config.json as copied in
# ai-dynamo/aiconfigurator@87fe4b0c src/aiconfigurator/model_configs/Qwen--Qwen3.5-397B-A17B_config.json; the dense
# 9B / 27B name it qwen3_5 and say deepstack_visual_indexes [] with out_hidden_size their text width, 4096 / 5120:
# Qwen3.6-27B's config.json as quoted in helexa/cortex doc/vision-qwen3_6-spec.md at 766c20ba (git.lair.cafe))
_QWEN35_VISION = {"depth": 27, "hidden_act": "gelu_pytorch_tanh", "hidden_size": 1152, "in_channels": 3,
                  "intermediate_size": 4304, "num_heads": 16, "num_position_embeddings": 2304, "patch_size": 16,
                  "spatial_merge_size": 2, "temporal_patch_size": 2}

# Qwen/Qwen3-VL-8B-Instruct config.json (transformers 4.57.3 AutoConfig of the released file): Qwen3's text layers and
# the tower with three deepstack mergers (after blocks 8, 16, 24)
_QWEN3_VL_8B = {
    "architectures": ["Qwen3VLForConditionalGeneration"], "model_type": "qwen3_vl", "tie_word_embeddings": False,
    "text_config": {"attention_bias": False, "head_dim": 128, "hidden_act": "silu", "hidden_size": 4096,
                    "intermediate_size": 12288, "max_position_embeddings": 262144, "model_type": "qwen3_vl_text",
                    "num_attention_heads": 32, "num_hidden_layers": 36, "num_key_value_heads": 8,
                    "rms_norm_eps": 1e-06, "rope_theta": 5000000, "vocab_size": 151936},
    "vision_config": {**_QWEN35_VISION, "deepstack_visual_indexes": [8, 16, 24], "model_type": "qwen3_vl",
                      "out_hidden_size": 4096},
}


def _released(preset_id: str) -> dict:
    """The checkpoint's config.json: the preset's text_config (its released values) inside the multimodal config."""
    text = json.loads(json.dumps(model_presets()[preset_id].hf_config))
    moe = "moe" in text["model_type"]
    outer = "qwen3_5_moe" if moe else "qwen3_5"
    vision = {**_QWEN35_VISION, "model_type": outer, "out_hidden_size": text["hidden_size"]}
    if not moe:
        vision["deepstack_visual_indexes"] = []
    return {"architectures": ["Qwen3_5MoeForConditionalGeneration" if moe else "Qwen3_5ForConditionalGeneration"],
            "model_type": outer, "text_config": text, "vision_config": vision, "tie_word_embeddings": False}


def _tower_tensors(d: int, f: int, patch: int, temporal: int, positions: int, out: int, depth: int,
                   deepstack: int) -> dict[str, int]:
    """Each parameter tensor of the tower, from the modules' constructors (merge 2: the merger reads 4 patches)."""
    wide = 4 * d
    tensors = {"patch_embed.proj.weight": 3 * temporal * patch * patch * d, "patch_embed.proj.bias": d,
               "pos_embed.weight": positions * d}
    block = {"norm1.weight": d, "norm1.bias": d, "norm2.weight": d, "norm2.bias": d,
             "attn.qkv.weight": d * 3 * d, "attn.qkv.bias": 3 * d, "attn.proj.weight": d * d, "attn.proj.bias": d,
             "mlp.linear_fc1.weight": d * f, "mlp.linear_fc1.bias": f,
             "mlp.linear_fc2.weight": f * d, "mlp.linear_fc2.bias": d}
    tensors.update({f"blocks.{i}.{k}": n for i in range(depth) for k, n in block.items()})

    def merger(prefix: str, norm_width: int) -> None:
        tensors.update({f"{prefix}.norm.weight": norm_width, f"{prefix}.norm.bias": norm_width,
                        f"{prefix}.linear_fc1.weight": wide * wide, f"{prefix}.linear_fc1.bias": wide,
                        f"{prefix}.linear_fc2.weight": wide * out, f"{prefix}.linear_fc2.bias": out})

    merger("merger", d)
    for i in range(deepstack):
        merger(f"deepstack_merger_list.{i}", wide)
    return tensors


@pytest.mark.parametrize("preset_id, total_params", [
    ("qwen3.5-9b", 9_409_813_744), ("qwen3.5-27b", 27_356_728_560), ("qwen3.5-397b-a17b", 396_802_360_816)])
def test_a_released_qwen35_config_is_the_text_preset_plus_its_tower(preset_id, total_params):
    """The whole checkpoint Qwen3_5(Moe)ForConditionalGeneration builds (transformers 5.25.0, meta device): the
    language model exactly as the text preset counts it, plus the tower; the MTP layer is not built by it."""
    spec = model_from_hf_config(_released(preset_id), preset_id)
    text = model_presets()[preset_id].spec
    assert spec.text_params == text.text_params and spec.vision is not None
    assert spec.total_params == total_params
    tensors = _tower_tensors(1152, 4304, 16, 2, 2304, text.hidden, 27, 0)
    # the checkpoint's index lists 333 model.visual.* tensors (Qwen3.6-27B, the same tower: helexa/cortex
    # doc/vision-qwen3_6-spec.md at 766c20ba, 'Counts from model.safetensors.index.json')
    assert len(tensors) == 333
    assert spec.vision_params == sum(tensors.values())


def test_qwen3_vl_8b_counts_its_deepstack_mergers():
    """Qwen3-VL-8B-Instruct: 8,767,123,696 parameters as transformers 5.25.0 builds Qwen3VLForConditionalGeneration
    from its config (the Hub's '8.77B'); the tower 576,388,336 with three deepstack mergers (LayerNorm over 4d)."""
    spec = model_from_hf_config(json.loads(json.dumps(_QWEN3_VL_8B)), "qwen3-vl-8b")
    assert spec.total_params == 8_767_123_696
    tensors = _tower_tensors(1152, 4304, 16, 2, 2304, 4096, 27, 3)
    assert len(tensors) == 333 + 3 * 6 and spec.vision_params == sum(tensors.values()) == 576_388_336
    assert spec.qk_norm == "head" and not spec.tied_embeddings  # Qwen3's per-head q/k norms; untied head


def test_an_outer_tie_word_embeddings_decides_when_the_text_config_is_silent():
    """The ForConditionalGeneration model ties by its own config (transformers 5.25.0 modeling_utils.py line 2494);
    Qwen3VLMoeTextConfig's default is True, Qwen3VLMoeConfig's False, so a text_config without the key is untied."""
    cfg = json.loads(json.dumps(_QWEN3_VL_8B))
    cfg["text_config"].pop("tie_word_embeddings", None)
    cfg["tie_word_embeddings"] = True
    assert model_from_hf_config(cfg).tied_embeddings
    cfg["tie_word_embeddings"] = False
    assert not model_from_hf_config(cfg).tied_embeddings


@pytest.mark.parametrize("pixels, side", [(768, 768), (1000, 992), (100, 256), (8000, 4096)])
def test_images_are_resized_like_the_qwen3_vl_processor(pixels, side):
    """Qwen2VLImageProcessorFast with the released preprocessor_config.json (size shortest_edge 65536, longest_edge
    16777216: 256 to 4,096 pixels a side for a square image; patch 16, merge 2: multiples of 32)."""
    vision = model_from_hf_config(_released("qwen3.5-9b")).vision
    assert vision.patches_per_image(pixels) == (side // 16) ** 2
    assert vision.tokens_per_image(pixels) == (side // 32) ** 2
    assert vision.image_size == 768  # the learned grid, 48 x 48 patches of 16 px: the native size


def test_per_block_and_outside_memory_per_tensor():
    """One image of 768 px (2,304 patches) in bf16, per operation of the modules (modeling_qwen3_5.py 1035-1268)."""
    v = model_from_hf_config(_released("qwen3.5-9b")).vision
    n, d, f, c, heads = 2304, 1152, 4304, 2, 16
    block = (2 * (c * n * d + 8 * n)  # two LayerNorms: input + fp32 mean/rstd
             + c * n * d  # norm1's output, kept by the qkv projection
             + 5 * c * n * d  # qkv output (V is a view of it) + the rotated Q and K
             + 2 * c * n * d + 4 * n * heads  # SDPA's output, its concatenation (one image: one chunk) + logsumexp
             + c * n * d  # norm2's output, kept by linear_fc1
             + 2 * c * n * f)  # linear_fc1's output (kept by the GELU) and the GELU's (kept by linear_fc2)
    assert tower_block_bytes(v, n, c) == block
    outside = (c * n * 3 * 2 * 16 * 16  # the Conv3d's input, the pixel patches in bf16
               + 12 * 4 * n  # pos_embed's 4 bilinear taps: int64 indices and fp32 weights
               + 2 * 4 * n * (d // heads)  # the rotary cos/sin, fp32
               + 4 * c * n * d + 8 * n)  # the merger: LayerNorm input + statistics, its output, fc1 and GELU outputs
    assert tower_outside_bytes(v, n, c) == outside
    deepstack = model_from_hf_config(json.loads(json.dumps(_QWEN3_VL_8B))).vision
    assert tower_outside_bytes(deepstack, n, c) == outside + 3 * (3 * c * n * d + 8 * n / 4)


def test_a_pasted_config_estimates_with_images_and_the_tower_frozen_or_trained():
    """The local-cache picker and a pasted config go through {"name", "hf_config"}: text + tower, images counted."""
    model = {"name": "Qwen/Qwen3.5-9B", "hf_config": _released("qwen3.5-9b")}
    base = {"model": model, "gpu": "h100-sxm-80gb", "method": "full", "precision": "bf16", "seq_len": 2048,
            "images_per_sample": 2, "image_resolution": 768}
    frozen = estimate(scenario_from_dict(base))
    trained = estimate(scenario_from_dict({**base, "vision_tower": "trained"}))
    assert not any("no vision tower" in str(w) for w in frozen.warnings)
    assert "vision_activations" in {c.key for c in trained.busiest.components}
    assert trained.trainable_params - frozen.trainable_params == 456_010_480
    assert frozen.total_params == 9_409_813_744


def test_the_saved_tensors_match_a_cpu_trace_of_transformers_modules():
    """validation/qwen3_vl_tower_trace.py (torch 2.14.1 CPU, transformers 5.25.0, bf16, SDPA, one 768 px image):
    block 98,224,128 bytes, outside the blocks 29,758,464, one deepstack merger 15,927,552. The CPU LayerNorm keeps
    mean / rstd in bf16 (4 bytes a row); the engine counts them in fp32 (8), as CUDA's kernel keeps them."""
    n = 2304
    v = model_from_hf_config(_released("qwen3.5-9b")).vision
    cpu_stats_saving = 4 * n  # bytes a LayerNorm over n rows keeps less on CPU
    assert tower_block_bytes(v, n, 2) - 2 * cpu_stats_saving == 98_224_128
    assert tower_outside_bytes(v, n, 2) - cpu_stats_saving == 29_758_464
    deepstack = model_from_hf_config(json.loads(json.dumps(_QWEN3_VL_8B))).vision
    one_merger = (tower_outside_bytes(deepstack, n, 2) - tower_outside_bytes(v, n, 2)) / 3
    assert one_merger - cpu_stats_saving / 4 == 15_927_552  # its LayerNorm runs over the n / 4 merged rows


@pytest.mark.parametrize("name, text, tower, projector_left_out", [
    # LLaMA-Factory 00577a85 finetuning_args.py: freeze_vision_tower / freeze_multi_modal_projector, both True by default
    ("sft.yaml", "model_name_or_path: Qwen/Qwen3.5-9B\nfinetuning_type: full\nfreeze_vision_tower: false\n", "trained",
     False),
    ("sft.yaml", "model_name_or_path: Qwen/Qwen3.5-9B\nfinetuning_type: full\nfreeze_multi_modal_projector: false\n",
     None, True),
    # ms-swift 815aa287 tuner_args.py: freeze_vit / freeze_aligner, both True by default
    ("train.sh", "swift sft --model Qwen/Qwen3-VL-8B-Instruct --train_type full --freeze_vit false", "trained", False),
    ("train.sh", "swift sft --model Qwen/Qwen3-VL-8B-Instruct --train_type full --freeze_vit true", "frozen", False),
])
def test_the_frameworks_freeze_flags_set_the_tower(name, text, tower, projector_left_out):
    """The engine trains the tower and its projector together (vision_tower): a framework's tower flag sets it; a
    projector trained alone is said, not modelled."""
    from engine.configs import import_texts

    result = import_texts([(name, text)])
    assert result.scenario.get("vision_tower") == tower
    said = any("projector" in str(u.why) for u in result.unmapped)
    assert said == projector_left_out
