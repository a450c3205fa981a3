"""Transformer Engine's attention backend selection, rerun in every layer whose attention parameters differ from the
previous call's (issue 23, GPT-OSS: alternating 128-token windows).

DotProductAttention keeps the last call's AttentionParams in the module-global _attention_backends and reruns
get_attention_backend whenever a call's params differ (transformer_engine/pytorch/attention/dot_product_attention/
dot_product_attention.py lines 1318-1348 at v2.9; the same test at v2.12, v2.14, v2.16; TransformerEngine issue #1349:
the one-entry cache 'resets each time the params change'). Megatron-Core passes window_size to the windowed layers
only, so a model whose layers alternate sliding and full attention (gpt-oss: window_attn_skip_freq 2) changes the
params at every layer and reselects in every layer's forward (and in a recomputed forward). The selection is Python
on the host (version, device, dtype, layout, mask, window, sink checks; the logging set-up; one call into the C++
nvte_get_fused_attn_backend). cuDNN's graphs are not rebuilt: fused_attn_f16_arbitrary_seqlen.cu keeps each
descriptor's graph (windows included) in a thread-local map, so both kinds are cached after the first step. Its cost
per call is measured by benchmarks/te_attention_backend_host.py (presets/host_overhead.json
attention_backend_selection). A CUDA graph of the attention replays without it.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec

# layer kinds that run Transformer Engine's DotProductAttention (linear-attention layers do not call it)
_DPA_KINDS = ("full", "sliding", "chunked")


def reselections_per_layer(spec: ModelSpec) -> float:
    """Share of the attention layers whose params differ from the previous attention layer's (cyclic: a micro-batch's
    first layer follows the last one of the previous forward); 0 where all layers attend alike."""
    return _changes(spec.layer_types)


@lru_cache(maxsize=64)
def _changes(layer_types: tuple[str, ...]) -> float:
    kinds = [k for k in layer_types if k in _DPA_KINDS]
    if len(kinds) < 2:
        return 0.0
    changes = sum(1 for i, k in enumerate(kinds) if k != kinds[i - 1])
    return changes / len(kinds)
