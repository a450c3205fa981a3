"""Issue 23 item 5, plans experts would choose: the checkpointing modes and training methods each framework runs
(engine/frameworks/runs.py, each fact with its source) keep the searches from proposing what it has no code for, the
estimate says which it cannot run, and the nearest runnable scenario changes them to what it has.

The cases are the issue's own: Hugging Face's throughput plan 2 for examples/7b-zero3-8x-a100-40g.json was
"checkpointing=selective", which transformers does not have (its gradient_checkpointing wraps whole decoder layers:
huggingface/transformers 00029cfa0ed7 src/transformers/modeling_layers.py GradientCheckpointingLayer.__call__); SC21's
GPT 1T and 530B first plans (framework megatron-2021) recomputed selectively, which Megatron-LM of 2021 did not have
(NVIDIA/Megatron-LM de7dc40f88 megatron/arguments.py: --checkpoint-activations only; --recompute-granularity selective
came with arXiv:2205.05198)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import TABLE, defaults_for
from engine.frameworks.runs import ADAPTERS, ALL_CHECKPOINTINGS, ALL_METHODS
from engine.planning.solver import plan_search
from engine.planning.speed_search import speed_search
from engine.planning.suggest import suggestions
from engine.scenario.choices import ADAPTER_METHODS, CHECKPOINTINGS, METHODS
from engine.scenario.framework_support import cannot_run, framework_runs, unsupported_settings
from engine.scenario.runnable import runnable_layouts

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((REPO / "examples" / "7b-zero3-8x-a100-40g.json").read_text())
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b")
HF_LABEL = "Hugging Face (Trainer / TRL / accelerate)"  # engine/frameworks/defaults.py, the row's label


def _source(framework: str, fact: str) -> str:
    found = [where for what, where in defaults_for(framework).runs.sources if fact in what.split(", ")]
    assert found, f"{framework}: no source for {fact}"
    return found[0]


def test_the_modes_and_methods_are_the_scenario_formats():
    assert ALL_CHECKPOINTINGS == CHECKPOINTINGS and ALL_METHODS == METHODS and set(ADAPTERS) == ADAPTER_METHODS


def test_every_restricted_fact_names_its_source_at_a_commit():
    """A mode or method is refused only with a source naming the repository's commit it was read at."""
    for fid, row in TABLE.items():
        runs = row.runs
        if runs.checkpointings != ALL_CHECKPOINTINGS:
            assert COMMIT.search(_source(fid, "checkpointing")), fid
        if runs.lacks or runs.one_gpu:
            assert COMMIT.search(_source(fid, "methods")), fid
        assert {"none", "full"} <= set(runs.checkpointings), fid  # the nearest mode (full) runs everywhere


def test_no_published_run_is_flagged():
    """Every published row, throughput and memory (tests/data/published/published.json, posttraining.json), ran: its
    framework runs its checkpointing and its method on its GPUs."""
    rows = [r["scenario"] for r in load_rows()]
    assert len(rows) > 1000  # the whole throughput set (1,311 rows when this was written)
    for name in ("published.json", "posttraining.json"):
        data = json.loads((REPO / "tests" / "data" / "published" / name).read_text())
        rows += [r["scenario"] for r in (data if isinstance(data, list) else data.get("rows", [])) if r.get("scenario")]
    flagged = [(s.name, cannot_run(s)) for s in map(scenario_from_dict, rows) if cannot_run(s)]
    assert flagged == []


def test_hugging_face_recomputes_whole_layers_only():
    s = scenario_from_dict({**EXAMPLE, "checkpointing": "selective"})
    assert cannot_run(s) == ("checkpointing",)
    assert [str(m) for m in unsupported_settings(s)] == [
        f'{HF_LABEL} recomputes whole layers only: checkpointing "selective" cannot run in it.']
    assert "GradientCheckpointingLayer" in _source("huggingface", "checkpointing")
    assert [lay.changes for lay in runnable_layouts(s)] == [{"checkpointing": "full"}]  # the nearest it runs
    assert str(runnable_layouts(s)[0].step) == f"set checkpointing=full so {HF_LABEL} can run the training"
    assert any("whole layers only" in str(w) for w in estimate(s).warnings)  # estimated as typed, with the reason


def test_the_hugging_face_throughput_search_proposes_no_selective_recomputation():
    """The issue's reproduction: `fit --objective throughput examples/7b-zero3-8x-a100-40g.json`."""
    result = speed_search(scenario_from_dict(EXAMPLE))
    assert result.plans
    plans = [*result.plans, *result.changes_what_you_train]
    assert all(p.scenario.checkpointing in ("none", "full") and framework_runs(p.scenario) for p in plans)


@pytest.mark.parametrize("row_id", ["megatron-sc21-table1-gpt-1008.0b-3072xa100",
                                    "megatron-sc21-table1-gpt-529.6b-2520xa100"])
def test_sc21_first_plans_recompute_as_2021_megatron_could(row_id):
    s = next(scenario_from_dict(r["scenario"]) for r in load_rows() if r["id"] == row_id)
    assert s.framework == "megatron-2021" and defaults_for(s.framework).runs.checkpointings == ("none", "full")
    assert "de7dc40f88" in _source("megatron-2021", "checkpointing")
    plans = speed_search(s).plans
    assert plans and all(p.scenario.checkpointing in ("none", "full") for p in plans)


def test_megatron_has_no_qlora_and_its_searches_offer_none():
    """Megatron-Bridge 067f987df03b src/megatron/bridge/peft: LoRA, canonical LoRA, DoRA; no QLoRA."""
    typed = scenario_from_dict({**EXAMPLE, "framework": "megatron", "zero_stage": 1, "method": "qlora"})
    assert cannot_run(typed) == ("method",)
    assert [str(m) for m in unsupported_settings(typed)] == ["Megatron-LM / NeMo has no QLoRA."]
    assert [lay.changes for lay in runnable_layouts(typed)] == [{"method": "lora"}]
    full = scenario_from_dict({**EXAMPLE, "framework": "megatron", "zero_stage": 1})
    result = speed_search(full)
    assert result.changes_what_you_train  # 8-bit AdamW and LoRA are still tried
    assert all(p.scenario.method != "qlora" for p in result.changes_what_you_train)
    assert all(sug.changes.get("method") != "qlora" for sug in suggestions(
        scenario_from_dict({**EXAMPLE, "framework": "megatron", "zero_stage": 1, "method": "lora"})))
    assert all(p.scenario.method != "qlora" for p in plan_search(full).plans)
    # a typed QLoRA scenario: no plan of the method it lacks, its nearest (LoRA) tried as a change of what you train
    typed_result = speed_search(typed)
    assert not typed_result.plans and typed_result.changes_what_you_train
    assert {p.scenario.method for p in typed_result.changes_what_you_train} == {"lora"}


def test_megatron_op_selective_becomes_its_own_selective():
    """Megatron-LM d98e8a64ddf3 transformer_config.py recompute_granularity: 'full' | 'selective', no per-op policy."""
    s = scenario_from_dict({**EXAMPLE, "framework": "megatron", "zero_stage": 1, "checkpointing": "op-selective"})
    assert cannot_run(s) == ("checkpointing",)
    assert [str(m) for m in unsupported_settings(s)] == [
        'Megatron-LM / NeMo has no checkpointing "op-selective": it runs none, full, selective.']
    assert [lay.changes for lay in runnable_layouts(s)] == [{"checkpointing": "selective"}]


def test_litgpt_runs_qlora_on_one_gpu_only():
    """litgpt 26857050fe3f finetune/lora.py lines 152-156: --quantize with devices * num_nodes > 1 raises."""
    one = scenario_from_dict({**EXAMPLE, "framework": "litgpt", "zero_stage": 0, "gpus_per_node": 1,
                              "method": "qlora"})
    assert not cannot_run(one)
    eight = scenario_from_dict({**EXAMPLE, "framework": "litgpt", "zero_stage": 0, "method": "qlora"})
    assert cannot_run(eight) == ("method",)
    assert [str(m) for m in unsupported_settings(eight)] == ["LitGPT runs QLoRA on one GPU only: 8 GPUs cannot run it."]
    assert [lay.changes for lay in runnable_layouts(eight)] == [{"method": "lora"}]


def test_torchtitan_runs_its_per_op_policy_both_ways_and_has_no_qlora():
    """torchtitan b5bcd76c66d0: SelectiveAC is per-op (selective and op-selective); components/lora.py, no 4-bit base."""
    for mode in ("selective", "op-selective"):
        assert not cannot_run(scenario_from_dict({**EXAMPLE, "framework": "torchtitan", "checkpointing": mode}))
    # FSDP (torchtitan's only sharding: a ZeRO-2 layout would be refused for its stage too, parallelism.py TORCHTITAN)
    qlora = scenario_from_dict({**EXAMPLE, "framework": "torchtitan", "method": "qlora", "fsdp": True})
    assert cannot_run(qlora) == ("method",)
    assert [lay.changes for lay in runnable_layouts(qlora)] == [{"method": "lora"}]


def test_frameworks_without_adapters_train_every_weight_instead():
    """InternEvo c18bec9 and Megatron-LM de7dc40f88 have no LoRA: their nearest method is full training."""
    for framework in ("internevo", "megatron-2021"):
        s = scenario_from_dict({**EXAMPLE, "framework": framework, "zero_stage": 0, "method": "lora"})
        assert cannot_run(s) == ("method",)
        assert [lay.changes for lay in runnable_layouts(s)] == [{"method": "full"}]
