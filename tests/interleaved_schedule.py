"""A simulation of Megatron-Core's interleaved 1F1B schedule as its code orders it (NVIDIA/Megatron-LM
megatron/core/pipeline_parallel/schedules.py forward_backward_pipelining_with_interleaving at d98e8a64; the same order
at 9290c730, the zero-bubble fork's base): what tests/test_overlapped_p2p.py checks engine/timing/overlapped_p2p.py
against, and what benchmarks/interleaved_chunk_gap.py reads a posted receive's wait from.

Each rank runs its warm-up forwards ((pp - r - 1) x 2 + (vpp - 1) x pp), then forward / backward pairs, then the
cool-down backwards; chunk and micro-batch of the k-th forward come from get_model_chunk_id (groups of pp micro-batches
a chunk). An exchange is a rendezvous: it starts when the sender has finished the chunk it sends and the receiver has
posted the matching receive (after its previous chunk of that direction: send_forward_recv_forward after a forward,
send_backward_recv_backward after a backward, the first backward's receive after the last warm-up forward), and
takes T. A chunk waits for its input and for the send of the rank's previous chunk of the same direction (the handles
the code waits on before it)."""

from collections.abc import Callable


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
