"""Issue 21.1: a scenario key is declared once. Every view of the key set (the parser, its bounds, `main.py schema`,
docs/scenario-format.md, the window's choice lists) is derived from the declarations of the Scenario fields."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from engine.scenario import DEFAULTS, KEYS, SCENARIO_MAXIMA, Scenario

THROWAWAY = ('    widget_count: int = key(3, "widgets per sequence (a throwaway key of the test)", WholeNumber(0, 10), '
             'applies_to="tests only")\n')
PROBE = r"""
import json, sys
from engine import scenario_from_dict
from engine.scenario.docs import schema_markdown
from engine.errors import ScenarioError
from engine.scenario import DEFAULTS, SCENARIO_MAXIMA
from gui.choices import choice_items
out = {"default": scenario_from_dict({"model": "llama-3-8b"}).widget_count,
       "parsed": scenario_from_dict({"model": "llama-3-8b", "widget_count": 7}).widget_count,
       "in_defaults": DEFAULTS.get("widget_count"), "maximum": SCENARIO_MAXIMA.get("widget_count"),
       "documented": [line for line in schema_markdown().splitlines() if "widget_count" in line],
       "saved": scenario_from_dict({"model": "llama-3-8b", "widget_count": 7}).to_dict()["widget_count"]}
for bad in (11, -1, "many"):
    try:
        scenario_from_dict({"model": "llama-3-8b", "widget_count": bad})
        out.setdefault("refused", []).append(None)
    except ScenarioError as exc:
        out.setdefault("refused", []).append(str(exc))
print(json.dumps(out))
"""


def test_a_key_added_in_one_place_is_parsed_bounded_documented_and_listed(tmp_path: Path):
    """One line added to the Scenario class in a copy of the code: the key parses, keeps its bounds, is saved,
    listed in DEFAULTS and `main.py schema`, with no other file edited."""
    copy = tmp_path / "copy"
    for folder in ("engine", "presets", "gui"):
        shutil.copytree(REPO / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    scenario_py = copy / "engine" / "scenario" / "format.py"
    text = scenario_py.read_text()
    anchor = next(line for line in text.splitlines(keepends=True) if line.startswith("    seq_len: int = key("))
    scenario_py.write_text(text.replace(anchor, anchor + THROWAWAY, 1))
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=copy, capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": str(copy), "QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout)
    assert out["default"] == 3 and out["parsed"] == 7 and out["saved"] == 7
    assert out["in_defaults"] == [3, "widgets per sequence (a throwaway key of the test)"]
    assert out["maximum"] == 10
    row, limit = out["documented"]  # its row in the key table and in the table of limits
    assert "0 .. 10" in row and "tests only" in row and limit == "| `widget_count` | 10 |"
    assert out["refused"] == ["widget_count: must be at most 10, not 11.", "widget_count: must be at least 0, not -1.",
                              "widget_count: must be a whole number, not 'many'."]


def test_a_choice_added_to_a_declaration_reaches_the_window(monkeypatch):
    """A combo lists what the key declares; a choice without words still appears, as its file word."""
    from engine.scenario import KEY_SPECS
    from engine.scenario.keys import Choice
    from gui import choices

    spec = KEY_SPECS["attention"]
    monkeypatch.setitem(KEY_SPECS, "attention", spec.__class__(
        spec.name, spec.default, spec.meaning, Choice((*spec.check.options, "ring"))))
    items = choices.choice_items("attention", {"sdpa": "PyTorch SDPA", "flash": "FlashAttention", "eager": "eager"})
    assert items[-1] == ("ring", "ring")
    assert ("attention", "ring") in choices.UNWORDED
    choices.UNWORDED.discard(("attention", "ring"))


def test_every_choice_in_the_window_has_words(qtbot, tmp_path):
    """Every declared choice the window offers has words of its own (a new choice fails here until it has)."""
    from window_helpers import window_from

    from gui import choices

    window_from(qtbot, tmp_path, {"model": "llama-3-8b"})
    assert choices.UNWORDED == set()


def test_defaults_follow_the_declarations():
    """DEFAULTS (the file format's table) is the declarations in order, behind schema_version; a key's maximum
    is its check's."""
    assert list(DEFAULTS) == ["schema_version", *(k.name for k in KEYS)]
    # every field is a key; the training keys (Scenario's own) come first, then each section's (its base classes)
    assert sorted(k.name for k in KEYS) == sorted(Scenario.__dataclass_fields__)
    own = list(Scenario.__annotations__)
    assert [k.name for k in KEYS][:len(own)] == own and "workload" in [k.name for k in KEYS][len(own):]
    assert SCENARIO_MAXIMA["seq_len"] == 100_000_000 and "zero_stage" not in SCENARIO_MAXIMA
