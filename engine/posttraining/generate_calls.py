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

A call's batch larger than the engine holds at once is not decoded in whole waves: vLLM's scheduler admits a waiting
sequence as soon as a running one ends and its blocks are free (continuous batching). vLLM 0.11.2 (the PyPI wheel,
vllm/v1/core/sched/scheduler.py) schedules the running requests first each step (lines 218-333; a request that
cannot get its next block preempts the newest running one, `self.running.pop()` line 319, which goes back to the
waiting queue with num_computed_tokens 0 and is recomputed later: its generated tokens are kept), then admits waiting
requests while their blocks allocate and fewer than max_num_seqs run (lines 395-402, allocate_slots 551-562); vLLM
0.7.3's V0 scheduler does the same each step (vllm/core/scheduler.py _schedule_default lines 1204-1240: prefills
admitted by block_manager.can_allocate, lines 1108-1112; _schedule_running preempts by recompute, lines 740-770).
So the engine runs at its concurrency until the call's work, sequences x the mean completion, is done:
sequences / concurrency passes of completion_len iterations (decode_passes), not ceil(sequences / concurrency).
The preempted sequences' re-prefill is not counted. The concurrency is EngineMemory.running_sequences, the pool's
blocks over prompt + the mean completion (RLSettings.sequence_tokens; engine/posttraining/rollout_memory.py), not
max_model_len-sized slots: V1 admits a waiting request by the blocks its prompt needs (scheduler.py 551-562,
allocate_slots of its new tokens) and allocates each later block as its tokens come (v1/core/kv_cache_manager.py
allocate_slots 284-298: computed + new + lookahead tokens, capped at max_model_len); tests/test_longest_completion.py.
"""
from __future__ import annotations

import math


def rollout_waves(generate_calls: int, sequences: int, running_capacity: int) -> tuple[int, int, int]:
    """(sequences decoded together, decode waves, generate() calls) of one engine's rollout: `sequences` split evenly
    over the framework's calls (RLSettings.generate_calls), each call's batch admitted up to the engine's
    `running_capacity` (as the scheduler admits them); the waves: the whole batches of that many the call's sequences
    make (the decode itself runs decode_passes of the mean completion: a waiting sequence enters as one ends)."""
    calls = max(1, min(generate_calls, sequences))
    per_call = -(-sequences // calls)
    concurrent = max(1, min(per_call, running_capacity))
    return concurrent, calls * math.ceil(per_call / concurrent), calls


def decode_passes(generate_calls: int, sequences: int, running_capacity: int) -> int | float:
    """Passes of completion_len decode iterations one engine's rollout runs: per call, its sequences over the number
    the engine runs at once (continuous batching: a waiting sequence takes the place of one that ended), summed over
    the calls; 1 a call where the engine holds the call's whole batch (a whole number as an int, as the waves were)."""
    concurrent, _waves, calls = rollout_waves(generate_calls, sequences, running_capacity)
    passes = calls * -(-sequences // calls) / concurrent
    return int(passes) if passes.is_integer() else passes


__all__ = ["decode_passes", "rollout_waves"]
