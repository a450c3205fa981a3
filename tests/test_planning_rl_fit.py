"""Make it fit and the suggestions for post-training runs (issue 22): the engine's share that fits, and the solver's
post-training options, each priced by the post-training estimate (engine.workloads.estimate)."""

from __future__ import annotations

import json
from pathlib import Path

from engine import scenario_from_dict
from engine.memory.states import dtypes_for
from engine.planning.limits import Evaluator
from engine.planning.rl_suggest import SHARE_STEP, fitting_share, rl_options
from engine.workloads import estimate

REPO = Path(__file__).resolve().parent.parent
GRPO = json.loads((REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text())


def test_fitting_share_is_the_largest_share_that_fits():
    s = scenario_from_dict({**GRPO, "rollout_gpu_memory_utilization": 0.8})
    assert not estimate(s).fits
    share = fitting_share(s, 0.8)
    assert share is not None and share < 0.8
    assert estimate(s.replace(rollout_gpu_memory_utilization=share)).fits
    for above in (round(share + k * SHARE_STEP, 2) for k in range(1, 4)):
        if above < 0.8:  # every larger step below the scenario's own share does not fit
            assert not estimate(s.replace(rollout_gpu_memory_utilization=above)).fits


def test_solver_options_for_post_training():
    s = scenario_from_dict({**GRPO, "rollout_gpu_memory_utilization": 0.8})
    groups = rl_options(s, dtypes_for(s).compute)
    keys = {next(iter(changes)) for group in groups for _, changes, _, _ in group}
    assert {"rollout_gpu_memory_utilization", "rollout_sleep"} <= keys
    shares = [changes["rollout_gpu_memory_utilization"] for group in groups for _, changes, _, _ in group
              if "rollout_gpu_memory_utilization" in changes]
    assert shares == sorted(shares, reverse=True) and all(0 < x < 0.8 for x in shares)
    for group in groups:  # phrases are joined into one sentence: lower case
        for _, _, phrase, _ in group:
            assert str(phrase)[0].islower(), str(phrase)


def test_make_it_fit_evaluates_a_post_training_step_as_such():
    s = scenario_from_dict(GRPO)
    est = Evaluator()(s)
    assert est is not None and est.rl is not None and est.total_bytes == estimate(s).total_bytes


def test_longest_sequence_of_a_post_training_run_is_its_prompt_plus_the_longest_completion_that_fits():
    from engine.planning.limits import SEQ_STEP, limits

    s = scenario_from_dict(GRPO)
    longest = limits(s).max_seq_len
    assert longest is not None and longest > s.prompt_len + s.completion_len  # the example fits with room to spare
    completion = longest - s.prompt_len
    assert estimate(s.replace(completion_len=completion)).fits
    assert not estimate(s.replace(completion_len=completion + SEQ_STEP)).fits


def test_fit_report_fastest_layouts_and_family_judge_a_post_training_step_as_such():
    """GRPO with the colocated vLLM engine at 70% of each H100 does not fit (the engine's budget plus the trainer's
    step, engine.workloads.estimate). fit's verdict, Fastest layouts and the largest model of the family called it
    "fits" and timed it as supervised training before: they asked engine/memory and engine/timing directly, which
    know nothing of the generation engine or the scoring passes."""
    from engine.planning.family import largest_model_that_fits
    from engine.planning.fit_report import fit_report
    from engine.planning.speed_report import speed_report
    from engine.workloads import step_time

    s = scenario_from_dict({**GRPO, "rollout_gpu_memory_utilization": 0.7})
    est = estimate(s)
    assert est.verdict == "does not fit"
    assert fit_report(s)["verdict"] == est.verdict
    own = next(c for c in largest_model_that_fits(s).candidates if c.model == s.model)
    assert (own.verdict, own.total_bytes) == (est.verdict, est.total_bytes)
    speed = speed_report(s)
    assert speed["verdict"] == est.verdict
    assert speed["time"]["tokens_per_second"] == step_time(s).tokens_per_second  # generation and scoring included
    for plan in speed["plans"]:  # each fitting layout's memory is the post-training step's, engine included
        changed = s.replace(**{k: v for k, v in plan["changes"].items()})
        assert plan["total_bytes"] == round(estimate(changed).total_bytes)
