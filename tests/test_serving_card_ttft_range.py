"""The plan card and its Markdown give the first token's likely range as `estimate` and the Users tab do (user audit
9: the card said "Time to first token 14.4 s" alone where `estimate` said "first token 0.85-1.49x the model: likely
12.3 s to 21.5 s"). The range is the measured runs' band (presets/serving_speed_bands.json, engine/serving/speed_band.py
speed_ranges) around the model's figure, the same one `estimate` prints."""

from __future__ import annotations

import json
from pathlib import Path

from engine.report import to_markdown
from engine.scenario import scenario_from_dict
from engine.serving.speed import serving_speed
from engine.serving.speed_band import speed_range_text, speed_ranges
from engine.units import format_seconds
from engine.workloads import estimate

EXAMPLE = json.loads((Path(__file__).parent.parent / "examples" / "serve-qwen3-32b-awq-2x4090.json").read_text())


def test_the_card_gives_the_first_tokens_range_under_its_figure():
    s = scenario_from_dict(EXAMPLE)
    est = estimate(s)
    speed = serving_speed(s, est.serving)
    r = speed_ranges(est.serving.engine, speed)["ttft_seconds"]
    likely = f"likely {format_seconds(r.low)} to {format_seconds(r.high)}"
    assert likely in speed_range_text(est.serving.engine, speed, str)  # what `estimate` prints under the speed
    lines = to_markdown(s, est).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| Time to first token |"))
    assert lines[first + 1].startswith("| Time to first token, measured runs like this one (8 in 10) |")
    assert likely in lines[first + 1]


def test_the_markdown_verdict_closes_the_engines_sentence_once():
    """The room of a served model is the engine's own sentence ("vLLM starts with 10.32 GiB for the KV cache."): set in
    brackets it read "(vLLM starts with 10.32 GiB for the KV cache.); estimator ..." (user audit 9)."""
    s = scenario_from_dict(EXAMPLE)
    est = estimate(s)
    reason = est.serving.reason.format_with(str)
    assert reason.endswith(".")
    verdict = to_markdown(s, est).splitlines()[2]
    assert f"({reason[:-1]}); estimator" in verdict and ".)" not in verdict
