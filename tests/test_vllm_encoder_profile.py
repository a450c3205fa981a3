"""vLLM's profile run of a vision-language model's image encoder (engine/serving/encoder_profile.py): how many dummy
images, of what size, and what their encoding and cached outputs take from the KV pool."""

import dataclasses

from engine.models.presets import model_spec_for
from engine.serving.encoder_profile import dummy_images, encoder_profile
from engine.serving.generation import GenerationInputs, generation_memory

GIB = 2**30


def test_dummy_images_match_vllm_startup_logs() -> None:
    # "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 1 image items of the
    # maximum feature size." (Qwen3-VL at vLLM's default max_num_batched_tokens, vllm-project/vllm#38459), and
    # "... a budget of 32768 tokens, and profiled with 2 image items ..." at max_num_batched_tokens 32768
    # (a Qwen3.5 server's startup log, same 16,384-token largest image)
    assert dummy_images(16384, 8192, 1024, 262_144) == (16384, 1)
    assert dummy_images(16384, 32768, 1024, 262_144) == (32768, 2)
    # fewer sequences than the encoder budget holds images: max_num_seqs x images per prompt caps the batch
    # (vllm/multimodal/budget.py _get_max_items), and at least one image is profiled
    assert dummy_images(16384, 65536, 1, 16384) == (65536, 1)


def test_largest_image_is_16384_tokens_for_both_qwen_towers() -> None:
    # max_pixels / (patch x merge)^2: 12,845,056 / 28^2 (Qwen2.5-VL) and 16,777,216 / 32^2 (Qwen3-VL), the released
    # preprocessor_config.json files; the 16384 is the budget vLLM logs for Qwen3-VL (vllm-project/vllm#38459)
    for name in ("qwen2.5-vl-7b", "qwen3-vl-8b"):
        profile = encoder_profile(model_spec_for(name).vision, 8192, 256, 32768)
        assert profile is not None and profile.tokens_per_image == 16384


def test_cached_outputs_are_the_merged_tokens_at_the_text_width_with_deepstack() -> None:
    # vLLM's encoder cache holds embed_multimodal's outputs: tokens x out_hidden, and for Qwen3-VL the deepstack
    # mergers' outputs concatenated beside the main merger's (qwen3_vl.py, torch.cat([...], dim=1))
    v = model_spec_for("qwen3-vl-8b").vision
    profile = encoder_profile(v, 8192, 256, 32768)
    assert v.deepstack_mergers == 3
    assert profile.cached_bytes == profile.images * 16384 * v.out_hidden * (1 + 3) * 2
    v25 = model_spec_for("qwen2.5-vl-7b").vision
    assert encoder_profile(v25, 8192, 256, 32768).cached_bytes == 16384 * v25.out_hidden * 2


def test_encoder_forward_counts_pixels_and_the_widest_block() -> None:
    # the fp32 pixel patches (3 x temporal x patch^2 values each) stay alive through the tower, beside the residual
    # stream, the norm output and the widest block transient: the forward is at least pixels + residual + MLP
    v = model_spec_for("qwen2.5-vl-7b").vision
    profile = encoder_profile(v, 8192, 256, 32768)
    patches = 16384 * 4
    pixels = patches * 3 * 2 * 14 * 14 * 4
    mlp = patches * (v.hidden + v.hidden + 3 * v.ffn + v.hidden) * 2
    assert profile.forward_bytes >= pixels + mlp


def _vllm(spec, **kw) -> object:
    return generation_memory(GenerationInputs(spec=spec, weight_bytes=20 * GIB, capacity_bytes=80 * GIB, **kw))


def test_the_kv_pool_shrinks_by_the_encoder_term_and_text_models_keep_theirs() -> None:
    spec = model_spec_for("qwen3-vl-8b")
    with_tower = _vllm(spec, max_model_len=32768)
    text_only = _vllm(dataclasses.replace(spec, vision=None), max_model_len=32768)
    extra = with_tower.bytes_of("encoder_profile")
    assert extra > 0 and text_only.component("encoder_profile") is None
    assert abs((text_only.kv_pool_bytes - with_tower.kv_pool_bytes) - extra) < 1.0
    # SGLang runs no profile run (its activations live outside mem_fraction_static): no such term
    assert _vllm(spec, max_model_len=32768, engine="sglang").component("encoder_profile") is None


def test_users_curve_names_the_image_tokens_and_the_encoder_term() -> None:
    # the users chart's caption reads these: a VLM on vLLM gives the largest image's tokens and the profile-run term
    # of the scenario's own context (the same component the memory breakdown shows); a text-only model neither
    from engine.scenario import scenario_from_dict
    from engine.serving.scenario_estimate import serving_memory
    from engine.serving.users_curve import users_vs_context

    base = {"gpu": "l4", "workload": "inference", "serving_engine": "vllm", "max_model_len": 8192}
    vl = scenario_from_dict({**base, "model": "qwen2.5-vl-7b"})
    curve = users_vs_context(vl)
    assert curve.tokens_per_image == 16384
    assert curve.image_encoder_bytes == serving_memory(vl).bytes_of("encoder_profile") > 0
    text = users_vs_context(scenario_from_dict({**base, "model": "llama-3.1-8b"}))
    assert (text.tokens_per_image, text.image_encoder_bytes) == (0, 0.0)


def test_the_scenario_keys_set_the_images_vllm_profiles() -> None:
    # mm_images_per_prompt 0 is --limit-mm-per-prompt image=0, video=0: compute_mm_encoder_budget returns (0, 0) and
    # the profile run encodes nothing; mm_max_pixels is --mm-processor-kwargs max_pixels: Qwen's documented
    # 1280 x 28 x 28 = 1,003,520 makes a 980-pixel square (floor(sqrt(max_pixels) / 28) x 28, smart_resize),
    # (980 / 14)^2 / 4 = 1,225 tokens, so at max_num_batched_tokens 8192 the budget holds 8192 // 1225 = 6 images
    from engine.scenario import scenario_from_dict
    from engine.serving.scenario_estimate import serving_memory

    base = {"gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm", "model": "qwen2.5-vl-7b",
            "max_model_len": 32768}
    default = serving_memory(scenario_from_dict(base))
    text_only = serving_memory(scenario_from_dict({**base, "mm_images_per_prompt": 0}))
    assert text_only.component("encoder_profile") is None
    assert text_only.kv_pool_bytes - default.kv_pool_bytes == default.bytes_of("encoder_profile")
    small = dict(serving_memory(scenario_from_dict({**base, "mm_max_pixels": 1_003_520})).component(
        "encoder_profile").inputs)
    assert (small["tokens_per_image"], small["encoder_budget_tokens"], small["images"]) == (1225, 8192, 6)
