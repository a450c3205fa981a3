"""The plan card of a served plan with presets/serving_speed_bands.json damaged (h-fuzz12 item d): the card read the
measured runs' spread with no guard, so exporting the card (the window's and engine/report.py's Markdown) raised the
PresetError. The card now keeps its figures and cost without the ranges and says, in one sentence, which file is
damaged, as gui/serving_rows.py speed_words does."""

from __future__ import annotations

import shutil

from fuzz_surfaces11 import PLANS, presets_copy

from engine.models.presets import PRESETS_DIR
from engine.plan_card import card_facts
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

# Qwen3-32B AWQ served by vLLM on 2 x RTX 4090 (tests/fuzz_surfaces11.py), with a price: the cost rows read the range
SERVED = {**PLANS[2], "gpu_hour_price": 0.7, "currency": "USD"}


def _facts():
    s = scenario_from_dict(SERVED)
    return card_facts(s, estimate(s), None)


def test_a_damaged_bands_file_gives_the_card_without_its_ranges_and_names_the_file(tmp_path):
    whole = _facts()
    labels = [str(label) for label, _ in whole.time_rows]
    ranged = [label for label in labels if "measured runs like this one" in label or label.endswith("range")]
    assert len(ranged) == 4  # tokens/s, time per token, first token, and the cost's range, from the intact file
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    raw = (PRESETS_DIR / "serving_speed_bands.json").read_bytes()
    (copy / "serving_speed_bands.json").write_bytes(raw[: len(raw) // 2])
    with presets_copy(copy):
        cut = _facts()
    cut_labels = [str(label) for label, _ in cut.time_rows]
    # the same figures and cost, less the range rows
    assert cut_labels == [label for label in labels if label not in ranged]
    assert any("A million output tokens" == label for label in cut_labels)
    named = [str(m) for m in cut.sentences if "serving_speed_bands.json" in str(m)]
    assert len(named) == 1 and "\n" not in named[0]
    assert cut.no_time is None
