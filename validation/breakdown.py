"""Which tensors make up the activations alive at the end of forward (for the estimator).

Builds a reduced-depth model in fake mode, runs one forward with labels and lists every
storage created during forward that is still alive when the loss is returned, grouped by
(innermost module with layer index replaced by '*', op, dtype). Sizes are shown in bytes
and in units of s*b*h.

Usage: validation/.venv/bin/python validation/breakdown.py [--model llama-2-7b] [--layers 2]
       [--precision bf16] [--attention sdpa] [--checkpointing none] [-b 1] [-s 2048]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import sys
import weakref
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
from torch.distributed._tools.mod_tracker import ModTracker  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.utils._pytree import tree_flatten  # noqa: E402

from validation.measure import build_model, patch_transformers_tracing  # noqa: E402
from validation.scenarios import make_run  # noqa: E402


class Attributor(TorchDispatchMode):
    """Remembers, for each live storage, the op and innermost module that created it."""

    def __init__(self, mods: ModTracker) -> None:
        super().__init__()
        self.mods = mods
        self.info: dict[int, tuple[str, str, str, int]] = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        fqn = max(self.mods.parents, key=len) if self.mods.parents else "-"
        fqn = re.sub(r"\.layers\.\d+", ".layers.*", fqn)
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                st = t.untyped_storage()
                key = id(st)
                if key not in self.info:
                    nbytes = math.ceil(st.nbytes() / 512) * 512
                    self.info[key] = (fqn, func.__name__, str(t.dtype).replace("torch.", ""), nbytes)
                    weakref.finalize(st, self.info.pop, key, None)
        return out


def breakdown(model_key: str, layers: int, **kw: Any) -> list[tuple[str, str, str, int]]:
    """Return (module, op, dtype, bytes) groups alive at end of forward, largest first."""
    patch_transformers_tracing()
    run = make_run(model_key, layers=layers, **kw)
    fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
    model = build_model(run, fake_mode)
    with fake_mode:
        ids = torch.randint(0, run.hf_config["vocab_size"], (run.micro_batch, run.seq_len))
        mods = ModTracker()
        att = Attributor(mods)
        amp = (torch.autocast("cpu", dtype=torch.bfloat16) if run.precision == "amp-bf16"
               else contextlib.nullcontext())
        for t in [*model.parameters(), *model.buffers(), ids]:
            att.info[id(t.untyped_storage())] = ("(weights/inputs)", "-", "-", 0)
        with mods, att, amp:
            before = set(att.info)
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
            groups: dict[tuple[str, str, str], int] = defaultdict(int)
            for key, (fqn, op, dtype, nbytes) in att.info.items():
                if key not in before:
                    groups[(fqn, op, dtype)] += nbytes
        del loss
    return sorted(((*k, v) for k, v in groups.items()), key=lambda r: -r[3])


def main(argv: list[str] | None = None) -> int:
    """CLI: print the breakdown table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="llama-2-7b")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--precision", default="bf16")
    ap.add_argument("--attention", default="sdpa")
    ap.add_argument("--checkpointing", default="none")
    ap.add_argument("-b", type=int, default=1)
    ap.add_argument("-s", type=int, default=2048)
    ap.add_argument("--method", default="full", help="full | freeze | lora")
    ap.add_argument("--lora-rank", type=int, default=16)
    ap.add_argument("--lora-targets", default="all-linear", help="all-linear | attention | q_proj,v_proj")
    a = ap.parse_args(argv)
    targets = a.lora_targets if a.lora_targets in ("all-linear", "attention") else tuple(a.lora_targets.split(","))
    rows = breakdown(a.model, a.layers, precision=a.precision, attention=a.attention,
                     checkpointing=a.checkpointing, b=a.b, s=a.s, method=a.method, lora_rank=a.lora_rank,
                     lora_targets=targets)
    from validation.configs import MODELS

    sbh = a.s * a.b * MODELS[a.model][1]["hidden_size"]
    total = sum(r[3] for r in rows)
    per_layer = sum(r[3] for r in rows if ".layers.*" in r[0]) / a.layers
    print(f"{a.model} L={a.layers} {a.precision} {a.attention} ckpt={a.checkpointing} b={a.b} s={a.s}")
    print(f"alive at end of forward: {total:,} B; per decoder layer {per_layer:,.0f} B"
          f" = {per_layer / sbh:.2f} sbh")
    for fqn, op, dtype, nbytes in rows:
        scale = a.layers if ".layers.*" in fqn else 1
        print(f"  {nbytes / scale / sbh:8.2f} sbh{' /layer' if scale > 1 else '       '} "
              f"{nbytes / scale:>15,.0f} B  {dtype:9} {op:40} {fqn}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
