"""Serve mode in the window (issue 26), driven through the widgets' own methods: the Train/Serve switch, the serving
rows, the users-vs-context chart, a suggestion that makes a 70B model start, each as one undo step."""

from __future__ import annotations

from html import escape

import pytest
from PySide6.QtCore import QLocale

from engine import estimate, scenario_from_dict
from engine.serving.users_curve import users_vs_context
from gui.app import build_window, show_tab
from tests.window_helpers import first_fitting_suggestion, window_from

# Llama 3.1 70B in bf16 is 70.6B parameters x 2 bytes = 141 GB of weights: more than one 24 GB card holds.
SEVENTY_B = {"name": "70B on one 4090", "model": "llama-3.1-70b", "gpu": "rtx-4090", "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16"}


def test_switching_to_serve_shows_the_serving_rows_and_the_users_chart(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.show()
    assert win.state.scenario.workload == "training" and win.setup_panel.isVisible()
    assert not win.serving_panel.isVisible()
    depth = win.state.undo_stack.count()
    win.mode_switch.serve.click()
    assert win.state.scenario.workload == "inference"
    assert win.state.undo_stack.count() == depth + 1  # the switch is one undo step
    assert win.serving_panel.isVisible() and not win.setup_panel.isVisible()
    assert win.serving_panel.context.isVisible() and win.serving_panel.users.isVisible()
    tabs = win.tabs
    assert tabs.isTabVisible(tabs.indexOf(win.users_chart)) and not tabs.isTabVisible(tabs.indexOf(win.fit_panel))
    assert not tabs.isTabVisible(tabs.indexOf(win.rent_panel))  # a training plan: refused for a served model
    assert tabs.isTabVisible(tabs.indexOf(win.time_panel))  # the engine's speed and the cost of its tokens
    panel = win.time_panel  # its rows, seen from the panel (the tab itself is not the current one)
    assert not panel.tokens.isVisibleTo(panel) and panel.price.isVisibleTo(panel)
    show_tab(win, "users")
    curve = win.users_chart.curve
    assert curve is not None and curve == users_vs_context(win.state.scenario)  # the engine's curve, drawn as is
    assert list(win.users_chart.bars.opts["height"]) == [p.users for p in curve.points]
    assert win.state.estimate.serving is not None and win.pie.slices  # the pie shows the engine's components
    win.state.undo_stack.undo()
    assert win.state.scenario.workload == "training" and win.setup_panel.isVisible()
    assert not win.serving_panel.isVisible()


def test_llama_cpp_rows_and_the_users_slider_keep_each_slot_context(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b", "serving_engine": "llama.cpp",
                                        "weight_format": "Q4_K_M", "n_ctx": 8192})
    panel = win.serving_panel
    assert panel.n_ctx.isVisible() and not panel.gpu_memory_utilization.isVisible()
    panel.users.spin.setValue(4)  # four slots of 8,192 tokens each: llama-server splits n_ctx between them
    s = win.state.scenario
    assert (s.n_parallel, s.n_ctx) == (4, 4 * 8192)
    panel.context.spin.setValue(4096)
    assert win.state.scenario.n_ctx == 4 * 4096


def test_engine_choice_brings_a_format_it_loads(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b"})
    win.serving_panel.engine.set_value("llama.cpp")
    win.serving_panel._engine_chosen("llama.cpp")
    assert win.state.scenario.weight_format == "Q4_K_M"  # bf16 safetensors are not a GGUF file
    assert win.serving_panel.n_ctx.isVisible()


def test_seventy_b_on_one_card_is_made_to_fit_by_one_suggestion_as_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, SEVENTY_B)
    assert win.state.estimate.verdict == "does not fit"
    assert "does not fit" in win.verdict.verdict
    before = win.state.scenario
    first, sug = first_fitting_suggestion(win)
    assert sug.estimate.verdict == estimate(before.replace(**sug.changes)).verdict  # priced by the engine
    depth = win.state.undo_stack.count()
    win.suggestions.buttons[first].click()
    assert win.state.estimate.verdict == "fits"
    assert win.state.undo_stack.count() == depth + 1
    win.state.undo_stack.undo()
    assert win.state.scenario == before and win.state.estimate.verdict == "does not fit"


def test_a_context_slider_drag_is_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb"})
    panel = win.serving_panel
    depth = win.state.undo_stack.count()
    for tokens in (4096, 8192, 16384):
        panel._slider_edit("context", tokens, True)
    panel._end_drag()
    assert win.state.scenario.max_model_len == 16384
    assert win.state.undo_stack.count() == depth + 1
    win.state.undo_stack.undo()
    assert win.state.scenario.max_model_len is None


def test_the_scenario_file_keeps_serve_mode(tmp_path):
    s = scenario_from_dict(SEVENTY_B)
    assert scenario_from_dict(s.to_dict()) == s


def test_compare_tabulates_users_and_speed_of_served_scenarios_and_no_training_step(qtbot, tmp_path):
    from gui.compare_view import Compared

    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "qwen3-32b", "gpus_per_node": 2, "tp": 2,
                                        "weight_format": "awq-int4", "max_model_len": 32768})
    s = win.state.scenario
    fp8 = s.replace(kv_cache_dtype="fp8")
    win.compare.set_items([Compared("auto", s), Compared("fp8", fp8)])
    show_tab(win, "compare")
    table = win.compare.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in (1, 2)] for r in range(table.rowCount())}
    expected = [f"{estimate(x).serving.max_concurrent_sequences:,.2f}×" for x in (s, fp8)]
    assert rows["Maximum concurrency"] == expected  # the engine's figure for each pane
    # serving speed, not a training step: served panes alone have no training rows at all (they were empty cells)
    assert all(rows["Time to first token"]) and "Step time" not in rows


def test_an_edit_moves_the_users_labels_and_keeps_them(qtbot, tmp_path):
    """The numbers above the bars are the last drawing's items, retold and moved (making nine per edit took ~4 ms of
    a Serve mode edit); each still says its bar's users, where the bar ends."""
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b", "serving_engine": "llama.cpp",
                                        "weight_format": "Q4_K_M", "n_ctx": 8192})
    show_tab(win, "users")
    chart = win.users_chart
    kept = list(chart.labels)
    for tokens in (4096, 32768 + 5, 2048):
        win.serving_panel.context.spin.setValue(tokens)
        points = chart.curve.points
        assert [label.toPlainText() for label in chart.labels] == [f"{p.users:,}" for p in points]
        assert [(label.pos().x(), label.pos().y()) for label in chart.labels] == [(x, p.users) for x, p in
                                                                                    enumerate(points)]
    assert all(a is b for a, b in zip(kept, chart.labels, strict=False)) and len(kept) >= len(points)


def test_serve_mode_prices_a_million_output_tokens(qtbot, tmp_path):
    from engine.serving import cost_per_million_output_tokens

    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b", "serving_engine": "llama.cpp",
                                        "weight_format": "Q4_K_M", "n_ctx": 8192})
    panel = win.time_panel
    assert "price per GPU-hour" in panel.summary.text()  # asked for, not invented
    panel.price.setValue(2.0)
    panel.price.editingFinished.emit()
    s = win.state.scenario
    speed = win.state.serving_speed()
    # cost = hours for a million tokens at the engine's tokens/s x every GPU of the scenario x the price
    expected = 1e6 / speed.tokens_per_second / 3600 * s.world_size * 2.0
    assert s.gpu_hour_price == 2.0 and abs(cost_per_million_output_tokens(s, speed) - expected) < 1e-9
    assert QLocale().toString(expected, "f", 2) in panel.summary.text()


def test_engine_default_boxes_show_their_words_whole_at_1366_by_768(qtbot, tmp_path):
    """At 1,366 x 768 in English the boxes read "ne default" / "ngine default": the long row labels squeezed them
    below the width of their special text. Each now asks for that width (the form wraps the row instead)."""
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb",
                                        "weight_format": "checkpoint"})
    win.resize(1366, 768)
    panel = win.serving_panel
    for spin in (panel.max_num_batched_tokens, panel.gpu_memory_utilization, panel.block_size, panel.users.spin):
        assert spin.specialValueText() == "engine default" and spin.value() == spin.minimum()
        text_width = spin.fontMetrics().horizontalAdvance(spin.specialValueText())
        assert spin.lineEdit().width() >= text_width, spin.specialValueText()


def test_the_kv_cache_line_says_on_hover_what_its_figures_are(qtbot, tmp_path):
    """The line under the verdict ("KV cache 10.32 GiB: 84,528 tokens ... maximum concurrency ... longest context")
    had no hover explanation; it now says whose figures they are and what each counts."""
    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "qwen3-32b", "weight_format": "awq-int4",
                                        "gpus_per_node": 2, "tp": 2, "max_model_len": 32768})
    assert win.serving_line.isVisible() and "KV cache" in win.serving_line.text()
    assert "max_model_len" in win.serving_line.toolTip() and "longest single request" in win.serving_line.toolTip()


def test_the_context_slider_reads_as_a_slider_with_its_name_at_1366_by_768(qtbot, tmp_path):
    """At 1,366 x 768 in English the long label "Context per user (max_model_len)" and the spin box squeezed the
    context slider to its handle alone, which read as an unlabelled check box. The slider keeps a width of its own
    (the form puts the row under its label instead) and carries the row's label as its accessible name, as does the
    spin box; llama.cpp's relabelled row renames both."""
    from gui.widgets import SLIDER_MIN_WIDTH_PX

    win = window_from(qtbot, tmp_path, {**SEVENTY_B, "model": "qwen3-32b", "weight_format": "awq-int4",
                                        "gpus_per_node": 2, "tp": 2, "max_model_len": 32768})
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    for widget, label in ((win.serving_panel.context, "Context per user (max_model_len)"),
                          (win.serving_panel.users, "Users at once (max_num_seqs)")):
        assert widget.slider.isVisible() and widget.slider.width() >= SLIDER_MIN_WIDTH_PX, label
        assert widget.slider.accessibleName() == widget.spin.accessibleName() == label
    win.state.edit({"serving_engine": "llama.cpp", "weight_format": "Q4_K_M"})
    assert win.serving_panel.context.slider.accessibleName() == "Context per user (n_ctx / n_parallel)"


def test_suggestions_for_a_served_model_say_what_they_bring_not_a_negative_saving(qtbot, tmp_path):
    """Serving Qwen3 32B AWQ on 2 x RTX 4090 under vLLM, the Suggestions tab said "Store the KV cache as fp8 — saves
    -1.0 MiB" under "These changes would add headroom" (vLLM takes its gpu_memory_utilization budget whatever the
    change), and "Serve on 4 GPUs" read "tensor parallel (llama.cpp: layers split)". A saving under 1% of the GPU is
    now left unsaid for a served model (the users and context each row names say what it brings), the header of a
    paged engine says so, and the GPUs' note is the engine's own way of spreading the model (llama.cpp: --split-mode
    layer, its default; vLLM and SGLang: tensor parallel)."""
    import json

    from conftest import REPO
    from PySide6.QtWidgets import QLabel

    win, error = build_window(str(REPO / "examples" / "serve-qwen3-32b-awq-2x4090.json"))
    assert error is None
    qtbot.addWidget(win)
    panel = win.suggestions
    panel.refresh()
    texts = [label.text() for label in panel.findChildren(QLabel)]
    capacity = win.state.estimate.capacity_bytes
    assert any(sug.saved_bytes < 0.01 * capacity for sug in panel.items)  # the case: a change that saves nothing
    assert not any("saves -" in text for text in texts)
    assert "serve more users or longer contexts" in panel.header.text()
    for sug in panel.items:
        shown = next(text for text in texts if str(sug.title) in text)
        assert ("saves" in shown) == (sug.saved_bytes >= 0.01 * capacity), shown
    assert not any("llama.cpp" in str(sug.cost_note) for sug in panel.items)
    gguf = window_from(qtbot, tmp_path, json.loads((REPO / "examples" / "serve-llama3.1-8b-q4km-llamacpp.json")
                                                   .read_text(encoding="utf-8")))
    gguf.suggestions.refresh()
    assert "add headroom" in gguf.suggestions.header.text()  # llama.cpp sizes its buffers by what it is set to
    assert any("layers split" in sug.cost_note for sug in gguf.suggestions.items if "gpus_per_node" in sug.changes)


def test_the_engine_budget_names_the_total_it_is_a_share_of(qtbot, tmp_path):
    """vLLM takes gpu_memory_utilization of the total CUDA reports (79.19 GiB on an H100, presets/gpus.json
    cuda_total_bytes), not of the card's 79.65 GiB the verdict states: the footer read "the engine's budget:
    71.27 GiB of 79.65 GiB per GPU", a share (0.895) that is none of the engine's settings."""
    win = window_from(qtbot, tmp_path, {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "workload": "inference",
                                        "serving_engine": "vllm", "weight_format": "fp8", "max_model_len": 4096})
    est = win.state.estimate
    assert est.serving.budget_bytes == 0.9 * est.serving.capacity_bytes  # vLLM's default share, 0.9
    text = win.table.phases.text()
    assert f"71.27 GiB of the {est.serving.capacity_bytes / 2**30:.2f} GiB CUDA reports" in text
    assert f"the card's {est.capacity_bytes / 2**30:.2f} GiB" in text


def test_compare_a_served_model_beside_a_training_run_shows_what_each_reads(qtbot, tmp_path):
    """A served model beside a GRPO run: the served pane listed its unused training defaults (micro-batch 1,
    framework huggingface, objective sft), and its model weights were put on the training pane's "Trainable
    weights" row (the same component key)."""
    from gui.compare_view import NOT_APPLICABLE, Compared

    grpo = {"model": "qwen2.5-32b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "zero_stage": 3,
            "framework": "trl", "micro_batch": 8, "training_objective": "grpo", "rollout_engine": "vllm",
            "rollout_tp": 8, "rollout_gpu_memory_utilization": 0.3, "completion_len": 1024}
    win = window_from(qtbot, tmp_path, grpo)
    served = scenario_from_dict({**SEVENTY_B, "gpus_per_node": 2, "tp": 2, "weight_format": "awq-int4",
                                 "max_model_len": 8192})
    win.compare.set_items([Compared("grpo", win.state.scenario), Compared("serve", served)])
    show_tab(win, "compare")
    table = win.compare.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in (1, 2)] for r in range(table.rowCount())}
    assert rows["Sequences per GPU step (micro-batch)"] == ["8", NOT_APPLICABLE]
    assert rows["Context per user (max_model_len)"] == [NOT_APPLICABLE, "8,192"]
    assert rows["Tensor parallel (TP)"] == ["1", "2"]  # the layout both read
    assert rows["Tokens per completion (completion length)"] == ["1,024", NOT_APPLICABLE]  # GRPO's only
    weights = estimate(served).serving.components[0]
    assert weights.name == "Model weights"
    # each pane's own component only: the other pane has none of that name (a dash, not 0.00 GiB: user audit 7)
    assert rows["Model weights"][0] == NOT_APPLICABLE and rows["Trainable weights"][1] == NOT_APPLICABLE
    assert rows["Model weights"][1].endswith("GiB") and rows["Trainable weights"][0].endswith("GiB")


def test_the_cost_of_a_million_tokens_is_said_alike_in_the_window_and_estimate_with_its_range(qtbot, tmp_path,
                                                                                              capsys):
    """User audit 6: `estimate` of a served model with a price printed no cost (the window did), and neither gave its
    range. The cost is GPU-hours / tokens/s, so its range is the tokens/s range (speed_band.py) turned over."""
    import json as json_module

    from engine.cli import main
    from engine.serving.report import million_tokens_cost, million_tokens_cost_words
    from engine.serving.speed_band import speed_ranges
    from gui.i18n import tr_message

    data = {**SEVENTY_B, "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "weight_format": "checkpoint",
            "gpu_hour_price": 2.5, "currency": "USD"}
    win = window_from(qtbot, tmp_path, data)
    s, speed = win.state.scenario, win.state.serving_speed()
    cost, low, high = million_tokens_cost(s, speed)
    r = speed_ranges(s.serving_engine, speed)["tokens_per_second"]
    tps = speed.tokens_per_second
    assert (low, high) == pytest.approx((cost * tps / r.high, cost * tps / r.low))
    words = tr_message(million_tokens_cost_words(s, speed))
    # the window's rich text escapes the apostrophe of "the model's estimate" (the range lies above the cost here)
    assert f"likely {low:,.2f} to {high:,.2f} USD" in words and escape(words) in win.time_panel.summary.text()
    path = tmp_path / "served.json"
    path.write_text(json_module.dumps(data))
    assert main(["estimate", str(path)]) == 0
    assert words in capsys.readouterr().out
    assert main(["estimate", str(path), "--json"]) == 0
    out = json_module.loads(capsys.readouterr().out)["serving"]["speed"]
    assert out["cost_per_million_output_tokens"] == pytest.approx(cost)
    assert out["cost_per_million_output_tokens_range"] == pytest.approx([low, high])
