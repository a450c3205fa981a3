"""PPO with the trainer's own generate() as TRL's PPOTrainer runs it (ms-swift's PPO is that trainer: swift/trainers/
rlhf_trainer/ppo_trainer.py at ae43d1bfb overrides only __init__, train and saving), and DeepSpeed ZeRO-3's gradient
buffer between phases (docs/posttraining.md, h-swiftbound)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.models.presets import model_spec_for
from engine.posttraining.estimate import step_parts
from engine.posttraining.phases import all_phases

# ms-swift examples/train/rlhf/ppo/full.sh (3602360a): Llama-3.1-8B policy, an 8B reward model that also initialises
# the value model, ZeRO-3 on 8 GPUs, batch 1 x accumulation 2, max_length 2048 with response_length 512
PPO = {"gpu": "a100-80gb", "gpus_per_node": 8, "framework": "ms-swift", "training_objective": "ppo",
       "precision": "mixed-bf16", "model": "llama-3.1-8b", "method": "full", "zero_stage": 3, "micro_batch": 1,
       "grad_accum": 2, "reference_model": "separate", "reward_model": "llama-3.1-8b", "critic_model": "llama-3.1-8b",
       "prompt_len": 1536, "completion_len": 512, "num_generations": 1, "rollout_engine": "none",
       "checkpointing": "full"}


def _phases(s: dict) -> dict:
    return {ph.key: {c.key: c for c in ph.components} for ph in all_phases(step_parts(scenario_from_dict(s)))}


def test_generate_gathers_the_value_model_with_the_policy_under_zero3():
    # trl v0.17.0 trl/trainer/ppo_trainer.py:228 self.model = PolicyAndValueWrapper(policy, value_model) and :422
    # unwrap_model_for_generation(self.model, ...); trl/models/utils.py:217 GatheredParameters(model.parameters()):
    # every parameter of the wrapper, the value model's included, is gathered while the policy generates. The value
    # model is AutoModelForSequenceClassification: the backbone plus a one-output score head, no lm_head
    gen = _phases(PPO)["generation"]
    critic = model_spec_for("llama-3.1-8b")
    params = critic.total_params - critic.vocab * critic.hidden + critic.hidden
    assert gen["generate_gathered_critic"].peak_bytes == params * 2
    assert gen["generate_gathered_weights"].peak_bytes == critic.total_params * 2
    # ZeRO-2 keeps each model whole on every GPU: nothing is gathered
    assert "generate_gathered_critic" not in _phases(dict(PPO, zero_stage=2))["generation"]


def test_generate_keeps_the_fp32_scores_and_their_stack():
    # trl v0.17.0 trl/trainer/utils.py:1353-1362: generate(..., return_dict_in_generate=True, output_scores=True),
    # then torch.stack(output.scores, 1) while `output` (with its cache) is alive; transformers' _sample stores each
    # step's scores from outputs.logits[:, -1, :].to(copy=True, dtype=torch.float32): 4 bytes per score, twice
    gen = _phases(PPO)["generation"]
    sequences = PPO["micro_batch"] * PPO["grad_accum"]
    vocab = model_spec_for("llama-3.1-8b").vocab
    assert gen["generate_scores"].peak_bytes == 2 * 4 * sequences * PPO["completion_len"] * vocab
    # GRPO's generate keeps no scores (trl's GRPOTrainer generates without output_scores)
    grpo = {k: v for k, v in PPO.items() if k not in ("reward_model", "critic_model")}
    grpo.update(training_objective="grpo", num_generations=2)
    assert "generate_scores" not in _phases(grpo)["generation"]


def test_deepspeed_zero3_keeps_its_gradient_partitions_between_phases():
    # deepspeed/runtime/zero/stage3.py:498 at v0.14.5 (the script's `pip install "deepspeed==0.14.*"`):
    # grad_partitions_flat_buffer = torch.zeros(sum of partition numel, gradient_accumulation_dtype) built once;
    # zero_grad(set_to_none) only drops the parameters' .grad. Its dtype is bf16 under ZeRO with bf16 (engine.py
    # get_data_types: fp32 only without ZeRO), one shard per GPU of the policy and of the critic
    gen = _phases(PPO)["generation"]
    shard = model_spec_for("llama-3.1-8b").total_params / 8 * 2
    assert gen["policy_gradients"].peak_bytes == shard
    assert gen["critic_gradients"].peak_bytes == shard
    # FSDP frees its sharded gradients with zero_grad(set_to_none): none between phases
    fsdp = _phases(dict(PPO, zero_stage=0, fsdp=True))["generation"]
    assert "policy_gradients" not in fsdp and "critic_gradients" not in fsdp
