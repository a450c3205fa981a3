"""The library list's model (issue 15: 10,000 scenarios): it sorts itself, places a saved row without re-sorting,
fills verdicts a slice at a time, and its filter looks at name, model and GPU."""

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine import estimate, scenario_from_dict
from gui.library_model import GPU, MODEL, MODIFIED, NAME, PEAK, VERDICT, LibraryFilter, LibraryModel, RowWords
from gui.storage import LibraryEntry

WORDS = RowWords(example=" (example)", read_only=" (read-only)", estimating="…", cannot="cannot (%s)",
                 verdict=lambda v: v.upper())


def entry(i: int, batch: int = 1, modified: float | None = None, model: str = "llama-3-8b") -> LibraryEntry:
    s = scenario_from_dict({"name": f"run {i}", "model": model, "micro_batch": batch})
    return LibraryEntry(f"run-{i}", f"run {i}", Path(f"/nowhere/run-{i}.json"), s, None, False,
                        modified if modified is not None else float(i), f"v{i}-{batch}")


@pytest.fixture
def model(qapp):
    return LibraryModel(WORDS, lambda verdict: "#000000")


def order(m: LibraryModel, column: int) -> list:
    return [m.sort_key(r, column) for r in range(m.rowCount())]


def test_the_model_sorts_itself_on_every_column(model):
    model.set_entries([entry(i, batch=1 + (i * 7) % 5, modified=(i * 13) % 17) for i in range(40)])
    model.estimate_pending()
    for column in (NAME, MODEL, GPU, VERDICT, PEAK, MODIFIED):
        for descending in (False, True):
            model.sort(column, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
            keys = order(model, column)
            assert keys == sorted(keys, reverse=descending), (column, descending)
    assert {model.row_of(f"run-{i}") for i in range(40)} == set(range(40)), "ids map to their rows"


def test_a_saved_row_moves_to_its_sorted_place_without_a_full_sort(model):
    rng = random.Random(7)
    model.set_entries([entry(i, modified=rng.random() * 100) for i in range(60)])
    model.sort(MODIFIED, Qt.SortOrder.DescendingOrder)
    for step in range(40):
        i = rng.randrange(80)  # an existing row changed, or a new one saved
        at = model.put(entry(i, batch=1 + step % 3, modified=rng.random() * 100))
        assert model.row_of(f"run-{i}") == at
        keys = order(model, MODIFIED)
        assert keys == sorted(keys, reverse=True), step
    ids = [model.data(model.index(r, 0), Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
    assert len(ids) == len(set(ids)), "a saved row is never listed twice"


def test_verdicts_fill_in_slices_and_match_the_engine(model):
    entries = [entry(i, batch=1 + i % 8) for i in range(30)]
    model.set_entries(entries)
    assert model.pending == 30
    row = model.row_of("run-3")
    assert model.text(row, VERDICT) == "…", "a row not estimated yet says so"
    left = model.estimate_pending(budget_s=0.0)  # at least one row per slice
    assert left == 29
    assert model.estimate_pending() == 0
    est = estimate(entries[3].scenario)
    assert model.text(row, VERDICT) == f"● {est.verdict.upper()}"  # the panel's words, here upper-cased
    assert model.summary(row).peak_bytes == est.total_bytes
    model.set_entries(entries)  # a second listing: unchanged files keep their estimate
    assert model.pending == 0


def test_a_file_that_breaks_the_estimator_gets_its_reason(model, monkeypatch):
    from gui import estimates  # the state layer's cache runs the estimator for the rows

    def breaks(s):
        raise OverflowError("too large")

    monkeypatch.setattr(estimates, "estimate", breaks)
    model.set_entries([entry(1)])
    model.estimate_pending()
    assert model.text(0, VERDICT) == "cannot (OverflowError)"


def test_filter_looks_at_name_model_and_gpu(model):
    model.set_entries([entry(1), entry(2, model="qwen2.5-7b"), entry(3)])
    rows = LibraryFilter(model)
    rows.set_needle("qwen")
    assert rows.rowCount() == 1 and "Qwen" in rows.index(0, MODEL).data()
    rows.set_needle("RUN 3")
    assert rows.rowCount() == 1 and rows.index(0, NAME).data() == "run 3"
    rows.set_needle("")
    assert rows.rowCount() == 3
    rows.sort(NAME, Qt.SortOrder.DescendingOrder)  # sorting through the filter sorts the model
    assert [rows.index(r, NAME).data() for r in range(3)] == ["run 3", "run 2", "run 1"]
