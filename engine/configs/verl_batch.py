"""verl's batch sizes -> the scenario's step (user audit 5: data.train_batch_size and actor.ppo_mini_batch_size were
neither read nor exported, so an imported verl step's sequence count was not the config's).

verl (volcengine/verl verl/workers/fsdp_workers.py, "normalize config"): ppo_mini_batch_size (prompts) *= rollout.n,
then //= device_mesh.size() // ulysses_sequence_parallel_size: the sequences one optimizer step trains per
data-parallel rank; a (deprecated) global ppo_micro_batch_size is divided the same way into ppo_micro_batch_size_per_gpu.
So micro_batch = ppo_micro_batch_size_per_gpu and grad_accum = mini-batch sequences per rank / micro_batch, as the
measured verl-data rows take them (tests/data/published/posttraining_time.json, 'taken': "ppo_mini_batch_size 64 x
n 5 = 320: one optimizer step over 5 micro-batches" on 2 GPUs at micro-batch 32). data.train_batch_size prompts are
generated at once and then trained as train_batch_size / ppo_mini_batch_size optimizer steps: the planner's step is
one optimizer step, which generates ppo_mini_batch_size x n sequences on average; a larger train batch is listed.
The export writes both as the plan's step prompts (step_sequences / num_generations). No Qt."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message
from .common import as_int, set_int
from .result import Collector

A = "actor_rollout_ref.actor."
N = "actor_rollout_ref.rollout.n"
MINI, MICRO, MICRO_GLOBAL = A + "ppo_mini_batch_size", A + "ppo_micro_batch_size_per_gpu", A + "ppo_micro_batch_size"
TRAIN = "data.train_batch_size"
VERL_DEFAULT_N = 1  # rollout.n (verl/trainer/config/_generated_ppo_trainer.yaml)


def data_parallel_ranks(o: dict[str, Any]) -> int | None:
    """device_mesh.size() // ulysses_sequence_parallel_size, where the file states the GPUs (else None)."""
    gpus, nodes = as_int(o.get("trainer.n_gpus_per_node")), as_int(o.get("trainer.nnodes")) or 1
    if not gpus:
        return None
    return max(1, gpus * nodes // (as_int(o.get(A + "ulysses_sequence_parallel_size")) or 1))


def read_batch(c: Collector, o: dict[str, Any]) -> None:
    """grad_accum from ppo_mini_batch_size (and micro_batch from a global ppo_micro_batch_size), as verl normalises
    them; data.train_batch_size is consumed when it equals the mini-batch, listed when it holds several."""
    mini, train = as_int(o.get(MINI)), as_int(o.get(TRAIN))
    if mini is None:
        return
    ranks = data_parallel_ranks(o)
    if ranks is None:
        c.skip(MINI, message(QT_TRANSLATE_NOOP(
            "engine", "the optimizer step's sequences per GPU need the GPU count (trainer.n_gpus_per_node), which "
            "the files do not state; set gradient accumulation in the planner")))
        return
    per_rank = mini * (as_int(o.get(N)) or VERL_DEFAULT_N) // ranks
    micro = as_int(o.get(MICRO))
    if micro is None and as_int(o.get(MICRO_GLOBAL)):
        micro = max(1, as_int(o[MICRO_GLOBAL]) // ranks)
        set_int(c, "micro_batch", micro, MICRO_GLOBAL)
    if micro and per_rank >= micro and per_rank % micro == 0:
        set_int(c, "grad_accum", per_rank // micro, MINI)
    elif micro:
        c.skip(MINI, message(QT_TRANSLATE_NOOP(
            "engine", "{sequences} sequences per GPU an optimizer step are not a whole number of micro-batches of "
            "{micro}; set gradient accumulation in the planner"), sequences=per_rank, micro=micro))
    if train is not None and train == mini:
        c.use(TRAIN)
    elif train is not None:
        c.skip(TRAIN, message(QT_TRANSLATE_NOOP(
            "engine", "{train} prompts generated at once, trained as {steps} optimizer steps of {mini}: the planner's "
            "step is one of them (the same generation per optimizer step on average, in a larger engine batch)"),
            train=train, steps=f"{train / mini:g}", mini=mini))


def batch_args(step_sequences: int, num_generations: int, mini_batches: int = 1) -> list[tuple[str, Any]]:
    """data.train_batch_size and actor.ppo_mini_batch_size for one optimizer step of `step_sequences` sequences of
    `num_generations` completions each ([] where they do not divide: verl's batch is in whole prompts); by token count
    the step's `mini_batches` mini-batches (the scenario's grad_accum: engine/posttraining/estimate.py _token_budget
    cuts each by the budget), where the prompts divide into them."""
    if num_generations < 1 or step_sequences % num_generations:
        return []
    prompts = step_sequences // num_generations
    return [(TRAIN, prompts), (MINI, prompts // mini_batches if prompts % mini_batches == 0 else prompts)]



def read_dynamic_batch(c: Collector, o: dict[str, Any]) -> None:
    """With use_dynamic_bsz: micro_batch the rank's mini-batch sequences (ppo_mini_batch_size x n // data-parallel
    ranks); verl cuts that mini-batch by tokens into ceil(tokens / ppo_max_token_len_per_gpu) micro-batches
    (volcengine/verl@9e4074b7 dp_actor.py update_policy lines 276-278, seqlen_balancing.py rearrange_micro_batches),
    which the post-training estimate lays out from the budget (engine/posttraining/estimate.py _token_budget).
    grad_accum the mini-batches data.train_batch_size holds, as batch_args writes a budget plan's step (its grad_accum
    mini-batches of prompts / grad_accum each), so the export's round trip gives the plan back; 1 where the file
    states no train batch or one that is no whole number of mini-batches (then listed)."""
    mini, ranks = as_int(o.get(MINI)), data_parallel_ranks(o)
    if mini is None or ranks is None:
        return
    set_int(c, "micro_batch", max(1, mini * (as_int(o.get(N)) or VERL_DEFAULT_N) // ranks), MINI)
    train = as_int(o.get(TRAIN))
    whole = train is not None and mini > 0 and train >= mini and train % mini == 0
    c.set("grad_accum", train // mini if whole else 1, MINI)
    if whole:
        c.use(TRAIN)
    elif train is not None:
        c.skip(TRAIN, message(QT_TRANSLATE_NOOP(
            "engine", "{train} prompts a step are no whole number of mini-batches of {mini} prompts; the planner's "
            "step is one mini-batch"), train=train, mini=mini))


def step_left_out(step_sequences: int, num_generations: int) -> Message | None:
    """One sentence where batch_args writes no batch sizes (the step is no whole number of prompts of
    num_generations completions), so verl runs its own defaults (data.train_batch_size 1024, ppo_mini_batch_size
    256: volcengine/verl@532d5616 verl/trainer/config/data/legacy_data.yaml, actor/actor.yaml); None where it writes
    them."""
    if batch_args(step_sequences, num_generations):
        return None
    return message(QT_TRANSLATE_NOOP(
        "engine", "data.train_batch_size and ppo_mini_batch_size are not in this verl file: the plan's step of "
        "{sequences} sequences is no whole number of prompts of {n} completions, so verl runs its own (1,024 and 256 "
        "prompts); pick a micro-batch, gradient accumulation or GPU count whose step divides by {n}, or set them by "
        "hand."), sequences=step_sequences, n=num_generations)


__all__ = ["batch_args", "data_parallel_ranks", "read_batch", "read_dynamic_batch", "step_left_out"]
