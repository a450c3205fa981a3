"""The time model's host and GPU terms per layer and micro-batch for Megatron-Bridge's two TE-scoped CUDA-graph pairs
(skills/nemo-mbridge-perf-cuda-graphs/card.yaml at 067f987d: Qwen3-30B-A3B TP2 PP2 EP4 623 -> 484 ms, GPT-OSS-20B TP2
PP4 EP4 467-520 -> 391-399 ms; tests/data/published/throughput/megatron-bridge-skills-offload.json), and how much of
the graphs' saving the model's structure can give at most.

Per row: the GPU seconds of one MoE layer's forward (before the dispatcher's synchronisation and after it) and
backward, the host seconds the model counts for the same (engine/timing/host.py layer_host), the measured and
predicted step, and per layer and pipeline slot (layers a stage x (micro-batches + stages - 1)) the measured saving,
the predicted one, the host the graphs' scopes hold (eager host - graphed host) and the most the saving can be while
the GPU work before the synchronisation stays (the forward's captured host less that GPU work, plus the backward's
captured host if the backward is host-bound).

Run: .venv/bin/python benchmarks/cuda_graph_pair_terms.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.timing.model as timing_model  # noqa: E402
from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.scenario.memo import memo_tables  # noqa: E402
from engine.timing.host import LayerHost, LayerWork, layer_host  # noqa: E402

PAIRS = (("megatron-bridge-skills-qwen3_30b_a3b-h100-16-tp2pp2ep4-eager",
          "megatron-bridge-skills-qwen3_30b_a3b-h100-16-tp2pp2ep4-te-scoped-graphs"),
         ("megatron-bridge-skills-gpt_oss_20b-h100-16-tp2pp4ep4-eager",
          "megatron-bridge-skills-gpt_oss_20b-h100-16-tp2pp4ep4-te-scoped-graphs"))


def layer_terms(row: dict) -> tuple[float, float, LayerWork, LayerHost]:
    """(measured, predicted step seconds, the first stage's MoE layer work, its host work) of one row."""
    seen: list[tuple] = []
    kept = timing_model.stage_host_seconds

    def spy(s, fused, work, other_gpu, fp8="", layer_units=False):
        seen.append((fused, work, fp8))
        return kept(s, fused, work, other_gpu, fp8, layer_units)

    for table in memo_tables():
        table.clear()
    timing_model.stage_host_seconds = spy
    try:
        s = scenario_from_dict(row["scenario"])
        t = timing_model.step_time(s)
    finally:
        timing_model.stage_host_seconds = kept
    fused, work, fp8 = seen[0]
    w = next(w for w in work if w.moe)
    return t.tokens_per_step / (row["measured"] * s.world_size), t.step_seconds, w, layer_host(
        s, fused, w.kind or (True, False, ""), fp8)


def slots(row: dict) -> int:
    """Layers a stage x pipeline slots of 1F1B (micro-batches + stages - 1): the layer passes on the critical path."""
    s = scenario_from_dict(row["scenario"])
    return -(-resolve_model(s).layers // s.pp) * (s.grad_accum + s.pp - 1)


def main() -> int:
    rows = {r["id"]: r for r in load_rows()}
    for eager_id, graphs_id in PAIRS:
        got = {i: layer_terms(rows[i]) for i in (eager_id, graphs_id)}
        for i, (measured, predicted, w, h) in got.items():
            print(f"{i}\n  step measured {measured * 1e3:6.1f} ms, predicted {predicted * 1e3:6.1f} ms; per MoE layer "
                  f"and micro-batch (ms): GPU forward {w.forward * 1e3:.2f} (after the sync {w.block * 1e3:.2f}), "
                  f"backward {w.backward * 1e3:.2f}; host forward {h.forward * 1e3:.2f} (after the sync "
                  f"{h.block * 1e3:.2f}), backward {h.backward * 1e3:.2f}, syncs {h.syncs}")
        (me, pe, we, he), (mg, pg, _wg, hg) = got[eager_id], got[graphs_id]
        n = slots(rows[eager_id])
        captured_fwd, captured_bwd = he.forward - hg.forward, he.backward - hg.backward
        bound = max(0.0, captured_fwd - (we.forward - we.block)) + captured_bwd
        print(f"  per layer and slot ({n} a step): saving measured {(me - mg) / n * 1e3:.2f} ms, predicted "
              f"{(pe - pg) / n * 1e3:.2f}; captured host {(captured_fwd + captured_bwd) * 1e3:.2f} (forward "
              f"{captured_fwd * 1e3:.2f}, backward {captured_bwd * 1e3:.2f}); most the model's structure gives "
              f"{bound * 1e3:.2f}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
