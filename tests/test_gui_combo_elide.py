"""A chosen text wider than its closed combo ends in an ellipsis instead of being clipped mid-word (issue 23 window
follow-up: at 1,366 px the checkpointing list's marked value "⚠ recompute part of each layer, as the framework does
(selective) — this framework cannot run it" was cut after "(selective)" with nothing to say more followed)."""

from gui.widgets import ValueCombo

LONG = "⚠ recompute part of each layer, as the framework does (selective) — this framework cannot run it"


def test_long_choice_is_elided_in_the_closed_box(qtbot):
    combo = ValueCombo([("full", "recompute each layer (full checkpointing)"), ("selective", LONG)])
    qtbot.addWidget(combo)
    combo.setMinimumWidth(0)
    combo.setFixedWidth(260)
    combo.set_value("selective")
    shown = combo.closed_text()
    assert shown.endswith("…") and shown.startswith("⚠ recompute") and len(shown) < len(LONG)
    assert combo.currentText() == LONG  # the item itself (open list, tooltip, tests) keeps the whole text


def test_short_choice_is_shown_whole(qtbot):
    combo = ValueCombo([("full", "full"), ("none", "none")])
    qtbot.addWidget(combo)
    combo.setFixedWidth(260)
    combo.set_value("none")
    assert combo.closed_text() == "none"
    combo.grab()  # paints through closed_text without error
