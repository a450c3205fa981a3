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


def _megatron_dpo(**keys):
    from engine.scenario import scenario_from_dict

    # ms-swift examples/megatron/rlhf/dpo/group_by_length.sh (3602360a): Qwen3-4B, TP 4, micro-batch 4 pairs
    base = {"name": "megatron-dpo", "gpu": "a100-80gb", "gpus_per_node": 4, "framework": "megatron",
            "training_objective": "dpo", "precision": "mixed-bf16", "model": "qwen3-4b", "method": "full", "tp": 4,
            "sequence_parallel": True, "checkpointing": "full", "attention": "flash", "micro_batch": 4,
            "reference_model": "separate", "prompt_len": 4096, "completion_len": 4096}
    return scenario_from_dict({**base, **keys})


def test_swift_megatron_log_probs_are_the_models_own_loss():
    """ms-swift's Megatron DPO (swift/megatron/trainers/dpo_trainer.py forward_step at 3602360a) runs
    ref_model(**data) under no_grad, then model(**data) with the labels in data: GPTModel returns the per-token loss
    of Megatron's vocab-parallel cross-entropy, and rlhf_mixin.py get_logps negates it. So the training step's logits
    are the supervised estimator's for the same sequences (megatron/core/tensor_parallel/cross_entropy.py: one fp32
    copy beside the bf16 logits, worked in place: 6 bytes per logit), not TRL's row-by-row log-softmax (4), and a
    scoring pass holds the same (2 + 4) bytes per logit under no_grad."""
    from engine.frameworks.defaults import defaults_for
    from engine.memory.estimate import estimate
    from engine.posttraining.estimate import step_parts, training_scenario
    from engine.posttraining.logprobs import logprob_bytes

    assert defaults_for("megatron").posttraining.logprob_path == "model-loss"
    s = _megatron_dpo()
    parts = step_parts(s)
    sft = estimate(training_scenario(s, parts.rs))  # the supervised estimator over the same sequences
    rl_logits = next(c for c in parts.training_components if c.key == "logits")
    sft_logits = next(c for c in sft.busiest.components if c.key == "logits")
    assert rl_logits.moments == sft_logits.moments
    tokens = 8 * 8192  # 4 pairs = 8 sequences of 8,192 tokens
    per_rank_logits = tokens * 151936 / 4  # Qwen3-4B vocab_size (config.json), TP 4
    assert rl_logits.moments.forward == 6 * per_rank_logits
    assert logprob_bytes("model-loss", 8, 8192, 151936, 2560, 2, 4) == 6 * per_rank_logits


def test_swift_megatron_reference_runs_before_the_policy():
    """forward_step runs the reference first (dpo_trainer.py at 3602360a): its peak comes before any of the policy's
    step tensors exist, so it adds only what exceeds the policy's forward tensors (none here: both forwards end in
    the same logits, and the policy also keeps its checkpointed layer inputs)."""
    from engine.posttraining.estimate import step_parts
    from engine.posttraining.phases import training_phase

    phase = training_phase(step_parts(_megatron_dpo()))
    ref = next(c for c in phase.components if c.key == "reference_forward_in_step")
    assert ref.moments.forward == 0.0
    assert dict(ref.inputs)["reference_peak_bytes"] <= dict(ref.inputs)["freed_bytes"]
