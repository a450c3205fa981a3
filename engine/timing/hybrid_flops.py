"""A hybrid Mamba / attention / MoE model's FLOPs per token as Megatron-Bridge counts them for its printed
'Model TFLOP / sec / GPU' and MFU, so that a hybrid row's MFU is computed on the same basis as the table's.

Megatron-Bridge src/megatron/bridge/training/utils/flop_utils.py at NVIDIA-NeMo/Megatron-Bridge 067f987d: the layer
counts come from the hybrid pattern (lines 683-694); mlp_layer_flops (703-706), moe_layer_flops (708-732),
attn_layer_flops (734-749, core attention over the whole sequence, not half: core_attn_seq_factor is the sequence
length for fixed-length batches, line 676), mamba_layer_flops (801-826) and hybrid_flops (849-945: the logits
2 h V_pad, and the forward times 3). Its Mamba term takes d_in = 2 x hidden whatever the heads say and a scan of
7 d_in N, so for Nemotron 3 Nano (d_inner = 64 x 64 = 4,096, 1.52 x hidden) it counts 102.9 MFLOP a token and
layer where the mixer's GEMMs and SSD scan compute 80.8 (engine/timing/ssd_scan.py): the count is a convention,
kept here as Megatron-Bridge writes it because the table's TFLOP/s divide by it.
"""

from __future__ import annotations

from typing import Any

from ..models.mamba2 import HybridModel, Mamba2Mixer


def bridge_mamba_forward_flops(mixer: Mamba2Mixer) -> float:
    """mamba_layer_flops per token (forward)."""
    h, d_in = mixer.hidden, 2 * mixer.hidden
    in_proj = 2 * h * (2 * d_in + 2 * mixer.groups * mixer.state + mixer.heads)
    return float(in_proj + 7 * d_in * mixer.state + 2 * d_in * h)


def bridge_attention_forward_flops(model: HybridModel, seq_len: int) -> float:
    """attn_layer_flops per token (forward): projections with p = kv_channels x heads / hidden, core attention
    2 h p s."""
    h = model.hidden
    p = model.head_dim * model.heads / h
    return 4 * h * p * (h + h * model.kv_heads / model.heads) + 2 * h * p * seq_len


def bridge_moe_forward_flops(model: HybridModel, gated: bool = False) -> float:
    """moe_layer_flops per token (forward): routed experts x top_k and the shared expert; x 3/2 when gated."""
    scale = 1.5 if gated else 1.0
    return 4 * model.hidden * (model.expert_ffn * model.top_k + model.shared_ffn) * scale


def bridge_mlp_forward_flops(model: HybridModel, gated: bool = False) -> float:
    """mlp_layer_flops per token (forward): 4 x expansion x h^2 (x 3/2 when gated)."""
    return 4 * model.ffn * model.hidden * (1.5 if gated else 1.0)


def bridge_training_flops_per_token(model: HybridModel, seq_len: int, padded_vocab: int = 0,
                                    gated: bool = False) -> float:
    """hybrid_flops / tokens: every block's forward, the logits, times 3 (no MTP, no sliding window)."""
    forward = (model.count("attention") * bridge_attention_forward_flops(model, seq_len)
               + model.count("mamba") * bridge_mamba_forward_flops(model.mixer)
               + model.count("moe") * bridge_moe_forward_flops(model, gated)
               + model.count("mlp") * bridge_mlp_forward_flops(model, gated)
               + 2 * model.hidden * (padded_vocab or model.vocab))
    return 3.0 * forward


def hybrid_model_of(spec: Any) -> HybridModel:
    """The HybridModel a nemotron_h ModelSpec was read from (engine/models/hybrid_blocks.py keeps every field)."""
    return HybridModel(
        mixer=spec.mamba, kinds=spec.block_kinds, vocab=spec.vocab, heads=spec.heads, kv_heads=spec.kv_heads,
        head_dim=spec.head_dim, ffn=spec.ffn, experts=spec.n_experts, top_k=spec.top_k, expert_ffn=spec.expert_ffn,
        shared_ffn=spec.shared_ffn, tied=spec.tied_embeddings)


def hybrid_step_flops_per_token(spec: Any, seq_len: int, backward_share: float = 1.0,
                                weight_grad_share: float = 1.0) -> float:
    """The MFU numerator of a hybrid stack: Megatron-Bridge's count (bridge_training_flops_per_token, forward x 3),
    its forward once and then once for each gradient the step runs (the activations' for `backward_share` of the
    blocks, the weights' for `weight_grad_share`), as mfu.model_flops_per_token splits 6 N into 2 + 2 + 2. The
    vocabulary is the spec's: Nemotron 3's 131,072 is already a multiple of Megatron's 128 x TP padding. The core
    attention (2 h p s a token and layer, no weights) has no weight gradient: its backward is twice its forward
    wherever a gradient flows (1 + 2 x backward_share, as mfu.model_flops_per_token's dense 4 + 8); equal for full
    training, where a LoRA run counted (1 + backward_share) (h-review21 item f)."""
    model = hybrid_model_of(spec)
    forward = bridge_training_flops_per_token(model, seq_len) / 3.0
    core = core_attention_forward_flops(model, seq_len)
    return (forward - core) * (1.0 + backward_share + weight_grad_share) + core * (1.0 + 2.0 * backward_share)


def core_attention_forward_flops(model: HybridModel, seq_len: int) -> float:
    """The core attention's forward per token over the stack (attn_layer_flops' 2 h p s in every attention block:
    bridge_attention_forward_flops), Megatron-Bridge's causal half."""
    return model.count("attention") * 2.0 * model.head_dim * model.heads * seq_len
