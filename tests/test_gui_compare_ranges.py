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


def test_compare_names_each_component_once_and_each_cost_in_its_currency(qtbot):
    """User audit 6: a verl GRPO run whose peak is generation (its trainer's states keyed policy_optimizer_states) beside
    a TRL GRPO run whose peak is training gave two "Optimizer states" rows, each pane's value in one of them; a USD and
    a EUR plan read "Cost 25 | 29"; the run's time and cost had no range under them."""
    from engine import scenario_from_dict
    from engine.timing.step_result import run_range_words

    window, _ = build_window(None)
    qtbot.addWidget(window)
    grpo = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "bf16",
            "checkpointing": "full", "micro_batch": 4, "grad_accum": 4, "training_objective": "grpo",
            "prompt_len": 1024, "completion_len": 2048, "num_generations": 8, "rollout_engine": "vllm",
            "rollout_placement": "colocate", "zero_stage": 3, "tokens_to_train": 10**8, "gpu_hour_price": 2.5}
    verl = scenario_from_dict({**grpo, "name": "verl", "framework": "verl", "rollout_tp": 2,
                               "rollout_gpu_memory_utilization": 0.6, "currency": "USD"})
    trl = scenario_from_dict({**grpo, "name": "trl", "framework": "trl", "checkpointing": "none",
                              "rollout_gpu_memory_utilization": 0.4, "currency": "EUR"})
    keys = [{c.key for c, _ in estimate(s).busiest.at_peak() if c.name == "Optimizer states"} for s in (verl, trl)]
    assert keys[0] != keys[1], "the two peaks key the optimizer states differently: the case of the audit"
    window.compare.set_items([Compared("verl", verl), Compared("trl", trl)])
    table = window.compare.table
    labels = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert labels.count("Optimizer states") == 1 and labels.count("Gradients") == 1
    rows = table_rows(window.compare)
    times = [step_time(verl), step_time(trl)]
    # each under 100, so to the cent (units.format_cost)
    assert rows["Cost"] == [f"{times[0].cost:,.2f} USD", f"{times[1].cost:,.2f} EUR"]
    assert rows["Time to train and cost, as the step time's range"] == [
        run_range_words(t, c).format_with(tr_engine) for t, c in zip(times, ("USD", "EUR"), strict=True)]
