"""A pipeline schedule or model chunks per rank set with pp 1 (user audit, issue 23 follow-up): nothing is scheduled,
so the figures are those without them and the estimate says so in one sentence (the Zero Bubble fork at f68d3879
megatron/arguments.py line 206 and Megatron-LM at d98e8a64 megatron/training/arguments.py lines 1000-1008 refuse
them); the window sets both back when an edit takes pp to 1, in the same undo step."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.timing import step_time
from tests.window_helpers import window_from

BASE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron",
        "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096}


@pytest.mark.parametrize(("schedule", "vpp"), [("interleaved-1f1b", 2), ("zb-h1", 1), ("zbv", 2)])
def test_a_schedule_without_a_pipeline_changes_nothing_and_says_so(schedule, vpp):
    framework = "megatron-zb" if schedule.startswith("zb") else "megatron"
    s = scenario_from_dict({**BASE, "framework": framework, "pp_schedule": schedule, "vpp": vpp})
    plain = scenario_from_dict({**BASE, "framework": framework})
    # the expected figures: the same scenario with the schedule key's defaults (1f1b, vpp 1)
    assert estimate(s).peak_allocated_bytes == estimate(plain).peak_allocated_bytes
    assert step_time(s).step_seconds == step_time(plain).step_seconds
    said = [str(w) for w in estimate(s).warnings if "no pipeline" in str(w)]
    assert len(said) == 1 and schedule in said[0] and said[0].endswith(".")
    assert not [w for w in estimate(plain).warnings if "no pipeline" in str(w)]
    with_pipeline = scenario_from_dict({**BASE, "framework": framework, "pp_schedule": schedule, "vpp": vpp, "pp": 2})
    assert not [w for w in estimate(with_pipeline).warnings if "no pipeline" in str(w)]


def test_the_window_sets_the_schedule_back_when_pp_drops_to_1(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "pp": 2, "vpp": 2, "pp_schedule": "interleaved-1f1b"})
    state, notices = win.state, []
    state.noticeChanged.connect(notices.append)
    count = state.undo_stack.count()
    state.edit({"pp": 1})
    assert (state.scenario.pp, state.scenario.vpp, state.scenario.pp_schedule) == (1, 1, "1f1b")
    assert state.undo_stack.count() == count + 1 and notices and "no pipeline" in notices[-1]
    assert not [w for w in state.estimate.warnings if "no pipeline" in str(w)]
    win.undo_action.trigger()
    assert (state.scenario.pp, state.scenario.vpp, state.scenario.pp_schedule) == (2, 2, "interleaved-1f1b")
