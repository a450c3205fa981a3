"""Widget tests: drive the window through its widgets' own methods and compare with the engine."""

import pytest

from engine import estimate, scenario_from_dict
from gui.charts import pie_slices
from tests.window_helpers import window_from

LORA = {"name": "LoRA test", "model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16",
        "checkpointing": "full", "micro_batch": 1, "seq_len": 2048}


@pytest.fixture
def window(qtbot, tmp_path):
    return window_from(qtbot, tmp_path, LORA, shown=False)


def test_views_agree_with_the_engine(window):
    est = estimate(scenario_from_dict(LORA))
    assert window.state.estimate.peak_allocated_bytes == est.peak_allocated_bytes
    assert window.verdict.verdict == est.verdict
    slices = window.pie.slices
    assert sum(s.bytes for s in slices) == pytest.approx(est.peak_allocated_bytes)
    assert sum(s.share for s in slices) == pytest.approx(1.0)
    rows = est.busiest.at_peak()
    table = window.table.table
    assert table.item(0, 0).text() == rows[0][0].name
    assert table.rowCount() == len(rows) + sum(1 for c in est.busiest.overheads if c.peak_bytes)
    drawn = window.bars.drawn_bytes * 2**30
    assert drawn == pytest.approx(est.total_bytes, rel=1e-6)
    assert "LoRA test" in window.windowTitle()


def test_edit_recomputes_and_undo_restores(window, qtbot):
    before = window.state.estimate.peak_allocated_bytes
    panel = window.setup_panel
    panel.method.setCurrentIndex(panel.method.findData("full"))
    assert window.state.scenario.method == "full"
    assert window.state.estimate.peak_allocated_bytes > before
    assert window.verdict.verdict == "does not fit"
    assert window.windowTitle().startswith("LoRA test*")
    window.undo_action.trigger()
    assert window.state.scenario.method == "lora"
    assert window.state.estimate.peak_allocated_bytes == before
    window.redo_action.trigger()
    assert window.state.scenario.method == "full"


def test_slider_drag_is_one_undo_step(window):
    slider = window.setup_panel.micro_batch.slider
    count = window.state.undo_stack.count()
    slider.setSliderDown(True)
    for index in (1, 2, 3):
        slider.setValue(index)
    slider.setSliderDown(False)
    window.setup_panel._end_drag()
    assert window.state.scenario.micro_batch == 8
    assert window.state.undo_stack.count() == count + 1
    window.undo_action.trigger()
    assert window.state.scenario.micro_batch == 1


def test_invalid_input_gets_an_inline_message(window):
    window.setup_panel.advanced.set_expanded(True)
    window.setup_panel.tp.setValue(3)
    assert window.setup_panel.error.isVisibleTo(window)
    assert "Tensor-parallel size 3" in window.setup_panel.error.text()  # the control's words, not the key
    assert window.state.scenario.tp == 1
    assert window.setup_panel.tp.value() == 1


def test_suggestion_applies_and_undoes(window):
    window.setup_panel.method.setCurrentIndex(window.setup_panel.method.findData("full"))
    panel = window.suggestions
    window.tabs.setCurrentWidget(panel)
    panel.refresh()
    assert panel.buttons, "a run that does not fit gets suggestions"
    first = panel.items[0]
    panel.buttons[0].click()
    for key, value in first.changes.items():
        assert window.state.scenario.to_dict()[key] == value
    window.undo_action.trigger()
    assert window.state.scenario.method == "full"


def test_unit_switch_applies_everywhere(window):
    window.unit.setCurrentIndex(window.unit.findData("GB"))
    assert window.state.unit == "GB"
    assert " GB" in window.table.table.item(0, 1).text()
    assert " GB" in window.verdict.text()


def test_model_and_gpu_pickers(window):
    window.model_picker.tree.search.setText("qwen3 8b")
    window.model_picker.tree.chosen.emit("qwen3-8b")
    assert window.state.scenario.model == "qwen3-8b"
    window.hardware_picker.tree.chosen.emit("h100-sxm-80gb")
    assert window.state.estimate.capacity_bytes == 81559 * 2**20
    window.hardware_picker.gpus_per_node.setValue(8)
    assert window.state.scenario.world_size == 8


def test_pie_groups_small_slices():
    est = estimate(scenario_from_dict(LORA))
    slices = pie_slices(est, "GiB")
    assert any(s.key == "other" for s in slices)
    assert all(s.share >= 0.02 for s in slices if s.key != "other")


def test_custom_gpu_and_import_dialogs_are_stubbable(window, monkeypatch, tmp_path):
    from gui import dialogs, file_actions

    monkeypatch.setattr(dialogs.CustomGpu, "ask", classmethod(lambda cls, parent, unit="GiB": cls("Lab card", 30 * 2**30)))
    file_actions.custom_gpu(window)
    assert window.state.estimate.capacity_bytes == 30 * 2**30
    bad = tmp_path / "config.json"
    bad.write_text("not json")
    with pytest.raises(Exception, match="not a JSON config"):
        dialogs.ImportedConfig.from_path(bad)


def test_exports(window, tmp_path):
    from gui import file_actions

    for kind in ("png", "pdf", "md", "csv"):
        out = tmp_path / f"report.{kind}"
        file_actions.export_to(window, kind, str(out))
        assert out.stat().st_size > 200, kind
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF")


def test_every_pipeline_stage_can_be_shown(window):
    """The breakdown starts on the fullest stage; the picker shows any other, with its own rows and phases."""
    assert window.state.edit({"gpus_per_node": 4, "pp": 4, "grad_accum": 8, "method": "full", "precision": "bf16"})
    est = window.state.estimate
    picker = window.table.stage_picker
    assert not picker.isHidden() and picker.count() == 4
    assert picker.currentIndex() == est.busiest_stage
    other = (est.busiest_stage + 1) % 4
    picker.setCurrentIndex(other)
    picker.activated.emit(other)
    rows = est.stages[other].at_peak()
    assert window.table.table.item(0, 0).text() == rows[0][0].name
    assert window.table.table.rowCount() == len(rows) + sum(1 for c in est.stages[other].overheads if c.peak_bytes)


def test_the_last_context_parallel_rank_can_be_shown(window):
    """Issue 10: GPUs that differ for another reason than their pipeline stage (the last cp rank) are listed too."""
    assert window.state.edit({"gpus_per_node": 8, "cp": 4, "fsdp": True, "seq_len": 32768, "method": "full",
                              "precision": "bf16", "checkpointing": "none"})
    est = window.state.estimate
    assert len(est.stages) == 1 and len(est.other_ranks) == 1
    picker = window.table.stage_picker
    assert not picker.isHidden() and picker.count() == 2
    assert picker.itemText(1).startswith("The last context-parallel rank")
    picker.setCurrentIndex(1)
    picker.activated.emit(1)
    other = est.other_ranks[0].estimate
    assert other.total_bytes < est.busiest.total_bytes
    shown = [window.table.table.item(r, 1).text() for r in range(window.table.table.rowCount())]
    rows = other.at_peak()
    assert window.table.table.item(0, 0).text() == rows[0][0].name and len(shown) >= len(rows)
