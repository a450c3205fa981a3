"""Megatron-Core's fractional optimizer CPU offload (optimizer_offload_fraction, HybridDeviceOptimizer), held by the
measured runs of NVIDIA-NeMo/Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading/card.yaml at 067f987d
(Qwen3-30B-A3B pretraining, TP2 PP2 EP4 on 16 H100, GBS 8: iter_ms 996 / 1,871 / 2,484 / 3,187 / 4,189 at fractions
0 / 0.25 / 0.5 / 0.75 / 1.0, 3,877 at 1.0 with overlap_cpu_optimizer_d2h_h2d; mem_allocated_gb 47.2 / 43.4 / 39.6 /
35.6 / 32.0) and the code of megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py at 2a75ac12."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.memory.estimate import estimate
from engine.scenario import scenario_from_dict
from engine.timing.hardware import hardware_for
from engine.timing.hybrid_offload import hybrid_offload_seconds
from engine.timing.model import step_time
from engine.timing.step_result import BREAKDOWN_KEYS

PART = Path(__file__).parent / "data" / "published" / "throughput" / "megatron-bridge-skills-offload.json"
ROWS = {r["id"].rsplit("-", 1)[-1]: r for r in json.loads(PART.read_text(encoding="utf-8"))["rows"]}
MEASURED_MS = {"baseline": 996, "25pct": 1871, "50pct": 2484, "75pct": 3187, "100pct": 4189}  # the card's iter_ms


def _scenario(name: str, **changes):
    return scenario_from_dict({**ROWS[name]["scenario"], **changes})


def _states(s) -> dict[str, float]:
    return {c.key: c.moments.optimizer for c in estimate(s).stages[0].components if c.category == "model states"}


def test_the_offloaded_share_of_the_moments_leaves_the_gpu_and_nothing_else():
    """hybrid_optimizer.py _get_sub_optimizer_param_groups: the first fraction of the shard's elements is cloned to
    the CPU, where torch's AdamW makes its moments; the GPU keeps the fp32 main parameters (the distributed
    optimizer's, updated by the H2D copy) and the main-gradient buffer."""
    base = _states(_scenario("baseline"))
    for f in (0.25, 0.5, 0.75, 1.0):
        moved = _states(_scenario("baseline", offload="optimizer", optimizer_offload_fraction=f))
        assert moved["weights"] == base["weights"] and moved["gradients"] == base["gradients"]
        assert moved["master_weights"] == base["master_weights"]
        assert moved.get("optimizer_states", 0.0) == pytest.approx(base["optimizer_states"] * (1 - f))
    # the card: 15.3 GB saved at 100% (47.2 -> 32.0 GB, Megatron-Bridge's mem-allocated-gigabytes, 1e9 bytes)
    assert base["optimizer_states"] / 1e9 == pytest.approx(15.3, rel=0.02)


def test_fraction_zero_and_other_frameworks_keep_the_whole_optimizer_offload():
    """Default 0: the offload key as before (master weights, states and gradients on the CPU, ZeRO-Offload); the key
    is Megatron's and other frameworks ignore it."""
    whole = _scenario("baseline", offload="optimizer")
    assert _states(whole) == _states(_scenario("baseline", offload="optimizer", optimizer_offload_fraction=0.0))
    assert "master_weights" not in _states(whole) and not _states(whole).get("gradients")
    ds = {**ROWS["baseline"]["scenario"], "framework": "deepspeed", "zero_stage": 1, "offload": "optimizer"}
    for key in ("etp", "moe_token_dispatcher_type", "main_grads_fp32", "moe_a2a_overlap", "cross_entropy"):
        ds.pop(key, None)
    assert step_time(scenario_from_dict(ds)).step_seconds == step_time(
        scenario_from_dict({**ds, "optimizer_offload_fraction": 0.5})).step_seconds


def test_offload_time_is_linear_in_the_fraction_and_the_overlap_leaves_the_cpu_work():
    """Without overlap the CPU AdamW and the two copies run in sequence (hybrid_optimizer.py step: d2h on the
    current stream, then the CPU step, then the post-hook H2D); with it the copies run beside the CPU steps."""
    s = _scenario("baseline", offload="optimizer", optimizer_offload_fraction=1.0)
    hw = hardware_for(s)
    owned = 1.91e9  # the card's 100% run: 15.3 GB of Adam moments at 8 bytes a parameter
    full = hybrid_offload_seconds(s, hw, owned, 1.0)
    assert hybrid_offload_seconds(s, hw, owned, 0.25) == pytest.approx(full / 4)
    copies_and_cpu = full - hybrid_offload_seconds(s, hw, owned, 1.0, overlap=True)
    assert 0 < copies_and_cpu < 0.15 * full  # the copies are the small part (the card: overlap saves ~7%)


def test_added_step_time_follows_the_card():
    """The per-thread CPU AdamW rate (presets/efficiency.json megatron_cpu_adam) is derived from the 100% run's
    added time: it reproduces that difference, and predicts the 25/50/75% runs' added time within 10% and the
    overlapped 100% run's (3,877 - 996 = 2,881 ms) within 2%, none of which it was taken from."""
    base = step_time(_scenario("baseline")).step_seconds
    for name in ("25pct", "50pct", "75pct", "100pct"):
        added = step_time(_scenario(name)).step_seconds - base
        measured = (MEASURED_MS[name] - MEASURED_MS["baseline"]) / 1000
        assert added == pytest.approx(measured, rel=0.10 if name != "100pct" else 0.01), name
    # the overlapped run: the same step with the offload term's copies hidden behind its CPU work (the ratio of
    # hybrid_offload_seconds with and without overlap does not depend on the stage's size)
    s = _scenario("100pct")
    hw = hardware_for(s)
    hidden = 1 - hybrid_offload_seconds(s, hw, 1.91e9, 1.0, overlap=True) / hybrid_offload_seconds(s, hw, 1.91e9, 1.0)
    timed = step_time(s)
    offload = dict(zip(BREAKDOWN_KEYS, timed.seconds, strict=True))["offload"]
    added_with_overlap = timed.step_seconds - base - hidden * offload
    assert added_with_overlap == pytest.approx((3877 - MEASURED_MS["baseline"]) / 1000, rel=0.02)
