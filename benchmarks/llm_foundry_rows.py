"""llm-foundry's published rows (mosaicml/llm-foundry scripts/train/benchmarking/README.md) grouped by what ran them.

    PYTHONPATH=. .venv/bin/python benchmarks/llm_foundry_rows.py [--rows]

The README's tables come from three sweeps with different stacks (the rows' source text names the commits): the A100
40GB table from the MPT release (torch 1.13.1, attn_impl triton), the H100 BF16 / FP8 and A100 80GB tables from
commit b2a43a14 (2023-10-19: torch 2.1.0, llm-foundry v0.3.0, attn_impl triton), the H100 large-scale table from
commit 5e85bd62 (2024-01-06: flash-attn 2.4.2 for MPT-1b, 3b, 7b and 70b, triton for 13b and 30b). The Triton
FlashAttention kernel (triton-pre-mlir) is attention_kernel triton, with no measured rate of its own (FlashAttention-1's
generic figure: presets/efficiency.json attention_fraction_of_bf16_peak triton). Prints the
cross-validated median signed error per table, GPU, attention kernel and model, and per sequence length on each GPU
(where the attention kernel's share grows with the length and the element-wise share shrinks); --rows prints every
row with its layout and the predicted share of memory-bound time.
"""

from __future__ import annotations

import statistics
import sys

from engine.accuracy.published_throughput import compare, load_rows
from engine.scenario import scenario_from_dict
from engine.timing import step_time


def _table(row: dict) -> str:
    """The README table a row comes from, without the A100 tables' interconnect note."""
    name = str(row["source"]).split("table '")[1].split("'")[0] if "table '" in row["source"] else "?"
    return name.replace(" with 1600 Gbps node-node interconnect (RoCE)", "")


def main() -> None:
    rows = [r for r in load_rows() if r["framework"] == "llm-foundry"]
    errors = {c.id: c.error for c in compare(rows)}
    groups: dict[tuple[str, ...], list[float]] = {}
    by_seq: dict[tuple[str, int], list[float]] = {}
    for r in rows:
        sc = r["scenario"]
        kernel = sc["attention_kernel"]
        model = r["id"].split("-")[-4]
        groups.setdefault((_table(r), sc["gpu"], sc["precision"], kernel, model), []).append(errors[r["id"]])
        by_seq.setdefault((sc["gpu"], sc["seq_len"]), []).append(errors[r["id"]])
        if "--rows" in sys.argv:
            t = step_time(scenario_from_dict(sc))
            memory = t.breakdown_seconds["memory_bound"] / t.step_seconds
            print(f"{r['id']:58s} mb {sc['micro_batch']:3d} x {sc['grad_accum']:2d}  {kernel:18s} "
                  f"ckpt {sc.get('checkpointing', 'none'):4s}  memory-bound {memory:4.0%}  error {errors[r['id']]:+.1%}")
    print("| table | GPU | precision | attention | model | rows | median signed error |\n|---|---|---|---|---|---|---|")
    for key, errs in sorted(groups.items()):
        print(f"| {' | '.join(key)} | {len(errs)} | {statistics.median(errs):+.1%} |")
    print("\n| GPU | sequence | rows | median signed error |\n|---|---|---|---|")
    for (gpu, seq), errs in sorted(by_seq.items()):
        print(f"| {gpu} | {seq:,} | {len(errs)} | {statistics.median(errs):+.1%} |")


if __name__ == "__main__":
    main()
