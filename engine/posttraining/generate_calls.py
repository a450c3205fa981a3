"""How many generate() calls an online step's rollout makes, and the decode waves they run (issue 23: Unsloth's GRPO
steps read from the code the notebooks ran).

TRL's GRPOTrainer up to v0.15.2 generates inside _prepare_inputs, which the HF Trainer calls once per gradient-
accumulation micro-batch: huggingface/trl v0.15.2 trl/trainer/grpo_trainer.py lines 520-544 gather that micro-batch's
prompts (per_device_train_batch_size of them on each process, each prompt repeated num_generations times by
RepeatRandomSampler, lines 463-468) and make one `self.llm.generate(all_prompts_text, ...)` call with them, so a step
of gradient_accumulation_steps micro-batches runs that many generations one after the other, each decoding until its
own longest completion (TRL v0.18 added steps_per_generation, one generation for the whole accumulation). Unsloth's
releases of February-May 2025 pin trl<=0.15.2 (unslothai/unsloth b22e654e, 2025-05-15, pyproject.toml line 51),
the releases unslothai/notebooks at bdda2efc ran (their banners: Unsloth 2025.2.4-2025.5.7).
"""
from __future__ import annotations

import math


def rollout_waves(generate_calls: int, sequences: int, running_capacity: int) -> tuple[int, int, int]:
    """(sequences decoded together, decode waves, generate() calls) of one engine's rollout: `sequences` split evenly
    over the framework's calls (RLSettings.generate_calls), each call's batch admitted up to the engine's
    `running_capacity` (as the scheduler admits them) and decoded in waves of that many."""
    calls = max(1, min(generate_calls, sequences))
    per_call = -(-sequences // calls)
    concurrent = max(1, min(per_call, running_capacity))
    return concurrent, calls * math.ceil(per_call / concurrent), calls


__all__ = ["rollout_waves"]
