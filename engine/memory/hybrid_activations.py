"""What one block of a hybrid stack (Nemotron-H / Nemotron 3: engine/models/hybrid_blocks.py) keeps for backward.

A block is one norm and one mixer, so its saved tensors are one half of a transformer layer's or a Mamba-2 mixer's:

- mamba: mamba2_activations.mamba_block_saved_terms (Megatron-Core's hybrid spec through mamba_ssm's combined
  kernel), per token, times the rank's tokens;
- attention: the attention half of the layer's terms (the same tensors a transformer layer's attention keeps),
- mlp / moe: the MLP (or MoE) half, split by the labels layer_backward.layer_mlp_bytes already splits by;
- the residual dropout masks a layer counts for its two blocks ('attention and MLP'): one of the two.

The backward's scratch: an attention block's is the attention's, an MLP or MoE block's the MLP's, and a Mamba block's
the gradients of in_proj's output (zxbcdt) and of the scan's output (d_inner), each in the compute dtype, alive
while the combined kernel's backward runs (counted from the tensors mamba_ssm's MambaSplitConv1dScanCombinedFn
backward allocates: dzxbcdt and dout_x; not traced).
"""

from __future__ import annotations

from typing import Any

from .mamba2_activations import mamba_block_saved_terms

Terms = list[tuple[str, float]]
_BOTH_BLOCKS = "attention and MLP"  # a term a transformer layer counts once per block, for both


def hybrid_block_terms(ctx: Any, spec: Any, block: str, layer_terms: tuple[tuple[str, float], ...],
                       mlp_labels: tuple[str, ...], saves: bool) -> Terms:
    """(name, bytes) one block keeps for one micro-batch; `layer_terms` are a transformer layer's of the same MoE-ness
    (moe for an 'E' block), `mlp_labels` the label prefixes of its MLP half, `saves` whether anything needs a
    gradient (an input gradient or trained weights)."""
    if not saves:
        return []
    if block == "mamba":
        sp = ctx.t_norm != ctx.t
        per_token = mamba_block_saved_terms(spec.mamba, ctx.tp, sp, ctx.compute)
        return [(f"Mamba block: {name}", ctx.t * b) for name, b in per_token.items()]
    mlp_half = block in ("mlp", "moe")
    out: Terms = []
    for name, b in layer_terms:
        if _BOTH_BLOCKS in name:
            out.append((name, b / 2))
        elif name.startswith(mlp_labels) == mlp_half:
            out.append((name, b))
    return out


def hybrid_block_scratch(ctx: Any, spec: Any, block: str, mlp_attn: tuple[float, float]) -> tuple[float, float]:
    """(MLP backward, mixer backward) gradient bytes alive at once in one block; `mlp_attn` a transformer layer's."""
    if block == "mamba":
        m = spec.mamba
        return 0.0, ctx.compute * ctx.t * (m.in_proj_width + m.d_inner) / ctx.tp
    if block == "attention":
        return 0.0, mlp_attn[1]
    return mlp_attn[0], 0.0
