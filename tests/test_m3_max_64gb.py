"""The MacBook Pro M3 Max 64GB (user audit 14: a hobbyist planning a Llama 3.1 8B LoRA with MLX on one) had no preset,
only the 128 GB M3 Max beside a 64 GB M4 Max and M2 Max. Apple sells 64 GB only with the 40-core M3 Max, so its GPU
figures are the 128 GB preset's (400 GB/s, 16.4 TFLOPS: presets/gpus.json speed_source) and its pool 64 GiB, of which
Metal lets the GPU take about 75% (usable_fraction, its sources in the preset). And where the GPU's share is over the
whole pool, nothing is left for the CPU side: the verdict said "0.00 GiB set" of CPU memory nobody set, and the
Breakdown's footer "more than the host memory set": both say "available" now."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from engine import estimate, scenario_from_dict
from engine.models.presets import get_gpu
from gui.app import settle
from tests.window_helpers import window_from

GIB = 2**30
# the audit's plan: micro-batch 4 x 2,048 tokens without checkpointing, over the 48 GiB the GPU may take
MAC_LORA = {"schema_version": 1, "name": "Llama 3.1 8B LoRA on my M3 Max 64GB", "model": "llama-3.1-8b",
            "gpu": "apple-m3-max-64gb", "framework": "mlx", "method": "lora", "precision": "bf16", "lora_rank": 8,
            "lora_targets": "all-linear", "micro_batch": 4, "seq_len": 2048, "checkpointing": "none"}


def test_the_64gb_m3_max_is_the_40_core_gpu_with_half_the_pool():
    small, large = get_gpu("apple-m3-max-64gb"), get_gpu("apple-m3-max-128gb")
    assert small.memory_bytes == 64 * GIB and small.shares_host_memory
    assert (small.memory_bandwidth_bytes_per_s, small.dense_peak_tflops) == (
        large.memory_bandwidth_bytes_per_s, large.dense_peak_tflops)


def test_the_same_plan_needs_the_same_bytes_of_a_smaller_capacity():
    # only the pool differs: the plan's bytes are the same, the GPU's capacity Metal's share of 64 GiB
    on_64 = estimate(scenario_from_dict({**MAC_LORA, "checkpointing": "full"}))
    on_128 = estimate(scenario_from_dict({**MAC_LORA, "checkpointing": "full", "gpu": "apple-m3-max-128gb"}))
    assert on_64.total_bytes == on_128.total_bytes and on_64.fits
    assert on_64.capacity_bytes == int(0.75 * 64 * GIB) and on_128.capacity_bytes == int(0.75 * 128 * GIB)


def test_the_verdict_says_no_cpu_memory_is_left_not_that_none_was_set():
    est = estimate(scenario_from_dict(MAC_LORA))
    assert est.total_bytes > 64 * GIB and est.host_capacity_bytes == 0 and not est.fits
    assert str(est.room()).endswith("needs 2.50 GiB per node, 0.00 GiB available")


def test_the_window_takes_the_preset_and_says_the_same(qtbot, tmp_path):
    window = window_from(qtbot, tmp_path, MAC_LORA, name="mac.json")
    settle(QApplication.instance())
    words = window.verdict.text()
    assert "0.00 GiB available" in words and " set" not in words
    footer = window.table.phases.text()  # the Breakdown's footer said "(more than the host memory set)"
    assert "CPU memory per node 2.50 GiB (more than the host memory available)" in footer
