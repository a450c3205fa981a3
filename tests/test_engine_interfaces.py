"""The engine's named interfaces (issue 15): memory at the four moments of a step is a `Moments`, and which
estimator runs is chosen through `engine.memory.estimators`, never by comparing names inside `estimate()`."""

import ast
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.memory.breakdown import MOMENTS, NO_BYTES, Moments, phase_totals
from engine.memory.estimators import ESTIMATOR_CLASSES, StageEstimator, estimator_for
from engine.memory.states import dtypes_for
from engine.scenario import ESTIMATORS, resolve_model
from engine.scenario.behaviour import behaviour

ROOT = Path(__file__).resolve().parent.parent


def test_moments_are_named_in_step_order():
    assert MOMENTS == ("forward", "backward_start", "backward_end", "optimizer")
    m = Moments(1.0, 2.0, 3.0, 4.0)
    assert (m.forward, m.backward_start, m.backward_end, m.optimizer) == (1.0, 2.0, 3.0, 4.0)
    assert m.scaled(2.0) == Moments(2.0, 4.0, 6.0, 8.0)
    assert Moments.whole_step(5.0) == Moments(5.0, 5.0, 5.0, 5.0)
    for moment in MOMENTS:
        only = Moments.only_at(moment, 7.0)
        assert getattr(only, moment) == 7.0 and sum(only) == 7.0
    with pytest.raises(ValueError):
        Moments.only_at("backward", 1.0)  # a phase, not a moment
    assert sum(NO_BYTES) == 0


def test_phase_totals_are_moments():
    est = estimate(scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb"}))
    totals = phase_totals(est.components)
    assert type(totals) is Moments
    assert totals.forward == est.phases["forward"]
    assert totals.optimizer == est.phases["optimizer"]


def test_every_estimator_name_has_an_implementation_of_the_interface():
    assert set(ESTIMATOR_CLASSES) == set(ESTIMATORS)
    for name in ESTIMATORS:
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "estimator": name})
        spec = resolve_model(s)
        chosen = estimator_for(s, spec, dtypes_for(s), behaviour(s))
        assert isinstance(chosen, ESTIMATOR_CLASSES[name])
        for member in ("charges_allocator_overheads", "stage", "moved", "load"):
            assert hasattr(chosen, member), (name, member)
        assert set(StageEstimator.__annotations__) <= set(dir(chosen))


def test_only_the_detailed_estimator_charges_allocator_overheads_and_models_loading():
    for name in ESTIMATORS:
        est = estimate(scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "estimator": name}))
        context = sum(c.peak_bytes for c in est.busiest.overheads if c.key == "cuda_context")
        assert (context > 0) == (name == "detailed")
        assert (est.load_gpu_bytes > 0) == (name == "detailed")


def test_estimate_does_not_branch_on_the_estimator_name():
    """`ctx is None` or `s.estimator == ...` inside estimate() was the old implicit switch (issue 15)."""
    tree = ast.parse((ROOT / "engine" / "memory" / "estimate.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            text = ast.unparse(node)
            assert "estimator" not in text and "ctx is None" not in text, text
