"""The likely ranges' words (engine/range_words.py): a figure's range is the measured runs' 10th-90th percentile of
measured / estimated - 1 applied to it, so it need not hold the figure (user audit 5: a GRPO step of 36.7 s "likely
55.2 s to 2.6 min", a served 38 tokens/s "likely 16 to 26"); every surface says the multiples of the model first."""

import pytest

from engine import scenario_from_dict
from engine.estimate_output import render_time
from engine.posttraining.time_band import POSTTRAINING_REGIME
from engine.range_words import band_multiples, likely_range_words, multiples_text
from engine.timing import time_to_json
from engine.units import format_seconds
from engine.workloads import step_time


def test_multiples_read_as_the_band_says() -> None:
    # a band of -0.05..+0.21 (measured / estimated - 1) is 0.95x to 1.21x the model's figure
    assert multiples_text(*band_multiples(-0.05, 0.21)) == "0.95-1.21x"
    assert multiples_text(*band_multiples(0.5, 3.3)) == "1.5-4.3x"
    assert multiples_text(*band_multiples(-1.5, 0.1)) == "0.0-1.1x"  # a time's low end clamps at 0 (bands.py)
    assert multiples_text(1.04, 1.04) == "1.04x"
    assert multiples_text(12.4, 30.6) == "12-31x"


def test_the_multiples_give_the_range_to_its_digits() -> None:
    # user audit 7: the post-training band's low end is +4.7% (presets/posttraining_time_bands.json, error_p10 of the
    # step), which two significant digits wrote "1.0x" beside "likely 28.6 s" for a 27.3 s step (4.5% off); each
    # multiple shown is now within half a percent of the one the range is computed with
    assert multiples_text(*band_multiples(0.0471, 1.0615)) == "1.05-2.06x"
    for error in (0.0471, 1.0615, -0.2425, 0.3461, -0.0007):
        factor = band_multiples(error, error)[0]
        assert abs(float(multiples_text(factor, factor)[:-1]) / factor - 1) < 0.005
    assert likely_range_words("50 s", "2.6 min", 0.9, 4.3, str) == "0.9-4.3x the model: likely 50 s to 2.6 min"
    # a range wholly above (below) the model's figure says so, naming the figure its estimate (user audit 11 item c:
    # "28.8 s" beside "likely 30.2 s to 55.8 s" read as a contradiction)
    assert (likely_range_words("55.2 s", "2.6 min", 1.5, 4.3, str)
            == "1.5-4.3x the model's estimate, above it: likely 55.2 s to 2.6 min")
    assert likely_range_words("8 s", "9 s", 0.8, 0.9, str) == "0.8-0.9x the model's estimate, below it: likely 8 s to 9 s"
    assert likely_range_words("10 s", "19 s", 1.004, 1.9, str).startswith("1.0-1.9x the model: ")  # 1x as shown: in it


def test_a_posttraining_step_whose_range_lies_above_it_says_the_multiples() -> None:
    # the GRPO 32B on 8 x H100 of the audit: the post-training band (presets/posttraining_time_bands.json) lies wholly
    # above 1 (the measured runs all took longer than their estimate), so the step is below its own range
    s = scenario_from_dict({"model": "qwen2.5-32b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
                            "framework": "trl", "training_objective": "grpo", "zero_stage": 3, "rollout_tp": 8,
                            "rollout_engine": "vllm", "rollout_placement": "colocate", "num_generations": 8,
                            "micro_batch": 8, "completion_len": 1024})
    t = step_time(s)
    assert t.band is not None and t.band.regime == POSTTRAINING_REGIME and t.band.low > 0
    low, high = t.seconds_range
    assert low > t.step_seconds  # the contradiction the words must explain
    text = render_time(t)
    assert (f"measured runs like this one came to {multiples_text(1 + t.band.low, 1 + t.band.high)} the model's "
            f"estimate, above it: likely {format_seconds(low)} to {format_seconds(high)} per step") in text


def test_time_to_train_gpu_hours_and_cost_carry_the_step_times_range() -> None:
    # user audit 6: "Time to train: 1.3 h, 10 GPU-hours, cost 25 USD" for a GRPO step that measured runs put at
    # 1.3-2.5x the model. Each of the three is tokens / (tokens per step / step time) (x GPUs, x price), so each
    # scales with the step: its range is the step's multiples (engine/timing/bands.py seconds_range) applied to it
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "a100-80gb", "method": "lora", "micro_batch": 4,
                            "seq_len": 4096, "tokens_to_train": 2 * 10**8, "gpu_hour_price": 2.0, "currency": "EUR"})
    t = step_time(s)
    assert t.band is not None and t.cost is not None and t.time_to_train_seconds is not None
    low, high = band_multiples(t.band.low, t.band.high)
    assert t.run_range(t.cost) == pytest.approx((t.cost * low, t.cost * high))
    out = time_to_json(t)
    assert out["time_to_train_seconds_range"] == pytest.approx([t.time_to_train_seconds * low,
                                                                t.time_to_train_seconds * high])
    assert out["gpu_hours_range"] == pytest.approx([t.gpu_hours * low, t.gpu_hours * high])
    assert out["cost_range"] == pytest.approx([t.cost * low, t.cost * high])
    line = next(x for x in render_time(t, currency="EUR").splitlines() if x.startswith("Time to train"))
    span = f"{format_seconds(t.time_to_train_seconds * low)} to {format_seconds(t.time_to_train_seconds * high)}"
    # under 100: to the cent (units.format_cost)
    assert f"likely {span}, " in line and f"cost {t.cost * low:,.2f} to {t.cost * high:,.2f} EUR" in line
    # no tokens to train: no run, so no range (and the JSON gains no key)
    bare = step_time(s.replace(tokens_to_train=None))
    assert "time_to_train_seconds_range" not in time_to_json(bare) and "Time to train" not in render_time(bare)


def test_a_step_scaled_to_the_users_measurement_has_no_published_range() -> None:
    # user audit 6: after "Use my measurement" the Time tab still said "measured runs like this one came to
    # 0.95-1.2x the model: likely ..." around the user's own measured step. The band is the model's error against
    # published runs (engine/timing/bands.py); a step scaled to this machine's measurement is no longer the model's
    # figure, so it has none (training and post-training alike)
    train = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "tokens_to_train": 10**9}
    grpo = {**train, "training_objective": "grpo", "rollout_engine": "vllm", "rollout_placement": "colocate"}
    for keys in (train, grpo):
        model = step_time(scenario_from_dict(keys))
        assert model.band is not None
        measured = {"measured_step_seconds": 2 * model.step_seconds, "predicted_step_seconds": model.step_seconds}
        t = step_time(scenario_from_dict({**keys, "time_calibration": measured}))
        assert t.step_seconds == pytest.approx(2 * model.step_seconds) and t.band is None
        assert "likely" not in render_time(t) and "step_seconds_range" not in time_to_json(t)


def test_sources_are_counted_in_words_not_source_s() -> None:
    # user audit 6: "checked against 24 measured runs of 9 source(s)" (serving) and "of 4 source(s)" (Time tab)
    from engine.range_words import sources_words
    from engine.serving import serving_speed
    from engine.serving.speed_band import speed_range_text
    from engine.workloads import estimate

    assert (sources_words(1, str), sources_words(9, str)) == ("one source", "9 sources")
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference",
                            "serving_engine": "vllm", "max_model_len": 8192})
    text = speed_range_text("vllm", serving_speed(s, estimate(s).serving), str)
    assert "source(s)" not in text and " sources (" in text
