"""A model served on one pool of memory says why its capacity is a share of the machine's memory (user audit 8): a
Mac user serving with llama.cpp on a 64 GB M4 Max read "9.31 GiB of 48.00 GiB" with no word why, where the same Mac
training read that the CPU and the GPU share one pool and the GPU may use about 75% of it (Metal's
recommendedMaxWorkingSetSize: presets/gpus.json usable_fraction cites the measurements). The expected share is the
preset's own usable_fraction."""

from __future__ import annotations

import json
from pathlib import Path

from engine.cli import main as cli_main
from engine.models.presets import get_gpu
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

SERVE = json.loads((Path(__file__).parent.parent / "examples" / "serve-llama3.1-8b-q4km-llamacpp.json").read_text())


def test_a_mac_serving_says_the_pool_is_shared():
    est = estimate(scenario_from_dict({**SERVE, "gpu": "apple-m4-max-64gb"}))
    share = round(get_gpu("apple-m4-max-64gb").usable_fraction * 100)
    words = [str(w) for w in est.warnings]
    assert any("share one pool of 64.00 GiB" in w and f"about {share}% of it" in w for w in words)


def test_a_card_of_its_own_memory_says_nothing():
    assert estimate(scenario_from_dict(SERVE)).warnings == ()  # an RTX 4090: no shared pool


def test_the_text_prints_it(tmp_path, capsys):
    path = tmp_path / "mac.json"
    path.write_text(json.dumps({**SERVE, "gpu": "apple-m4-max-64gb"}))
    assert cli_main(["estimate", str(path)]) == 0
    assert "Warning: Apple M4 Max 64GB: the CPU and the GPU share one pool" in capsys.readouterr().out
