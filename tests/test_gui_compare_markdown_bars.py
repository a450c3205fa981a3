"""A Megatron engineer compared the 405B plan before and after Fastest layouts' first plan (pipeline layout
"Ett|(tt|)*62L") and exported the comparison as Markdown (user audit 11): the layout's bars split its row into five
cells under a three-column header, so the table rendered wrong from that row on. Each cell's "|" is now escaped, as the
scenario's own Markdown does (engine/report.py)."""

from __future__ import annotations

import re

from engine.scenario import scenario_from_dict
from gui import file_actions
from gui.app import build_window
from gui.compare_view import Compared

LLAMA_405B = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
              "framework": "megatron", "precision": "mixed-bf16", "tp": 8, "pp": 16, "micro_batch": 1,
              "grad_accum": 64, "seq_len": 8192, "checkpointing": "selective", "sequence_parallel": True,
              "distributed_optimizer": True, "name": "405B | as planned"}
# Fastest layouts' first plan for it (engine/planning/speed_search.py, run in the audit)
FASTEST = {"grad_accum": 512, "checkpointing": "none", "tp": 4, "pp": 64, "cp": 4, "pipeline_layout": "Ett|(tt|)*62L"}


def _columns(row: str) -> int:
    return len(re.split(r"(?<!\\)\|", row.strip())) - 2  # bars not escaped, less the row's two ends


def test_every_row_of_the_comparison_has_the_headers_columns(qtbot, tmp_path):
    window, error = build_window(None)
    assert error is None
    qtbot.addWidget(window)
    before = scenario_from_dict(LLAMA_405B)
    after = before.replace(**FASTEST, name="faster")
    window.compare.set_items([Compared(before.name, before), Compared(after.name, after)])
    window.tabs.setCurrentWidget(window.compare)
    out = tmp_path / "compare.md"
    file_actions.export_to(window, file_actions.COMPARISON + "md", str(out))
    rows = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert len({_columns(row) for row in rows}) == 1, rows
    assert _columns(rows[0]) == 3
    assert any("Ett\\|(tt\\|)*62L" in row for row in rows)
    assert "405B \\| as planned" in rows[0]
