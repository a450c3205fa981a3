"""A stage's layer groups split into the layers full checkpointing recomputes and those it runs plainly, when it
recomputes only some (engine/scenario/recompute_layers.py): each part is timed with its own checkpointing, so every
per-layer cost that reads it (the recomputed forward, its tensor-parallel and context-parallel collectives, the
autocast recasts, the host's checkpoint bookkeeping) counts the recomputed layers only."""

from __future__ import annotations

import dataclasses

from ..memory.states import LayerGroup
from ..scenario import Scenario
from ..scenario.recompute_layers import partial_recompute, recompute_layers


def recompute_chunks(s: Scenario) -> int:
    """The model chunks of a stage whose first N layers block recomputes (vpp), 1 where it does not matter."""
    return s.vpp if partial_recompute(s) else 1


def recomputed_share(s: Scenario, layers: int, chunks: int | None = None) -> float:
    """The share of a stage's `layers` decoder layers full checkpointing recomputes (1 where it recomputes all)."""
    if s.checkpointing != "full":
        return 0.0
    return recompute_layers(s, layers, chunks).recomputed / layers if layers else 1.0


def recompute_parts(s: Scenario, groups: tuple[LayerGroup, ...],
                    chunks: int) -> tuple[tuple[LayerGroup, Scenario], ...]:
    """(group, the scenario it is timed with) for each part of each group. The recomputed layers' kinds are taken
    in the stage's shares. Megatron's MTP layers are not recomputed under block (NVIDIA/Megatron-LM at d98e8a64
    megatron/core/transformer/multi_token_prediction.py lines 1630-1633: "recompute_method == 'block' is not
    supported for MTP yet. Skipping recompute.")."""
    if not partial_recompute(s):
        return tuple((g, s) for g in groups)
    plain = s.with_unchecked(checkpointing="none")
    share = recomputed_share(s, sum(g.count for g in groups if not g.mtp), chunks)
    parts: list[tuple[LayerGroup, Scenario]] = []
    for g in groups:
        recomputed = 0.0 if g.mtp else g.count * share
        if recomputed > 0:
            parts.append((dataclasses.replace(g, count=recomputed), s))
        if g.count - recomputed > 0:
            parts.append((dataclasses.replace(g, count=g.count - recomputed), plain))
    return tuple(parts)
