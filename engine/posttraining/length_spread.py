"""How a MoE rollout's last pass drains: its sequences end one by one along the completions' spread (issue 23:
NeMo-RL's MoE GRPO steps; the generation's longest-sequence tail; branch h-nemorl3).

vLLM drops a finished sequence from the running batch at the end of the iteration that finished it (vLLM 0.11.2, the
PyPI wheel, vllm/v1/core/sched/scheduler.py update_from_output lines 964-1112: each stopped request joins
stopped_running_reqs, then `self.running = remove_all(self.running, stopped_running_reqs)`), so
once no sequence waits, iteration t runs the sequences whose completion is longer than t: the pass's sequences times
the completions' survival function. longest_completion.py takes the most uneven spread the stated mean and longest
allow (every sequence at the mean, then one on alone to the longest), which prices every term that is affine in the
running sequences exactly, whatever the spread. A MoE's expert read is not affine: an iteration over n tokens reads
the experts they pick, 1 - (1 - k/E)^n of them (engine/serving/weights.py touched_expert_read_fraction; vLLM's
fused_moe_kernel, model_executor/layers/fused_moe/fused_moe.py lines 176-183, loads the weights of each block's
expert, and moe_align_block_size gives blocks only to experts holding tokens), concave in n, so by Jensen the lone
tail is the least expert read any spread with that mean and longest can give: a MoE's tail is priced at a spread.
A dense model's other non-affine terms go both ways (the roofline's and the host floor's max() are convex, so the
uneven spread is their most; the KV read follows the spread's second moment, the uneven spread's least), so its
tail stays the documented bound of longest_completion.py (tried over every row: the spread below moves verl's
eager, host-bound rollouts' generation up to 8 points shorter, docs/time-model-notes.md h-nemorl3). An engine
decoding from CUDA graphs has no host floor (timing.py: no launches without a graph), so its dense decode is
affine in the running sequences but for the KV read (and the roofline's max, memory-bound in these decodes: the
weights and the KV outweigh the batch's matmuls), whose second moment the lone tail leaves out: its last pass drains
along the spread too, the least-assuming price of the same spread (h-nemorlroll: NeMo-RL's and Unsloth's rollouts).
The spread: the sources state only the mean and the longest (NeMo-RL's performance summary 'G-Average Seq len' and
max_new_tokens), so it is the one that assumes nothing more, the maximum-entropy density on [0, longest] with that
mean, proportional to exp(u x / longest) (uniform at a mean of half the longest, mass towards the longest above it,
as truncated completions pile up at the cap). ASSUMED, not read from a run: no source here states a rollout's
length distribution. A direction, not used: a Qwen3-235B-A22B GRPO run on DAPO-Math with an 8,192-token cap had over
half its samples run to the cap (marin-community/marin issue #8653), where this spread at NeMo-RL's mean (5,713 of
8,071) leaves 14% past 95% of the longest, so the drain taken is if anything short. Integrated exactly over
SEGMENTS equal runs of iterations (8 gives the all-row figures of 16 and 32 within 0.1 point); each run's iteration
at its mean running count (at least one sequence until the longest, which the rows state is reached) and at its
middle's context (the pass's sequences started together)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..scenario import Scenario
from .longest_completion import longest_completion_len, tail_context_tokens, tail_iterations

SEGMENTS = 8  # equal runs of the drain's iterations, each at its exact mean running share


def _mean_share(u: float) -> float:
    """Mean of the density proportional to exp(u x) on [0, 1]."""
    if abs(u) < 1e-4:  # the series, where the closed form cancels
        return 0.5 + u / 12
    return 1 / (1 - math.exp(-u)) - 1 / u if u > 0 else math.exp(u) / (math.exp(u) - 1) - 1 / u


@lru_cache(maxsize=512)
def max_entropy_rate(mean_share: float) -> float:
    """u of the maximum-entropy density on [0, 1] whose mean is `mean_share` (0 < mean_share < 1): bisection, the mean
    rising with u."""
    low, high = -500.0, 500.0
    for _ in range(60):
        mid = (low + high) / 2
        if _mean_share(mid) < mean_share:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def survival_share(u: float, a: float, b: float) -> float:
    """Mean over [a, b] (shares of the longest) of the survival function S(x) = P(length > x) of that density."""
    if abs(u) < 1e-4:  # uniform, within 1e-4
        return 1 - (a + b) / 2
    if u > 0:  # S(x) = (1 - e^(u (x - 1))) / (1 - e^-u), kept finite for large u
        integral = (b - a) - (math.exp(u * (b - 1)) - math.exp(u * (a - 1))) / u
        return integral / ((1 - math.exp(-u)) * (b - a))
    integral = (math.exp(u * b) - math.exp(u * a)) / u - (b - a) * math.exp(u)  # S(x) = (e^(u x) - e^u) / (1 - e^u)
    return integral / ((1 - math.exp(u)) * (b - a))


def drain_runs(mean: float, longest: int) -> tuple[tuple[float, float, float], ...]:
    """(iterations, share of the pass still running, tokens each has generated at the run's middle) of the drain's
    SEGMENTS runs over `longest` iterations; one run of `mean` iterations at the whole pass where the longest is the
    mean."""
    if longest <= mean:
        return ((float(mean), 1.0, mean / 2),)
    u = max_entropy_rate(mean / longest)
    width = longest / SEGMENTS
    return tuple((width, survival_share(u, j / SEGMENTS, (j + 1) / SEGMENTS), (j + 0.5) * width)
                 for j in range(SEGMENTS))


def drain_seconds(iteration: Callable[[int, float], tuple[float, dict[str, float]]], concurrent: int, mean: float,
                  longest: int, prompt: float) -> float:
    """Seconds of one pass of `concurrent` sequences decoding until the longest completion, each run's iteration
    (`iteration(running, context)`, timing.py's decode iteration) at its running sequences, at least one."""
    return sum(width * iteration(max(1, round(concurrent * share)), prompt + generated)[0]
               for width, share, generated in drain_runs(mean, longest))


def last_pass_tail_seconds(iteration: Callable[[int, float], tuple[float, dict[str, float]]], s: Scenario, spec: Any,
                           concurrent: int, calls: int, step: float, prompt: float, graphs: bool = False) -> float:
    """Seconds each call's last pass decodes beyond the mean's iterations at the full pass (`step` each): a dense
    model's one sequence alone from the mean to the longest (longest_completion.py) where the engine launches its
    layers from the host (no CUDA graphs: the host floor's max() is convex in the running sequences), else (a MoE, or
    a dense model decoding from CUDA graphs, `graphs`: then each term is affine in the running sequences but the KV
    read, whose second moment the lone tail leaves out) the drain at the spread less the mean's iterations at the full
    pass; 0 where the longest is the mean."""
    tail = tail_iterations(s)
    if not tail:
        return 0.0
    if not spec.is_moe and not graphs:
        return calls * tail * iteration(1, tail_context_tokens(s))[0]
    drain = drain_seconds(iteration, concurrent, s.completion_len, longest_completion_len(s), prompt)
    return calls * (drain - s.completion_len * step)


SIMPSON_PANELS = 3600  # on [-9, 9]: e_8 to 1e-9 of Harter's 1.42360


@lru_cache(maxsize=64)
def expected_max_of_normals(n: int) -> float:
    """E[max of n independent standard normals]: the integral of x n phi(x) Phi(x)^(n-1) over [-9, 9] (Simpson's rule;
    0 for one): H. L. Harter (1961), 'Expected values of normal order statistics', Biometrika 48: 0.5642 for 2, 1.0294
    for 4, 1.4236 for 8, 1.7660 for 16. The slowest of several engines (engine_imbalance.py) and the longest of several
    ranks (rank_imbalance.py) both read it."""
    if n <= 1:
        return 0.0
    nd = statistics.NormalDist()
    a, b = -9.0, 9.0
    h = (b - a) / SIMPSON_PANELS
    total = 0.0
    for i in range(SIMPSON_PANELS + 1):
        x = a + i * h
        w = 1 if i in (0, SIMPSON_PANELS) else (4 if i % 2 else 2)
        total += w * x * n * nd.pdf(x) * nd.cdf(x) ** (n - 1)
    return total * h / 3


def spread_share(mean_share: float) -> float:
    """Standard deviation, as a share of the longest, of the maximum-entropy density on [0, 1] whose mean is
    `mean_share` (proportional to exp(u x), u = max_entropy_rate): sqrt(1 / u^2 - e^u / (e^u - 1)^2); 0 at either end."""
    if not 0.0 < mean_share < 1.0:
        return 0.0
    u = max_entropy_rate(mean_share)
    if abs(u) < 1e-4:  # the uniform density, where the closed form cancels
        return math.sqrt(1 / 12)
    return math.sqrt(max(0.0, 1 / u ** 2 - math.exp(u) / math.expm1(u) ** 2))


__all__ = ["SEGMENTS", "SIMPSON_PANELS", "drain_runs", "drain_seconds", "expected_max_of_normals", "last_pass_tail_seconds",
           "max_entropy_rate", "spread_share", "survival_share"]
