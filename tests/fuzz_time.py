"""Fuzz class of issue 28 (time output): the time keys at and past their bounds through `estimate --json`,
`estimate` and `fit --objective throughput --json`, in-process.

    .venv/bin/python tests/fuzz_time.py [--count 400] [--seed 28]

Values tried: 1e308, 5e-324, 0, negatives, NaN / Infinity / 1e400 written into the file, bounds and one step past
them (1 MB/s, 1 PB/s, 0.001 and 10^6 TFLOP/s), huge and tiny calibrations, custom GPUs with extreme or lopsided
speeds (fp8 far above bf16), huge run lengths and prices, on dense and MoE models and up to 64 GPUs.

Outcome of one case:
  ok         exit 0; JSON is strict (no NaN/Infinity), every time figure finite, step > 0, 0 < MFU <= 100%
             (the table: no "nan"/"inf" in its time lines, MFU at most 100%)
  refused    exit 2 and exactly one line "error: ..." on stderr, nothing on stdout
  absurd     exit 0 with a figure that fails the checks above, or a refusal that is not one clean line
  traceback  an exception escaping the command, or exit 70 (an internal error)
  hang       no answer within CASE_SECONDS
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fuzz_cli import Hang, run_cli  # noqa: E402

CASE_SECONDS = 30  # the bounded throughput search of 64 GPUs takes well under a second
NAN_LIKE = ["NaN", "Infinity", "-Infinity", "1e400"]  # written as bare JSON tokens into the file
EXTREMES = [1e308, -1e308, 5e-324, 1e-300, 0, -1, 0.0, True, "fast", None, 2**60, 2**63, *NAN_LIKE]
BANDWIDTHS = [*EXTREMES, 1e6, 999_999.0, 1e15, 1.0000001e15, 1e9, 4.5e11]
TFLOPS = [*EXTREMES, 1e-3, 9e-4, 1e6, 1.0000001e6, 1, 400, 2000]
SECONDS = [*EXTREMES, 1e-6, 9e-7, 1e7, 1.1e7, 0.01, 0.1, 1, 10, 11, 100]
# at the bounds and inside them (half the cases): these must give a sane time, not a refusal
FAIR_BANDWIDTHS = [1e6, 1.5e6, 1e15, 1e9, 4.5e11]
FAIR_TFLOPS = [1e-3, 0.5, 1e6, 1, 400, 2000]
BASES = [
    {"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "seq_len": 1024},
    {"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "fsdp": True, "seq_len": 4096},
    {"model": "gpt-oss-20b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "ep": 4, "seq_len": 2048},
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8, "tp": 2, "pp": 2,
     "precision": "fp8", "seq_len": 8192},
]


def _custom_gpu(rng: random.Random, fair: bool) -> dict:
    gpu = {"name": "fuzz card", "memory_bytes": 80 * 2**30}
    tflops, bandwidths = (FAIR_TFLOPS, FAIR_BANDWIDTHS) if fair else (TFLOPS, BANDWIDTHS)
    for key, pool in (("bf16_tflops", tflops), ("fp8_tflops", tflops), ("fp32_tflops", tflops),
                      ("memory_bandwidth_bytes_per_s", bandwidths), ("interconnect_bandwidth_bytes_per_s", bandwidths),
                      ("pcie_generation", [3, 4, 5, 6] if fair else [*EXTREMES, 3, 11])):
        if rng.random() < 0.5:
            gpu[key] = rng.choice(pool)
    return gpu


def time_case(rng: random.Random) -> tuple[str, list[str], dict]:
    """(name, argv before the file, scenario) of one generated case."""
    data = dict(rng.choice(BASES))
    fair = rng.random() < 0.5
    changed = []
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(["intra_node_bandwidth_bytes_per_s", "inter_node_bandwidth_bytes_per_s", "gpu",
                          "time_calibration", "time_calibration", "tokens_to_train", "gpu_hour_price"])
        if key == "gpu":
            data["gpu"] = _custom_gpu(rng, fair)
        elif key == "time_calibration" and fair:  # a factor within 0.1..10 of a step within 1 us..1e7 s
            measured = 10 ** rng.uniform(-5, 6)
            data[key] = {"measured_step_seconds": measured, "predicted_step_seconds": measured * rng.choice(
                [0.1, 0.5, 1, 3, 10, 10 ** rng.uniform(-1, 1)])}
        elif key == "time_calibration":
            data[key] = rng.choice([{"measured_step_seconds": rng.choice(SECONDS),
                                     "predicted_step_seconds": rng.choice(SECONDS)}] * 4 + [[1, 2], "x", 0])
        elif key.endswith("bytes_per_s"):
            data[key] = rng.choice(FAIR_BANDWIDTHS if fair else BANDWIDTHS)
        else:
            data[key] = rng.choice([1, 10**9, 15 * 10**12, 2**60, 2.5] if fair else [*EXTREMES, 1, 10**9])
        changed.append(key)
    argv = rng.choice([["estimate", "--json"]] * 5 + [["estimate"]] * 2 + [["fit", "--objective", "throughput",
                                                                             "--json"]])
    return f"{' '.join(argv)} {'+'.join(changed)}", argv, data


def _file_text(data: dict) -> str:
    text = json.dumps(data)  # Python writes NaN/Infinity as bare tokens: the hostile file is exactly that
    for token in NAN_LIKE:
        text = text.replace(json.dumps(token), token)
    return text




def _time_problem(t: dict) -> str | None:
    figures = [t["step_seconds"], t["tokens_per_second"], t["tokens_per_second_per_gpu"], t["mfu"],
               *t["breakdown_seconds"].values(), *(t.get(k, 0) for k in ("time_to_train_seconds", "gpu_hours", "cost"))]
    if any(not isinstance(v, int | float) or not math.isfinite(v) or v < 0 for v in figures):
        return "a time figure is negative or not finite"
    if not (t["step_seconds"] > 0 and 0 < t["mfu"] <= 1.0):
        return f"step {t['step_seconds']!r} s, MFU {t['mfu']!r}"
    return None


def _no_constant(name: str):
    raise ValueError(f"bare {name}")


def check_output(argv: list[str], out: str) -> str | None:
    """None when the output of a successful command is sane, else what is absurd about it."""
    if "--json" not in argv:
        lines = [line for line in out.splitlines() if line.startswith(("Time:", "Where the time goes", "Time to"))]
        if not lines or re.search(r"\b(nan|inf)\b", " ".join(lines), re.IGNORECASE):
            return "the time lines show nan/inf or are missing"
        mfu = re.search(r"MFU (\d+)%", lines[0])
        return None if mfu and int(mfu.group(1)) <= 100 else "MFU over 100% or missing"
    try:
        data = json.loads(out, parse_constant=_no_constant)
    except ValueError as exc:
        return f"--json output is not strict JSON ({exc})"
    times = [data["time"]] + [plan["time"] for plan in (*data.get("plans", []), *data.get("changes_what_you_train", []))]
    return next((problem for t in times if (problem := _time_problem(t))), None)


def run_case(argv: list[str], data: dict, folder: Path) -> tuple[str, str]:
    path = folder / "time-case.json"
    path.write_text(_file_text(data))
    try:
        code, out, err = run_cli([*argv, str(path)], CASE_SECONDS)
    except Hang:
        return "hang", ""
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        clean = out == "" and len(lines) == 1 and lines[0].startswith("error: ")
        return ("refused", "") if clean else ("absurd", f"refusal not one clean line: {err[:200]!r}")
    if code != 0:
        return "traceback", f"exit {code}: {err[-200:]}"
    problem = check_output(argv, out)
    return ("absurd", problem) if problem else ("ok", "")


def fuzz_time(count: int, seed: int) -> Counter:
    """Outcome name -> count over `count` generated cases; "traceback", "hang" and "absurd" are failures."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(count):
            name, argv, data = time_case(rng)
            outcome, detail = run_case(argv, data, Path(tmp))
            counts[outcome] += 1
            if outcome not in ("ok", "refused"):
                print(f"{outcome}: {name}: {detail}", file=sys.stderr)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    counts = fuzz_time(args.count, args.seed)
    print("time keys: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts["traceback"] + counts["hang"] + counts["absurd"] else 0


if __name__ == "__main__":
    sys.exit(main())
