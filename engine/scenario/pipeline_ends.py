"""Which pipeline rank holds the model's two ends: the embedding (the first model chunk) and the output layer with
the loss (the last one). Every site that adds a stage's extra work (the embedding gather, the head's matmul and loss,
their weights, the MTP block beside the head, the last chunk's outputs) asks here, so a placement is declared once.

Without a V both ends sit where their chunk's order puts them: chunk v * pp + r on rank r (Megatron's interleaving,
torch.distributed.pipelining's 'loop' style), so the embedding on rank 0 and the head on rank pp - 1. ZB-V
(pp_schedule zbv) places 2 pp chunks in a V: rank r holds chunks r and 2 pp - 1 - r, so rank 0 holds the first and
the last (arXiv:2401.10241 section 6: 'layers 1-2 and layers 15-16 to worker 1' of a 16-layer model on 4 stages;
sail-sg/zero-bubble-pipeline-parallelism at f68d3879 megatron/arguments.py lines 192-203: two chunks a rank under
--zero-bubble-v-schedule; pytorch/torchtitan b5bcd76c66d0 torchtitan/distributed/pipeline_parallel.py lines 550-567:
ScheduleZBVZeroBubble's style 'v', rank r holds stages r and 2 pp - 1 - r). The fork's last stage under the V is
rank 0's second chunk (megatron/core/parallel_state.py lines 738-740 is_pipeline_last_stage), and its embedding
group is rank 0 alone (lines 391-392), so a tied embedding's two gradient copies are summed on the rank
(finalize_model_grads.py lines 24-45, local_binary_reduction), no exchange (engine/timing/tied_embeddings.py)."""

from __future__ import annotations

from typing import Protocol

V_SCHEDULES = ("zbv",)  # the pipeline schedules placing their chunks in a V
V_CHUNKS = 2  # model chunks a rank under a V (the fork's arguments.py line 201; torchtitan asserts 2 stages a rank)


class _PipelineSettings(Protocol):
    pp: int
    vpp: int
    pp_schedule: str


def v_placed(s: _PipelineSettings) -> bool:
    """The scenario's chunks sit in a V (ZB-V) rather than in a loop."""
    return s.pp > 1 and s.pp_schedule in V_SCHEDULES


def head_stage(s: _PipelineSettings) -> int:
    """The pipeline rank holding the last model chunk (the output layer and the loss): 0 in a V, else pp - 1."""
    return 0 if v_placed(s) else s.pp - 1


def holds_head(s: _PipelineSettings, stage: int) -> bool:
    """The rank holds the last model chunk (head_stage)."""
    return stage == head_stage(s)


def rank_chunks(s: _PipelineSettings, stage: int) -> list[int]:
    """The model chunks (0-based, in the model's order) the rank runs: r and 2 pp - 1 - r in a V, else r + k pp."""
    if v_placed(s):
        return [stage, 2 * s.pp - 1 - stage]
    return [stage + k * s.pp for k in range(s.vpp)]
