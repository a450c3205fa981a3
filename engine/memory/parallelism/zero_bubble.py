"""Micro-batches a stage holds at its peak under the zero-bubble schedules (engine/timing/zero_bubble.py says what
they are): arXiv:2401.10241 (Qi, Wan, Huang, Lin, ICLR 2024) Table 2 and section 2.3. Worker i of p (0-based here)
holds (p - i) M_B + i M_W under ZB-H1, whose bubble ZB-1p matches (Table 5), and (2p - 2i - 1) M_B + 2i M_W under
ZB-H2, the layout the automatic ZB-2p reaches within its 2p M_B limit (section 5.4): M_B for a micro-batch between
its F and its B, M_W for one whose W is still pending, which keeps only what WeightGradStore holds, each parallel
linear's input and output gradient (sail-sg/zero-bubble-pipeline-parallelism at f68d3879 megatron/core/
weight_grad_store.py WeightGradStore.put(total_input, grad_output, ...))."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...frameworks.parallelism_row import ZERO_BUBBLE_SCHEDULES

if TYPE_CHECKING:
    from ...models.architecture import ModelSpec
    from ...scenario import Scenario


def deferred_weight_share(hidden: int, heads: int, seq_len: int, eager_attention: bool) -> float:
    """M_W / M_B per layer, the paper's Table 1: M_W = 32 s b h (the linears' inputs and output gradients) against
    M_B = s b (34 h + 5 a s) (Korthikanti et al. 2023), the 5 a s of the attention scores only where the attention
    keeps them (eager; a fused kernel keeps none)."""
    scores = 5 * heads * seq_len if eager_attention else 0
    return 32 * hidden / (34 * hidden + scores)


def pending_w_share(s: Scenario, spec: ModelSpec) -> float:
    """deferred_weight_share of the scenario's model; 1.0 (unused) under the other schedules."""
    if s.pp_schedule not in ZERO_BUBBLE_SCHEDULES:
        return 1.0
    return deferred_weight_share(spec.hidden, spec.heads, s.seq_len, s.attention == "eager")


def zero_bubble_in_flight(schedule: str, pp: int, stage: int, grad_accum: int, w_share: float) -> float:
    """Micro-batches of the stage's whole layer set at its peak: those between F and B, plus those whose W is pending
    weighed by `w_share` (deferred_weight_share); no more than the step's micro-batches in all. ZB-V (zbv) peaks at
    p M_B on every rank, 1F1B's first stage (arXiv:2401.10241 section 6: 'a peak activations memory of p M_B',
    'inherently balanced across all workers'; the fork's megatron/core/pipeline_parallel/v_schedule.py at f68d3879
    PipelineGraph max_mem, f_mem x 2p of a chunk holding half a rank's layers; its README: 1x 1F1B's activations)."""
    if schedule == "zbv":
        return min(pp, grad_accum)
    kept = (pp - stage) if schedule == "zb-h1" else (2 * (pp - stage) - 1)
    pending = stage if schedule == "zb-h1" else 2 * stage
    kept = min(kept, grad_accum)
    return kept + min(pending, max(0, grad_accum - kept)) * w_share
