"""llama.cpp's decode on Apple GPUs: its Metal dispatches at the chip generation's measured GPU time a dispatch
(engine/serving/kernel_fixed_time.py metal_decode_dispatches; presets/gpus.json metal_dispatch_seconds): the figures
recomputed from their sources, the count, where the term enters the step, and a check against other sources' measured
fixed time a token that no figure here came from."""

from __future__ import annotations

import pytest

from engine.accuracy.gguf_kernel_rates import marginal_rates
from engine.models.presets import get_gpu, gpu_presets
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving import kernel_fixed_time as kft
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed


def _scenario(gpu: str, model: str = "llama-2-7b", weight_format: str = "Q4_0"):
    return scenario_from_dict({"model": model, "gpu": gpu, "workload": "inference", "serving_engine": "llama.cpp",
                               "weight_format": weight_format, "max_model_len": 4096})


def test_the_figures_are_their_sources_arithmetic() -> None:
    # ferrox issue #149 (M2 Pro): 832 more rms_norm dispatches a token, 12.02 -> 16.32 ms of GPU time a token
    m2 = (16.32 - 12.02) * 1e-3 / 832
    # mlx issue #4521 (M3 Ultra): 3,200 tiny dependent kernels, 8.8 ms a step
    m3 = 8.8e-3 / 3200
    assert get_gpu("apple-m2-ultra-192gb").metal_dispatch_seconds == pytest.approx(m2, rel=1e-3)
    assert get_gpu("apple-m3-ultra-512gb").metal_dispatch_seconds == pytest.approx(m3)
    by_generation = {p.id.split("-")[1]: p.metal_dispatch_seconds for p in gpu_presets().values()
                     if p.metal_dispatch_seconds}
    assert by_generation == {"m2": pytest.approx(m2, rel=1e-3), "m3": pytest.approx(m3)}  # same chip, same figure
    assert get_gpu("apple-m1-max-64gb").metal_dispatch_seconds is None  # no measured M1 / M4 figure
    assert get_gpu("apple-m4-32gb").metal_dispatch_seconds is None


def test_a_layer_is_the_counted_graph_without_the_input_quantization() -> None:
    # Llama 2 7B, 32 layers: 7 weight mat-vecs + 2 over the cache + 14 element-wise a layer, the output norm, its weight
    # mul and the output mat-vec once; Metal's kernel_mul_mv_<type>_f32 takes the F32 activation (no q8_1 kernel)
    spec = resolve_model(_scenario("apple-m2-ultra-192gb"))
    assert kft.metal_decode_dispatches(spec) == 32 * 23 + 3
    t = get_gpu("apple-m2-ultra-192gb").metal_dispatch_seconds
    assert kft.decode_fixed_seconds("llama.cpp", spec, gguf_quantized=True, metal_dispatch_seconds=t) == \
        pytest.approx(739 * t)


def test_the_serving_step_takes_it_on_those_chips_only() -> None:
    for gpu, expected in (("apple-m2-ultra-192gb", 739 * get_gpu("apple-m2-ultra-192gb").metal_dispatch_seconds),
                          ("apple-m1-max-64gb", None)):
        s = _scenario(gpu)
        spec = resolve_model(s)
        speed = serving_speed(s, serving_memory(s), concurrency=1, context=512)
        fixed = dict((t.key, t.seconds) for t in speed.decode_terms)["decode_kernel_fixed"]
        assert fixed == pytest.approx(expected if expected else kft.gguf_decode_fixed_seconds(spec, True))


def test_other_sources_fixed_time_a_token_is_nearer() -> None:
    """XiongjieDai/GPU-Benchmarks-on-LLM-Inference (tests/data/published/llamacpp_decode_rates.json, not a source of
    either figure): two model sizes of one type on one Mac leave a fixed time a token at the smaller size (M2 Ultra
    4.22-4.91 ms, M3 Max 3.19-3.61 ms); the Metal dispatches give 3.81 / 2.03 ms, the CUDA kernels' figures 1.46-1.85."""
    apple = [r for r in marginal_rates() if r.gpu.startswith("apple-")]
    assert len(apple) == 6
    for rate in apple:
        spec = resolve_model(_scenario(rate.gpu))
        cuda = kft.gguf_decode_fixed_seconds(spec, rate.weight_format != "F16")
        assert abs(rate.estimate_fixed_seconds - rate.fixed_seconds) < abs(cuda - rate.fixed_seconds)
        # still below them: the measured part also holds what no term counts (encoding, command-buffer waits, sampling)
        assert rate.estimate_fixed_seconds < rate.fixed_seconds
