"""Count the host work torch's non-reentrant activation checkpointing adds to a Hugging Face decoder layer.

transformers 5.17.0's gradient_checkpointing_enable(use_reentrant=False) wraps each decoder layer
(modeling_layers.py GradientCheckpointingLayer.__call__) in torch 2.11.0's torch.utils.checkpoint.checkpoint, whose
_checkpoint_without_reentrant_generator runs, per checkpointed call, in Python: the CPU RNG state copy
(torch.get_rng_state), the autocast state, a _CheckpointFrame, _NoopSaveInputs.apply (a custom autograd Function
holding the inputs), and under saved_tensors_hooks a pack_hook for EVERY tensor autograd saves in the layer's forward
(_checkpoint_hook.pack_hook: a _Holder, a weakref, and the shape/dtype/device metadata under no_grad). In the backward
the first unpack recomputes the layer under fork_rng and autocast with _recomputation_hook's pack_hook per saved
tensor (detach, a _Handle, a WeakKeyDictionary entry), then check_recomputed_tensors_match compares every tensor's
metadata, and every saved tensor is unpacked by _checkpoint_hook.unpack_hook (graph task id, dictionary lookups).

Two things are measured, both on the CPU with the real code:

1. saved tensors per decoder layer (len(frame.weak_holders) of each layer's _CheckpointFrame), for a tiny Llama in bf16
   with SDPA: full fine-tuning, peft 0.21.0 LoRA on q,v and on all linears, and LoRA over bitsandbytes 0.50.2
   Linear4bit (QLoRA). Widths do not change the count: it is one per tensor an op saves for its backward.
2. the checkpoint's own Python as a multiple of one PyTorch view call from Python (Tensor.narrow, the call
   presets/host_overhead.json view_seconds prices): a GradientCheckpointingLayer whose forward is a chain of n
   torch.sin (each saves its input: n saved tensors) timed with checkpointing on and off, forward and forward plus
   backward, at n = 1 and n = 65; the backward's difference less one plain forward (the recompute's own ops) is the
   bookkeeping. The slope over n is the cost per saved tensor, the intercept the cost per checkpointed call. The
   fastest fifth of 300 runs each; the ratio to a narrow call timed in the same process carries over to another host
   as the view call's figure does.

3. peft 0.21.0's own Python in one LoRA Linear.forward (peft/tuners/lora/layer.py lines 1074-1119: the
   _check_forward_args, disable_adapters and merged checks, the active_adapters loop and its key lookups,
   _cast_input_dtype's checks, use_dora) beyond the ops and module calls engine/timing/lora_adapters.py counts: the
   wrapped layer's call timed against the same ops and module calls (base, x.to, dropout, lora_A, lora_B, the scale,
   the add, the cast back) in a plain module, in view calls.

    python -m validation.checkpoint_host_counts           (needs torch, transformers, peft; bitsandbytes for QLoRA)
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

LLAMA = {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 4,
         "num_hidden_layers": 2, "vocab_size": 128, "max_position_embeddings": 256, "pad_token_id": 0}
ALL_LINEARS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def _frames() -> list[Any]:
    """Every _CheckpointFrame created from now on (torch.utils.checkpoint builds one per checkpointed call)."""
    from torch.utils import checkpoint

    made: list[Any] = []
    init = checkpoint._CheckpointFrame.__init__

    def recording(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    checkpoint._CheckpointFrame.__init__ = recording
    return made


def _to_4bit(model: Any) -> None:
    """Each decoder linear replaced by bitsandbytes' Linear4bit (NF4, double quantisation), as transformers'
    BitsAndBytesConfig(load_in_4bit=True) loading does."""
    import bitsandbytes as bnb
    import torch

    for layer in model.model.layers:
        for parent in (layer.self_attn, layer.mlp):
            for name, lin in list(parent.named_children()):
                if isinstance(lin, torch.nn.Linear):
                    q4 = bnb.nn.Linear4bit(lin.in_features, lin.out_features, bias=False, compute_dtype=torch.bfloat16,
                                           quant_type="nf4", compress_statistics=True)
                    q4.weight = bnb.nn.Params4bit(lin.weight.data.float(), requires_grad=False, quant_type="nf4",
                                                  compress_statistics=True)._quantize("cpu")
                    setattr(parent, name, q4)


def saved_per_layer(frames: list[Any], targets: list[str] | None, four_bit: bool = False, rank: int = 8) -> list[int]:
    """Tensors saved through the checkpoint's pack hook by each decoder layer in the second step's forward."""
    import torch
    import transformers
    from peft import LoraConfig, get_peft_model

    config = transformers.AutoConfig.for_model("llama", **LLAMA)
    config._attn_implementation = "sdpa"
    model = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    if four_bit:
        _to_4bit(model)
    if targets:
        model = get_peft_model(model, LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.0,
                                                 target_modules=targets))
    base = model.get_base_model() if targets else model
    base.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    ids = torch.randint(0, LLAMA["vocab_size"], (2, 32))
    counts: list[int] = []
    for _ in range(2):
        frames.clear()
        out = model(input_ids=ids, labels=ids)
        counts = [len(f.weak_holders) for f in frames]
        out.loss.backward()
    return counts


def _fastest(fn: Any, reps: int = 300) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.mean(times[: reps // 5])


def bookkeeping_in_view_calls() -> dict[str, float]:
    """The checkpoint's Python per saved tensor and per checkpointed call, forward and backward, in narrow calls."""
    import torch
    from torch.utils.checkpoint import checkpoint
    from transformers.modeling_layers import GradientCheckpointingLayer

    torch.set_num_threads(1)
    x0 = torch.randn(8, dtype=torch.bfloat16)

    class Chain(GradientCheckpointingLayer):
        def __init__(self, n: int) -> None:
            super().__init__()
            self.n = n

        def forward(self, x: Any, scale: Any = None) -> Any:
            for _ in range(self.n):
                x = torch.sin(x)  # SinBackward0 saves its input
            return x

    over: dict[int, tuple[float, float]] = {}
    for n in (1, 65):
        layer = Chain(n).train()

        def forward(on: bool, backward: bool, layer: Any = layer) -> None:
            layer.gradient_checkpointing = on
            layer._gradient_checkpointing_func = lambda f, *a: checkpoint(f, *a, use_reentrant=False)
            y = layer(x0.clone().requires_grad_(), scale=None)
            if backward:
                y.sum().backward()

        t = {(on, bw): _fastest(lambda on=on, bw=bw: forward(on, bw)) for on in (False, True) for bw in (False, True)}
        fwd = t[True, False] - t[False, False]
        bwd = (t[True, True] - t[True, False]) - (t[False, True] - t[False, False]) - t[False, False]
        over[n] = fwd, bwd
    view = _fastest(lambda: [x0.narrow(0, 0, 4) for _ in range(100)]) / 100
    per_saved = [(over[65][i] - over[1][i]) / 64 / view for i in (0, 1)]
    per_call = [over[1][i] / view - per_saved[i] for i in (0, 1)]
    return {"view_call_us": view * 1e6, "per_saved_forward": per_saved[0], "per_saved_backward": per_saved[1],
            "per_checkpoint_forward": per_call[0], "per_checkpoint_backward": per_call[1]}


def peft_python_in_view_calls() -> float:
    """peft's Python per LoRA Linear.forward beyond the ops and the four module calls lora_adapters.py counts."""
    import torch
    from peft import LoraConfig, get_peft_model

    torch.set_num_threads(1)

    class One(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.q = torch.nn.Linear(8, 8, bias=False, dtype=torch.bfloat16)

        def forward(self, x: Any) -> Any:
            return self.q(x)

    lin = get_peft_model(One(), LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0, target_modules=["q"])).base_model.model.q
    base, a, b, drop = lin.base_layer, lin.lora_A["default"], lin.lora_B["default"], lin.lora_dropout["default"]

    class Replica(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            r = base(x) + b(a(drop(x.to(torch.float32)))) * 2.0
            return r.to(torch.bfloat16)

    replica = Replica()
    x = torch.randn(2, 8, dtype=torch.bfloat16, requires_grad=True)
    view = _fastest(lambda: [x.narrow(0, 0, 1) for _ in range(100)]) / 100
    return (_fastest(lambda: lin(x), 2000) - _fastest(lambda: replica(x), 2000)) / view


def main() -> int:
    frames = _frames()
    out: dict[str, Any] = {
        "full": saved_per_layer(frames, None),
        "lora_qv": saved_per_layer(frames, ["q_proj", "v_proj"]),
        "lora_all": saved_per_layer(frames, ALL_LINEARS, rank=16),
    }
    try:
        out["qlora_qv"] = saved_per_layer(frames, ["q_proj", "v_proj"], four_bit=True)
        out["qlora_all"] = saved_per_layer(frames, ALL_LINEARS, four_bit=True, rank=16)
    except ImportError:
        out["qlora"] = "bitsandbytes not installed"
    out["bookkeeping"] = {k: round(v, 2) for k, v in bookkeeping_in_view_calls().items()}
    out["peft_python_view_calls"] = round(peft_python_in_view_calls(), 2)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
