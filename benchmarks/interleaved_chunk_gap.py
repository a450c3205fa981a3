"""What arXiv:2401.10241's interleaved 1F1B runs (1F1B-I, one layer a chunk) lack against their 1F1B twins, per model
chunk and micro-batch, and what the host could hold of it (issue 23 items 2 and 5).

Each Table 4 setting ran 1F1B and 1F1B-I on the same GPUs, model and micro-batches (tests/data/published/throughput/
zero-bubble-2024.json). The model predicts the 1F1B-I runs 5-8 points further from their measurement than their 1F1B
twins. Taking the twin's error as the setting's own (what the two schedules share: layers, optimizer, GPUs), the
interleaved step the model lacks is measured - predicted x (measured / predicted of the twin); this prints it per
step and per chunk and micro-batch (vpp chunk passes a micro-batch), beside one chunk's GPU forward + backward and
the host work the model counts for one layer (presets/host_overhead.json: launches and Transformer Engine module
calls, an upper bound for the fork's local layers). The host only costs where it falls behind the GPU; nothing in
the fork's interleaved schedule holds the host back per chunk (timers are dummies at --timing-log-level 0, the
overlapped exchanges' req.wait() is a stream wait), so a chunk's host work would have to exceed its GPU work.
A least-squares line over the setting's micro-batch counts splits the gap into a part per chunk and micro-batch and
a part per step (per chunk-boundary crossing, 2 x (pp x vpp - 1) a step). Every figure without MFU ceilings.

Last, the candidate not costed: the overlapped receives' NCCL kernels beside the compute. A receive is posted after
the rank's previous chunk of its direction and its kernel starts then (ProcessGroupNCCL orders its stream after the
compute stream); it busy-waits on its SMs until the sender's data comes. The simulated schedule
(tests/interleaved_schedule.py, equal chunks, forward 1, backward 2, transfers small) gives how long a posted receive
waits, as a share of the forward (gradient receives) and backward (activation receives) time; sends are buffered
(NCCL's p2p buffer, 8 steps of the 512 kB NVLink p2p chunk a channel, holds the 12-28 MB activations over 8 channels)
and end after their transfer. NVIDIA/nccl v2.18.3-1 gives a two-rank communicator inside a DGX A100 (PyTorch's own
per-pair communicator for an isend / irecv) 8 channels a p2p operation, one CTA each (search.cc: the 2-GPU ring at
40 GB/s, 6 channels, duplicated to 12; paths.cc ncclTopoComputeP2pChannels: 16 a peer; enqueue.cc: halved to 8 for 2
ranks, calcP2pChunkSize keeps 8 below 128 MB). If each CTA kept a GEMM CTA off its SM (NCCL_MAX_NTHREADS 640 threads
a CTA), the compute beside a waiting receive would run on 100 of 108 SMs: the line prints that stretch per chunk.

Run: .venv/bin/python benchmarks/interleaved_chunk_gap.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.data import efficiency  # noqa: E402
from engine.timing.host import layer_host  # noqa: E402
from tests.interleaved_schedule import simulated_step  # noqa: E402

NCCL_P2P_CTAS = 8  # a p2p operation of a two-rank DGX A100 communicator, NCCL v2.18.3-1 (docstring)


def _step_seconds_predicted_measured(row: dict) -> tuple[float, float]:
    """(predicted, measured) step seconds of a row, the prediction without ceilings."""
    with without_ceilings():
        t = step_time(scenario_from_dict(row["scenario"]))
    return t.step_seconds, t.step_seconds * t.tokens_per_second_per_gpu / float(row["measured"])


def main() -> None:
    rows = {r["id"]: r for r in load_rows() if r["id"].startswith("zb-pp-t4-")}
    by_model: dict[str, list[tuple[int, float, int, int, int]]] = {}
    for rid, row in rows.items():
        twin = rows.get(rid + "-interleaved")
        if not rid.endswith("-1f1b") or twin is None:
            continue
        s = twin["scenario"]
        predicted_twin, measured_twin = _step_seconds_predicted_measured(row)
        predicted, measured = _step_seconds_predicted_measured(twin)
        gap = measured - predicted * measured_twin / predicted_twin
        passes = s["grad_accum"] * s["vpp"]
        scenario = scenario_from_dict(s)
        with without_ceilings():
            chunk = step_time(scenario).breakdown_seconds["compute"] / passes
        host = layer_host(scenario, True, (False, False, ""))
        host_ms = (host.forward + host.backward) * 1e3
        print(f"{rid.removeprefix('zb-pp-t4-'):28s} vpp {s['vpp']}: lacks {gap * 1e3:6.1f} ms a step, "
              f"{gap / passes * 1e3:.2f} ms a chunk and micro-batch ({gap / passes / chunk:.1%} of the chunk's "
              f"{chunk * 1e3:.1f} ms compute, forward + backward); host per layer {host_ms:.2f} ms")
        sms = efficiency()["gemm_waves"]["sms"][s["gpu"]]  # the setting's GPU's SMs (every Table 4 row: A100 80GB)
        by_model.setdefault(rid.split("-")[3], []).append((s["grad_accum"], gap, s["pp"], s["vpp"], sms))
    for model, points in by_model.items():
        n, (pp, vpp, sms) = len(points), points[0][2:]
        mean_m, mean_gap = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
        slope = (sum((p[0] - mean_m) * (p[1] - mean_gap) for p in points)
                 / sum((p[0] - mean_m) ** 2 for p in points))
        per_step, crossings = mean_gap - slope * mean_m, 2 * (pp * vpp - 1)
        print(f"{model}: {slope / vpp * 1e3:.2f} ms a chunk and micro-batch, {per_step * 1e3:.1f} ms a step "
              f"({per_step / crossings * 1e3:.2f} ms per chunk-boundary crossing, {crossings} a step)")
        _receive_waits(pp, vpp, max(p[0] for p in points), sms)


def _receive_waits(pp: int, vpp: int, m: int, sms: int) -> None:
    """The simulated share of forward / backward time a posted receive waits for its data, and the stretch per chunk
    and micro-batch it would cost at NCCL_P2P_CTAS of the GPU's `sms` SMs (module docstring)."""
    ahead: dict[str, float] = {}
    simulated_step(pp, vpp, m, 1.0, 2.0, 0.01, receive_ahead=ahead)
    passes = pp * m * vpp
    forward, backward = ahead.get("B", 0.0) / passes, ahead.get("F", 0.0) / (2.0 * passes)
    stretch = (forward * 1.0 + backward * 2.0) * NCCL_P2P_CTAS / (sms - NCCL_P2P_CTAS) / 3.0
    print(f"    simulated pp {pp} x vpp {vpp}, m {m}: a gradient receive waits {forward:.0%} of the forward, an "
          f"activation receive {backward:.0%} of the backward: {stretch:.1%} of a chunk at {NCCL_P2P_CTAS} CTAs")


if __name__ == "__main__":
    main()
