"""Issue 16: what a person meets in the window (no hidden state, the wheel, the verdict, plain words)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from gui.app import build_window

REPO = Path(__file__).resolve().parent.parent
MOE_EXAMPLE = REPO / "examples" / "qwen3-30b-a3b-8x-h100.json"  # ep = 8 on 8 GPUs


@pytest.fixture
def moe_window(qtbot):
    win, error = build_window(str(MOE_EXAMPLE))
    assert error is None and win.state.scenario.ep == 8
    qtbot.addWidget(win)
    win.show()
    return win


# --- 1. no hidden state blocks an edit


def test_dense_model_after_moe_example_resets_ep_and_says_why(moe_window):
    win = moe_window
    win.model_picker.tree.chosen.emit("llama-3-8b")  # what a click on the row emits
    assert win.state.scenario.model == "llama-3-8b"  # the click was not refused
    assert win.state.scenario.ep == 1
    assert win.notice.isVisible()
    text = win.notice.label.text()
    assert "Expert parallel (EP)" in text and "mixture-of-experts" in text
    assert "Llama 3 8B" in win.state.undo_stack.undoText() and "Expert parallel (EP): 1" in win.state.undo_stack.undoText()
    win.notice.undo_button.click()  # one click takes both back
    assert win.state.scenario.model == "qwen3-30b-a3b" and win.state.scenario.ep == 8
    assert not win.notice.isVisible()


def test_fewer_gpus_lowers_ep_tp_pp_to_what_divides(moe_window):
    win = moe_window
    win.hardware_picker.gpus_per_node.setValue(2)
    assert win.state.scenario.gpus_per_node == 2 and win.state.scenario.ep == 2
    assert win.notice.isVisible() and "Expert parallel (EP)" in win.notice.label.text()
    assert win.state.edit({"gpus_per_node": 8, "ep": 1, "tp": 4})
    win.hardware_picker.gpus_per_node.setValue(2)
    assert (win.state.scenario.gpus_per_node, win.state.scenario.tp) == (2, 2)
    assert "Tensor-parallel size 4 needs a number of GPUs divisible by 4" in win.notice.label.text()
    assert win.state.edit({"gpus_per_node": 8, "tp": 1, "pp": 8})
    win.hardware_picker.gpus_per_node.setValue(1)
    assert (win.state.scenario.gpus_per_node, win.state.scenario.pp) == (1, 1)


def test_model_whose_heads_tp_does_not_divide_lowers_tp(qtbot):
    win, _ = build_window()
    qtbot.addWidget(win)
    win.show()
    assert win.state.edit({"model": "llama-3-8b", "gpus_per_node": 8, "tp": 8})
    win.model_picker.tree.chosen.emit("qwen2.5-7b")  # 28 heads (preset config): 8 does not divide them, 4 does
    assert (win.state.scenario.model, win.state.scenario.tp) == ("qwen2.5-7b", 4)
    assert "Tensor-parallel size 8 must divide the model's 28 attention heads" in win.notice.label.text()
    win.model_picker.tree.chosen.emit("phi-3-medium")  # 40 heads but 10 KV heads: 4 and 10 do not divide each other
    assert (win.state.scenario.model, win.state.scenario.tp) == ("phi-3-medium", 2)
    assert win.state.edit({"model": "phi-3-mini", "tp": 1, "gpus_per_node": 6})
    assert not win.state.edit({"tp": 6})  # 6 does not divide 32 heads: the person's own edit is refused, not bent
    assert win.state.scenario.tp == 1
    assert win.notice.isVisible() and "Tensor-parallel size 6" in win.notice.label.text()


def test_an_edit_that_is_itself_wrong_is_refused_in_plain_words(qtbot):
    win, _ = build_window()
    qtbot.addWidget(win)
    win.show()
    assert not win.state.edit({"tp": 3})
    assert win.state.scenario.tp == 1
    assert win.notice.isVisible() and not win.notice.undo_button.isVisible()
    assert win.notice.label.text().endswith(
        "Tensor-parallel size 3 needs a number of GPUs divisible by 3; there are 1 (GPUs per node × nodes).")
    assert "tp:" not in win.notice.label.text()
    assert win.state.edit({"micro_batch": win.state.scenario.micro_batch * 2})  # the next edit that works clears it
    assert not win.notice.isVisible()


# --- 2. the mouse wheel scrolls the set-up panel


def _wheel(widget, delta_y: int = -120) -> None:
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, delta_y),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_wheel_over_setup_controls_scrolls_the_panel_not_the_value(qtbot):
    win, _ = build_window()
    qtbot.addWidget(win)
    win.resize(1366, 700)
    win.show()
    qtbot.waitExposed(win)
    bar = win.setup_scroll.verticalScrollBar()
    assert bar.maximum() > 0  # the panel is taller than the window: there is something to scroll
    panel = win.setup_panel
    before = win.state.scenario.to_dict()
    for control in (panel.optimizer, panel.precision, panel.grad_accum, panel.micro_batch.slider, panel.micro_batch.spin,
                    panel.tp, win.hardware_picker.gpus_per_node):
        bar.setValue(0)
        _wheel(control)
        assert bar.value() > 0, type(control).__name__
    assert win.state.scenario.to_dict() == before  # no value changed
    panel.optimizer.setFocus()  # a control with the keyboard focus does take the wheel
    QApplication.processEvents()
    assert panel.optimizer.hasFocus()
    _wheel(panel.optimizer)
    assert win.state.scenario.optimizer != before["optimizer"]


# --- 3. the verdict never contradicts itself


def _tight_scenario() -> dict:
    """The first LoRA sequence length on an RTX 4090 at which the engine says "tight" (searched, not assumed)."""
    from engine import estimate, scenario_from_dict

    for seq_len in range(1024, 16384, 256):
        data = {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16",
                "checkpointing": "full", "seq_len": seq_len}
        if estimate(scenario_from_dict(data)).verdict == "tight":
            return data
    raise AssertionError("no tight scenario found")


def test_tight_verdict_never_says_over_by_and_the_limits_line_agrees(qtbot):
    from engine import scenario_from_dict

    win, _ = build_window()
    qtbot.addWidget(win)
    win.state.load(scenario_from_dict(_tight_scenario()))
    win.limits.refresh()
    assert win.verdict.verdict == "tight"
    banner = win.verdict.text()
    assert "TIGHT" in banner and "over by" not in banner
    assert "to spare" in banner and "safety reserve" in banner
    assert "not even micro-batch 1 fits on these GPUs" not in win.limits.text()
    assert "safety reserve" in win.limits.text()
    est = win.state.estimate
    assert est.total_bytes > est.capacity_bytes >= est.total_bytes - est.verdict_reserve_bytes  # the definition


def test_over_by_only_with_does_not_fit(qtbot):
    from engine import estimate, scenario_from_dict

    for data in ({"model": "llama-3-70b", "gpu": "rtx-4090"}, {"model": "llama-3-8b", "gpu": "h100-sxm-80gb",
                                                               "method": "lora"}, _tight_scenario()):
        est = estimate(scenario_from_dict(data))
        room = str(est.room())
        assert ("over by" in room) == (est.verdict == "does not fit"), (est.verdict, room)
        assert ("free per GPU" in room) == (est.verdict == "fits")


# --- 4. plain words


def _visible_models(win) -> set[str]:
    tree = win.model_picker.tree.tree
    out = set()
    for i in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(i)
        for j in range(group.childCount()):
            if not group.child(j).isHidden():
                out.add(group.child(j).text(0))
    return out


def test_model_search_finds_what_its_placeholder_promises(qtbot):
    from engine import model_presets

    win, _ = build_window()
    qtbot.addWidget(win)
    search = win.model_picker.tree.search
    assert "llama 8b" in search.placeholderText() and "moe" in search.placeholderText()
    search.setText("llama 8b")
    assert "Llama 3 8B" in _visible_models(win) and "Llama 3 70B" not in _visible_models(win)
    search.setText("qwen3")
    assert {p.name for p in model_presets().values() if p.id.startswith("qwen3")} <= _visible_models(win)
    search.setText("moe")
    moe = {p.name for p in model_presets().values() if p.spec.is_moe}
    assert _visible_models(win) == moe
    assert any("Mixtral" in n for n in moe) and any("Qwen3" in n and "A3B" in n for n in moe)


def test_large_numbers_switch_to_tib():
    from engine.units import format_bytes

    assert format_bytes(6 * 2**40) == "6.00 TiB"  # 6 TiB, e.g. a 405B model's full fine-tune state on one GPU
    assert format_bytes(6 * 10**12, "GB") == "6.00 TB"
    assert format_bytes(80 * 2**30) == "80.00 GiB"  # a card's capacity stays in GiB


# --- 5. first start fits the screen


def _clipped(win) -> list[str]:
    """Visible widgets cut off on a 1366x768 screen: a text control narrower than its text, or a widget sticking out
    of its parent sideways (a scroll area's contents may be taller than the view, never wider)."""
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QWidget

    out = []
    for w in win.findChildren(QWidget):
        if not w.isVisibleTo(win) or w.width() == 0:
            continue
        parent = w.parentWidget()
        if parent is not None and parent.isVisibleTo(win) and (w.x() < 0 or w.x() + w.width() > parent.width() + 1):
            if type(parent).__name__ not in ("QStackedWidget",):
                out.append(f"{type(w).__name__} {w.objectName()} sticks out of {type(parent).__name__}")
        text = ""
        if isinstance(w, QComboBox):
            text, room = w.currentText(), w.width() - 30
        elif isinstance(w, QAbstractButton) and not isinstance(w, QComboBox):
            text, room = w.text().replace("&", ""), w.width() - (24 if type(w).__name__ in ("QCheckBox",
                                                                                            "QRadioButton") else 8)
        elif isinstance(w, QLabel) and not w.wordWrap() and w.textFormat() != Qt.TextFormat.RichText:
            text, room = w.text(), w.width() + 1
        if text and "\n" not in text and "<" not in text and w.fontMetrics().horizontalAdvance(text) > room:
            out.append(f"{type(w).__name__} {text!r} cut to {w.width()} px")
    return out


# the rows that show only for some scenarios: images (a vision-language model), DeepSpeed's buckets, Megatron's
# fp32 gradient buffer, pipeline schedule and sequence parallelism
VL_ON_DEEPSPEED = {"name": "VL on DeepSpeed", "model": "qwen2.5-vl-7b", "gpu": "rtx-4090", "method": "lora",
                   "precision": "bf16", "images_per_sample": 2, "seq_len": 4096, "framework": "deepspeed",
                   "zero_stage": 3, "gpus_per_node": 4}
MEGATRON_70B = {"name": "Megatron 70B", "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "precision": "mixed-bf16",
                "framework": "megatron", "tp": 8, "pp": 4, "gpus_per_node": 8, "nodes": 4, "grad_accum": 16,
                "sequence_parallel": True}


@pytest.mark.parametrize("scenario", [None, MOE_EXAMPLE, VL_ON_DEEPSPEED, MEGATRON_70B])
def test_1366x768_shows_every_control_whole(qtbot, scenario, tmp_path):
    if isinstance(scenario, dict):
        path = tmp_path / "s.json"
        path.write_text(json.dumps(scenario))
        scenario = path
    win, _ = build_window(str(scenario) if scenario else None)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.setup_panel.advanced.set_expanded(True)
    win.show()
    qtbot.waitExposed(win)
    # the results' scroll area (gui/results_scroll.py) drops the scroll bars its first, smaller layout gave it in the
    # first event turn after showing, before anything is painted
    QApplication.instance().processEvents()
    assert (win.width(), win.height()) == (1366, 768)  # the minimum size allows it
    left = win.setup_scroll.widget()
    assert left.width() <= win.setup_scroll.viewport().width()  # no sideways scrolling in the set-up panel
    assert win.verdict.isVisible() and win.charts_widget.isVisible()
    clipped = _clipped(win)
    assert not clipped, clipped


def test_first_start_never_opens_larger_than_the_screen(qtbot):
    from PySide6.QtCore import QRect

    from gui.app import fit_to_screen

    win, _ = build_window()
    qtbot.addWidget(win)
    available = QRect(0, 0, 1366, 738)  # 1366x768 less a 30-pixel panel
    fit_to_screen(win, available)
    assert win.width() <= 1366 and win.height() <= 738
    assert win.minimumWidth() <= 1366 and win.minimumHeight() <= 738


# --- 8. what is shared


def test_suggestions_that_save_under_1_percent_of_the_shortfall_are_not_offered():
    import json

    from engine import estimate, scenario_from_dict
    from engine.planning.suggest import suggestions

    s = scenario_from_dict(json.loads((REPO / "examples" / "7b-full-finetune-one-gpu.json").read_text()))
    est = estimate(s)
    shortfall = est.total_bytes - est.capacity_bytes
    assert shortfall > 0
    # Halving the sequence is one of the guide's steps; here it saves next to nothing (the 16 bytes per parameter
    # of weights, gradients and AdamW states dominate the 88 GiB shortfall):
    halved = estimate(s.replace(seq_len=s.seq_len // 2))
    assert 0 < est.total_bytes - halved.total_bytes < 0.01 * shortfall
    offered = suggestions(s)
    assert offered and all(sug.saved_bytes >= 0.01 * shortfall for sug in offered)
    assert not any(sug.changes.get("seq_len") for sug in offered)


def test_every_setup_control_has_a_tooltip_and_the_estimators_live_under_advanced(qtbot):
    from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QSlider, QWidget

    win, _ = build_window()
    qtbot.addWidget(win)
    panel = win.setup_panel
    missing = []
    for w in panel.findChildren(QWidget):
        if not isinstance(w, (QComboBox, QAbstractSpinBox, QCheckBox, QSlider)) or panel.framework_options.isAncestorOf(w):
            continue  # issue 11's section carries its own
        control = w
        while control is not None and not control.toolTip():
            control = control.parentWidget() if control.parentWidget() is not panel else None
        if control is None:
            missing.append(type(w).__name__)
    assert not missing
    assert panel.advanced.isAncestorOf(panel.estimator)
    labels = [panel.estimator.itemText(i) for i in range(panel.estimator.count())]
    assert all("(seed-" in t or "(detailed)" in t for t in labels) and "rule of thumb" in " ".join(labels)


def test_undo_entries_use_the_words_on_screen(qtbot):
    win, _ = build_window()
    qtbot.addWidget(win)
    panel = win.setup_panel
    panel.optimizer.setCurrentIndex(panel.optimizer.findData("adamw-8bit"))
    assert win.state.undo_stack.undoText() == "Optimizer: AdamW 8-bit (bitsandbytes)"
    panel.grad_accum.setValue(4)
    assert win.state.undo_stack.undoText() == "Steps per update (gradient accumulation): 4"


def test_sliders_step_through_a_sensible_range(qtbot):
    win, _ = build_window()
    qtbot.addWidget(win)
    batch, seq = win.setup_panel.micro_batch, win.setup_panel.seq_len
    assert batch.slider.maximum() - batch.slider.minimum() + 1 == 7  # 1, 2, 4, ... 64: one notch doubles
    batch.slider.setValue(1)
    assert win.state.scenario.micro_batch == 2  # one notch: 1 -> 2, never 2 -> 1,024
    batch.spin.setValue(512)  # larger values are typed
    assert win.state.scenario.micro_batch == 512
    seq.slider.setValue(seq.slider.maximum())
    assert win.state.scenario.seq_len == 131_072


# --- 6. library, saving, themes


def _luminance(colour) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_wcag():
    from PySide6.QtGui import QColor

    assert contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)  # WCAG 2.1's definition
    assert contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)  # WebAIM's example


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_contrast_is_at_least_4_5_in_both_themes(qtbot, theme):
    from PySide6.QtGui import QColor, QPalette

    from gui.theme import TEXT_COLOURS, current_theme, plot_colours

    win, _ = build_window(theme=theme)
    qtbot.addWidget(win)
    palette = QApplication.instance().palette()
    role = QPalette.ColorRole
    assert current_theme() == theme
    pairs = [(role.WindowText, role.Window), (role.Text, role.Base), (role.ButtonText, role.Button),
             (role.HighlightedText, role.Highlight), (role.ToolTipText, role.ToolTipBase), (role.Text, role.AlternateBase)]
    for fg, bg in pairs:
        assert contrast(palette.color(fg), palette.color(bg)) >= 4.5, (theme, fg, bg)
    backgrounds = [palette.color(role.Window), palette.color(role.Base), QColor(plot_colours(theme)[0])]
    for kind, colour in TEXT_COLOURS[theme].items():
        for bg in backgrounds:
            assert contrast(QColor(colour), bg) >= 4.5, (theme, kind, colour, bg.name())
    assert contrast(QColor(plot_colours(theme)[1]), QColor(plot_colours(theme)[0])) >= 4.5


def test_disabled_controls_look_disabled_in_both_themes(qtbot):
    """A disabled button's text is dimmer than an enabled one's (the dark palette once set one colour for every
    group, so "Forget it" with nothing to forget looked clickable)."""
    from PySide6.QtGui import QPalette

    group, role = QPalette.ColorGroup, QPalette.ColorRole
    for theme in ("light", "dark"):
        win, _ = build_window(theme=theme)
        qtbot.addWidget(win)
        palette = QApplication.instance().palette()
        assert not win.time_panel.uncalibrate.isEnabled()  # no measured step time to forget
        for text, back in ((role.ButtonText, role.Button), (role.WindowText, role.Window), (role.Text, role.Base)):
            enabled = contrast(palette.color(group.Active, text), palette.color(group.Active, back))
            disabled = contrast(palette.color(group.Disabled, text), palette.color(group.Disabled, back))
            assert disabled < enabled, (theme, text)


def test_dark_then_light_restores_every_colour(qtbot):
    from PySide6.QtGui import QPalette

    win, _ = build_window(theme="light")
    qtbot.addWidget(win)

    def snapshot():
        palette = QApplication.instance().palette()
        colours = {(g, r): palette.color(g, r).name() for g in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Disabled,
                                                                  QPalette.ColorGroup.Inactive)
                   for r in QPalette.ColorRole if r not in (QPalette.ColorRole.NColorRoles,)}
        return colours, win.verdict.text(), win.warnings.styleSheet(), win.pie.view.backgroundBrush().color().name()

    light = snapshot()
    win.set_theme("dark")
    dark = snapshot()
    assert dark != light
    win.set_theme("light")
    assert snapshot() == light


def test_first_save_asks_a_name_offering_model_and_gpu(qtbot, monkeypatch):
    from gui import dialogs

    asked = []
    monkeypatch.setattr(dialogs.ScenarioName, "ask", classmethod(
        lambda cls, parent, title, default: asked.append(default) or cls("My first run")))
    win, _ = build_window()
    qtbot.addWidget(win)
    win.state.edit({"name": "Untitled scenario"})
    assert win.library_save()
    assert asked == ["Llama 3 8B on NVIDIA GeForce RTX 4090"]
    assert win.state.scenario.name == "My first run" and win.state.library_id
    assert win.library_save() and len(asked) == 1  # later saves go to the same entry without asking


def test_library_delete_key_confirms_and_undo_brings_it_back(qtbot, monkeypatch):
    from gui import dialogs

    confirmations = []
    monkeypatch.setattr(dialogs.ConfirmDelete, "ask", classmethod(lambda cls, parent, names: confirmations.append(names)
                                                                   or True))
    win, _ = build_window()
    qtbot.addWidget(win)
    win.show()
    assert win.library_save()
    saved = win.state.library_id
    panel = win.library_panel
    win.tabs.setCurrentWidget(panel)
    panel.select_ids([saved])
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
    assert confirmations == [[win.state.scenario.name]]
    assert saved not in [e.id for e in win.library.entries()]
    assert panel.notice.isVisible() and panel.notice.undo_button.isVisible()
    panel.notice.undo_button.click()
    assert saved in [e.id for e in win.library.entries()]
    menu = panel.context_menu()
    assert [a.text() for a in menu.actions() if a.text()][:4] == ["Open", "Duplicate", "Rename…", "Delete…"]


def test_library_sorts_by_peak_and_shows_modified(qtbot):
    from engine import scenario_from_dict

    win, _ = build_window()
    qtbot.addWidget(win)
    for name, batch in (("small", 1), ("large", 16)):
        win.library.save(scenario_from_dict({"name": name, "model": "llama-3-8b", "micro_batch": batch}))
    panel = win.library_panel
    panel.refresh()
    headers = panel.headers()
    assert "Modified" in headers
    assert [panel.table.model().headerData(c, Qt.Orientation.Horizontal) for c in range(len(headers))] == headers
    peak = headers.index("Peak")
    panel.table.sortByColumn(peak, Qt.SortOrder.AscendingOrder)
    values = [panel.sort_value(r, peak) for r in range(panel.row_count())]
    shown = [v for v in values if v != float("inf")]  # rows without a peak (errors) sort last
    assert values == sorted(values) and len(shown) >= 2
    texts = [panel.cell_text(r, peak) for r in range(len(shown))]
    assert all(texts), "each estimated row shows its peak"
    modified = panel.cell_text(0, headers.index("Modified"))
    assert len(modified) == len("2026-01-01 12:00")


def test_file_dialogs_start_in_documents(monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from gui.dialogs import FileChoice, documents_folder

    seen = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: seen.append(a[2]) or ("", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: seen.append(a[2]) or ("", "")))
    FileChoice.ask_save(None, "t", "*.json", "run.json")
    FileChoice.ask_open(None, "t", "*.json")
    assert seen[0] == str(Path(documents_folder()) / "run.json") and seen[1] == documents_folder()
    assert str(REPO) not in documents_folder()


# --- 7. install and start


def test_screenshot_renders_the_asked_size_theme_tab_and_language(tmp_path):
    import subprocess
    import sys

    from PySide6.QtGui import QImage

    out = tmp_path / "shot.png"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(REPO / "main.py"), "--screenshot", str(out), str(MOE_EXAMPLE),
                           "--size", "1366x768", "--theme", "dark", "--tab", "suggestions", "--lang", "en"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    assert image.pixelColor(5, 300).lightness() < 128  # the dark theme's window
    bad = subprocess.run([sys.executable, str(REPO / "main.py"), "--screenshot", str(out), "--tab", "nowhere"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "--tab must be one of" in bad.stderr


def test_version_flag_and_about_show_the_packaged_version(qtbot):
    import subprocess
    import sys
    import tomllib

    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    done = subprocess.run([sys.executable, str(REPO / "main.py"), "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"LLM Memory Planner {version}"
    from gui.file_actions import about_text

    assert version in about_text()


def test_install_metadata_names_the_entry_points_and_ships_the_data():
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["gui-scripts"]["llm-memory-planner"] == "gui.launch:run"
    assert project["scripts"]["llm-memory-planner-cli"] == "gui.launch:run"
    desktop = (REPO / "packaging" / "llm-memory-planner.desktop").read_text()
    assert "Exec=llm-memory-planner" in desktop and "Icon=llm-memory-planner" in desktop
    assert (REPO / "gui" / "assets" / "llm-memory-planner.svg").is_file()
    from engine.paths import data_dir

    assert (data_dir("presets") / "gpus.json").is_file() and any(data_dir("examples").glob("*.json"))


def test_missing_x11_libraries_print_the_install_command(monkeypatch, capsys):
    from gui import launch, system_libs

    monkeypatch.setattr(system_libs, "needs_xcb_check", lambda: True)
    monkeypatch.setattr(system_libs, "missing_libraries", lambda: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"])
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(launch, "_has_display", lambda: True)
    assert launch.main([]) == launch.MISSING_LIBRARIES
    err = capsys.readouterr().err
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4" in err


def test_missing_libraries_are_read_from_ldd(monkeypatch, tmp_path):
    import subprocess

    from gui import system_libs

    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setattr(system_libs, "_qt_files", lambda: [plugin])
    monkeypatch.setattr(system_libs.shutil, "which", lambda name: "/usr/bin/ldd")
    monkeypatch.setattr(system_libs.ctypes.util, "find_library", lambda name: "libxcb-cursor.so.0")
    ldd = "\tlibxcb.so.1 => /lib/libxcb.so.1\n\tlibxcb-keysyms.so.1 => not found\n"
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, ldd, ""))
    assert system_libs.missing_libraries() == ["libxcb-keysyms.so.1"]


def test_pdf_card_has_vector_charts_inputs_in_words_date_and_version(qtbot, tmp_path):
    import re
    import zlib

    from gui import file_actions
    from gui.launch import version
    from gui.plan_card import card_parts
    from gui.report_export import input_rows

    win, _ = build_window(str(MOE_EXAMPLE))
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    rows = input_rows(win)
    labels = [label for label, _, _ in rows]
    assert "Optimizer" in labels and "Tokens per sequence (sequence length)" in labels and "Method" in labels
    assert any(is_default for _, _, is_default in rows) and any(not d for _, _, d in rows)
    assert dict((label, value) for label, value, _ in rows)["Optimizer"] == "AdamW (PyTorch default, foreach)"
    top, bottom = card_parts(win)
    assert version() in top and re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", top)
    assert "Expert parallel" in bottom or "ZeRO-3" in bottom  # the inputs that differ, in the window's words
    out = tmp_path / "report.pdf"
    file_actions.export_to(win, "pdf", str(out))
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and b"/Subtype /Image" not in data  # charts drawn as paths and text, no pictures
    streams = b"".join(zlib.decompress(m.group(1)) for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S)
                       if m.group(1)[:1] == b"x")
    assert streams.count(b" re") + streams.count(b" l\n") > 20  # rectangles and lines: the bars and the pie's edges


def test_png_export_is_the_plan_card_under_the_scenario_name(qtbot, tmp_path):
    from PySide6.QtGui import QImage

    from gui import file_actions
    from gui.plan_card import PNG_PAGE_SIZE, card_parts

    win, _ = build_window(str(MOE_EXAMPLE))
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    win.tabs.setCurrentWidget(win.library_panel)  # whatever tab is open, the image is the scenario's card
    out = tmp_path / "summary.png"
    file_actions.export_to(win, "png", str(out))
    image = QImage(str(out))
    assert (image.width(), image.height()) == (2 * PNG_PAGE_SIZE[0], 2 * PNG_PAGE_SIZE[1])  # a page, not the window
    assert win.state.scenario.name in card_parts(win)[0]


def test_comparison_legends_never_overlap_pies_nor_drop_a_slice(qtbot):
    import json

    from engine import scenario_from_dict
    from gui.compare_view import Compared

    win, _ = build_window()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    items = [Compared(p.stem, scenario_from_dict(json.loads(p.read_text())))
             for p in sorted((REPO / "examples").glob("*.json"))[:3]]
    win.compare.set_items(items)
    win.tabs.setCurrentWidget(win.compare)
    QApplication.processEvents()
    for pane in win.compare.panes[:3]:
        pie, legend = pane.pie.view, pane.pie.legend
        assert not pie.geometry().intersects(legend.geometry())
        assert legend.height() >= legend.heightForWidth(legend.width())  # every row of the legend is shown
        assert legend.text().count("<tr>") == len(pane.pie.slices)


def test_after_undo_a_live_pane_shows_the_numbers_and_title_of_the_same_state(qtbot):
    from gui import library_actions

    win, _ = build_window()
    qtbot.addWidget(win)
    before = win.state.scenario
    assert win.state.edit({"optimizer": "adamw-8bit"})
    library_actions.compare_before_after(win, before, win.state.scenario, "Use an 8-bit optimizer")
    pane = win.compare.panes[1]
    assert pane.title.text().startswith("Use an 8-bit optimizer")
    win.state.undo_stack.undo()
    assert "Use an 8-bit optimizer" not in pane.title.text() and pane.title.text().startswith("Current: ")
    # the same numbers as the editor's state (the pane leaves the "CPU memory not checked" note to its table)
    assert win.verdict.text().startswith(pane.verdict.text())
    win.state.undo_stack.redo()
    assert pane.title.text().startswith("Use an 8-bit optimizer")


def test_plan_changes_are_listed_in_on_screen_words():
    from gui.words import describe_changes

    text = describe_changes({"tp": 2, "zero_stage": 3, "fsdp": False, "method": "lora", "optimizer": "adamw-8bit"})
    assert text.startswith("Tensor parallel (TP): 2, Sharding (ZeRO / FSDP): ZeRO-3, Method: LoRA")
    assert "tp =" not in text and "zero_stage" not in text
    assert text.endswith("Optimizer: AdamW 8-bit") and "adamw-8bit" not in text  # the optimizer's name, not its id
    precision = describe_changes({"precision": "mixed-bf16"})
    # the set-up panel's words
    assert precision == "Number format (precision): bf16 + fp32 master weights (DeepSpeed, Megatron)"


def test_a_screenshot_of_make_it_fit_shows_its_plans(tmp_path):
    """The fit tab's search is debounced and runs on a thread: a screenshot waits for its plans instead of showing
    an empty tab (run in its own process, as main.py --screenshot is)."""
    import os
    import subprocess
    import sys

    script = f"""
import os, sys
sys.path.insert(0, {str(REPO)!r})
from gui import app
real_grab = app.MainWindow.grab
def grab(window):
    print("plans", len(window.fit_panel.apply_buttons), flush=True)
    return real_grab(window)
app.MainWindow.grab = grab
code = app.run_app({str(REPO / "examples" / "7b-full-finetune-one-gpu.json")!r}, screenshot={str(tmp_path / "fit.png")!r},
                   tab="fit")
os._exit(code)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "LLM_MEMORY_PLANNER_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    plans = [int(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("plans ")]
    assert plans and plans[0] >= 1 and (tmp_path / "fit.png").stat().st_size > 1000
