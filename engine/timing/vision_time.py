"""Step time of a vision-language model's image encoder (vision tower + merger / projector), per tensor like the
decoder layers (costs.py): each block's GEMMs at the rank's shapes (gemm_seconds), its attention per sequence the
tower's code hands the kernel, element-wise work at the GPU's stream rate; forward always, backward only where the
tower trains (memory.states.vision_tower_trains: the engine's vision_tower key trains tower and projector together),
full checkpointing running the blocks' forward again; a frozen tower whose blocks the framework checkpoints and whose
input it makes require grad (vision_tower frozen-backward, memory.states.vision_tower_backward: ms-swift's
vit_gradient_checkpointing) runs the input-gradient half of that backward, every block forward again first, and no
weight gradient. It runs on the first pipeline stage, before the first decoder
layer, over the micro-batch's images; every TP rank runs it whole where the framework replicates it
(vision_tower_replicated), else its linears are split over TP like the decoder's. Context parallelism does not split
images (each rank encodes the sample's images).

The sequences per block follow the towers' transformers modules (the versions engine/models/vision.py cites):
Qwen2.5-VL (transformers 5.25.0 models/qwen2_5_vl/modeling_qwen2_5_vl.py, Qwen2_5_VisionTransformerPretrainedModel
.get_window_index and forward): the blocks of fullatt_block_indexes attend over each image (cu_seqlens), the others
within windows of window_size // spatial_merge_size // patch_size merged tokens a side (cu_window_seqlens; edge
windows smaller); Qwen3-VL / Qwen3.5 (modeling_qwen3_vl.py Qwen3VLVisionModel.forward): every block over each image
(cu_seqlens per frame); SigLIP (Gemma 3) and Llama 4: each image / tile whole; Pixtral: one call over every patch of
the micro-batch with a block-diagonal mask (transformers PixtralVisionModel.forward, generate_block_attention_mask),
so the kernel computes the whole product, except under flash_attention_2 (per image). Left out: eager attention's
score bytes (the tower's attention is timed at the fused kernel's rate under every attention key), the masked SDPA
call's memory-efficient kernel's own rate, the host's launches for the tower, and the tower's FLOPs in the MFU.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..frameworks.defaults import defaults_for
from ..memory.states import vision_tower_backward, vision_tower_trains
from ..models.vision import VisionSpec
from ..scenario import Scenario
from .attention import FLASH_BACKWARD_FACTOR, head_dim_rate, work_rate
from .data import efficiency
from .gemm import Rates, gemm_seconds, rate_tile
from .unaligned_gemm import aligned_rate

Sequences = tuple[tuple[float, float], ...]  # (patches of one attention sequence, how many such sequences)


class VisionSeconds(NamedTuple):
    """Seconds per micro-batch of the tower on its rank (forward; backward 0 where it is frozen, input gradients only
    where it is frozen-backward)."""

    gemm_fwd: float  # patch embedding, blocks' linears, merger / projector
    attn_fwd: float
    elem_fwd: float  # norms, residual adds, activations, rotary: memory-bound
    gemm_bwd: float  # input + weight gradients (frozen-backward: input gradients only)
    attn_bwd: float
    elem_bwd: float
    wgrad: float  # of gemm_bwd: the weight-gradient GEMMs
    recompute: float  # the blocks' forward again: full checkpointing, or frozen-backward (always checkpointed)
    block_flops: float  # one block's forward FLOPs on the rank (linears + attention), for the record


def block_linears(v: VisionSpec, patches: float, tp: int) -> tuple[tuple[float, float, float], ...]:
    """(m, k, n) of one block's linears over `patches` rows on a rank of `tp` (columns of q/k/v and of the MLP's
    first projections split, rows of the output and down projections split, as Megatron's vision blocks)."""
    d, f = v.hidden, v.ffn
    if v.kind in ("qwen2_5_vl", "qwen3_vl"):  # one fused qkv Linear(d, 3d) (Qwen2_5_VLVisionAttention.qkv)
        attn = ((patches, d, 3 * d / tp),)
    else:  # SigLIP, Pixtral, Llama 4: q_proj, k_proj, v_proj
        attn = ((patches, d, d / tp),) * 3
    mlp_in = ((patches, d, f / tp),) * (2 if v.gated_mlp else 1)  # gate_proj + up_proj, or fc1
    return attn + ((patches, d / tp, d),) + mlp_in + ((patches, f / tp, d),)


def outside_linears(v: VisionSpec, patches: float, images: float) -> tuple[tuple[float, float, float], ...]:
    """(m, k, n) of the tower's linears outside its blocks (patch embedding as the GEMM its strided convolution is,
    merger / projector), whole on the rank; the parameter counts of VisionSpec.params name the modules."""
    d, p = v.hidden, v.patch
    embed = (patches, 3 * v.temporal_patch * p * p, d)
    if v.kind in ("qwen2_5_vl", "qwen3_vl"):
        merged, wide = patches / v.merge**2, d * v.merge**2
        merger = ((merged, wide, wide), (merged, wide, v.out_hidden))
        return (embed,) + merger * (1 + v.deepstack_mergers)
    if v.kind == "siglip":  # Gemma3MultiModalProjector: average-pooled to mm_tokens_per_image, then d x text_hidden
        return embed, (images * v.tokens_per_image_fixed, d, v.text_hidden)
    if v.kind == "pixtral":  # Mistral3PatchMerger Linear(d merge^2, d), linear_1 (d -> text), linear_2 (text -> text)
        merged = patches / v.merge**2
        return (embed, (merged, d * v.merge**2, d), (merged, d, v.text_hidden), (merged, v.text_hidden, v.text_hidden))
    grid = (v.image_size // p) ** 2  # Llama 4: per tile a class token beside the grid; pixel shuffle: 1/4 the rows
    shuffled = patches * grid / (grid + 1) / 4
    return ((patches * grid / (grid + 1), 3 * p * p, d), (shuffled, v.ffn, v.projector_in),
            (shuffled, v.out_hidden, v.out_hidden), (shuffled, v.out_hidden, v.text_hidden))


def attention_sequences(v: VisionSpec, resolution: int, images: float,
                        flash: bool = False) -> tuple[Sequences, Sequences, int]:
    """((patches of a sequence, sequences), ...) of a block attending over whole images, the same of a windowed
    block, and how many blocks attend over whole images (the rest are windowed). Qwen2.5-VL: windows of
    window_merged merged tokens a side over the image's merged grid, the last one on each side what is left.
    flash: the scenario's attention is flash_attention_2, where Pixtral attends per image (position_ids) instead of
    through its block-diagonal mask over the micro-batch (transformers PixtralVisionModel.forward)."""
    per_image = v.patches_per_image(resolution)
    if v.kind == "pixtral" and not flash:  # one masked call over the micro-batch's patches
        whole: Sequences = ((images * per_image, 1.0),)
    elif v.kind == "llama4":  # each tile (its grid and class token) on its own
        grid = (v.image_size // v.patch) ** 2 + 1
        whole = ((grid, images * per_image / grid),)
    else:
        whole = ((per_image, images),)
    if v.kind != "qwen2_5_vl" or not v.window_merged:
        return whole, (), v.layers
    side, w = math.isqrt(per_image) // v.merge, v.window_merged  # merged tokens a side, a window's side
    sides = [w] * (side // w) + ([side % w] if side % w else [])
    return whole, tuple((a * b * v.merge**2, images) for a in sides for b in sides), v.full_attention_blocks


def _attention_seconds(sequences: Sequences, heads_dim: float, head_dim: int, rates: Rates,
                       per_sequence: bool) -> tuple[float, float]:
    """(FLOPs, seconds) of one block's forward attention: non-causal, every key tile of a sequence computed whole
    (presets/efficiency.json attention_tiles); its rate by the work of one call (work_rate): one varlen call over all
    sequences, or (per_sequence) a call per sequence, as the Qwen towers' non-flash path splits q, k, v by cu_seqlens
    (transformers 5.25.0 Qwen2_5_VLVisionAttention.forward / Qwen3VLVisionAttention.forward)."""
    tile_k = efficiency()["attention_tiles"]["tile_k"]
    rate = rates.attention * (head_dim_rate(head_dim) if rates.head_dim_scaled else 1.0)
    flops = seconds = 0.0
    for length, n in sequences:
        one = 4.0 * math.ceil(length / tile_k) * tile_k * length * heads_dim
        flops += n * one
        if per_sequence and one:
            seconds += n * one / (rate * work_rate(rates.attention_by_work, one))
    if not per_sequence and flops:
        seconds = flops / (rate * work_rate(rates.attention_by_work, flops))
    return flops, seconds


def linears_seconds(shapes: tuple[tuple[float, float, float], ...], rates: Rates) -> tuple[float, float]:
    """(seconds, FLOPs) of these GEMMs forward, in the 16-bit format (the towers train outside fp8 recipes)."""
    seconds = flops = 0.0
    for m, k, n in shapes:
        rate = aligned_rate(rates, rates.gemm, k, n)
        seconds += gemm_seconds(m, k, n, rate, rates.memory, rates.elem_bytes, rates.sms, rates.epilogue_k[0],
                                rate_tile(rates, False))
        flops += 2.0 * m * k * n
    return seconds, flops


def block_elementwise_bytes(v: VisionSpec, elem_bytes: int, tp: int) -> float:
    """Bytes per patch one block's element-wise ops move forward: two norms (read + write d), two residual adds
    (2 reads + 1 write of d), the rotary of q and k where the tower rotates them (Qwen, Pixtral: read + write), the
    activation (SwiGLU: act(gate) read + write f, times up 2 reads + 1 write; GELU: read + write f)."""
    d, f = v.hidden, v.ffn / tp
    rotary = 4 * d / tp if v.kind in ("qwen2_5_vl", "qwen3_vl", "pixtral") else 0.0
    return elem_bytes * (4 * d + 6 * d + rotary + (5 * f if v.gated_mlp else 2 * f))


def vision_seconds(s: Scenario, v: VisionSpec, rates: Rates, tp: int) -> VisionSeconds:
    """The tower's seconds per micro-batch on its rank (tp: 1 where the framework replicates the tower)."""
    resolution = s.image_resolution or v.image_size
    images = float(s.micro_batch * s.images_per_sample)
    patches = images * v.patches_per_image(resolution)
    block_gemm, block_gemm_flops = linears_seconds(block_linears(v, patches, tp), rates)
    whole, windows, full_blocks = attention_sequences(v, resolution, images, s.attention == "flash")
    heads_dim, head_dim = v.hidden / tp, v.hidden // v.heads
    split = v.kind in ("qwen2_5_vl", "qwen3_vl") and s.attention != "flash"  # a call per image / window
    whole_flops, whole_attn = _attention_seconds(whole, heads_dim, head_dim, rates, split)
    window_attn = _attention_seconds(windows, heads_dim, head_dim, rates, split)[1]
    attn_fwd = full_blocks * whole_attn + (v.layers - full_blocks) * window_attn
    outside_gemm, _ = linears_seconds(outside_linears(v, patches, images), rates)
    elem_fwd = v.layers * patches * block_elementwise_bytes(v, rates.elem_bytes, tp) / rates.memory
    gemm_fwd = v.layers * block_gemm + outside_gemm
    block_flops = block_gemm_flops + whole_flops
    if not vision_tower_backward(s):  # frozen (or LoRA / QLoRA): no gradient reaches the tower, forward only
        return VisionSeconds(gemm_fwd, attn_fwd, elem_fwd, 0.0, 0.0, 0.0, 0.0, 0.0, block_flops)
    # backward: input and weight gradients at the forward's shapes (the patch embedding's input needs none)
    embed_gemm, _ = linears_seconds(outside_linears(v, patches, images)[:1], rates)
    blocks_again = v.layers * block_gemm + attn_fwd + elem_fwd
    if not vision_tower_trains(s):  # frozen-backward: the gradient stops at the patch embedding's output (the hook's
        # requires_grad_), so the blocks' and merger's input gradients only, the checkpointed blocks run again first
        return VisionSeconds(gemm_fwd, attn_fwd, elem_fwd, gemm_fwd - embed_gemm, FLASH_BACKWARD_FACTOR * attn_fwd,
                             2 * elem_fwd, 0.0, blocks_again, block_flops)
    recompute = blocks_again if s.checkpointing == "full" else 0.0
    return VisionSeconds(gemm_fwd, attn_fwd, elem_fwd, 2 * gemm_fwd - embed_gemm, FLASH_BACKWARD_FACTOR * attn_fwd,
                         2 * elem_fwd, gemm_fwd, recompute, block_flops)


def with_vision_tower(s: Scenario, v: VisionSpec, rates: Rates, totals: tuple[float, ...]) -> tuple[float, ...]:
    """The first stage's (compute, memory, recompute, forward, backward, weight-gradient) seconds per micro-batch with
    the image encoder's added (the tower whole on each TP rank where the framework replicates it)."""
    compute, memory, recompute, fwd, bwd, wgrad = totals
    t = vision_seconds(s, v, rates, 1 if defaults_for(s.framework).vision_tower_replicated else s.tp)
    return (compute + t.gemm_fwd + t.attn_fwd + t.gemm_bwd + t.attn_bwd, memory + t.elem_fwd + t.elem_bwd,
            recompute + t.recompute, fwd + t.gemm_fwd + t.attn_fwd + t.elem_fwd,
            bwd + t.gemm_bwd + t.attn_bwd + t.elem_bwd + t.recompute, wgrad + t.wgrad)
