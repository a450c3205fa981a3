"""Which pipeline stages a step time has to time apart (engine/timing/model.py times each one listed): the first, the
last and one middle stage per layer count, or every stage where freezing, a mix of layer kinds or trained MTP layers
placed by a layout make a stage's depth matter.
"""

from __future__ import annotations

from functools import lru_cache

from ..memory.parallelism.layout import trained_mtp_layers
from ..memory.parallelism.pipeline import scenario_stage_ranges
from ..models.architecture import ModelSpec
from ..scenario import Scenario


@lru_cache(maxsize=256)  # specs hash by identity; every step time of a search asks of the same one
def _mixed_layers(spec: ModelSpec) -> bool:
    """Layers of more than one kind (LayerGroup.kind: moe, linear_attn, block): each stage's layer mix may differ.
    Dense and MoE layers (DeepSeek-V3), softmax and gated DeltaNet layers (Qwen3-Next: a full-attention layer every
    full_attention_interval = 4, so 6-layer stages hold 1 or 2 of them), a hybrid stack's Mamba, attention and MoE
    blocks (Nemotron 3 Nano's hybrid_override_pattern)."""
    return len(spec.kind_prefix) > 1


def each_stage_listed(s: Scenario, spec: ModelSpec) -> bool:
    """distinct_stages lists every stage: more than one, and freezing, a mix of layer kinds or a layout that places
    trained MTP layers makes the depth matter. A layout of one kind of layer without them reaches a stage's work only
    through its layer count, whether it is the first and whether it holds the head (model._alike_stage), as the even split
    does: the search's uneven 1F1B layouts (planning/pipeline_chunks.py one_chunk_a_rank) stay as cheap to time."""
    return s.pp > 1 and bool(s.method == "freeze" or _mixed_layers(spec)
                             or (s.pipeline_layout and trained_mtp_layers(s, spec)))


def distinct_stages(s: Scenario, spec: ModelSpec) -> list[tuple[int, range]]:
    """(index, layers) of the stages that can differ: the first, the last, and one middle stage per layer count (two
    at most in an even split, more in DeepSpeed's; every stage where freezing or a mix of layer kinds makes the depth
    matter)."""
    if s.pp == 1:  # one stage holds every layer, whatever the split accounts for
        return [(0, range(0, spec.layers))]
    ranges = scenario_stage_ranges(s, spec.layers)
    if each_stage_listed(s, spec):
        return list(enumerate(ranges))
    out, sizes = [(0, ranges[0])], set()
    for i in range(1, s.pp - 1):
        n = len(ranges[i])
        if n not in sizes:
            sizes.add(n)
            out.append((1, range(0, n)))  # a middle stage: its place does not matter
    if s.pp > 1:
        out.append((s.pp - 1, ranges[-1]))
    return out
