"""The same Megatron-Bridge recipe on two Blackwell systems of one kind: HGX B200 against HGX B300 (8-GPU x86 nodes,
InfiniBand between them) and GB200 against GB300 (NVL72, Grace hosts); and across the kinds, HGX B200 against GB200
NVL72 (the same die at 1,000 / 1,200 W, an x86 host against Grace, an 8-GPU NVLink node against trays of 4 in a
72-GPU NVLink domain, so that a TP x CP group of 8 spans two trays). A pair is one release's row of one model on
both GPUs whose recipe settings are the same (pipeline, virtual stages, expert parallelism, micro-batch, gradient
accumulation, CUDA graphs, dispatcher, all-to-all overlap, recompute), so the code and the layout are the same (and,
within one kind, the host CPU class) and what differs is the GPU's power limit and clock (1,000 / 1,100 W on HGX,
1,200 / 1,400 W on NVL72), the attention's exponential unit and the NIC (ConnectX-7 400 Gb/s against ConnectX-8
800 Gb/s a GPU); presets/gpus.json and presets/efficiency.json sustained_compute_fraction give what the model knows
of each. The dense B200 / GB200 pairs are Llama 3 8B fp8 at TP 1 (CUDA graphs on both, per layer or the whole
iteration) in 25.09 and 25.11 and Llama 3.1 405B MXFP8 at TP 4 x CP 2 (eager) in 25.09; gpt-oss-120b bf16 in 26.02.

For each pair it prints the measured and the predicted (cross-validated, engine/accuracy/published_throughput.py
compare) throughput ratio of the second GPU over the first, and each row's measured-minus-predicted step per
micro-batch and per decoder layer of the busiest pipeline rank (the step less the model's, over grad_accum + the
warm-up's pp - 1 micro-batches, interleaved or not), with the model's network terms (pipeline sends and
data-parallel traffic, seconds a step) beside it, so that what the model misses can be told apart from what it
charges for the link.

Run: .venv/bin/python benchmarks/hgx_nvl72_pairs.py [ID-SUBSTRING ...]   (default: every pair)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import Compared, compare, load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402

PAIRS = (("b200", "b300"), ("gb200", "gb300"), ("b200", "gb200"))
# what must match for two rows to be one recipe on two GPUs
RECIPE_KEYS = ("model", "pp", "vpp", "pp_schedule", "ep", "tp", "cp", "micro_batch", "grad_accum", "cuda_graphs",
               "moe_token_dispatcher_type", "moe_a2a_overlap", "recompute_modules", "checkpointing", "precision",
               "fp8_recipe", "pipeline_layout")


def recipe(scenario: dict) -> tuple:
    return tuple(str(scenario.get(k)) for k in RECIPE_KEYS)


def pairs(rows: list[dict]) -> list[tuple[dict, dict]]:
    """(first, second) rows of one release and model whose recipe settings match, first on PAIRS' first GPU."""
    by_id = {r["id"]: r for r in rows if r["framework"] == "Megatron-Bridge"}
    out = []
    for first, second in PAIRS:
        for rid, row in by_id.items():
            if f"-{first}-" not in rid:
                continue
            other = by_id.get(rid.replace(f"-{first}-", f"-{second}-"))
            if other is not None and recipe(row["scenario"]) == recipe(other["scenario"]):
                out.append((row, other))
    return out


def missing_per_micro_batch(row: dict, c: Compared) -> tuple[float, float]:
    """(ms per micro-batch, ms per decoder layer and micro-batch) the model's step lacks against the measured one, on
    the busiest pipeline rank: the step difference over grad_accum + pp - 1 micro-batches (the warm-up's)."""
    s = scenario_from_dict(row["scenario"])
    tokens = s.micro_batch * s.seq_len * s.grad_accum * s.dp
    measured, predicted = tokens / (c.measured * s.world_size), tokens / (c.predicted * s.world_size)
    per_mb = (measured - predicted) / (s.grad_accum + s.pp - 1) * 1e3
    layers = resolve_model(s).layers / s.pp
    return per_mb, per_mb / layers


def main() -> None:
    wanted = sys.argv[1:]
    rows = load_rows()
    found = [p for p in pairs(rows) if not wanted or any(w in p[0]["id"] for w in wanted)]
    compared = {c.id: c for c in compare([r for p in found for r in p])}
    print("| first row | second GPU | measured ratio | predicted ratio | first: missing ms / micro-batch, / layer | "
          "second: missing ms / micro-batch, / layer | model's PP + DP seconds (first, second) |")
    print("|---|---|---|---|---|---|---|")
    for a, b in found:
        ca, cb = compared[a["id"]], compared[b["id"]]
        ma, la = missing_per_micro_batch(a, ca)
        mb, lb = missing_per_micro_batch(b, cb)
        net = []
        for r in (a, b):
            t = step_time(scenario_from_dict(r["scenario"])).breakdown_seconds
            net.append(f"{t['communication_pp'] + t['communication_dp']:.2f}")
        print(f"| {a['id']} | {cb.gpu} | {cb.measured / ca.measured:.3f} | {cb.predicted / ca.predicted:.3f} | "
              f"{ma:+.1f}, {la:+.2f} | {mb:+.1f}, {lb:+.2f} | {', '.join(net)} |")


if __name__ == "__main__":
    main()
