"""Why the LoRA + checkpointing traces hold two b·s·h tensors after backward: a measurement artefact.

With activation checkpointing, peft calls ``enable_input_require_grads``: the embedding output becomes a leaf
that requires grad, and backward gives it a b·s·h ``.grad``. MemTracker's module tracker registers
``torch.autograd.graph.register_multi_grad_hook`` on every module input that requires grad; for a leaf the
hook sits on its AccumulateGrad node, which holds the leaf, and the hook's closure holds the node: a cycle
through C++ that Python's collector cannot free. So, only while the tracker is attached, every step's leaf
and its gradient stay alive (into the optimizer step and the next steps). ``validation/distributed.py`` keeps
the hooks' handles and removes them once the backward has run. This script shows it with weak references to the
embedding outputs: with the bare tracker, with the harness's tracker (hooks removed after backward), and
without any tracker.

Usage: validation/.venv/bin/python validation/tracker_artefact.py [tracker|harness|plain]  (no argument: all
three, each in its own process, since a process group cannot be set up twice)
"""

from __future__ import annotations

import gc
import sys
import weakref
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from validation import distributed as dist_trace  # noqa: E402

RUN_ID = "llama-3-8b-L4_bf16_sdpa_lora-r8-qv_ckpt_b1_s2048__fsdp8"


class _NoTracker:
    """What _run_step needs from a tracker, tracking nothing."""

    phase: str | None = None
    phase_peak: dict[str, int] = {}

    def current_total(self) -> int:
        return 0

    def current_by_category(self) -> dict[str, int]:
        return {}

    def reset_phase(self, phase: str) -> None:
        self.phase = phase

    def reset_mod_stats(self) -> None:
        pass


def _watch(refs: list[Any], report: list[str]) -> None:
    build = dist_trace.build_rank

    def build_rank(*a: Any, **k: Any) -> Any:
        module, opt, sched = build(*a, **k)
        emb = [m for n, m in module.named_modules() if n.endswith("embed_tokens")][0]
        emb.register_forward_hook(lambda m, i, o: refs.append(weakref.ref(o)))
        return module, opt, sched

    dist_trace.build_rank = build_rank
    step = torch.optim.AdamW.step

    def at_step(self: Any, *a: Any, **k: Any) -> Any:
        gc.collect()
        alive = [r() for r in refs if r() is not None]
        report.append(f"{len(alive)} of {len(refs)} embedding outputs alive at the optimizer step, "
                      f"{sum(t.grad is not None for t in alive)} with a gradient")
        return step(self, *a, **k)

    torch.optim.AdamW.step = at_step


def main() -> int:
    from torch._subclasses.fake_tensor import FakeTensorMode

    from validation.measure import patch_transformers_tracing
    from validation.scenarios_distributed import all_dist_runs

    run = next(r for r in all_dist_runs() if r.id == RUN_ID)
    refs: list[Any] = []
    report: list[str] = []
    _watch(refs, report)
    mode = sys.argv[1] if len(sys.argv) > 1 else "both"
    if mode == "both":
        import subprocess

        for m in ("tracker", "harness", "plain"):
            subprocess.run([sys.executable, __file__, m], check=True)
        return 0
    if mode in ("tracker", "harness"):
        if mode == "tracker":  # the bare tracker: its hooks are never removed
            dist_trace._release_module_grad_hooks = lambda: None
        dist_trace.measure_rank(run, 0)
        print(f"with {'the bare' if mode == 'tracker' else 'the harness'} MemTracker: ", "; ".join(report))
    else:
        patch_transformers_tracing()
        dist_trace._untracked_sharding_propagation()
        dist_trace.init_fake_group(0, run.world)
        fake = FakeTensorMode(allow_non_fake_inputs=True)
        module, opt, sched = dist_trace.build_rank(run, 0, fake)
        with fake:
            ids = torch.randint(0, run.hf_config["vocab_size"], (1, run.seq_len))
            for _ in range(2):
                dist_trace._run_step(run, 0, module, opt, sched, ids, _NoTracker())
        print("without a tracker: ", "; ".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
