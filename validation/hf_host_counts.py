"""Count the host work of one Hugging Face eager training step, per decoder layer and per step, phase by phase.

Runs the real transformers code (5.17.0) on the CPU with torch (2.11.0) at tiny widths and the real layer structure,
at 2 and at 4 decoder layers: the difference is one layer's, the rest is the step's own (embedding, rotary, mask,
head, loss). Counted in the second step (the first builds the optimizer's state):

- forward: torch calls made from Python (a TorchFunctionMode: functions, methods; attribute reads left out), ATen
  operators dispatched (a TorchDispatchMode), split into those that return a view of their input (no kernel on a GPU)
  and those that compute (one kernel each on a GPU), and nn.Module calls (a global forward pre-hook);
- backward: ATen operators the autograd engine dispatches from C++ (no Python), views and kernels apart.

Widths do not change these counts; the CPU dispatches the same ATen operators as CUDA except inside attention (CPU
flash attention: one operator forward and one backward, as CUDA's) and under autocast (the CPU's op lists: the same
for linear, matmul and SDPA). presets/host_overhead.json hf_eager_layers holds what this prints.

    python -m validation.hf_host_counts llama-3.2-1b:bf16:sdpa qwen2.5-0.5b:amp-bf16:eager ...
"""

from __future__ import annotations

import collections
import contextlib
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FIELDS = ("python_calls", "kernels", "views", "modules", "backward_kernels", "backward_views")
NO_WORK = {"aten.detach.default", "aten.alias.default", "aten.lift_fresh.default", "aten._local_scalar_dense.default"}


def counters(in_op_launches: dict[str, int] | None = None) -> tuple[Any, Any, collections.Counter]:
    """(dispatch mode class, function mode class, module-call counter). in_op_launches: CUDA kernels an operator
    launches beyond its own one, from C++ (counted as "in_op")."""
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    class Dispatched(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.count: collections.Counter = collections.Counter()

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = str(func)
            view = any(r.alias_info is not None and not r.alias_info.is_write for r in func._schema.returns)
            self.count["none" if name in NO_WORK else "view" if view else "kernel"] += 1
            self.count["in_op"] += (in_op_launches or {}).get(name, 0)
            return func(*args, **(kwargs or {}))

    class Called(TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.count: collections.Counter = collections.Counter()

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = getattr(func, "__qualname__", None) or getattr(func, "__name__", str(func))
            self.count["attribute" if name.endswith(("__get__", "__set__")) else "call"] += 1
            return func(*args, **(kwargs or {}))

    modules: collections.Counter = collections.Counter()
    torch.nn.modules.module.register_module_forward_pre_hook(lambda m, a: modules.update(["call"]))
    return Dispatched, Called, modules


# one set of modes per in-op table: the module-call hook is global, registered once
_MODES: dict[tuple, tuple[Any, Any, collections.Counter]] = {}
SMALL_WIDTHS = (("head_dim", 16), ("query_pre_attn_scalar", 16))


def step_counts(model_key: str, precision: str, attention: str, layers: int, *, frozen: bool = False,
                widths: tuple[tuple[str, int], ...] = SMALL_WIDTHS,
                in_op_launches: dict[str, int] | None = None) -> dict[str, int]:
    """Host counts of one training step (the second) of the model at tiny widths with `layers` layers; frozen: the
    layers' weights take no gradient (LoRA's frozen base); widths: config keys set small where the config has them."""
    import torch

    from validation.measure import Run, build_model, make_optimizer
    from validation.scenarios import make_run

    run = make_run(model_key, precision, attention=attention, layers=layers)
    cfg = dict(run.hf_config)
    gqa = cfg.get("num_key_value_heads", cfg["num_attention_heads"]) != cfg["num_attention_heads"]
    cfg.update(hidden_size=64, intermediate_size=128, num_attention_heads=4, num_key_value_heads=2 if gqa else 4,
               vocab_size=512, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    for k, v in widths:
        if k in cfg:
            cfg[k] = v
    run = Run(**{**asdict(run), "hf_config": cfg, "seq_len": 16})
    key = tuple(sorted((in_op_launches or {}).items()))
    Dispatched, Called, modules = _MODES.setdefault(key, counters(in_op_launches))
    torch.manual_seed(0)
    model = build_model(run, None)
    if frozen:  # LoRA's frozen base: the layers' weights take no gradient, the embedding's output still does
        model.model.layers.requires_grad_(False)
    opt = make_optimizer(run, model)
    ids = torch.randint(0, 512, (1, run.seq_len))
    amp = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if precision == "amp-bf16" else contextlib.nullcontext
    out: dict[str, int] = {}
    for _ in range(2):
        modules.clear()
        d, f = Dispatched(), Called()
        with f, d, amp():
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        out = {"python_calls": f.count["call"], "kernels": d.count["kernel"], "views": d.count["view"],
               "modules": modules["call"], "in_op": d.count["in_op"]}
        d = Dispatched()
        with d:
            loss.backward()
        out |= {"backward_kernels": d.count["kernel"], "backward_views": d.count["view"],
                "backward_in_op": d.count["in_op"]}
        opt.step()
        opt.zero_grad(set_to_none=True)
    return out


def counts(model_key: str, precision: str, attention: str) -> dict[str, list[float]]:
    """{"per_layer": [...], "per_step": [...]} in FIELDS order."""
    two, four = (step_counts(model_key, precision, attention, n) for n in (2, 4))
    per_layer = [(four[k] - two[k]) / 2 for k in FIELDS]
    return {"per_layer": per_layer, "per_step": [two[k] - 2 * p for k, p in zip(FIELDS, per_layer, strict=True)]}


def main(argv: list[str]) -> int:
    table = {}
    for spec in argv:
        model_key, precision, attention = spec.split(":")
        table[spec] = counts(model_key, precision, attention)
        print(spec, json.dumps(table[spec]), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
