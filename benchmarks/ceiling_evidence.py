"""How much evidence an MFU ceiling rests on (engine/timing/ceiling.py, presets/mfu_ceilings.json), and what other
ceiling rules would do to the cross-validated error of the published set.

1. Is one source's best run a credible 'best'? Leave each source out of each GPU's (and architecture's) format and
   kind in turn and ask whether its own best MFU exceeds (1 + margin) x the best of the others (margin: the
   ceilings file's, 0.1): if runs of different sources were draws from one distribution, a new one would beat the
   best of n others with chance 1 / (n + 1). Printed by the number n of other sources.
2. A format's ceiling below a wider format's best FLOP/s: an fp8 recipe may keep any GEMM in bf16, so an fp8 plan can
   reach what the GPU's best bf16 run reached. Printed: the fp8 rows whose ceiling (all sources, and with their own
   source left out) is below the same GPU's best bf16 run of their kind, in FLOP/s.
3. The rule 'a ceiling needs runs of at least k sources' (ceiling.requiring_sources), k = 1 (the planner's rule,
   issue 23 item 5), 2 and 3: all rows' cross-validated median and p90 absolute error, rows beyond 25%, and the median
   signed error of each GPU family whose figure moves.

Run: .venv/bin/python benchmarks/ceiling_evidence.py
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import compare, load_rows, quantile, source_of  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.ceiling import (  # noqa: E402
    CEILINGS_FILE,
    DENSE,
    FROZEN,
    FULL,
    MOE,
    frozen_weights,
    leave_out,
    mfu_ceiling,
    requiring_sources,
)
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.mfu import mfu_format  # noqa: E402

# the planner's own bound, (1 + margin) x the best run (engine/timing/ceiling.py reads the same file)
MARGIN = 1 + float(json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["margin"])
WIDER = {"fp8": "bf16", "fp4": "bf16"}  # formats whose recipes may keep a GEMM in bf16


def exceedances(entries: list[dict], level: str) -> dict[int, tuple[int, int, list[str]]]:
    """{n other sources: (trials, sources above MARGIN x the others' best, which)} over every (level, format, kinds)."""
    groups: dict[tuple[str, str, str, str], dict[str, float]] = {}
    for e in entries:
        if level == "arch" and e["arch"] == "default":
            continue
        best = groups.setdefault((e[level], e["format"], e["kind"], e["training"]), {})
        best[e["source"]] = max(best.get(e["source"], 0.0), e["mfu"])
    out: dict[int, tuple[int, int, list[str]]] = {}
    for key, best in sorted(groups.items()):
        for source, mfu in best.items():
            others = [m for s, m in best.items() if s != source]
            if not others:
                continue
            trials, above, which = out.get(len(others), (0, 0, []))
            beyond = mfu > MARGIN * max(others)
            note = f"{'/'.join(key)} {source} {mfu:.3f} > {MARGIN * max(others):.3f}"
            out[len(others)] = (trials + 1, above + beyond, which + ([note] if beyond else []))
    return out


def format_floor_binds(entries: list[dict]) -> list[str]:
    """fp8 rows whose ceiling (all sources; own source left out) is below the same GPU's best wider-format run of
    the kinds that may hold them in FLOP/s (MFU x that format's peak): a frozen-weights row's own and full training's,
    as ceiling.FALLBACK's first group."""
    hits = []
    for row in load_rows():
        s = scenario_from_dict(row["scenario"])
        spec = resolve_model(s)
        hw, fmt, moe, frozen = hardware_for(s), mfu_format(s), spec.is_moe, frozen_weights(s, spec)
        if fmt not in WIDER:
            continue
        for left in (None, source_of(row)):
            with leave_out(left) if left else contextlib.nullcontext():
                ceiling = mfu_ceiling(hw.gpu_id, hw.arch, fmt, moe, frozen)
            wider = [e["mfu"] for e in entries if e["gpu"] == hw.gpu_id and e["format"] == WIDER[fmt]
                     and e["kind"] == (MOE if moe else DENSE) and e["training"] in ((FROZEN, FULL) if frozen else (FULL,))
                     and e["source"] != left]
            floor = max(wider, default=0.0) * hw.peak(WIDER[fmt]) / hw.peak(fmt)
            if ceiling is None or floor > ceiling.measured:
                hits.append(f"{row['id']} (left out: {left}): ceiling {ceiling and ceiling.measured}, floor {floor:.3f}")
    return hits


def rule_effect(min_sources: int) -> tuple[str, dict[str, float]]:
    """Cross-validated figures of all rows with ceilings that need `min_sources` sources; family medians signed."""
    with requiring_sources(min_sources):
        compared = compare(load_rows())
    errors = [abs(c.error) for c in compared]
    families: dict[str, list[float]] = {}
    for c in compared:
        families.setdefault(c.arch, []).append(c.error)
    line = (f"median {statistics.median(errors):.2%}, p90 {quantile(errors, 0.9):.2%}, "
            f"beyond 25% {sum(e > 0.25 for e in errors)}")
    return line, {arch: statistics.median(v) for arch, v in families.items()}


def main() -> None:
    entries = json.loads(CEILINGS_FILE.read_text(encoding="utf-8"))["best_by_source"]
    for level in ("gpu", "arch"):
        print(f"{level}: a source's best MFU above {MARGIN:g} x the best of n other sources (trials, above)")
        for n, (trials, above, which) in sorted(exceedances(entries, level).items()):
            print(f"  n = {n}: {above} of {trials} ({above / trials:.0%}; 1 / (n + 1) = {1 / (n + 1):.0%})")
            for note in which:
                print(f"      {note}")
    hits = format_floor_binds(entries)
    print(f"fp8 ceilings below the same GPU's best bf16 FLOP/s: {len(hits)}")
    for hit in hits:
        print(f"  {hit}")
    base = None
    for k in (1, 2, 3):
        line, families = rule_effect(k)
        base = base or families
        moved = ", ".join(f"{a} {base[a]:+.1%} -> {m:+.1%}" for a, m in sorted(families.items())
                          if abs(m - base[a]) > 5e-4)
        print(f"ceilings need {k} source(s): {line}" + (f"; families (median signed) {moved}" if moved else ""))


if __name__ == "__main__":
    main()
