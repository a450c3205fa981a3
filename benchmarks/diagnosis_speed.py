"""Time to read what `diagnose` reads, at sizes and shapes that would expose a non-linear reader (issue 27):
an out-of-memory message at the end of a 4 MB log, 4 MB of near-miss text, a snapshot of 200,000 trace events
(about _dump_snapshot's default max_entries of 100,000 allocs and frees), a hostile pickle of one million
nested lists, and a 50,000-row nvidia-smi log. Prints seconds; the engine's own deadline is 30 s per file.

Run: .venv/bin/python benchmarks/diagnosis_speed.py
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.diagnosis.gpu_logs import read_gpu_log  # noqa: E402
from engine.diagnosis.oom_text import MAX_TEXT_CHARS, parse_oom_text  # noqa: E402
from engine.diagnosis.snapshot import read_snapshot  # noqa: E402
from engine.errors import PlannerError  # noqa: E402

MESSAGE = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
           "79.10 GiB of which 1.00 GiB is free. Of the allocated memory 70.00 GiB is allocated by PyTorch, and "
           "10.00 MiB is reserved by PyTorch but unallocated.")
FRAMES = [{"filename": "transformers/models/llama/modeling_llama.py", "line": 300, "name": "forward"},
          {"filename": "torch/nn/modules/module.py", "line": 1520, "name": "_call_impl"}] * 8


def timed(label: str, fn) -> None:  # noqa: ANN001
    start = time.perf_counter()
    try:
        fn()
        outcome = "read"
    except PlannerError as exc:
        outcome = f"refused: {exc}"[:90]
    print(f"{label:<52} {time.perf_counter() - start:8.3f} s  {outcome}")


def snapshot(events: int) -> bytes:
    trace = []
    for i in range(events // 2):
        trace.append({"action": "alloc", "addr": i, "size": 2**20, "stream": 0, "frames": FRAMES})
        trace.append({"action": "free_completed", "addr": i, "size": 2**20, "stream": 0, "frames": FRAMES})
    return pickle.dumps({"segments": [], "device_traces": [trace]}, protocol=4)


def main() -> None:
    log = ("INFO step 1 loss 2.3 lr 1e-5\n" * (MAX_TEXT_CHARS // 28))[: MAX_TEXT_CHARS - 500] + MESSAGE
    timed("OOM message at the end of a 4 MB log", lambda: parse_oom_text(log))
    near = ("Tried to allocate 1.1.1.1.1 " * 150_000)[: MAX_TEXT_CHARS - 10]
    timed("4 MB of near-miss 'Tried to allocate' text", lambda: parse_oom_text(near))
    data = snapshot(200_000)
    print(f"  (snapshot pickle: {len(data) / 1e6:.1f} MB)")
    timed("snapshot, 200,000 trace events", lambda: read_snapshot(data))
    nested = b"\x80\x04" + b"]" * 1_000_000 + b"a" * 999_999 + b"."
    timed("hostile pickle, 1,000,000 nested lists", lambda: read_snapshot(nested))
    csv = "memory.used [MiB]\n" + "".join(f"{1000 + i % 997} MiB\n" for i in range(50_000))
    timed("nvidia-smi log, 50,000 rows", lambda: read_gpu_log(csv))


if __name__ == "__main__":
    main()
