"""Memo tables (engine/memo.py) look results up by every scenario key except the ones they declare ignored. A key
read by the memoised computation but declared ignored would serve a stale result after an edit of that key: these
tests run each computation on scenarios that record every key read, over drawn valid scenarios that also vary the
framework, the loss, images and the kernels, and fail on any ignored key that is read."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import scenario_from_dict
from engine.detailed import ACTIVATION_CONTEXT_MEMO, act_context, stage_layer_ranges
from engine.errors import PlannerError
from engine.frameworks import CROSS_ENTROPIES, FRAMEWORKS, behaviour
from engine.memo import ScenarioMemo, memo_tables
from engine.parallelism.pipeline import micro_batches_in_flight
from engine.scenario import resolve_model
from engine.stage_states import STAGE_STATES_MEMO, stage_states
from engine.states import dtypes_for, layer_groups
from engine.time_keys import FP8_RECIPES, MOE_TOKEN_DISPATCHERS
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import STAGE_TIME_MEMO, rates_for, stage_time_per_micro_batch
from tests.scenario_reads import RecordingScenario
from tests.scenario_strategies import valid_scenarios


@st.composite
def scenarios_with_every_kind_of_key(draw: st.DrawFn) -> dict:
    data = draw(valid_scenarios())
    data["framework"] = draw(st.sampled_from(FRAMEWORKS))
    data["cross_entropy"] = draw(st.sampled_from(CROSS_ENTROPIES))
    data["compile"] = draw(st.booleans())
    data["activation_offload"] = draw(st.booleans())
    data["lora_dropout"] = draw(st.sampled_from([0.0, 0.05]))
    data["loss_parallel"] = data["tp"] > 1 and draw(st.booleans())
    data["reshard_after_forward"] = draw(st.booleans())
    data["images_per_sample"] = draw(st.sampled_from([0, 1, 4]))
    data["reserve"] = draw(st.sampled_from(["auto", 0.05]))
    data["liger_kernels"] = draw(st.booleans())
    data["fp8_recipe"] = draw(st.sampled_from(FP8_RECIPES))
    data["moe_token_dispatcher_type"] = draw(st.sampled_from(MOE_TOKEN_DISPATCHERS))
    data["recompute_modules"] = draw(st.sampled_from([["core_attn"], ["mlp", "layernorm"], ["moe", "moe_act"]]))
    data["pipeline_split_accounts_for"] = draw(st.sampled_from([[], ["embedding"], ["embedding", "loss"]]))
    data["activation_offload_layers"] = draw(st.sampled_from([0, 1]))
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
    _assert_reads_no_ignored_key(s, STAGE_TIME_MEMO)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios_with_every_kind_of_key())
def test_activation_context_reads_no_key_it_ignores(data: dict) -> None:
    s = _recording(data)
    act_context(s, resolve_model(s), dtypes_for(s), behaviour(s))
    _assert_reads_no_ignored_key(s, ACTIVATION_CONTEXT_MEMO)


def test_every_memo_table_is_checked_here() -> None:
    """A new table must get its own read check in this file."""
    assert {t.name for t in memo_tables()} <= {"stage states", "stage time", "activation context"}
