"""Make it fit and the suggestions for post-training runs (issue 22): the engine's share that fits, and the solver's
post-training options, each priced by the post-training estimate (engine.workloads.estimate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.memory.states import dtypes_for
from engine.planning.limits import Evaluator
from engine.planning.rl_suggest import SHARE_STEP, fitting_share, rl_options
from engine.scenario import resolve_model
from engine.serving.vllm_load import vllm_load_extra_bytes
from engine.serving.weights import replicated_layer_bytes
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


# The GRPO example scaled as an RL engineer scales it: Qwen2.5-32B, full fine-tune under ZeRO-3 on 8 x H100, the
# colocated vLLM engine left at tensor parallelism 1 (each GPU then holds the whole 32B model for generation)
GRPO_32B = {**GRPO, "model": "qwen2.5-32b", "gpus_per_node": 8, "zero_stage": 3}


def _component_bytes(est, name: str) -> float:
    return sum(c.peak_bytes for c in est.components if c.name == name)


def test_a_colocated_engine_too_large_for_one_gpu_is_split_over_more_gpus():
    from engine.planning.rl_suggest import engine_tp_choices
    from engine.planning.suggest import suggestions
    from engine.posttraining import rl_settings

    s = scenario_from_dict(GRPO_32B)
    assert not estimate(s).fits
    # Qwen2.5-32B's 40 heads and 8 key/value heads split over 2, 4 and 8 GPUs (config.json); a node has 8
    assert engine_tp_choices(s, rl_settings(s, dtypes_for(s).compute)) == [2, 4, 8]
    split = [g for g in suggestions(s) if "rollout_tp" in g.changes]
    assert len(split) == 1, [str(g.title) for g in suggestions(s)]
    tp = split[0].changes["rollout_tp"]
    # each engine GPU holds 1/tp of the bf16 weights (32.8B x 2 bytes) but its layers' norms whole (vLLM's RMSNorm
    # is not split: engine/serving/weights.py replicated_layer_bytes), beside vLLM's allocator rounding and rotary
    # cache of its own shards (engine/serving/vllm_load.py): the suggestion's estimate is the split engine's
    spec = resolve_model(s)
    weights = [_component_bytes(e, "Generation engine weights") - vllm_load_extra_bytes(spec, t, 2)
               for e, t in ((estimate(s), 1), (split[0].estimate, tp))]
    norms = 64 * 2 * 5120 * 2  # Qwen2.5-32B's config.json: 64 layers, two RMSNorms of hidden 5120 each, bf16
    assert replicated_layer_bytes(spec, "bf16") == norms
    assert weights[0] == spec.total_params * 2 and weights[1] * tp == pytest.approx(weights[0] + (tp - 1) * norms)
    assert split[0].saved_bytes > 0
    groups = rl_options(s, dtypes_for(s).compute)
    tps = [changes["rollout_tp"] for group in groups for _, changes, _, _ in group if "rollout_tp" in changes]
    assert tps == [2, 4, 8]


def test_make_it_fit_splits_the_engine_before_changing_the_method():
    from engine.planning.solver import plans

    found = plans(scenario_from_dict(GRPO_32B))
    assert found, "no plan"
    assert found[0].scenario.rollout_tp > 1 and found[0].scenario.method == "full"


def test_the_engine_split_keeps_to_the_heads_vllm_can_split():
    from engine.planning.rl_suggest import engine_tp_choices
    from engine.posttraining import rl_settings

    # Qwen2.5-1.5B: 12 heads, 2 key/value heads (config.json): 8 does not divide 12, so 2 and 4 only
    s = scenario_from_dict({**GRPO, "gpus_per_node": 8})
    assert engine_tp_choices(s, rl_settings(s, dtypes_for(s).compute)) == [2, 4]
    # one GPU: nothing to split over
    one = scenario_from_dict(GRPO)
    assert engine_tp_choices(one, rl_settings(one, dtypes_for(one).compute)) == []


def test_the_fewest_gpus_limits_let_the_generation_engine_split() -> None:
    """User audit 5: a GRPO run with its colocated engine at TP 1 read "fewest GPUs: none up to 1024" (the whole model
    on every GPU for every count) while Make it fit's plan 1 split the engine. The limits now split the engine as far
    as each count allows (engine/planning/limits.py engine_split: the largest power of two up to a node that divides
    the GPUs and the heads), and say so."""
    from engine import scenario_from_dict
    from engine.planning.fit_report import fit_report, render_fit
    from engine.planning.limits import engine_split, limits

    s = scenario_from_dict({"model": "qwen2.5-32b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
                            "precision": "bf16", "checkpointing": "full", "prompt_len": 512,
                            "framework": "trl", "micro_batch": 8, "grad_accum": 4, "training_objective": "grpo",
                            "completion_len": 1024, "num_generations": 8, "rollout_engine": "vllm",
                            "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.3, "zero_stage": 3,
                            "rollout_tp": 1})
    assert engine_split(s, 8, 8) == {"rollout_tp": 8} and engine_split(s, 2, 8) == {"rollout_tp": 2}
    lim = limits(s)
    assert lim.engine_split_varied and lim.min_gpus["zero3"] is not None
    text = render_fit(fit_report(s))
    assert "splits the generation engine over as many GPUs as it can" in text
    sft = scenario_from_dict({"model": "qwen2.5-32b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8})
    assert engine_split(sft, 8, 8) == {} and not limits(sft).engine_split_varied
