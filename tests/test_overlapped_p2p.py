"""Megatron-Core's interleaved 1F1B exchanges under overlap_p2p_comm (engine/timing/overlapped_p2p.py), checked against
a simulation of the schedule as its code orders it (NVIDIA/Megatron-LM megatron/core/pipeline_parallel/schedules.py
forward_backward_pipelining_with_interleaving at d98e8a64; the same order at 9290c730, the zero-bubble fork's base).

Each rank runs its warm-up forwards ((pp - r - 1) x 2 + (vpp - 1) x pp), then forward / backward pairs, then the
cool-down backwards; chunk and micro-batch of the k-th forward come from get_model_chunk_id (groups of pp micro-batches
a chunk). An exchange is a rendezvous: it starts when the sender has finished the chunk it sends and the receiver has
posted the matching receive (after its previous chunk of that direction: send_forward_recv_forward after a forward,
send_backward_recv_backward after a backward, the first backward's receive after the last warm-up forward), and
takes T. A chunk waits for its input and for the send of the rank's previous chunk of the same direction (the handles
the code waits on before it)."""

import json
from collections.abc import Callable
from pathlib import Path

from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.overlapped_p2p import overlapped_exchange_seconds

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "zero-bubble-2024.json"


def _order(pp: int, vpp: int, m: int, rank: int) -> list[tuple[str, int]]:
    n = m * vpp
    warm = min(n, (pp - rank - 1) * 2 + (vpp - 1) * pp)
    order = [("F", k) for k in range(warm)]
    for k in range(n - warm):
        order += [("F", warm + k), ("B", k)]
    return order + [("B", k) for k in range(n - warm, n)]


def simulated_step(pp: int, vpp: int, m: int, fwd: float, bwd: float, transfer: float,
                   last_rank_scale: float = 1.0, chunk_scale: Callable[[int, int], float] | None = None,
                   receive_ahead: dict[str, float] | None = None) -> float:
    """Step time of the interleaved schedule with chunk forward `fwd`, backward `bwd` and exchange `transfer`; the
    last rank's chunks take `last_rank_scale` times as long (a stage holding the LM head); `chunk_scale(rank, chunk)`,
    where given, scales each model chunk of each rank instead (chunks of unequal work). `receive_ahead`, where given,
    gains per direction ("F": activations, "B": gradients) the seconds, summed over ranks, from a receive's posting to
    its sender finishing the chunk it sends: how long a posted receive waits on the GPU for its data
    (benchmarks/interleaved_chunk_gap.py)."""
    group = pp * vpp

    def scale(r: int, c: int) -> float:
        if chunk_scale is not None:
            return chunk_scale(r, c)
        return last_rank_scale if r == pp - 1 else 1.0

    def chunk_of(kind: str, k: int) -> tuple[int, int]:  # (micro-batch, model chunk): get_model_chunk_id
        c = (k % group) // pp
        return (k // group) * pp + k % pp, (c if kind == "F" else vpp - 1 - c)

    index = {(r, kind, chunk_of(kind, k)): k for r in range(pp) for kind, k in _order(pp, vpp, m, r)}
    finish: dict[tuple[int, str, tuple[int, int]], float] = {}

    def peer(r: int, kind: str, mb_c: tuple[int, int], upstream: bool) -> tuple[int, str, tuple[int, int]] | None:
        mb, c = mb_c
        step = -1 if (kind == "F") == upstream else 1  # forward data flows to higher ranks, gradients back
        r2, c2 = r + step, c
        if r2 < 0:
            r2, c2 = pp - 1, c - 1
        elif r2 >= pp:
            r2, c2 = 0, c + 1
        return (r2, kind, (mb, c2)) if 0 <= c2 < vpp else None

    def receive_posted(r: int, kind: str, k: int) -> float | None:
        if k > 0:
            return finish.get((r, kind, chunk_of(kind, k - 1)))
        if kind == "F":
            return 0.0
        warm = min(m * vpp, (pp - r - 1) * 2 + (vpp - 1) * pp)
        return finish.get((r, "F", chunk_of("F", warm - 1))) if warm else 0.0

    def arrival(sender: tuple[int, str, tuple[int, int]], receiver: tuple[int, str, tuple[int, int]]) -> float | None:
        sent, posted = finish.get(sender), receive_posted(receiver[0], receiver[1], index[receiver])
        return None if sent is None or posted is None else max(sent, posted) + transfer

    orders = [_order(pp, vpp, m, r) for r in range(pp)]
    position, clock = [0] * pp, [0.0] * pp
    while any(position[r] < len(orders[r]) for r in range(pp)):
        moved = False
        for r in range(pp):
            if position[r] == len(orders[r]):
                continue
            kind, k = orders[r][position[r]]
            me = (r, kind, chunk_of(kind, k))
            waits = []
            source = peer(r, kind, me[2], upstream=True)
            if source is not None:
                waits.append(arrival(source, me))
            if k > 0:
                previous = (r, kind, chunk_of(kind, k - 1))
                target = peer(r, kind, previous[2], upstream=False)
                if target is not None:
                    waits.append(arrival(previous, target))
            if any(w is None for w in waits):
                continue
            if source is not None and receive_ahead is not None:
                ahead = finish[source] - (receive_posted(r, kind, k) or 0.0)
                receive_ahead[kind] = receive_ahead.get(kind, 0.0) + max(0.0, ahead)
            clock[r] = max([clock[r]] + waits) + (fwd if kind == "F" else bwd) * scale(r, me[2][1])
            finish[me] = clock[r]
            position[r] += 1
            moved = True
        assert moved, "the simulated schedule deadlocked"
    return max(clock)


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
