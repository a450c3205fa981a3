"""Where the step of Qwen3-30B-A3B on 16 H100s (BF16, EP 16 over two HGX nodes, HybridEP) goes, with the expert-
parallel all-to-all overlap (combined 1F1B, scenario key moe_a2a_overlap) off and on: the time model's terms against
the matched rank-0 Nsight profile NVIDIA published with the runs (h-skmoe, issue 23 items 4-5).

Profile figures: NVIDIA-NeMo/Megatron-Bridge skills/nemo-mbridge-perf-moe-comm-overlap/card.yaml profile_result and
SKILL.md at 067f987d ('Communication concurrent with GEMM/attention' 9.079 / 3,958.997 ms, 'Communication time hidden
by compute' 0.11% / 36.55%, 'GPU-active interval union' 22.821 / 21.221 s, overlap off / on). From them: the
communication kernels' union = concurrent / hidden share; what of it runs beside no GEMM or attention kernel = union -
concurrent; the rest of the GPU-active union = everything else the GPU ran (GEMMs, attention, element-wise kernels).
The profiled runs are not the timed ones (the unprofiled steps are 24.714 s and 20.992 s), so the split, not the sum,
is what compares.

Run: .venv/bin/python benchmarks/moe_overlap_profile.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import compare, load_rows  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402

ROWS = ("mbridge-skill-qwen3_30b_a3b-h100-16-bf16-hybridep-ep-overlap-off",
        "mbridge-skill-qwen3_30b_a3b-h100-16-bf16-hybridep-ep-overlap-on")
# (communication beside GEMM/attention s, its share of the communication union, GPU-active union s), card.yaml
PROFILE = {ROWS[0]: (9.079e-3, 0.0011, 22.820667), ROWS[1]: (3.958997, 0.3655, 21.221363)}


def main() -> None:
    rows = {r["id"]: r for r in load_rows() if r["id"] in ROWS}
    cv = {c.id: c for c in compare(list(rows.values()))}
    print(f"{'row':18s} {'meas s':>7s} {'cv s':>6s} {'free s':>6s} | model (no ceiling): {'GPU work':>8s} "
          f"{'EP exp':>6s} {'host':>5s} {'other':>5s} | profile: {'comm':>5s} {'exposed':>7s} {'rest':>5s} "
          f"{'idle':>5s}")
    for rid in ROWS:
        r, c = rows[rid], cv[rid]
        tokens = r["scenario"]["micro_batch"] * r["scenario"]["grad_accum"] * 16 * r["scenario"]["seq_len"]
        measured, predicted = tokens / 16 / c.measured, tokens / 16 / c.predicted
        with without_ceilings():
            t = step_time(scenario_from_dict(r["scenario"]))
        b = t.breakdown_seconds
        gpu_work = b["compute"] + b["memory_bound"]
        other = t.step_seconds - gpu_work - b["communication_ep"] - b["host"]
        beside, share, active = PROFILE[rid]
        comm = beside / share
        exposed = comm - beside
        print(f"{rid.rsplit('-', 2)[-2] + '-' + rid.rsplit('-', 1)[-1]:18s} {measured:7.3f} {predicted:6.3f} "
              f"{t.step_seconds:6.3f} |                     {gpu_work:8.3f} {b['communication_ep']:6.3f} "
              f"{b['host']:5.3f} {other:5.3f} |          {comm:5.2f} {exposed:7.2f} {active - exposed:5.2f} "
              f"{max(0.0, measured - active):5.2f}")


if __name__ == "__main__":
    main()
