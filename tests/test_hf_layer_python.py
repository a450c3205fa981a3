"""The eager Hugging Face decoder layer's host work beyond its counted calls (presets/host_overhead.json
hf_layer_python; engine/timing/hf_host.py), measured by benchmarks/hf_layer_host_seconds.py on the CPU: thread seconds
per layer (4 layers less 2) of transformers' real layers, less the model's counted calls at the same CPU's per-call
prices, in view calls. tests/data/hf_layer_host holds the measurements (transformers 5.17.0 and 4.52.4, torch 2.13.0
CPU, peft 0.15.2)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.scenario.memo import memo_tables
from engine.serving.host_iteration import transformers_layer_host_seconds
from engine.timing.hf_host import (
    counted_host,
    counted_layers,
    layer_python_view_calls,
    padding_free_syncs,
    synced_layer_idle,
)
from engine.timing.host import host_call_seconds, host_figures

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "hf_layer_host"
sys.path.insert(0, str(ROOT / "benchmarks"))

from hf_layer_residual import by_model_type, figures, residual  # noqa: E402


def _scenario(model: str = "qwen2.5-0.5b", **keys):
    return scenario_from_dict({"model": model, "gpu": "h100-sxm-80gb", "framework": "huggingface", "method": "full",
                               "precision": "bf16", "micro_batch": 1, "seq_len": 2048, **keys})


def _measured(*names: str) -> dict:
    files = [json.loads((DATA / n).read_text()) for n in names]
    return {**files[0], "per_layer_s_runs": {k: v for f in files for k, v in f["per_layer_s_runs"].items()}}


def test_the_preset_figures_are_the_5_17_measurement_less_the_counted_calls():
    """The shared figures (Llama's and Qwen2's paths) and each other type's own, recomputed from the stored runs."""
    result = residual(_measured("transformers-5.17.0.json", "transformers-5.17.0-other-types.json"))
    shared, own = figures(result), by_model_type(result)
    table = host_figures()["hf_layer_python"]
    for key in ("forward", "grad_forward", "backward", "decode"):
        assert table[key] == pytest.approx(shared[key], abs=0.1)
    assert table["checkpoint"] == pytest.approx([shared["checkpoint_forward"], shared["checkpoint_backward"]], abs=0.1)
    assert table["peft_per_adapted_linear"] == pytest.approx(
        [shared["peft_forward"], shared["peft_grad_forward"], shared["peft_backward"]], abs=0.1)
    for model_type, figs in table["by_model_type"].items():
        for key, value in figs.items():
            if key != "decode":
                assert value == pytest.approx(own[model_type][key], abs=0.1)
            else:
                assert value == pytest.approx(result[f"{model_type}-sdpa"]["decode"]["beyond_view_calls"], abs=0.1)


def test_the_older_release_s_layer_costs_about_as_much():
    """transformers 4.52.4 (verl's runs' release) against 5.17.0: the no-grad forward and the backward within 10%
    (106.4 and 198.6 against 103.5 and 194.2 view calls), so one table serves both."""
    old = figures(residual(_measured("transformers-4.52.4.json")))
    table = host_figures()["hf_layer_python"]
    assert old["forward"] == pytest.approx(table["forward"], rel=0.1)
    assert old["backward"] == pytest.approx(table["backward"], rel=0.1)


def test_the_counted_host_carries_the_figures_at_the_run_s_view_call():
    s = _scenario(checkpointing="full")
    spec = resolve_model(s)
    view = host_call_seconds(s)[1]
    table = host_figures()["hf_layer_python"]
    h = counted_host(s, spec)
    assert h.grad_forward == pytest.approx(table["grad_forward"] * view)
    py = layer_python_view_calls(s, spec)
    assert (py.forward, py.backward) == (table["forward"], table["backward"])
    # LoRA through PEFT adds its per adapted linear (all-linear: 7 in a Qwen2 layer)
    lora = layer_python_view_calls(replace(s, method="lora", lora_targets="all-linear"), spec)
    assert lora.forward - py.forward == pytest.approx(7 * table["peft_per_adapted_linear"][0])


def test_without_the_layer_python_the_counted_host_is_what_it_was(monkeypatch):
    """The figures only add: zero them and the layer's forward loses exactly forward x view."""
    s = _scenario()
    spec = resolve_model(s)
    view = host_call_seconds(s)[1]
    with_python = counted_host(s, spec).layer_forward
    table = dict(host_figures()["hf_layer_python"])
    monkeypatch.setitem(host_figures(), "hf_layer_python", {**table, "forward": 0.0})
    for memo in memo_tables():
        memo.clear()
    try:
        assert with_python - counted_host(s, spec).layer_forward == pytest.approx(table["forward"] * view)
    finally:
        for memo in memo_tables():
            memo.clear()


def test_a_decode_step_adds_the_measured_decode_figure(monkeypatch):
    s = _scenario()
    spec = resolve_model(s)
    full = transformers_layer_host_seconds(s, spec)
    table = dict(host_figures()["hf_layer_python"])
    monkeypatch.setitem(host_figures(), "hf_layer_python", {**table, "decode": 0.0})
    assert full - transformers_layer_host_seconds(s, spec) == pytest.approx(
        table["decode"] * host_figures()["view_seconds"]["value"])


def test_moe_types_take_their_own_figures():
    s = _scenario("olmoe-1b-7b")
    own = host_figures()["hf_layer_python"]["by_model_type"]["olmoe"]
    assert layer_python_view_calls(s, resolve_model(s)).forward == own["forward"]


def test_the_padding_free_flash_path_synchronises_four_times_a_layer():
    """transformers 4.52.4's _flash_attention_forward on padding-free rows (counted by
    benchmarks/verl_lora_host_counts.py: 4 forward syncs a layer); SDPA, or padded rows, none."""
    s = _scenario(attention="flash", packing="padding-free")
    assert padding_free_syncs(s) == 4
    assert padding_free_syncs(replace(s, attention="sdpa")) == 0
    assert padding_free_syncs(replace(s, packing="none")) == 0
    # after a sync the queue is empty: the round trips, and the host's seconds beyond the GPU's, are exposed
    assert synced_layer_idle(3e-3, 1e-3, 4, 30e-6) == pytest.approx(4 * 30e-6 + 2e-3)
    assert synced_layer_idle(1e-3, 3e-3, 4, 30e-6) == pytest.approx(4 * 30e-6)


def test_unsloth_s_patched_layers_are_not_counted():
    """Unsloth runs its own fast paths (its profile has no host_layers hf-eager): none of this applies there."""
    assert counted_layers(_scenario()) and not counted_layers(_scenario(framework="unsloth"))


def test_a_trainers_own_generate_of_a_lora_policy_runs_each_layers_peft_modules_every_decode_step():
    # trl f2cd577 grpo_trainer.py: the policy is get_peft_model(...) (line 447) and generate() runs on it, adapters on
    # (lines 1850-1863), so each decode step's layer forward adds what PEFT adds to a scoring forward's layer: the
    # difference between counted_host's LoRA and full-model layer forward (launches, module calls, PEFT's Python and
    # hf_layer_python's measured 13.8 view calls per adapted linear), every layer
    from engine.posttraining.eager_decode import trainer_generate_host_seconds
    from engine.serving.host_iteration import transformers_decode_host_seconds
    from engine.timing.hf_host import peft_forward_host_seconds

    lora = _scenario("qwen2.5-1.5b", framework="trl", method="lora", lora_rank=16)
    full = lora.with_unchecked(method="full")
    spec = resolve_model(lora)
    adapters = counted_host(lora, spec).layer_forward - counted_host(full, spec).layer_forward
    assert peft_forward_host_seconds(lora, spec) == pytest.approx(adapters, rel=1e-9)
    from engine.timing.lora_adapters import peft_adapted_linears
    adapted = peft_adapted_linears(lora, (False, False, ""))  # the scenario's LoRA targets in one layer
    assert adapted > 0 and adapters > adapted * 13.8 * host_figures()["view_seconds"]["value"]  # their measured Python
    assert trainer_generate_host_seconds(lora, spec) == pytest.approx(
        transformers_decode_host_seconds(lora, spec) + spec.layers * adapters, rel=1e-9)
    # a full fine-tune, and a served transformers engine (no adapters), none
    assert peft_forward_host_seconds(full, spec) == 0.0
    assert trainer_generate_host_seconds(full, spec) == pytest.approx(transformers_decode_host_seconds(full, spec))
