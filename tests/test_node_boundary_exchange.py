"""The pipeline's stages next to a node boundary (engine/timing/node_boundary.py). Expected values come from the rank
order the codes use (the pipeline outermost: sail-sg/zero-bubble-pipeline-parallelism f68d3879
megatron/core/parallel_state.py lines 378-379, DeepSpeed's PipeModelDataParallelTopology) and from the links of
presets/gpus.json (DGX A100: NVLink 3, one 200 Gb/s NIC per GPU) with the collective fractions of
presets/efficiency.json, rebuilt here through p2p_link."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.ceiling import without_ceilings
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.links import p2p_link
from engine.timing.model import rates_for
from engine.timing.node_boundary import crossing_seconds, crossing_stages, crossing_transfers
from engine.timing.pipeline import pipeline_seconds

ZB_28B_1F1B = "zb-pp-t4-28.3b-32xa100-b1-m128-1f1b"  # arXiv:2401.10241 Table 4: 28.3B, PP 32 on 4 nodes of 8 A100s


def _row(row_id: str) -> dict:
    return next(r for r in load_rows() if r["id"] == row_id)["scenario"]


def _s(**kw):
    return scenario_from_dict({**_row(ZB_28B_1F1B), **kw})


def test_a_node_of_eight_holds_eight_stages_of_one_gpu():
    """TP 1, DP 1: each pipeline group is range(i, 32, 1), stages 8 GPUs a node: stages 7 | 8, 15 | 16 and 23 | 24
    sit on either side of a boundary."""
    s = _s()
    assert crossing_stages(s, hardware_for(s)) == (7, 8, 15, 16, 23, 24)


def test_no_crossing_stage_where_every_exchange_crosses_or_none_does():
    """A stage of 8 ranks or more fills a node (every exchange crosses: link() prices them so already); a pipeline
    inside one node crosses nothing."""
    wide = _s(tp=4, gpus_per_node=8, nodes=48, pp=12)  # TP 4 x DP 8 a stage, BigScience's grid
    one_node = _s(nodes=1, pp=8)
    assert crossing_stages(wide, hardware_for(wide)) == ()
    assert crossing_stages(one_node, hardware_for(one_node)) == ()


def test_a_crossing_transfer_costs_the_nic_instead_of_nvlink():
    """One activation of the 28.3B (micro-batch 1 x 1,024 tokens x hidden 6,144, fp16: 12.6 MB) over the GPU's own
    NIC (25 GB/s x 0.9, 20 us) instead of NVLink (300 GB/s x 0.8, 10 us)."""
    s = _s()
    hw = hardware_for(s)
    act = 1024 * 6144 * 2
    (inter, inter_lat), (intra, intra_lat) = p2p_link(hw, 9, 8), p2p_link(hw, 8, 8)
    assert (inter, intra) == pytest.approx((25e9 * 0.9, 300e9 * 0.8))
    assert crossing_seconds(s, hw, act, 1) == pytest.approx(act / inter + inter_lat - act / intra - intra_lat)
    # 12,582,912 B / 22.5 GB/s - 12,582,912 B / 240 GB/s + (20 - 10) us = 0.517 ms
    assert crossing_seconds(s, hw, act, 1) == pytest.approx(0.517e-3, rel=1e-3)


def test_transfers_that_cross_by_schedule():
    """Megatron-LM's blocking 1F1B waits on one exchange with the neighbour across (each a send and a receive at
    once); DeepSpeed's TrainSchedule on two of its four transfers; nothing where the schedule does not block."""
    s = _s()
    assert crossing_transfers(s, framework_profile("megatron-zb"), True) == 1
    assert crossing_transfers(s, framework_profile("deepspeed-2022"), True) == 2
    assert crossing_transfers(s, framework_profile("megatron-zb"), False) == 0


def test_the_slack_of_the_busiest_stage_absorbs_the_crossing():
    """The period is max over stages of (stage + its exchanges): a boundary stage shorter than the busiest by more
    than its crossing adds nothing; one as busy adds grad_accum crossings."""
    s = _s()
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    plain, _ = pipeline_seconds(s, spec, hw, rates, prof, 0.0)
    slack_free, _ = pipeline_seconds(s, spec, hw, rates, prof, 0.0, 0.0)
    absorbed, _ = pipeline_seconds(s, spec, hw, rates, prof, 0.0, 1.0)
    act = s.micro_batch * s.seq_len * spec.hidden * rates.elem_bytes
    assert slack_free - plain == pytest.approx(s.grad_accum * crossing_seconds(s, hw, act, 1))
    assert absorbed == pytest.approx(plain)


def test_the_zero_bubble_forks_asynchronous_schedules_are_left_alone():
    """ZB-1P / ZB-2P post their exchanges asynchronously (zero_bubble.py): no crossing added; the 1F1B twin of the
    same layout gains its grad_accum crossings (its middle stages are the busiest: no slack)."""
    zb, f1b = _s(pp_schedule="zb-2p"), _s()
    hw = hardware_for(f1b)
    with without_ceilings():
        zb_comm = step_time(zb).breakdown_seconds["communication_pp"]
        f1b_comm = step_time(f1b).breakdown_seconds["communication_pp"]
    spec, prof = resolve_model(zb), framework_profile(zb.framework)
    rates = rates_for(zb, hw, prof)
    assert zb_comm == pytest.approx(pipeline_seconds(zb, spec, hw, rates, prof, 0.0)[0])
    act = f1b.micro_batch * f1b.seq_len * spec.hidden * rates.elem_bytes
    assert f1b_comm - pipeline_seconds(f1b, spec, hw, rates, prof, 0.0)[0] == pytest.approx(
        f1b.grad_accum * crossing_seconds(f1b, hw, act, 1))
