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
    Forward keeps only the logits (both ops save them: torch.autograd.graph.saved_tensors_hooks) and one row's
    temporary; backward holds the logits, gather's zero-filled gradient, the rows' gradients and unbind's stack of
    them: 4 x b·k·V x 4 (validation/tracker.py traced 1.0 and 4.0 x the logits' bytes on CPU, torch 2.13). The bf16
    branch is unchanged (log_softmax's outputs and their gradient: 2 x b·k·V x 2, traced 2.0)."""
    sequences, tokens = 16, 1024  # TRL 0.16 DPOConfig: 8 pairs, max_length 1024 (issue #3168)
    bsv_fp32 = sequences * tokens * QWEN05_VOCAB * 4
    fp32 = training_logits(_logits_component(), "rows", sequences, tokens, tokens, QWEN05_VOCAB, 4, 1)
    assert fp32.moments.forward == bsv_fp32 + bsv_fp32 / sequences
    assert fp32.moments.backward_start == 4 * bsv_fp32
    bf16 = training_logits(_logits_component(), "rows", sequences, tokens, tokens, QWEN05_VOCAB, 2, 1)
    assert bf16.moments.backward_start == 2 * (bsv_fp32 / 2)


def test_openrlhf_logits_cast_to_fp32_before_the_fused_loss():
    """openrlhf/models/actor.py Actor.forward (PR #634; v0.6.2 and 3c3be62): output["logits"].to(torch.float32),
    then models/utils.py log_probs_from_logits's fp32 branch, flash-attn's cross_entropy_loss with inplace_backward
    off; the actor's training step keeps the output (trainer/ray/ppo_actor.py return_output=True) through backward.
    Training: at the cast the bf16 logits and the fp32 copy (6 bytes per logit); backward the held fp32 copy, the
    kernel's fp32 gradient and its bf16 cast (10 bytes per logit: validation/tracker.py traced 10.0 on CPU for
    3c3be62's chain at temperature 1.0, the kernel's allocations emulated). Scoring (no grad): the same cast, 6 bytes
    per logit at the head."""
    from engine.frameworks.defaults import defaults_for
    from engine.posttraining.logprobs import logprob_bytes

    assert defaults_for("openrlhf").posttraining.logprob_path == "fused-fp32"
    sequences, tokens, hidden = 1, 4096, 896
    logits = sequences * tokens * QWEN05_VOCAB
    c = training_logits(_logits_component(), "fused-fp32", sequences, tokens, tokens, QWEN05_VOCAB, 2, 1)
    assert c.moments.forward == 6 * logits + 8 * tokens
    assert c.moments.backward_start == 10 * logits + 4 * tokens
    assert logprob_bytes("fused-fp32", sequences, tokens, QWEN05_VOCAB, hidden, 2, 1) == 6 * logits + 8 * tokens
    # the bf16 kernel without the cast (verl): 2 bytes per logit kept
    assert logprob_bytes("fused", sequences, tokens, QWEN05_VOCAB, hidden, 2, 1) == 2 * logits + 8 * tokens
