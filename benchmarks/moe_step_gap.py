"""What the time model lacks per MoE layer and micro-batch, against the local experts each rank holds (issue 23:
the MoE step beyond its kernels). For every published Megatron-Bridge MoE row without a full-iteration CUDA graph:
(measured step seconds - predicted step seconds) / (micro-batches x MoE layers on the busiest stage), in ms, with the
row's local experts (n_experts / EP), dispatcher, micro-batch, GPU, CUDA-graph scope and precision, sorted by local
experts. Predictions use the MFU ceilings of every source (not cross-validated): the point is the per-layer time
the layer model lacks, not the headline error. With --unheld the predictions are the layer model's alone (no MFU
ceiling): a row's own run caps its prediction otherwise, which hides what its layers lack (gpt-oss-120b bf16 on B200 at
EP 8: +2.6 ms a layer and micro-batch held, +8.8 unheld). Each row also shows the gap per token a rank's micro-batch
holds (us per token and MoE layer), which compares rows of different micro-batch and sequence.

Run: .venv/bin/python benchmarks/moe_step_gap.py [--unheld] [ID-SUBSTRING ...]
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import rows_matching  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.model import step_time  # noqa: E402


def gaps(filters: list[str], held: bool = True) -> list[tuple[int, str, float, str]]:
    """(local experts, dispatcher, missing ms per MoE layer and micro-batch, description) per row; held False:
    predicted without MFU ceilings."""
    out = []
    for row in rows_matching(filters):
        if not row["id"].startswith("megatron-bridge"):
            continue
        s = scenario_from_dict(row["scenario"])
        spec = resolve_model(s)
        if not spec.is_moe or s.cuda_graphs == "full-iteration":
            continue
        gpus = s.world_size
        tokens = s.micro_batch * s.grad_accum * gpus // (s.tp * s.pp * s.cp) * s.seq_len
        measured = tokens / (row["measured"] * gpus)
        if held:
            predicted_rate = step_time(s).tokens_per_second_per_gpu
        else:
            with without_ceilings():
                predicted_rate = step_time(s).tokens_per_second_per_gpu
        predicted = tokens / (predicted_rate * gpus)
        layers = -(-spec.layers // s.pp)
        missing_ms = (measured - predicted) / (s.grad_accum * layers) * 1e3
        rank_tokens = s.micro_batch * s.seq_len / (s.tp * s.cp)  # tokens of one micro-batch on a rank
        per_token_us = missing_ms * 1e3 / rank_tokens
        what = (f"{per_token_us:+.3f} us/token  mb {s.micro_batch} x {s.seq_len} {s.gpu} graphs {s.cuda_graphs} "
                f"{s.precision} {row['id']}")
        out.append((spec.n_experts // s.ep, s.moe_token_dispatcher_type, missing_ms, what))
    return sorted(out)


def main() -> None:
    args = sys.argv[1:]
    rows = gaps([a for a in args if a != "--unheld"], held="--unheld" not in args)
    for local, dispatcher, missing, what in rows:
        print(f"local experts {local:3d}  {dispatcher:8s}  missing {missing:+6.2f} ms per layer and micro-batch  {what}")
    groups: dict[tuple[int, str], list[float]] = defaultdict(list)
    for local, dispatcher, missing, _ in rows:
        groups[(local, dispatcher)].append(missing)
    print("\nmedian per (local experts, dispatcher):")
    for (local, dispatcher), values in sorted(groups.items()):
        median = statistics.median(values)
        per_expert = median / local
        print(f"  {local:3d} {dispatcher:8s} {len(values):3d} rows  {median:+6.2f} ms  ({per_expert:+.3f} ms per expert)")


if __name__ == "__main__":
    main()
