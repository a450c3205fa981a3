"""Host time of torch's non-reentrant activation checkpointing around a Hugging Face decoder layer.

transformers (5.17.0: gradient_checkpointing_enable defaults to use_reentrant=False; GradientCheckpointingLayer wraps
each decoder layer) runs torch.utils.checkpoint's non-reentrant path, whose bookkeeping is Python (torch 2.11.0
torch/utils/checkpoint.py): per checkpointed call the RNG states, a frame, an autograd Function holding the inputs,
the recompute's fork_rng and autocast contexts; per tensor the layer's forward saves, a pack hook in the forward, a
pack hook in the recompute, a metadata check and an unpack hook in the backward. presets/host_overhead.json
checkpoint_non_reentrant holds what validation/checkpoint_host_counts.py measured of it in view calls (Tensor.narrow
from Python, the call view_seconds prices) and counted of the saved tensors per layer; this module prices them on the
scenario's host. The recompute's own ops are hf_host.py's (the layer's forward counted again).
"""

from __future__ import annotations

from ..memory.states import lora_targets
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS
from .bnb_4bit import quant_base
from .host import host_figures


def saved_tensors(s: Scenario, spec: ModelSpec) -> int:
    """Tensors one dense decoder layer's forward saves for its backward (each passes the checkpoint's hooks): the
    element-wise ops', the norms' when their weights train, each linear's by whether it trains, is a frozen
    nn.Linear or a bitsandbytes 4-bit linear, and 4 per PEFT adapter."""
    table = host_figures()["checkpoint_non_reentrant"]["saved_tensors"]
    linears = len(spec.layer_linears(False))
    if s.method not in ADAPTER_METHODS:
        return table["elementwise"] + table["norm_weights"] + linears * table["per_linear"]["trained"]
    q = quant_base(s)
    kind = "4bit" if q is not None and q.linear4bit else "frozen"
    adapters = len(lora_targets(s, spec, False))
    return table["elementwise"] + linears * table["per_linear"][kind] + adapters * table["per_adapter"]


def checkpoint_host_seconds(s: Scenario, spec: ModelSpec, view: float) -> tuple[float, float]:
    """(forward, backward) host seconds the checkpoint's bookkeeping adds per checkpointed layer and micro-batch,
    view: one view call from Python on the scenario's host (host.host_call_seconds)."""
    table = host_figures()["checkpoint_non_reentrant"]
    n = saved_tensors(s, spec)
    per_saved, per_call, rng = table["per_saved_tensor"], table["per_checkpoint"], table["device_rng_calls"]
    return tuple(view * (per_call[i] + rng[i] + n * per_saved[i]) for i in (0, 1))  # type: ignore[return-value]
