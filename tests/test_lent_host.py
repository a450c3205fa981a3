"""The lent H200 host (presets/host_overhead.json hosts lent-h200; scenario key host_cpu) and the Hugging Face eager
host counts behind it (hf_eager_layers, counted by validation/hf_host_counts.py on transformers 5.17.0 / torch 2.11.0;
engine/timing/hf_host.py).

Its one fitted figure, the factor on the published DGX per-call figures, is derived from the Qwen2.5-0.5B rows of
tests/data/gpu_measured only (benchmarks/lent_host_factor.py); the other families' rows check it."""

from __future__ import annotations

import statistics
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine.accuracy.measured_gpu import scenario_of
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.hf_host import counted_layers, eager_counts, synchronised_phases
from engine.timing.host import host_call_seconds, host_figures
from engine.timing.model import step_time

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import lent_host_factor  # noqa: E402

# measured now (benchmarks/lent_host_factor.py): from Qwen's rows the other families' median |error| is 4.6%; tighten,
# never loosen. 5.1% since the H200's element-wise rate is its measured BabelStream Triad (0.865 of peak where 0.85
# was taken; presets/efficiency.json memory_bandwidth_fraction _gpu, h-hbm): a regression reported with that change.
# 5.3% since the eager row counts transformers' RoPE per q and k head (20 per unit, h-hfops2): Qwen2.5's 14 query and 2
# key/value heads move more RoPE bytes, its fitted factor goes 2.44 -> 2.45 and Gemma 2's rows -5.3%/-4.9% ->
# -5.5%/-5.1% (Llama 3.2's bf16 row -2.9% -> -2.5%): a regression reported with that change. 5.0% since the layer's
# own Python beyond its counted calls is measured (hf_layer_python, benchmarks/hf_layer_host_seconds.py, h-hflayer):
# the fitted factor goes 2.45 -> 1.34 (the median 5.02%), Gemma 2's rows -5.5%/-5.1% -> -5.2%/-4.8%
LEFT_OUT_MEDIAN_MEASURED = 0.051


def _scenario(model: str, **keys):
    return scenario_from_dict({"model": model, "gpu": "h200", "method": "full", "precision": "bf16",
                               "micro_batch": 1, "seq_len": 2048, **keys})


def test_the_preset_factor_is_the_one_derived_from_the_qwen_rows():
    preset = host_figures()["hosts"]["lent-h200"]["factor"]
    assert lent_host_factor.derive(lent_host_factor.DERIVED_FROM) == pytest.approx(preset, abs=0.01)


def test_the_factor_from_qwen_holds_on_the_families_left_out():
    family, _factor, others = next(x for x in lent_host_factor.leave_one_family_out()
                                   if x[0] == lent_host_factor.DERIVED_FROM)
    assert {r.id.split("_")[0] for r in others} == {"llama-3.2-1b", "gemma-2-2b"}
    assert statistics.median(abs(r.error) for r in others) <= LEFT_OUT_MEDIAN_MEASURED


def test_the_named_host_is_slower_and_waits_at_each_phase():
    s = _scenario("qwen2.5-0.5b")
    lent = replace(s, host_cpu="lent-h200")
    assert not synchronised_phases(s) and synchronised_phases(lent)
    factor = host_figures()["hosts"]["lent-h200"]["factor"]
    assert host_call_seconds(lent)[0] == pytest.approx(host_call_seconds(s)[0] * factor)
    # the default host runs ahead of the GPU over the micro-batch; the lent one waits at each phase's end
    assert step_time(lent).step_seconds > step_time(s).step_seconds


def test_only_frameworks_running_transformers_layers_take_the_counts():
    """presets/efficiency.json frameworks: host_layers hf-eager on the huggingface profile (Trainer, TRL, ms-swift,
    verl, NeMo-RL); torchtitan runs its own layers and keeps the eager launch stack."""
    s = _scenario("qwen2.5-0.5b")
    assert counted_layers(s) and not counted_layers(replace(s, framework="torchtitan"))


def test_a_small_model_at_batch_one_is_host_bound_on_the_trainer():
    """Qwen2.5-0.5B at b=1, s=2048 on an H100: 24 layers of about 1.2 ms host work each (hf_eager_layers at the DGX
    figures) against less GPU work, so the GPU waits for the host."""
    s = _scenario("qwen2.5-0.5b", gpu="h100-sxm-80gb")
    assert step_time(s).breakdown_seconds["host"] > 0.0


def test_measured_rows_select_the_lent_host():
    case = {"scenario": {"model": "qwen2.5-0.5b", "method": "full"}}
    assert scenario_of(case, "h200")["host_cpu"] == "lent-h200"


def test_counts_follow_the_model_type_precision_and_attention():
    table = host_figures()["hf_eager_layers"]
    fields = table["fields"]
    llama = eager_counts(_scenario("llama-3.2-1b"), resolve_model(_scenario("llama-3.2-1b")))["per_layer"]
    assert [llama[f] for f in fields] == table["by_model_type"]["llama"]["bf16-sdpa"]["per_layer"]
    # Mistral's decoder layer is Llama's (transformers models/mistral): it takes llama's counts
    mistral = _scenario("mistral-7b", precision="amp-bf16")
    assert eager_counts(mistral, resolve_model(mistral))["per_layer"] == eager_counts(
        replace(mistral, model="llama-3.2-1b"), resolve_model(_scenario("llama-3.2-1b")))["per_layer"]
    # autocast adds a cast kernel per fp32 weight and input of each matmul, forward and backward
    amp = eager_counts(_scenario("llama-3.2-1b", precision="amp-bf16"), resolve_model(_scenario("llama-3.2-1b")))
    assert amp["per_layer"]["kernels"] > llama["kernels"] and amp["per_layer"]["backward_kernels"] > llama[
        "backward_kernels"]
    assert amp["per_layer"]["python_calls"] == llama["python_calls"]  # autocast casts below Python
