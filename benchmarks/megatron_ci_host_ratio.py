"""How much longer a Megatron-Core step's host work takes on GB200's Grace CPU than on a DGX H100's Xeon, from
Megatron-LM's own CI (presets/host_overhead.json host_speed).

NVIDIA/Megatron-LM runs the same functional tests (tests/functional_tests/test_cases/*/model_config.yaml) on DGX H100
(2 x Xeon Platinum 8480C) and DGX GB200 nodes and keeps each platform's per-iteration time of the run
(golden_values_dev_dgx_h100.json, golden_values_dev_dgx_gb200.json: "iteration-time", one value a step). Most of
them train a 12-layer, hidden-512 GPT, MoE, BERT or T5 model on 8 GPUs at micro-batch 4 x 1,024 tokens with
Transformer Engine layers, eager: a step issues the same Python module calls, kernel launches and collectives on
either system while its GPU work is a few milliseconds of a 50-900 ms step, so the ratio of the two iteration times
is the ratio of the two hosts' speed at Megatron's own host path (the GPU work, faster on GB200, and the device
round trips, which no CPU speed sets, only pull the ratio towards 1: it is a lower bound of the host ratio). The
same tests on DGX A100 (AMD EPYC 7742 hosts, a GPU a third as fast) run 1.43-1.61x the DGX H100's time, not 3x:
the steps are host-bound.

Taken at Megatron-LM 2edffadb (the commit Megatron-Bridge v0.4.2, NeMo 26.04.01, pins; d7288711, v0.4.0's, gives the
same files) over the tests whose model has hidden size <= 1,024 (the others, 7B and 15B models, are GPU-bound and
run faster on GB200): the median of GB200 / H100 over steps 20% to 100% of each run.

Run: .venv/bin/python benchmarks/megatron_ci_host_ratio.py                   (the stored figures)
     .venv/bin/python benchmarks/megatron_ci_host_ratio.py MEGATRON_LM_GIT_DIR [COMMIT] --write   (re-read them)
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "megatron_ci_iteration_time.json"
COMMIT = "2edffadb528ea07e261b0c02cdc42a7bb9c3197a"
CASES = "tests/functional_tests/test_cases"
HOST_BOUND_HIDDEN = 1024  # models this narrow are host-bound in these tests (module docstring)


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def _median_iteration(repo: str, commit: str, path: str) -> float | None:
    """Median iteration time (s) over steps 20% to 100% of the run, None without one."""
    values = json.loads(_git(repo, "show", f"{commit}:{path}")).get("iteration-time", {}).get("values", {})
    steps = [v for _k, v in sorted(values.items(), key=lambda kv: int(kv[0])) if isinstance(v, (int, float))]
    return statistics.median(steps[len(steps) // 5:]) if len(steps) >= 10 else None


def read_ci(repo: str, commit: str) -> list[dict]:
    """One entry per test case with both platforms' golden values: its hidden size, the two median iteration times,
    and whether both files were last written by the same commit (same software when recorded)."""
    files = _git(repo, "ls-tree", "-r", "--name-only", commit, CASES).split()
    by_case: dict[str, dict[str, str]] = defaultdict(dict)
    for f in files:
        if "/golden_values_" in f and f.endswith(".json"):
            case, platform = f.rsplit("/golden_values_", 1)
            by_case[case][platform[:-5]] = f
    out = []
    for case, platforms in sorted(by_case.items()):
        if "dev_dgx_h100" not in platforms or "dev_dgx_gb200" not in platforms:
            continue
        h100 = _median_iteration(repo, commit, platforms["dev_dgx_h100"])
        gb200 = _median_iteration(repo, commit, platforms["dev_dgx_gb200"])
        if not (h100 and gb200):
            continue
        last = {p: _git(repo, "log", "-1", "--format=%H", commit, "--", platforms[p]).strip()
                for p in ("dev_dgx_h100", "dev_dgx_gb200")}
        hidden = re.search(r"--hidden-size:\s*(\d+)", _git(repo, "show", f"{commit}:{case}/model_config.yaml"))
        out.append({"test": case.removeprefix(CASES + "/"), "hidden": int(hidden.group(1)) if hidden else None,
                    "h100_seconds": round(h100, 5), "gb200_seconds": round(gb200, 5),
                    "same_commit": last["dev_dgx_h100"] == last["dev_dgx_gb200"]})
    return out


def host_bound(tests: list[dict]) -> list[dict]:
    return [t for t in tests if t["hidden"] is not None and t["hidden"] <= HOST_BOUND_HIDDEN]


def ratios(tests: list[dict]) -> list[float]:
    return [t["gb200_seconds"] / t["h100_seconds"] for t in tests]


def summary(tests: list[dict]) -> dict[str, float]:
    """Median and quartiles of GB200 / H100 over the host-bound tests, and the median of those recorded together."""
    r = ratios(host_bound(tests))
    q1, median, q3 = statistics.quantiles(r, n=4)
    together = ratios([t for t in host_bound(tests) if t["same_commit"]])
    return {"tests": len(r), "median": statistics.median(r), "q1": q1, "q3": q3,
            "same_commit_tests": len(together), "same_commit_median": statistics.median(together)}


def stored() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--write"]
    if args:
        tests = read_ci(args[0], args[1] if len(args) > 1 else COMMIT)
        if "--write" in sys.argv:
            about = ("Median iteration time (s, steps 20% to 100%) of each NVIDIA/Megatron-LM functional test case run "
                     "on DGX H100 and DGX GB200, from tests/functional_tests/test_cases/*/golden_values_dev_dgx_h100.json "
                     "and golden_values_dev_dgx_gb200.json at the commit below; hidden: the case's --hidden-size; "
                     "same_commit: both files last written by the same commit. Written by "
                     "benchmarks/megatron_ci_host_ratio.py.")
            DATA.write_text(json.dumps({"_about": about, "commit": args[1] if len(args) > 1 else COMMIT,
                                        "tests": tests}, indent=1) + "\n", encoding="utf-8")
    else:
        tests = stored()["tests"]
    for t in sorted(tests, key=lambda t: t["gb200_seconds"] / t["h100_seconds"]):
        print(f"{t['gb200_seconds'] / t['h100_seconds']:6.3f}  H100 {t['h100_seconds']:7.4f} s  GB200 "
              f"{t['gb200_seconds']:7.4f} s  hidden {t['hidden']}  {'same ' if t['same_commit'] else '     '}{t['test']}")
    s = summary(tests)
    print(f"host-bound tests (hidden <= {HOST_BOUND_HIDDEN}): {s['tests']}, GB200 / H100 median {s['median']:.3f} "
          f"(quartiles {s['q1']:.3f} - {s['q3']:.3f}); recorded in the same commit: {s['same_commit_tests']}, "
          f"median {s['same_commit_median']:.3f}")


if __name__ == "__main__":
    main()
