"""How much of the MoE rows' missing time the host could hold at most (issue 23: 'a per-micro-batch MoE cost', the
dispatcher's device-to-host synchronisations). Megatron-Core's MoEAlltoAllTokenDispatcher synchronises once per MoE
layer forward ('before_ep_alltoall' when dropless with EP > 1: NVIDIA/Megatron-LM megatron/core/transformer/moe/
token_dispatcher.py _maybe_dtoh_and_synchronize, at 0d8e0714 and b0cc2706, the commits Megatron-Bridge v0.2.0 and
v0.3.0 pin; HybridEP / DeepEP size their buffers with one as well), after which the GPU's queue is empty and the host
must issue the rest of the layer before the GPU can run it. engine/timing/host.py already costs that: the round trip
and first launch per sync, and the host work after it that the GPU work after it cannot hide.

The bound: if every synchronisation emptied the queue and the host could hide nothing at all (each layer's forward
and backward host work, recompute included, added to the GPU's time in full), the host term would be
exposed_host_seconds over the same layers with their GPU seconds set to zero. This prints, per Megatron MoE row that
has no full-iteration CUDA graph, in ms per MoE layer and micro-batch on the busiest stage: the time the model lacks
(measured - predicted step, every source's ceilings, as benchmarks/moe_step_gap.py), the host term the model already
exposes, and the most a fully serial host could add beyond it. Where the row lacks more than that bound, no placement
of synchronisations over the host work the model counts can close it.

Run: .venv/bin/python benchmarks/moe_sync_bound.py [ID-SUBSTRING ...]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.timing.hf_host as hf_host  # noqa: E402
from engine.accuracy.published_throughput import rows_matching  # noqa: E402
from engine.caches import clear_caches  # noqa: E402
from engine.scenario import as_laid_out, resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.host import LayerWork, exposed_host_seconds  # noqa: E402
from engine.timing.model import step_time  # noqa: E402

_CALLS: list[tuple[Any, ...]] = []


def _spy(s: Any, fused: bool, work: tuple[LayerWork, ...], other_gpu: float, fp8: str = "",
         layer_units: bool = False) -> float:
    """hf_host's exposed_host_seconds, recording each stage's arguments (Megatron's rows have no FSDP1 units)."""
    _CALLS.append((s, fused, work, other_gpu, fp8))
    return exposed_host_seconds(s, fused, work, other_gpu, fp8, layer_units)


def bound(row: dict[str, Any]) -> tuple[float, float, float, int] | None:
    """(missing, exposed now, serial bound beyond it) in ms per MoE layer and micro-batch, and MoE layers a stage."""
    s = scenario_from_dict(row["scenario"])
    spec = resolve_model(s)
    if not spec.is_moe or s.cuda_graphs == "full-iteration" or s.framework != "megatron":
        return None
    step_time(s)  # the MFU ceilings first (they time every row), then the row's own stages afresh
    clear_caches()
    _CALLS.clear()
    hf_host.exposed_host_seconds = _spy
    try:
        t = step_time(s)
    finally:
        hf_host.exposed_host_seconds = exposed_host_seconds
    gpus = s.world_size
    tokens = s.micro_batch * s.grad_accum * gpus // (s.tp * s.pp * s.cp) * s.seq_len
    measured = tokens / (row["measured"] * gpus)
    predicted = tokens / (t.tokens_per_second_per_gpu * gpus)
    best, top = (0.0, 0.0, 0), -1.0
    own = as_laid_out(s)
    for s2, fused, work, other, fp8 in _CALLS:
        if s2 != own:  # the MFU ceilings time other rows' stages too
            continue
        now = exposed_host_seconds(s2, fused, work, other, fp8)
        # GPU seconds to (almost) nothing: a backward of 0 would mean the layer runs none (host.py LayerWork)
        idle = tuple(w._replace(forward=0.0, backward=1e-12 if w.backward else 0.0, block=0.0) for w in work)
        serial = exposed_host_seconds(s2, fused, idle, 0.0, fp8)
        layers = sum(w.count for w in work if w.moe)
        if layers and serial > top:  # the stage with the most host work
            best, top = (now, serial - now, layers), serial
    now, extra, layers = best
    if not layers:
        return None
    per = s.grad_accum * layers
    return (measured - predicted) / per * 1e3, now / layers * 1e3, extra / layers * 1e3, layers


def main(filters: list[str]) -> None:
    print(f"{'row':72s} {'lacks':>7s} {'host now':>9s} {'+serial':>8s}  (ms per MoE layer and micro-batch)")
    within = beyond = 0
    for row in rows_matching(filters):
        b = bound(row)
        if b is None:
            continue
        missing, now, extra, _layers = b
        if missing > 0.5:
            within, beyond = within + (missing <= extra), beyond + (missing > extra)
        print(f"{row['id'][:72]:72s} {missing:7.2f} {now:9.2f} {extra:8.2f}{'  > bound' if missing > extra else ''}")
    print(f"rows lacking over 0.5 ms a layer and micro-batch: {within} within the serial-host bound, {beyond} beyond it")


if __name__ == "__main__":
    main(sys.argv[1:])
