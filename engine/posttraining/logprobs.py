"""Memory of one scoring forward (no gradients): the hidden states of one layer at a time, and the per-token log-probs
of the completion from the full-vocabulary logits, as each framework computes them."""

from __future__ import annotations

from ..memory.breakdown import Component, Moments
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec

LOGPROB_FORMULAS = {
    # transformers returns the logits in the compute dtype; the log-softmax of the whole b·s·V is taken in fp32
    # (an upcast and its log-softmax output, NeMo-RL with logprob_chunk_size null)
    "standard": QT_TRANSLATE_NOOP("engine", "one layer's forward tensors + logits b·s·V x compute bytes + fp32 upcast + "
                                  "fp32 log-softmax"),
    # TRL selective_log_softmax: bf16 logits log-softmaxed one sequence at a time, each row freed after its gather
    "rows": QT_TRANSLATE_NOOP("engine", "one layer's forward tensors + logits b·s·V x compute bytes + one sequence's "
                              "log-softmax"),
    # flash-attn cross_entropy_loss (verl, OpenRLHF): one kernel over the logits keeping a log-sum-exp per token
    "fused": QT_TRANSLATE_NOOP("engine", "one layer's forward tensors + logits b·s·V x compute bytes + fp32 loss and "
                               "log-sum-exp per token"),
    # Unsloth / Liger: the lm_head and the log-softmax run chunk by chunk, the logits are never whole
    "fused-linear": QT_TRANSLATE_NOOP("engine", "one layer's forward tensors + one chunk of logits, about b·s·h x compute "
                                      "bytes"),
}

SCORE_HEAD_FORMULA = QT_TRANSLATE_NOOP("engine", "one layer's forward tensors + one fp32 score per token")


def logprob_bytes(path: str, sequences: int, logits_tokens: int, vocab: int, hidden: int, compute: int,
                  tp: int) -> float:
    """Bytes of the logits and the log-prob computation of `sequences` sequences at once."""
    tokens = sequences * logits_tokens
    tv = tokens * vocab / tp
    if path == "standard":
        return (compute + 4 + 4) * tv
    if path == "rows":
        return compute * tv + compute * tv / max(sequences, 1)
    if path == "fused":
        return compute * tv + 8 * tokens
    return compute * tokens * hidden


def forward_activation_bytes(spec: ModelSpec, tokens: float, compute: int, tp: int) -> float:
    """One layer's transient tensors in a forward without gradients: the hidden states, the attention projections
    and the MLP's gate, up and activation outputs (nothing is kept between layers under no_grad)."""
    ffn = max(spec.ffn, spec.expert_ffn * max(spec.top_k, 1) if spec.is_moe else 0) / tp
    attention = (spec.q_dim + 2 * spec.kv_dim) / tp
    return tokens * (3 * spec.hidden + max(attention, 3 * ffn)) * compute


def scoring_forward(key: str, name: str, spec: ModelSpec, sequences: int, sequence_tokens: int, logits_tokens: int,
                    path: str, compute: int, tp: int, vocab_head: bool) -> Component:
    """The transient of one scoring forward of `spec` over `sequences` sequences: a reward or value model ends in a
    one-number head (no vocabulary logits)."""
    activations = forward_activation_bytes(spec, sequences * sequence_tokens, compute, tp)
    logits = logprob_bytes(path, sequences, logits_tokens, spec.vocab, spec.hidden, compute, tp) if vocab_head \
        else 4.0 * sequences * sequence_tokens
    formula = LOGPROB_FORMULAS[path] if vocab_head else SCORE_HEAD_FORMULA
    return Component(key, name, "transient", Moments.whole_step(activations + logits),
                     formula,
                     (("sequences", sequences), ("sequence_tokens", sequence_tokens), ("logits_tokens", logits_tokens),
                      ("logprob_path", path if vocab_head else "score head"), ("activation_bytes", round(activations)),
                      ("logits_bytes", round(logits))))


ROWS_TRAINING_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "TRL selective_log_softmax in training: logits b·k·V (compute bytes) + every sequence's log-softmax "
    "output kept for backward (compute bytes); backward: those outputs + the logits' gradient")
KEPT_TOKENS_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "the loss path's logits tensors for the completion tokens only (logits_to_keep): the estimator's "
    "b·s·V terms x completion / (prompt + completion)")


def training_logits(c: Component, path: str, sequences: int, logits_tokens: int, sequence_tokens: int, vocab: int,
                    compute: int, tp: int) -> Component:
    """The training step's logits component as a post-training loss computes it. TRL keeps logits only for the
    completion (grpo_trainer.py logits_to_keep) and log-softmaxes bf16 logits one sequence at a time
    (utils.py selective_log_softmax): log_softmax saves its output per row, and the rows' gradients gather into one
    logits-sized gradient in backward. Other paths keep the estimator's tensors, scaled to the tokens with logits."""
    tv = sequences * logits_tokens * vocab / tp
    if path == "rows":
        value = 2 * compute * tv
        return Component(c.key, c.name, c.category, Moments(value, value, 0.0, 0.0), ROWS_TRAINING_FORMULA,
                         (("sequences", sequences), ("logits_tokens", logits_tokens), ("vocab", vocab),
                          ("bsv_bytes", compute * tv)))
    if logits_tokens >= sequence_tokens:
        return c
    share = logits_tokens / sequence_tokens
    inputs = tuple((k, v * share if k == "bsv_bytes" and isinstance(v, int | float) else v) for k, v in c.inputs)
    return Component(c.key, c.name, c.category, c.moments.scaled(share), KEPT_TOKENS_FORMULA,
                     inputs + (("logits_tokens", logits_tokens), ("sequence_tokens", sequence_tokens)))
