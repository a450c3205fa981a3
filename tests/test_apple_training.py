"""Apple-silicon training (h-apple): the chips of the published MLX runs as presets, Apple's GPUs as one family
that the MFU ceiling holds by, their measured matmul rate, and the 7B LoRA plan on an M4 Max held to what Apple runs
reached. Each expected figure names its source; the rows are tests/data/published/throughput/mlx-apple-silicon.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import rows_matching
from engine.models.presets import get_gpu, gpu_presets
from engine.scenario import resolve_model
from engine.timing.ceiling import mfu_ceiling, without_ceilings
from engine.timing.hardware import hardware_for, rate_share
from engine.timing.mfu import mfu_figures
from engine.timing.model import step_time

ROOT = Path(__file__).resolve().parent.parent
M4_MAX_LORA = json.loads((ROOT / "examples" / "qwen2.5-7b-lora-m4-max.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("gpu_id", "tflops", "bytes_per_s"), [
    # Apple's M1 Max newsroom release: 32-core GPU, 10.4 teraflops, 400 GB/s
    ("apple-m1-max-32gb", 10.4, 400e9),
    # 38 cores x 128 ALUs x 2 FLOP x 1.398 GHz (the M2 Ultra preset's clock); Apple's M2 Max release: 400 GB/s
    ("apple-m2-max-64gb", 38 * 128 * 2 * 1.398e9 / 1e12, 400e9),
    # 20 cores x 128 ALUs x 2 FLOP x 1.8 GHz (the M4 Max preset's clock); Apple's M4 Pro specifications: 273 GB/s
    ("apple-m4-pro-48gb", 20 * 128 * 2 * 1.8e9 / 1e12, 273e9),
    # h-presets20: the M1 Max's 64 GB form (same chip, same figures as the 32 GB preset)
    ("apple-m1-max-64gb", 10.4, 400e9),
    # Apple's M1 Ultra release: 800 GB/s; the M1 Max's 10.4 teraflops for 32 cores x 48 / 32 (48-core Mac Studio part)
    ("apple-m1-ultra-64gb", 10.4 * 48 / 32, 800e9),
    ("apple-m1-ultra-128gb", 10.4 * 64 / 32, 800e9),  # the 64-core part
    # 30 cores at the M2 Ultra preset's clock (engine/serving/gguf_prefill.py M2_MAX_30_PEAK_FLOPS); 400 GB/s
    ("apple-m2-max-30core-32gb", 30 * 128 * 2 * 1.398e9 / 1e12, 400e9),
    # Apple's Mac mini (M4) specifications: 10-core GPU, 120 GB/s; the M4 Max preset's clock
    ("apple-m4-16gb", 10 * 128 * 2 * 1.8e9 / 1e12, 120e9),
    ("apple-m4-32gb", 10 * 128 * 2 * 1.8e9 / 1e12, 120e9),
])
def test_the_chips_of_the_published_apple_runs_are_presets(gpu_id, tflops, bytes_per_s):
    gpu = get_gpu(gpu_id)
    peaks = dict(gpu.dense_peak_tflops)
    assert peaks["fp32"] == pytest.approx(tflops, abs=0.05)
    assert peaks["bf16"] == peaks["fp16"] == peaks["fp32"]  # these GPUs run 16-bit floats at the fp32 rate
    assert gpu.memory_bandwidth_bytes_per_s == bytes_per_s
    assert gpu.interconnect == "none" and gpu.vendor == "Apple"


def test_every_apple_chip_is_of_the_apple_family():
    """One family, so that an Apple plan is held to the MFU of Apple runs (engine/timing/ceiling.py), not left without
    a ceiling as a family-less ('default') GPU with no run of its own is."""
    apple = [g.id for g in gpu_presets().values() if g.vendor == "Apple"]
    assert len(apple) >= 9
    for gpu_id in apple:
        assert hardware_for(scenario_from_dict({**M4_MAX_LORA, "gpu": gpu_id})).arch == "apple", gpu_id


@pytest.mark.parametrize(("gpu_id", "measured_tflops", "peak_tflops"), [
    # chsasank/device-benchmarks README.md at 7ccc883, 'TFLOPs (FP32)' of torch.matmul on mps
    ("apple-m3-max-128gb", 11.4, 16.4),
    ("apple-m4-max-64gb", 13.27, 18.4),
    ("apple-m2-ultra-192gb", 20.0, 27.2),
])
def test_apple_matmuls_run_at_their_measured_share(gpu_id, measured_tflops, peak_tflops):
    # no power-limit share is known for these chips (sustained_compute_fraction keeps its default of 1)
    assert rate_share(gpu_id, "fp32") == pytest.approx(measured_tflops / peak_tflops, abs=0.001)


def test_an_apple_lora_plan_is_held_to_the_best_apple_lora_run():
    """mlx-tune's Qwen3-0.6B LoRA at 4,096 tokens on an M4 Pro, 0.28 it/s (ARahim3/mlx-tune docs/performance.html at
    6a22a508) is the best frozen-weights bf16 run of the family: measured MFU = model FLOPs x 1,146.9 tokens/s over the
    M4 Pro's 9.2 TFLOPS, with attention counted whole (the count the ceilings and the cap use: engine/timing/ceiling.py).
    An M4 Max plan of the same family and kind may claim at most 1.1 x that (the M4 Pro and M4 Max share their matmul
    fraction, so nothing is carried between them), where the time model alone gave 67.4% in that count."""
    (row,) = rows_matching(["mlx-tune-qwen3-0.6b-lora-4096"])
    run = scenario_from_dict(row["scenario"])
    measured_whole = mfu_figures(run, resolve_model(run), float(row["measured"]), causal=False)[0]
    ceiling = mfu_ceiling("apple-m4-max-64gb", "apple", "bf16", moe=False, frozen=True)
    assert ceiling is not None and ceiling.row == row["id"]
    assert ceiling.mfu == pytest.approx(1.1 * measured_whole, rel=1e-3)
    s = scenario_from_dict(M4_MAX_LORA)
    with without_ceilings():
        own = step_time(s).mfu_attention_whole
    held = step_time(s)
    assert own > 0.8 * ceiling.mfu  # the model's own MFU is past the knee, so the ceiling binds
    assert held.mfu_attention_whole < own and held.mfu_attention_whole < ceiling.mfu
    assert held.mfu < held.mfu_attention_whole  # the shown MFU counts the causal half: lower still


def test_apple_runs_of_one_format_do_not_bind_another():
    """The transformer_lm runs (ml-explore/mlx-examples issue #127) trained in float32, the LoRA run in bf16: a
    ceiling is filed by compute format, so the fp32 runs' lower MFU (0.34-0.41) does not hold a bf16 plan."""
    fp32 = mfu_ceiling("apple-m3-max-128gb", "apple", "fp32", moe=False, frozen=False)
    bf16 = mfu_ceiling("apple-m3-max-128gb", "apple", "bf16", moe=False, frozen=True)
    assert fp32 is not None and fp32.source == "ml-explore/mlx-examples"
    assert bf16 is not None and bf16.source == "ARahim3/mlx-tune"
