"""The Zero Bubble fork's rules and the bubble's explanation per pipeline schedule (issue 23 items 5 and 8).

The fork (sail-sg/zero-bubble-pipeline-parallelism at f68d3879) refuses Megatron's distributed optimizer with zero
bubble: megatron/arguments.py line 205 'assert not args.use_distributed_optimizer, "not supported yet because we
didn't verify the correctness"' under args.enable_zero_bubble, which --zero-bubble-v-schedule sets (line 203). The
formulas are arXiv:2401.10241's: Table 2 (1F1B, ZB-H1, ZB-H2), Appendix H (ZB-2p), section 6 (ZB-V)."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.frameworks.defaults import defaults_for
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.scenario.runnable import runnable_layouts
from engine.timing.formulas import bubble_formula
from engine.timing.provenance import time_provenance

ZB = ("zb-h1", "zb-2p", "zbv")
ROWS = Path(__file__).parent / "data/published/throughput/zero-bubble-2024.json"


def zb_scenario(schedule: str, **keys: object):
    """A Table 4 ZB-1p run of the paper (GPT-1.5B, pp 8, 24 micro-batches), on the schedule asked, with keys."""
    row = next(r for r in json.loads(ROWS.read_text())["rows"] if r["id"].endswith("b6-m24-zb-1p"))
    vpp = {"vpp": 2} if schedule == "zbv" else {}
    return scenario_from_dict({**row["scenario"], "pp_schedule": schedule, **vpp, **keys})


def test_the_fact_is_in_the_fork_row_with_its_source():
    caps = defaults_for("megatron-zb").parallelism
    facts = dict(caps.sources)
    assert "arguments.py line 205" in facts["ZeRO with zero bubble"]
    assert "not supported yet because we didn't verify the correctness" in facts["ZeRO with zero bubble"]
    assert dict(caps.schedule_max_zero) == dict.fromkeys(ZB, 0)
    # the fork's other checks at lines 192-210, each stated (pp > 1, post validation with fp16, ZB-V's vpp 2, no
    # zb-h1 / zb-2p over several chunks, sequence parallelism not checked)
    for said in ("line 206", "lines 207-208", "lines 199-202", "zb_schedules.py line 1241", "sequence parallelism"):
        assert said in facts["zero bubble's other checks"]


@pytest.mark.parametrize("schedule", ZB)
@pytest.mark.parametrize("keys", [{"distributed_optimizer": True}, {"zero_stage": 1}])
def test_zero1_with_zero_bubble_is_warned(schedule, keys):
    # ZB-V at pp 4: the run's 22 layers (24 with the embedding and loss its split accounts for) fill 2 x 4 V chunks,
    # not the 2 x 8 the fork refuses (cannot_run 'zbv_layers', a rule of its own), so only the ZeRO rule is asked
    s = zb_scenario(schedule, **keys, **({"pp": 4} if schedule == "zbv" else {}))
    assert cannot_run(s) == ("zero_with_schedule",)
    sentence = str(unsupported_settings(s)[0])
    assert "ZeRO-1" in sentence and schedule in sentence and "ZeRO-0" in sentence
    # plain data parallelism with the schedule, or the sharding with 1F1B: the two ways out, neither refused
    ways = runnable_layouts(s)
    assert ways and all(not cannot_run(w.scenario) for w in ways)
    assert {(w.scenario.pp_schedule, w.scenario.effective_zero) for w in ways} <= {("1f1b", 1), (schedule, 0)}


def test_one_f_one_b_keeps_its_distributed_optimizer_and_upstream_megatron_is_unchanged():
    assert not cannot_run(zb_scenario("1f1b", distributed_optimizer=True))
    assert not cannot_run(zb_scenario("interleaved-1f1b", vpp=1, distributed_optimizer=True))
    assert not cannot_run(zb_scenario("1f1b", framework="megatron", distributed_optimizer=True))


def test_no_search_proposes_zero1_with_a_zero_bubble_schedule():
    from engine.planning.speed_search import _layouts

    base = zb_scenario("1f1b", nodes=2, micro_batch=1, grad_accum=24)
    layouts = list(_layouts(base))
    zb = [lay for lay in layouts if lay["pp_schedule"] in ZB]
    assert zb, "the fork's search tries its zero-bubble schedules"
    assert all(lay["zero_stage"] == 0 and not lay["fsdp"] for lay in zb)
    assert any(lay["zero_stage"] == 1 for lay in layouts if lay["pp_schedule"] == "1f1b" and lay["pp"] > 1)
    # a scenario with Megatron's distributed optimizer (ZeRO-1 whatever zero_stage reads) gets its zero-bubble
    # layouts with the key turned off (engine/planning/layout_shardings.py), its 1F1B ones keep it
    kept = list(_layouts(base.with_unchecked(distributed_optimizer=True)))
    zb = [lay for lay in kept if lay["pp_schedule"] in ZB]
    assert zb and all(lay["distributed_optimizer"] is False and lay["zero_stage"] == 0 for lay in zb)
    assert all("distributed_optimizer" not in lay for lay in kept if lay["pp_schedule"] not in ZB)


def test_the_search_plans_run_where_they_are_proposed():
    from engine.planning.speed_search import speed_search

    base = zb_scenario("1f1b", nodes=2, distributed_optimizer=True)
    plans = speed_search(base).plans
    assert plans and all(not cannot_run(base.with_unchecked(**p.changes)) for p in plans)
    assert any(p.changes.get("pp_schedule") in ZB for p in plans)


@pytest.mark.parametrize("schedule, words", [
    ("1f1b", "(p - 1)(F + B + W)"), ("interleaved-1f1b", "/ vpp"), ("zb-h1", "(p - 1)(F + B - W)"),
    ("zb-2p", "(p - 1)(F + B) - (m - 1) W"), ("zbv", "(p - 1)(F + B - 2 W)")])
def test_each_schedule_explains_its_own_bubble(schedule, words):
    assert words in bubble_formula(schedule)
    # interleaved on a synchronised Megatron-LM (megatron-2022: pipeline_p2p_synchronize true), whose bubble is the
    # schedule's own; Megatron-Core's overlapped exchanges have theirs (test_overlapped_interleaved_bubble_formula)
    keys = {"vpp": 2, "framework": "megatron-2022"} if schedule == "interleaved-1f1b" else {}
    bubble = time_provenance(zb_scenario(schedule, **keys))["bubble"]
    assert bubble.formula == bubble_formula(schedule)
    inputs = dict(bubble.inputs)
    assert inputs["pp"] == 8 and inputs["grad_accum"] == 24
    # the W passes each defers (zero_bubble.py): ZB-1p p - 1 = 7, ZB-2p m - 1 = 23, ZB-V min(m - 1, 2 (p - 1)) = 14
    assert inputs.get("deferred_w_passes") == {"zb-h1": 7, "zb-2p": 23, "zbv": 14}.get(schedule)
    assert ("/ vpp" in bubble.formula) == (schedule == "interleaved-1f1b")


def test_overlapped_interleaved_bubble_formula():
    """Megatron-Core's interleaved schedule with overlap_p2p_comm (the fork's 1F1B-I rows) charges its bubble
    2 (pp x vpp - 1) exchanges, every chunk boundary crossed twice (engine/timing/overlapped_p2p.py), where 1F1B's
    p - 1 stage boundaries would be 2 (pp - 1): the hover says which."""
    from engine.timing.formulas import OVERLAPPED_INTERLEAVED_BUBBLE
    from engine.timing.overlapped_p2p import overlapped_exchange_seconds

    s = zb_scenario("interleaved-1f1b", vpp=2)
    assert time_provenance(s)["bubble"].formula == OVERLAPPED_INTERLEAVED_BUBBLE
    assert "2 (p x vpp - 1) T_comm" in OVERLAPPED_INTERLEAVED_BUBBLE
    assert overlapped_exchange_seconds(s.pp, s.vpp, s.grad_accum, 1.0, 0.0)[1] == 2 * (s.pp * s.vpp - 1)


def test_overlapped_interleaved_pipeline_sends_formula(qtbot, tmp_path):
    """Under the same schedule the pipeline sends term holds only the steady state's exposed part: max(0, m x vpp -
    (p x vpp - 1)) slots x what a transfer outlasts a chunk's forward by (overlapped_p2p.py); the hover says that,
    not FORMULAS' "per micro-batch", and 1F1B keeps FORMULAS' text."""
    from window_helpers import window_from

    from engine.timing.formulas import FORMULAS, OVERLAPPED_INTERLEAVED_SENDS
    from engine.timing.overlapped_p2p import overlapped_exchange_seconds
    from gui.i18n import tr_engine

    s = zb_scenario("interleaved-1f1b", vpp=2)
    sends = time_provenance(s)["communication_pp"]
    assert sends.formula == OVERLAPPED_INTERLEAVED_SENDS and dict(sends.inputs) == {"pp": 8, "vpp": 2, "grad_accum": 24}
    # with a chunk's forward 0 (fill 0) every steady-state slot exposes the whole transfer T = 1 s
    slots = max(0, s.grad_accum * s.vpp - (s.pp * s.vpp - 1))
    assert overlapped_exchange_seconds(s.pp, s.vpp, s.grad_accum, 1.0, 0.0)[0] == slots
    assert "max(0, m x vpp - (p x vpp - 1))" in OVERLAPPED_INTERLEAVED_SENDS
    assert time_provenance(zb_scenario("1f1b"))["communication_pp"].formula == ""
    row = next(r for r in json.loads(ROWS.read_text())["rows"] if r["id"].endswith("b6-m24-zb-1p"))
    win = window_from(qtbot, tmp_path, {**row["scenario"], "pp_schedule": "interleaved-1f1b", "vpp": 2})
    tip = win.time_panel.bar.legend.toolTip()
    assert escape(tr_engine(OVERLAPPED_INTERLEAVED_SENDS)) in tip and "pp = 8, vpp = 2, grad_accum = 24" in tip
    assert escape(tr_engine(FORMULAS["communication_pp"])) not in tip


def test_the_time_tab_hover_shows_the_schedules_formula(qtbot, tmp_path):
    from window_helpers import window_from

    row = next(r for r in json.loads(ROWS.read_text())["rows"] if r["id"].endswith("b6-m24-zb-1p"))
    win = window_from(qtbot, tmp_path, row["scenario"])
    tip = win.time_panel.bar.legend.toolTip()
    assert "(p - 1)(F + B - W)" in tip and "deferred_w_passes = 7" in tip


def test_the_window_marks_zero1_and_the_schedule_under_zero_bubble(qtbot, tmp_path):
    from window_helpers import window_from

    from gui.i18n import tr_message

    row = next(r for r in json.loads(ROWS.read_text())["rows"] if r["id"].endswith("b6-m24-zb-1p"))
    win = window_from(qtbot, tmp_path, {**row["scenario"], "zero_stage": 1})
    panel = win.setup_panel
    sentence = tr_message(unsupported_settings(zb_scenario("zb-h1", zero_stage=1))[0])
    assert panel.zero.currentData() == 1 and panel.zero.currentText().startswith("⚠")
    assert panel.zero.toolTip() == sentence and panel.limits.schedule.toolTip() == sentence
    panel.zero.setCurrentIndex(0)  # plain data parallelism: what the fork runs with zero bubble, nothing marked
    assert win.state.scenario.zero_stage == 0 and not unsupported_settings(win.state.scenario)
    assert [panel.zero.itemData(i) for i in range(panel.zero.count())] == [0]
