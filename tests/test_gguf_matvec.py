"""llama.cpp's quantized mat-vec share by memory kind (engine/serving/gguf_matvec.py, presets/efficiency.json
gguf_quantized_matvec_fraction): each constant is the median of the measured marginal rates of its memory kind in
tests/data/published/llamacpp_decode_rates.json (recomputed here, not typed in), checked leave-one-source-out, and
applied only where the kernel runs: a GGUF engine's quantized weights at one token."""

from __future__ import annotations

import statistics

import pytest

from engine.accuracy.gguf_kernel_rates import marginal_rates
from engine.scenario import scenario_from_dict
from engine.serving import gguf_matvec as gm
from engine.timing.data import efficiency
from engine.timing.hardware import hardware_for

VALUES = efficiency()["gguf_quantized_matvec_fraction"]["value_by_memory"]


def _quantized_fractions(source: str | None = None) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for m in marginal_rates():
        if m.weight_format != "F16" and (source is None or m.source_id == source):
            out.setdefault(gm.memory_kind(m.gpu), []).append(m.fraction_of_peak)
    return out


def test_memory_kind_is_the_presets_memory() -> None:
    # presets/gpus.json memory_label: "24 GB GDDR6X", "80 GB HBM2e"; Apple silicon's unified memory
    assert gm.memory_kind("rtx-3090") == "gddr" and gm.memory_kind("l40s") == "gddr"
    assert gm.memory_kind("a100-80gb") == "hbm" and gm.memory_kind("h100-pcie-80gb") == "hbm"
    assert gm.memory_kind("apple-m3-ultra-512gb") == "unified"


def test_each_value_is_the_median_of_its_memory_kinds_marginal_rates() -> None:
    fractions = _quantized_fractions()
    assert {k: len(v) for k, v in fractions.items()} == {"gddr": 9, "hbm": 3, "unified": 3}
    for kind, values in fractions.items():
        assert VALUES[kind] == pytest.approx(statistics.median(values), abs=0.005), kind


def test_leave_one_source_out() -> None:
    """Fitted on one source's pairs, the other's median lies within 0.06 (the _source's figures: December 2023
    0.78 / 0.55 / 0.76 against May 2024 0.80 / 0.49 / 0.69)."""
    dec, may = _quantized_fractions("xd-llama2-dec2023"), _quantized_fractions("xd-llama3-may2024")
    for kind in VALUES:
        assert statistics.median(dec[kind]) == pytest.approx(statistics.median(may[kind]), abs=0.08), kind
    assert statistics.median(dec["gddr"]) == pytest.approx(0.78, abs=0.005)
    assert statistics.median(may["gddr"]) == pytest.approx(0.80, abs=0.005)


def test_the_factor_applies_to_quantized_gguf_weights_at_one_token() -> None:
    base = {"model": "llama-2-7b", "gpu": "rtx-3090", "workload": "inference", "serving_engine": "llama.cpp",
            "weight_format": "Q4_0"}
    s = scenario_from_dict(base)
    # the stream's fraction (presets/efficiency.json memory_bandwidth_fraction, 0.85) over the GDDR mat-vec's
    assert gm.gguf_matvec_read_factor(s, 1) == pytest.approx(hardware_for(s).memory_fraction / VALUES["gddr"])
    assert gm.gguf_matvec_read_factor(s, 1) == pytest.approx(0.85 / 0.78, rel=0.01)
    assert gm.gguf_matvec_read_factor(s, 4) == 1.0  # a batch is not the one-token mat-vec
    assert gm.gguf_matvec_read_factor(scenario_from_dict({**base, "weight_format": "F16"}), 1) == 1.0
    assert gm.gguf_matvec_read_factor(scenario_from_dict({**base, "serving_engine": "vllm", "weight_format": "bf16"}),
                                      1) == 1.0
    h100 = scenario_from_dict({**base, "gpu": "h100-pcie-80gb"})
    assert gm.gguf_matvec_read_factor(h100, 1) == pytest.approx(hardware_for(h100).memory_fraction / VALUES["hbm"])
