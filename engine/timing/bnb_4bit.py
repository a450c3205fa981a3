"""bitsandbytes' 4-bit linear layers (Linear4bit: NF4 or FP4, optionally double-quantised) in a QLoRA step.

Each call of a frozen 4-bit linear dequantises its whole weight into a new compute-dtype tensor and runs F.linear on
it: the forward, the forward again under full checkpointing, and the backward's input gradient (MatMul4Bit.backward
dequantises once more). With double quantisation the fp32 block scales are first rebuilt from their uint8 copy (two
more small kernels). GPU: the bytes of those kernels at the element-wise rate (dequant_bytes_per_weight); PEFT's
LoRA layer over a 4-bit base also copies the base output, which lora_adapters.py counts with the adapters (its
casts-4bit path: peft/tuners/lora/bnb.py Linear4bit.forward's result.clone()). Host: the launches and
Python calls of the bitsandbytes path beyond an nn.Linear's (linear4bit_host_seconds). Counted from bitsandbytes
0.50.2 and peft 0.21.0 (presets/bnb_4bit.json, each count with the lines it comes from).

Only bitsandbytes' own layers take this path: torchtune's NF4Tensor (torchao) and Unsloth's fused LoRA kernels
dequantise their own way and keep the generic count (packed read, compute-dtype write).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, NamedTuple

from ..frameworks.defaults import defaults_for
from ..models.presets import PRESETS_DIR, checked_table, read_preset_json
from ..scenario import Scenario, resolve_model

BNB_FILE = PRESETS_DIR / "bnb_4bit.json"


@cache
def bnb_figures() -> dict[str, Any]:
    return checked_table(BNB_FILE.name, read_preset_json(BNB_FILE), _checked_figures)


def _checked_figures(data: dict[str, Any]) -> dict[str, Any]:
    """The file with every figure the two readers below take, each a finite number >= 0 (a block size above 0); a
    KeyError / TypeError / ValueError otherwise, which checked_table turns into one sentence naming the file."""
    d, host = data["dequant"], data["host"]
    figures = [d["blocksize"], d["absmax_bytes_per_block"], d["nested_bytes_per_block"],
               host["function_apply_seconds"]["value"], host["forward"]["function_applies"]]
    for part in (host["forward"], host["backward"]):
        figures += [part[k][i] for k in ("launches", "dispatcher_calls", "binding_calls") for i in (0, 1)]
        figures += [part["subclass_calls"], part.get("python_calls", 0)]
    if any(isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v < math.inf for v in figures) or not (
            d["blocksize"] > 0):
        raise ValueError("a figure is not a finite number >= 0")
    return data


class QuantBase(NamedTuple):
    """How a QLoRA run's frozen base weights are stored and multiplied."""

    bits: int
    double_quant: bool
    linear4bit: bool  # bitsandbytes' Linear4bit: dequantise + F.linear at every call (this module's counts)


def quant_base(s: Scenario) -> QuantBase | None:
    """The run's quantised base, or None when it has none (not QLoRA). Linear4bit where the framework's QLoRA runs
    through bitsandbytes' layers at 4 bits, not Unsloth's fused kernels."""
    if s.method != "qlora":
        return None
    d = defaults_for(s.framework)
    linear4bit = s.qlora_bits == 4 and d.qlora_kernel == "bitsandbytes" and not d.fused_lora_kernels
    return QuantBase(s.qlora_bits, bool(s.qlora_double_quant), linear4bit)


def dequant_bytes_per_weight(q: QuantBase, elem_bytes: int) -> float:
    """Bytes read and written per weight value by one dequantisation: the packed value, its block's fp32 scale
    (rebuilt from the uint8 copy first with double quantisation) and the compute-dtype value written. Other
    kernels (torchao, Unsloth, 8-bit): the packed read and the compute-dtype write."""
    if not q.linear4bit:
        return q.bits / 8 + elem_bytes
    f = bnb_figures()["dequant"]
    per_block = f["absmax_bytes_per_block"] + (f["nested_bytes_per_block"] if q.double_quant else 0)
    return q.bits / 8 + elem_bytes + per_block / f["blocksize"]


def _call_seconds(part: dict[str, Any], nested: bool, launch: float, call: float, share: float) -> float:
    """Host seconds of one forward or backward call of a Linear4bit beyond an nn.Linear's."""
    i = 0 if nested else 1
    return (part["launches"][i] * launch + part["dispatcher_calls"][i] * call + part["binding_calls"][i] * call * share
            + part["subclass_calls"] * call + part.get("python_calls", 0) * call)


def linear4bit_host_seconds(s: Scenario, kind: tuple[bool, bool, str], launch: float, call: float, base_call: float,
                            share: float, under_grad: bool = True) -> tuple[float, float]:
    """(forward, backward) host seconds per decoder layer and micro-batch of its 4-bit linears beyond what the layer
    stacks count for nn.Linear: each call's dequantisation launches and Python calls and MatMul4Bit.apply (PEFT's
    clone of the adapted outputs is lora_adapters.py's). launch / call: the run's host figures
    (host.host_call_seconds); base_call: the preset's call figure they scale (the autograd function's apply scales
    with it); share: a binding-only call's share of a call; kind: the layer's (moe, linear_attn, block), whose own
    linears are 4-bit (a gated DeltaNet layer's projections, a Mamba-2 block's in_proj and out_proj); under_grad
    False: a no-grad call (a generate() decode step), which skips the autograd function (bitsandbytes 0.50.1
    autograd/_functions.py matmul_4bit lines 453-490: without grad it calls torch.ops.bitsandbytes.gemm_4bit itself,
    not MatMul4Bit.apply at line 491; the dequantise + F.linear path's launches and calls are the same, so the counts
    bound from above the fused 4-bit GEMM bitsandbytes >= 0.50 takes below its per-architecture batch limits: one
    launch where the fallback has three). (0, 0) without bitsandbytes' Linear4bit."""
    q = quant_base(s)
    if q is None or not q.linear4bit:
        return 0.0, 0.0
    spec = resolve_model(s)
    host = bnb_figures()["host"]
    linears = len(spec.layer_linears(*kind))
    apply = host["forward"]["function_applies"] * host["function_apply_seconds"]["value"] * call / base_call
    apply = apply if under_grad else 0.0
    forward = linears * (_call_seconds(host["forward"], q.double_quant, launch, call, share) + apply)
    return forward, linears * _call_seconds(host["backward"], q.double_quant, launch, call, share)
