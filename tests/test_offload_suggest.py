"""The offload suggestion under Megatron (engine/planning/offload_suggest.py): Megatron-Core's fractional optimizer
offload at the smallest share (in steps of 0.05) with which the job fits, checked against the engine's own estimate
one step below it; elsewhere DeepSpeed's whole-optimizer offload as before. The layout is the Megatron-Bridge skills
card's Qwen3-30B-A3B one (tests/data/published/throughput/megatron-bridge-skills-offload.json), made too large for
its GPUs by longer sequences without recompute."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.planning.suggest import suggestions

ROWS = json.loads((Path(__file__).parent / "data/published/throughput/megatron-bridge-skills-offload.json").read_text())
CARD = next(r["scenario"] for r in (ROWS if isinstance(ROWS, list) else ROWS["rows"]) if r["id"].endswith("25pct"))
TIGHT = {**CARD, "offload": "none", "optimizer_offload_fraction": 0.0, "checkpointing": "none"}


def _offload(s):
    return next(sug for sug in suggestions(s) if "offload" in sug.changes)


@pytest.mark.parametrize("seq_len", [10240, 12288])
def test_megatron_gets_the_smallest_fraction_that_fits(seq_len: int) -> None:
    s = scenario_from_dict({**TIGHT, "seq_len": seq_len})
    assert not estimate(s).fits
    sug = _offload(s)
    fraction = sug.changes["optimizer_offload_fraction"]
    assert sug.changes["offload"] == "optimizer" and 0 < fraction < 1 and sug.fits
    below = s.replace(offload="optimizer", optimizer_offload_fraction=round(fraction - 0.05, 2))
    assert not estimate(below).fits  # one step less does not fit
    assert f"{fraction:.0%}" in str(sug.title)


def test_other_frameworks_keep_the_whole_optimizer_offload() -> None:
    s = scenario_from_dict({**TIGHT, "framework": "deepspeed", "seq_len": 12288})
    assert _offload(s).changes == {"offload": "optimizer"}


def test_make_it_fit_offers_megatron_the_same_share() -> None:
    """The plan search's offload axis under Megatron: quarters of the optimizer (fit_options.py HYBRID_FRACTIONS), the
    smallest that fits among them, and never the whole-optimizer offload Megatron does not have."""
    from engine.planning.solver import plan_search

    s = scenario_from_dict({**TIGHT, "seq_len": 12288})
    # all the plans, not the first 8: more GPUs (disruption 10.7) ranks above the offload share (11.75) since
    # Megatron's distributed optimizer carries no DeepSpeed bucket (engine/memory/stage_states.py)
    plans = [p for p in plan_search(s, max_plans=30).plans if "offload" in p.changes]
    assert plans and all(p.changes.get("optimizer_offload_fraction") for p in plans if p.changes["offload"] == "optimizer")
    fraction = next(p.changes["optimizer_offload_fraction"] for p in plans if p.changes["offload"] == "optimizer")
    # the smallest quarter at or above the suggestion's smallest 5% step that fits (0.70 -> 0.75)
    smallest = _offload(s).changes["optimizer_offload_fraction"]
    assert fraction == math.ceil(round(smallest / 0.25, 6)) * 0.25
    assert not estimate(s.replace(offload="optimizer", optimizer_offload_fraction=fraction - 0.25)).fits
