"""The image encoder's step time (engine/timing/vision_time.py): a vision-language model's tower, timed per tensor
like the decoder layers on the first stage, forward always and backward only where it trains."""

from engine import Scenario
from engine.models.vision import vision_from_config
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for
from engine.timing.vision_time import attention_sequences, vision_seconds

_BASE = {"gpu": "h100-sxm-80gb", "method": "full", "precision": "bf16", "seq_len": 4096}


def _tower(model: str, **keys):
    s = Scenario(model=model, **_BASE, **keys)
    spec = resolve_model(s)
    rates = rates_for(s, hardware_for(s), framework_profile(s.framework))
    return s, spec.vision, rates


def test_one_qwen2_5_vl_block_flops_match_a_hand_count_from_its_config():
    # Qwen2.5-VL-7B's vision_config (presets/models/qwen2.5-vl-7b.json): hidden 1280, intermediate 3420, 16 heads,
    # patch 14, merge 2; one 448 px image = (448 / 14)^2 = 1024 patches. A full-attention block: the fused qkv
    # (1280 -> 3840), proj (1280 -> 1280), SwiGLU gate + up (1280 -> 3420) and down (3420 -> 1280), 2 FLOPs a
    # multiply-add; attention QK^T and PV over the image's 1024 patches (8 whole 128-key tiles): 4 n^2 d.
    s, v, rates = _tower("qwen2.5-vl-7b", images_per_sample=1, image_resolution=448)
    n, d, f = 1024, 1280, 3420
    hand = 2 * n * d * 3 * d + 2 * n * d * d + 3 * 2 * n * d * f + 4 * n * n * d
    assert vision_seconds(s, v, rates, 1).block_flops == hand


def test_one_qwen3_vl_block_flops_match_a_hand_count_from_its_config():
    # Qwen3-VL-8B's vision_config: hidden 1152, intermediate 4304 (GELU fc1 / fc2), patch 16; a 512 px image is
    # (512 / 16)^2 = 1024 patches, each block attending over the whole image (cu_seqlens per image)
    s, v, rates = _tower("qwen3-vl-8b", images_per_sample=1, image_resolution=512)
    n, d, f = 1024, 1152, 4304
    hand = 2 * n * d * 3 * d + 2 * n * d * d + 2 * 2 * n * d * f + 4 * n * n * d
    assert vision_seconds(s, v, rates, 1).block_flops == hand


def test_qwen2_5_vl_windows_follow_its_window_index():
    # window_size 112 // spatial_merge_size 2 // patch_size 14 = 4 merged tokens a side; a 448 px image is a 16 x 16
    # merged grid: 4 x 4 windows of 4 x 4 merged tokens (64 patches); 4 blocks (fullatt_block_indexes) attend whole.
    # 504 px: an 18 x 18 grid, windows of 4, 4, 4, 4 and 2 merged tokens a side (get_window_index pads the last)
    _, v, _ = _tower("qwen2.5-vl-7b")
    whole, windows, full_blocks = attention_sequences(v, 448, 1.0)
    assert whole == ((1024, 1.0),) and full_blocks == 4 and windows == ((64, 1.0),) * 16
    _, windows, _ = attention_sequences(v, 504, 1.0)
    assert sorted(length for length, _ in windows) == [16] + [32] * 8 + [64] * 16


def test_a_frozen_tower_runs_forward_only():
    # frozen (the default, and always under LoRA): no gradient reaches the tower, so no backward, no recompute
    s, v, rates = _tower("qwen2.5-vl-7b", images_per_sample=2, checkpointing="full")
    frozen = vision_seconds(s, v, rates, 1)
    assert frozen.gemm_fwd > 0 and frozen.attn_fwd > 0
    assert frozen.gemm_bwd == frozen.attn_bwd == frozen.elem_bwd == frozen.wgrad == frozen.recompute == 0
    trained = vision_seconds(Scenario(model="qwen2.5-vl-7b", **_BASE, images_per_sample=2, checkpointing="full",
                                      vision_tower="trained"), v, rates, 1)
    # trained: input and weight gradients at the forward's shapes, the flash backward, the blocks again (full)
    assert trained.gemm_bwd > trained.gemm_fwd and trained.wgrad == trained.gemm_fwd and trained.recompute > 0


def test_images_add_the_tower_to_the_step_and_a_trained_tower_more():
    def seconds(**keys) -> float:
        return step_time(Scenario(model="qwen2.5-vl-7b", **_BASE, **keys)).step_seconds
    none, frozen, trained = seconds(), seconds(images_per_sample=2), seconds(images_per_sample=2, vision_tower="trained")
    assert none < frozen < trained


def test_the_old_note_is_gone_and_text_models_are_untouched():
    # h-review19's note said the time left the encoder out; the encoder is timed now
    with_images = step_time(Scenario(model="qwen2.5-vl-7b", **_BASE, images_per_sample=2))
    assert not any("leaves out the image encoder" in str(n) for n in with_images.notes)
    text = step_time(Scenario(model="llama-3-8b", **_BASE))
    assert text.step_seconds == step_time(Scenario(model="llama-3-8b", **_BASE, images_per_sample=2)).step_seconds


def test_only_the_first_pipeline_stage_runs_the_tower():
    # the tower runs before the first decoder layer: under PP the first stage's compute grows, the last's does not
    from engine.timing.model import stage_time_per_micro_batch
    from engine.timing.stage_listing import distinct_stages

    def stages(images: int):
        s = Scenario(model="qwen2.5-vl-7b", **_BASE, pp=2, grad_accum=4, images_per_sample=images)
        spec, hw = resolve_model(s), hardware_for(s)
        prof = framework_profile(s.framework)
        rates = rates_for(s, hw, prof)
        return [stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r) for i, r in distinct_stages(s, spec)]
    without, with_images = stages(0), stages(2)
    assert with_images[0].compute > without[0].compute
    assert with_images[-1].compute == without[-1].compute


def test_a_qwen2_5_vl_config_without_window_keys_takes_the_config_class_defaults():
    # Qwen2_5_VLVisionConfig defaults: window_size 112, fullatt_block_indexes [7, 15, 23, 31]
    v = vision_from_config({"model_type": "qwen2_5_vl", "vision_config": {"model_type": "qwen2_5_vl"}}, 3584)
    assert v.full_attention_blocks == 4 and v.window_merged == 4


def test_pixtral_attends_over_the_micro_batch_under_sdpa_and_per_image_under_flash():
    # transformers PixtralVisionModel.forward: a block-diagonal mask over every patch of the batch (SDPA, eager), or
    # attention_mask None with position_ids (flash_attention_2): per image. Mistral Small 3.1 at 896 px: patch 14,
    # (896 / 14)^2 = 4096 patches an image
    _, v, _ = _tower("mistral-small-3.1-24b")
    assert attention_sequences(v, 896, 2.0) == (((8192, 1.0),), (), v.layers)
    assert attention_sequences(v, 896, 2.0, flash=True) == (((4096, 2.0),), (), v.layers)


def test_the_compute_hover_names_the_image_encoder():
    from engine.timing.formulas import FORMULAS
    assert "image encoder" in FORMULAS["compute"] and "image encoder" in FORMULAS["recompute"]


def test_a_split_tower_takes_its_linears_share_of_each_tp_rank():
    # not replicated (a framework without vision_tower_replicated): columns of qkv / gate / up and rows of proj / down
    # split over TP as the decoder's; Qwen2.5-VL-7B at tp 2: qkv 1280 -> 1920, proj 640 -> 1280, MLP 1280 -> 1710
    from engine.timing.vision_time import block_linears
    _, v, _ = _tower("qwen2.5-vl-7b")
    assert block_linears(v, 1024, 2) == ((1024, 1280, 1920), (1024, 640, 1280), (1024, 1280, 1710),
                                         (1024, 1280, 1710), (1024, 1710, 1280))
