"""A synchronous rollout split over several engines waits for its slowest engine (issue 23: NeMo-RL's GRPO steps
short; the generation phase; branch h-nemorl4).

The frameworks hand each data-parallel engine a contiguous slice of the step's sequences and return only when every
engine has finished: NeMo-RL v0.5.0 (6c708930) nemo_rl/models/generation/vllm/vllm_generation.py generate, lines
423-450: `data.shard_by_batch_size(dp_size, allow_uneven_shards=True)` (nemo_rl/distributed/batched_data_dict.py
shard_by_batch_size: with batch_size None one chunk cut into dp_size contiguous shards) then
`self.worker_group.get_all_worker_results(future_bundle)`, which gets every worker's result; verl's rollout likewise
(its generate_sequences dispatched DP_COMPUTE_PROTO over the ranks and gathered whole). Within one engine the decode is
affine in the running sequences (longest_completion.py: a fixed part per iteration, run to the longest completion by
every engine alike, plus a part per running sequence, summed over the engine's own tokens), so the engines differ by
their own sequences' total length, and the phase lasts as long as the longest total.

Priced as a lower bound: each engine's n sequences are taken as independent draws from the completions' spread (the
maximum-entropy density of length_spread.py, the one the stated mean and longest allow without assuming more), so an
engine's mean completion has relative spread cv / sqrt(n) (cv: that density's standard deviation over its mean), and
the slowest of k engines runs (1 + E[max of k standard normals] x cv / sqrt(n)) times the mean's tokens (the normal
approximation of the engine's mean; E[max]: length_spread.expected_max_of_normals, H. L. Harter 1961, 'Expected
values of normal order statistics', Biometrika 48: 0.5642 for 2, 1.0294 for 4, 1.4236 for 8, 1.7660 for 16). The
frameworks' slices are in fact whole prompt groups (NeMo-RL's repeated_batch = batch.repeat_interleave(
num_generations_per_prompt), grpo.py; verl's batch.repeat(interleave=True)), whose completions' lengths go together,
so the true spread between engines is larger: ASSUMED independent, the bound. No spread (a scenario without
max_completion_len) and one engine give none."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .estimate import rollout_engine_count
from .length_spread import expected_max_of_normals, spread_share
from .longest_completion import longest_completion_len


def spread_cv(mean_share: float) -> float:
    """Standard deviation over mean of the maximum-entropy density on [0, 1] with mean `mean_share`
    (length_spread.spread_share over the mean); 0 at a mean of the whole range."""
    return spread_share(mean_share) / mean_share if 0.0 < mean_share < 1.0 else 0.0


def slowest_engine_excess(engines: int, sequences_per_engine: int, mean: int, longest: int) -> float:
    """How much more than the mean's tokens the slowest of `engines` engines generates (a share: 0.1 = 10% more), each
    with `sequences_per_engine` independent completions of the maximum-entropy spread of `mean` and `longest`."""
    if engines <= 1 or sequences_per_engine < 1 or longest <= mean or mean <= 0:
        return 0.0
    relative = spread_cv(round(mean / longest, 4)) / math.sqrt(sequences_per_engine)
    return min(expected_max_of_normals(engines) * relative, longest / mean - 1)


def slowest_engine_seconds(excess: float, full_iterations: float, passes: float, step: float, lone: float) -> float:
    """Seconds the slowest engine decodes beyond the mean engine: its `excess` share of more tokens, each pass's
    `full_iterations` at the full batch's `step` less the lone sequence's `lone` (the part of an iteration a running
    sequence adds) where the engine holds its whole batch at once, at the whole `step` where sequences wait for a
    slot (more tokens then take more iterations of the full batch)."""
    if not excess:
        return 0.0
    return excess * full_iterations * (step if passes > 1 else max(step - lone, 0.0))


def slowest_engine_decode_seconds(s: Scenario, rs: Any, iteration: Callable[[int, float], tuple[float, Any]],
                                  per_call: int, full_iterations: float, passes: float, step: float,
                                  prompt: float) -> float:
    """timing.py's decode: the slowest engine's extra seconds over the mean engine's (`per_call` sequences per
    generate() call on each engine; `iteration(running, context)` the decode iteration; its lone sequence at the full
    batch's mean context)."""
    excess = slowest_engine_excess(rollout_engine_count(s, rs), per_call, s.completion_len, longest_completion_len(s))
    if not excess:
        return 0.0
    lone = iteration(1, prompt + s.completion_len / 2)[0]
    return slowest_engine_seconds(excess, full_iterations, passes, step, lone)


__all__ = ["slowest_engine_decode_seconds", "slowest_engine_excess", "slowest_engine_seconds", "spread_cv"]
