"""Copies around sequence-parallel collectives on batch-first activations (DTensor's Shard(1), torchtitan), and the
element-wise bytes per local token a layer spends on them beside the context-parallel ring's."""

from __future__ import annotations

from ..frameworks.defaults import FrameworkDefaults
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .collectives import ALL_REDUCE, small_message_latency
from .context_parallel import ring_copy_bytes
from .hardware import Hardware
from .layer_settings import column_wgrad_linears, current_scaling, tp_regions

FP8_BYTES = 1  # torchao's PrepareFloat8ModuleInput casts a block's input to float8 before its all-gather


def sp_copy_bytes(s: Scenario, spec: ModelSpec, behaviour: FrameworkDefaults, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes read and written per local token by the copies DTensor's sequence parallelism makes
    on batch-first (b, s, h) activations (FrameworkDefaults.sp_batch_first_copies). torchtitan's plan
    (torchtitan/models/llama3/parallelize_llama.py apply_tp at 820504e, as at 9dec370) shards the blocks' inputs on
    dim 1 (Shard(1)): each block all-gathers its input twice (PrepareModuleInput before wq/wk/wv and w1/w3) and
    reduce-scatters twice (wo and w2, output_layouts=Shard(1)), and the backward runs the pairs the other way.
    torch/distributed/_functional_collectives.py (all_gather_tensor / reduce_scatter_tensor, gather_dim or
    scatter_dim 1; the same code at v2.6.0 and since) gathers and scatters on dim 0 and reorders with torch.cat of
    the chunks: after every all-gather the gathered (b, s, h) tensor is read and written once more, and before every
    reduce-scatter its (b, s, h) input. The code notes it ('we can accelerate Sequence Parallel by folding (and
    unfolding) the batch dimension and the sequence dimension', pytorch/torchtitan pull request #437). Inductor
    keeps both copies (torch 2.13 on CPU, output code of a compiled all_gather_tensor(gather_dim=1) -> mm -> mm ->
    reduce_scatter_tensor (scatter_dim=1): cpp_fused_cat_split kernels after the gather and before the scatter),
    except the all-gather's at micro-batch 1, where the chunks in order are the gathered buffer itself and it takes
    a view; eager torch.cat always copies. Float8 tensorwise TP gathers in fp8
    (torchao/float8/float8_tensor_parallel.py PrepareFloat8ModuleInput at 6243040), the gradients in the activation
    type. The per-op checkpoint saves the reduce-scatter outputs (parallelize_llama.py _save_list) and runs the
    all-gathers again, so its recompute, which repeats the layer's forward element-wise work, repeats only the
    all-gathers' copies: the forward reduce-scatters' copies are charged with the backward's. Per local token: 2 h x
    bytes a copy (read and write of the gathered row)."""
    if s.tp <= 1 or not s.sequence_parallel or not behaviour.sp_batch_first_copies:
        return 0.0, 0.0
    row = 2 * spec.hidden  # one read and one write of a gathered row, in elements
    gather_copies = 2 if (s.micro_batch > 1 or not s.compile) else 0  # per pass: before wq/wk/wv and w1/w3
    # torchtitan gathers in float8 only under its tensorwise converter ("auto" is tensorwise there): rowwise and MX
    # recipes run regular TP in 16 bits (parallelize.py enable_float8_tensorwise_tp = not float8_is_rowwise)
    tensorwise = s.precision == "fp8" and s.fp8_recipe in ("auto", "tensorwise")
    gather_bytes = FP8_BYTES if tensorwise else elem_bytes
    forward_gathers = gather_copies * row * gather_bytes
    scatters = 2 * row * elem_bytes  # wo and w2 forward; in backward the gathers' gradients
    backward = scatters + gather_copies * row * elem_bytes  # the reduce-scatters' gradients gathered
    if s.checkpointing == "op-selective":
        return forward_gathers, backward + scatters
    return forward_gathers + scatters, backward


def layer_copy_bytes(s: Scenario, spec: ModelSpec, behaviour: FrameworkDefaults, elem_bytes: int) -> tuple[float,
                                                                                                          float]:
    """(forward, backward) element-wise bytes per local token of the copies around a layer's collectives: the
    context-parallel ring's (context_parallel.ring_copy_bytes) and sequence parallelism's (sp_copy_bytes)."""
    ring_fwd, ring_bwd = ring_copy_bytes(s, spec, behaviour, elem_bytes)
    sp_fwd, sp_bwd = sp_copy_bytes(s, spec, behaviour, elem_bytes)
    return ring_fwd + sp_fwd, ring_bwd + sp_bwd


def tp_amax_reduce_seconds(s: Scenario, fp8: str, hw: Hardware, node: int, moe: bool, backward: bool,
                           recompute_seconds: float, block: str = "") -> float:
    """Seconds of one layer and micro-batch that Transformer Engine's current-scaling quantizers spend all-reducing
    an amax over the tensor-parallel group before they cast (NVIDIA/TransformerEngine v2.8
    transformer_engine/pytorch/module/linear.py lines 1637-1644 and 1665-1674, layernorm_linear.py 1745-1791,
    layernorm_mlp.py 2103-2154: with sequence parallelism a column-parallel linear's input quantizer and a
    row-parallel linear's grad-output quantizer take with_amax_reduction over tp_group). Per layer: the QKV input
    and, in a dense layer, FC1's input in the forward (again where full recompute reruns it: recompute_seconds > 0
    under checkpointing full); the output projection's and, in a dense layer, FC2's output gradient in the backward
    (a MoE layer's experts run grouped linears outside the TP group). Each is a 4-byte all-reduce on the compute
    stream that the cast waits for: the latency of the protocol NCCL picks for 4 bytes over the TP ranks (LL's ring,
    collectives.small_message_latency), nothing to hide behind. The recipes that
    do are Transformer Engine's current scaling (layer_settings.current_scaling); delayed scaling reduces its amax
    history once a step, MXFP8 and blockwise scales are local to a block. A hybrid stack's block (`block`) has one
    region's pair (layer_settings.tp_regions: a Mamba block's in_proj and out_proj), an MoE block none."""
    if s.tp <= 1 or not s.sequence_parallel or not current_scaling(fp8):
        return 0.0
    per_pass = column_wgrad_linears(moe, tp_regions(block))  # the column-parallel linears: QKV, a dense fc1
    recomputed = recompute_seconds > 0 and s.checkpointing == "full"
    count = per_pass * (2 if recomputed else 1) + (per_pass if backward else 0)
    return count * small_message_latency(hw, ALL_REDUCE, s.tp, s.tp, node)
