"""Issue 23 item 5, layouts experts would choose: a framework's parallelism capabilities (engine/frameworks/
parallelism.py, each fact with its source) keep the searches from proposing what it cannot run, and the estimate says
which settings of a typed scenario it cannot run.

The DeepSpeed case is the issue's own: Llama 3 70B on 64 A100s with ZeRO-3, whose first throughput plans were
"tp=2, pp=8, pp_schedule=interleaved-1f1b, vpp=10, cp=2" with ZeRO-3 (DeepSpeed's PipelineEngine asserts ZeRO < 2,
runs only its 1F1B TrainSchedule and has no ring context parallelism: the sources the tests read below)."""

from __future__ import annotations

import re

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import TABLE, defaults_for
from engine.frameworks.parallelism import ALL_SCHEDULES, FSDP
from engine.planning.solver import plan_search
from engine.planning.speed_search import fastest_fitting, speed_search
from engine.planning.suggest import suggestions
from engine.scenario.choices import PP_SCHEDULES
from engine.scenario.framework_support import cannot_run, framework_runs

ISSUE = {"schema_version": 1, "model": "llama-3-70b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 8,
         "framework": "deepspeed", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 16, "seq_len": 4096,
         "zero_stage": 3}
# the issue's first plan, typed into the window
TYPED = {**ISSUE, "tp": 2, "pp": 8, "pp_schedule": "interleaved-1f1b", "vpp": 10, "cp": 2, "grad_accum": 512}
# a repository's commit, or the paper of a stack whose code is not public (Meta's Llama 3: arXiv:2407.21783)
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b|arXiv:\d{4}\.\d{4,5}")


def _source(framework: str, fact: str) -> str:
    """The source the framework's row gives for one capability fact (a fact may share an entry: "tensor, context")."""
    found = [where for what, where in defaults_for(framework).parallelism.sources if fact in what.split(", ")]
    assert found, f"{framework}: no source for {fact}"
    return found[0]


def _plans(result) -> list:
    return [*result.plans, *result.changes_what_you_train]


def test_the_schedules_are_the_scenario_formats():
    assert ALL_SCHEDULES == PP_SCHEDULES


def test_every_restricted_fact_names_its_source_at_a_commit():
    """A capability is refused only with a source: its entry names the repository's commit it was read at (or the
    paper, COMMIT)."""
    for fid, row in TABLE.items():
        caps = row.parallelism
        restricted = {"pipeline schedules": caps.pp_schedules != ALL_SCHEDULES, "ZeRO": caps.max_zero < FSDP,
                      "ZeRO with PP": caps.max_zero_with_pp < FSDP, "tensor": not caps.tensor,
                      "context": not caps.context, "expert": not caps.expert}
        for fact in (f for f, on in restricted.items() if on):
            assert COMMIT.search(_source(fid, fact)), (fid, fact)


def test_deepspeed_facts_and_their_sources():
    caps = defaults_for("deepspeed").parallelism
    # deepspeed/runtime/pipe/engine.py at edaa7221 lines 76-77: ZeRO-2 and ZeRO-3 are refused with a pipeline
    assert caps.max_zero_with_pp == 1 and "edaa7221" in _source("deepspeed", "ZeRO with PP")
    assert "ZeroStageEnum.gradients" in _source("deepspeed", "ZeRO with PP")
    # runtime/pipe/schedule.py: TrainSchedule, a 1F1B schedule, is the only training schedule
    assert caps.pp_schedules == ("1f1b",) and "TrainSchedule" in _source("deepspeed", "pipeline schedules")
    # its sequence parallelism is Ulysses' all-to-all, not the ring the scenario's cp is
    assert not caps.context and "Ulysses" in _source("deepspeed", "context")


def test_no_published_run_is_flagged():
    """Every published row is a run that ran: its framework can run its layout."""
    rows = load_rows()
    assert len(rows) > 1000  # the whole published set was read (1,311 rows when this was written)
    flagged = [r["id"] for r in rows if cannot_run(scenario_from_dict(r["scenario"]))]
    assert flagged == []


def test_the_deepspeed_search_offers_only_what_deepspeed_runs():
    result = speed_search(scenario_from_dict(ISSUE))
    assert result.plans
    for p in _plans(result):
        s = p.scenario
        assert not (s.pp > 1 and s.effective_zero >= 2), p.changes
        assert s.pp == 1 or s.pp_schedule == "1f1b", p.changes
        assert s.cp == 1, p.changes
        assert framework_runs(s)
    # the layouts it visited too, not only those that reached the top
    assert all(not (lay["pp"] > 1 and lay["zero_stage"] >= 2) and lay["cp"] == 1 for lay in result.ranked)
    # a pipeline with ZeRO-1 is still offered (ZeRO-2 settles as ZeRO-1 where only that runs)
    assert any(lay["pp"] > 1 and lay["zero_stage"] == 1 for lay in result.ranked)
    rent_plan, _ = fastest_fitting(scenario_from_dict(ISSUE))  # "What should I rent?" searches through it
    assert rent_plan is not None and framework_runs(rent_plan.scenario)


@pytest.mark.parametrize("framework, extra", [("megatron", {}), ("torchtitan", {"zero_stage": 0, "fsdp": True})])
def test_megatron_and_torchtitan_keep_their_pipeline_tensor_and_context_plans(framework, extra):
    result = speed_search(scenario_from_dict({**ISSUE, "framework": framework, **extra}))
    plans = [p.scenario for p in result.plans]
    # torchtitan's pipeline plans were ZeRO-2 ones (tp 2 pp 4 ZeRO-2 first), a stage it does not have (FSDP2 only,
    # parallelism.py TORCHTITAN "ZeRO"): its pipelines with FSDP are still visited, and no longer reach its top plans
    assert any(s.pp > 1 for s in plans) if framework == "megatron" else any(
        lay["pp"] > 1 and lay["fsdp"] for lay in result.ranked)
    assert any(lay["cp"] > 1 for lay in result.ranked) and any(lay["tp"] > 1 for lay in result.ranked)
    if framework == "megatron":  # an interleaved pipeline with the distributed optimizer (ZeRO-1), and ring CP
        assert any(s.pp > 1 and s.pp_schedule == "interleaved-1f1b" and s.effective_zero == 1 for s in plans)
        assert any(s.cp > 1 for s in plans)
        # Megatron-FSDP (ZeRO-2/3) is neither documented nor tested with a pipeline (parallelism.py MEGATRON "ZeRO
        # with PP"): neither kept nor visited
        assert not any(lay["pp"] > 1 and (lay["zero_stage"] >= 2 or lay["fsdp"]) for lay in result.ranked)
    else:
        assert any(s.tp > 1 for s in plans)


def test_make_it_fit_offers_no_pipeline_to_deepspeed_zero3():
    """70B on one node with ZeRO-3 does not fit; Meta's Llama 3 stack (FSDP with PP 16, arXiv:2407.21783 Table 4) is
    offered a pipeline step with it, DeepSpeed and Megatron-LM (parallelism.py "ZeRO with PP") are not."""
    one_node = {**ISSUE, "nodes": 1}
    ds, meta = scenario_from_dict(one_node), scenario_from_dict({**one_node, "framework": "meta-llama3"})
    assert any(sug.changes.get("pp", 1) > 1 for sug in suggestions(meta))
    assert not any(sug.changes.get("pp", 1) > 1 for sug in suggestions(ds))
    megatron = scenario_from_dict({**one_node, "framework": "megatron"})
    assert not any(sug.changes.get("pp", 1) > 1 and sug.changes.get("zero_stage", 3) >= 2
                   for sug in suggestions(megatron))
    plans = plan_search(ds).plans
    assert plans and all(framework_runs(p.scenario) for p in plans)


def test_a_typed_unsupported_scenario_is_estimated_with_the_reasons():
    est = estimate(scenario_from_dict(TYPED))
    text = [str(w) for w in est.warnings]
    assert "DeepSpeed cannot run ZeRO-3 together with pipeline parallelism (pp 8): with a pipeline it shards at " \
           "most as ZeRO-1." in text
    assert "DeepSpeed has no interleaved-1f1b pipeline schedule: it runs 1f1b." in text
    assert "DeepSpeed has no ring context parallelism: cp 2 cannot run in it." in text
    assert est.total_bytes > 0  # estimated as typed, not refused
    megatron = estimate(scenario_from_dict({**TYPED, "framework": "megatron"}))
    # Megatron-FSDP with a pipeline: parallelism.py MEGATRON "ZeRO with PP" (its docs, tests and recipes run pp 1)
    assert [str(w) for w in megatron.warnings if "cannot run" in str(w) or " has no " in str(w)] == [
        "Megatron-LM / NeMo cannot run ZeRO-3 together with pipeline parallelism (pp 8): with a pipeline it shards at most "
        "as ZeRO-1."]
    # Meta's Llama 3 stack ran ZeRO-2 with PP 16 (arXiv:2407.21783 Table 4): its own row runs it
    meta = estimate(scenario_from_dict({**TYPED, "framework": "meta-llama3", "zero_stage": 2}))
    assert not [w for w in meta.warnings if "cannot run" in str(w) or " has no " in str(w)]


def test_frameworks_without_a_pipeline_say_so():
    # accelerate's ParallelismConfig (16cb6eb80) has no pipeline dimension; InternEvo c18bec9 train.py asserts pp 1
    for framework in ("huggingface", "internevo"):
        s = scenario_from_dict({**ISSUE, "framework": framework, "zero_stage": 1, "pp": 2})
        assert cannot_run(s) == ("pp",)
        assert f"{defaults_for(framework).label} has no pipeline parallelism: pp 2 cannot run in it." in \
            [str(w) for w in estimate(s).warnings]
