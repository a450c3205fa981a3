"""Count the host work of one verl GRPO-LoRA micro-batch per decoder layer by running the code path the
eric-haibin-lin/verl-data GRPO-LoRA logs ran, at tiny widths on the CPU (issue 23: verl's update and scoring).

The code path (volcengine/verl 9466d371e, the logs' commit; config as logged: lora_rank 32, lora_alpha 32,
target_modules all-linear, enable_gradient_checkpointing True, use_remove_padding True, ulysses 1):
- transformers' Qwen2ForCausalLM built in fp32 (fsdp_workers.py line 210: the actor's torch_dtype float32),
  gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False}) (line 271),
  enable_input_require_grads(), get_peft_model(LoraConfig(task_type CAUSAL_LM, r, lora_alpha, target_modules,
  bias "none")) (lines 273-277);
- FSDP1 (FullyShardedDataParallel, use_orig_params False, FULL_SHARD, MixedPrecision(bf16, fp32, fp32),
  forward_prefetch False; lines 286-328) with verl/utils/fsdp_utils.py get_fsdp_wrap_policy(is_lora=True): the lambda
  policy (every leaf module whose weight requires grad: each lora_A and lora_B) or'd with the decoder-layer policy
  (_no_split_modules);
- the padding-free input (dp_actor.py _forward_micro_batch: unpad_input, input_ids (1, tokens), position_ids restarting
  at every sequence, attention_mask None) through transformers' flash_attention_2 integration
  (integrations/flash_attention.py -> modeling_flash_attention_utils._flash_attention_forward, which verl's
  monkey_patch wraps as _ulysses_flash_attention_forward: a pass-through at ulysses 1). flash-attn is CUDA only:
  flash_attn_varlen_func is replaced by a stand-in that reads max_seqlen_q / max_seqlen_k to the host as flash-attn's
  int arguments do (torch's argument parser reads a 0-dim tensor with .item(): one sync each) and, with its own
  arithmetic uncounted, adds flash-attn 2.7's Python wrapper's ATen dispatches (FLASH_VARLEN below); everything else
  (the diff().all() check, prepare_fa2_from_position_ids' boolean-mask index and torch.tensor) is transformers' own
  code, run and counted as is.
- the update: forward with grad, logits.div_(temperature), log-softmax gather, backward (which runs the non-reentrant
  checkpoint's recompute); scoring: the same forward under torch.no_grad() in eval mode (compute_log_prob).

Counted (rank 0 of a gloo group of 2, the second step; the difference between 4 and 2 layers over 2 is one layer):
Python-level torch calls (a TorchFunctionMode), ATen dispatches split into kernels and views (a TorchDispatchMode, as
validation/hf_host_counts.py counts them), nn.Module calls (a global forward pre-hook), device-to-host syncs
(_local_scalar_dense, boolean-mask indexing and nonzero: each reads a device value on CUDA), each split into the
forward, the recompute (dispatches inside a module's forward while the backward runs) and the backward. Also the
host wall time per layer with no mode active (median over repeated steps, 4 layers less 2, over 2).

Run in its own environment (never the project's):
    python3 -m venv /tmp/venv-rlops
    /tmp/venv-rlops/bin/pip install torch==2.13.0 transformers==4.52.4 peft==0.15.2 accelerate
    /tmp/venv-rlops/bin/python benchmarks/verl_lora_host_counts.py [--repeats 60]
    PYTHONPATH=. .venv/bin/python benchmarks/verl_lora_host_counts.py --model-counts   # the model's, to compare
transformers 4.52.4 / peft 0.15.2: the releases current at the logs' date (2025-06-13; verl 9466d371e pins neither,
its docker/Dockerfile.vllm.sglang.megatron asks transformers>=4.51.0); torch 2.13.0 CPU (verl pinned 2.6.0 for CUDA;
FSDP1's unit logic and the checkpoint's are the same Python in both).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WIDTHS = {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 2,
          "vocab_size": 256, "max_position_embeddings": 256}
SEQUENCES, SEQ_TOKENS = 4, 16  # a packed micro-batch of 4 sequences of 16 tokens: (1, 64)
# the timed runs: narrower still and 2 x 4 tokens, so the CPU's own arithmetic is small beside the calls' host work
TIMED_WIDTHS = {**WIDTHS, "hidden_size": 16, "intermediate_size": 32}
TIMED_SEQUENCES, TIMED_SEQ_TOKENS = 2, 4
LORA = {"r": 32, "lora_alpha": 32, "target_modules": "all-linear", "bias": "none"}  # the logs' config
# flash-attn 2.7.4 flash_attn_interface.py FlashAttnVarlenFunc: forward maybe_contiguous (no copy when contiguous),
# one _flash_attn_varlen_forward operator, out_padded[..., :head_size_og] (a view); backward three empty_like, one
# _flash_attn_varlen_backward, three slices (views)
FLASH_VARLEN = {"forward": {"kernels": 1, "views": 1}, "backward": {"kernels": 4, "views": 3}}
NO_WORK = {"aten.detach.default", "aten.alias.default", "aten.lift_fresh.default"}
# dispatched from Python or C++ but launching no kernel on CUDA: counted with the views (a call that does not launch)
NO_KERNEL = {"profiler._record_function_enter_new.default", "profiler._record_function_exit._RecordFunction",
             "aten.empty_like.default", "aten.empty.memory_format", "aten.set_.source_Storage",
             "aten.set_.source_Storage_storage_offset", "aten.resize_.default", "aten._local_scalar_dense.default"}
SYNC_OPS = {"aten._local_scalar_dense.default", "aten.nonzero.default", "aten.is_nonzero.default"}
UNITS_PER_LAYER = 15  # verl's LoRA policy: lora_A and lora_B of the 7 adapted linears, and the decoder layer
# engine/posttraining/adapter_units.py VISIT_CALLS as this project's model counts a unit's visit (kernels, calls, modules)
MODEL_VISIT_CALLS = {"forward": (2, 26, 1), "forward_grad": (2, 27, 1), "backward": (7, 34, 0)}
FIELDS = ("python_calls", "kernels", "views", "modules", "syncs", "collectives")


class Counts:
    """Counters by phase (forward, recompute, backward, scoring), switched by the driver and the module hooks."""

    def __init__(self) -> None:
        self.by_phase: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.phase = ""
        self.in_backward = False
        self.depth = 0
        self.suppressed = 0

    def current(self) -> str:
        if not self.in_backward:
            return self.phase
        return "recompute" if self.depth > 0 else "backward"

    def add(self, field: str, n: int = 1) -> None:
        if self.phase and not self.suppressed:
            self.by_phase[self.current()][field] += n


COUNTS = Counts()


def modes() -> tuple[Any, Any]:
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    class Dispatched(TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = str(func)
            COUNTS.add("op:" + name)
            if name.startswith("c10d."):
                COUNTS.add("collectives")
            elif name not in NO_WORK:
                view = any(r.alias_info is not None and not r.alias_info.is_write for r in func._schema.returns)
                COUNTS.add("views" if view or name in NO_KERNEL else "kernels")
            bool_index = name == "aten.index.Tensor" and any(
                isinstance(i, torch.Tensor) and i.dtype == torch.bool for i in (args[1] if len(args) > 1 else ()))
            if name in SYNC_OPS or bool_index:
                COUNTS.add("syncs")
            return func(*args, **(kwargs or {}))

    class Called(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = getattr(func, "__qualname__", None) or getattr(func, "__name__", str(func))
            if not name.endswith(("__get__", "__set__")):
                COUNTS.add("python_calls")
            return func(*args, **(kwargs or {}))

    def pre(module: Any, args: Any) -> None:
        COUNTS.add("modules")
        COUNTS.depth += 1

    def post(module: Any, args: Any, out: Any) -> None:
        COUNTS.depth -= 1

    hooks = (torch.nn.modules.module.register_module_forward_pre_hook(pre),
             torch.nn.modules.module.register_module_forward_hook(post, always_call=True))
    return Dispatched, Called, hooks


def install_flash_stand_in() -> None:
    """Route attention through transformers' flash_attention_2 integration with a CPU stand-in for flash-attn."""
    import torch
    from transformers import modeling_flash_attention_utils as fa
    from transformers.integrations import flash_attention
    from transformers.modeling_utils import ALL_ATTENTION_FUNCTIONS

    class StandIn(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, q: Any, k: Any, v: Any, scale: float) -> Any:
            COUNTS.suppressed += 1
            try:
                with torch.enable_grad():
                    qq, kk, vv = (x.detach().requires_grad_() for x in (q, k, v))
                    rep = qq.shape[1] // kk.shape[1]
                    out = torch.nn.functional.scaled_dot_product_attention(
                        qq.transpose(0, 1)[None], kk.repeat_interleave(rep, 1).transpose(0, 1)[None],
                        vv.repeat_interleave(rep, 1).transpose(0, 1)[None], is_causal=True, scale=scale)[0]
                    out = out.transpose(0, 1).contiguous()
                ctx.graph = (qq, kk, vv, out)
            finally:
                COUNTS.suppressed -= 1
            COUNTS.add("kernels", FLASH_VARLEN["forward"]["kernels"])
            COUNTS.add("views", FLASH_VARLEN["forward"]["views"])
            return out.detach()

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            COUNTS.suppressed += 1
            try:
                qq, kk, vv, out = ctx.graph
                dq, dk, dv = torch.autograd.grad(out, (qq, kk, vv), grad)
            finally:
                COUNTS.suppressed -= 1
            COUNTS.add("kernels", FLASH_VARLEN["backward"]["kernels"])
            COUNTS.add("views", FLASH_VARLEN["backward"]["views"])
            return dq, dk, dv, None

    def varlen(q: Any, k: Any, v: Any, cu_seqlens_q: Any = None, cu_seqlens_k: Any = None, max_seqlen_q: Any = 0,
               max_seqlen_k: Any = 0, dropout_p: float = 0.0, softmax_scale: Any = None, causal: bool = False,
               **kwargs: Any) -> Any:
        int(max_seqlen_q), int(max_seqlen_k)  # flash-attn's int arguments: a device tensor here is read to the host
        return StandIn.apply(q, k, v, softmax_scale)

    fa.flash_attn_varlen_func = varlen
    fa.flash_attn_func = varlen
    fa._flash_supports_window_size = True
    ALL_ATTENTION_FUNCTIONS["flash_attention_2"] = flash_attention.flash_attention_forward


def build(layers: int, fsdp: bool, widths: dict[str, int] = WIDTHS) -> Any:
    import torch
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    cfg = Qwen2Config(**widths, num_hidden_layers=layers, tie_word_embeddings=True, attn_implementation="sdpa")
    model = Qwen2ForCausalLM(cfg).to(torch.float32)
    model.config._attn_implementation = "flash_attention_2"  # read at every attention call
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(task_type=TaskType.CAUSAL_LM, **LORA))
    # peft casts x to lora_A.weight.dtype, which FSDP1 reports as the fp32 shard's before the unit's first unshard on
    # the CPU; on the logs' GPUs x and the unsharded bf16 weight agree and the cast returns x untouched: the same ops
    for m in model.modules():
        if hasattr(m, "cast_input_dtype_enabled"):
            m.cast_input_dtype_enabled = False
    if not fsdp:
        return model.to(torch.bfloat16)
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import MixedPrecision, ShardingStrategy
    from torch.distributed.fsdp.wrap import _or_policy, lambda_auto_wrap_policy, transformer_auto_wrap_policy
    from transformers.models.qwen2.modeling_qwen2 import Qwen2DecoderLayer

    def lora_leaf(module: Any) -> bool:  # verl fsdp_utils.py get_fsdp_wrap_policy lambda_policy_fn
        return bool(len(list(module.named_children())) == 0 and getattr(module, "weight", None) is not None
                    and module.weight.requires_grad)

    policy = functools.partial(_or_policy, policies=[
        functools.partial(lambda_auto_wrap_policy, lambda_fn=lora_leaf),
        functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Qwen2DecoderLayer})])
    mp = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32, buffer_dtype=torch.float32)
    # sync_module_states (verl's True) needs CUDA; every rank builds the same weights from the same seed instead
    return FSDP(model, use_orig_params=False, auto_wrap_policy=policy, sharding_strategy=ShardingStrategy.FULL_SHARD,
                mixed_precision=mp, forward_prefetch=False, device_id=torch.device("cpu"))


def batch(sequences: int = SEQUENCES, seq_tokens: int = SEQ_TOKENS) -> tuple[Any, Any]:
    import torch

    g = torch.Generator().manual_seed(1)
    ids = torch.randint(3, WIDTHS["vocab_size"], (1, sequences * seq_tokens), generator=g)
    return ids, torch.arange(seq_tokens).repeat(sequences)[None]


def update_step(model: Any, ids: Any, pos: Any, modes_: tuple[Any, Any] | None,
                walls: dict[str, list[float]] | None = None) -> None:
    """One micro-batch as dp_actor.update_policy runs it (the loss reduced to a log-prob mean: per-step work);
    walls: where the forward's and the backward's thread seconds go."""
    import torch

    d, f = (m() for m in modes_) if modes_ else (contextlib.nullcontext(), contextlib.nullcontext())
    model.train()
    COUNTS.phase = "forward"
    t = time.thread_time()
    with f, d:
        logits = model(input_ids=ids, attention_mask=None, position_ids=pos, use_cache=False).logits.squeeze(0)
        logits.div_(1.0)
        loss = -torch.log_softmax(logits.float(), -1).gather(-1, ids[0, :, None]).mean()
        COUNTS.in_backward = True
        middle = time.thread_time()
        loss.backward()
    if walls is not None:
        walls["update_forward"].append(middle - t)
        walls["update_backward"].append(time.thread_time() - middle)
    COUNTS.in_backward = False
    COUNTS.phase = ""
    for p in model.parameters():
        p.grad = None


def scoring_step(model: Any, ids: Any, pos: Any, modes_: tuple[Any, Any] | None,
                 walls: dict[str, list[float]] | None = None) -> None:
    """One compute_log_prob micro-batch: eval mode, no grad (no checkpoint, no recompute). The mode switch, once per
    compute_log_prob call in verl (not per micro-batch), is left out of the timed seconds."""
    import torch

    d, f = (m() for m in modes_) if modes_ else (contextlib.nullcontext(), contextlib.nullcontext())
    model.eval()
    COUNTS.phase = "scoring"
    t = time.thread_time()
    with f, d, torch.no_grad():
        logits = model(input_ids=ids, attention_mask=None, position_ids=pos, use_cache=False).logits.squeeze(0)
        torch.log_softmax(logits.div_(1.0).float(), -1).gather(-1, ids[0, :, None])
    if walls is not None:
        walls["scoring"].append(time.thread_time() - t)
    COUNTS.phase = ""


@contextlib.contextmanager
def no_collectives() -> Any:
    """FSDP1's all-gathers and reduce-scatters as no-ops (their Python around them runs): on the logs' GPUs NCCL runs
    them on side streams, here gloo would time the loopback and the other rank."""
    import torch.distributed as dist

    names = ("all_gather_single", "reduce_scatter_single", "all_gather_into_tensor", "reduce_scatter_tensor",
             "all_gather", "all_reduce")  # torch 2.13's FSDP1 calls the *_single ones (_flat_param.py, _runtime_utils.py)
    saved = {n: getattr(dist, n) for n in names if hasattr(dist, n)}
    for n in saved:
        setattr(dist, n, lambda *a, **k: None)
    try:
        yield
    finally:
        for n, fn in saved.items():
            setattr(dist, n, fn)


def local_prices(repeats: int = 50000) -> dict[str, float]:
    """Seconds of one call on this CPU, as presets/host_overhead.json prices them on the logs' host: a compute
    operator from Python (torch.add of two (8, 16) bf16 tensors: dispatch plus a tiny CPU kernel, the launch's
    analogue), a view from Python (torch.narrow, view_seconds' call) and an nn.Module call (nn.Identity)."""
    import torch

    a = torch.ones(8, 16, dtype=torch.bfloat16)
    identity = torch.nn.Identity()

    def per_call(fn: Any) -> float:
        runs = []
        for _ in range(5):
            t = time.thread_time()
            for _ in range(repeats):
                fn()
            runs.append((time.thread_time() - t) / repeats)
        return statistics.median(runs)

    empty = per_call(lambda: a)
    return {"launch": per_call(lambda: torch.add(a, a)) - empty, "view": per_call(lambda: torch.narrow(a, 0, 0, 4)) - empty,
            "module": per_call(lambda: identity(a)) - empty}


def counted_run(layers: int, fsdp: bool, mode_classes: tuple[Any, Any]) -> dict[str, Any]:
    """Counts of the second update and scoring step (the first builds FSDP's lazy state)."""
    model = build(layers, fsdp)
    ids, pos = batch()
    for _ in range(2):
        COUNTS.by_phase.clear()
        update_step(model, ids, pos, mode_classes)
        scoring_step(model, ids, pos, mode_classes)
    return {phase: dict(c) for phase, c in COUNTS.by_phase.items()}


def timed_run(layers: int, fsdp: bool, repeats: int, timed: bool) -> dict[str, float]:
    """Median host wall seconds of an update and a scoring step, with no counting mode or hook installed."""
    model = build(layers, fsdp, TIMED_WIDTHS)  # every rank builds it: FSDP1's construction is collective
    ids, pos = batch(TIMED_SEQUENCES, TIMED_SEQ_TOKENS)
    with no_collectives():
        update_step(model, ids, pos, None)
    if not timed:
        return {}
    walls: dict[str, list[float]] = {"update_forward": [], "update_backward": [], "scoring": []}
    with no_collectives():
        for _ in range(repeats):
            update_step(model, ids, pos, None, walls)
            scoring_step(model, ids, pos, None, walls)
    return {k: statistics.median(v) for k, v in walls.items()}


def worker(rank: int, world: int, fsdp: bool, repeats: int, out_path: str) -> None:
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    install_flash_stand_in()
    *mode_classes, hooks = modes()
    counts = {n: counted_run(n, fsdp, tuple(mode_classes)) for n in (2, 4)}
    for hook in hooks:
        hook.remove()
    result = {str(n): {"counts": counts[n], "wall_s": timed_run(n, fsdp, repeats, rank == 0)} for n in (2, 4)}
    dist.barrier()
    if rank == 0:
        result["prices_s"] = local_prices()
        with open(out_path, "w") as fh:
            json.dump(result, fh)
    dist.destroy_process_group()


def per_layer(result: dict[str, Any]) -> dict[str, Any]:
    """(4 layers - 2 layers) / 2 of every count and wall time."""
    two, four = result["2"], result["4"]
    phases = sorted(set(two["counts"]) | set(four["counts"]))
    names = sorted({k for r in (two, four) for c in r["counts"].values() for k in c if k.startswith("op:")})
    counts = {p: {f: (four["counts"].get(p, {}).get(f, 0) - two["counts"].get(p, {}).get(f, 0)) / 2
                  for f in (*FIELDS, *names)} for p in phases}
    counts = {p: {f: n for f, n in c.items() if n or not f.startswith("op:")} for p, c in counts.items()}
    wall = {k: (four["wall_s"][k] - two["wall_s"][k]) / 2 for k in two["wall_s"]}
    return {"per_layer": counts, "per_layer_wall_s": wall, "wall_s_2_layers": two["wall_s"],
            "local_prices_s": result["prices_s"]}


def spawn(fsdp: bool, repeats: int) -> dict[str, Any]:
    """Per-layer counts and thread seconds of the code path with FSDP1 (2 gloo ranks) or without it (1 rank)."""
    import torch.multiprocessing as mp

    world = 2 if fsdp else 1
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "counts.json")
        mp.spawn(worker, args=(world, fsdp, repeats, out), nprocs=world, join=True)
        with open(out) as fh:
            return per_layer(json.load(fh))


def unit_visits(fsdp: dict[str, Any], plain: dict[str, Any]) -> dict[str, float]:
    """FSDP1's thread seconds per unit visit beyond what the model's VISIT_CALLS price (engine/posttraining/
    adapter_units.py: kernels less the collective, which runs as a no-op here, at a compute call, other calls at a
    view call, the inner module's call), in view calls of this CPU: the layer's FSDP1 seconds (with FSDP1 less
    without) over its units (UNITS_PER_LAYER: 7 adapted linears x lora_A, lora_B, and the decoder layer's own).
    The recompute's visit is taken as the update forward's (the same _pre_forward / _post_forward, under grad): the
    backward's visit is the rest of the backward's seconds."""
    wall_f, wall_p, price = fsdp["per_layer_wall_s"], plain["per_layer_wall_s"], fsdp["local_prices_s"]
    extra = {k: (wall_f[k] - wall_p[k]) / UNITS_PER_LAYER for k in wall_f}
    seconds = {"forward": extra["scoring"], "forward_grad": extra["update_forward"],
               "backward": extra["update_backward"] - extra["update_forward"]}
    priced = {visit: (kernels - 1) * price["launch"] + calls * price["view"] + modules * price["module"]
              for visit, (kernels, calls, modules) in MODEL_VISIT_CALLS.items()}
    return {visit: round((seconds[visit] - priced[visit]) / price["view"], 1) for visit in seconds}


def model_counts() -> dict[str, Any]:
    """What this project's model counts per decoder layer for the 0.5B verl-data row (run with the project's Python):
    the eager layer's table entry, PEFT's launches and module calls per adapted linear, the adapter units' visits."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine import scenario_from_dict
    from engine.accuracy import posttraining_time as ptt
    from engine.memory.states import lora_targets
    from engine.posttraining.adapter_units import UNITS_PER_ADAPTED_LINEAR
    from engine.posttraining.estimate import step_parts, training_scenario
    from engine.scenario import resolve_model
    from engine.timing.fsdp1_host import FSDP1_PYTHON_VIEW_CALLS, VISIT_CALLS
    from engine.timing.hf_host import counted_host, eager_counts
    from engine.timing.lora_adapters import LAUNCHES, PEFT_MODULE_CALLS, adapter_path

    row = next(r for r in ptt.read_rows() if r["id"] == "verl-data-time-grpo-lora-qwen2.5-0.5b-2gpu")
    s = scenario_from_dict(row["scenario"])
    train = training_scenario(s.with_unchecked(offload="none"), step_parts(s).rs)
    spec = resolve_model(train)
    adapted = len(lora_targets(train, spec, False))
    return {"scenario": {"precision": train.precision, "attention": train.attention, "adapter_path": adapter_path(train),
                         "adapted_linears": adapted},
            "eager_layer": dict(eager_counts(train, spec)["per_layer"]),
            "peft_launches_forward_backward": [adapted * n for n in LAUNCHES[adapter_path(train)]],
            "peft_module_calls": adapted * PEFT_MODULE_CALLS,
            "unit_visits": {k: [adapted * UNITS_PER_ADAPTED_LINEAR * n for n in v] for k, v in VISIT_CALLS.items()},
            "unit_python_view_calls": FSDP1_PYTHON_VIEW_CALLS,
            "counted_host_seconds": counted_host(train, spec)._asdict()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60)
    parser.add_argument("--model-counts", action="store_true",
                        help="print the project's per-layer counts for the 0.5B row instead (the project's Python)")
    args = parser.parse_args(argv)
    if args.model_counts:
        print(json.dumps(model_counts(), indent=1))
        return 0
    fsdp, plain = spawn(True, args.repeats), spawn(False, args.repeats)
    import peft
    import torch
    import transformers

    print(json.dumps({"versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                                   "peft": peft.__version__}, "fsdp1": fsdp, "no_fsdp": plain,
                      "fsdp1_python_view_calls_per_unit_visit": unit_visits(fsdp, plain)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
