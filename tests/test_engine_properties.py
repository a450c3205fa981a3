"""Property tests: any scenario is either rejected with a named key or estimated consistently, never a crash.

Two kinds of drawn scenario: valid by construction (tests/scenario_strategies.py: every framework row, pipeline
schedule, workload, serving engine and declared key), whose estimate and step time must hold together; and any
values of the declared keys (wrong types, absurd numbers, unknown words), which must give a scenario or one
ScenarioError naming a key of the file, never another exception."""

import math

import pytest
from hypothesis import HealthCheck, Phase, example, find, given, settings
from hypothesis import strategies as st

from engine import ScenarioError, estimate, model_presets, scenario_from_dict
from engine.errors import WorkloadError
from engine.memory.breakdown import Moments
from engine.memory.estimate import model_param_counts
from engine.scenario import ATTENTIONS, CHECKPOINTINGS, ESTIMATORS, KEYS, METHODS, OPTIMIZERS, PRECISIONS, resolve_model
from engine.workloads import step_time
from tests.scenario_strategies import SPECS, WORKLOAD_KINDS, valid_scenarios

MODELS = sorted(model_presets())
scenarios = st.fixed_dictionaries({
    "model": st.sampled_from(MODELS),
    "gpu": st.sampled_from(["rtx-4090", "a100-80gb", "h100-sxm-80gb", "mi300x", "t4"]),
    "gpus_per_node": st.sampled_from([1, 2, 4, 8]),
    "nodes": st.sampled_from([1, 2]),
    "method": st.sampled_from(METHODS),
    "precision": st.sampled_from(PRECISIONS),
    "optimizer": st.sampled_from(OPTIMIZERS),
    "micro_batch": st.integers(1, 16),
    "seq_len": st.sampled_from([128, 1000, 2048, 8192, 32768]),
    "grad_accum": st.integers(1, 8),
    "attention": st.sampled_from(ATTENTIONS),
    "checkpointing": st.sampled_from(CHECKPOINTINGS),
    "frozen_layers": st.integers(0, 8),
    "freeze_from": st.sampled_from(["bottom", "top"]),
    "lora_targets": st.sampled_from(["all-linear", "attention"]),
    "tp": st.sampled_from([1, 2, 4]),
    "pp": st.sampled_from([1, 2, 4]),
    "ep": st.sampled_from([1, 2, 8]),
    "cp": st.sampled_from([1, 2]),
    "sequence_parallel": st.booleans(),
    "zero_stage": st.integers(0, 3),
    "offload": st.sampled_from(["none", "optimizer", "optimizer+params"]),
    "estimator": st.sampled_from(ESTIMATORS),
})

# Any value a file could hold: wrong types, absurd and non-finite numbers, unknown words, nested containers.
hostile_values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 1, 2, 3, 7, 10**9, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.5, 1e-300, 1e308]),
    st.text(max_size=12), st.sampled_from(["auto", "", "none", "true", "1", "zbv", "fp8", "megatron", "\x1b[2J"]),
    st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))
DECLARED = [k for k in KEYS if k.name != "model"]


def _at_the_bounds(spec) -> list:
    """A key's declared bounds and one step past each (seq_len 10^8 is accepted, 10^8 + 1 is not)."""
    check = spec.check
    ends = [getattr(check, name, None) for name in ("minimum", "maximum", "low", "high")]
    numbers = [v for v in ends if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)]
    return [v + step for v in numbers for step in (-1, 0, 1)]


@st.composite
def any_values_of_declared_keys(draw: st.DrawFn) -> dict:
    """A valid scenario (half the time) or a model alone, then some declared keys set to a value its declaration
    offers, one at or just past its bounds, another key's value or a hostile one."""
    if draw(st.booleans()):
        data = draw(valid_scenarios())
    else:
        data = {"model": draw(st.sampled_from(MODELS) | hostile_values)} if draw(st.integers(0, 9)) else {}
    for spec in draw(st.lists(st.sampled_from(DECLARED), min_size=1, max_size=4, unique_by=lambda k: k.name)):
        offered = list(spec.check.choices() or spec.check.samples()) + _at_the_bounds(spec)
        other = draw(st.sampled_from(DECLARED)).check.samples()
        choices = [hostile_values] + [st.sampled_from(offered)] * 3 * bool(offered) + [st.sampled_from(other)] * bool(other)
        data[spec.name] = draw(st.one_of(choices))
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios)
def test_rejected_with_a_key_or_estimated_consistently(data):
    try:
        s = scenario_from_dict(data)
    except ScenarioError as exc:
        assert exc.key in data or exc.key in ("model", "tp")
        return
    _check_consistent(s)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_values_of_declared_keys())
def test_any_values_of_the_declared_keys_give_a_scenario_or_one_sentence_naming_a_key(data):
    try:
        s = scenario_from_dict(data)
    except ScenarioError as exc:
        assert exc.key in data or exc.key in ("model", "tp"), (exc.key, str(exc))
        assert "\n" not in str(exc) and "\x1b" not in str(exc), str(exc)
        return
    _check_consistent(s)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_scenarios())
# found by this test: trained MTP layers counted as trainable parameters at tp = pp = ep = 1 only (more than the total)
@example({"model": "nemotron-3-nano-30b-a3b", "gpu": "a100-40gb", "framework": "megatron", "seq_len": 128,
          "precision": "fp32", "mtp_layers": 1})
def test_valid_scenarios_are_estimated_consistently(data):
    """Scenarios valid by construction (tests/scenario_strategies.py): every one must validate."""
    _check_consistent(scenario_from_dict(data))


def _finite_bytes(components) -> bool:
    return all(math.isfinite(v) and v >= 0 for c in components for v in c.moments)


def _check_consistent(s) -> None:  # noqa: C901 - one assertion per property
    est = estimate(s)
    inference = s.workload == "inference"
    post_training = s.training_objective != "sft"
    assert len(est.stages) == (1 if inference or post_training else s.pp)  # post-training: its peak phase's stage
    for stage in est.stages:
        at_peak = sum(b for _, b in stage.at_peak())
        assert abs(at_peak - stage.peak_allocated_bytes) <= 1e-6 * max(at_peak, 1)
        assert _finite_bytes(stage.components + stage.overheads), "no negative or NaN bytes"
        assert all(type(c.moments) is Moments for c in stage.components + stage.overheads), "moments are named"
        # llama.cpp with n_gpu_layers 0 keeps everything in CPU memory: nothing on the GPU
        assert stage.total_bytes >= stage.peak_allocated_bytes > (-1 if inference else 0)
    assert est.peak_allocated_bytes == max(est.phases.values())
    assert est.verdict in ("fits", "tight", "does not fit")
    assert not est.fits or est.total_bytes <= est.capacity_bytes or inference
    if est.rl is not None:
        assert all(_finite_bytes(phase.components) and phase.peak_bytes >= 0 for phase in est.rl.phases)
    if est.serving is not None:
        assert _finite_bytes(est.serving.components) and est.serving.kv_pool_bytes >= 0 <= est.serving.kv_tokens
    if not inference and not post_training:
        assert est.fits == (est.verdict == "fits")  # tight: within the safety reserve
        # the one-stage shortcut for parameter counts agrees with counting an unsharded copy of the whole model
        assert (est.trainable_params, est.total_params) == model_param_counts(s, resolve_model(s))
    _check_step_time(s)


def _check_step_time(s) -> None:
    try:
        t = step_time(s)
    except WorkloadError:
        assert s.workload == "inference"  # a served model has no training step
        return
    assert math.isfinite(t.step_seconds) and t.step_seconds > 0
    assert all(math.isfinite(term.seconds) and term.seconds >= 0 for term in t.terms)
    assert math.isclose(sum(term.seconds for term in t.terms), t.step_seconds, rel_tol=1e-6), "the terms add up"
    assert math.isfinite(t.mfu) and t.mfu >= 0


@settings(max_examples=60, deadline=None)
@given(valid_scenarios(workloads=("training", "post-training")), st.integers(1, 3),
       st.sampled_from(["micro_batch", "seq_len", "prompt_len", "completion_len"]))
def test_more_tokens_never_need_less_memory(data, factor, tokens_key):
    """More sequences, longer ones, longer prompts or completions (post-training reads these two, not seq_len)."""
    s = scenario_from_dict(data)
    try:
        bigger = s.replace(**{tokens_key: getattr(s, tokens_key) * (factor + 1)})
    except ScenarioError:  # past the key's bound, or a length context parallelism no longer divides
        return
    small, big = estimate(s), estimate(bigger)
    if big.rl is not None and big.rl.refusal is not None:
        # the generation engine refuses to start, its memory left out (found here: verl PPO of GPT-2 at prompt_len
        # 1024, vLLM's max_model_len 1536 past the model's 1024 positions): "does not fit", with the engine's reason
        assert big.verdict == "does not fit"
        return
    # The busiest rank is the one needing the most memory in all (peak + allocator gaps): with pipeline stages it
    # can change with the batch, so the reported rank's own peak may drop while every rank's needs grow.
    assert big.total_bytes >= small.total_bytes
    assert max(st.peak_allocated_bytes for st in big.stages) >= max(st.peak_allocated_bytes for st in small.stages)


@pytest.mark.parametrize("key", ["framework", "pp_schedule", "training_objective", "serving_engine"])
def test_valid_scenarios_still_draw_every_framework_schedule_and_workload(key):
    """valid_scenarios offers a value only where the engine accepts it, so a rule that came to refuse a whole kind
    would silently narrow the property tests instead of failing them: this says every framework row, pipeline
    schedule, post-training objective and serving engine is still drawn."""
    workloads = {"training_objective": ("post-training",), "serving_engine": ("inference",)}.get(key, WORKLOAD_KINDS)
    for value in SPECS[key].check.choices():
        if value == "sft" and key == "training_objective":
            continue
        find(valid_scenarios(workloads=workloads, only={key: (value,)}), lambda data, value=value: data.get(key) == value,
             settings=settings(max_examples=200, database=None, deadline=None, phases=[Phase.generate]))
