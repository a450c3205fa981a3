"""DeepSpeed's pipeline engine and gradient accumulation in the time model (issue 23 item 5: BigScience's layout
experiments), each expected value from the framework's source."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows, source_of
from engine.memory.states import dtypes_for
from engine.scenario import resolve_model
from engine.timing.data import framework_profile
from engine.timing.data_parallel import accumulation_seconds, data_parallel_seconds
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for
from tests.stage_work import StageStub as _Stage


def _s(**kw):
    base = {"model": "llama-3-8b", "gpu": "a100-80gb", "precision": "mixed-fp16", "framework": "deepspeed",
            "gpus_per_node": 8, "micro_batch": 1, "seq_len": 2048, "zero_stage": 1}
    return scenario_from_dict({**base, **kw})


def _parts(s):
    hw = hardware_for(s)
    prof = framework_profile(s.framework)
    return hw, prof, rates_for(s, hw, prof), dtypes_for(s)


def test_each_later_micro_batch_adds_its_gradients_in_a_pass_of_its_own():
    """Autograd's AccumulateGrad runs variable_grad += new_grad (pytorch/pytorch
    torch/csrc/autograd/functions/accumulate_grad.h): 2 reads and 1 write of the gradient per parameter, for each
    micro-batch after the first; the fp16 gradients DeepSpeed ZeRO-1 keeps are 2 bytes."""
    s = _s(grad_accum=8)
    hw, prof, rates, dt = _parts(s)
    assert dt.grad == 2
    expected = 7 * 3 * 2 * _Stage.trainable / rates.memory
    assert accumulation_seconds(s, prof, rates, dt, _Stage()) == pytest.approx(expected)
    # one micro-batch: nothing to add; ZeRO-2/3 reduce each micro-batch's gradients into a shard instead
    assert accumulation_seconds(_s(grad_accum=1), prof, rates, dt, _Stage()) == 0.0
    assert accumulation_seconds(_s(grad_accum=8, zero_stage=3), prof, rates, dt, _Stage()) == 0.0
    # Megatron-LM's gradient_accumulation_fusion adds in the weight-gradient GEMM: no column, no pass
    meg = _s(grad_accum=8, framework="megatron")
    assert accumulation_seconds(meg, framework_profile("megatron"), rates, dt, _Stage()) == 0.0


def test_the_pipeline_engine_reduces_gradients_after_its_schedule():
    """DeepSpeed's PipelineEngine turns the backward all-reduce off and its TrainSchedule reduces the gradients at
    the last step of the batch (deepspeed/runtime/pipe/engine.py, schedule.py at 2151c78): under PP nothing hides
    the reduce, as if no backward overlapped it; without PP the last micro-batch's backward still does."""
    def comm(profile_changes, **kw):
        s = _s(nodes=4, grad_accum=8, **kw)
        hw, prof, rates, dt = _parts(s)
        return data_parallel_seconds(s, hw, {**prof, **profile_changes}, rates, dt, _Stage(), resolve_model(s))[0]

    piped = comm({}, tp=8, pp=2)
    assert piped == pytest.approx(comm({"dp_overlap": 0.0}, tp=8, pp=2))
    assert piped > comm({"pipeline_reduce_after_schedule": False}, tp=8, pp=2)
    assert comm({}, tp=8) == pytest.approx(comm({"pipeline_reduce_after_schedule": False}, tp=8))


def test_bigscience_rows_state_jean_zays_network():
    """Jean Zay's A100 nodes: 8 GPUs and 4 Omni-Path links of 100 Gb/s (bigscience-workshop/bigscience
    jz/hpc-specs.md at 9e64ede, section JZ3), 4 x 100e9 / 8 bits / 8 GPUs bytes/s per GPU."""
    rows = [r for r in load_rows() if source_of(r) == "bigscience-workshop/bigscience"]
    assert len(rows) >= 100
    for r in rows:
        assert r["scenario"]["gpus_per_node"] == 8, r["id"]
        assert r["scenario"]["inter_node_bandwidth_bytes_per_s"] == 4 * 100e9 / 8 / 8, r["id"]


# bigscience-workshop/bigscience experiments/bandwidth/all_reduce_bench-a100-n4.txt at 9e64ede: all_reduce_bench.py
# (a 4 GB fp32 all_reduce over 4 nodes x 8 A100s, 5 trials) prints a busbw per rank and trial; after the first trial
# (connection set-up, 14.7-15.7 Gbps) the 128 lines run 40.49 to 40.83 Gbps, median 40.55 Gbps
JEAN_ZAY_RING_BUSBW = 40.55e9 / 8


def test_bigscience_prequel_rows_state_the_measured_ring_bandwidth():
    """The prequel's rows (February 2022) state the ring bandwidth the repository's own NCCL benchmark measured on
    these nodes (January 2022); the BLOOM-176B run (March to July 2022) does not: no figure of its time is published."""
    rows = [r for r in load_rows() if source_of(r) == "bigscience-workshop/bigscience"]
    prequel = [r for r in rows if r["id"].startswith("bigscience-prequel-")]
    assert len(prequel) >= 100
    for r in rows:
        stated = r["scenario"].get("inter_node_ring_bandwidth_bytes_per_s")
        assert stated == (JEAN_ZAY_RING_BUSBW if r in prequel else None), r["id"]


def test_a_ring_across_nodes_runs_no_faster_than_its_measured_bandwidth():
    """NCCL 2.10.3 on Jean Zay ran both channels of the benchmark's ring into a node at its GPU 0 'via NET/IB/1' and
    out of it from its GPU 7 'via NET/IB/3' (all_reduce_bench-a100-n4.txt): a ring's GPUs in a node share one NIC
    pair, so the data-parallel ring of TP 4 (2 GPUs a node) or TP 2 (4) gets the measured busbw, not 2 or 4 NICs'
    worth; TP 8's ring (1 GPU a node) is held to it too; without the key nothing changes."""
    from engine.timing.links import collective_link, link

    network = 4 * 100e9 / 8 / 8
    for tp in (8, 4, 2):
        stated, plain = (hardware_for(_s(nodes=48, tp=tp, inter_node_bandwidth_bytes_per_s=network, **ring))
                         for ring in ({"inter_node_ring_bandwidth_bytes_per_s": JEAN_ZAY_RING_BUSBW}, {}))
        span, members = tp * 16, 8 // tp  # 16 data-parallel ranks, tp apart
        assert link(plain, span, 8, tp)[0] == pytest.approx(members * network * 0.9)  # 90% of the NICs' line rate
        assert collective_link(stated, span, 8, tp)[0] == pytest.approx(min(members * network * 0.9,
                                                                            JEAN_ZAY_RING_BUSBW))
        assert collective_link(plain, span, 8, tp) == link(plain, span, 8, tp)
        # inside a node the ring never meets the network
        assert collective_link(stated, 8, 8, 1) == link(stated, 8, 8, 1)

    def reduce_seconds(**ring):
        s = _s(nodes=48, tp=4, pp=6, grad_accum=32, inter_node_bandwidth_bytes_per_s=network, **ring)
        hw, prof, rates, dt = _parts(s)
        return data_parallel_seconds(s, hw, prof, rates, dt, _Stage(), resolve_model(s))[0]

    # DP 16 at TP 4: 2 GPUs a node in each ring, 2 x 5.6 GB/s without the measured figure, 5.07 GB/s with it
    assert reduce_seconds(inter_node_ring_bandwidth_bytes_per_s=JEAN_ZAY_RING_BUSBW) > 2 * reduce_seconds()


def test_the_pipeline_engine_sends_tp_parts_and_blocks_on_each_transfer():
    """DeepSpeed's PipelineEngine sends a PartitionedTensor (1/tp of the activation per TP rank, all-gathered over
    the TP group on arrival) and its TrainSchedule blocks on RecvActivation, SendGrad, SendActivation and RecvGrad in
    turn (deepspeed/runtime/pipe/engine.py, schedule.py at 2151c78): four transfers of 1/tp per micro-batch; a
    schedule that pairs its sends (no column) waits for two transfers of the whole activation. A middle stage
    rebuilds three whole tensors a micro-batch with PartitionedTensor.full() (the received activation in
    _exec_forward_pass, its own output again in _exec_backward_pass, the received gradient), each one all-gather and
    5 bytes moved per byte of the whole tensor (torch.zeros, ProcessGroupNCCL allgather's copy of its flat output
    into the list of views, .clone()), and clones the parts it receives twice and sends once (8 bytes per byte of
    a part). With two stages there is no middle one: the first receives no activation, and the last returns from
    _exec_backward_pass before rebuilding its own output and receives no gradient, so the busiest rebuilds two."""
    from engine.timing.links import link, nvlink_domain
    from engine.timing.pipeline import pipeline_seconds

    s = _s(nodes=4, tp=8, pp=2, grad_accum=16, micro_batch=2)
    hw, prof, rates, _ = _parts(s)
    spec = resolve_model(s)
    act = 2 * 2048 * spec.hidden * rates.elem_bytes
    pp_link, pp_lat = link(hw, 8 * s.dp * 2, nvlink_domain(s, hw), 8 * s.dp)
    tp_link, tp_lat = link(hw, 8, nvlink_domain(s, hw))
    gather = 7 * act / 8 / tp_link + tp_lat
    rebuilds = 2 * (gather + 5 * act / rates.memory) + 8 * act / 8 / rates.memory
    comm = pipeline_seconds(s, spec, hw, rates, prof, 1.0)[0]
    assert comm == pytest.approx(16 * (4 * (act / 8 / pp_link + pp_lat) + rebuilds))
    three = _s(nodes=6, tp=8, pp=3, grad_accum=16, micro_batch=2)
    hw3, prof3, rates3, _ = _parts(three)
    pp3_link, pp3_lat = link(hw3, 8 * three.dp * 2, nvlink_domain(three, hw3), 8 * three.dp)
    middle = 3 * (gather + 5 * act / rates3.memory) + 8 * act / 8 / rates3.memory
    assert pipeline_seconds(three, spec, hw3, rates3, prof3, 1.0)[0] == pytest.approx(
        16 * (4 * (act / 8 / pp3_link + pp3_lat) + middle))
    plain = {k: v for k, v in prof.items() if not k.startswith("pipeline_")}
    assert pipeline_seconds(s, spec, hw, rates, plain, 1.0)[0] == pytest.approx(16 * 2 * (act / pp_link + pp_lat))


def _one_f_one_b_makespan(forward: list[float], backward: list[float], micro_batches: int) -> float:
    """Finish time of a 1F1B schedule (each stage: warm-up forwards, then one forward and one backward in turn, then
    the remaining backwards; Megatron-LM's schedule and DeepSpeed's TrainSchedule order the work this way), every
    forward after the previous stage's, every backward after the next stage's, one operation at a time per stage."""
    p, m = len(forward), micro_batches
    orders = []
    for s in range(p):
        warm = min(p - s - 1, m)
        order = [("F", j) for j in range(warm)]
        for j in range(m - warm):
            order += [("F", warm + j), ("B", j)]
        orders.append(order + [("B", j) for j in range(m - warm, m)])
    done: dict[tuple[str, int, int], float] = {}
    clock, pos = [0.0] * p, [0] * p
    while any(pos[s] < len(orders[s]) for s in range(p)):
        for s in range(p):
            while pos[s] < len(orders[s]):
                kind, j = orders[s][pos[s]]
                dep = ("F", s - 1, j) if kind == "F" and s > 0 else ("B", s + 1, j) if kind == "B" and s < p - 1 \
                    else ("F", s, j) if kind == "B" else None
                if dep is not None and dep not in done:
                    break
                start = max(clock[s], done[dep] if dep is not None else 0.0)
                clock[s] = done[(kind, s, j)] = start + (forward[s] if kind == "F" else backward[s])
                pos[s] += 1
    return max(clock)


def test_a_1f1b_schedule_ends_after_every_stage_once_and_the_busiest_m_minus_1_times():
    """The makespan engine/timing/pipeline.py stages_once stands on: (m - 1) x max(f_s + b_s) + sum(f_s + b_s) for a
    pipeline whose last stage (the LM head) is the heaviest; (pp - 1) x the busiest would overcount the bubble."""
    forward, backward = [1.0] * 5 + [1.3], [3.0] * 5 + [3.9]
    for m in (8, 32):
        stages = [f + b for f, b in zip(forward, backward, strict=True)]
        expected = (m - 1) * max(stages) + sum(stages)
        assert _one_f_one_b_makespan(forward, backward, m) == pytest.approx(expected)
        assert expected < (m + len(stages) - 1) * max(stages)
        # a heavier first stage overlaps its warm-up forwards: the same sum is an upper bound there
        assert _one_f_one_b_makespan(forward[::-1], backward[::-1], m) <= expected + 1e-9


def test_the_bubble_is_every_stage_but_the_busiest_once():
    """m micro-batches through stages of s_i seconds each end after (m - 1) x max(s_i) + sum(s_i) (DeepSpeed's
    TrainSchedule and 1F1B alike): the bubble is sum(s_i) - max(s_i), not (pp - 1) x max(s_i), where the last stage
    carries the LM head. Megatron (no blocking, no TP split), one node, no data parallelism: the step's per-micro-
    batch terms are the busiest stage's."""
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "precision": "bf16",
                            "gpus_per_node": 8, "tp": 2, "pp": 4, "grad_accum": 32, "seq_len": 4096})
    from engine.timing import step_time

    t = step_time(s).breakdown_seconds
    busiest = sum(t[k] for k in ("compute", "memory_bound", "recompute", "communication_tp")) / 32
    sends = t["communication_pp"] / 32  # two transfers per micro-batch
    assert t["bubble"] < 3 * (busiest + sends)
    assert t["bubble"] > 3 * sends  # the other stages' compute is there
