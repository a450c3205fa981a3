"""Hybrid (Nemotron-H / Nemotron 3) blocks in the estimate: the Nano preset's parameters against the model card, and
one block's saved activations and seconds counted by hand from the block's own tensors (engine/models/
hybrid_blocks.py, engine/memory/hybrid_activations.py, engine/timing/block_mixer.py)."""

from __future__ import annotations

import json

import pytest
from conftest import REPO

from engine import scenario_from_dict
from engine.memory.activations import layer_bytes, layer_terms
from engine.memory.detailed import act_context
from engine.memory.estimate import estimate
from engine.memory.states import dtypes_for, layer_groups
from engine.models.hf_config import model_from_hf_config
from engine.models.mamba2 import hybrid_from_config
from engine.scenario import resolve_model
from engine.timing.costs import layer_cost
from engine.timing.gemm import Rates
from engine.timing.hybrid_flops import bridge_training_flops_per_token
from engine.timing.mfu import model_flops_per_token

PRESET = json.loads((REPO / "presets/models/nemotron-3-nano-30b-a3b.json").read_text(encoding="utf-8"))
NANO = PRESET["hf_config"]
BASE = {"model": "nemotron-3-nano-30b-a3b", "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1,
        "seq_len": 8192, "attention": "flash", "gpu": "b200", "ep": 8, "nodes": 1, "gpus_per_node": 8}
# a probe GPU: 700 TFLOP/s GEMMs, 500 attention, 2.7 TB/s element-wise (tests/test_mamba_block_time.py times a Mamba
# block at these figures, by hand)
RATES = Rates(7e14, 7e14, 5e14, 2.7e12, 2)


def test_the_preset_has_the_cards_parameters():
    """NVIDIA's Nemotron 3 announcement (the preset's published_params_source): '3.2B active (3.6B with embeddings),
    31.6B total'; the spec counts each block per tensor (engine/models/hybrid_blocks.py block_linears,
    block_small_params; the mixer's tensors engine/models/mamba2.py, tests/test_mamba2.py)."""
    spec = model_from_hf_config(NANO)
    assert spec.total_params == pytest.approx(31.6e9, rel=0.005)
    assert spec.active_params == pytest.approx(3.6e9, rel=0.01)
    assert spec.active_params - spec.embedding_params == pytest.approx(3.2e9, rel=0.01)
    assert spec.layer_kind_counts == {(False, False, "mamba"): 23, (True, False, "moe"): 23,
                                      (False, False, "attention"): 6}


def test_a_stage_groups_the_blocks_by_kind():
    s = scenario_from_dict(BASE)
    spec = resolve_model(s)
    groups = layer_groups(s, spec, range(spec.layers))
    assert sorted((g.block, g.count) for g in groups) == [("attention", 6), ("mamba", 23), ("moe", 23)]


def _ctx():
    s = scenario_from_dict(BASE)
    spec = resolve_model(s)
    return act_context(s, spec, dtypes_for(s)), spec


def test_a_mamba_blocks_saved_bytes_by_hand():
    """Per token (TP 1, bf16): the norm's input and output 2 x 2 h, its fp32 rstd 4, zxbcdt 2 (2 d_inner + 2 G N + H),
    out_x, the gated norm's input and out_proj's input 3 x 2 d_inner, the gated norm's rstd 4 G
    (mamba2_activations.py), times the micro-batch's 8,192 tokens."""
    ctx, spec = _ctx()
    h, d_inner, g, n, heads = 2688, 64 * 64, 8, 128, 64
    per_token = 4 * h + 4 + 2 * (2 * d_inner + 2 * g * n + heads) + 6 * d_inner + 4 * g
    assert layer_bytes(ctx, spec, False, True, True, frozenset(), 8, False, "mamba") == 8192 * per_token


def test_a_fully_recomputed_block_keeps_its_input_only():
    """Full recomputation (Megatron-Core's recompute_granularity full checkpoints each layer's input and runs its
    forward again): each of the 52 blocks keeps its input, 2 h bytes a token in bf16, whatever its kind."""
    s = scenario_from_dict({**BASE, "checkpointing": "full"})
    activations = next(c for c in estimate(s).components if c.key == "activations")
    assert activations.peak_bytes == 52 * 8192 * 2 * 2688


def test_the_attention_and_moe_blocks_are_the_two_halves_of_a_layer():
    """An attention block keeps the attention half of a transformer layer's saved tensors and a MoE block the MoE
    half (the labels layer_backward.layer_mlp_bytes splits by): together, one MoE layer's."""
    ctx, spec = _ctx()
    full = dict(layer_terms(ctx, spec, True, True, True, frozenset(), 8))
    attention = dict(layer_terms(ctx, spec, False, True, True, frozenset(), 8, False, "attention"))
    moe = dict(layer_terms(ctx, spec, True, True, True, frozenset(), 8, False, "moe"))
    assert attention and moe and not set(attention) & set(moe)
    assert sum(attention.values()) + sum(moe.values()) == pytest.approx(sum(full.values()))
    assert not any(name.startswith(("router", "experts")) for name in attention)


def _cost(block: str, moe: bool = False):
    spec = model_from_hf_config(NANO)
    return spec, layer_cost(spec, moe, 8192.0, 8192, 1, 8, 1, False, RATES, "fused", "fused", "", (), 0, None,
                            block=block)


def test_mlp_free_and_attention_free_blocks():
    """An attention block times q, k, v and o only (2 t h (q + 2 kv) + 2 t q h FLOPs); a MoE block no attention."""
    spec, attention = _cost("attention")
    h, q, kv, t = 2688, 32 * 128, 2 * 128, 8192
    assert attention.gemm_flops_fwd == 2 * t * h * (q + 2 * kv) + 2 * t * q * h
    assert attention.experts_fwd == 0.0
    _, moe = _cost("moe", True)
    assert (moe.attn_fwd, moe.attn_bwd) == (0.0, 0.0) and moe.experts_fwd > 0.0


def test_mfu_counts_a_hybrid_as_megatron_bridge_does():
    """The MFU numerator of a hybrid spec is Megatron-Bridge's hybrid count (hybrid_flops.py), which gives its own
    table's TFLOP/s (tests/test_mamba2.py)."""
    spec = model_from_hf_config(NANO)
    assert model_flops_per_token(spec, 8192) == pytest.approx(
        bridge_training_flops_per_token(hybrid_from_config(NANO), 8192))


def test_serving_caches_keys_only_in_attention_blocks_and_a_state_in_mamba_blocks() -> None:
    """Nemotron 3 Nano (presets/models/nemotron-3-nano-30b-a3b.json): 6 attention blocks with 2 KV heads of 128 cache
    2 x 2 x 128 x 2 bytes a token each (bf16), 23 Mamba-2 blocks a fixed state each (vLLM's mamba2_state_shape: conv
    (4 - 1) x (64 x 64 + 2 x 8 x 128) and SSM 64 x 64 x 128 elements at tp 1), its MLP / MoE blocks nothing."""
    from engine.serving.kv_layout import layer_kinds

    spec = resolve_model(scenario_from_dict({"model": "nemotron-3-nano-30b-a3b"}))
    kinds = {k.kind: k for k in layer_kinds(spec, 1, 2.0, 2.0)}
    assert set(kinds) == {"full", "linear"}
    assert kinds["full"].layers == 6 and kinds["full"].token_bytes == 2 * 2 * 128 * 2
    assert kinds["linear"].layers == 23
    assert kinds["linear"].state_bytes == (3 * (64 * 64 + 2 * 8 * 128) + 64 * 64 * 128) * 2
