"""Words of the printed plan card and comparison (user audit 13): the comparison PDF titled the live pane "Current
(live: follows the editor)", which a printed page does not; the card wrote "16×NVIDIA H100 SXM 80GB" as one word;
"Price per GPU-hour | 2.5" had no currency in the card's and Compare's inputs (the Markdown's has had it since audit
12: engine/report.py input_rows, engine/units.py format_price)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.plan_card import memory_sentence
from gui import report_export
from gui.compare_view import Compared
from gui.report_export import input_rows, write_comparison_pdf

TRAIN_70B = {"schema_version": 1, "name": "70B on 16 x H100", "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb",
             "gpus_per_node": 8, "nodes": 2, "zero_stage": 3, "method": "full", "gpu_hour_price": 2.5,
             "currency": "USD"}


def test_the_comparison_pdf_titles_panes_without_the_live_note(window, tmp_path, monkeypatch):
    before = scenario_from_dict(TRAIN_70B)
    window.state.load(before.replace(micro_batch=2))
    window.compare.set_items([Compared("Before", before), Compared("Current", window.state.scenario, live=True)])
    assert "(live: follows the editor)" in window.compare.panes[1].title.text()  # on screen it follows the editor
    printed: list[str] = []
    monkeypatch.setattr(report_export._Pages, "document", lambda _self, html: printed.append(html))
    write_comparison_pdf(window, str(tmp_path / "comparison.pdf"), [["What differs", "Before", "Current"]])
    titles = [html for html in printed if html.startswith("<h3>") and "What differs" not in html]
    assert [t.split("</h3>")[0] for t in titles] == ["<h3>Before", "<h3>Current"]


def test_the_card_spaces_its_gpu_count():
    est = estimate(scenario_from_dict(TRAIN_70B))
    assert str(memory_sentence(est, "GiB")).startswith("Does not fit on 16 × NVIDIA H100 SXM 80GB: ")


def test_the_price_per_gpu_hour_names_its_currency(window):
    s = scenario_from_dict(TRAIN_70B)
    window.state.load(s)
    assert [shown for _label, shown, _default in input_rows(window, ["gpu_hour_price"])] == ["2.50 USD"]
    window.compare.set_items([Compared("H100", s), Compared("dearer", s.replace(gpu_hour_price=3.5, currency="EUR"))])
    t = window.compare.table
    rows = {t.item(r, 0).text(): [t.item(r, c).text() for c in (1, 2)] for r in range(t.rowCount())}
    assert rows["Price per GPU-hour"] == ["2.50 USD", "3.50 EUR"]
