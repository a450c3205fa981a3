"""Full checkpointing of only some layers (scenario keys recompute_num_layers and recompute_method;
engine/scenario/recompute_layers.py, after Megatron-LM d98e8a64 megatron/core/recompute.py lines 157-183): the
memory kept, the time recomputed, the bound check, the framework facts and the set-up panel's rows.

Expected values are counted by hand from the engine's own one-layer figures: a checkpointed layer keeps its input
(the component's boundary, b·s·h x residual bytes), a plain one every tensor it saves (one_layer_bytes), per micro-batch
in flight; block recomputes the first N layers of each stage, uniform every layer, N at a time."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import PlannerError
from engine.scenario.recompute_layers import recompute_layers
from engine.timing import BREAKDOWN_KEYS, step_time

# Llama 3 8B (32 layers) on 8 H100, TP 2 x PP 2: 16 layers a stage, two micro-batches in flight on the first
BASE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1, "framework": "megatron",
        "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "checkpointing": "full",
        "tp": 2, "pp": 2, "distributed_optimizer": True}


def _activations(**keys):
    e = estimate(scenario_from_dict({**BASE, **keys}))
    comps = {c.key: c for c in e.stages[0].components}
    return comps["activations"].peak_bytes, comps.get("recompute")


def test_block_keeps_inputs_of_the_recomputed_layers_and_everything_of_the_others():
    every, _ = _activations()  # 16 layers x 2 in flight x boundary
    none, _ = _activations(checkpointing="none")  # 16 layers x 2 in flight x one layer's saved tensors
    boundary, one_layer = every / (16 * 2), none / (16 * 2)
    for n in (1, 4, 12):
        block, rebuilt = _activations(recompute_num_layers=n)
        assert block == pytest.approx(2 * (n * boundary + (16 - n) * one_layer), rel=1e-9)
        # the first N are rebuilt after the plain layers above them freed theirs: no rebuilt layer on the peak
        assert rebuilt is None
    all_of_them, _ = _activations(recompute_num_layers=16)  # N = the stage's layers: today's full checkpointing
    assert all_of_them == pytest.approx(every, rel=1e-12)


def test_uniform_keeps_one_input_per_group_and_rebuilds_a_whole_group():
    every, rebuilt_one = _activations()
    none, _ = _activations(checkpointing="none")
    boundary, one_layer = every / 32, none / 32
    for n, groups in ((1, 16), (3, 6), (4, 4)):  # ceil(16 / n) groups a stage
        kept, rebuilt = _activations(recompute_num_layers=n, recompute_method="uniform")
        assert kept == pytest.approx(2 * groups * boundary, rel=1e-9)
        assert rebuilt.peak_bytes == pytest.approx(n * one_layer, rel=1e-9)


def test_chunks_each_recompute_their_first_layers():
    s = scenario_from_dict({**BASE, "pp_schedule": "interleaved-1f1b", "vpp": 2, "recompute_num_layers": 3})
    plan = recompute_layers(s, 16)  # two chunks of 8: 3 of each
    assert (plan.recomputed, plan.checkpoints, plan.plain) == (6, 6, 10)
    uniform = recompute_layers(s.replace(recompute_method="uniform"), 16)  # ceil(8 / 3) = 3 groups a chunk
    assert (uniform.recomputed, uniform.checkpoints, uniform.plain, uniform.rebuilt_at_once) == (16, 6, 0, 3)


def test_only_the_recomputed_layers_are_run_again():
    recompute = BREAKDOWN_KEYS.index("recompute")
    every = step_time(scenario_from_dict(BASE)).seconds[recompute]
    for n in (4, 8):
        some = step_time(scenario_from_dict({**BASE, "recompute_num_layers": n})).seconds[recompute]
        assert some == pytest.approx(every * n / 16, rel=1e-9)
    uniform = step_time(scenario_from_dict({**BASE, "recompute_num_layers": 4, "recompute_method": "uniform"}))
    assert uniform.seconds[recompute] == pytest.approx(every, rel=1e-12)  # every layer, four at a time
    none = step_time(scenario_from_dict({**BASE, "checkpointing": "none"})).step_seconds
    some = step_time(scenario_from_dict({**BASE, "recompute_num_layers": 4})).step_seconds
    assert none < some < step_time(scenario_from_dict(BASE)).step_seconds


def test_default_is_todays_full_checkpointing():
    s = scenario_from_dict(BASE)
    assert (s.recompute_num_layers, s.recompute_method) == (0, "block")
    assert recompute_layers(s, 16) == (16, 16, 0, 1)
    assert recompute_layers(s.replace(checkpointing="none", recompute_num_layers=4), 16).recomputed == 0


def test_bad_values_are_refused_with_a_sentence():
    with pytest.raises(PlannerError, match="at least 0"):
        scenario_from_dict({**BASE, "recompute_num_layers": -1})
    with pytest.raises(PlannerError, match="cannot exceed the 16 decoder layers"):
        scenario_from_dict({**BASE, "recompute_num_layers": 17})
    with pytest.raises(PlannerError, match="block, uniform"):
        scenario_from_dict({**BASE, "recompute_method": "every"})
    scenario_from_dict({**BASE, "checkpointing": "none", "recompute_num_layers": 17})  # not read without full


def test_frameworks_that_recompute_every_layer_warn():
    hf = estimate(scenario_from_dict({**BASE, "framework": "huggingface", "tp": 1, "pp": 1, "zero_stage": 3,
                                      "distributed_optimizer": False, "recompute_num_layers": 4}))
    assert any("recomputes every layer or none" in str(w) for w in hf.warnings)
    titan = estimate(scenario_from_dict({**BASE, "framework": "torchtitan", "tp": 1, "pp": 1, "fsdp": True,
                                         "distributed_optimizer": False, "recompute_num_layers": 4,
                                         "recompute_method": "uniform"}))
    assert any('no recompute method "uniform"' in str(w) for w in titan.warnings)
    megatron = estimate(scenario_from_dict({**BASE, "recompute_num_layers": 4, "recompute_method": "uniform"}))
    assert not any("recompute" in str(w) for w in megatron.warnings)



def test_make_it_fit_recomputes_the_fewest_layers_that_fit():
    """Micro-batch 4 at 8K tokens does not fit without checkpointing; the cheapest plan recomputes the fewest layers of
    each stage that fit (exact: one fewer does not), ahead of every layer and of smaller micro-batches."""
    from engine.planning.solver import plan_search
    s = scenario_from_dict({**BASE, "micro_batch": 4, "seq_len": 8192, "checkpointing": "none"})
    assert not estimate(s).fits
    first = plan_search(s).plans[0]
    n = first.scenario.recompute_num_layers
    assert first.fits and first.scenario.checkpointing == "full" and 0 < n < 16
    assert first.changes == {"checkpointing": "full", "recompute_num_layers": n}
    assert not estimate(first.scenario.replace(recompute_num_layers=n - 1)).fits
    assert f"Recompute {n} of the 16 layers" in first.summary


def test_throughput_search_recomputes_fewer_layers_where_they_fit():
    """Llama 3 70B at 8K tokens on 32 H100: the search's full-recompute plans are tried again with the fewest layers
    that fit; such a plan is faster than its every-layer twin (same layout and micro-batch) and one layer fewer does
    not fit."""
    from engine.planning.speed_search import speed_search
    s = scenario_from_dict({**BASE, "model": "llama-3-70b", "nodes": 4, "grad_accum": 32, "seq_len": 8192,
                            "checkpointing": "none", "tp": 8, "pp": 4})
    plans = speed_search(s).plans
    some = [p for p in plans if p.scenario.checkpointing == "full" and p.scenario.recompute_num_layers]
    assert some
    p = some[0]
    every = p.scenario.replace(recompute_num_layers=0)
    assert p.fits and p.time.tokens_per_second > step_time(every).tokens_per_second
    assert not estimate(p.scenario.replace(recompute_num_layers=p.scenario.recompute_num_layers - 1)).fits


def test_the_rebuilt_component_says_a_whole_uniform_group_where_it_holds_one():
    """Under uniform with N = 4 the backward rebuilds 4 layers at once, and the 'Recomputed layer' component holds 4
    one-layer units (its bytes against every layer its own checkpoint, N = 0): its formula says so, where it read 'one
    layer's activations', and the saved activations' formula ends its sentence. Block and N = 0 keep the one-layer
    text."""
    _, one = _activations(recompute_num_layers=0)
    _, group = _activations(recompute_num_layers=4, recompute_method="uniform")
    assert group.peak_bytes == pytest.approx(4 * one.peak_bytes)
    assert "uniform group" in str(group.formula) and "one layer" in str(one.formula)
    e = estimate(scenario_from_dict({**BASE, "recompute_num_layers": 4, "recompute_method": "uniform"}))
    acts = next(c for c in e.stages[0].components if c.key == "activations")
    assert str(acts.formula).endswith("the backward rebuilds one whole group at once")


def test_a_plan_without_a_pipeline_does_not_speak_of_pipeline_stages():
    """User audit 6: a NeMo-RL GRPO run on 8 GPUs (no pipeline) was told to "recompute 34 of the 36 layers of each
    pipeline stage"; without a pipeline the step names the model's layers alone (recompute_plans.recompute_step)."""
    from engine.planning.recompute_plans import recompute_step
    flat = scenario_from_dict({**BASE, "tp": 1, "pp": 1, "checkpointing": "none"})
    plan = flat.replace(checkpointing="full", recompute_num_layers=30)
    assert str(recompute_step(flat, plan, 32)) == ("recompute 30 of the 32 layers (full activation checkpointing of "
                                                   "only some layers)")
    staged = scenario_from_dict({**BASE, "checkpointing": "none"})  # pp 2: 16 layers a stage
    assert "of the 16 layers of each pipeline stage" in str(recompute_step(
        staged, staged.replace(checkpointing="full", recompute_num_layers=12), 32))
