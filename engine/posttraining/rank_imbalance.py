"""Padding-free micro-batches at the pace of their longest rank (issue 23: verl's scoring and update passes; branch
h-verlscore, the what-if of benchmarks/verl_rank_imbalance.py taken into the estimate).

verl cuts each rank's share of the step into micro-batches of a fixed number of sequences: compute_log_prob's
`batch.split(micro_batch_size)` (volcengine/verl 9466d371e verl/workers/actor/dp_actor.py compute_log_prob, the old
policy's pass and the adapter-off reference's alike, fsdp_workers.py lines 679-731) and update_policy's
`mini_batch.split(ppo_micro_batch_size_per_gpu)` with use_dynamic_bsz False (the config's default,
trainer/config/ppo_trainer.yaml). With use_remove_padding a micro-batch computes only its real tokens, so the ranks
hold different token counts in the same micro-batch: _balance_batch evens the ranks' totals over the whole step
(ray_trainer.py _balance_batch, get_seqlen_balanced_partitions(equal_size=True); trainer.balance_batch True by
default), not each micro-batch. Every FSDP unit's all-gather needs all ranks, and FSDP1 keeps the host at most two
units ahead of its GPU (limit_all_gathers: pytorch torch/distributed/fsdp/_runtime_utils.py _unshard, the free-event
queue's `event.synchronize()`), so every layer of a micro-batch waits for the rank holding the most tokens.

For n ranks, micro-batches of m sequences of mean tokens mu and per-sequence spread sigma, k micro-batches a rank a
pass: given the ranks' equal totals a micro-batch's sum spreads sigma sqrt(m) sqrt(1 - 1/k) (the conditional spread of
one of k independent sums whose total is fixed), and the longest of n ranks holds e_n of those spreads above the mean
(e_n: the expected maximum of n standard normals, 1.4236 for 8, Harter 1961), so the pass's per-token GPU work runs
1 + e_n sigma sqrt(1 - 1/k) / (mu sqrt(m)) times as long. sigma: the completions' spread alone, the maximum-entropy
density of the stated mean and longest (length_spread.py, ASSUMED as there: no source states a rollout's length
distribution); the prompts' own spread is left out, so the factor is a lower bound where prompts differ in length.
Read from each row's log, the range of global_seqlen/minmax_diff gives the same order (benchmarks/
verl_rank_imbalance.py, docs/time-model-notes.md h-verlfsdp1); where a scenario states it (sequence_len_std, the
whole sequence's spread, prompts included) that spread is taken instead.

By token count (h-verldynbsz; verl's use_dynamic_bsz, stated as max_tokens_per_micro_batch with packing): verl
cuts each batch into ceil(tokens / max_token_len) micro-batches, the count all-reduced to the MAX over the ranks so
every rank runs as many (the FSDP gathers need them all), and the rank's sequences partitioned into them by
Karmarkar-Karp on their tokens (volcengine/verl@9e4074b7, the play-verl runs' date, verl/utils/seqlen_balancing.py
rearrange_micro_batches lines 216-247, get_seqlen_balanced_partitions(equal_size=False)). A log-prob pass cuts the
rank's whole share so (dp_actor.py compute_log_prob lines 212-215; log_prob_use_dynamic_bsz follows the actor's,
ppo_trainer.yaml), and _balance_batch has evened the ranks' shares: each micro-batch holds 1/k of an equal total, no
rank waits (factor 1). The update cuts each mini-batch so (dp_actor.py update_policy lines 265-278: the rank's share
split into mini-batches of ppo_mini_batch_size sequences, each rearranged): every micro-batch holds 1/k of its rank's
mini-batch, so the longest rank's mini-batch sets the pace, the formula above with m the mini-batch's sequences a
rank (the scenario's micro_batch) and k the mini-batches a step (its grad_accum; estimate.py _token_budget runs each
as its micro-batches)."""

from __future__ import annotations

import math

from ..frameworks import defaults_for
from ..scenario import Scenario, as_laid_out
from .length_spread import expected_max_of_normals, spread_share
from .longest_completion import longest_completion_len


def completion_spread_tokens(s: Scenario) -> float:
    """Per-sequence spread of the completions' tokens: the longest x spread_share(mean / longest)."""
    longest = longest_completion_len(s)
    return longest * spread_share(s.completion_len / longest) if longest else 0.0


def sequence_spread_tokens(s: Scenario) -> float:
    """Per-sequence spread of a step's tokens: the scenario's sequence_len_std where it states one (a run's log),
    else the completions' assumed spread (completion_spread_tokens)."""
    return float(s.sequence_len_std) if s.sequence_len_std is not None else completion_spread_tokens(s)


def by_token_count(train: Scenario) -> bool:
    """Whether the micro-batches are cut by token count (verl's use_dynamic_bsz: a token budget with packing)."""
    return train.packing != "none" and train.max_tokens_per_micro_batch > 0


def reads_sequence_spread(s: Scenario) -> bool:
    """Whether the ranks' micro-batches can hold different token counts, so that the longest-rank wait reads the
    sequences' spread (sequence_len_std): the framework cuts the passes into micro-batches of a fixed number of
    sequences itself (PostTrainingDefaults.micro_batches_by_count: verl's) and they are padding-free. The window shows
    the spread's row on it (gui/packing_rows.py)."""
    return defaults_for(s.framework).posttraining.micro_batches_by_count and s.packing == "padding-free"


def _wait_terms(train: Scenario, scoring: bool = False) -> tuple[int, int, int, float, float] | None:
    """(n ranks, k micro-batches a rank a pass, m sequences a micro-batch, mu tokens a sequence, sigma tokens) of the
    longest-rank wait of `train` (longest_rank_factor); None where no rank waits."""
    laid = as_laid_out(train)
    ranks, k, m, mu = laid.dp, train.grad_accum, train.micro_batch, float(train.seq_len)
    if not (reads_sequence_spread(train) and laid.effective_zero == 3 and ranks > 1 and k > 1 and m > 0 and mu > 0):
        return None
    if by_token_count(train):
        if scoring:
            return None
        # the mini-batches a step: estimate.py _token_budget ran each as ceil(tokens / budget) micro-batches
        k = train.grad_accum // max(1, math.ceil(m * mu / train.max_tokens_per_micro_batch))
        if k <= 1:
            return None
    return ranks, k, m, mu, sequence_spread_tokens(train)


def longest_rank_factor(train: Scenario, scoring: bool = False) -> float:
    """The longest rank's tokens in each micro-batch of a post-training step's training scenario `train`
    (engine/posttraining/estimate.py training_scenario: micro_batch sequences of seq_len tokens, grad_accum of them a
    rank a pass; the step's completion_len and max_completion_len) over the ranks' mean: 1 unless the framework cuts
    the passes itself (PostTrainingDefaults.micro_batches_by_count), the micro-batches are padding-free and FSDP's
    gathers tie the ranks (module docstring); `scoring`: a log-prob pass, which by token count waits for no rank."""
    terms = _wait_terms(train, scoring)
    if terms is None:
        return 1.0
    ranks, k, m, mu, sigma = terms
    return 1.0 + expected_max_of_normals(ranks) * sigma * math.sqrt(1 - 1 / k) / (mu * math.sqrt(m))


def rank_wait_inputs(train: Scenario) -> tuple[tuple[str, object], ...]:
    """The figures the update's wait formula reads for `train`, by the formula's names (term_words.py
    RL_FORMULAS["rank_imbalance"]), for the Time tab's hover (user audit 15: it gave the formula without them); ()
    where no rank waits."""
    terms = _wait_terms(train)
    if terms is None:
        return ()
    ranks, k, m, mu, sigma = terms
    source = "sequence_len_std" if train.sequence_len_std is not None else "completion_len, max_completion_len"
    return (("n", ranks), ("e_n", f"{expected_max_of_normals(ranks):.3g}"), ("sigma", f"{sigma:,.0f}"),
            ("sigma_from", source), ("k", k), ("m", m), ("tokens_a_sequence", f"{mu:,.0f}"),
            ("factor", f"{longest_rank_factor(train):.3g}"))


def update_rank_wait_seconds(train: Scenario, compute_seconds: float) -> float:
    """Seconds the update's micro-batches wait for their longest rank: (longest_rank_factor - 1) x the training step's
    per-token work `compute_seconds` (its matmuls, memory-bound passes and recompute: engine/timing breakdown_seconds
    compute + memory_bound + recompute)."""
    return (longest_rank_factor(train) - 1.0) * compute_seconds


__all__ = ["by_token_count", "completion_spread_tokens", "longest_rank_factor", "rank_wait_inputs", "reads_sequence_spread",
           "sequence_spread_tokens", "update_rank_wait_seconds"]
