"""Copies around attention where a framework keeps its activations sequence-first and the kernel wants them
batch-first (or the reverse): at micro-batch 1 the rearranges between [s, b, ...] and [b, s, ...] only move a dimension
of size 1, so they are views; above it they copy.

A framework states it in its profile (presets/efficiency.json frameworks: sequence_first_attention_copies), per
attention path ("flash": a FlashAttention kernel, "eager": the framework's own score GEMMs and softmax), as the number
of whole-tensor copies (each reads and writes every element once) of the query width and of the key/value width in
one forward and one backward of a layer. The copies run on the rank's heads (width / tp) and, forward, again where
full recomputation reruns the forward (they are part of the layer's forward element-wise work)."""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec
from ..scenario import Scenario


def attention_layout_copy_bytes(s: Scenario, spec: ModelSpec, prof: dict[str, Any],
                                elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) element-wise bytes per local token of one layer's layout copies around attention; (0, 0)
    at micro-batch 1 or where the framework's profile states none."""
    table = prof.get("sequence_first_attention_copies")
    if not table or s.micro_batch <= 1:
        return 0.0, 0.0
    copies = table["eager" if s.attention == "eager" else "flash"]
    q_units, kv_units = spec.q_dim / s.tp, spec.kv_dim / s.tp
    per_copy = 2 * elem_bytes  # each element read once and written once

    def bytes_of(direction: str) -> float:
        return per_copy * (copies[f"{direction}_q"] * q_units + copies[f"{direction}_kv"] * kv_units)
    return bytes_of("forward"), bytes_of("backward")
