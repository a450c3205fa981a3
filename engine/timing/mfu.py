"""The MFU numerator: model FLOPs per token, the FLOPs the step runs as Megatron-LM counts them (the causal half of
the attention scores, a sliding window's share), without the weight gradients that frozen weights never get."""

from __future__ import annotations

from functools import lru_cache

from ..memory.parallelism.layout import last_layer_kind, trained_mtp_layers
from ..memory.states import adapted_layer_share
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.packing import sequence_tokens
from .hardware import hardware_for
from .hybrid_flops import hybrid_step_flops_per_token
from .nvfp4 import trains_nvfp4

MFU_DEFINITION = QT_TRANSLATE_NOOP(
    "engine", "MFU = model FLOPs per second / (GPUs x dense peak of the compute format: fp8's for fp8 training). "
    "Model FLOPs per token = 6 x (active parameters of the language model without the input embedding: a vision "
    "tower runs over image patches, not tokens) + 12 x attention width x the keys a token's query "
    "is scored against in the softmax-attention layers (not gated DeltaNet ones): half the sequence length under the "
    "causal mask, as Megatron-LM counts it, and a sliding window's mean on the layers that slide (recomputation not "
    "added), the sequence being each packed one (packed_sequence_tokens) where rows are packed; frozen weights (LoRA, "
    "QLoRA, frozen layers) count no weight gradient (2 of the 6), and layers no gradient flows through count no "
    "backward at all. Multi-token-prediction layers that Megatron trains add each one's "
    "decoder layer, 2h -> h projection and output layer, as Megatron-Bridge counts them. A hybrid Mamba stack (Nemotron-H, "
    "Nemotron 3) is counted block by block as Megatron-Bridge counts it: Mamba, attention, MLP and MoE blocks and the "
    "logits, forward x 3.")
# The count of PaLM's appendix B (arXiv:2204.02311: 6N + 12 L H Q T), kept by torchtitan (pytorch/torchtitan@b5bcd76c
# torchtitan/models/utils.py get_dense_model_nparams_and_flops: "we follow the convention and do not account for
# sparsity in causal attention"), nanoGPT (karpathy/nanoGPT@3adf61e model.py:296 estimate_mfu) and NeMo's tables
# before 2025 (tests/test_long_context.py): the MFU their logs and tables print, a second, labelled figure
MFU_WHOLE_ATTENTION_DEFINITION = QT_TRANSLATE_NOOP(
    "engine", "MFU (attention counted whole) = the same, with every key of the attention scores counted, masked or "
    "not (12 x layers x attention width x sequence length): the count of PaLM's appendix B, torchtitan and nanoGPT, "
    "whose printed MFU is this one; it can exceed 100% at long sequences. The speed cap (no plan more than 10% above "
    "the best published run on its GPU) compares this figure, the count the published runs' ceilings were measured "
    "in.")
# The convention of NVIDIA's and torchtitan's tables for fp8 runs, kept as a second, labelled figure
MFU_BF16_DEFINITION = QT_TRANSLATE_NOOP(
    "engine", "MFU (bf16 peak) = the same model FLOPs per second / (GPUs x dense bf16 peak): the convention of "
    "tables that divide fp8 runs by the bf16 peak; it can exceed 100% for fp8.")


def compute_format(s: Scenario) -> str:
    """Number format of the 16/32-bit matmuls and attention: fp32, fp16 or bf16 (fp8 training keeps attention
    and the remaining matmuls in bf16)."""
    if s.precision == "fp32":
        return "fp32"
    return "fp16" if "fp16" in s.precision else "bf16"


def mfu_format(s: Scenario) -> str:
    """The format whose dense peak MFU is measured against: the one the decoder's linear layers run in, so an fp8
    run is measured against the fp8 peak (a run cannot exceed it), not the bf16 one (which it can, by up to 2x), and
    an NVFP4 run against the dense FP4 peak."""
    if trains_nvfp4(s):
        return "fp4"
    return "fp8" if s.precision == "fp8" else compute_format(s)


def attention_keys_per_token(spec: ModelSpec, seq_len: int, causal: bool = True) -> float:
    """Keys each token's query is scored against, summed over the softmax-attention layers: the causal mask's
    non-zero half, s / 2 (Megatron-LM at 8873b55d, megatron/training/training.py num_floating_point_operations:
    "/ 2  # causal mask (only half of the mask is non-zero)", kept at d98e8a64 lines 1164-1169), and over a sliding
    window w < s the mask's mean w - w^2 / 2s (query i sees min(i, w) keys; s / 2 again at w = s) on the layers
    that slide (layer_types, else every layer: GPT-OSS every other one, Gemma 3 five of six, Mistral 7B all).
    causal=False counts every key of every layer (the count of PaLM's appendix B, torchtitan and nanoGPT)."""
    layers = spec.softmax_attention_layers
    if not causal:
        return float(layers * seq_len)
    window = spec.sliding_window
    if not window or window >= seq_len:
        return layers * seq_len / 2.0
    sliding = min(layers, spec.layer_types.count("sliding") if spec.layer_types else layers)
    return (layers - sliding) * seq_len / 2.0 + sliding * (window - window * window / (2.0 * seq_len))


@lru_cache(maxsize=1024, typed=True)  # specs hash by identity: every step time asks twice (causal and whole)
def model_flops_per_token(spec: ModelSpec, seq_len: int, backward_share: float = 1.0,
                          weight_grad_share: float = 1.0, causal: bool = True) -> float:
    """6 N (active, without the input embedding and a vision tower) + 4 (1 + 2) d_attn K, K the keys a token's
    query meets over the softmax-attention layers (attention_keys_per_token: s / 2 a causal layer, the window's mean
    a sliding one; not a gated DeltaNet layer): the MFU numerator per token, the FLOPs the step runs as Megatron-LM
    counts them for full training. Of the 6, 2 are the forward, 2 the activations' gradients and 2 the weights'
    gradients; of the attention's 12, 4 are the forward and 8 the backward. `backward_share` is the share of the
    layers a gradient flows through, `weight_grad_share` the share of the weights that get one (what the time model
    computes: frozen weights get no weight gradient), so the MFU of adapters and frozen layers stays at most 100%.
    causal=False gives the older count with every key of every layer (12 L d s: PaLM's appendix B, torchtitan,
    nanoGPT, NeMo's tables before 2025), which tables that print TFLOP/s with it are read back with. A hybrid Mamba
    stack (nemotron_h) is counted as Megatron-Bridge counts it (hybrid_flops.py: its core attention is already
    the causal half)."""
    if spec.block_kinds:
        flops = hybrid_step_flops_per_token(spec, seq_len, backward_share, weight_grad_share)
        # Megatron-Bridge's core attention, 2 h p s a token forward, is the causal half: the whole adds as much, its
        # backward twice its forward wherever a gradient flows (no weights: as the dense 4 + 8 below)
        return flops if causal else flops + 2.0 * spec.softmax_attention_layers * spec.q_dim * seq_len * (
            1.0 + 2.0 * backward_share)
    # the language model's parameters: active_params holds a vision tower's too, which runs over image patches (its
    # own count per image, engine/timing/vision_time.py), not once per text token, so 6 x its parameters per token is
    # no FLOP count of anything (a Qwen3-VL-8B's 576M tower was 7% of the numerator; a config.json with a 4,095-pixel
    # patch, 1.3e11 Conv3d weights on 4 patches an image, gave an MFU of 775%, h-fuzz9)
    n = spec.active_params - spec.embedding_params - spec.vision_params
    if spec.tied_embeddings:
        n += spec.embedding_params  # the tied table is also the lm_head matmul
    matmul = n * (2.0 + 2.0 * backward_share + 2.0 * weight_grad_share)
    # QK^T and (QK^T)V only where a layer runs softmax attention: Megatron-LM counts a gated DeltaNet layer's work as
    # token-linear, with no sequence-length term (megatron/training/training.py at d98e8a64, lines 1163-1251:
    # self_attn_core_term = standard_self_attn_core_term * num_standard_attention_layers)
    return matmul + attention_keys_per_token(spec, seq_len, causal) * spec.q_dim * (4.0 + 8.0 * backward_share)


def step_flops_per_token(s: Scenario, spec: ModelSpec, causal: bool = True) -> float:
    """The MFU numerator of the scenario's step: the model's FLOPs per token with the gradients it runs, and the
    MTP layers Megatron trains (timing/mtp.py; Megatron-Bridge src/megatron/bridge/training/utils/flop_utils.py at
    067f987d counts each as a layer of the last layer's kind, its 2h^2 projection and the logits once more). The
    attention term counts the sequences attention runs over (packing.sequence_tokens: each packed sequence, not the
    row), so a packed step's MFU counts the attention it computes, on the scenario as given or as laid out.
    causal=False: every key of every layer (MFU_WHOLE_ATTENTION_DEFINITION's second figure)."""
    seq = sequence_tokens(s)
    flops = model_flops_per_token(spec, seq, *gradient_shares(s, spec), causal=causal)
    n = trained_mtp_layers(s, spec)  # full training only: every weight gets its gradient
    if n:
        moe, linear, block = last_layer_kind(spec)
        h = spec.hidden
        params = spec.active_layer_params(moe, linear, block) + 2 * h * h + spec.vocab * h
        softmax = not linear and block in ("", "attention")  # as model_flops_per_token: no sequence term otherwise
        attention = (6.0 if causal else 12.0) * spec.q_dim * seq if softmax else 0.0  # the causal half of 12 d s
        flops += n * (6.0 * params + attention)
    return flops


def gradient_shares(s: Scenario, spec: ModelSpec) -> tuple[float, float]:
    """(share of the layers a gradient flows through, share of the weights that get a gradient) for the MFU
    numerator. LoRA and QLoRA: the gradient flows through every layer to the adapters, whose own weight gradients
    are under 1% of the matmuls (not counted). Frozen layers: the bottom ones get no backward at all; frozen top
    layers pass the gradient down without weight gradients."""
    if s.method in ADAPTER_METHODS:  # lora_layers N: the backward runs through the top N layers only
        return adapted_layer_share(s, spec), 0.0
    if s.method == "freeze" and spec.layers:
        trained = (spec.layers - min(s.frozen_layers, spec.layers)) / spec.layers
        return (trained if s.freeze_from == "bottom" else 1.0), trained
    return 1.0, 1.0


def mfu_figures(s: Scenario, spec: ModelSpec, tokens_per_second_per_gpu: float,
                causal: bool = True) -> tuple[float, float]:
    """(MFU against the dense peak of the format the run computes in, MFU against the bf16 peak) of a throughput:
    the model's own or a measured one (tests/test_speed_accuracy.py holds every published run at most 100%).
    causal=False: with attention counted whole (the ceilings' count, presets/mfu_ceilings.json)."""
    hw = hardware_for(s)
    flops = step_flops_per_token(s, spec, causal) * tokens_per_second_per_gpu
    own, bf16 = hw.peak(mfu_format(s)), hw.peak("bf16")
    return (flops / own if own else 0.0), (flops / bf16 if bf16 else 0.0)
