"""Every answer of Make it fit respects what the framework can run (engine/frameworks/parallelism.py): the fewest-GPUs
limits count only layouts it runs and say which kind they counted (engine/planning/limits.py counted), the limits and
the largest model of the family are those of the first runnable layout where it cannot run the typed one, and the
suggestions build on both ways out of a two-way conflict. Each expected kind follows from the framework's row, whose
source the test reads back; the GPU counts are the engine's own, checked against estimates of the layouts."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import TABLE, defaults_for
from engine.planning.family import largest_model_that_fits
from engine.planning.fit_report import fit_report, render_fit
from engine.planning.limits import Evaluator, counted, gpu_counts, limits, smallest_layout, with_gpus
from engine.planning.solver import plan_search
from engine.planning.suggest import suggestions
from engine.scenario.framework_support import framework_runs
from engine.scenario.runnable import runnable_layouts

# Llama 3.1 70B with full recompute on one node of H100s: too large for it, so every fewest-GPUs limit is above 8
BIG = {"schema_version": 1, "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1,
       "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "checkpointing": "full"}
HF_PP2 = {**BIG, "framework": "huggingface", "zero_stage": 3, "pp": 2}
DS_PP4_Z3 = {**BIG, "framework": "deepspeed", "zero_stage": 3, "pp": 4}
MEGATRON_2021 = {**BIG, "framework": "megatron-2021", "zero_stage": 0}
# the same on Llama 3.1 8B (tests/test_runnable_layouts.py U3): its runnable layout fits once recompute is on
SMALL = {**BIG, "model": "llama-3.1-8b", "micro_batch": 4, "checkpointing": "none"}


def _source(framework: str, fact: str) -> str:
    return next(where for what, where in defaults_for(framework).parallelism.sources if fact in what.split(", "))


def _counted_layouts(s, strategy):
    """The layouts the fewest-GPUs search for strategy looks at, on every world size it considers."""
    return [lay for n in gpu_counts(s) if (lay := with_gpus(s, n, strategy)) is not None]


# --- 1. the limits count only layouts the framework runs


def test_hugging_face_counts_tp_in_a_node_only():
    # accelerate's ParallelismConfig has no pipeline dimension (the Hugging Face row's source)
    assert "no pipeline dimension" in _source("huggingface", "pipeline schedules")
    s = scenario_from_dict(HF_PP2)
    lay = runnable_layouts(s)[0].scenario  # pp=1: the limits are this layout's
    assert counted(lay, "tp_pp") == "tp" and counted(lay, "zero3") == "zero3"
    assert all(x.pp == 1 and framework_runs(x) for x in _counted_layouts(lay, "tp_pp"))
    report = fit_report(s, max_plans=1)
    # TP alone stops at a node; the replicas beyond it hold the whole 70B each: none fits up to 1024 GPUs (a pipeline
    # across 6 nodes did, but Hugging Face cannot run one). ZeRO-3 shards the weights: 24 GPUs, as before.
    assert report["limits"]["min_gpus"] == {"dp": None, "zero3": 24, "tp_pp": None}
    assert report["limits"]["min_gpus_counted"] == {"dp": "dp", "zero3": "zero3", "tp_pp": "tp"}
    ev = Evaluator()
    assert smallest_layout(lay, "zero3", ev).world_size == 24 and not ev.ok(with_gpus(lay, 16, "zero3"))
    assert "fewest GPUs, TP in a node (Hugging Face (Trainer / TRL / accelerate) has no PP): none up to 1,024" \
        in render_fit(report)


def test_deepspeed_counts_a_pipeline_only_without_zero_2_or_3():
    # deepspeed/runtime/pipe/engine.py at edaa7221 asserts ZeRO < 2 with a pipeline
    assert "ZeroStageEnum.gradients" in _source("deepspeed", "ZeRO with PP")
    s = scenario_from_dict(DS_PP4_Z3)
    lay = runnable_layouts(s)[0].scenario  # the first way out: no pipeline, ZeRO-3 kept
    assert lay.pp == 1 and lay.zero_stage == 3
    assert counted(lay, "zero3") == "zero3" and counted(lay, "tp_pp") == "tp_pp"
    for strategy in ("zero3", "tp_pp"):
        layouts = _counted_layouts(lay, strategy)
        assert layouts and all(framework_runs(x) for x in layouts)
        assert all(x.pp == 1 for x in layouts if x.zero_stage >= 2)  # ZeRO-3 layouts: no pipeline
    found = smallest_layout(lay, "tp_pp", Evaluator())
    assert (found.world_size, found.tp, found.pp, found.zero_stage) == (24, 8, 3, 0)  # a pipeline without sharding
    assert fit_report(s, max_plans=1)["limits"]["min_gpus"] == limits(lay).min_gpus == \
        {"dp": None, "zero3": 24, "tp_pp": 24}


def test_megatron_2021_has_no_fewest_gpus_with_sharding():
    # megatron/arguments.py at de7dc40f88: no --use-distributed-optimizer, no sharding at all
    assert "de7dc40f88" in _source("megatron-2021", "ZeRO")
    s = scenario_from_dict(MEGATRON_2021)
    assert framework_runs(s) and counted(s, "zero3") is None and counted(s, "tp_pp") == "tp_pp"
    report = fit_report(s, max_plans=8)
    assert report["limits"]["min_gpus"]["zero3"] is None and report["limits"]["min_gpus_counted"]["zero3"] is None
    # Megatron's TP and 1F1B pipeline over Llama 3.1 70B's 80 layers: PP 3 (24 GPUs) does not divide them, which
    # Megatron-LM asserts (megatron/model/transformer.py lines 551-552 at de7dc40f88: 'num_layers must be divisible
    # by pipeline_model_parallel_size'; engine/scenario/pipeline_split.py), so TP 8 x PP 4
    assert report["limits"]["min_gpus"]["tp_pp"] == 32
    assert "fewest GPUs, ZeRO-3 / FSDP: none, Megatron-LM (2021) has no sharding" in render_fit(report)
    plans = plan_search(s).plans
    assert plans and all(p.scenario.effective_zero == 0 and framework_runs(p.scenario) for p in plans)


@pytest.mark.parametrize(("framework", "zero", "split"), [
    ("megatron-2022", "zero1", "tp_pp"),  # 285068c8: --use-distributed-optimizer (ZeRO-1) is its only sharding
    ("internevo", "zero1", "tp"),  # train.py asserts pipeline == 1; HybridZeroOptimizer is ZeRO-1
    ("aleph-alpha-scaling", "zero1", "tp_pp"),  # optimizer_config.py: zero, 'enable zero stage 1 optimizer'
    ("litgpt", "zero3", None),  # FSDPStrategy; tensor_parallel_size=1, no pipeline: neither TP nor PP
])
def test_each_framework_counts_what_its_row_allows(framework, zero, split):
    s = scenario_from_dict({**BIG, "framework": framework, "zero_stage": 1 if zero == "zero1" else 0})
    caps = defaults_for(framework).parallelism
    assert counted(s, "zero3") == zero and f"zero{min(caps.max_zero, 3)}" == zero
    assert counted(s, "tp_pp") == split
    lines = render_fit(fit_report(s, max_plans=1))
    assert ("ZeRO-1, the only sharding" in lines) == (zero == "zero1")


def test_every_layout_a_limit_counts_is_one_its_framework_runs():
    for framework in TABLE:
        s = scenario_from_dict({**BIG, "framework": framework, "zero_stage": 0})
        for strategy in ("dp", "zero3", "tp_pp"):
            layouts = _counted_layouts(s, strategy) if counted(s, strategy) else []
            assert all(framework_runs(x) for x in layouts), (framework, strategy)


# --- 2. the limits and the largest model of the family: on the first runnable layout


@pytest.mark.parametrize(("typed", "settings"), [
    (HF_PP2, "pp=1, grad_accum=4"),  # Hugging Face: no pipeline (dp 4 -> 8: half the accumulation)
    (DS_PP4_Z3, "pp=1, grad_accum=2"),  # DeepSpeed: the first way out of ZeRO-3 with a pipeline (dp 2 -> 8)
    ({**MEGATRON_2021, "zero_stage": 1}, "zero_stage=0"),  # Megatron-LM 2021: no sharding at all
])
def test_the_family_is_computed_on_the_first_runnable_layout(typed, settings):
    s = scenario_from_dict(typed)
    lay = runnable_layouts(s)[0]
    assert lay.settings == settings
    fam = largest_model_that_fits(s)
    assert fam.layout_settings == settings
    for c in fam.candidates:  # each member's verdict is its estimate on the runnable layout, not on the typed one
        if c.verdict != "invalid":
            assert c.verdict == estimate(lay.scenario.replace(model=c.model)).verdict, c.model
    text = render_fit(fit_report(s, max_plans=1))
    label = defaults_for(s.framework).label
    assert f"Limits for the layout {label} can run ({settings})" in text
    assert f"Largest Llama 3.1 model that fits the layout {label} can run ({settings}): " in text


def test_a_runnable_scenario_keeps_its_own_family_line():
    s = scenario_from_dict({**HF_PP2, "pp": 1})
    assert largest_model_that_fits(s).layout_settings == ""
    assert "Largest Llama 3.1 model that fits this set-up: " in render_fit(fit_report(s, max_plans=1))


# --- 3. the suggestions: both ways out of a two-way conflict


def test_deepspeed_suggestions_build_on_both_ways_out():
    s = scenario_from_dict({**SMALL, "framework": "deepspeed", "zero_stage": 3, "pp": 4})
    keep_sharding, keep_pipeline = runnable_layouts(s)
    sugs = suggestions(s)
    assert [sug.changes for sug in sugs[:2]] == [keep_sharding.changes, keep_pipeline.changes]
    on_first = [sug for sug in sugs[2:] if sug.effect == keep_sharding.with_it]
    on_second = [sug for sug in sugs[2:] if sug.effect == keep_pipeline.with_it]
    assert on_first and len(on_second) == 1 and len(on_first) + 1 == len(sugs) - 2
    # the second way's best: activation checkpointing (the guide's first change) with ZeRO-1 and the pipeline kept,
    # which fits; it follows the first way's own activation checkpointing
    best = on_second[0]
    assert best.changes == {"zero_stage": 1, "checkpointing": "full"} and best.fits
    assert framework_runs(s.replace(**best.changes))
    at = sugs.index(best)
    assert sugs[at - 1].changes == {**keep_sharding.changes, "checkpointing": "full"}
    outcomes = [s.replace(**sug.changes) for sug in sugs]
    assert len(set(outcomes)) == len(outcomes)  # no duplicates


@pytest.mark.parametrize("typed", [{**SMALL, "framework": "huggingface", "zero_stage": 3, "pp": 2},
                                   {**SMALL, "framework": "megatron-2021", "zero_stage": 1}])
def test_one_way_out_keeps_its_suggestions(typed):
    # Hugging Face (no pipeline) and Megatron-LM 2021 (no sharding) have a single way out: every change builds on it
    s = scenario_from_dict(typed)
    (lay,) = runnable_layouts(s)
    sugs = suggestions(s)
    assert sugs[0].changes == lay.changes and len(sugs) > 1
    assert all(sug.effect == lay.with_it for sug in sugs[1:])
    assert all(framework_runs(s.replace(**sug.changes)) for sug in sugs)
