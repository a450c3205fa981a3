"""Memory of the loss path: the lm_head output (logits) and cross-entropy, per loss implementation.

tv = tokens x vocabulary (per tensor-parallel rank); c = bytes of the compute dtype.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .settings import Behaviour


@dataclass(frozen=True, slots=True)
class LossMemory:
    forward: float  # bytes alive at the forward spike of the loss
    backward: float  # bytes alive when backward starts
    formula: str
    chunks: int


def _next_power_of_2(n: int) -> int:
    return 1 << max(0, math.ceil(math.log2(max(n, 1))))


def loss_memory(b: Behaviour, tokens: float, vocab: float, hidden: int, compute: int, tp: int,
                head_trains: bool, weight_bytes: int, compiled: bool) -> LossMemory:
    """Forward and backward spikes of the loss path for one micro-batch.

    standard (transformers ForCausalLMLoss, torchtitan, plain PyTorch): the logits in the compute dtype, their
    fp32 upcast and the fp32 log-softmax output (saved for backward) are alive together; backward holds the saved
    log-softmax output, the nll gradient and the log-softmax gradient (3 fp32 b·s·V tensors).
    """
    tv = tokens * vocab / tp
    if b.cross_entropy == "standard":
        if compiled:
            # Inductor fuses upcast, log-softmax and nll into one kernel that keeps the logits and one log-sum-exp per
            # token; backward computes the gradient in fp32 (the upcast's dtype) and casts it back for the lm_head.
            return LossMemory(compute * tv, (2 * compute + 4) * tv,
                              "compiled: logits kept (compute bytes); backward: + fp32 gradient and its cast", 1)
        upcast = 4 * tv if compute != 4 else 0.0
        # PyTorch's loss_parallel log-softmax (vocabulary split over tp) is decomposed (max, shift, exp, sum): the
        # shifted logits and their exponential are both fp32 b·s·V/tp tensors alive next to the upcast (traced).
        decomposed = 4 * tv if tp > 1 else 0.0
        return LossMemory(compute * tv + upcast + 4 * tv + decomposed, 12 * tv,
                          "b·s·V x (compute bytes + 4 upcast + 4 log-softmax); backward: 3 fp32 b·s·V tensors", 1)
    if b.cross_entropy == "chunked":
        if b.loss_chunk_tokens:
            chunks = max(1, math.ceil(tokens / b.loss_chunk_tokens))
        else:
            chunks = max(1, b.loss_chunks)
        chunk = tv / chunks
        if compiled:
            # torchtune compiles compute_cross_entropy: the fused kernel keeps each chunk's logits and one
            # log-sum-exp per token, and in backward writes one chunk's gradient in the logits' dtype.
            return LossMemory(compute * tv, compute * tv + (4 + compute) * chunk,
                              "logits chunks kept by the compiled loss; backward: + one chunk's gradient", chunks)
        saved = 4 * tv if b.loss_upcast else compute * tv  # log-softmax output of every chunk, kept for backward
        # torchtune CEWithChunkedOutputLoss: the model returns the logits as a list of chunks (all alive), each
        # chunk is upcast and log-softmaxed on its own (ce_chunked_output_loss.py); litgpt chunked_cross_entropy
        # does the same per 128 tokens without the upcast. The recipe drops the logits before backward.
        upcast = 4 * chunk if b.loss_upcast and compute != 4 else 0.0
        per_chunk_grads = (8 if b.loss_upcast else 2 * compute) * chunk + compute * chunk
        # the first chunk's backward already creates the head's weight gradient, alive through the other chunks
        head_grad = weight_bytes * vocab * hidden / tp if head_trains else 0.0
        return LossMemory(compute * tv + saved + upcast, saved + per_chunk_grads + head_grad,
                          "logits chunks (compute bytes) + saved log-softmax of every chunk + one chunk's upcast; "
                          "backward: saved log-softmax + one chunk's gradients (+ the head's weight gradient)",
                          chunks)
    # fused-linear: Liger-Kernel src/liger_kernel/ops/fused_linear_cross_entropy.py computes the loss and its
    # gradients in the forward pass, chunk by chunk: chunk_size = next_power_of_2(ceil(BT / ceil(V / H))) tokens, so
    # the transient logits stay about BT x H; grad_input (BT x H) is kept for backward and grad_weight (V x H, the
    # weight's dtype) is filled when the head trains. Unsloth's fused loss and Cut-Cross-Entropy bound the logits
    # the same way.
    bt = max(1, int(tokens))
    inc = math.ceil(vocab / tp / hidden)
    chunk_tokens = min(_next_power_of_2(math.ceil(bt / inc)), bt)
    logits_chunk = compute * chunk_tokens * vocab / tp
    grad_input = compute * tokens * hidden
    grad_weight = weight_bytes * vocab * hidden / tp if head_trains else 0.0
    loss_1d = 4 * tokens
    return LossMemory(logits_chunk + grad_input + grad_weight + loss_1d, grad_input + grad_weight,
                      "one chunk of logits (~b·s·h) + grad_input b·s·h + grad_weight V·h when the head trains",
                      math.ceil(bt / chunk_tokens))
