"""The likely ranges' words (engine/range_words.py): a figure's range is the measured runs' 10th-90th percentile of
measured / estimated - 1 applied to it, so it need not hold the figure (user audit 5: a GRPO step of 36.7 s "likely
55.2 s to 2.6 min", a served 38 tokens/s "likely 16 to 26"); every surface says the multiples of the model first."""

from engine import scenario_from_dict
from engine.estimate_output import render_time
from engine.posttraining.time_band import POSTTRAINING_REGIME
from engine.range_words import band_multiples, likely_range_words, multiples_text
from engine.units import format_seconds
from engine.workloads import step_time


def test_multiples_read_as_the_band_says() -> None:
    # a band of -0.05..+0.21 (measured / estimated - 1) is 0.95x to 1.2x the model's figure
    assert multiples_text(*band_multiples(-0.05, 0.21)) == "0.95-1.2x"
    assert multiples_text(*band_multiples(0.5, 3.3)) == "1.5-4.3x"
    assert multiples_text(*band_multiples(-1.5, 0.1)) == "0.00-1.1x"  # a time's low end clamps at 0 (bands.py)
    assert multiples_text(1.04, 1.04) == "1.0x"
    assert likely_range_words("55.2 s", "2.6 min", 1.5, 4.3, str) == "1.5-4.3x the model: likely 55.2 s to 2.6 min"


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
    assert (f"measured runs like this one came to {multiples_text(1 + t.band.low, 1 + t.band.high)} the model: "
            f"likely {format_seconds(low)} to {format_seconds(high)} per step") in text
