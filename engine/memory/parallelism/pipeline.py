"""Pipeline stages: which decoder layers each stage holds, and how many micro-batches' activations it holds at
its peak.

PyTorch's `torch.distributed.pipelining` schedules (and Megatron's, which agree on these counts):

* GPipe runs every micro-batch's forward before any backward: a stage holds all of them.
* 1F1B warms up with `pp - stage` forwards (`Schedule1F1B`), then alternates one forward and one backward.
* Interleaved 1F1B gives each rank `vpp` model chunks; rank r warms up with
  `(vpp - 1) * per_round + 2 * (pp - 1 - r)` chunk forwards (`ScheduleInterleaved1F1B._get_warmup_ops`,
  per_round = micro-batches // max(1, micro-batches // pp)), plus the one steady-state forward before its
  first backward, going through the chunks a group of per_round micro-batches at a time; a chunk is 1/vpp of
  the rank's layers, except where Megatron counts the embedding or the loss as a layer of the split.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from ...frameworks.defaults import defaults_for
from ...scenario.pipeline_ends import head_stage, holds_head, rank_chunks
from .deepspeed_partition import deepspeed_stage_counts
from .layout import layout_stage_layers
from .zero_bubble import ZERO_BUBBLE_SCHEDULES, zero_bubble_in_flight


class _PipelineSettings(Protocol):
    framework: str
    pp: int
    pp_schedule: str
    vpp: int
    grad_accum: int
    pipeline_split_accounts_for: tuple[str, ...]
    pipeline_layout: str
    pipeline_partition: str


def megatron_stage_layers(s: _PipelineSettings, layers: int) -> list[int] | None:
    """Decoder layers of each pipeline rank when Megatron counts the embedding and/or the loss as a layer of the
    split (account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split): megatron/core/transformer/
    transformer_block.py get_num_layers_to_build splits layers + 1 (+ 1) evenly over pp x vpp chunks and builds
    one layer fewer in the first chunk of the first rank (the last chunk of the last rank). None: a plain split
    (not asked, one stage, or a count Megatron refuses because it does not divide)."""
    first, last = ("embedding" in s.pipeline_split_accounts_for), ("loss" in s.pipeline_split_accounts_for)
    total = layers + first + last
    if s.pp == 1 or not (first or last) or total % (s.pp * s.vpp):
        return None
    counts = [total // s.pp] * s.pp
    counts[0] -= first
    counts[head_stage(s)] -= last  # the last chunk's rank (pipeline_ends.py: rank 0 in a V)
    return counts


def stage_layer_ranges(layers: int, pp: int) -> list[range]:
    """Even split; the first stages take the remainder (Megatron's uniform split)."""
    return list(_even_ranges(layers, pp))  # a copy: the caller may change its list


@lru_cache(maxsize=1024)  # every estimate and step time of a search splits the same few (layers, pp)
def _even_ranges(layers: int, pp: int) -> tuple[range, ...]:
    base, extra = divmod(layers, pp)
    ranges, start = [], 0
    for i in range(pp):
        n = base + (1 if i < extra else 0)
        ranges.append(range(start, start + n))
        start += n
    return tuple(ranges)


def scenario_stage_ranges(s: _PipelineSettings, layers: int) -> list[range]:
    """The scenario's split: its Megatron pipeline layout's, Megatron's when it counts the embedding or the loss as a
    layer, DeepSpeed's partition method's (pipeline_partition), else the even one."""
    counts = layout_stage_layers(s, layers) or megatron_stage_layers(s, layers)
    if counts is None and s.pp > 1 and s.pipeline_partition != "even":
        counts = list(deepspeed_stage_counts(layers, s.pp, s.pipeline_partition))
    if counts is None:
        return stage_layer_ranges(layers, s.pp)
    starts = [sum(counts[:i]) for i in range(s.pp)]
    return [range(a, a + n) for a, n in zip(starts, counts, strict=True)]


def _uneven_chunks(s: _PipelineSettings, stage: int, layers: int, chunk_forwards: int, per_round: int) -> float | None:
    """Micro-batches of the stage's whole layer set in `chunk_forwards` chunk forwards when its chunks are uneven
    (Megatron's split counting the embedding or the loss): each forward weighs its chunk's share of the layers."""
    counts = megatron_stage_layers(s, layers) if layers and s.vpp > 1 else None
    if counts is None:
        return None
    first, last = ("embedding" in s.pipeline_split_accounts_for), ("loss" in s.pipeline_split_accounts_for)
    per_chunk = (layers + first + last) // (s.pp * s.vpp)
    sizes = [per_chunk] * s.vpp
    sizes[0] -= first and stage == 0
    sizes[-1] -= last and stage == s.pp - 1
    if sum(sizes) == per_chunk * s.vpp:
        return None
    # warm-up forwards run a group of per_round micro-batches through chunk 0, then chunk 1, ... (Megatron's
    # interleaved schedule, get_model_chunk_id)
    kept = sum(sizes[(j // per_round) % s.vpp] for j in range(chunk_forwards))
    return kept / counts[stage]


def micro_batches_in_flight(s: _PipelineSettings, stage: int, layers: int = 0, w_share: float = 1.0) -> float:
    """Micro-batches of the stage's whole layer set alive at its peak (fractional for interleaved chunks).
    layers: the model's decoder layers, needed only to weigh Megatron's uneven chunks; w_share: what a micro-batch
    whose weight gradients a zero-bubble schedule defers keeps, as a share of a whole one (zero_bubble.py)."""
    if s.pp == 1:
        return 1
    ga = s.grad_accum
    if s.pp_schedule == "gpipe":
        return ga
    if s.pp_schedule in ZERO_BUBBLE_SCHEDULES:
        return zero_bubble_in_flight(s.pp_schedule, s.pp, stage, ga, w_share)
    if s.pp_schedule == "interleaved-1f1b" and s.vpp > 1:
        per_round = ga // max(1, ga // s.pp)
        if defaults_for(s.framework).pipeline_frees_sent_outputs:
            # Megatron's schedules (megatron/core/pipeline_parallel/schedules.py get_pp_rank_microbatches) run
            # microbatch_group_size_per_vp_stage micro-batches through a chunk before the next, which its
            # arguments default to the pipeline size whatever the number of micro-batches
            per_round = s.pp
        chunks = min((s.vpp - 1) * per_round + 2 * (s.pp - 1 - stage) + 1, ga * s.vpp)
        uneven = _uneven_chunks(s, stage, layers, chunks, per_round)
        return chunks / s.vpp if uneven is None else uneven
    return min(s.pp - stage, ga)


def pipeline_buffers(s: _PipelineSettings, stage: int, hidden_elems: float, logits_elems: float, residual: int,
                     compute: int, keep_outputs: bool = True, recv_once: bool = False) -> tuple[float, float]:
    """(receive buffers, kept outputs) in bytes, alive the whole step (torch.distributed.pipelining).

    Each stage chunk allocates, once, one receive buffer per micro-batch for the activations it gets from
    the previous chunk and one for the gradients it gets from the next (hidden_elems = b·s·h per
    micro-batch). The last chunk keeps every micro-batch's output (the logits) when the schedule returns
    them, PyTorch's default, until the next step replaces them (torchtitan passes return_outputs=False).
    recv_once: the receive buffers are allocated once and reused by every micro-batch (DeepSpeed's PipelineEngine).
    """
    if s.pp == 1:
        return 0.0, 0.0
    chunks = rank_chunks(s, stage)
    last_chunk = s.pp * len(chunks) - 1
    recv = 0.0
    for c in chunks:
        recv += (c > 0) + (c < last_chunk)
    recv *= (1 if recv_once else s.grad_accum) * hidden_elems * residual
    outputs = s.grad_accum * logits_elems * compute if keep_outputs and last_chunk in chunks else 0.0
    return recv, outputs


def outputs_in_flight(s: _PipelineSettings, stage: int, logits_elems: float, compute: int,
                      keep_outputs: bool) -> float:
    """Bytes of the last chunk's outputs (the logits) alive during the step when the schedule does not return them.

    The stage keeps each micro-batch's output in its forward cache until that micro-batch's backward (the
    backward starts from it), so the micro-batches in flight on the last chunk keep theirs; returned outputs
    (keep_outputs) are those same tensors, counted by pipeline_buffers. Traced: ground_truth/distributed/*nokeep*.
    """
    if s.pp == 1 or keep_outputs or not holds_head(s, stage):
        return 0.0
    return losses_in_flight(s) * logits_elems * compute


def losses_in_flight(s: _PipelineSettings) -> int:
    """Micro-batches whose loss graph (fp32 log-softmax) the last stage holds at once.

    GPipe computes every micro-batch's loss in its forward phase; 1F1B (and the last chunk of interleaved
    1F1B) runs each loss backward right after its forward.
    """
    return s.grad_accum if s.pp > 1 and s.pp_schedule == "gpipe" else 1
