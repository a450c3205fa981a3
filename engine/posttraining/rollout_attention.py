"""Attention FLOPs of the rollout engine's prefill and decode, counted as the serving estimate counts them
(engine/serving/mla_attention.py): per layer kind (a sliding window caps the cached tokens a query reads, a
linear-attention layer reads none), by the engine's path where the model's attention is MLA (vLLM / SGLang: absorbed
decode, decompressed prefill), on one engine GPU's heads (heads / rollout_tp). The rollout had counted the weights'
2 x active parameters per token alone, which long completions outgrow: Qwen2.5-7B's attention is ~4% of a decode
token's FLOPs at 1.5K cached tokens and ~43% at 16K. No Qt."""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from ..serving.kv_layout import LayerKind, layer_kinds
from ..serving.mla_attention import attended_tokens, attention_flops_per_pair, causal_pairs, mla_path


@lru_cache(maxsize=256)
def _kinds(spec: ModelSpec, tp: int) -> tuple[LayerKind, ...]:
    return layer_kinds(spec, tp, 2.0)


def prefill_attention_flops(spec: ModelSpec, engine: str, tp: int, prompt_tokens: float) -> float:
    """FLOPs of one sequence's causal prefill attention on one engine GPU (a decompressing MLA prefill's re-lift of
    earlier chunks is not counted: post-training prompts fit one chunk)."""
    path = mla_path(spec, engine, "prefill")
    return attention_flops_per_pair(spec, spec.heads / tp, path) * causal_pairs(_kinds(spec, tp), prompt_tokens)


def decode_attention_flops(spec: ModelSpec, engine: str, tp: int, context_tokens: float) -> float:
    """FLOPs of one sequence's next token attending its `context_tokens` cached tokens on one engine GPU."""
    path = mla_path(spec, engine, "decode")
    return attention_flops_per_pair(spec, spec.heads / tp, path) * attended_tokens(_kinds(spec, tp), context_tokens)


__all__ = ["decode_attention_flops", "prefill_attention_flops"]
