"""The real-GPU QLoRA rows (tests/data/gpu_measured, `qlora` in the id) part by part: the measured step, the time
model's step, the host time of the layer stacks' launches and of the bitsandbytes 4-bit linears
(engine/timing/bnb_4bit.py), forward, recompute and backward, and the measured step of the same LoRA shape without
4-bit layers where one was run (the same id without `qlora-nf4dq`). Prints figures; asserts nothing.

    PYTHONPATH=. .venv/bin/python benchmarks/qlora_rows.py
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.measured_gpu import GPU_MEASURED_DIR, PRESET_BY_DEVICE, scenario_of  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.host import host_call_seconds, launches, linear4bit_layer_seconds  # noqa: E402


def main() -> None:
    cases = {}
    for path in sorted(GPU_MEASURED_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for case in doc["cases"]:
            if "error" not in case and len(case.get("steps", [])) > 1:
                cases[case["id"]] = (case, PRESET_BY_DEVICE[doc["environment"]["gpu"]], doc["environment"])
    print("row | measured s | predicted s | stack host s | 4-bit host s | same LoRA shape measured s")
    for cid, (case, gpu, environment) in cases.items():
        if "qlora" not in cid:
            continue
        s = scenario_from_dict(scenario_of(case, gpu, environment))
        layers = resolve_model(s).layers
        launch, call = host_call_seconds(s)
        passes = 2 if s.checkpointing == "full" else 1  # the forward again in the backward
        fwd, bwd = launches(s, False, False)
        q_fwd, q_bwd = linear4bit_layer_seconds(s, (False, False, ""))  # a dense layer's 4-bit linears
        same = cases.get(cid.replace("qlora-nf4dq-direct", "direct").replace("_qlora-nf4dq", ""))
        lora = f"{statistics.mean(x['seconds'] for x in same[0]['steps'][1:]):.4f}" if same else "-"
        print(f"{cid} | {statistics.mean(x['seconds'] for x in case['steps'][1:]):.4f} | "
              f"{step_time(s).step_seconds:.4f} | {layers * (passes * fwd + bwd) * launch:.4f} | "
              f"{layers * (passes * q_fwd + q_bwd):.4f} | {lora}")


if __name__ == "__main__":
    main()
