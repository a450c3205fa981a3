"""What the set-up panel marks when the framework cannot run a value, looked at as a person switching frameworks
(gui/parallel_limits.py): the marked value stays shown and readable in either theme, its row's label is marked with
it wherever the row is, and undo/redo gives the previous framework back with every value as it was. Widgets are driven
through their own methods (setCurrentIndex, the undo stack, the View menu's set_theme).

The facts are the framework rows' (engine/frameworks/parallelism.py and runs.py, each with its source there):
LitGPT has no tensor, pipeline, context or expert parallelism and no CPU offload, and shards with FSDP only (litgpt
26857050fe3f litgpt/pretrain.py FSDPStrategy); torchtitan offloads through FSDP2's CPUOffloadPolicy, optimizer and
weights together (training.enable_cpu_offload), and shards with FSDP only; torchtune's LoRA recipe has no tensor
parallelism (torchtune bd2a0fc7c314 recipes/lora_finetune_distributed.py) and recomputes whole layers only; transformers
recomputes whole decoder layers only (GradientCheckpointingLayer); Megatron-Bridge has no QLoRA."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QStyledItemDelegate

from gui.theme import TEXT_COLOURS, text_colour
from tests.window_helpers import window_from

# Megatron runs every value below (MEGATRON in engine/frameworks/parallelism.py: tp, pp 1F1B, cp, ep, ZeRO-1 as its
# distributed optimizer, optimizer offload; selective recompute; LoRA through Megatron-Bridge)
MEGATRON = {"schema_version": 1, "model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
            "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096,
            "tp": 2, "pp": 2, "cp": 2, "ep": 2, "zero_stage": 1, "checkpointing": "selective", "method": "lora",
            "offload": "optimizer"}
SWITCHED = ("huggingface", "torchtitan", "deepspeed", "torchtune", "litgpt")
KEYS = ("tp", "pp", "cp", "ep", "zero_stage", "fsdp", "checkpointing", "method", "offload", "pp_schedule")
LITGPT = {**MEGATRON, "framework": "litgpt", "nodes": 1, "tp": 1, "cp": 1, "ep": 1, "checkpointing": "full",
          "method": "full", "offload": "none"}  # pp 2 and ZeRO-1 it cannot run: marked


def _combos(panel) -> dict:
    return {"checkpointing": panel.checkpointing, "method": panel.method, "offload": panel.offload,
            "zero": panel.zero, "pp_schedule": panel.pp_schedule}


def _check_marks(panel) -> set[str]:
    """Every greyed item says why; every marked (⚠) value is the one chosen, enabled, with the reason as the box's
    tooltip, and its label is marked with it. Returns the names of the marked boxes."""
    marked = set()
    for name, combo in _combos(panel).items():
        for i in range(combo.count()):
            item = combo.model().item(i)
            if not item.isEnabled():
                assert combo.itemData(i, Qt.ItemDataRole.ToolTipRole), (name, combo.itemText(i))
        if combo.currentText().startswith("⚠"):
            marked.add(name)
            assert combo.isEnabled() and combo.toolTip() and text_colour("tight") in combo.styleSheet(), name
            label = combo.parentWidget().layout().labelForField(combo)
            assert label is not None and text_colour("tight") in label.styleSheet(), name
    return marked


def test_switching_through_six_frameworks_marks_and_undo_gives_each_back(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MEGATRON)
    panel = win.setup_panel
    framework = panel.framework_options.framework
    values = {k: getattr(win.state.scenario, k) for k in KEYS}
    assert _check_marks(panel) == set()  # Megatron runs every value (see MEGATRON above)
    seen = {}
    for name in SWITCHED:
        framework.setCurrentIndex(framework.findData(name))
        assert win.state.scenario.framework == name
        assert {k: getattr(win.state.scenario, k) for k in KEYS} == values  # a switch changes no other value
        seen[name] = _check_marks(panel)
    # transformers and torchtune recompute whole layers only; torchtitan and torchtune offload optimizer and weights
    # together, and shard with FSDP only; LitGPT has no CPU offload and no ZeRO-1; none of them but DeepSpeed and
    # Megatron has a pipeline here (DeepSpeed's only schedule is 1F1B, ZeRO-1 with it)
    assert seen["huggingface"] == {"checkpointing", "pp_schedule"}
    assert seen["torchtitan"] == {"offload", "zero"}
    assert seen["deepspeed"] == set()
    assert seen["torchtune"] == seen["litgpt"] == {"checkpointing", "offload", "zero", "pp_schedule"}
    stack = win.state.undo_stack
    for name in reversed(("megatron", *SWITCHED[:-1])):
        stack.undo()
        assert win.state.scenario.framework == name and framework.value() == name
        assert {k: getattr(win.state.scenario, k) for k in KEYS} == values
        assert _check_marks(panel) == (set() if name == "megatron" else seen[name])
    stack.redo()
    assert win.state.scenario.framework == "huggingface" and _check_marks(panel) == seen["huggingface"]


def test_a_marked_lists_open_items_are_drawn_in_the_lists_colours(qtbot, tmp_path):
    """The sharding and schedule boxes (items offered, not greyed) draw their open list with the item delegate, as
    the greyed lists do: the combo box's own menu delegate painted every item in the box's warning colour, the
    highlighted one brown on the selection blue."""
    panel = window_from(qtbot, tmp_path, LITGPT).setup_panel
    zero = panel.zero
    assert zero.currentText().startswith("⚠") and text_colour("tight") in zero.styleSheet()
    for combo in (zero, panel.pp_schedule, panel.checkpointing, panel.method, panel.offload):
        assert type(combo.itemDelegate()) is QStyledItemDelegate
    zero.showPopup()
    image = zero.view().viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    zero.hidePopup()
    tight = TEXT_COLOURS["light"]["tight"]  # #8a4500: red 138, green 69, blue 0
    red, green, blue = int(tight[1:3], 16), int(tight[3:5], 16), int(tight[5:7], 16)
    brown = sum(1 for x in range(image.width()) for y in range(image.height())
                if abs((c := image.pixelColor(x, y)).red() - red) + abs(c.green() - green) + abs(c.blue() - blue) < 40)
    assert brown == 0  # no item's text in the warning colour (with the menu delegate: 543 pixels here)


def test_the_marks_follow_a_theme_switch(qtbot, tmp_path):
    """The warning colour and the greyed items' grey are the theme's (gui/theme.py TEXT_COLOURS): a switch (and the
    window's first theme) draws them again, so a dark window shows no light-theme brown on its dark grey."""
    win = window_from(qtbot, tmp_path, LITGPT)
    panel = win.setup_panel
    greyed = panel.offload.findData("optimizer")  # LitGPT has no CPU offload: greyed, not chosen
    try:
        for theme in ("dark", "light"):
            win.set_theme(theme)
            colours = TEXT_COLOURS[theme]
            for widget in (panel.zero, panel.pp, panel.pp_schedule):
                assert colours["tight"] in widget.styleSheet(), (theme, widget)
            label = panel.pp_schedule.parentWidget().layout().labelForField(panel.pp_schedule)
            assert colours["tight"] in label.styleSheet()
            brush = panel.offload.itemData(greyed, Qt.ItemDataRole.ForegroundRole)
            assert brush.name() == colours["muted"]
    finally:
        win.set_theme("light")
        assert QApplication.palette().color(QApplication.palette().ColorRole.Window).lightness() >= 128


def test_make_it_fit_and_fastest_layouts_rows_are_not_squeezed(qtbot, tmp_path):
    """The rent tab's rows were squeezed to one line (h-renthost); the lists it shares SearchPanel with were looked
    at too: at 1366x768 each row's label is as tall as its wrapped text needs at its width (heightForWidth). The
    7B full fine-tune on one H100 (examples/7b-full-finetune-one-gpu.json) lists rows of two to five lines."""
    import json
    from pathlib import Path

    from PySide6.QtWidgets import QLabel

    from gui.app import settle, show_tab

    win = window_from(qtbot, tmp_path, json.loads(Path("examples/7b-full-finetune-one-gpu.json").read_text()))
    win.resize(1366, 768)
    for tab, panel in (("fit", win.fit_panel), ("speed", win.speed_panel)):
        show_tab(win, tab)
        panel.search()
        assert panel.wait()
        settle(QApplication.instance())
        labels = [label for i in range(panel.rows_layout.count()) if (w := panel.rows_layout.itemAt(i).widget())
                  for label in ([w] if isinstance(w, QLabel) else w.findChildren(QLabel))]
        assert len(labels) >= 3, tab  # plans listed (Make it fit: 4 plans and the family's rows)
        lines = [label.height() / label.fontMetrics().lineSpacing() for label in labels]
        assert max(lines) >= 2, tab  # some rows wrap
        for label in labels:
            assert label.height() >= label.heightForWidth(label.width()), (tab, label.text()[:60])
