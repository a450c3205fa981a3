"""Library panel, comparison view and the Make-it-fit panel, driven through their widgets."""

import json

from engine import estimate, model_presets, scenario_from_dict
from gui.compare_view import Compared
from tests.window_helpers import window_from

FULL_4090 = {"name": "8B full on a 4090", "model": "llama-3-8b", "gpu": "rtx-4090", "precision": "bf16"}
# ZeRO-3 with pp 2 under Hugging Face's Trainer, which has no pipeline (tests/test_runnable_layouts.py U3)
RUNFIX_U3 = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1,
             "framework": "huggingface", "precision": "mixed-bf16", "micro_batch": 4, "grad_accum": 8,
             "seq_len": 4096, "zero_stage": 3, "pp": 2}


def test_library_lists_examples_and_saves(window):
    panel = window.library_panel
    assert panel.row_count() == 0, "the library is listed when its tab is first shown, not at start-up"
    window.tabs.setCurrentWidget(panel)
    window.show()
    names = [panel.cell_text(r, 0) for r in range(panel.row_count())]
    assert any("read-only" in n for n in names), "the seeds' examples ship with the app"
    before = panel.row_count()
    assert window.library_save()  # File > Save goes to the library
    assert panel.row_count() == before + 1
    assert not window.state.is_dirty()
    saved = window.state.library_id
    assert saved and window.library.load(saved) == window.state.scenario


def test_library_open_duplicate_delete_restore(window):
    window.library_save()
    panel = window.library_panel
    panel.refresh()  # the tab is not on screen in this test: list it explicitly
    saved = window.state.library_id
    panel.select_ids([saved])
    panel.buttons["duplicate"].click()
    assert any("(copy)" in e.name for e in window.library.entries())
    panel.refresh()
    panel.select_ids([saved])
    panel.buttons["delete"].click()
    assert saved not in [e.id for e in window.library.entries()]
    trash = window.library.trash_entries()
    assert trash
    window.library.restore(trash[0].trash_id)
    panel.refresh()
    assert saved in [e.id for e in window.library.entries()]


def test_filter_and_corrupt_file_is_reported(window, planner_home):
    bad = planner_home / "scenarios" / "broken.json"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text("{ not json")
    panel = window.library_panel
    panel.refresh()
    assert not panel.problems.isHidden()
    assert "broken.json" in panel.problems.text()
    panel.search.setText("qlora")
    visible = range(panel.row_count())  # the filter hides the other rows
    assert visible and all("qlora" in " ".join(panel.cell_text(r, c).lower() for c in range(3)) for r in visible)
    assert panel.row_count() < len(panel.entries)


def test_four_panes_share_one_scale(window):
    scenarios = [scenario_from_dict({**FULL_4090, "gpu": gpu, "name": gpu})
                 for gpu in ("rtx-4090", "a100-80gb", "h200", "rtx-3060-12gb")]
    window.compare.set_items([Compared(s.name, s) for s in scenarios])
    panes = [p for p in window.compare.panes if not p.isHidden()]
    assert len(panes) == 4
    ranges = {round(p.bars.plot.getViewBox().viewRange()[0][1], 6) for p in panes}
    assert len(ranges) == 1, "one axis for all panes"
    biggest = max(max(estimate(s).capacity_bytes, estimate(s).total_bytes) for s in scenarios) / 2**30
    assert ranges.pop() >= biggest
    labels = [window.compare.table.item(r, 0).text() for r in range(window.compare.table.rowCount())]
    assert "GPU" in labels and "Peak allocated" in labels  # the control's words, not the file key
    gpu_row = labels.index("GPU")
    assert window.compare.table.item(gpu_row, 1).text() == "NVIDIA GeForce RTX 4090"  # names, not ids (issue 25.10)


def test_live_pane_follows_the_editor(window):
    window.compare.set_items([Compared("ref", window.state.scenario), Compared("live", window.state.scenario, True)])
    window.setup_panel.micro_batch.spin.setValue(4)
    assert window.compare.items[1].scenario.micro_batch == 4
    assert window.compare.items[0].scenario.micro_batch != 4


def test_make_it_fit_plans_apply_as_one_undo_step(window, qtbot):
    window.state.load(scenario_from_dict(FULL_4090))
    assert window.state.estimate.verdict == "does not fit"
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    qtbot.waitUntil(lambda: bool(panel.plans), timeout=20000)
    for plan in panel.plans:
        assert estimate(window.state.scenario.replace(**plan.changes)).fits
    assert not panel.family_label.isHidden() and "Llama 3" in panel.family_label.text()
    count = window.state.undo_stack.count()
    panel.apply_buttons[0].click()
    assert window.state.estimate.fits
    assert window.state.undo_stack.count() == count + 1
    assert window.tabs.currentWidget() is window.compare
    window.undo_action.trigger()
    assert window.state.scenario.method == "full"


def test_make_it_fit_offers_the_layout_the_framework_can_run(window, qtbot):
    """Hugging Face's Trainer has no pipeline (accelerate's ParallelismConfig, engine/frameworks/parallelism.py):
    a typed pp 2 is warned about, and the first plan folds it into data parallelism and clears the warning."""
    window.state.load(scenario_from_dict(RUNFIX_U3))
    assert any("has no pipeline parallelism" in str(w) for w in window.state.estimate.warnings)
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    qtbot.waitUntil(lambda: bool(panel.plans), timeout=20000)
    first = panel.plans[0]
    assert first.changes["pp"] == 1 and str(first.steps[0]).startswith("set pp=1, grad_accum=4")
    assert "cannot run this layout" in panel.header.text()
    count = window.state.undo_stack.count()
    panel.apply_buttons[0].click()
    assert window.state.undo_stack.count() == count + 1  # one undo step, as every plan applies
    assert window.state.scenario.pp == 1 and window.state.estimate.fits
    assert not any("cannot run" in str(w) or "has no" in str(w) for w in window.state.estimate.warnings)


def test_the_limits_and_the_family_are_those_of_the_layout_the_framework_can_run(window, qtbot):
    """Hugging Face's Trainer has no pipeline (accelerate's ParallelismConfig, engine/frameworks/parallelism.py): the
    limits beside the verdict and the largest model of the family are the runnable layout's (pp=1, grad_accum=4), in
    fit_report's words, and the fewest GPUs with TP count TP in a node only."""
    from engine.planning.limits import limits
    from engine.scenario.runnable import runnable_layouts

    s = scenario_from_dict(RUNFIX_U3)
    window.state.load(s)
    window.limits.refresh()
    text = window.limits.text()
    assert "for the layout Hugging Face (Trainer / TRL / accelerate) can run (pp=1, grad_accum=4)" in text
    assert "TP in a node (no PP)" in text and "TP/PP" not in text
    lim = limits(runnable_layouts(s)[0].scenario)  # the engine's limits of that layout
    assert f"micro-batch ≤ {lim.max_micro_batch} · sequence ≤ {lim.max_seq_len:,} tokens" in text
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    qtbot.waitUntil(lambda: panel.family is not None, timeout=20000)
    assert panel.family.layout_settings == "pp=1, grad_accum=4"
    assert "fits the layout Hugging Face (Trainer / TRL / accelerate) can run (pp=1, grad_accum=4): " \
        in panel.family_label.text()
    window.state.load(s.replace(pp=1, grad_accum=4))  # the runnable layout itself: the line as it always was
    window.limits.refresh()
    assert window.limits.text().startswith("With the safety reserve kept: ") and "for the layout" not in \
        window.limits.text()


def test_search_can_be_cancelled(window):
    window.state.load(scenario_from_dict({**FULL_4090, "model": "llama-3.1-70b", "gpus_per_node": 8}))
    panel = window.fit_panel
    panel.search()
    panel.cancel()
    assert not panel.worker.isRunning()


def test_limits_shown_beside_the_verdict(window, qtbot):
    window.limits.refresh()
    assert "micro-batch" in window.limits.text()
    assert window.limits.limits.max_micro_batch >= 1


def test_import_json_into_library(window, tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({**FULL_4090, "name": "Imported one"}))
    new_id = window.library_panel.import_file(str(path))
    assert new_id and window.library.load(new_id).name == "Imported one"


def test_comparison_exports(window, tmp_path):
    from gui import file_actions

    scenarios = [scenario_from_dict({**FULL_4090, "gpu": gpu, "name": gpu}) for gpu in ("rtx-4090", "h200")]
    window.compare.set_items([Compared(s.name, s) for s in scenarios])
    window.tabs.setCurrentWidget(window.compare)
    for kind in ("png", "pdf", "md", "csv"):
        out = tmp_path / f"compare.{kind}"
        file_actions.export_to(window, file_actions.COMPARISON + kind, str(out))
        assert out.stat().st_size > 100, kind
    text = (tmp_path / "compare.md").read_text()
    assert "rtx-4090" in text and "h200" in text and "Peak allocated" in text


def test_new_button_adds_a_scenario_to_the_library(window):
    before = len(window.library.entries())
    window.library_panel.buttons["new"].click()
    assert len(window.library.entries()) == before + 1
    assert window.state.library_id and not window.state.is_dirty()


def test_saving_with_the_library_on_screen_updates_that_row(window):
    """A save while the Library tab shows updates the saved row (not all rows): same verdict/peak as a full listing."""
    window.tabs.setCurrentWidget(window.library_panel)
    window.show()
    assert window.library_save()
    panel = window.library_panel
    saved = window.state.library_id
    window.state.edit({"micro_batch": 7})
    assert window.library_save()
    row = [r for r in range(panel.row_count()) if panel.row_id(r) == saved]
    shown = [panel.cell_text(row[0], c) for c in range(5)]
    panel.refresh()
    row = [r for r in range(panel.row_count()) if panel.row_id(r) == saved]
    assert shown == [panel.cell_text(row[0], c) for c in range(5)]
    assert next(e for e in panel.entries if e.id == saved).scenario.micro_batch == 7  # the table may be sorted


def test_compare_shows_only_its_hint_until_something_is_compared(window):
    """No empty table headed "1" before anything is compared."""
    assert window.compare.table.isHidden() and not window.compare.hint.isHidden()
    s = scenario_from_dict(FULL_4090)
    window.compare.set_items([Compared("a", s), Compared("b", s.replace(gpu="h200"))])
    assert not window.compare.table.isHidden() and window.compare.hint.isHidden()
    window.compare.set_items([])
    assert window.compare.table.isHidden()


def test_screenshot_settles_plan_rows_at_their_full_height(qtbot, tmp_path):
    """A screenshot taken one round of events after the search showed the plans squeezed (their third line cut):
    settle() delivers the rounds a word-wrapped row needs to take the height its width asks for. (As the
    screenshot mode does: a window of 1366x768, shown, then the search.)"""
    from PySide6.QtWidgets import QApplication

    from gui.app import settle, show_tab

    win = window_from(qtbot, tmp_path, {"name": "70B", "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb",
                                        "gpus_per_node": 8, "nodes": 2, "fsdp": True, "tp": 4, "sequence_parallel": True,
                                        "grad_accum": 8, "seq_len": 8192, "attention": "flash", "checkpointing": "full"},
                      shown=False, name="70b.json")
    app = QApplication.instance()
    win.resize(1366, 768)
    win.show()
    app.processEvents()
    show_tab(win, "fit")
    panel = win.fit_panel
    panel.search()
    assert panel.wait()
    settle(app)
    rows = [panel.rows_layout.itemAt(i).widget() for i in range(panel.rows_layout.count())]
    rows = [r for r in rows if r is not None]
    assert len(rows) == len(panel.plans) + 1 > 1 and rows[-1] is panel.family_rows  # the plans, then the family
    for row in rows:
        assert row.isVisible()  # laid out in the list (a row not yet laid out has a default size)
        assert row.height() >= row.heightForWidth(row.width()) > 0


def test_largest_model_of_the_family_is_named_as_the_model_list_names_it(window):
    window.state.load(scenario_from_dict({**FULL_4090, "method": "qlora", "checkpointing": "full"}))
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    largest = panel.family.model
    assert largest is not None
    text = panel.family_label.text()
    assert model_presets()[largest].name in text and largest not in text  # "Llama 3 8B", not "llama-3-8b"
    # below the plans (here none: it fits), every size of the family with its verdict, smallest first
    listed = panel.family_rows.text()
    positions = [listed.index(c.name + " (") for c in panel.family.candidates]
    assert len(positions) == len(model_presets_of(panel.family.family)) > 1 and positions == sorted(positions)
    for c in panel.family.candidates:
        assert (c.verdict if c.total_bytes is not None else "cannot take this set-up") in listed


def model_presets_of(family: str) -> list[str]:
    return [p.id for p in model_presets().values() if p.family == family]


def test_an_explicit_search_replaces_the_pending_debounced_one(window):
    """Search again (or a screenshot's search) while an edit's debounced search is pending: one search, not a
    second one starting on top of its result."""
    panel = window.fit_panel
    panel.refresh_shown()
    assert panel.timer.isActive()
    panel.search()
    assert not panel.timer.isActive()
    assert panel.wait()


def test_four_narrow_panes_show_whole_titles_and_verdicts_in_line(window):
    """At 1366x768 four panes wrap their verdicts onto more lines than a fixed height held, and a long title onto
    two: every pane takes the height the most wrapped one needs (pies stay in line, nothing is cut); the table's
    column headers wrap and carry the whole name as a tooltip."""
    from PySide6.QtWidgets import QApplication

    from gui.app import settle

    long_name = "Llama-3.1-70B on 16 x H100, FSDP + TP, a name longer than a narrow pane"
    scenarios = [scenario_from_dict({**FULL_4090, "gpu": gpu, "name": gpu}) for gpu in ("a100-80gb", "h200", "l4")]
    items = [Compared(long_name, scenario_from_dict({**FULL_4090, "name": long_name}))]
    items += [Compared(s.name, s) for s in scenarios]
    window.resize(1366, 768)
    window.show()
    window.tabs.setCurrentWidget(window.compare)
    window.compare.set_items(items)
    settle(QApplication.instance())
    panes = [p for p in window.compare.panes if not p.isHidden()]
    assert len(panes) == 4
    for part in ("title", "verdict"):
        labels = [getattr(p, part) for p in panes]
        assert len({label.height() for label in labels}) == 1, part
        assert all(label.height() >= label.heightForWidth(label.width()) for label in labels), part
    title = panes[0].title
    assert title.height() >= 2 * title.fontMetrics().lineSpacing()  # the long title wraps, and its lines show
    table = window.compare.table
    assert not table.verticalHeader().isVisible()
    assert table.horizontalHeaderItem(1).toolTip() == long_name


def test_family_of_a_vision_language_scenario_names_why_text_models_are_out(window):
    """With images in the sample, the family's text-only models are listed as unable to take them, and the
    largest model that fits is the VL one (engine/planning/family.py)."""
    window.state.load(scenario_from_dict({"name": "vl", "model": "qwen2.5-vl-7b", "gpu": "a100-80gb",
                                          "method": "qlora", "precision": "bf16", "seq_len": 4096,
                                          "images_per_sample": 2, "image_resolution": 896, "checkpointing": "full"}))
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    assert panel.family.model == "qwen2.5-vl-7b"
    lines = panel.family_rows.text().split("<br>")[1:]
    assert len(lines) == len(panel.family.candidates)
    for line, c in zip(lines, panel.family.candidates, strict=True):
        text_only = model_presets()[c.model].spec.vision is None
        assert ("no vision tower for the images" in line) == text_only, line


def test_a_served_family_member_under_the_gpu_size_says_why_it_does_not_fit(window):
    """Serving Qwen3 32B AWQ on 2 x RTX 4090, the family list read "Qwen3-Next 80B-A3B: does not fit, 23.13 GiB per
    GPU" beside the 23.99 GiB card, with nothing saying why: vLLM refuses to start (weights, activations and overheads
    take more than its gpu_memory_utilization budget, no KV cache is left). Each served member that does not fit now
    carries the engine's own sentence (engine/serving's reason), shown after its figure."""
    from html import escape

    from conftest import REPO

    from engine import load_scenario
    from gui.i18n import tr_message

    served = load_scenario(REPO / "examples" / "serve-qwen3-32b-awq-2x4090.json")
    window.state.load(served)
    panel = window.fit_panel
    panel.search()
    assert panel.wait()
    listed = panel.family_rows.text()
    for c in panel.family.candidates:
        member = estimate(served.replace(model=c.model))
        if c.verdict == "fits":
            assert c.why is None
        else:
            assert c.why == member.serving.reason and escape(tr_message(c.why)) in listed
    assert any(c.why is not None and c.total_bytes < estimate(served).capacity_bytes for c in panel.family.candidates)
