"""The parts of one layer, by the layer's whole kind, whose kernel launches and module calls the host issues.

A transformer layer runs attention and an MLP (or an MoE router and experts); a gated DeltaNet layer (Qwen3-Next)
runs its linear attention in the attention's place; a hybrid stack's block (Nemotron-H, Nemotron 3 Nano:
models/hybrid_blocks.py) runs one part only: a Mamba-2 mixer, an attention, an MLP or an MoE router and experts
(Megatron-LM megatron/core/models/mamba/mamba_layer_specs.py at 2edffadb: mamba_layer = MambaLayer with a MambaMixer,
attention_layer = TransformerLayer with self_attention only, mlp_layer / moe_layer with pre_mlp_layernorm and mlp
only). presets/host_overhead.json stacks and te_modules hold each part's counts; a stack without a part (the eager
stacks have no Mamba-2 or DeltaNet count) times the layer as a transformer layer, as before.
"""

from __future__ import annotations

from typing import Any

_FFN = {True: ("moe_router", "moe_experts"), False: ("mlp",)}
_BLOCK_PARTS = {"mamba": ("mamba",), "attention": ("attention",), "mlp": ("mlp",), "moe": ("moe_router", "moe_experts")}


def layer_parts(kind: tuple[bool, bool, str] | None, moe: bool, table: dict[str, Any]) -> tuple[str, ...]:
    """The parts of a layer of `kind` (moe, linear_attn, block; None: a transformer layer, MoE or not) that `table`
    (one stack's or te_modules' counts by part) counts; a transformer layer's parts where it lacks one."""
    plain = ("attention", *_FFN[moe])
    if kind is None:
        return plain
    _moe, linear_attn, block = kind
    parts = _BLOCK_PARTS.get(block) if block else (("gated_deltanet",) if linear_attn else ("attention",)) + _FFN[moe]
    if parts is None or any(p not in table for p in parts):
        return plain
    return parts
