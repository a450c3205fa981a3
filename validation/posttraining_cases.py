"""The post-training configurations traced by validation/posttraining_traces.py (issue 22).

``micro_batch`` is the framework's per-device batch in its own unit: preference pairs for DPO (TRL's
``per_device_train_batch_size``; chosen and rejected are concatenated, so 2 x pairs sequences per pass), sequences
(prompt + completion) for GRPO and PPO (TRL's ``per_device_train_batch_size`` counts completions; verl's
``ppo_micro_batch_size_per_gpu`` / ``log_prob_micro_batch_size_per_gpu`` count responses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    framework: str  # trl | verl
    objective: str  # dpo | kto | grpo | ppo
    model_key: str
    method: str  # full | lora
    reference: str  # separate | adapter-off | precomputed | none (the reference_model values)
    prompt_len: int
    completion_len: int
    micro_batch: int
    num_generations: int = 1
    logprob: str = "fused"  # trl: fused | full-logits; verl: flash-ce | torch
    critic: bool = False
    rollout_engine: str = "none"  # none | vllm (placed on other GPUs: not on the traced device)
    checkpointing: str = "none"  # none | full (transformers' gradient checkpointing, TRL's and verl's usual setting)

    @property
    def accelerate_amp(self) -> bool:
        """TRL's offline trainers run under accelerate's native amp: the HF Trainer prepares the policy and TRL the
        reference (dpo_trainer.py / kto_trainer.py prepare_model(ref_model, evaluation_mode=True) outside DeepSpeed
        and FSDP), with TRL's default bf16=True (trl 4c92de000, v0.19.0): the forwards run under autocast and every
        bf16 output is cast to fp32 (accelerate convert_outputs_to_fp32). GRPO likewise: the HF Trainer prepares its
        policy and grpo_trainer.py its reference (v0.17.0 :676, f2cd577 :1143 prepare_model(ref_model,
        evaluation_mode=True))."""
        return self.framework == "trl" and self.objective in ("dpo", "kto", "grpo")

    @property
    def sequences_per_pass(self) -> int:
        return 2 * self.micro_batch if self.objective == "dpo" else self.micro_batch

    @property
    def scores_before_training(self) -> bool:
        """A no-grad scoring pass runs before the training step: verl always scores the old policy; TRL's GRPO scores
        the old policy when vLLM generated the batch and the reference when beta != 0; TRL's DPO scores its reference
        inside the training forward (or before training, when precomputed)."""
        if self.framework == "verl" or self.objective == "kto":  # KTO: the policy's no-grad KL-batch pass
            return True
        return self.objective == "grpo" and (self.rollout_engine != "none" or self.reference != "none")

    @property
    def id(self) -> str:
        ref = {"separate": "ref", "adapter-off": "refoff", "precomputed": "refpre", "none": "noref"}[self.reference]
        gen = f"_g{self.num_generations}" if self.objective != "dpo" else ""
        critic = "_critic" if self.critic else ""
        engine = "_vllm" if self.rollout_engine != "none" else ""
        ckpt = "_ckpt" if self.checkpointing == "full" else ""
        return (f"{self.model_key}_{self.framework}-{self.objective}_{self.method}_{ref}{critic}"
                f"_p{self.prompt_len}_c{self.completion_len}{gen}_b{self.micro_batch}_{self.logprob}{engine}{ckpt}")

    def scenario(self, run: Any) -> dict[str, Any]:
        sc = run.scenario()
        sc.update({
            "name": self.id, "framework": self.framework, "micro_batch": self.micro_batch,
            "optimizer": "adamw-fused" if self.framework == "trl" else "adamw",
            "training_objective": self.objective, "reference_model": self.reference,
            "reward_model": None, "critic_model": "same" if self.critic else None,
            "prompt_len": self.prompt_len, "completion_len": self.completion_len,
            "num_generations": self.num_generations, "rollout_engine": self.rollout_engine,
            "cross_entropy": CROSS_ENTROPY[self.logprob],
        })
        if self.rollout_engine != "none":
            sc.update({"rollout_placement": "separate", "rollout_gpus": 1})
        return sc

    def trace_facts(self) -> dict[str, Any]:
        path = {"fused": "TRL 1.16 fused LM head (trl.trainer.utils.add_fused_lm_head), CUDA allocations",
                "full-logits": "full logits + trl.trainer.utils.selective_log_softmax (TRL before the fused head)",
                "flash-ce": "verl logprobs_from_logits with flash-attn's Triton cross-entropy (its allocations)",
                "torch": "verl logprobs_from_logits_v2 (no flash-attn)"}[self.logprob]
        return {"logprob_path": path, "sequences_per_pass": self.sequences_per_pass,
                "seq_len": self.prompt_len + self.completion_len, "padding": "attention_mask passed (padded batch)",
                "generation_traced": False,
                "accelerate_amp": "Accelerator(mixed_precision='bf16').prepare_model (autocast + fp32 outputs)"
                if self.accelerate_amp else "none (the trainer's loss code on the bare model)"}

    def describe(self, run: Any) -> str:
        return (f"{self.framework} {self.objective} on {run.model_name} ({run.precision}, {self.method}), reference "
                f"{self.reference}{', critic' if self.critic else ''}, prompt {self.prompt_len} + completion "
                f"{self.completion_len}, {self.sequences_per_pass} sequences per pass, log-probs: {self.logprob}")


# the log-prob path as the scenario's cross_entropy key names it (engine/frameworks/posttraining.py LOGPROB_PATHS:
# chunked = row-by-row log-softmax, fused = one kernel over whole logits, fused-linear = logits never whole)
CROSS_ENTROPY = {"fused": "fused-linear", "full-logits": "chunked", "flash-ce": "fused", "torch": "chunked"}

Q, L = "qwen2.5-0.5b", "llama-3.2-1b"
CASES: list[Case] = [
    # TRL DPO (pairs per device; reference separate / adapter-off / precomputed; fused head vs full logits)
    Case("trl", "dpo", Q, "full", "separate", 256, 256, 2),
    Case("trl", "dpo", Q, "full", "separate", 512, 512, 2),
    Case("trl", "dpo", Q, "full", "separate", 512, 512, 2, logprob="full-logits"),
    Case("trl", "dpo", Q, "full", "precomputed", 512, 512, 2),
    Case("trl", "dpo", Q, "lora", "adapter-off", 512, 512, 2),
    Case("trl", "dpo", Q, "lora", "adapter-off", 512, 512, 2, logprob="full-logits"),
    Case("trl", "dpo", Q, "lora", "adapter-off", 1024, 1024, 1),
    Case("trl", "dpo", L, "full", "separate", 512, 512, 1),
    Case("trl", "dpo", L, "lora", "adapter-off", 512, 512, 2, logprob="full-logits"),
    # TRL KTO (unpaired examples per device, half desirable; the KL batch of mismatched completions beside them)
    Case("trl", "kto", Q, "full", "separate", 512, 512, 4),
    Case("trl", "kto", Q, "full", "precomputed", 512, 512, 4),
    Case("trl", "kto", Q, "lora", "adapter-off", 512, 512, 4),
    Case("trl", "kto", L, "full", "separate", 256, 768, 2),
    # TRL GRPO (completions per device; beta 0 -> no reference; vLLM -> the old policy is scored)
    Case("trl", "grpo", Q, "full", "separate", 256, 512, 4, num_generations=4, rollout_engine="vllm"),
    Case("trl", "grpo", Q, "full", "separate", 256, 512, 8, num_generations=8, rollout_engine="vllm"),
    Case("trl", "grpo", Q, "full", "separate", 256, 512, 8, num_generations=8, logprob="full-logits",
         rollout_engine="vllm"),
    Case("trl", "grpo", Q, "full", "none", 512, 1024, 8, num_generations=8),
    Case("trl", "grpo", Q, "full", "none", 512, 1024, 8, num_generations=8, logprob="full-logits"),
    Case("trl", "grpo", Q, "lora", "adapter-off", 256, 1024, 4, num_generations=4, rollout_engine="vllm"),
    Case("trl", "grpo", Q, "lora", "adapter-off", 256, 1024, 8, num_generations=8, logprob="full-logits",
         rollout_engine="vllm"),
    Case("trl", "grpo", Q, "lora", "none", 512, 1024, 8, num_generations=8),
    Case("trl", "grpo", L, "full", "separate", 256, 768, 4, num_generations=4, rollout_engine="vllm"),
    # verl GRPO (actor fp32 + bf16 autocast, reference bf16; micro-batch of responses)
    Case("verl", "grpo", Q, "full", "separate", 512, 1024, 4, num_generations=8, logprob="flash-ce",
         rollout_engine="vllm"),
    Case("verl", "grpo", Q, "full", "separate", 512, 1024, 8, num_generations=8, logprob="flash-ce",
         rollout_engine="vllm"),
    Case("verl", "grpo", Q, "full", "separate", 512, 1024, 4, num_generations=8, logprob="torch",
         rollout_engine="vllm"),
    Case("verl", "grpo", Q, "lora", "adapter-off", 512, 1024, 4, num_generations=4, logprob="flash-ce",
         rollout_engine="vllm"),
    Case("verl", "grpo", Q, "full", "separate", 256, 2048, 2, num_generations=4, logprob="flash-ce",
         rollout_engine="vllm"),
    # verl PPO (critic = the policy's architecture with a one-output head, fp32)
    Case("verl", "ppo", Q, "full", "separate", 512, 512, 4, critic=True, logprob="flash-ce", rollout_engine="vllm"),
    Case("verl", "ppo", Q, "full", "none", 512, 1024, 2, critic=True, logprob="flash-ce", rollout_engine="vllm"),
    Case("verl", "ppo", Q, "full", "separate", 256, 1024, 4, critic=True, logprob="torch", rollout_engine="vllm"),
    # gradient checkpointing (TRL's trainers enable it by default, verl's recipes set enable_gradient_checkpointing)
    Case("trl", "dpo", Q, "full", "separate", 1024, 1024, 2, checkpointing="full"),
    Case("trl", "grpo", Q, "lora", "adapter-off", 512, 1536, 8, num_generations=8, rollout_engine="vllm",
         checkpointing="full"),
    Case("verl", "grpo", Q, "full", "separate", 512, 1536, 8, num_generations=8, logprob="flash-ce",
         rollout_engine="vllm", checkpointing="full"),
]
