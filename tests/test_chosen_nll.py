"""The chosen sequences' NLL term of a preference loss (scenario key rpo_alpha), from the code the rows ran:

- TRL v0.17.0 trl/trainer/dpo_trainer.py:1244-1252: with rpo_alpha set, ``F.cross_entropy(torch.flatten(
  logits[:num_examples], end_dim=1), ...)`` over the chosen half of the same logits; TRL v0.11.4
  trl/trainer/cpo_trainer.py concatenated_forward: ``cross_entropy_loss(all_logits[:len_chosen], ...)`` unless
  cpo_alpha == 0 (CPO and SimPO); ms-swift 40c8406fb swift/trainers/rlhf_trainer/dpo_trainer.py get_nll_loss (a
  ``.contiguous()`` copy of the chosen half, then nn.CrossEntropyLoss), run when rpo_alpha is not None (its default
  1.0 then: swift/llm/argument/rlhf_args.py:88).
- cross_entropy = log_softmax + nll_loss: LogSoftmaxBackward saves its output (the chosen half's log-probabilities,
  in the logits' dtype); SliceBackward allocates a zero-filled gradient of the whole logits (torch 2.13
  torch/_decomp/decompositions.py slice_backward: grad_output.new_zeros(input_sizes)).
- validation/rpo_nll_trace.py (torch 2.13, CPU tensors) measured +0.50 x the batch's bf16 logits at the end of
  forward and +1.00 at the peak in backward, for TRL's rows path and ms-swift's whole-batch path alike.
"""

import pytest

from engine.configs import import_texts
from engine.posttraining import rl_settings
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

# ms-swift examples/train/rlhf/dpo/lora.sh (tests/data/published/posttraining.json swift-dpo-lora-qwen2.5-7b)
DPO_LORA = {"gpu": "a100-80gb", "framework": "ms-swift", "training_objective": "dpo", "precision": "bf16",
            "model": "qwen2.5-7b", "method": "lora", "lora_rank": 8, "lora_alpha": 32, "lora_targets": "all-linear",
            "micro_batch": 1, "grad_accum": 16, "reference_model": "adapter-off", "prompt_len": 1024,
            "completion_len": 1024, "checkpointing": "full"}


def _logits(**keys):
    est = estimate(scenario_from_dict({**DPO_LORA, "framework": "trl", **keys}))
    training = next(p for p in est.rl.phases if p.key == "training")
    return est, next(c for c in training.components if c.key == "logits")


@pytest.mark.parametrize(("zero_stage", "logit_bytes"), [(2, 2), (0, 4)])
def test_nll_keeps_the_chosen_halfs_log_softmax_and_a_whole_slice_gradient(zero_stage, logit_bytes):
    """Under DeepSpeed the logits are the model's bf16 output; without it TRL's trainer gets them cast to fp32 by
    accelerate's native amp (tests/test_trl_fp32_outputs.py), so the chosen half's log-softmax is fp32 too."""
    _, plain = _logits(zero_stage=zero_stage)
    _, nll = _logits(rpo_alpha=1.0, zero_stage=zero_stage)
    # one chosen sequence of 2,048 tokens x Qwen2.5-7B's vocabulary, in the logits' dtype
    chosen = logit_bytes * 1 * 2048 * 152064
    assert nll.moments.forward - plain.moments.forward == pytest.approx(chosen, rel=1e-6)  # trace: +0.50 x b·s·V
    assert nll.moments.backward_start - plain.moments.backward_start == pytest.approx(2 * chosen, rel=1e-6)  # +1.00
    assert dict(nll.inputs)["chosen_sequences"] == 1


def test_rpo_alpha_zero_is_the_default_and_changes_nothing():
    s = scenario_from_dict(DPO_LORA)
    assert s.rpo_alpha == 0.0
    assert not rl_settings(s, 2).chosen_nll
    assert estimate(s).process_bytes == estimate(scenario_from_dict({**DPO_LORA, "rpo_alpha": 0})).process_bytes


def test_nll_term_only_where_a_second_log_softmax_runs():
    """Megatron's trainers take the NLL from the model's per-token loss (ms-swift 3602360a
    swift/megatron/trainers/dpo_trainer.py: rpo_alpha x the chosen half of -per_token_logps) and ms-swift's DPOTrainer
    from the per-token log-probs (swift/rlhf_trainers/dpo_trainer.py at 3602360a: -origin_per_token_logps[:num_examples],
    since 19b34bc5c): nothing is added; its CPO/SimPO runs TRL's CPOTrainer (a cross-entropy over the chosen logits);
    GRPO has no such term."""
    megatron = scenario_from_dict({**DPO_LORA, "framework": "megatron", "method": "full", "rpo_alpha": 1.0,
                                   "reference_model": "separate"})
    assert not rl_settings(megatron, 2).chosen_nll
    swift_dpo = scenario_from_dict({**DPO_LORA, "rpo_alpha": 1.0})
    assert not rl_settings(swift_dpo, 2).chosen_nll
    grpo = scenario_from_dict({**DPO_LORA, "framework": "trl", "training_objective": "grpo", "rpo_alpha": 1.0})
    assert not rl_settings(grpo, 2).chosen_nll
    simpo = scenario_from_dict({**DPO_LORA, "training_objective": "simpo", "reference_model": "none",
                                "rpo_alpha": 1.0})
    assert rl_settings(simpo, 2).chosen_nll


def test_importers_read_rpo_alpha_and_cpo_alphas_default():
    """TRL's DPOConfig rpo_alpha (None = off) and ms-swift's --rpo_alpha map onto rpo_alpha; CPO/SimPO's cpo_alpha
    is the same term and defaults to 1.0 (trl v0.11.4 cpo_config.py; ms-swift swift/arguments/rlhf_args.py:250 at
    3602360a), so an absent one is assumed 1.0."""
    dpo = import_texts([("run.sh", "swift rlhf --rlhf_type dpo --model Qwen/Qwen2.5-7B-Instruct --rpo_alpha 0.1\n")])
    assert dpo.scenario.get("rpo_alpha") == pytest.approx(0.1)
    plain = import_texts([("run.sh", "swift rlhf --rlhf_type dpo --model Qwen/Qwen2.5-7B-Instruct\n")])
    assert "rpo_alpha" not in plain.scenario
    simpo = import_texts([("run.sh", "swift rlhf --rlhf_type simpo --model Qwen/Qwen2.5-3B-Instruct\n")])
    assert simpo.scenario.get("rpo_alpha") == 1.0
    off = import_texts([("run.sh", "swift rlhf --rlhf_type simpo --model Qwen/Qwen2.5-3B-Instruct --cpo_alpha 0\n")])
    assert off.scenario.get("rpo_alpha") == 0.0
    bad = import_texts([("run.sh", "swift rlhf --rlhf_type dpo --model Qwen/Qwen2.5-7B-Instruct --rpo_alpha x\n")])
    assert "rpo_alpha" not in bad.scenario
    assert any("rpo_alpha" in u.key for u in bad.unmapped)
