"""Where Megatron's pipeline layout (the pipeline_layout key) puts the decoder and MTP layers, and how many MTP
layers a run trains.

megatron/core/transformer/pipeline_parallel_layer_layout.py at d98e8a6: chunk v * pp + r of the layout runs on
pipeline rank r (vpp = chunks / pp), and the MTP layers sit in the last chunk of one rank (the last, or the one
before it in Megatron-Bridge's standalone-MTP layout). Without a layout Megatron builds the MTP block on the last
pipeline stage with the output layer (megatron/core/models/gpt/gpt_model.py, mtp_process on the post-process stage).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from ...models.architecture import ModelSpec
from ...scenario.pipeline_ends import head_stage
from ...scenario.pipeline_layout import layout_chunks, trained_mtp_layers
from ..states import LayerGroup


class _LayoutSettings(Protocol):
    framework: str
    pp: int
    vpp: int
    pp_schedule: str
    pipeline_layout: str


def layout_stage_layers(s: _LayoutSettings, layers: int) -> list[int] | None:
    """Decoder layers of each pipeline rank under the scenario's layout; None without one, or where its chunks are
    not pp x vpp or its decoder layers not the model's (Megatron refuses those: the even split is used)."""
    per_rank = _per_rank(s.pipeline_layout, s.pp, s.vpp, layers) if s.pipeline_layout and s.pp > 1 else None
    return None if per_rank is None else list(per_rank[0])


def mtp_stage(s: _LayoutSettings, layers: int) -> int:
    """The pipeline rank that runs the MTP layers: the layout's, else the head's (pipeline_ends.py)."""
    per_rank = _per_rank(s.pipeline_layout, s.pp, s.vpp, layers) if s.pipeline_layout and s.pp > 1 else None
    return head_stage(s) if per_rank is None or per_rank[1] < 0 else per_rank[1]


@lru_cache(maxsize=256)
def _per_rank(layout: str, pp: int, vpp: int, layers: int) -> tuple[tuple[int, ...], int] | None:
    chunks = layout_chunks(layout)
    if len(chunks) != pp * max(1, vpp) or sum(c.count("t") for c in chunks) != layers:
        return None
    counts = tuple(sum(chunks[i].count("t") for i in range(r, len(chunks), pp)) for r in range(pp))
    holder = next((i % pp for i, c in enumerate(chunks) if "m" in c), -1)
    return counts, holder


def last_layer_kind(spec: ModelSpec) -> tuple[bool, bool, str]:
    """(MoE, linear attention, block) of the model's last decoder layer: the spec Megatron builds each MTP layer with
    (megatron/core/models/gpt/gpt_layer_specs.py at d98e8a6, get_gpt_mtp_block_spec_for_backend: spec.layer_specs[-1])."""
    moe = bool(spec.moe_layer_flags[-1]) if spec.moe_layer_flags else spec.n_experts > 0
    return moe, bool(spec.kinds) and spec.kinds[-1] == "linear", spec.block_kinds[-1] if spec.block_kinds else ""


def mtp_groups(s: object, spec: ModelSpec, stage: int) -> tuple[LayerGroup, ...]:
    """The MTP layers' decoder layers as a layer group of the stage that holds them (none elsewhere): trained, so
    they have weights, gradients and optimizer states there (and the embedding's copy: states.py stage_params), and
    a step's time."""
    n = trained_mtp_layers(s, spec)
    if not n or stage != mtp_stage(s, spec.layers):  # type: ignore[arg-type]
        return ()
    moe, linear, block = last_layer_kind(spec)
    return (LayerGroup(moe, False, True, n, linear, True, block),)
