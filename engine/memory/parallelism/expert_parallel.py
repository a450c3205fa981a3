"""Expert parallelism the PyTorch way (torchtitan): experts split over ep of the data-parallel ranks, tokens moved
by two all-to-alls. Traced in tests/data/ground_truth/distributed/*_ep* (validation/expert_parallel.py mirrors
torchtitan's AllToAllTokenDispatcher around a transformers MoE model's grouped-GEMM experts).

Per MoE layer on one rank, with balanced routing (what a plan can assume: every rank sends and receives
b·s/cp·top_k token copies, every local expert gets the same share):

* the local experts see as many routed rows as on one GPU (t·top_k), so the experts' saved tensors are
  unchanged, but the routing scores are applied after the combine all-to-all in fp32
  (``(out.float() * scores).to(bf16)``): the multiply keeps the fp32 copy of the returned rows,
  4 bytes x t·top_k·h, where transformers' own experts keep the bf16 expert outputs;
* the dispatch and combine buffers (the gathered token copies, the all-to-all output, the expert-major
  permutation, the un-permuted output) live only inside the layer's forward and backward: none is alive at
  the loss, the step's peak moment, nor at the end of backward once the layer has finished;
* FSDP2 shards the experts over the dp/ep ranks holding the same experts and the rest of the layer over all
  data-parallel ranks, one FSDP unit per layer with two parameter groups (torchtitan's per-parameter meshes):
  the layer's all-gather buffers are released with the layer, so none is held at the loss, and the root's
  pre-backward prefetches no layer before the loss backward.
"""

from __future__ import annotations

from typing import Protocol

from ...frameworks.defaults import defaults_for


class _EpSettings(Protocol):
    ep: int
    framework: str


def all_to_all_dispatch(s: _EpSettings, moe: bool) -> bool:
    """Whether tokens travel to their experts by torchtitan's all-to-all dispatch (expert parallelism on)."""
    return moe and s.ep > 1 and defaults_for(s.framework).ep_all_to_all_dispatch


def scored_output_bytes(dispatch: bool, compute_bytes: int) -> int:
    """Bytes per element of the expert outputs the routing-score multiply keeps for its backward."""
    return 4 if dispatch else compute_bytes
