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
