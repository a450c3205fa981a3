"""Hybrid stacks (Nemotron 3 Nano's Mamba-2 / attention / MoE blocks) and gated DeltaNet layers (Qwen3-Next) in the
callers that size "a layer": FSDP's units, the MFU numerator, QLoRA's 4-bit linears, autocast's weight casts,
DeepSpeed ZeRO-3's fetched modules and Megatron's selective recompute. Each sizes a layer by its whole kind
(moe, linear_attn, block), not by its MoE flag alone, which gave a Mamba block a transformer layer's attention and
MLP. Expected values are hand counts from the presets' config.json shapes (presets/models/nemotron-3-nano-30b-a3b.json,
presets/models/qwen3-next-80b-a3b.json); no engine output is copied in."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import scenario_from_dict
from engine.frameworks.megatron_layer import recomputed_matmul_share
from engine.memory.parallelism.fsdp import fsdp2_units
from engine.memory.parallelism.layout import last_layer_kind
from engine.memory.states import dtypes_for, layer_groups
from engine.models.parameter_tensors import layer_tensors, mean_layer_tensor_count, typical_layer_kinds
from engine.models.presets import model_spec_for
from engine.timing.autocast import autocast_seconds
from engine.timing.bnb_4bit import QuantBase, dequant_bytes_per_weight, linear4bit_host_seconds
from engine.timing.costs import layer_cost
from engine.timing.data import framework_profile
from engine.timing.data_parallel import gathered_modules_per_layer
from engine.timing.expert_tp_gather import moe_pair_units
from engine.timing.gemm import Rates
from engine.timing.layer_settings import tp_regions
from engine.timing.mfu import model_flops_per_token
from engine.timing.tp_overlap import tp_layer

NANO, NEXT = "nemotron-3-nano-30b-a3b", "qwen3-next-80b-a3b"
# a probe GPU: 700 TFLOP/s GEMMs, 500 attention, 2.7 TB/s element-wise (as tests/test_hybrid_blocks.py)
RATES = Rates(7e14, 7e14, 5e14, 2.7e12, 2)

# Nemotron 3 Nano (config.json): hidden 2688; Mamba-2 64 heads x 64, 8 groups, state 128, conv 4 with bias;
# attention 32 heads x 128, 2 KV heads; 128 routed experts (up, down: squared ReLU) of 1856, top 6, shared 3712
H = 2688
MAMBA_IN = H * (2 * 4096 + 2 * 8 * 128 + 64)  # in_proj: z, x (d_inner 4096 each), B, C (G N each), dt (one a head)
MAMBA_OUT = 4096 * H
MAMBA_SMALL = (4096 + 2 * 8 * 128) * 4 + (4096 + 2 * 8 * 128) + 3 * 64 + 4096 + H  # conv w, b; dt_bias, A_log, D;
# gated norm; the block's input norm
ATTENTION = H * 4096 + 2 * H * 256 + 4096 * H + H  # q, k, v, o and the input norm
MOE_LINEARS = H * 128 + 2 * H * 3712  # router, shared up and down
MOE = MOE_LINEARS + 128 * 2 * H * 1856 + H  # + the routed experts, the input norm
EMBEDDING, HEAD, FINAL_NORM = 131072 * H, 131072 * H, H  # untied


def _scenario(model: str, **over: object):
    base = {"model": model, "gpu": "h100-sxm-80gb", "nodes": 1, "gpus_per_node": 8, "micro_batch": 1,
            "seq_len": 4096, "precision": "mixed-bf16"}
    return scenario_from_dict(base | over)


def test_the_hand_counts_add_up_to_the_card():
    """The block counts of the pattern (23 Mamba, 23 MoE, 6 attention) times the hand counts, and the embedding,
    head and final norm, give the model card's 31.6B (NVIDIA's Nemotron 3 page, the preset's published_params)."""
    total = 23 * (MAMBA_IN + MAMBA_OUT + MAMBA_SMALL) + 23 * MOE + 6 * ATTENTION + EMBEDDING + HEAD + FINAL_NORM
    assert total == model_spec_for(NANO).total_params
    assert total == pytest.approx(31.6e9, rel=0.005)


def test_fsdp_units_are_the_blocks_and_sum_to_the_model():
    """FSDP wraps each decoder layer (here each block) as a unit: the largest gathered unit is a MoE block (not the
    transformer MoE layer of attention + router + shared expert + experts it was sized as, 1.32B), and with every
    unit kept gathered (reshard_after_forward=False, FSDP1's SHARD_GRAD_OP) the root and the units, each the dp
    shards of it put back together, hold exactly the model's parameters."""
    s = _scenario(NANO, fsdp=True, framework="pytorch")
    spec = model_spec_for(NANO)
    groups = layer_groups(s, spec, range(spec.layers))
    dt = dtypes_for(s)
    units = fsdp2_units(spec, dt, groups, True, True, 1, 1, False, shards=8, fsdp1=True)
    assert units.layer_params == MOE
    assert units.at_loss / units.gather_bytes == spec.total_params  # root and every unit, gathered


def test_fsdp_unit_of_a_deltanet_stack_is_its_deltanet_layer():
    """Qwen3-Next (48 MoE layers, every 4th full attention): a gated DeltaNet layer (in_proj_qkvz 2048 x 12288,
    in_proj_ba 2048 x 64, out_proj 4096 x 2048, conv1d 8192 x 4, dt_bias and A_log 32 each, norm 128) is larger than
    an attention layer (q with its output gate 2048 x 8192, k and v 2048 x 512 each, o 4096 x 2048, q/k norms 256
    each); both carry the router (2048 x 512), the shared expert (3 x 2048 x 512 and its 2048 gate), the 512
    experts (3 x 2048 x 512 each) and two norms."""
    s = _scenario(NEXT, fsdp=True, framework="pytorch")
    spec = model_spec_for(NEXT)
    moe_part = 2048 * 512 + 3 * 2048 * 512 + 2048 + 512 * 3 * 2048 * 512 + 2 * 2048
    deltanet = 2048 * 12288 + 2048 * 64 + 4096 * 2048 + 8192 * 4 + 2 * 32 + 128 + moe_part
    attention = 2048 * 8192 + 2 * 2048 * 512 + 4096 * 2048 + 2 * 256 + moe_part
    assert deltanet > attention
    units = fsdp2_units(spec, dtypes_for(s), layer_groups(s, spec, range(spec.layers)), True, True, 1, 1, False,
                        shards=8, fsdp1=True)
    assert units.layer_params == deltanet
    assert units.at_loss / units.gather_bytes == 36 * deltanet + 12 * attention + 2 * 151936 * 2048 + 2048


def test_mfu_counts_attention_only_on_softmax_attention_layers():
    """Megatron-LM (megatron/training/training.py at d98e8a64, lines 1163-1251) counts a gated DeltaNet layer's
    work as token-linear: the QK^T and (QK^T)V term is on its standard attention layers only. Qwen3-Next:
    6 x (active parameters - embedding) + 12 x 12 attention layers x 16 heads x 256 x half the sequence (the causal
    mask's non-zero half, Megatron-LM's "/ 2" at lines 1164-1169)."""
    spec = model_spec_for(NEXT)
    matmul = 6 * (spec.active_params - spec.embedding_params)
    for seq in (1024, 4096):
        assert model_flops_per_token(spec, seq) == pytest.approx(matmul + 12 * 12 * 16 * 256 * seq / 2, rel=1e-12)


def test_hybrid_mfu_sequence_term_is_on_attention_blocks_only():
    """Nemotron 3 Nano (Megatron-Bridge's hybrid count, engine/timing/hybrid_flops.py): the only term that grows with
    the sequence is the 6 attention blocks' core attention, 2 h p s forward with h p = 32 heads x 128, times 3."""
    spec = model_spec_for(NANO)
    growth = model_flops_per_token(spec, 8192) - model_flops_per_token(spec, 4096)
    assert growth == pytest.approx(3 * 6 * 2 * 32 * 128 * 4096, rel=1e-12)


def test_qlora_dequantises_each_blocks_own_linears():
    """bitsandbytes' Linear4bit dequantises each layer's own base weights once a use: a Mamba block's in_proj and
    out_proj, not a transformer layer's q, k, v, o, up and down."""
    spec = model_spec_for(NANO)
    quant = QuantBase(4, True, True)
    c = layer_cost(spec, False, 4096.0, 4096, 1, 1, 1, False, RATES, "fused", "fused", "", (), 0, quant, block="mamba")
    assert c.dequant == pytest.approx((MAMBA_IN + MAMBA_OUT) * dequant_bytes_per_weight(quant, 2) / RATES.memory)


def test_qlora_host_counts_each_kinds_4bit_linears():
    """The host's per-call cost of a Linear4bit is the same for every linear, so a Mamba block (in_proj, out_proj)
    costs 2/4 of an attention block (q, k, v, o) and a DeltaNet layer with its router and shared expert
    (in_proj_qkvz, in_proj_ba, out_proj, gate, gate/up/down) 7/8 of Qwen3-Next's attention layer's 8."""
    s = _scenario(NANO, method="qlora", framework="huggingface", precision="bf16")
    mamba = linear4bit_host_seconds(s, (False, False, "mamba"), 5e-6, 1e-5, 1e-5, 0.5)
    attention = linear4bit_host_seconds(s, (False, False, "attention"), 5e-6, 1e-5, 1e-5, 0.5)
    assert attention[0] > 0
    assert mamba[0] == pytest.approx(attention[0] * 2 / 4) and mamba[1] == pytest.approx(attention[1] * 2 / 4)
    q = _scenario(NEXT, method="qlora", framework="huggingface", precision="bf16")
    deltanet = linear4bit_host_seconds(q, (True, True, ""), 5e-6, 1e-5, 1e-5, 0.5)
    softmax = linear4bit_host_seconds(q, (True, False, ""), 5e-6, 1e-5, 1e-5, 0.5)
    assert deltanet[0] == pytest.approx(softmax[0] * 7 / 8)


def test_autocast_casts_each_layers_own_weights():
    """Autocast over fp32 weights casts every matmul weight once a micro-batch forward (4 bytes read, 2 written) and
    each trained weight's gradient back (2 + 4): Qwen3-Next's 36 DeltaNet and 12 attention layers each with their
    own projections and the 512 experts, and the LM head (151,936 x 2048)."""
    s = _scenario(NEXT, precision="amp-bf16", framework="pytorch", compile=True, gpus_per_node=1, ep=1)
    spec = model_spec_for(NEXT)
    experts = 512 * 3 * 2048 * 512
    deltanet = 2048 * 12288 + 2048 * 64 + 4096 * 2048 + 2048 * 512 + 3 * 2048 * 512 + experts
    attention = 2048 * 8192 + 2 * 2048 * 512 + 4096 * 2048 + 2048 * 512 + 3 * 2048 * 512 + experts
    weights = 36 * deltanet + 12 * attention + 151936 * 2048
    busiest = SimpleNamespace(trainable=1.0, params=1.0, layers=48)
    seconds = autocast_seconds(s, spec, framework_profile(s.framework), RATES, dtypes_for(s), busiest)
    assert seconds == pytest.approx(s.grad_accum * 6 * 2 * weights / RATES.memory, rel=1e-12)


def test_zero3_fetches_each_blocks_own_modules():
    """DeepSpeed ZeRO-3 fetches each nn.Linear (and each routed expert) of at least 100,000 elements: a Mamba block
    2 (in_proj, out_proj), an attention block 4 (k and v: 2688 x 256 = 688,128), a MoE block the router
    (2688 x 128), the shared up and down and its 128 experts; averaged over the 52 blocks."""
    spec = model_spec_for(NANO)
    assert gathered_modules_per_layer(spec) == pytest.approx((23 * 2 + 6 * 4 + 23 * (3 + 128)) / 52)


def test_a_blocks_parameter_tensors_are_its_own():
    """A Mamba block's tensors (mamba2.Mamba2Mixer.tensors): in_proj, out_proj, conv1d weight and bias, dt_bias,
    A_log, D, the gated norm, and the block's input norm: 9, holding the block's parameters."""
    spec = model_spec_for(NANO)
    tensors = layer_tensors(spec, False, 1, False, "mamba")
    assert len(tensors) == 9
    assert sum(tensors) == MAMBA_IN + MAMBA_OUT + MAMBA_SMALL
    assert mean_layer_tensor_count(spec) == pytest.approx((23 * 9 + 6 * 5 + 23 * (4 + 128 * 2)) / 52)


def test_selective_recompute_of_a_hybrid_block():
    """Megatron's recompute_modules 'mlp' rebuilds an MLP block's matmuls and none of a Mamba block's (its in_proj
    and out_proj are the mixer's); 'moe' a MoE block's router, shared expert and top-6 experts, all of it."""
    spec = model_spec_for(NANO)
    assert recomputed_matmul_share(spec, False, frozenset({"mlp"}), False, "mamba") == 0.0
    assert recomputed_matmul_share(spec, True, frozenset({"moe"}), False, "moe") == 1.0
    assert recomputed_matmul_share(spec, False, frozenset({"mlp"}), False, "attention") == 0.0


def test_mtp_layers_take_the_last_layers_whole_kind():
    """Megatron builds each MTP layer with the last layer's spec: Nano's pattern ends in a MoE block."""
    assert last_layer_kind(model_spec_for(NANO)) == (True, False, "moe")
    assert last_layer_kind(model_spec_for(NEXT)) == (True, False, "")  # layer 47: full attention (interval 4)


@pytest.mark.parametrize("model", ["llama-3.1-8b", "deepseek-v3", "qwen3-30b-a3b"])
def test_a_transformers_typical_layer_is_unchanged(model: str):
    """A transformer's layer standing for all stays its one typical layer (its dense one where it mixes dense and
    MoE layers): the output fingerprint of the change holds every transformer scenario identical."""
    spec = model_spec_for(model)
    assert typical_layer_kinds(spec) == {(spec.moe_layers > 0 and spec.dense_layers == 0, False, ""): 1.0}


def test_a_hybrid_block_has_one_tensor_parallel_region():
    """Each hybrid block is one mixer with its residual: a Mamba block's in_proj (column-parallel) and out_proj
    (row-parallel; Megatron-LM d98e8a64 megatron/core/models/hybrid/hybrid_layer_specs.py lines 116-130), an
    attention block's QKV and proj, an MLP block's fc1 and fc2: one all-gather + reduce-scatter pair each way and one
    column-parallel input gathered again for its weight gradient (sp_backward_regather), half a transformer layer's
    two regions (tests/test_attention_work.py: 5 units with both)."""
    s = _scenario(NANO, framework="megatron", tp=2, sequence_parallel=True, ep=1)
    spec, prof = model_spec_for(NANO), framework_profile("megatron")

    def units(kind: tuple[bool, bool, str]) -> float:
        return tp_layer(s, spec, prof, True, False, False, kind, 1.0, RATES).units
    assert units((False, False, "")) == 5.0  # a transformer layer: 2 forward, 2 backward, QKV's and fc1's regather
    for block in ("mamba", "attention"):  # (Nano has no MLP block; tp_regions gives one the MLP region alone)
        assert units((False, False, block)) == 2.5
    pair = moe_pair_units(s, spec)  # the MoE dispatcher's pair (top_k (etp - 1) / (tp - 1) here)
    assert units((True, False, "")) == 2 * (1 + pair) + 0.5  # a transformer MoE layer: attention and dispatcher
    assert units((True, False, "moe")) == 2 * pair  # a MoE block: the dispatcher's alone, no fc1 to gather again
    assert tp_regions("mlp") == (False, True) and tp_regions("") == (True, True)
    deltanet = tp_layer(s, model_spec_for(NEXT), prof, True, False, False, (True, True, ""), 1.0, RATES)
    transformer_moe = tp_layer(s, model_spec_for(NEXT), prof, True, False, False, (True, False, ""), 1.0, RATES)
    assert deltanet.units == transformer_moe.units  # in_proj and out_proj: the attention region's pair
