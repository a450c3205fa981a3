"""The time bar's legend tagged each term "(38%, assumed)", "derived" or "measured": a modeller's words (user audit 9).
The tags are plain words now ("a rough guess", "calculated from specs", "from measurements": engine/timing/provenance.py
KIND_WORDS, also in the post-training phases' line), and the legend's hover says in one sentence each what the tag
means for how sure the figure is, before each term's basis. The kinds are the engine's (time_provenance): on an L40S
(no GEMM row: the table's median) the matmuls are a rough guess; on an H100 with a measured GEMM row they are from
measurements."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from engine.scenario import scenario_from_dict
from engine.timing.provenance import ASSUMED, DERIVED, KIND_MEANINGS, KIND_WORDS, MEASURED, time_provenance
from engine.workloads import step_time
from gui.i18n import install_language
from gui.time_bar import TimeBar

BASE = {"model": "llama-3.2-1b", "gpu": "h100-sxm-80gb", "precision": "bf16", "seq_len": 2048}


def _bar(qtbot, scenario: dict) -> TimeBar:
    bar = TimeBar()
    qtbot.addWidget(bar)
    s = scenario_from_dict(scenario)
    bar.show_time(step_time(s), time_provenance(s))
    return bar


def test_the_legend_tags_terms_in_plain_words(qtbot):
    s = {**BASE, "gpu": "l40s"}
    kinds = time_provenance(scenario_from_dict(s))
    assert kinds["compute"].kind == ASSUMED and kinds["memory_bound"].kind == DERIVED  # the case the words show
    bar = _bar(qtbot, s)
    text = bar.legend.text()
    assert "a rough guess" in text and "calculated from specs" in text
    assert not any(f", {word})" in text for word in ("assumed", "derived", "measured"))


def test_the_hover_explains_each_tag_shown_once_in_one_sentence(qtbot):
    bar = _bar(qtbot, BASE)
    assert time_provenance(scenario_from_dict(BASE))["compute"].kind == MEASURED
    tip = bar.legend.toolTip().replace("&#x27;", "'")
    lines = tip.split("<br>")
    shown = [kind for kind in KIND_WORDS if f"{KIND_WORDS[kind]})" in bar.legend.text()]
    assert shown and MEASURED in shown
    for kind in shown:  # one line per tag shown, its words then one sentence saying how sure the figure is
        line = f"<b>{KIND_WORDS[kind]}</b>: {KIND_MEANINGS[kind]}"
        assert lines.count(line) == 1 and KIND_MEANINGS[kind].count(". ") == 0 and "sure" in KIND_MEANINGS[kind]
    assert lines.index(f"<b>{KIND_WORDS[shown[0]]}</b>: {KIND_MEANINGS[shown[0]]}") == 0  # before the bases


def test_the_tags_are_said_in_chinese(qtbot):
    install_language(QApplication.instance(), "zh_CN", require_font=False)
    try:
        bar = _bar(qtbot, {**BASE, "gpu": "l40s"})
        text, tip = bar.legend.text(), bar.legend.toolTip()
        chinese = QApplication.translate("engine", KIND_WORDS[ASSUMED])  # the catalogue's (gui/i18n/planner_zh_CN.ts)
    finally:
        install_language(QApplication.instance(), "en")
    assert "rough guess" not in text and "least sure" not in tip
    # h-useraudit10: the share and the tag in full-width brackets and comma, as the rest of the Chinese text
    # ("8.9 s (57%, 粗略假定)" mixed ASCII punctuation into it)
    assert chinese != KIND_WORDS[ASSUMED] and f"，{chinese}）" in text and f", {chinese})" not in text
