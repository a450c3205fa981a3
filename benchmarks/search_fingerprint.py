"""Byte-identical check of the speed search for refactors: record its whole output on a few set-ups, compare later.

    .venv/bin/python benchmarks/search_fingerprint.py record OUT.json
    .venv/bin/python benchmarks/search_fingerprint.py compare OUT.json

benchmarks/output_fingerprint.py covers estimates, step times and suggestions, not the speed search: this records,
for each set-up below, the plans (scenario, changes, estimate and step time, repr), the plans that change what is
trained, the candidates, the layouts ranked, the counts, fastest_fitting and speed_bound. `compare` exits 1 if any
set-up differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scenario_from_dict  # noqa: E402
from engine.errors import PlannerError  # noqa: E402
from engine.planning.speed_search import fastest_fitting, speed_bound, speed_search  # noqa: E402

SETUPS: list[dict[str, Any]] = [
    {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128, "seq_len": 8192,
     "micro_batch": 1, "grad_accum": 2, "attention": "flash", "precision": "mixed-bf16", "framework": "megatron"},
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "micro_batch": 2, "seq_len": 4096,
     "attention": "flash", "fsdp": True, "checkpointing": "selective"},
    {"model": "llama-3-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 4, "micro_batch": 1, "grad_accum": 8,
     "seq_len": 8192, "attention": "flash"},
    {"model": "mixtral-8x7b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 2, "micro_batch": 1, "grad_accum": 4,
     "seq_len": 4096, "attention": "flash", "framework": "megatron"},
    {"model": "llama-3-8b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 2, "micro_batch": 4, "grad_accum": 4,
     "seq_len": 2048, "framework": "deepspeed", "zero_stage": 2},
]


def output(data: dict[str, Any]) -> dict[str, Any]:
    try:
        s = scenario_from_dict(data)
        r = speed_search(s)
        fastest = fastest_fitting(s)
    except PlannerError as e:
        return {"error": str(e)}
    return {"plans": [repr((p.scenario, p.changes, p.estimate, p.time, p.fits)) for p in r.plans],
            "changes_what_you_train": [repr((p.scenario, p.changes, p.estimate, p.time))
                                       for p in r.changes_what_you_train],
            "candidates": repr(r.candidates), "layouts": r.layouts, "estimates": r.estimates, "limited": r.limited,
            "ranked": repr(r.ranked), "fastest_fitting": repr(fastest), "speed_bound": repr(speed_bound(s))}


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "compare"):
        print(__doc__)
        return 2
    mode, file = sys.argv[1], Path(sys.argv[2])
    outputs = json.loads(json.dumps([output(d) for d in SETUPS]))
    if mode == "record":
        file.write_text(json.dumps(outputs))
        print(f"recorded {len(outputs)} speed searches to {file}")
        return 0
    same = [a == b for a, b in zip(json.loads(file.read_text()), outputs, strict=True)]
    print(f"compared {len(same)} speed searches: {sum(same)} identical, {len(same) - sum(same)} differ")
    return 0 if all(same) else 1


if __name__ == "__main__":
    sys.exit(main())
