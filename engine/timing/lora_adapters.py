"""The LoRA adapters' own work in a training step: GPU seconds and host launches of the adapter path beside each
adapted linear (the frozen base linear itself is costs.layer_cost's; QLoRA's 4-bit base layers are costed apart).

What runs, per adapted linear and micro-batch, read from peft 0.21.0 (the release the measured H200 rows ran,
tests/data/gpu_measured/README.md; PyPI's peft-0.21.0-py3-none-any.whl, sha256 b64eb75fd9dece74...),
peft/tuners/lora/layer.py Linear.forward (lines 1074-1119):

    result = self.base_layer(x)                          # the frozen linear
    x = self._cast_input_dtype(x, lora_A.weight.dtype)   # tuners_utils.py 2220-2235: x.to(dtype) unless equal
    result = result + lora_B(lora_A(dropout(x))) * scaling
    result = result.to(torch_result_dtype)               # a no-op where result is already that dtype

dropout is nn.Identity at lora_dropout 0.0 (update_layer, lines 252-255: no kernel). get_peft_model's
autocast_adapter_dtype=True (its default) upcasts bf16/fp16 adapter weights to fp32 (tuners_utils.py
cast_adapter_dtype, lines 2705-2750), which is what the memory model's adapter_dtype_bytes says (4 bytes under "auto"
for frameworks that build peft's adapters). So on a 16-bit model without autocast ("casts" below) every adapted
linear casts its own copy of x to fp32 (the copy its lora_A keeps for backward: memory/activations.py counts it), runs
both rank-r matmuls in fp32 (torch's default float32 matmul precision 'highest': CUDA-core SGEMM, no TF32, so at the
GPU's fp32 peak, presets/gpus.json dense_peak_tflops fp32), scales in fp32, adds the bf16 base output to the fp32
product (type promotion: an fp32 sum) and casts the sum back. Backward, run by autograd from C++: the final cast's
backward (bf16 -> fp32), the add's gradient cast to the bf16 base output's dtype (the engine's validate_outputs), the
scale, lora_B's and lora_A's input- and weight-gradient matmuls (MmBackward0: two each), the input cast's backward
(fp32 -> bf16) and the sum of that gradient into x's gradient (one more consumer of x). The adapters' weight
gradients are stolen, not copied, by AccumulateGrad when the step starts with zero_grad(set_to_none=True).
Where the adapters are in the compute dtype (torchtune, Megatron, litgpt; or lora_adapter_dtype compute) there is no
cast: the scale, the add and the accumulation remain. Under autocast the rank-r matmuls run in the 16-bit dtype on a
16-bit cast of x (autocast does not cache activation casts) and of each adapter weight. Unsloth's fused LoRA kernels
(the fused_lora_kernels column) add X @ A @ B into the base output in place (unsloth/kernels/fast_lora.py
matmul_lora: out.addmm_): no separate scale or add.
"""

from __future__ import annotations

from typing import NamedTuple

from ..frameworks.defaults import defaults_for
from ..memory.states import adapted_layer_share, dtypes_for, lora_targets
from ..models.architecture import ModelSpec
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import adapter_dtype_bytes, bf16_adapters_on_fp16
from ..scenario.choices import ADAPTER_METHODS
from .bnb_4bit import quant_base
from .gemm import Rates, gemm_seconds
from .hardware import Hardware

CASTS, CASTS_4BIT, SAME, AUTOCAST, FUSED = "casts", "casts-4bit", "same", "autocast", "fused"
# kernel launches (forward, backward) per adapted linear, counted from the paths above: casts: x.to, lora_A, lora_B,
# * scaling, +, .to (6); backward .to's, the add's cast, the scale, 2 + 2 matmuls, x's cast, the accumulation (9).
# same: the 4 and 6 without the casts. autocast: same + x's cast and the two weight casts, each with its backward.
# fused: two matmuls (the second an addmm_ into the output); backward the four matmuls
# casts-4bit: peft's Linear4bit on a bitsandbytes 4-bit base (peft/tuners/lora/bnb.py lines 513-565) clones the base
# output first and casts the adapters' product back before a 16-bit add: clone, x.to, lora_A, lora_B, * scaling, .to,
# + (7); backward .to's, the scale, 2 + 2 matmuls, x's cast, the sum into x's gradient (8)
LAUNCHES = {CASTS: (6, 9), CASTS_4BIT: (7, 8), SAME: (4, 6), AUTOCAST: (7, 9), FUSED: (2, 4)}
# under torch.compile: the two matmuls, one fused kernel after them (and the casts path's cast of x before them);
# backward one fused kernel before B's matmuls and one after A's, around the four matmuls
COMPILED_LAUNCHES = {CASTS: (4, 6), CASTS_4BIT: (4, 6), SAME: (3, 6), AUTOCAST: (4, 6), FUSED: (2, 4)}
# Python module calls PEFT's Linear.forward makes beyond the base linear's: its own __call__, lora_dropout's
# Identity, lora_A, lora_B (each an nn.Module.__call__ costed at host.py's Python call; the dict lookups and
# properties around them are left out, a lower bound)
PEFT_MODULE_CALLS = 4
# peft 0.21.0's own Python in Linear.forward beyond those ops and module calls (_check_forward_args, the
# disable_adapters / merged checks, the active_adapters loop and its key lookups, _cast_input_dtype's checks, use_dora),
# in view calls (host_overhead.json view_seconds): 3.6, 3.6, 3.65 and 3.82 measured (validation/checkpoint_host_counts.py
# peft_python_in_view_calls: the wrapped layer against the same ops and module calls in a plain module), the median
PEFT_PYTHON_VIEW_CALLS = 3.6


class Adapters(NamedTuple):
    """The LoRA adapters of one layer on one rank (hashable: part of costs.layer_cost's cache key)."""

    widths: tuple[tuple[int, int], ...]  # (d_in, d_out) of each adapted linear on this rank
    path: str  # CASTS | SAME | AUTOCAST | FUSED
    matmul_bytes: int  # bytes of one element of the rank-r matmuls' operands
    input_bytes: int  # bytes of one element of the adapted linear's input (the residual stream's dtype)
    rate: float  # FLOP/s of the rank-r matmuls (fp32 CUDA-core SGEMM on the casts path)
    compiled: bool = False  # torch.compile fuses the element-wise kernels around the matmuls (COMPILED_LAUNCHES)
    clones_base: bool = False  # PEFT's Linear4bit wrapper copies the base output (same / autocast paths: clones_base)
    dropout: bool = False  # lora_dropout above 0: nn.Dropout's kernel on the adapter's input (runs_lora_dropout)


def adapter_path(s: Scenario) -> str:
    """Which of the paths above a LoRA scenario's adapters take."""
    if defaults_for(s.framework).fused_lora_kernels:
        return FUSED
    compute = dtypes_for(s).compute
    # accelerate's native amp around a post-training trainer's forward (scenario.behaviour.accelerate_native_amp,
    # which the memory model reads) is left out: it turns on only without DeepSpeed (zero_stage 0), and the stage time
    # is shared across ZeRO stages (model.STAGE_TIME_MEMO); such a step is costed on the casts path, whose bytes bound
    # autocast's from above
    if dtypes_for(s).amp:
        return AUTOCAST
    if adapter_dtype_bytes(s, compute) <= compute and not bf16_adapters_on_fp16(s):  # peft casts by dtype, not bytes
        return SAME
    return CASTS_4BIT if s.method == "qlora" and defaults_for(s.framework).qlora_kernel == "bitsandbytes" else CASTS


def adapters_of(s: Scenario, spec: ModelSpec, kind: tuple[bool, bool, str], hw: Hardware, rates: Rates) -> Adapters:
    """The adapters of one layer of a LoRA/QLoRA scenario, with the rate their matmuls run at. kind: the layer's
    (moe, linear_attn, block), whose own linears are adapted (a gated DeltaNet layer's, a hybrid block's)."""
    path = adapter_path(s)
    widths = tuple(lin.split(s.tp) for lin in lora_targets(s, spec, *kind))
    if path in (CASTS, CASTS_4BIT):
        adapter = adapter_dtype_bytes(s, dtypes_for(s).compute)
        fp32 = hw.peak("fp32") * hw.matmul_fraction * hw.sustained_fraction  # the bf16 rate's share of its peak
        # 16-bit adapters (TRL's bf16 ones on an fp16 model) run their rank-r GEMMs on the tensor cores, as the model's
        return Adapters(widths, path, adapter, rates.elem_bytes, rates.gemm if adapter == 2 else fp32, s.compile,
                        dropout=runs_lora_dropout(s))
    return Adapters(widths, path, rates.elem_bytes, dtypes_for(s).residual, rates.gemm, s.compile and path != FUSED,
                    clones_base(s, path), runs_lora_dropout(s))


def adapter_seconds(a: Adapters, rank: int, tokens: float, memory: float, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) GPU seconds of one layer's adapters for one micro-batch: the rank-r matmuls as
    rooflines (gemm_seconds, no tile waves: the SGEMM and rank-r shapes are not the tensor-core tiles the waves
    describe) and the element-wise passes, bytes read plus written per token (adapter_bytes_per_token)."""
    t, r, mb, rate = tokens, rank, a.matmul_bytes, a.rate
    fwd = bwd = 0.0
    for d_in, d_out in a.widths:
        fwd += gemm_seconds(t, d_in, r, rate, memory, mb) + gemm_seconds(t, r, d_out, rate, memory, mb)
        bwd += (gemm_seconds(t, d_out, r, rate, memory, mb) + gemm_seconds(r, t, d_out, rate, memory, mb)
                + gemm_seconds(t, r, d_in, rate, memory, mb) + gemm_seconds(r, t, d_in, rate, memory, mb))
        f, b = adapter_bytes_per_token(a, d_in, d_out, elem_bytes)
        fwd += t * f / memory
        bwd += t * b / memory
    return fwd, bwd


def adapter_bytes_per_token(a: Adapters, d_in: int, d_out: int, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes read plus written per token by one adapted linear's element-wise kernels."""
    e, ab, xb = elem_bytes, a.matmul_bytes, a.input_bytes
    if a.compiled:  # one kernel before the matmuls (the casts path's x.to) and one after them, each way
        cast = d_in * (e + ab) if a.path in (CASTS, CASTS_4BIT) else 0
        forward = cast + d_out * (ab + 2 * e)  # read the product and the base output, write the sum
        backward = d_out * (e + ab) + d_in * (ab + 2 * xb)  # the scaled gradient; A's dgrad into x's gradient
        return forward, backward
    forward, backward = _path_bytes_per_token(a, d_in, d_out, elem_bytes)
    # PEFT's copy of a 4-bit base output (read and written); the dropout of the adapter's input (fp32 after the casts
    # path's x.to), aten's native_dropout writing the output and a 1-byte mask, its backward reading both back
    clone = 2 * e * d_out if a.clones_base else 0
    dropped = d_in * (2 * (ab if a.path in (CASTS, CASTS_4BIT) else xb) + 1) if a.dropout else 0
    return forward + clone + dropped, backward + dropped


def _path_bytes_per_token(a: Adapters, d_in: int, d_out: int, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes per token of one adapted linear's element-wise kernels on its eager path."""
    e, ab, xb = elem_bytes, a.matmul_bytes, a.input_bytes
    if a.path == CASTS:  # e.g. bf16 model, fp32 adapters: e = 2, ab = 4
        forward = d_in * (e + ab) + d_out * (2 * ab + (e + 2 * ab) + (ab + e))  # x.to; scale; bf16 + fp32; .to
        backward = d_out * ((e + ab) + (ab + e) + 2 * ab) + d_in * ((ab + e) + 3 * e)  # .to's; add's cast; scale;
        return forward, backward  # x's cast back; the sum into x's gradient
    if a.path == CASTS_4BIT:  # clone; x.to; scale; .to; bf16 + bf16. Backward: .to's; scale; x's cast back; the sum
        return d_in * (e + ab) + d_out * (2 * e + 2 * ab + (ab + e) + 3 * e), d_out * ((e + ab) + 2 * ab) + d_in * (
            (ab + e) + 3 * e)
    if a.path == FUSED:  # addmm_ into the output (read and written), and into the input gradient
        return 2 * e * d_out, 2 * xb * d_in
    forward = d_out * (2 * e + 3 * e)  # scale; add
    backward = d_out * 2 * e + d_in * 3 * xb  # scale; the sum into x's gradient
    if a.path == AUTOCAST and xb != e:  # autocast's cast of x, and its backward
        forward, backward = forward + d_in * (xb + e), backward + d_in * (e + xb)
    return forward, backward


def adapter_host_seconds(s: Scenario, kind: tuple[bool, bool, str], launch: float, call: float) -> tuple[float, float]:
    """(forward, backward) host seconds the adapters of one layer add per micro-batch: LAUNCHES per adapted linear
    at `launch` each, and in the forward PEFT's module calls at `call` each (none where the framework's own
    adapters or fused kernels run: torchtune, Megatron, litgpt, Unsloth). kind: the layer's (moe, linear_attn,
    block), averaged over the layers: lora_layers leaves the layers below the top N without adapters."""
    if s.method not in ADAPTER_METHODS:
        return 0.0, 0.0
    spec = resolve_model(s)
    n = len(lora_targets(s, spec, *kind)) * adapted_layer_share(s, spec)
    path = adapter_path(s)
    fwd, bwd = (COMPILED_LAUNCHES if s.compile else LAUNCHES)[path]
    fwd += int(clones_base(s, path)) + int(runs_lora_dropout(s))  # the clone; native_dropout
    bwd += int(runs_lora_dropout(s))  # native_dropout_backward
    return n * (fwd * launch + (PEFT_MODULE_CALLS * call if _runs_peft_modules(s) else 0.0)), n * bwd * launch


def clones_base(s: Scenario, path: str) -> bool:
    """PEFT's LoRA layer over a bitsandbytes Linear4bit copies the base output before adding the adapters' product,
    on every call (peft v0.20.0 src/peft/tuners/lora/bnb.py Linear4bit.forward line 533: result = result.clone());
    the casts-4bit path's counts hold it, the same path (16-bit adapters: TRL casts a quantised model's trainable
    adapters to bf16) and the autocast path do not."""
    q = quant_base(s)
    return path in (SAME, AUTOCAST) and q is not None and q.linear4bit and _runs_peft_modules(s)


def runs_lora_dropout(s: Scenario) -> bool:
    """PEFT's lora_dropout above 0 is an nn.Dropout (peft v0.20.0 src/peft/tuners/lora/layer.py update_layer lines
    251-254; nn.Identity at 0.0), applied to each adapted linear's input: in training mode (the training step, and TRL's
    generate and scoring, run with the model in train mode: transformers' Trainer.training_step calls model.train()
    before TRL's _prepare_inputs generates) aten's dropout launches its fused native_dropout kernel, and the backward
    native_dropout_backward; not where PEFT's modules do not run."""
    return s.lora_dropout > 0 and s.method in ADAPTER_METHODS and _runs_peft_modules(s)


def _runs_peft_modules(s: Scenario) -> bool:
    """PEFT's LoRA modules run their Python: not where the framework's own adapters or fused kernels run (torchtune,
    Megatron, litgpt, Unsloth), nor in a compiled layer, which runs as one graph (its module calls traced away)."""
    behaviour = defaults_for(s.framework)
    return not (behaviour.lora_adapters_in_model_dtype or behaviour.fused_lora_kernels or s.compile)


def peft_python_seconds(s: Scenario, kind: tuple[bool, bool, str], view: float) -> float:
    """Host seconds per layer and micro-batch forward of PEFT's own Python around its adapted linears
    (PEFT_PYTHON_VIEW_CALLS each at `view`, one view call on the run's host); 0 where PEFT's layers do not run."""
    return peft_adapted_linears(s, kind) * PEFT_PYTHON_VIEW_CALLS * view


def peft_adapted_linears(s: Scenario, kind: tuple[bool, bool, str]) -> float:
    """Adapted linears of one layer of that kind whose PEFT LoRA modules run their Python (0 where none do), averaged
    over the layers (lora_layers: the top N carry adapters)."""
    if s.method not in ADAPTER_METHODS or not _runs_peft_modules(s):
        return 0.0
    spec = resolve_model(s)
    return len(lora_targets(s, spec, *kind)) * adapted_layer_share(s, spec)
