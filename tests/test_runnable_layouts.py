"""A layout its framework cannot run gets the runnable layouts nearest to it (engine/scenario/runnable.py), and Make
it fit, the suggestions and the throughput search start from them. Each expected layout follows from the framework's
row in engine/frameworks/parallelism.py, whose source the test reads back."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import defaults_for
from engine.planning.fit_report import fit_report, render_fit
from engine.planning.solver import plan_search
from engine.planning.speed_search import fastest_fitting, speed_search
from engine.planning.suggest import suggestions
from engine.scenario.framework_support import cannot_run, framework_runs, unsupported_settings
from engine.scenario.runnable import runnable_layouts

# the brief's scenario: Llama 3.1 8B on 8 H100s, ZeRO-3 with pp 2 under Hugging Face's Trainer
U3 = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1,
      "framework": "huggingface", "precision": "mixed-bf16", "micro_batch": 4, "grad_accum": 8, "seq_len": 4096,
      "zero_stage": 3, "pp": 2}
GLOBAL = 4 * 8 * 4  # micro_batch x grad_accum x dp (8 GPUs / pp 2) of U3


def _source(framework: str, fact: str) -> str:
    return next(where for what, where in defaults_for(framework).parallelism.sources if fact in what.split(", "))


def _global_batch(s) -> int:
    return s.micro_batch * s.grad_accum * s.dp


def test_no_pipeline_is_folded_into_data_parallelism():
    # accelerate's ParallelismConfig has no pipeline dimension (the Hugging Face row's source)
    assert "no pipeline dimension" in _source("huggingface", "pipeline schedules")
    (lay,) = runnable_layouts(scenario_from_dict(U3))
    assert lay.changes == {"pp": 1, "grad_accum": 4}  # dp 4 -> 8: half the accumulation keeps the global batch
    assert _global_batch(lay.scenario) == GLOBAL and framework_runs(lay.scenario)
    assert [str(m) for m in lay.reasons] == [str(m) for m in unsupported_settings(scenario_from_dict(U3))]
    assert str(lay.step) == "set pp=1, grad_accum=4 so Hugging Face (Trainer / TRL / accelerate) can run the layout"


def test_deepspeed_zero3_with_a_pipeline_gets_both_ways_out():
    # deepspeed/runtime/pipe/engine.py at edaa7221 asserts ZeRO < 2 with a pipeline
    assert "ZeroStageEnum.gradients" in _source("deepspeed", "ZeRO with PP")
    s = scenario_from_dict({**U3, "framework": "deepspeed", "pp": 4})
    keep_sharding, keep_pipeline = runnable_layouts(s)
    assert keep_sharding.changes == {"pp": 1, "grad_accum": 2}  # dp 2 -> 8
    assert keep_pipeline.changes == {"zero_stage": 1}  # max_zero_with_pp of the DeepSpeed row
    assert all(_global_batch(lay.scenario) == 4 * 8 * 2 and framework_runs(lay.scenario)
               for lay in (keep_sharding, keep_pipeline))


def test_an_interleaved_schedule_deepspeed_lacks_becomes_1f1b():
    # runtime/pipe/schedule.py: TrainSchedule (1F1B) is DeepSpeed's only training schedule
    assert "TrainSchedule" in _source("deepspeed", "pipeline schedules")
    s = scenario_from_dict({**U3, "framework": "deepspeed", "zero_stage": 1, "pp": 4,
                            "pp_schedule": "interleaved-1f1b", "vpp": 2})
    assert cannot_run(s) == ("pp_schedule",)
    (lay,) = runnable_layouts(s)
    assert lay.changes == {"pp_schedule": "1f1b", "vpp": 1}  # the same GPUs and pipeline: no dp change


def test_megatron_2021_has_no_zero_1():
    # megatron/arguments.py at de7dc40f88: no --use-distributed-optimizer, so no sharding at all
    assert "de7dc40f88" in _source("megatron-2021", "ZeRO")
    s = scenario_from_dict({**U3, "framework": "megatron-2021", "zero_stage": 1, "pp": 1})
    (lay,) = runnable_layouts(s)
    assert lay.changes == {"zero_stage": 0}


def test_megatron_2021_has_no_distributed_optimizer_either():
    """--use-distributed-optimizer is Megatron's ZeRO-1 (Scenario.effective_zero), which 2021 Megatron-LM lacked
    (megatron-2021's source, de7dc40f88 megatron/arguments.py): the warning names the option and the runnable
    layout turns it off (zero_stage alone would leave it on)."""
    s = scenario_from_dict({**U3, "framework": "megatron-2021", "pp": 1, "zero_stage": 0,
                            "distributed_optimizer": True})
    assert cannot_run(s) == ("zero",)
    assert "ZeRO-1 (--use-distributed-optimizer)" in str(unsupported_settings(s)[0])
    (lay,) = runnable_layouts(s)
    assert lay.changes == {"distributed_optimizer": False} and framework_runs(lay.scenario)


def test_a_runnable_scenario_has_none():
    assert runnable_layouts(scenario_from_dict({**U3, "pp": 1})) == ()


def test_make_it_fit_starts_from_the_runnable_layout():
    s = scenario_from_dict(U3)
    assert estimate(s).verdict == "does not fit"
    plans = plan_search(s).plans
    assert plans, "no longer 'Plans: none found'"
    for p in plans:
        assert framework_runs(p.scenario) and p.scenario.pp == 1
        assert p.changes["pp"] == 1 and str(p.steps[0]).startswith("set pp=1")
        assert "has no pipeline parallelism" in str(p.notes[0])
    # micro-batch 1 on the runnable layout fits (the brief: the throughput objective finds it)
    assert any(p.changes.get("micro_batch") == 1 and len(p.steps) == 2 for p in plans)
    text = render_fit(fit_report(s))
    assert "Limits for the layout Hugging Face (Trainer / TRL / accelerate) can run (pp=1, grad_accum=4)" in text
    assert "Plans: none found." not in text


def test_a_runnable_layout_that_fits_is_the_first_plan():
    s = scenario_from_dict({**U3, "micro_batch": 1, "grad_accum": 32})
    assert estimate(s.replace(pp=1, grad_accum=16)).fits  # the runnable layout fits as it is
    first = plan_search(s).plans[0]
    assert first.changes == {"pp": 1, "grad_accum": 16} and len(first.steps) == 1 and first.disruption == 0.0


def test_deepspeed_plans_take_both_ways():
    plans = plan_search(scenario_from_dict({**U3, "framework": "deepspeed", "pp": 4})).plans
    assert any(p.scenario.pp == 1 and p.scenario.zero_stage == 3 for p in plans)
    assert any(p.scenario.pp == 4 and p.scenario.zero_stage == 1 for p in plans)
    assert all(framework_runs(p.scenario) for p in plans)


def test_suggestions_start_with_the_runnable_change():
    sugs = suggestions(scenario_from_dict(U3))
    assert sugs[0].changes == {"pp": 1, "grad_accum": 4} and "no pipeline parallelism" in str(sugs[0].effect)
    assert len(sugs) > 1 and all(sug.changes["pp"] == 1 for sug in sugs)
    assert any(sug.fits for sug in sugs)  # activation checkpointing on the runnable layout fits


def test_the_throughput_and_rent_searches_show_the_runnable_change():
    result = speed_search(scenario_from_dict(U3))
    assert result.plans and all(p.scenario.pp == 1 and framework_runs(p.scenario) for p in result.plans)
    assert result.plans[0].changes.get("pp") == 1
    rent_plan, _ = fastest_fitting(scenario_from_dict(U3))  # "What should I rent?" searches through it
    assert rent_plan is not None and framework_runs(rent_plan.scenario)
