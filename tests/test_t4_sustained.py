"""The T4's matmuls at the rate its 70 W power cap sustains (presets/efficiency.json sustained_compute_fraction t4):
NVIDIA developer forum 'About GPU peak performance' (topic 264462) times cuBLAS fp16 4,096^3 GEMMs back to back at
about 24 TFLOPS against the datasheet's 65, and NVIDIA's reply names the power cap as the cause. Its GDDR6 streams at
the share CUDA's bandwidthTest measures on a T4 (presets/efficiency.json memory_bandwidth_fraction _gpu t4)."""
from __future__ import annotations

import math

from engine import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import efficiency, per_gpu

T4_FP16_PEAK_TFLOPS = 65.0  # NVIDIA T4 datasheet (presets/gpus.json)
T4_MEASURED_SUSTAINED_TFLOPS = 24.0  # the forum's cuBLAS measurement
T4_DATASHEET_BYTES_PER_S = 320e9  # NVIDIA T4 datasheet: 320 GB/s GDDR6 (presets/gpus.json t4)


def test_t4_share_is_the_forums_sustained_rate_over_the_default_short_run_rate():
    # no short-run (MAMF) figure for the T4: it takes the table's default fraction
    assert "t4" not in efficiency()["matmul_fraction_of_peak"]
    short_run = T4_FP16_PEAK_TFLOPS * per_gpu("matmul_fraction_of_peak", "t4")
    assert per_gpu("sustained_compute_fraction", "t4") == round(T4_MEASURED_SUSTAINED_TFLOPS / short_run, 3) == 0.473


def test_a_t4_steps_fp16_matmuls_run_at_the_measured_rate_and_its_memory_keeps_its_own():
    hw = hardware_for(scenario_from_dict({"model": "llama-3.2-1b", "gpu": "t4"}))
    rate = hw.peak("fp16") * hw.matmul_fraction * hw.sustained_fraction
    assert math.isclose(rate, T4_MEASURED_SUSTAINED_TFLOPS * 1e12, rel_tol=2e-3)
    # the memory clock is not pulled down with the SM clock (the table's _source): the stream rate is the card's own
    # measured copy (test below), not scaled by the sustained matmul share
    assert math.isclose(hw.memory_bytes_per_s, T4_DATASHEET_BYTES_PER_S * hw.memory_fraction)
    assert math.isclose(hw.memory_fraction, efficiency()["memory_bandwidth_fraction"]["_gpu"]["t4"])


def test_t4_streams_at_its_measured_device_to_device_copy():
    # CUDA's bandwidthTest (quick mode, 32 MB cudaMemcpy device to device) on a cloud Tesla T4: 239.6 GB/s
    # (router-gao/cuda-demo cuda-samples/02-cuda-bandwidth.md at 8e2367b4), a figure that counts the bytes read and
    # written (NVIDIA/cuda-samples bandwidthTest.cu testDeviceToDeviceTransfer: 2 x memSize per copy), against the
    # datasheet's 320 GB/s (256-bit GDDR6 at 5,001 MHz)
    measured_read_write_bytes_per_s = 239.6e9
    table = efficiency()["memory_bandwidth_fraction"]
    assert table["_gpu"]["t4"] == round(measured_read_write_bytes_per_s / T4_DATASHEET_BYTES_PER_S, 3) == 0.749
    assert table["_gpu"]["t4"] < table["value"]  # the default (BabelStream Triad on A100/H100) would over-state it
    hw = hardware_for(scenario_from_dict({"model": "qwen3-4b", "gpu": "t4"}))
    assert math.isclose(hw.memory_bytes_per_s, measured_read_write_bytes_per_s, rel_tol=2e-3)
