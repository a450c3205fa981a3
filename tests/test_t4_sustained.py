"""The T4's matmuls at the rate its 70 W power cap sustains (presets/efficiency.json sustained_compute_fraction t4):
NVIDIA developer forum 'About GPU peak performance' (topic 264462) times cuBLAS fp16 4,096^3 GEMMs back to back at
about 24 TFLOPS against the datasheet's 65, and NVIDIA's reply names the power cap as the cause."""
from __future__ import annotations

import math

from engine import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import efficiency, per_gpu

T4_FP16_PEAK_TFLOPS = 65.0  # NVIDIA T4 datasheet (presets/gpus.json)
T4_MEASURED_SUSTAINED_TFLOPS = 24.0  # the forum's cuBLAS measurement


def test_t4_share_is_the_forums_sustained_rate_over_the_default_short_run_rate():
    # no short-run (MAMF) figure for the T4: it takes the table's default fraction
    assert "t4" not in efficiency()["matmul_fraction_of_peak"]
    short_run = T4_FP16_PEAK_TFLOPS * per_gpu("matmul_fraction_of_peak", "t4")
    assert per_gpu("sustained_compute_fraction", "t4") == round(T4_MEASURED_SUSTAINED_TFLOPS / short_run, 3) == 0.473


def test_a_t4_steps_fp16_matmuls_run_at_the_measured_rate_and_its_memory_keeps_its_own():
    hw = hardware_for(scenario_from_dict({"model": "llama-3.2-1b", "gpu": "t4"}))
    rate = hw.peak("fp16") * hw.matmul_fraction * hw.sustained_fraction
    assert math.isclose(rate, T4_MEASURED_SUSTAINED_TFLOPS * 1e12, rel_tol=2e-3)
    # the memory clock is not pulled down with the SM clock (the table's _source): the stream rate is the default's
    assert math.isclose(hw.memory_bytes_per_s, 320e9 * efficiency()["memory_bandwidth_fraction"]["value"])
