"""Cross-check the fake-tensor tracker on a small config.

1. Same steps on real CPU tensors (PhaseMemTracker, no FakeTensorMode) vs fake tensors.
2. An independent storage counter (a plain TorchDispatchMode that counts every op's
   output storages, rounded to 512 bytes, and subtracts them when they die) vs
   PhaseMemTracker, both on fake tensors, same steps.

Usage: validation/.venv/bin/python validation/crosscheck.py  (writes validation/crosscheck.json)
"""

from __future__ import annotations

import gc
import json
import math
import sys
import weakref
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.utils._pytree import tree_flatten  # noqa: E402

from validation.measure import (  # noqa: E402
    Run,
    _step,
    build_model,
    make_optimizer,
    measure,
    patch_transformers_tracing,
    versions,
)
from validation.scenarios import make_run  # noqa: E402


class StorageCounter(TorchDispatchMode):
    """Counts bytes of all live storages produced by ops (or registered), with phase peaks."""

    def __init__(self) -> None:
        super().__init__()
        self._alive: dict[int, int] = {}
        self.total = 0
        self.phase = "setup"
        self.phase_peak: dict[str, int] = {}

    def add(self, t: torch.Tensor) -> None:
        """Register the storage behind ``t`` if it is not counted yet."""
        st = t.untyped_storage()
        key = id(st)
        if key in self._alive:
            return
        nbytes = math.ceil(st.nbytes() / 512) * 512
        self._alive[key] = nbytes
        self.total += nbytes
        weakref.finalize(st, self._free, key)
        if self.total > self.phase_peak.get(self.phase, -1):
            self.phase_peak[self.phase] = self.total

    def _free(self, key: int) -> None:
        self.total -= self._alive.pop(key)

    def current_total(self) -> int:
        return self.total

    def current_by_category(self) -> dict[str, int]:
        return {}

    def reset_phase(self, phase: str) -> None:
        self.phase = phase
        self.phase_peak[phase] = self.total

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                self.add(t)
        return out


def _counter_measure(run: Run) -> dict[str, Any]:
    patch_transformers_tracing()
    fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
    model = build_model(run, fake_mode)
    with fake_mode:
        opt = make_optimizer(run, model)
        input_ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len))
        sc = StorageCounter()
        for t in [*model.parameters(), *model.buffers(), input_ids]:
            sc.add(t)
        with sc:
            _step(run, model, opt, input_ids, sc)
            gc.collect()
            info = _step(run, model, opt, input_ids, sc)
    return {"phases": {p: sc.phase_peak[p] for p in ("forward", "backward", "optimizer")},
            "baseline_bytes": info["baseline"], "forward_end_bytes": info["forward_end"]}


def _small(**kw: Any) -> Run:
    run = make_run("llama-2-7b", layers=2, s=256, **kw)
    run.hf_config.update(hidden_size=512, intermediate_size=1376, num_attention_heads=8,
                         num_key_value_heads=8, vocab_size=4000)
    run.model_name = "Llama-2 architecture, tiny (h=512, 2 layers, vocab 4000)"
    return run


def main() -> int:
    """Run both checks on a handful of small configurations and write crosscheck.json."""
    torch.manual_seed(0)
    cases = [_small(precision="bf16"), _small(precision="fp32"), _small(precision="amp-bf16"),
             _small(precision="amp-bf16", attention="eager"), _small(precision="bf16", checkpointing="full"),
             _small(precision="fp32", optimizer="adamw-fused"), _small(precision="bf16", method="freeze"),
             _small(precision="bf16", method="lora", lora_rank=8, lora_targets="all-linear")]
    rows = []
    keys = ("phases", "baseline_bytes", "forward_end_bytes")
    for run in cases:
        fake = measure(run, fake=True)
        real = measure(run, fake=False)
        counter = _counter_measure(run)
        row = {"id": run.id,
               "fake_tracker": {k: fake[k] for k in keys},
               "real_cpu_tracker": {k: real[k] for k in keys},
               "independent_counter_fake": counter}
        row["real_equals_fake"] = row["fake_tracker"] == row["real_cpu_tracker"]
        row["counter_equals_tracker"] = row["fake_tracker"] == counter
        rows.append(row)
        print(run.id, "real==fake:", row["real_equals_fake"], "counter==tracker:",
              row["counter_equals_tracker"], flush=True)
    out = {"versions": versions(), "cases": rows}
    (Path(__file__).parent / "crosscheck.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0 if all(r["real_equals_fake"] and r["counter_equals_tracker"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
