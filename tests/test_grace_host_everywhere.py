"""The Grace host factor (presets/host_overhead.json host_speed: Megatron-LM's host-bound CI steps take 1.54x as long
on GB200 as on a DGX H100, tests/data/megatron_ci_iteration_time.json; NVIDIA/TransformerEngine issue #2053 timed one
torch.nn.Linear forward's host side at 33.17 us on GH200 against 13.48 us on a DGX H100's Xeon) applies to every host
launch and Python call the time model costs, not only the layers' launches: DeepSpeed 2021's ZeRO-3 gathers and
reduce-scatters (engine/timing/zero3_sync.py), InternEvo's per-bucket synchronize gap (data_parallel.py
bucket_sync_gap_seconds) and bitsandbytes' per-tensor optimizer syncs (offload.py). The device round trip
(sync_seconds) is not a host speed and stays unscaled."""

from __future__ import annotations

import pytest

from engine.scenario import scenario_from_dict
from engine.timing.data_parallel import bucket_sync_gap_seconds
from engine.timing.host import host_call_seconds, host_figures
from engine.timing.zero3_sync import GATHER_LOOP_VIEWS, GATHER_OWN_LAUNCHES, Link, gather_seconds, reduce_seconds

FIG = host_figures()
LAUNCH, VIEW, SYNC = (FIG[k]["value"] for k in ("launch_seconds", "view_seconds", "sync_seconds"))


def _on(gpu: str):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": gpu})


def test_grace_hosts_are_slower_and_others_keep_the_preset():
    factor = FIG["host_speed"]["factor"]["gb200"]
    assert factor > 1.0  # 1.54, the median GB200 / DGX H100 ratio of Megatron-LM's host-bound CI steps
    assert host_call_seconds(_on("gb200")) == pytest.approx((LAUNCH * factor, VIEW * factor))
    assert host_call_seconds(_on("h100-sxm-80gb")) == pytest.approx((LAUNCH, VIEW))


def test_zero3_gather_and_reduce_scale_their_host_parts_only():
    link = Link(seconds_per_byte=1e-11, gather_latency=1e-5, reduce_latency=1e-5, memory_bytes_per_s=2e12)
    ranks, compute = 64, 10.0  # the transfer hides behind the compute: what is left is the host's
    grace = host_call_seconds(_on("gb200"))
    plain = gather_seconds(1e6, ranks, 2, link, compute)
    slow = gather_seconds(1e6, ranks, 2, link, compute, grace)
    host_part = lambda launch, view: GATHER_OWN_LAUNCHES * launch + ranks * GATHER_LOOP_VIEWS * view + ranks * launch  # noqa: E731
    assert slow - plain == pytest.approx(host_part(*grace) - host_part(LAUNCH, VIEW))
    assert 2 * SYNC < plain  # the two synchronizes are in both
    # a reduce-scatter behind no backward: the slower host can only lengthen it
    assert reduce_seconds([1e6] * 4, ranks, 2, link, 0.0, grace) >= reduce_seconds([1e6] * 4, ranks, 2, link, 0.0)


def test_internevo_bucket_gap_scales_launches_not_round_trips():
    tensors, buckets = 291, 14
    gb, h100 = bucket_sync_gap_seconds(_on("gb200"), tensors, buckets), bucket_sync_gap_seconds(
        _on("h100-sxm-80gb"), tensors, buckets)
    assert h100 == pytest.approx(buckets * SYNC + (tensors + 3 * buckets) * LAUNCH)
    assert gb - h100 == pytest.approx((tensors + 3 * buckets) * (host_call_seconds(_on("gb200"))[0] - LAUNCH))
