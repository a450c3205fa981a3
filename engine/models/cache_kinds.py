"""Which cache each decoder layer of a model keeps when it generates, and a Mamba-2 block's fixed state: shared by
the serving engines' cache layouts (engine/serving/kv_layout.py) and the plain KV-cache size of a batch
(engine/memory/estimate.py kv_cache_per_layer: the kv-cache command, the model's summary, TRL's generate() cache),
which must not count keys and values in a hybrid stack's Mamba, MLP or MoE blocks. No Qt."""

from __future__ import annotations

from .architecture import ModelSpec

NO_CACHE = "none"  # a hybrid stack's MLP or MoE block


def layer_cache_kinds(spec: ModelSpec) -> tuple[str, ...]:
    """Each layer's cache kind (NO_CACHE for a layer that caches nothing, so positions stay the layers'): a hybrid
    stack (ModelSpec.block_kinds, models/hybrid_blocks.py) caches keys and values in its attention blocks, a fixed
    state in its Mamba-2 blocks and nothing in its MLP / MoE blocks (vLLM's NemotronH model registers an Attention
    layer only for its '*' blocks and a MambaMixer2 for its 'M' blocks); any other model one kind per layer
    (ModelSpec.kinds)."""
    if not spec.block_kinds:
        return spec.kinds
    return tuple({"mamba": "linear", "attention": "full"}.get(b, NO_CACHE) for b in spec.block_kinds)


def mamba2_state_bytes(spec: ModelSpec, tp: int, state_element_bytes: float) -> float:
    """Mamba-2 state of one sequence in one block on one GPU, as vLLM shapes it (MambaStateShapeCalculator.
    mamba2_state_shape, vllm/model_executor/layers/mamba/mamba_utils.py in the stored copies of vLLM): the conv tail
    (kernel - 1) x conv_dim / tp, conv_dim = d_inner + 2 x groups x state with the groups padded to a multiple of tp
    where tp does not divide them (extra_groups_for_head_shards), and the SSM state heads / tp x head_dim x state."""
    m = spec.mamba
    assert m is not None
    tp = max(1, tp)
    groups = m.groups + (0 if m.groups % tp == 0 else tp - m.groups)
    conv = (m.conv_kernel - 1) * (m.d_inner + 2 * groups * m.state) / tp
    return (conv + m.heads / tp * m.head_dim * m.state) * state_element_bytes
