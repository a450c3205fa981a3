"""Fuzz class of `diagnose FILE [SCENARIO]` (h-fuzz7), run by tests/fuzz_hostile.py (`make fuzz`), in-process:

    .venv/bin/python tests/fuzz_diagnose.py [--count 400] [--seed 27]

Each case writes one input of a kind diagnose reads (engine/diagnosis/command.py) and makes it hostile:
  oom        a real message of the corpus (tests/data/oom_messages) with its numbers replaced by absurd ones (NaN,
             1e308, 5,000 digits, negatives), repeated thousands of times, cut short or holding terminal escapes; or
             PyTorch's wording written with absurd figures
  gpu log    nvidia-smi and W&B system-metrics CSV with absurd values, units, GPU indices and up to 20,000 rows
  timeline   the profiler's memory-timeline JSON (coalesced and raw events) with absurd values, wrong shapes past
             the first 1,000 events, deep nesting, NaN / Infinity tokens, the HTML export
  snapshot   a torch.cuda.memory._dump_snapshot pickle with absurd or wrongly typed fields (an address that is a
             dict, a size that is a string), deep nesting, random bytes, a pickle naming os.system
beside no scenario or a training, post-training or serving one, with or without --json. The outcomes are
tests/fuzz_newest.py's (ok / refused one clean short line / absurd / traceback / hang); "absurd" here also counts
a negative or non-finite byte figure in the JSON.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import suite_main  # noqa: E402
from fuzz_newest import run_case  # noqa: E402

CASE_SECONDS = 60  # the largest input here (20,000 rows of 300 GPUs) takes a few seconds on a loaded machine
BAD = ("traceback", "hang", "absurd")
OOMS = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((REPO / "tests/data/oom_messages").glob("*.txt"))]
NUMBERS = ["0", "-1", "1e308", "-1e308", "nan", "NaN", "inf", "-inf", "9" * 40, "9" * 5000, "0x" + "f" * 300,
           "1.5e-300", "18446744073709551616", "", "\u0663"]
ESCAPES = ["\x1b[2J", "\x1b]0;owned\x07", "\u202e", "\nVerdict: FITS", "\x00", "\r"]
SCENARIOS = [None, "examples/llama3-8b-lora-4090.json", "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json",
             "examples/serve-llama3.1-8b-q4km-llamacpp.json"]


def oom_text(rng: random.Random) -> str:
    text = rng.choice(OOMS)
    kind = rng.randrange(5)
    if kind == 0:
        return re.sub(r"\d+(\.\d+)?", lambda m: rng.choice(NUMBERS) if rng.random() < 0.3 else m.group(), text)
    if kind == 1:
        return text * rng.choice([2, 100, 5000])
    if kind == 2:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(ESCAPES) * rng.randint(1, 3) + text[at:]
    if kind == 3:
        return text[: rng.randrange(len(text) + 1)]
    n = [rng.choice(NUMBERS) for _ in range(5)]
    return (f"CUDA out of memory. Tried to allocate {n[0]} {rng.choice(['GiB', 'MiB', 'TiB', 'B', 'EiB', ''])}. GPU 0 "
            f"has a total capacity of {n[1]} GiB of which {n[2]} MiB is free. Of the allocated memory {n[3]} GiB is "
            f"allocated by PyTorch, and {n[4]} MiB is reserved by PyTorch but unallocated.")


def gpu_log(rng: random.Random) -> str:
    rows = rng.choice([0, 1, 3, 1000, 20_000])
    if rng.random() < 0.5:
        head = rng.choice(["memory.used [MiB]", "timestamp, index, memory.used [MiB], memory.total [MiB]",
                           "memory.used [MiB], memory.used [MiB]", "memory.used [TiB]"])
        lines = []
        for i in range(rows):
            v = rng.choice(["1024 MiB", "5", *[x + " MiB" for x in NUMBERS], *NUMBERS, "x", "1,2"])
            lines.append(v if "," not in head else f"2024/05/01 10:00:{i % 60:02d}.000, "
                         f"{rng.choice(['0', '1', '-1', '9' * 30, 'x'])}, {v}, {rng.choice(NUMBERS)} MiB")
        return head + "\n" + "\n".join(lines) + "\n"
    gpus = rng.choice([1, 2, 300])
    head = rng.choice(["_runtime,_timestamp,system/gpu.0.memoryAllocatedBytes", "_step,system/gpu.0.memoryAllocated",
                       "_runtime," + ",".join(f"system/gpu.{i}.memoryAllocatedBytes" for i in range(gpus)),
                       "_runtime,system/gpu.-1.memoryAllocatedBytes",
                       "_runtime,system/gpu." + "9" * 40 + ".memoryAllocatedBytes"])
    width = head.count(",") + 1
    return head + "\n" + "".join(",".join(rng.choice([*NUMBERS, "1000000000", "10"]) for _ in range(width)) + "\n"
                                 for _ in range(rows))


def timeline(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:  # coalesced: [times, rows of 9]
        n = rng.choice([0, 1, 5, 1001, 5000])
        return json.dumps([[rng.choice([0, 1, 2**60, -5, 1e300, "x"]) for _ in range(n)],
                           [[rng.choice([0, 1e308, -1e308, 2**53, "a", None, [1]]) for _ in range(9)] for _ in range(n)]])
    if kind == 1:  # raw events; the export is recognised by its first 1,000, so a bad one comes after
        events: list[Any] = [[i, 0, rng.choice([1, -1, 10**18, 1e308]), rng.choice([0, 3, 7, 8, -1, True, "1"])]
                             for i in range(rng.choice([1, 999, 1000, 2000]))]
        events.append(rng.choice([5, [], [1], None, "x", [1, 2, 3, 4, 5], [[1], 0, 0, 0]]))
        return json.dumps(events)
    if kind == 2:
        return "[" * rng.choice([10, 1000, 100_000]) + "]" * rng.choice([0, 10])
    if kind == 3:
        return "<html>" + "x" * 1000
    return "[" + ",".join(rng.choice(["NaN", "Infinity", "1e400", "9" * 5000]) for _ in range(10)) + "]"


def snapshot(rng: random.Random) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:
        return b"\x80\x04" + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if kind == 1:
        return b"\x80\x02cos\nsystem\n(S'id'\ntR."

    def value() -> Any:
        return rng.choice([0, -1, 2**64, 2**1000, 1.5, math.nan, math.inf, "x", None, [], {}, True])

    blocks = [{"size": value(), "state": rng.choice(["active_allocated", "inactive", "x", None]),
               "frames": rng.choice([[], [{"filename": "\x1b[2J", "line": value(), "name": value()}], "x"])}
              for _ in range(rng.choice([0, 1, 50]))]
    segment = {"device": rng.choice([0, -1, 10**20, "0", None]), "address": value(), "total_size": value(),
               "blocks": blocks}
    traces = [[{"action": rng.choice(["alloc", "free_completed", "segment_alloc", "oom", "snapshot", "x"]),
                "addr": value(), "size": value(), "stream": 0, "frames": []} for _ in range(rng.choice([0, 1, 100]))]
              for _ in range(rng.choice([0, 1, 3]))]
    data: Any = {"segments": rng.choice([[segment], [], None, "x", [segment] * 3]),
                 "device_traces": rng.choice([traces, None, "x", [None]])}
    if kind == 2:
        data = rng.choice([[], None, 5, "x", {"segments": 5}])
    if kind == 3:
        nested: list[Any] = []
        for _ in range(rng.choice([10, 40, 400])):
            nested = [nested]
        data = {"segments": nested, "device_traces": []}
    return pickle.dumps(data, protocol=rng.choice([2, 3, 4, 5]))


def _sane(out: str) -> str | None:
    """A byte figure in diagnose's JSON that is negative or not finite (None: sane)."""
    stack: list[Any] = [json.loads(out)]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, v in item.items():
                if key.endswith("bytes") and isinstance(v, int | float) and (not math.isfinite(v) or v < 0):
                    return f"{key} = {v}"
                stack.append(v)
        elif isinstance(item, list):
            stack.extend(item)
    return None


MAKERS = {"oom": oom_text, "gpu log": gpu_log, "timeline": timeline, "snapshot": snapshot}


def fuzz_diagnose(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: KIND"; prints what went wrong."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    details: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input"
        for _ in range(count):
            kind = rng.choice(list(MAKERS))
            data = MAKERS[kind](rng)
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
            scenario = rng.choice(SCENARIOS)
            argv = ["diagnose", *(["--json"] if rng.random() < 0.5 else []), str(path),
                    *([str(REPO / scenario)] if scenario else [])]
            outcome, detail = run_case(argv, CASE_SECONDS, _sane)
            counts[outcome] += 1
            counts[f"cases: {kind}"] += 1
            if outcome in BAD:
                details.append(f"{outcome}: {kind} {' '.join(argv[:2])} beside {scenario}: {detail}")
    for line in details[:20]:
        print(line)
    return counts


def main() -> int:
    return suite_main(__doc__, "diagnose", fuzz_diagnose, 400, 27, BAD)


if __name__ == "__main__":
    sys.exit(main())
