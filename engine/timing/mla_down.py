"""The shape one rank multiplies for a decoder linear, MLA's down projections kept whole where the framework says so.

FrameworkDefaults.mla_down_proj: "" splits them like the other attention linears (Linear.split); "duplicated"
(Megatron-Core's TELinear parallel_mode 'duplicated', NVIDIA/Megatron-LM at core_v0.14.0 megatron/core/transformer/
multi_latent_attention.py lines 367-435) keeps the whole weight and takes the layer's input as it comes: the rank's
1/tp of the sequence under sequence parallelism (_qkv_down_projection's comments: q_compressed [s / TP, b,
q_lora_rank]), the whole sequence without; "replicated" (torchtitan at b5bcd76c models/deepseek_v3/sharding.py lines
79-133: the attention input gathered to Replicate, wq_a and wkv_a Replicate weights) the whole weight over the whole
sequence.
"""

from __future__ import annotations

from ..models.layer_shapes import MLA_DOWN_PROJECTIONS, Linear


def rank_shape(lin: Linear, tokens: float, tp: int, sp: bool, mla_down: str) -> tuple[float, float, float, bool]:
    """(rows, input width, output width, kept whole) of `lin`'s matmul on one of `tp` ranks for `tokens` tokens."""
    if mla_down and lin.name in MLA_DOWN_PROJECTIONS:
        rows = tokens / tp if mla_down == "duplicated" and sp else tokens
        return rows, float(lin.d_in), float(lin.d_out), True
    d_in, d_out = lin.split(tp)  # a row-parallel linear splits its input, a column-parallel one its output
    return tokens, d_in, d_out, False
