"""The Compare tab states each time and speed figure's likely range (gui/compare_ranges.py), driven through the view
with a training and a serving scenario. The expected words come from the band functions (engine/timing/bands.py,
engine/serving/speed_band.py) through the one sentence builder (engine/range_words.py), not from hard-coded text."""

from engine import estimate, load_scenario
from engine.range_words import band_multiples, likely_range_words
from engine.serving import serving_speed
from engine.serving.speed_band import speed_ranges
from engine.timing.bands import seconds_range
from engine.units import format_count, format_seconds
from engine.workloads import step_time
from gui.app import build_window
from gui.compare_view import Compared
from gui.i18n import tr_engine

TRAINING = "examples/qlora-12gb-card.json"
SERVING = "examples/serve-qwen3-32b-awq-2x4090.json"


def table_rows(view) -> dict[str, list[str]]:
    table = view.table
    return {table.item(r, 0).text(): [table.item(r, c).text() for c in range(1, table.columnCount())]
            for r in range(table.rowCount())}


def test_compare_shows_each_figures_likely_range(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    training, serving = load_scenario(TRAINING), load_scenario(SERVING)
    window.compare.set_items([Compared(training.name, training), Compared(serving.name, serving)])
    rows = table_rows(window.compare)
    labels = list(rows)

    t = step_time(training)  # the training pane: the step's band of its regime (bands.py)
    assert t.band is not None, "the example's framework has a measured band"
    low, high = seconds_range(t.step_seconds, t.band)
    step_words = likely_range_words(format_seconds(low), format_seconds(high), *band_multiples(t.band.low, t.band.high),
                                    tr_engine)
    step_label = "Step time, measured runs like this one (8 in 10)"
    assert rows[step_label] == [step_words, "—"], "a served model has no step time: a dash"
    assert labels.index(step_label) == labels.index("Step time") + 1, "the range sits under its figure"
    # tokens/s is tokens per step over the step time: its range is the same tokens over the step's range
    assert abs(t.tokens_per_step / t.step_seconds - t.tokens_per_second) <= 1e-6 * t.tokens_per_second
    tokens_words = likely_range_words(format_count(t.tokens_per_step / high), format_count(t.tokens_per_step / low),
                                      t.step_seconds / high, t.step_seconds / low, tr_engine)
    assert rows["Tokens/s, measured runs like this one (8 in 10)"] == [tokens_words, "—"]

    memory = estimate(serving).serving  # the serving pane: its engine's bands of its regime (speed_band.py)
    speed = serving_speed(serving, memory)
    ranges = speed_ranges(memory.engine, speed)
    for label, figure, show in (("Time to first token", "ttft_seconds", format_seconds),
                                ("Time per output token", "tpot_seconds", format_seconds),
                                ("Output tokens/s", "tokens_per_second", format_count)):
        r, value = ranges[figure], getattr(speed, figure)
        words = likely_range_words(show(r.low), show(r.high), r.low / value, r.high / value, tr_engine)
        range_label = f"{label}, measured runs like this one (8 in 10)"
        assert rows[range_label] == ["—", words], f"{figure}: a training run has none, a dash"
        assert labels.index(range_label) == labels.index(label) + 1
