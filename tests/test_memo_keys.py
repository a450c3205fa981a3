"""Memo tables (engine/scenario/memo.py) look results up by every scenario key except the ones they declare ignored. A key
read by the memoised computation but declared ignored would serve a stale result after an edit of that key: these
tests run each computation on scenarios that record every key read, over drawn valid scenarios that also vary the
framework, the loss, images and the kernels, and fail on any ignored key that is read."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import scenario_from_dict
from engine.errors import PlannerError
from engine.memory.detailed import ACTIVATION_CONTEXT_MEMO, act_context
from engine.memory.parallelism.pipeline import micro_batches_in_flight, stage_layer_ranges
from engine.memory.stage_states import STAGE_STATES_MEMO, stage_states
from engine.memory.states import WHOLE_MODEL_MEMO, dtypes_for, layer_groups, unsharded_params
from engine.scenario import KEYS, resolve_model
from engine.scenario.behaviour import behaviour
from engine.scenario.memo import ScenarioMemo, memo_tables
from engine.scenario.recompute_layers import partial_recompute
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.hf_host import COUNTED_HOST_MEMO, counted_host
from engine.timing.host import LAYER_HOST_MEMO, layer_host
from engine.timing.model import STAGE_TIME_MEMO, rates_for, stage_time_per_micro_batch
from engine.timing.mtp import mtp_groups
from engine.timing.stage_parameters import STAGE_PARAMS_MEMO, stage_parameters
from tests.scenario_reads import RecordingScenario
from tests.scenario_strategies import valid_scenarios

# Keys valid_scenarios() draws under their own constraints (the layout must divide the GPUs, heads and experts).
_DRAWN_WITH_LAYOUT = {"model", "gpu", "gpus_per_node", "nodes", "tp", "pp", "cp", "ep", "vpp", "pp_schedule",
                      "sequence_parallel"}
_VARIED = [k for k in KEYS if k.name not in _DRAWN_WITH_LAYOUT and k.check.samples()]


@st.composite
def scenarios_with_every_kind_of_key(draw: st.DrawFn) -> dict:
    """A valid layout, then some declared keys set to values their declarations offer (each kept only where the
    scenario stays valid): every key of engine/scenario.py is varied, including keys added after this test."""
    # training and post-training: the memoised computations are a training step's (an inference scenario's
    # memory is engine/serving's, and a served Nemotron 3 Nano at tp 16, which vLLM runs, has no Megatron stage time)
    data = draw(valid_scenarios(workloads=("training", "post-training")))
    for spec in draw(st.lists(st.sampled_from(_VARIED), min_size=4, max_size=12, unique_by=lambda k: k.name)):
        attempt = {**data, spec.name: draw(st.sampled_from(spec.check.samples()))}
        try:
            scenario_from_dict(attempt)
        except PlannerError:
            continue
        data = attempt
    return data


def _valid(data: dict):
    try:
        return scenario_from_dict(data)
    except PlannerError:
        assume(False)


def _recording(data: dict) -> RecordingScenario:
    for table in memo_tables():  # a hit would skip the computation, and its reads with it
        table.clear()
    return RecordingScenario(_valid(data))


def _assert_reads_no_ignored_key(s: RecordingScenario, table: ScenarioMemo) -> None:
    read_but_ignored = s.keys_read & table.ignores
    assert not read_but_ignored, f"{table.name} reads {sorted(read_but_ignored)}, which its memo table ignores"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_stage_states_read_no_key_they_ignore(data: dict) -> None:
    s = _recording(data)
    spec, dt, fw = resolve_model(s), dtypes_for(s), behaviour(s)
    for index, layers in enumerate(stage_layer_ranges(spec.layers, s.pp)):
        stage_states(s, spec, dt, fw, index, layers, layer_groups(s, spec, layers), micro_batches_in_flight(s, index))
    _assert_reads_no_ignored_key(s, STAGE_STATES_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_stage_time_reads_no_key_it_ignores(data: dict) -> None:
    s = _recording(data)
    spec, hw = resolve_model(s), hardware_for(s)
    prof = framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    for index, layers in enumerate(stage_layer_ranges(spec.layers, s.pp)):
        stage_time_per_micro_batch(s, spec, hw, prof, rates, index, layers)
    # vpp read for the key itself: the model chunks block recompute splits (recompute_chunks), and a pipeline layout's
    # pp x vpp chunks place the MTP layers (layout.mtp_stage; found by h-polish15's draws: a Nemotron-3 nano layout)
    if partial_recompute(s) or (s.pipeline_layout and s.pp > 1):
        s.keys_read.discard("vpp")
    _assert_reads_no_ignored_key(s, STAGE_TIME_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_stage_params_read_no_key_they_ignore(data: dict) -> None:
    plain = _valid(data)  # the stages' groups and ends are the caller's, read from the scenario unrecorded
    s = _recording(data)
    spec = resolve_model(plain)
    ranges = stage_layer_ranges(spec.layers, plain.pp)
    for index, layers in enumerate(ranges):
        groups = layer_groups(plain, spec, layers) + mtp_groups(plain, spec, index)
        stage_parameters(s, spec, layers, index == 0, index == len(ranges) - 1, groups)
    _assert_reads_no_ignored_key(s, STAGE_PARAMS_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key(), st.booleans(), st.sampled_from(["", "te-tensorwise", "te-blockwise"]))
def test_layer_host_reads_no_key_it_ignores(data: dict, fused: bool, fp8: str) -> None:
    s = _recording(data)
    spec = resolve_model(s)
    for kind in {(False, False, ""), *spec.layer_kind_counts}:  # dense, and each kind of the model's layers
        layer_host(s, fused, kind, fp8)
    _assert_reads_no_ignored_key(s, LAYER_HOST_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_counted_host_reads_no_key_it_ignores(data: dict) -> None:
    s = _recording(data)
    counted_host(s, resolve_model(s))
    _assert_reads_no_ignored_key(s, COUNTED_HOST_MEMO)


def test_tables_read_inside_a_stage_ignore_what_it_ignores() -> None:
    """A stage's time reads the keys of the tables it looks up: they ignore at least the keys its own table does."""
    assert STAGE_TIME_MEMO.ignores <= LAYER_HOST_MEMO.ignores
    assert STAGE_TIME_MEMO.ignores <= STAGE_PARAMS_MEMO.ignores
    assert STAGE_TIME_MEMO.ignores <= COUNTED_HOST_MEMO.ignores


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_activation_context_reads_no_key_it_ignores(data: dict) -> None:
    s = _recording(data)
    act_context(s, resolve_model(s), dtypes_for(s), behaviour(s))
    _assert_reads_no_ignored_key(s, ACTIVATION_CONTEXT_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_whole_model_params_read_no_key_they_ignore(data: dict) -> None:
    s = _valid(data)
    for table in memo_tables():
        table.clear()
    whole = RecordingScenario(s.with_unchecked(tp=1, pp=1, ep=1))  # the copy whole_model_params counts on
    unsharded_params(whole, resolve_model(s))
    # the copy's tp, pp and ep are one whatever the scenario's: reading them is reading a constant
    read_but_ignored = whole.keys_read & (WHOLE_MODEL_MEMO.ignores - {"tp", "pp", "ep"})
    assert not read_but_ignored, f"whole model parameters read {sorted(read_but_ignored)}, which the table ignores"


def test_every_memo_table_is_checked_here() -> None:
    """A new table must get its own read check in this file ("stage parts" is keyed by the scenario object itself,
    engine/scenario/memo.py LastScenarioMemo: it ignores no key)."""
    assert {t.name for t in memo_tables()} <= {"stage states", "stage time", "activation context", "stage parts",
                                               "layer host", "whole model parameters", "stage params",
                                               "counted host"}
    assert all(not t.ignores for t in memo_tables() if t.name == "stage parts")
