"""The "What should I rent?" panel: prices typed into its table are kept in the settings, the search runs through
the engine (engine/planning/rent.py), and applying a row changes GPU, counts and layout as one undo step."""

import pytest

from engine import scenario_from_dict
from engine.units import format_count
from gui.rent_panel import RentPanel
from gui.settings_store import Settings
from gui.state import AppState
from gui.words import field_label

SCENARIO = {"model": "llama-3.1-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "micro_batch": 1, "grad_accum": 16,
            "seq_len": 4096, "precision": "mixed-bf16", "checkpointing": "full", "zero_stage": 3,
            "tokens_to_train": 2 * 10**9}


@pytest.fixture
def panel(qtbot, planner_home):
    state = AppState(scenario_from_dict(SCENARIO))
    p = RentPanel(state, Settings())
    qtbot.addWidget(p)
    return p


def test_prices_typed_in_the_table_are_saved(panel, planner_home):
    panel.table.set_price("h100-sxm-80gb", 2.5)
    panel.table.set_price("h200", 3.25)
    panel.currency.setCurrentIndex(panel.currency.findData("EUR"))
    values = Settings().values  # read back from the file
    assert dict(values.gpu_prices) == {"h100-sxm-80gb": 2.5, "h200": 3.25} and values.price_currency == "EUR"
    panel.table.set_price("h200", None)
    assert dict(Settings().values.gpu_prices) == {"h100-sxm-80gb": 2.5}
    row = next(i for i, g in enumerate(panel.table.gpus) if g.id == "h200")
    panel.table.item(row, 1).setText("cheap")
    assert dict(Settings().values.gpu_prices) == {"h100-sxm-80gb": 2.5}
    assert "cheap" not in panel.header.text() and panel.table.problem  # named, not saved


def test_search_lists_rows_and_apply_is_one_undo_step(panel):
    panel.table.set_price("h100-sxm-80gb", 2.0)
    panel.deadline.setValue(30)
    panel.search()
    assert panel.wait()
    result = panel.result
    assert result is not None and result.ranked and len(panel.apply_buttons) == len(result.ranked)
    assert all(r.seconds <= 30 * 86400 for r in result.ranked)
    before = panel.state.scenario
    row = result.ranked[0]
    undo = panel.state.undo_stack
    count = undo.count()
    panel.apply_buttons[0].click()
    after = panel.state.scenario
    assert undo.count() == count + 1
    assert (after.gpu, after.world_size, after.gpu_hour_price) == (row.gpu, row.gpus, 2.0)
    assert all(after.to_dict()[k] == v for k, v in row.changes)
    undo.undo()
    assert panel.state.scenario == before


def test_without_tokens_to_train_the_panel_says_so(qtbot, planner_home):
    state = AppState(scenario_from_dict({**SCENARIO, "tokens_to_train": None}))
    p = RentPanel(state, Settings())
    qtbot.addWidget(p)
    p.search()
    assert p.wait()
    # the control as the window labels it (gui/words.py field_label), then the engine's sentence
    assert p.header.text().startswith(field_label("tokens_to_train") + ":") and p.result is None


def test_rows_say_the_nodes_cpu_memory_and_the_year_without_a_deadline(qtbot, planner_home):
    """70B full fine-tuning: 1-4 H100s cannot hold its offload in their share of a DGX H100's 2 TB (DGX H100 datasheet;
    presets/rent_servers.json), so the first row is a whole server; no deadline: the year's horizon is said."""
    from PySide6.QtWidgets import QLabel

    state = AppState(scenario_from_dict({**SCENARIO, "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb",
                                         "tokens_to_train": 10**9}))
    p = RentPanel(state, Settings())
    qtbot.addWidget(p)
    p.table.set_price("h100-sxm-80gb", 2.5)
    p.search()
    assert p.wait()
    texts = " ".join(label.text() for label in p.findChildren(QLabel))
    assert "No deadline set: options that take more than 365 d are left out as impractical" in texts
    assert "the node holds 1.82 TiB (NVIDIA DGX H100, 8 GPUs)" in texts
    assert "1-4 x NVIDIA H100 SXM 80GB: does not fit" in texts
    # whole servers: 8 GPUs offload the optimizer; 32 hold every state on the GPUs and cost less (the counts up to
    # 4x an offloading option are searched: engine/planning/rent.py OFFLOAD_GPU_FACTOR)
    assert p.result.ranked[0].gpus % 8 == 0 and p.result.ranked[0].plan.scenario.offload == "none"
    assert any(o.gpus == 8 and o.plan.scenario.offload != "none" for o in p.result.ranked)


def test_a_price_left_out_is_still_named_after_the_search(panel):
    """A price typed as "-4" was named until Find what to rent was pressed; the results' header then replaced the
    sentence, so the list silently lacked that GPU."""
    panel.table.set_price("h100-sxm-80gb", 2.0)
    row = next(i for i, g in enumerate(panel.table.gpus) if g.id == "h200")
    panel.table.item(row, 1).setText("-4")
    panel.deadline.setValue(30)
    panel.search()
    assert panel.wait() and panel.result is not None
    assert panel.table.problem and panel.table.problem in panel.header.text()
    assert "H200" in panel.header.text()


def test_each_row_says_on_hover_where_its_hours_and_cost_come_from(panel):
    """A row's "226 GPU-hours x 2.5 USD = 565 USD" had no hover explanation: its tooltip now gives GPU-hours = time to
    train x GPUs with the row's own figures, and cost = GPU-hours x the price entered (engine/planning/rent.py)."""
    from PySide6.QtWidgets import QLabel

    from engine.planning.rent_report import gpu_hours_text

    panel.table.set_price("h100-sxm-80gb", 2.0)
    panel.deadline.setValue(30)
    panel.search()
    assert panel.wait() and panel.result is not None and panel.result.ranked
    first = panel.result.ranked[0]
    row = panel.apply_buttons[0].parentWidget()
    tip = row.findChild(QLabel).toolTip()
    assert f"x {first.gpus} = {gpu_hours_text(first.gpu_hours)}" in tip and "price per GPU-hour" in tip


def test_a_rows_layout_is_said_in_the_set_ups_words(panel):
    """A row's layout read "layout: zero_stage=2, micro_batch=1, grad_accum=4, offload=optimizer", the command line's
    keys (in Chinese too), where Make it fit and Fastest layouts say "Sharding (ZeRO / FSDP): ZeRO-2": it now uses the
    set-up's labels and choices, and leaves out what the row already says (GPU, counts, price, the server's memory)."""
    from PySide6.QtWidgets import QLabel

    panel.table.set_price("h100-sxm-80gb", 2.0)
    panel.deadline.setValue(30)
    panel.search()
    assert panel.wait() and panel.result is not None and panel.result.ranked
    text = panel.apply_buttons[0].parentWidget().findChild(QLabel).text()
    layout = text.split("layout: ", 1)[1]
    assert "=" not in layout and "gpu_hour_price" not in layout and "currency" not in layout
    changed = dict(panel.result.ranked[0].changes)
    shown = [key for key in ("micro_batch", "grad_accum", "checkpointing", "offload", "tp", "pp") if key in changed]
    assert shown and all(field_label(key) in layout for key in shown), (layout, changed)


def test_the_gpu_names_are_not_cut_in_a_narrow_panel(panel, qtbot):
    """User audit 5: at 1,366 x 768 the panel's left side is about 340 px wide, and the one-line header "Price per
    GPU-hour" sized the price column so wide that the names were elided ("NVIDIA A100 40GB (SXM4/P..."). The header
    now takes two lines and a name longer than its column wraps, its row as tall as it needs: every name is whole."""
    from PySide6.QtCore import QRect, Qt

    panel.resize(850, 330)  # the tab's size in the 1366 x 768 window (left side = 2 / 5 of it)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.table
    assert "\n" in table.horizontalHeaderItem(1).text()  # two lines: the price column no wider than they need
    metrics = table.fontMetrics()
    width = table.columnWidth(0) - 8  # the cell's text margins
    short = [g.name for g in table.gpus if metrics.horizontalAdvance(g.name) <= width]
    assert "NVIDIA A100 40GB (SXM4/PCIe)" in short  # the name the audit saw cut now fits on one line
    for row, g in enumerate(table.gpus):  # a longer one wraps: its row holds every line of it
        needed = metrics.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), g.name).height()
        assert table.rowHeight(row) >= needed, g.name


def test_rows_say_their_likely_time_and_cost_and_the_header_the_tie_rule(panel):
    """User audit 6: each row's time and cost carry its plan's step range (as `fit --objective cost` prints it:
    engine/planning/rent_report.py rent_range_words), and the header says why a row 1% dearer can come first."""
    from PySide6.QtWidgets import QLabel

    from engine.planning.rent import TIE
    from engine.planning.rent_report import rent_range_words

    panel.table.set_price("h100-sxm-80gb", 2.0)
    panel.deadline.setValue(30)
    panel.search()
    assert panel.wait() and panel.result is not None and panel.result.ranked
    first = panel.result.ranked[0]
    words = rent_range_words(first, "").format_with(str)
    label = panel.apply_buttons[0].parentWidget().findChild(QLabel).text()
    assert words.split(",")[0] in label  # "likely 5.2 h to 6.7 h"
    assert f"costs within {TIE:.0%} of each other count as equal: fewer GPUs first" in panel.header.text()
    assert f"for {format_count(SCENARIO['tokens_to_train'])} tokens" in panel.header.text()  # "2B", not 2,000,000,000


def test_a_row_whose_likely_range_runs_past_the_deadline_says_so(qtbot, planner_home):
    """User audit 6: an option is ranked by the model's time (rent.py), and one "trains in 2.9 d" against a 3-day
    deadline is likely to take up to 3.5 d: its row says its slow end runs past the deadline, as the command line."""
    from PySide6.QtWidgets import QLabel

    from engine.planning.rent_report import PAST_DEADLINE

    state = AppState(scenario_from_dict({**SCENARIO, "tokens_to_train": 2 * 10**10}))
    p = RentPanel(state, Settings())
    qtbot.addWidget(p)
    p.table.set_price("a100-80gb", 1.5)
    p.search()
    assert p.wait() and p.result is not None and p.result.ranked
    first = p.result.ranked[0]
    low, high = first.plan.time.run_range(first.seconds)
    p.deadline.setValue((first.seconds + high) / 2 / 86400)  # the point inside, the slow end past it
    p.search()
    assert p.wait() and p.result is not None
    row = next(i for i, r in enumerate(p.result.ranked) if (r.gpu, r.gpus) == (first.gpu, first.gpus))
    label = p.apply_buttons[row].parentWidget().findChild(QLabel).text()
    assert PAST_DEADLINE in label
    # a sentence of its own after the range's bracket: ") its slow end ..." read as one run-on (user audit 15)
    assert "range) " + PAST_DEADLINE in label and PAST_DEADLINE[0].isupper()


def test_a_chinese_row_takes_chinese_marks(panel, qtbot):
    """The zh rent rows read "32 x NVIDIA B200" and "…每节点 CPU 内存 249.99 GiB; 节点有 1.82 TiB（…）" (user audit 11): the
    count's "×" and the semicolon before the server's memory are the language's now, as `--lang zh_CN fit` prints."""
    from PySide6.QtWidgets import QApplication, QLabel

    from gui.i18n import install_language

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    try:
        panel.table.set_price("h100-sxm-80gb", 2.0)
        panel.deadline.setValue(30)
        panel.search()
        assert panel.wait()
        qtbot.waitUntil(lambda: panel.result is not None)
        texts = [label.text() for label in panel.rows.findChildren(QLabel)]
        first = next(text for text in texts if text.startswith("<b>1. "))
        assert "× NVIDIA" in first and " x NVIDIA" not in first.split("</b>")[0]
        assert "；节点有" in first and "; 节点有" not in first
    finally:
        install_language(QApplication.instance(), "en")
