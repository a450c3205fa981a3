"""A served model's breakdown table gives each component its share of the total, as the pie and the Markdown card do
(user audit 9): the table left CUDA graphs, the CUDA context and non-torch memory without a share and "on top of the
peak", while the pie said 5%, 4% and 2% and the Markdown 5.1%, 4.3% and 2.3% "whole step" -- for a served model they
are part of the engine's total (engine/serving: every component is in the total), not added on top. Training's
overheads (context, fragmentation, reserve) stay set apart."""

from __future__ import annotations

import json
from pathlib import Path

from engine.report import build_report
from tests.window_helpers import window_from

EXAMPLES = Path(__file__).parent.parent / "examples"


def _cells(win) -> list[list[str]]:
    table = win.table.table
    return [[table.item(r, c).text() for c in range(4)] for r in range(table.rowCount())]


def test_a_served_models_table_gives_every_component_a_share_as_the_card(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, json.loads((EXAMPLES / "serve-qwen3-32b-awq-2x4090.json").read_text()))
    cells = _cells(win)
    card = build_report(win.state.scenario, win.state.estimate)
    assert [(name, share) for name, _, share, _ in cells] == [(row[0], row[2]) for row in card.rows]
    assert all(share for _, _, share, _ in cells) and not any(where == "on top of the peak" for *_, where in cells)


def test_training_overheads_stay_on_top_of_the_peak(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, json.loads((EXAMPLES / "llama3-8b-lora-4090.json").read_text()))
    overheads = [row for row in _cells(win) if row[3] == "on top of the peak"]
    assert [row[0] for row in overheads] == ["CUDA context and library workspaces",
                                             "Allocator rounding and fragmentation", "Safety reserve"]
    assert all(share == "" for _, _, share, _ in overheads)
