"""verl's entropy bonus in the update (scenario key entropy_coeff, verl's actor.entropy_coeff), from its source:

- verl/workers/actor/dp_actor.py (b4aa2dce8, the verl of eric-haibin-lin/verl-data's June 2025 GRPO-LoRA logs, and
  b178a3c): update_policy sets calculate_entropy = entropy_coeff != 0; the remove-padding path then passes
  inplace_backward=False to flash-attn's cross_entropy_loss (flash_attn/ops/triton/cross_entropy.py: dlogits =
  logits if inplace_backward else torch.empty_like(logits)) and runs torch.compile(entropy_from_logits,
  dynamic=True) on the (total_nnz, V) logits with gradients.
- inductor's partition of entropy_from_logits (validation/verl_entropy_partition.py, torch 2.13): saved for backward
  only the logits and per-token values; the generated forward allocates one (N, V) fp32 buffer, the backward one
  (N, V) gradient in the logits' dtype.

So the update's logits component holds 4 bytes per logit more at the end of forward, and one logits-sized gradient
(compute bytes) more at the start of backward, plus 4 bytes per token of entropy values.
"""

import pytest
from test_verl_offload_and_engine_pool import VERL_7B_LORA

from engine.frameworks.defaults import defaults_for
from engine.scenario import scenario_from_dict
from engine.workloads import estimate


def _logits(**keys):
    est = estimate(scenario_from_dict({**VERL_7B_LORA, **keys}))
    training = next(p for p in est.rl.phases if p.key == "training")
    return est, next(c for c in training.components if c.key == "logits")


def test_entropy_bonus_adds_the_compiled_entropys_buffer_and_gradient():
    assert defaults_for("verl").posttraining.update_entropy == "compiled"
    _, plain = _logits()
    est, bonus = _logits(entropy_coeff=0.001)
    tokens = VERL_7B_LORA["micro_batch"] * (VERL_7B_LORA["prompt_len"] + VERL_7B_LORA["completion_len"])
    vocab = 152_064  # Qwen2.5-7B config.json vocab_size
    logits = tokens * vocab  # padding-free: every token of the micro-batch gets logits (no TP in verl's FSDP actor)
    assert bonus.moments.forward - plain.moments.forward == pytest.approx(4 * logits + 4 * tokens)
    assert bonus.moments.backward_start - plain.moments.backward_start == pytest.approx(2 * logits + 4 * tokens)
    assert bonus.moments.backward_end == plain.moments.backward_end
    assert dict(bonus.inputs)["entropy_tokens"] == tokens


def test_no_bonus_without_a_coefficient_or_outside_verl():
    _, plain = _logits()
    _, zero = _logits(entropy_coeff=0.0)
    assert zero == plain
    assert scenario_from_dict(VERL_7B_LORA).entropy_coeff == 0.0  # verl's default (actor.yaml entropy_coeff: 0)
    assert defaults_for("trl").posttraining.update_entropy == "none"
    _, trl = _logits(framework="trl", entropy_coeff=0.001)
    _, trl_plain = _logits(framework="trl")
    assert trl == trl_plain


def test_supervised_and_offline_objectives_ignore_the_key():
    sft = {k: v for k, v in VERL_7B_LORA.items() if not k.startswith(("rollout", "training_objective",
                                                                       "reference_model", "prompt_len",
                                                                       "completion_len", "num_generations"))}
    a = estimate(scenario_from_dict({**sft, "seq_len": 1024}))
    b = estimate(scenario_from_dict({**sft, "seq_len": 1024, "entropy_coeff": 0.001}))
    assert a.peak_allocated_bytes == b.peak_allocated_bytes


def test_verl_command_line_entropy_coeff_is_imported():
    from engine.configs import import_texts

    line = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.rollout.name=vllm "
            "actor_rollout_ref.actor.entropy_coeff=0.001")
    assert import_texts([("run.sh", line)]).scenario.get("entropy_coeff") == 0.001
    bad = import_texts([("run.sh", line.replace("0.001", "lots"))])
    assert "entropy_coeff" not in bad.scenario
    assert any("entropy_coeff" in u.key for u in bad.unmapped)


def test_verl_export_writes_a_nonzero_entropy_coeff_back():
    from engine.configs.export_rl import verl_args

    assert "actor_rollout_ref.actor.entropy_coeff=0.001" in verl_args(scenario_from_dict({**VERL_7B_LORA,
                                                                                        "entropy_coeff": 0.001}))
    assert "entropy_coeff" not in verl_args(scenario_from_dict(VERL_7B_LORA))  # verl's own default, 0
