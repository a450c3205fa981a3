"""Megatron's combined 1F1B all-to-all overlap (moe_a2a_overlap) row by row: for each published row that turns it on,
the busiest stage's all-to-all per micro-batch run alone, what stays exposed when another micro-batch's layers run
beside it (engine/timing/a2a_overlap.py: TransformerLayerSchedulePlan.run's two streams, each model chunk from idle
streams), the exposure after the first three layer pairs of a chunk, and the step's exposed all-to-all against the
step, with the row's measured and predicted tokens/s per GPU (not cross-validated: the engine's own estimate).

Run: .venv/bin/python benchmarks/a2a_overlap.py [ID-SUBSTRING ...]   (default: every row with moe_a2a_overlap)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import as_laid_out, resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.a2a_overlap import paired_exposed_seconds  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.model import rates_for, stage_time_per_micro_batch  # noqa: E402
from engine.timing.pipeline import model_chunks  # noqa: E402
from engine.timing.stage_listing import distinct_stages  # noqa: E402


def main(patterns: list[str]) -> None:
    print(f"{'row':66s} {'meas':>6s} {'pred':>6s} {'alone ms':>8s} {'paired ms':>9s} {'pairs 1/2/3 ms':>17s} "
          f"{'ep s':>6s} {'step s':>6s}")
    for r in load_rows():
        sc = r["scenario"]
        if not sc.get("moe_a2a_overlap") or (patterns and not any(p in r["id"] for p in patterns)):
            continue
        s = as_laid_out(scenario_from_dict(sc))
        spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
        rates = rates_for(s, hw, prof)
        stages = [stage_time_per_micro_batch(s, spec, hw, prof, rates, i, rg) for i, rg in distinct_stages(s, spec)]
        st = max(stages, key=lambda x: x.total)
        paired = paired_exposed_seconds(st.ep_paired, model_chunks(s))
        runs = [p for p in st.ep_paired if p.layers]
        first = runs[-1] if runs else None
        pairs = f"{first.first * 1e3:5.2f}/{first.second * 1e3:5.2f}/{first.third * 1e3:5.2f}" if first else "-"
        t = step_time(s)
        print(f"{r['id'][:66]:66s} {r['measured']:6.0f} {t.tokens_per_second_per_gpu:6.0f} {st.ep * 1e3:8.2f} "
              f"{paired * 1e3:9.2f} {pairs:>17s} {t.breakdown_seconds['communication_ep']:6.2f} "
              f"{t.step_seconds:6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
