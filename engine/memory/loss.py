"""Memory of the loss path: the lm_head output (logits) and cross-entropy, per loss implementation.

tv = tokens x vocabulary (per tensor-parallel rank); c = bytes of the compute dtype.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..scenario.behaviour import Behaviour


@dataclass(frozen=True, slots=True)
class LossMemory:
    forward: float  # bytes alive at the forward spike of the loss
    backward: float  # bytes alive when backward starts
    formula: str
    chunks: int
    kept: float = 0.0  # logits the training loop keeps through backward and the optimizer step
    bsv_forward: float = -1.0  # the b·s·V tensors alone at the forward spike (-1: all of `forward`)
    # what the loss itself keeps from the end of its forward to the start of its backward (its saved tensors), set
    # by each implementation below: FSDP2's root pre-backward gathers the root again while these are alive
    saved: float = 0.0
    # the gradient that reaches the model's output when the loss runs outside it: the logits' gradient in the
    # compute dtype (c·tv), or b·s·h when a fused-linear loss has already folded the head into it
    output_grad: float = 0.0

    @property
    def logits_spike(self) -> float:
        """Bytes of the b·s·V tensors at the forward spike (what the allocator's gap follows)."""
        return self.forward if self.bsv_forward < 0 else self.bsv_forward


def _next_power_of_2(n: int) -> int:
    return 1 << max(0, math.ceil(math.log2(max(n, 1))))


def loss_memory(b: Behaviour, tokens: float, vocab: float, hidden: int, compute: int, tp: int,
                head_trains: bool, weight_bytes: int, compiled: bool) -> LossMemory:
    """Forward and backward spikes of the loss path for one micro-batch, with what the training loop keeps.

    litgpt (Fabric): `logits = model(...)` stays bound through backward and the optimizer step, so the previous
    step's logits are still alive while the next forward builds its own (they are released only when the name is
    rebound). A QLoRA lm_head quantised by Fabric's bitsandbytes plugin dequantises its whole weight for every
    chunk's matmul: dequantize_4bit returns the fp16 it was quantised from and MatMul4Bit casts it to the compute
    dtype (bitsandbytes autograd/_functions.py MatMul4Bit.forward), both alive for a moment.
    """
    m = _loss_memory(b, tokens, vocab, hidden, compute, tp, head_trains, weight_bytes, compiled)
    tv = tokens * vocab / tp
    if b.cross_entropy == "fused-linear":
        return dataclasses.replace(m, output_grad=compute * tokens * hidden)
    logits = (4 if b.outputs_fp32 else compute) * tv  # the model's output as the loop holds it
    kept = logits if b.logits_kept else 0.0
    forward, formula = m.forward, m.formula
    if kept:
        forward = max(forward, kept + logits)
        formula += "; the previous step's logits stay alive until the next forward returns"
    bsv = forward
    if b.quantizes_head:
        dequant = (2 + compute) * vocab * hidden / tp
        forward = max(forward, kept + logits + dequant)
        formula += "; the 4-bit lm_head dequantised (fp16 + compute copy) while the last chunk runs"
    return LossMemory(forward, m.backward, formula, m.chunks, kept, bsv, m.saved, compute * tv)


def _loss_memory(b: Behaviour, tokens: float, vocab: float, hidden: int, compute: int, tp: int,
                 head_trains: bool, weight_bytes: int, compiled: bool) -> LossMemory:
    """The loss implementation's own forward and backward spikes, with what it saves for backward."""
    tv = tokens * vocab / tp
    if b.cross_entropy == "standard":
        return _standard_loss(b, tokens, tv, compute, tp, compiled)
    if b.cross_entropy == "no-upcast":
        # Cross-entropy in the logits' own dtype, without an upcast: Qwen-1's remote code (huggingface.co/Qwen/Qwen-7B
        # modeling_qwen.py QWenLMHeadModel.forward) and transformers' models before the fp32 upcast (GPT2LMHeadModel
        # in transformers <= 4.45) shift the logits with `lm_logits[..., :-1, :].contiguous()` (a copy) and call
        # nn.CrossEntropyLoss on it: logits, the shifted copy and log-softmax's output (saved for backward) are
        # compute-dtype b·s·V tensors alive together; backward holds the saved output, the nll gradient and the
        # log-softmax gradient, all in the compute dtype.
        return LossMemory(3 * compute * tv, 3 * compute * tv,
                          "b·s·V x compute bytes x 3 (logits, shifted copy, log-softmax); backward: 3 such tensors",
                          1, saved=compute * tv)
    if b.cross_entropy == "fused":
        # flash-attn's CrossEntropyLoss (flash_attn/losses/cross_entropy.py; llm-foundry's default loss_fn
        # "fused_crossentropy", llmfoundry/models/mpt/modeling_mpt.py): one kernel reads the logits in their own
        # dtype and keeps them with one fp32 log-sum-exp per token; backward writes the logits' gradient in the
        # same dtype (a new tensor: inplace_backward is off by default).
        return LossMemory(compute * tv + 8 * tokens, 2 * compute * tv + 4 * tokens,
                          "logits kept (compute bytes) + fp32 loss and log-sum-exp per token; backward: + the "
                          "logits' gradient (compute bytes)", 1, saved=compute * tv + 4 * tokens)
    if b.cross_entropy in ("te", "te-inplace"):
        return _te_loss(b.cross_entropy == "te-inplace", tv, tokens, compute)
    if b.cross_entropy == "megatron-fused":
        return _megatron_fused_loss(tv, compute)
    if b.cross_entropy == "chunked":
        return _chunked_loss(b, tokens, tv, vocab, hidden, compute, tp, head_trains, weight_bytes, compiled)
    return _fused_linear_loss(tokens, vocab, hidden, compute, tp, head_trains, weight_bytes)


def _chunked_loss(b: Behaviour, tokens: float, tv: float, vocab: float, hidden: int, compute: int, tp: int,
                  head_trains: bool, weight_bytes: int, compiled: bool) -> LossMemory:
    """A loss over chunks of the logits (torchtune's CEWithChunkedOutputLoss, litgpt's chunked_cross_entropy), compiled
    or eager."""
    if b.loss_chunk_tokens:
        chunks = max(1, math.ceil(tokens / b.loss_chunk_tokens))
    else:
        chunks = max(1, b.loss_chunks)
    chunk = tv / chunks
    if compiled:
        # torchtune compiles compute_cross_entropy: the fused kernel keeps each chunk's logits and one
        # log-sum-exp per token, and in backward writes one chunk's gradient in the logits' dtype.
        return LossMemory(compute * tv, compute * tv + (4 + compute) * chunk,
                          "logits chunks kept by the compiled loss; backward: + one chunk's gradient", chunks,
                          saved=compute * tv + 4 * tokens)
    # Fabric casts the model's outputs to fp32 (convert_output): the chunks then arrive, and are log-softmaxed,
    # in fp32 without any upcast of the loss's own.
    out_bytes = 4 if b.outputs_fp32 else compute
    fp32_math = b.loss_upcast or out_bytes == 4
    saved = 4 * tv if fp32_math else compute * tv  # log-softmax output of every chunk, kept for backward
    # torchtune CEWithChunkedOutputLoss: the model returns the logits as a list of chunks (all alive), each
    # chunk is upcast and log-softmaxed on its own (ce_chunked_output_loss.py); litgpt chunked_cross_entropy
    # does the same per 128 tokens without an upcast of its own. torchtune drops the logits before backward.
    upcast = 4 * chunk if b.loss_upcast and out_bytes != 4 else 0.0
    per_chunk_grads = (8 if fp32_math else 2 * compute) * chunk + compute * chunk
    # the first chunk's backward already creates the head's weight gradient, alive through the other chunks
    head_grad = weight_bytes * vocab * hidden / tp if head_trains else 0.0
    return LossMemory(out_bytes * tv + saved + upcast, saved + per_chunk_grads + head_grad,
                      "logits chunks (compute bytes) + saved log-softmax of every chunk + one chunk's upcast; "
                      "backward: saved log-softmax + one chunk's gradients (+ the head's weight gradient)",
                      chunks, saved=saved)


def _fused_linear_loss(tokens: float, vocab: float, hidden: int, compute: int, tp: int, head_trains: bool,
                       weight_bytes: int) -> LossMemory:
    """A loss fused with the head's matmul, chunk by chunk (Liger's fused linear cross-entropy and its kin)."""
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
                      math.ceil(bt / chunk_tokens), saved=grad_input + grad_weight)


def _te_loss(inplace: bool, tv: float, tokens: float, compute: int) -> LossMemory:
    """Transformer Engine's parallel cross-entropy (Megatron's cross_entropy_fusion_impl "te"), as released from
    v2.18 (`te`) or before it (`te-inplace`)."""
    if not inplace:
        # Transformer Engine's parallel_cross_entropy (transformer_engine/pytorch/cross_entropy.py at d0067d0,
        # Megatron's cross_entropy_fusion_impl "te"): the triton forward reads the logits in their own dtype and
        # writes the loss and the logits' gradient, an fp32 b·s·V tensor (torch.empty_like(_input,
        # dtype=torch.float32)) saved for backward; the logits themselves are then free. Backward scales that
        # gradient in place and the output layer takes it in the compute dtype.
        return LossMemory((compute + 4) * tv + 16 * tokens, (4 + compute) * tv,
                          "logits (compute bytes) + their fp32 gradient written in forward; backward: the fp32 "
                          "gradient + its cast for the output layer", 1, saved=4 * tv)
    # The same kernel before Transformer Engine v2.18 (NVIDIA/TransformerEngine v2.2 to v2.17,
    # transformer_engine/pytorch/triton/cross_entropy.py: cross_entropy_forward "return loss, _input" after the
    # kernel stores the gradient into X_ptr, the logits; cross_entropy_backward scales it in place and returns it;
    # v2.18's 01bbe3ee "Fix the numerical issue with the Fused CE loss" brought the fp32 grad_input): the logits
    # become their own gradient, with an fp32 loss and three fp32 statistics per token
    return LossMemory(compute * tv + 16 * tokens, compute * tv,
                      "logits (compute bytes), their gradient written over them in forward; backward: that "
                      "tensor, scaled in place, is the output layer's gradient", 1, saved=compute * tv)


def _standard_loss(b: Behaviour, tokens: float, tv: float, compute: int, tp: int, compiled: bool) -> LossMemory:
    """standard (transformers ForCausalLMLoss, torchtitan, plain PyTorch): the logits in the compute dtype, their
    fp32 upcast and the fp32 log-softmax output (saved for backward) are alive together; backward holds the saved
    log-softmax output, the nll gradient and the log-softmax gradient (3 fp32 b·s·V tensors)."""
    if compiled:
        # Inductor fuses upcast, log-softmax and nll into one kernel that keeps the logits and one log-sum-exp per
        # token. The compiled function takes the logits in the compute dtype and upcasts inside it (torchtitan
        # torchtitan/components/loss.py cross_entropy_loss: F.cross_entropy(pred.float(), ...), compiled on its
        # own), so its backward returns the gradient in the compute dtype, and no fp32 b·s·V tensor is written:
        # nll_loss_backward's zeros + scatter of -1 at the labels is lowered to a pointwise `where` by Inductor's
        # scatter_upon_const_tensor pattern (pytorch/pytorch torch/_inductor/fx_passes/post_grad.py, on by default:
        # config.optimize_scatter_upon_const_tensor; joint_graph.py in later releases), and it, the log-softmax
        # backward and the cast fuse into the kernel that writes the compute-dtype gradient (one reduction over
        # the vocabulary per token before it). test/inductor/test_scatter_optimization.py test_cross_entropy_loss
        # (at 0046785, A100, bf16 logits of 32 x 1024 x 50,257 = 3.29 GB): peak 10.524 GB without the pattern,
        # 7.227 GB with it, about the logits and one gradient of their size.
        # Where the model casts its logits to fp32 before the loss (torchtune's unchunked output, Fabric), the
        # compiled loss takes and keeps fp32 logits and returns an fp32 gradient, cast back by the eager .float().
        if b.outputs_fp32 and compute != 4:
            return LossMemory((compute + 4) * tv, 8 * tv,
                              "compiled, fp32 logits from the model: the logits and their fp32 copy at the cast; "
                              "backward: the kept fp32 logits + their fp32 gradient", 1, saved=4 * tv + 4 * tokens)
        return LossMemory(compute * tv, 2 * compute * tv,
                          "compiled: logits kept (compute bytes); backward: + their gradient (compute bytes), "
                          "written by one fused kernel", 1, saved=compute * tv + 4 * tokens)
    upcast = 4 * tv if compute != 4 else 0.0
    if b.loss_in_place:
        # Megatron's _VocabParallelCrossEntropy (megatron/core/tensor_parallel/cross_entropy.py at d98e8a6): the
        # logits (compute dtype) and one fp32 copy, on which max-subtraction, exp and the division by the sum
        # run in place; it saves that fp32 softmax and frees the logits. Backward writes the gradient into the
        # saved softmax in place and casts it for the output layer.
        return LossMemory(compute * tv + upcast, (4 + compute) * tv,
                          "b·s·V/tp x (compute bytes + one fp32 copy, softmax in place); backward: the fp32 "
                          "gradient written over it + its cast for the output layer", 1, saved=max(4, compute) * tv)
    # PyTorch's loss_parallel log-softmax (vocabulary split over tp) is decomposed (max, shift, exp, sum): the
    # shifted logits and their exponential are both fp32 b·s·V/tp tensors alive next to the upcast (traced).
    decomposed = 4 * tv if tp > 1 else 0.0
    return LossMemory(compute * tv + upcast + 4 * tv + decomposed, 12 * tv,
                      "b·s·V x (compute bytes + 4 upcast + 4 log-softmax); backward: 3 fp32 b·s·V tensors", 1,
                      saved=4 * tv)


def _megatron_fused_loss(tv: float, compute: int) -> LossMemory:
    """Megatron's cross_entropy_loss_fusion with cross_entropy_fusion_impl "native" (ms-swift's Megatron default):
    megatron/core/fusions/fused_cross_entropy.py (core_v0.13.0 and core_v0.18.0 alike) runs the in-place steps of
    _VocabParallelCrossEntropy through jit_fuser, which is torch.compile from torch 2.2 (megatron/core/jit.py). The
    forward is the in-place path's: the logits and one fp32 copy (calculate_logits_max), the shift, exp and division
    written back into that copy. Its backward, calculate_gradients, subtracts 1 at each label through an index_put on
    the saved softmax and returns grad_input.to(torch.bfloat16): Inductor functionalises the index_put onto a fresh
    fp32 clone of the softmax before writing the product back into it and into the bf16 output (torch 2.13.0: the
    post-grad graph keeps aten.index_put.default, not index_put_, and the generated code allocates buf0 =
    empty_strided((tokens, V/tp), float32) beside the bf16 buf2), so the saved softmax, the clone and the bf16
    gradient are alive together: 4 + 4 + 2 bytes per logit."""
    upcast = 4 * tv if compute != 4 else 0.0  # .float() of fp32 logits is the same tensor
    return LossMemory(compute * tv + upcast, 10 * tv,
                      "b·s·V/tp x (compute bytes + one fp32 copy, softmax in place); compiled backward: the saved "
                      "fp32 softmax + Inductor's fp32 clone for the index_put + the bf16 gradient (10 bytes)", 1,
                      saved=4 * tv)
