"""Measure ground-truth peak memory of HF training steps and write tests/data/ground_truth/*.json.

Usage: validation/.venv/bin/python validation/run_ground_truth.py [--only PATTERN] [--list] [--force] [--distributed]

--distributed traces one rank of N per pipeline stage (validation/distributed.py) for the configurations in
validation/scenarios_distributed.py and writes tests/data/ground_truth/distributed/*.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.measure import Run, measure, versions  # noqa: E402
from validation.reference import reference_check  # noqa: E402
from validation.scenarios import all_runs  # noqa: E402

OUT_DIR = ROOT / "tests" / "data" / "ground_truth"
METHOD = "fake-tensor MemTracker on CPU, 512-byte rounding, second step"
DIST_METHOD = ("one rank of N with PyTorch's fake process group, fake-tensor MemTracker on CPU, 512-byte rounding, "
               "second step; rank 0 of every pipeline stage")


def write_result(run: Run, measured: dict, out_dir: Path = OUT_DIR, method: str = METHOD) -> Path:
    """Write one ground-truth file (the contract read by the test suite)."""
    doc = {
        "id": run.id,
        "description": run.description(),
        "scenario": run.scenario(),
        "measured": measured,
        "method": method,
        "versions": versions(),
        "measured_at": dt.date.today().isoformat(),
    }
    path = out_dir / f"{run.id}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=2) + "\n")
    tmp.replace(path)
    return path


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", help="glob (or substring) of config ids to run")
    ap.add_argument("--list", action="store_true", help="list config ids and exit")
    ap.add_argument("--force", action="store_true", help="re-measure configs whose file exists")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--distributed", action="store_true", help="trace the distributed configurations")
    args = ap.parse_args(argv)

    if args.distributed:
        from validation.distributed import measure_dist
        from validation.scenarios_distributed import all_dist_runs

        runs: list = all_dist_runs()
        measure_fn, method = measure_dist, DIST_METHOD
        args.out = args.out or OUT_DIR / "distributed"
    else:
        runs = all_runs()
        measure_fn, method = measure, METHOD
        args.out = args.out or OUT_DIR
    if args.only:
        pat = args.only if any(c in args.only for c in "*?[") else f"*{args.only}*"
        runs = [r for r in runs if fnmatch.fnmatch(r.id, pat)]
    if args.list:
        for r in runs:
            print(r.id)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    for i, run in enumerate(runs, 1):
        if (args.out / f"{run.id}.json").exists() and not args.force:
            print(f"[{i}/{len(runs)}] {run.id}: exists, skipped", flush=True)
            continue
        t0 = time.time()
        try:
            measured = measure_fn(run)
        except Exception:  # keep going: one failing config must not stop the sweep
            failed.append(run.id)
            print(f"[{i}/{len(runs)}] {run.id}: FAILED\n{traceback.format_exc()}", flush=True)
            continue
        write_result(run, measured, args.out, method)
        print(f"[{i}/{len(runs)}] {run.id}: peak {measured['peak_allocated_bytes']:,} "
              f"({measured['peak_phase']}) in {time.time() - t0:.1f}s", flush=True)
    if args.distributed:
        if failed:
            print(f"failed: {failed}")
        return 1 if failed else 0
    check = reference_check(args.out)
    (args.out / "_reference_check.json").write_text(json.dumps(check, indent=2) + "\n")
    for row in check["checks"]:
        print(f"reference: {row['check']}: expected {row['expected']}, got {row['got']} "
              f"{'OK' if row['ok'] else 'MISMATCH'}")
    if failed:
        print(f"failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
