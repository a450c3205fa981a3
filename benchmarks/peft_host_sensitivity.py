"""What PEFT's adapters cost on the measured H200 LoRA rows, and how it shows once the measuring host's per-launch
figure is known: a sensitivity, not a fit.

The measured LoRA rows (tests/data/gpu_measured) ran Hugging Face eager layers with peft 0.21.0's adapters. Their
GPU work is engine/timing/lora_adapters.py adapter_seconds; the host work peft adds (launches and module calls per
adapted linear, again in a checkpointed layer's recompute) hides behind the GPU at the preset's 9.02 us a launch.
This script multiplies the launch and call figures of the h200 preset by trial factors (host_overhead.json
host_speed, in this process only; the preset file is not touched) and prints, per LoRA row, the step with and
without peft's host work, so the measuring host's figure, once derived (h-hfhost), can be judged at once.

Run: PYTHONPATH=. .venv/bin/python benchmarks/peft_host_sensitivity.py [FACTOR ...]   (default 1 3 4.5)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.measured_gpu_time import gpu_time_summary, load_gpu_time_rows  # noqa: E402
from engine.caches import clear_caches  # noqa: E402
from engine.timing import lora_adapters  # noqa: E402
from engine.timing.host import host_figures  # noqa: E402


def rows_at(factor: float, peft_host: bool) -> list:
    """The measured rows with the h200 host figures times `factor`, with or without peft's host work."""
    clear_caches()
    host_figures()["host_speed"]["factor"]["h200"] = factor
    saved = lora_adapters.LAUNCHES, lora_adapters.COMPILED_LAUNCHES, lora_adapters.PEFT_MODULE_CALLS
    if not peft_host:
        zero = {k: (0, 0) for k in lora_adapters.LAUNCHES}
        lora_adapters.LAUNCHES, lora_adapters.COMPILED_LAUNCHES, lora_adapters.PEFT_MODULE_CALLS = zero, zero, 0
    try:
        return load_gpu_time_rows()
    finally:
        lora_adapters.LAUNCHES, lora_adapters.COMPILED_LAUNCHES, lora_adapters.PEFT_MODULE_CALLS = saved


def main(argv: list[str]) -> None:
    for factor in [float(a) for a in argv] or [1.0, 3.0, 4.5]:
        with_peft, without = rows_at(factor, True), rows_at(factor, False)
        s = gpu_time_summary(with_peft)
        print(f"h200 host factor {factor:g} ({factor * 9.02:.1f} us a launch): all {s['runs']} rows median "
              f"{s['median_abs_error']:.1%}, p90 {s['p90_abs_error']:.1%}, signed {s['median_signed_error']:+.1%}, "
              f"beyond 25% {s['beyond_25']}")
        for a, b in zip(with_peft, without, strict=True):
            if "lora" in a.id:
                print(f"  {a.id:<72} measured {a.measured_step_seconds:.3f}  predicted {a.predicted_step_seconds:.3f} "
                      f"({a.error:+.1%}); without peft's host work {b.predicted_step_seconds:.3f} ({b.error:+.1%})")
    clear_caches()


if __name__ == "__main__":
    main(sys.argv[1:])
