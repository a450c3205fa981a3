"""Mechanisms modelled for rows of the published post-training set (tests/data/published/posttraining.json), each
against its source's arithmetic: what the framework's code allocates, not a figure fitted to the row."""

from engine.memory.breakdown import Component, Moments
from engine.posttraining.logprobs import training_logits

QWEN05_VOCAB = 151936  # Qwen2.5-0.5B config.json vocab_size


def _logits_component() -> Component:
    return Component("logits", "Logits and cross-entropy", "transient", Moments.whole_step(1.0), "estimator's")


def test_trl_fp32_log_softmax_backward_holds_three_logits_tensors():
    """trl utils.py selective_log_softmax (v0.16.0 23a635ed, unchanged at f2cd5771): fp32 logits take the
    log-sum-exp branch, `torch.gather(logits, ...)` and `torch.stack([torch.logsumexp(lg, -1) for lg in logits])`.
    Forward keeps only the logits (both ops save them) and two rows' temporaries; backward holds the logits, the
    rows' gradients and unbind's stack of them (then gather's zero-filled gradient beside the stack): 3 x b·k·V x 4.
    The bf16 branch is unchanged (log_softmax's outputs and their gradient: 2 x b·k·V x 2)."""
    sequences, tokens = 16, 1024  # TRL 0.16 DPOConfig: 8 pairs, max_length 1024 (issue #3168)
    bsv_fp32 = sequences * tokens * QWEN05_VOCAB * 4
    fp32 = training_logits(_logits_component(), "rows", sequences, tokens, tokens, QWEN05_VOCAB, 4, 1)
    assert fp32.moments.forward == bsv_fp32 + bsv_fp32 * 2 / sequences
    assert fp32.moments.backward_start == 3 * bsv_fp32
    bf16 = training_logits(_logits_component(), "rows", sequences, tokens, tokens, QWEN05_VOCAB, 2, 1)
    assert bf16.moments.backward_start == 2 * (bsv_fp32 / 2)
