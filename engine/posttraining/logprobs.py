"""Memory of one scoring forward (no gradients): the hidden states of one layer at a time, and the per-token log-probs
of the completion from the full-vocabulary logits, as each framework computes them."""

from __future__ import annotations

from ..memory.breakdown import Component, Moments
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec

LOGPROB_FORMULAS = {
    # transformers returns the logits in the compute dtype; the log-softmax of the whole b·s·V is taken in fp32
    # (an upcast and its log-softmax output, NeMo-RL with logprob_chunk_size null)
    "standard": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the head, "
                                  "logits b·s·V x compute bytes + fp32 upcast + fp32 log-softmax"),
    # TRL selective_log_softmax: bf16 logits log-softmaxed one sequence at a time in a Python loop; the previous
    # row's output stays bound to the loop variable while the next is computed (two rows at once)
    "rows": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the head, logits "
                              "b·s·V x compute bytes + two sequences' log-softmax"),
    # flash-attn cross_entropy_loss (verl, OpenRLHF): one kernel over the logits keeping a log-sum-exp per token
    "fused": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the head, "
                               "logits b·s·V x compute bytes + fp32 loss and log-sum-exp per token"),
    # OpenRLHF (models/actor.py): the model's logits cast to fp32 (both alive at the cast), then flash-attn's kernel
    "fused-fp32": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the head, "
                                    "logits b·s·V x compute bytes + their fp32 copy + fp32 log-sum-exp per token"),
    # Unsloth / Liger: the lm_head and the log-softmax run chunk by chunk, the logits are never whole
    "fused-linear": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the "
                                      "head, one chunk of logits, about b·s·h x compute bytes"),
    # Megatron's vocab-parallel cross-entropy as the model's own loss (ms-swift's `megatron rlhf`): one fp32 copy of
    # the logits, max-subtraction and exp in place (megatron/core/tensor_parallel/cross_entropy.py)
    "model-loss": QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at the head, "
                                    "logits b·s·V/tp x compute bytes + their fp32 copy (the model's own loss, "
                                    "worked in place)"),
}

SCORE_HEAD_FORMULA = QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and one fp32 "
                                       "score per token")
# TRL's fused log-prob head (trl 1.16.0 kernels/chunked_logprob.py): the projection goes tile by tile into one
# min(tokens, 4096) x 32768 buffer in the compute dtype; seven fp32 running statistics per token
FUSED_HEAD_FORMULA = QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors and, at "
                                       "the head, the fused head's projection buffer min(tokens, token tile) x "
                                       "vocabulary chunk x compute bytes + 7 fp32 statistics per token")
# what a framework's scoring pass adds beyond its loss path (listed in the inputs): verl's old-policy entropy over
# the vocabulary, verl's copy of the response logits before flash-attn's cross-entropy, autocast's weight cache
SCORING_EXTRAS_FORMULA = QT_TRANSLATE_NOOP("engine", "the larger of one layer's forward tensors (+ LoRA's "
                                           "fp32 adapter outputs) and the head's (the log-prob path's tensors, or the "
                                           "logits + the entropy's softmax and product, 2 x b·c·V x compute bytes, or "
                                           "the response logits' copy, b·c·V x compute bytes) + autocast's bf16 "
                                           "weight cache")
STATS_PER_TOKEN = 7  # running max, sum_exp, x_sum_exp, sq_sum_exp, z_sum, max_before_target, target_logit


def fused_head_buffer_bytes(tile: tuple[int, int], tokens: int, compute: int) -> float:
    """TRL's fused head: its projection buffer min(tokens, token tile) x vocabulary chunk (chunked_logprob.py mm_buf)."""
    return min(tokens, tile[0]) * tile[1] * compute


def logprob_bytes(path: str, sequences: int, logits_tokens: int, vocab: int, hidden: int, compute: int,
                  tp: int, head_tile: tuple[int, int] = (0, 0)) -> float:
    """Bytes of the logits and the log-prob computation of `sequences` sequences at once."""
    tokens = sequences * logits_tokens
    if path == "fused-linear" and head_tile[0]:
        return fused_head_buffer_bytes(head_tile, tokens, compute) + 4.0 * STATS_PER_TOKEN * tokens
    tv = tokens * vocab / tp
    if path == "standard":
        return (compute + 4 + 4) * tv
    if path == "rows":  # the previous row's output is still bound to row_logps while the next one is computed
        return compute * tv + compute * tv * min(2, sequences) / max(sequences, 1)
    if path == "fused":
        return compute * tv + 8 * tokens
    if path == "fused-fp32":
        return (compute + 4) * tv + 8 * tokens
    if path == "model-loss":
        return (compute + 4) * tv
    return compute * tokens * hidden


def forward_activation_bytes(spec: ModelSpec, tokens: float, compute: int, tp: int) -> float:
    """One layer's transient tensors in a forward without gradients: the hidden states, the attention projections
    and the MLP's gate, up and activation outputs (nothing is kept between layers under no_grad)."""
    ffn = max(spec.ffn, spec.expert_ffn * max(spec.top_k, 1) if spec.is_moe else 0) / tp
    attention = (spec.q_dim + 2 * spec.kv_dim) / tp
    return tokens * (3 * spec.hidden + max(attention, 3 * ffn)) * compute


LAYER_MOMENT = ("lora_fp32_bytes",)  # extras alive inside a decoder layer
# extras alive through the whole forward (autocast's weight cache; FSDP's gathered root and current layer)
WHOLE_FORWARD = ("autocast_cache_bytes", "offloaded_units_bytes", "gathered_units_bytes")


def scoring_forward(key: str, name: str, spec: ModelSpec, sequences: int, sequence_tokens: int, logits_tokens: int,
                    path: str, compute: int, tp: int, vocab_head: bool, head_tile: tuple[int, int] = (0, 0),
                    extras: tuple[tuple[str, float], ...] = (), logit_bytes: int = 0) -> Component:
    """The transient of one scoring forward of `spec` over `sequences` sequences: a reward or value model ends in a
    one-number head (no vocabulary logits). Under no_grad nothing is kept between layers, so the pass peaks either
    inside a decoder layer or at the head (the last hidden states and the log-prob path's tensors). `extras`:
    (name, bytes) the framework's pass adds: inside a layer (LAYER_MOMENT), through the whole forward
    (WHOLE_FORWARD), else at the head. `logit_bytes` above `compute`: the model's outputs cast to fp32 before the
    row path (accelerate's convert_outputs_to_fp32), see fp32_cast_extras."""
    tokens = sequences * sequence_tokens
    activations = forward_activation_bytes(spec, tokens, compute, tp)
    logits = logprob_bytes(path, sequences, logits_tokens, spec.vocab, spec.hidden, compute, tp, head_tile) \
        if vocab_head else 4.0 * tokens
    cast = vocab_head and path == "rows" and logit_bytes > compute
    if cast:
        logits, cast_extras = fp32_cast_logits(sequences, logits_tokens, spec.vocab, compute, logit_bytes, tp)
        extras = extras + cast_extras
    formula = LOGPROB_FORMULAS[path] if vocab_head else SCORE_HEAD_FORMULA
    if vocab_head and path == "fused-linear" and head_tile[0]:
        formula = FUSED_HEAD_FORMULA
    extra = tuple((k, round(v)) for k, v in extras if v)
    if extra:
        formula = SCORING_EXTRAS_FORMULA
    layer = activations + sum(v for k, v in extra if k in LAYER_MOMENT)
    # the head's extras (entropy, a copy of the logits) come after the log-prob path's own temporaries are freed:
    # beside the logits tensor, not beside those temporaries
    at_head = sum(v for k, v in extra if k not in LAYER_MOMENT + WHOLE_FORWARD)
    kept = (4 if path == "fused-fp32" or cast else compute) * sequences * logits_tokens * spec.vocab / tp \
        if vocab_head and path != "fused-linear" else 0.0
    head = tokens * spec.hidden * compute / tp + max(logits, kept + at_head)
    value = max(layer, head) + sum(v for k, v in extra if k in WHOLE_FORWARD)
    return Component(key, name, "transient", Moments.whole_step(value), formula,
                     (("sequences", sequences), ("sequence_tokens", sequence_tokens), ("logits_tokens", logits_tokens),
                      ("logprob_path", path if vocab_head else "score head"), ("activation_bytes", round(activations)),
                      ("logits_bytes", round(logits)), ("peak_at", "layer" if layer >= head else "head")) + extra)


def fp32_cast_logits(sequences: int, logits_tokens: int, vocab: int, compute: int, logit_bytes: int,
                     tp: int) -> tuple[float, tuple[tuple[str, float], ...]]:
    """A no-grad pass whose logits reach the row path cast to fp32: accelerate's native amp wraps the model's forward
    in convert_outputs_to_fp32 (src/accelerate/utils/operations.py convert_to_fp32: tensor.float()), so the
    compute-dtype output and its fp32 copy are alive together at the cast (the extra, at the head); TRL's
    selective_log_softmax then takes its fp32 branch (trl/trainer/utils.py: gather, then logsumexp one sequence at a
    time), holding the fp32 logits and one sequence's temporary. Returns (log-prob path bytes, extras)."""
    tv = sequences * logits_tokens * vocab / tp
    return logit_bytes * tv * (1 + 1 / max(sequences, 1)), (("fp32_cast_bytes", compute * tv),)


ROWS_TRAINING_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "row-by-row log-softmax in training (TRL selective_log_softmax, verl logprobs_from_logits_v2): logits "
    "b·k·V (compute bytes) + every scored row's log-softmax output kept for backward; backward: 2 x b·k·V (the rows' "
    "gradients gathered into the logits' gradient); logits scaled in place on a view (TRL GRPO): + the entropy's "
    "copy of the view in forward, 4 x b·k·V in backward (CopySlices: the base's gradient, its clone, the slice's "
    "clone and quotient)")
FUSED_HEAD_TRAINING_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "TRL's fused log-prob head: forward, its projection buffer + 7 fp32 statistics per token; backward, the "
    "buffer + the hidden states' gradient in fp32 and cast (tokens x h x (4 + compute bytes)) + the lm_head weight's "
    "gradient in fp32 and cast (V x h x (4 + compute bytes), when the head trains)")
ROWS_FP32_TRAINING_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "TRL selective_log_softmax on fp32 logits (log-sum-exp per sequence): forward, logits b·k·V x 4 + one "
    "sequence's temporary; backward, four logits-sized fp32 tensors: the logits (saved by gather and logsumexp), "
    "gather's zero-filled gradient, the sequences' gradients and their stack")
FUSED_FP32_TRAINING_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "logits b·s·V cast to fp32 before flash-attn's cross-entropy: forward, the logits (compute bytes) + "
    "their fp32 copy; backward, the fp32 copy (held by the model's output) + its fp32 gradient + that gradient cast "
    "back (compute bytes)")
COPY_SLICES_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "the loss path's logits tensors (with verl's entropy bonus: + the compiled entropy's fp32 buffer in "
    "forward), the logits divided by the temperature in place on a view of the model's output (verl's padding-free "
    "path): backward runs CopySlices over the whole logits, 4 x b·s·V x compute bytes (the incoming gradient, its "
    "copy in the output's shape, the slice's clone and the division's gradient)")
KEPT_TOKENS_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "the loss path's logits tensors for the completion tokens only (logits_to_keep): the estimator's "
    "b·s·V terms x completion / (prompt + completion)")


def training_logits(c: Component, path: str, sequences: int, logits_tokens: int, sequence_tokens: int, vocab: int,
                    compute: int, tp: int, scored_tokens: int = 0, scaled_on_view: bool = False) -> Component:
    """The training step's logits component as a post-training loss computes it. TRL keeps logits only for the
    completion (grpo_trainer.py logits_to_keep) and log-softmaxes bf16 logits one sequence at a time
    (utils.py selective_log_softmax): log_softmax saves its output per row, and the rows' gradients gather into one
    logits-sized gradient in backward. `scored_tokens`: the positions log-softmaxed (verl slices the response's).
    `scaled_on_view`: TRL's GRPO divides a view of the logits by the temperature in place (logits.div_ after two
    slices), so the base's grad_fn becomes CopySlices, whose backward (torch/csrc/autograd/functions/tensor.cpp
    CopySlices::apply) clones the base-sized gradient and the slice while the incoming gradient is alive; its
    no-grad entropy_from_logits reshapes the non-contiguous view into a copy. Other paths keep the estimator's
    tensors, scaled to the tokens with logits."""
    tv = sequences * logits_tokens * vocab / tp
    if path == "rows" and compute >= 4:
        return rows_fp32_training(c, sequences, logits_tokens, vocab, compute * tv)
    if path == "fused-fp32":
        return fused_fp32_training(c, sequences, logits_tokens, vocab, compute, tv)
    if path == "rows":
        rows = compute * sequences * (scored_tokens or logits_tokens) * vocab / tp
        forward = compute * tv + rows + (rows if scaled_on_view else 0.0)
        backward = (4 if scaled_on_view else 2) * compute * tv
        return Component(c.key, c.name, c.category, Moments(forward, backward, 0.0, 0.0), ROWS_TRAINING_FORMULA,
                         (("sequences", sequences), ("logits_tokens", logits_tokens), ("vocab", vocab),
                          ("scored_tokens", scored_tokens or logits_tokens), ("scaled_on_view", scaled_on_view),
                          ("bsv_bytes", compute * tv)))
    if logits_tokens >= sequence_tokens:
        return c
    share = logits_tokens / sequence_tokens
    inputs = tuple((k, v * share if k == "bsv_bytes" and isinstance(v, int | float) else v) for k, v in c.inputs)
    return Component(c.key, c.name, c.category, c.moments.scaled(share), KEPT_TOKENS_FORMULA,
                     inputs + (("logits_tokens", logits_tokens), ("sequence_tokens", sequence_tokens)))


def rows_fp32_training(c: Component, sequences: int, logits_tokens: int, vocab: int, bsv_bytes: float) -> Component:
    """TRL's selective_log_softmax on fp32 logits (trl utils.py, v0.16.0 23a635ed to f2cd5771): gather picks the
    label's logit and logsumexp runs one sequence at a time. Both save the logits (gather_backward and logsumexp's
    backward take self: checked with saved_tensors_hooks), so nothing logits-sized is kept beyond them in forward
    (ATen's logsumexp holds one row's x - max, exponentiated in place). In backward the logits stay alive beside
    gather's zero-filled gradient, the rows' gradients and unbind's stack of them: four logits-sized fp32 tensors.
    Traced on CPU with validation/tracker.py (torch 2.13, 8 sequences of 64 tokens, V 20,000): forward 1.0, backward
    4.0 x the logits' bytes (bf16 branch: 2.0 and 2.0, as ROWS_TRAINING_FORMULA)."""
    row = bsv_bytes / max(sequences, 1)
    return Component(c.key, c.name, c.category, Moments(bsv_bytes + row, 4 * bsv_bytes, 0.0, 0.0),
                     ROWS_FP32_TRAINING_FORMULA, (("sequences", sequences), ("logits_tokens", logits_tokens),
                                                  ("vocab", vocab), ("bsv_bytes", bsv_bytes)))


def fused_fp32_training(c: Component, sequences: int, logits_tokens: int, vocab: int, compute: int,
                        tv: float) -> Component:
    """OpenRLHF's Actor.forward casts the whole logits to fp32 (openrlhf/models/actor.py, PR #634) and
    log_probs_from_logits takes its fp32 branch, flash-attn's cross_entropy_loss with inplace_backward off
    (models/utils.py). At the cast the compute-dtype logits and their fp32 copy are alive together (the copy then
    replaces them in the model's output). The actor's training step keeps that output (for its aux and entropy
    losses: trainer/ray/ppo_actor.py, `action_log_probs, output = self.actor(..., return_output=True)` before
    strategy.backward), so the fp32 copy lives through backward beside the kernel's fp32 gradient and, on the way
    back to the lm_head, that gradient's cast to the compute dtype: (8 + compute) bytes per logit at the default
    temperature 1.0. Traced on CPU with validation/tracker.py (the kernel's allocations emulated: dlogits =
    torch.empty_like(logits)): 10.0 bytes per logit at 3c3be62, temperature 1.0; 12.0 at temperature 0.7 (the in-place
    division's gradient); v0.6.2, which slices logits[:, :-1, :] before the division, 12.0 and 20.0 (no temperature
    key: the default is modelled)."""
    tokens = sequences * logits_tokens
    forward = (compute + 4) * tv + 8 * tokens
    backward = (8 + compute) * tv + 4 * tokens
    return Component(c.key, c.name, c.category, Moments(forward, backward, 0.0, 0.0), FUSED_FP32_TRAINING_FORMULA,
                     (("sequences", sequences), ("logits_tokens", logits_tokens), ("vocab", vocab),
                      ("bsv_bytes", compute * tv), ("fp32_logits_bytes", 4 * tv)))


def fused_head_training(c: Component, tile: tuple[int, int], tokens: int, vocab: int, hidden: int, compute: int,
                        tp: int, head_trains: bool, later: float = 0.0) -> Component:
    """The training step's logits component for TRL's fused log-prob head (trl 1.16.0 kernels/chunked_logprob.py
    _ChunkedLogProbFunction): backward allocates grad_hidden and grad_weight with torch.zeros(dtype=float32) and a
    second projection buffer, and returns both gradients cast to the weights' dtype (.to(weight.dtype)) while the
    fp32 accumulators are still alive. `later`: what the step holds at backward start only after the head's backward
    (the first layer's recompute under checkpointing): the larger of the two counts."""
    buffer = fused_head_buffer_bytes(tile, tokens, compute)
    forward = buffer + 4.0 * STATS_PER_TOKEN * tokens
    weight_grad = (4 + compute) * vocab * hidden / tp if head_trains else 0.0
    backward = buffer + (4 + compute) * tokens * hidden + weight_grad
    beyond = max(0.0, backward - later)
    return Component(c.key, c.name, c.category, Moments(forward, beyond, 0.0, 0.0), FUSED_HEAD_TRAINING_FORMULA,
                     (("tokens", tokens), ("token_tile", tile[0]), ("vocab_chunk", tile[1]), ("vocab", vocab),
                      ("buffer_bytes", round(buffer)), ("weight_grad_bytes", round(weight_grad)),
                      ("head_backward_bytes", round(backward)), ("overlapped_by_recompute_bytes", round(later))))


def with_copy_slices(c: Component, tokens: int, vocab: int, compute: int, tp: int, later: float = 0.0) -> Component:
    """The update's logits component `c` when the logits are divided in place on a view of the model's output (verl's
    padding-free path: logits_rmpad = output.logits.squeeze(0); logits_rmpad.div_(temperature)). Autograd then gives
    the output CopySlices as its grad_fn (torch/csrc/autograd/functions/tensor.cpp CopySlices::apply): once the loss
    path's backward nodes have run and freed the saved logits, it holds the incoming gradient, `result` (a copy in the
    output's shape), grad_slice.clone() and the division's gradient: four logits-sized tensors in the compute dtype,
    more than the loss path's own backward (the logits and two gradients with the entropy bonus). Traced on CPU
    (torch 2.13, N 512, V 8192; validation/verl_copy_slices.py): 4.0 x the bf16 logits with and without the entropy
    bonus, against 3.0 and 2.0 when the output itself is divided (verl's padded path).

    `later`: what the step's other components hold at backward start only after CopySlices has returned. FSDP's
    pre-backward hook sits on the model's output (torch/distributed/fsdp/_runtime_utils.py
    _register_pre_backward_hooks), so the gradient it receives is CopySlices' `result`, and the layer it prefetches
    (BACKWARD_PRE) is gathered then; the lm_head's backward follows, and only then the last checkpointed layer is
    recomputed and its backward scratch allocated. The four tensors are counted beyond those (as the fused head's
    backward is)."""
    held = 4.0 * compute * tokens * vocab / tp
    beyond = max(0.0, held - later)
    if c.moments.backward_start >= beyond:
        return c
    moments = Moments(c.moments.forward, beyond, c.moments.backward_end, c.moments.optimizer)
    return Component(c.key, c.name, c.category, moments, COPY_SLICES_FORMULA,
                     c.inputs + (("copy_slices_tokens", tokens), ("copy_slices_bytes", round(held)),
                                 ("after_copy_slices_bytes", round(later))))


CHOSEN_NLL_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "the loss path's logits tensors + the chosen sequences' NLL term (rpo_alpha / cpo_alpha above 0): "
    "forward, the chosen half's log-softmax kept for backward (b/2·k·V x the logits' bytes); backward, the slice's "
    "zero-filled gradient of the whole logits (b·k·V x the logits' bytes) beside the loss path's own")


def with_chosen_nll(c: Component, chosen_sequences: int, logits_tokens: int, vocab: int, logit_bytes: int,
                    tp: int) -> Component:
    """The training step's logits component `c` when the loss adds the chosen sequences' NLL (RPO's rpo_alpha in
    TRL's DPOTrainer, CPO/SimPO's cpo_alpha in TRL's CPOTrainer, ms-swift's DPOTrainer.get_nll_loss). The term is a
    cross-entropy over a slice of the same logits: TRL v0.17.0 trl/trainer/dpo_trainer.py:1244-1252
    (F.cross_entropy(torch.flatten(logits[:num_examples], end_dim=1), ...)), TRL v0.11.4 trl/trainer/cpo_trainer.py
    concatenated_forward (cross_entropy_loss(all_logits[:len_chosen], ...), run unless cpo_alpha == 0), ms-swift
    40c8406fb swift/trainers/rlhf_trainer/dpo_trainer.py get_nll_loss (logits[..., :-1, :].contiguous(), then
    nn.CrossEntropyLoss). cross_entropy is log_softmax + nll_loss: LogSoftmaxBackward saves its output, the chosen
    half's log-probabilities over the vocabulary in the logits' dtype, kept until backward (ms-swift's contiguous
    copy is the log_softmax's input, freed when get_nll_loss returns; nll_loss keeps only the targets). In backward
    the slice's gradient reaches the logits through SliceBackward, which allocates a zero-filled tensor of the whole
    logits' shape (torch 2.13 torch/_decomp/decompositions.py slice_backward: grad_output.new_zeros(input_sizes),
    then slice_scatter) that waits beside the loss path's own gradients until they are summed: one more
    logits-sized tensor. Traced on CPU (validation/rpo_nll_trace.py, torch 2.13)."""
    chosen = logit_bytes * chosen_sequences * logits_tokens * vocab / tp
    whole = 2 * chosen
    moments = Moments(c.moments.forward + chosen, c.moments.backward_start + whole, c.moments.backward_end,
                      c.moments.optimizer)
    return Component(c.key, c.name, c.category, moments, CHOSEN_NLL_FORMULA,
                     c.inputs + (("chosen_sequences", chosen_sequences), ("chosen_log_softmax_bytes", round(chosen)),
                                 ("slice_gradient_bytes", round(whole))))
