"""GPU counts printed ungrouped ("on each of 1024 ×", "none up to 1024", "on 1024 GPUs") beside grouped token counts
("24,576 tokens"; user audit 11 item f): every message showing a GPU count groups it as the app groups its other
counts (engine/units.py format_gpu_count, Python's "," grouping; not QLocale, which groups nothing in the C locale).
And the limits line's "fewest GPUs with TP/PP: none up to 1024" read as contradicting a 405B plan on 1,024 GPUs with
CP 4: that count lays out TP in a node then PP, never CP or EP (engine/planning/limits.py with_gpus), and now says
"TP and PP only". The 1,024 GPUs are 128 nodes of 8, the world size the scenario states."""

from __future__ import annotations

import inspect

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import ScenarioError
from engine.estimate_output import render_table
from engine.messages import message
from engine.planning import solver
from engine.planning.fit_report import fit_report, render_fit
from engine.planning.limits import MAX_GPUS, limits
from engine.report import build_report
from tests.window_helpers import window_from

ON_1024 = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
           "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 1, "seq_len": 8192,
           "checkpointing": "full", "tp": 8, "pp": 4}
# 70B at 131,072 tokens a sequence on RTX 4090s: no layout of TP in a node then PP holds it up to 1,024 GPUs
NONE_FITS = {"schema_version": 1, "model": "llama-3.1-70b", "gpu": "rtx-4090", "gpus_per_node": 8, "nodes": 1,
             "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 131072,
             "checkpointing": "full"}


def test_the_estimate_text_and_report_group_the_gpu_count():
    s = scenario_from_dict(ON_1024)
    est = estimate(s)
    assert est.world_size == 1024
    assert " on 1,024 x NVIDIA H100" in render_table(est, "GiB").splitlines()[0]
    assert "per GPU on 1,024 x " in build_report(s, est).verdict


def test_plan_steps_and_notes_group_the_gpu_counts_and_keep_numbers_in_json():
    source = inspect.getsource(solver)  # the plan's words (solver._describe): each GPU count grouped
    for template in ("use {n:,} GPUs ({nodes} x {per_node}) with {layout}",
                     "more GPUs cost money: {n:,} instead of {old:,}"):
        assert f'"{template}"' in source
    note = message("more GPUs cost money: {n:,} instead of {old:,}", n=1024, old=8)
    assert str(note) == "more GPUs cost money: 1,024 instead of 8"
    assert dict(note.params)["n"] == 1024  # estimate --json's params keep the number; only the words group it


def test_the_limits_say_tp_and_pp_only_and_group_none_up_to():
    s = scenario_from_dict(NONE_FITS)
    assert limits(s).min_gpus["tp_pp"] is None and MAX_GPUS == 1024
    text = render_fit(fit_report(s, max_plans=1))
    assert "fewest GPUs, TP in a node, then PP (TP and PP only): none up to 1,024" in text


def test_the_window_groups_gpu_counts_and_names_what_the_limit_counted(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, ON_1024)
    assert "on each of 1,024 × NVIDIA H100" in win.verdict.text()
    assert win.hardware_picker.summary.text().startswith("1,024 × ")
    win.time_panel.refresh()
    assert "tokens per step on 1,024 GPUs" in win.time_panel.summary.text()
    win = window_from(qtbot, tmp_path, NONE_FITS)
    win.limits.refresh()
    assert "with TP and PP only: none up to 1,024" in win.limits.text()


def test_a_refused_layout_groups_the_gpu_count_and_keeps_it_a_number():
    # TP 3 on 1,024 GPUs (128 x 8) does not divide them (engine/scenario/consistency.py)
    with pytest.raises(ScenarioError) as refused:
        scenario_from_dict({**ON_1024, "tp": 3, "pp": 1})
    assert "there are 1,024 (GPUs per node × nodes)" in str(refused.value)
    assert dict(refused.value.detail.params)["world_size"] == 1024
