"""Megatron-Core's interleaved 1F1B exchanges under overlap_p2p_comm (engine/timing/overlapped_p2p.py), checked against
a simulation of the schedule as its code orders it (tests/interleaved_schedule.py)."""

import json
from pathlib import Path

from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.overlapped_p2p import overlapped_exchange_seconds
from tests.interleaved_schedule import simulated_step

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "zero-bubble-2024.json"


def test_simulation_reproduces_the_interleaved_bubble():
    # without exchanges the step is m x vpp chunk pairs + the interleaved bubble, (pp - 1) chunk pairs
    # (arXiv:2104.04473 section 2.2.2: bubble (pp - 1) / (vpp x m) of the ideal)
    assert simulated_step(8, 3, 24, 1.0, 2.0, 0.0) == 24 * 3 * 3.0 + 7 * 3.0


def test_exchanges_below_a_chunk_cost_the_chunk_boundaries_twice():
    """With T under a chunk's forward the steady state hides every exchange: the step grows by 2 x (pp x vpp - 1)
    x T whatever the micro-batch count, as overlapped_exchange_seconds charges."""
    for pp, vpp, m in ((8, 3, 24), (8, 3, 64), (4, 5, 16), (16, 3, 48), (8, 12, 16), (2, 4, 8)):
        extra = simulated_step(pp, vpp, m, 1.0, 2.0, 0.05) - simulated_step(pp, vpp, m, 1.0, 2.0, 0.0)
        # fill = (pp - 1) stages of vpp chunk pairs of 3.0 s: a chunk's forward is 1.0 s
        steady, ends = overlapped_exchange_seconds(pp, vpp, m, 0.05, (pp - 1) * vpp * 3.0)
        assert steady == 0.0
        assert abs(extra - ends) < 1e-9, (pp, vpp, m, extra, ends)


def test_a_slower_last_stage_does_not_hide_the_crossings():
    """The interleaved schedule runs its ranks in step, so a last stage 10-30% slower (the LM head) slows them all
    and hides none of the boundary crossings."""
    for scale in (1.1, 1.3):
        extra = simulated_step(8, 5, 16, 1.0, 2.0, 0.05, scale) - simulated_step(8, 5, 16, 1.0, 2.0, 0.0, scale)
        assert abs(extra - 2 * (8 * 5 - 1) * 0.05) < 1e-9


def test_exchanges_above_a_forward_chunk_stretch_each_steady_slot():
    """Between a chunk's forward and its backward, and beyond, each steady slot stretches by T - forward; the
    charge stays within 6% of the simulated schedule."""
    for pp, vpp, m in ((8, 3, 24), (4, 5, 16), (16, 3, 48)):
        for transfer in (1.5, 2.5):
            extra = simulated_step(pp, vpp, m, 1.0, 2.0, transfer) - simulated_step(pp, vpp, m, 1.0, 2.0, 0.0)
            steady, ends = overlapped_exchange_seconds(pp, vpp, m, transfer, (pp - 1) * vpp * 3.0)
            assert abs((steady + ends) / extra - 1) < 0.06, (pp, vpp, m, transfer, steady + ends, extra)


def test_interleaved_megatron_step_charges_the_chunk_boundaries():
    """arXiv:2401.10241's GPT-1.5B 1F1B-I run (8 A100s on one node, one layer a chunk, the fork's Megatron-LM with
    overlap_p2p_comm on): a transfer is far below a chunk's forward, so the pipeline's exchanges and bubble no longer
    grow by 2 transfers a micro-batch, and 64 micro-batches cost the same pipeline seconds as 24 (the bubble's
    compute does not depend on the count either)."""
    rows = json.loads(ROWS.read_text(encoding="utf-8"))["rows"]
    base = next(r["scenario"] for r in rows if r["id"] == "zb-pp-t4-1.5b-8xa100-b6-m24-1f1b-interleaved")

    def pipeline_seconds(grad_accum: int) -> float:
        split = step_time(scenario_from_dict({**base, "grad_accum": grad_accum})).breakdown_seconds
        return split.get("communication_pp", 0.0) + split["bubble"]

    assert pipeline_seconds(24) > 0
    assert abs(pipeline_seconds(64) / pipeline_seconds(24) - 1) < 1e-9


def test_the_forks_end_chunks_keep_the_interleaved_closed_form():
    """The Zero Bubble fork's 1F1B-I runs (arXiv:2401.10241 Table 4: one layer a chunk, --allow-padding-num-layers, so
    rank 0's first chunk holds the embedding alone and the last rank's last chunk the output layer and the loss:
    sail-sg/zero-bubble-pipeline-parallelism f68d3879 megatron/model/transformer.py ParallelTransformer.get_offset)
    run chunks of unequal work. The interleaved ranks run in step, so a short chunk could leave its rank idle; the
    simulated schedule says it does not cost more than the closed form the time model uses (the busiest rank's chunks
    x m, plus one micro-batch through the other ranks / vpp: pipeline.py) at the paper's four layouts: the end chunks
    are not the per-micro-batch cost their 1F1B-I rows lack (benchmarks/interleaved_chunk_gap.py)."""
    for pp, vpp, m, head in ((8, 3, 24, 1.2), (8, 4, 64, 1.1), (16, 3, 48, 1.1), (32, 2, 96, 1.1)):
        def chunk_scale(r: int, c: int, pp: int = pp, vpp: int = vpp, head: float = head) -> float:
            if r == 0 and c == 0:
                return 0.02  # the embedding's gather
            return head if (r, c) == (pp - 1, vpp - 1) else 1.0

        per_rank = [sum(3.0 * chunk_scale(r, c) for c in range(vpp)) for r in range(pp)]
        closed_form = m * max(per_rank) + (sum(per_rank) - max(per_rank)) / vpp
        simulated = simulated_step(pp, vpp, m, 1.0, 2.0, 0.0, chunk_scale=chunk_scale)
        assert -0.01 < simulated / closed_form - 1 <= 0.0, (pp, vpp, m, simulated, closed_form)
