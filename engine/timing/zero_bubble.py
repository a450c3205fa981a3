"""The bubble of the zero-bubble pipeline schedules (arXiv:2401.10241, Qi, Wan, Huang, Lin, Sea AI Lab, ICLR 2024).

Each backward is split into B, the input-gradient pass the previous stage waits for, and W, the weight-gradient
GEMMs nothing waits for, which the schedule defers into the bubbles. In the paper's Megatron-LM fork
(sail-sg/zero-bubble-pipeline-parallelism at f68d3879, the arxiv branch) W is exactly the parallel linears'
weight-gradient GEMMs: megatron/core/tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication.backward
puts (total_input, grad_output, weight, wgrad_gemm_accum) into megatron/core/weight_grad_store.py WeightGradStore
under --enable-zero-bubble instead of running it, and the schedule (megatron/core/pipeline_parallel/zb_schedules.py)
pops it where its W pass stands; the output layer's weight gradient is one of them. Its exchanges are asynchronous
batch_isend_irecv requests waited on by the pass that consumes them (zb_schedules.py fused_pipeline_ops), no
torch.cuda.synchronize() after each as Megatron's 1F1B.

1F1B leaves (p - 1)(T_F + T_B + T_W) idle (Table 2): the F-B chain's (p - 1)(T_F + T_B) plus the W passes inside it.
A zero-bubble schedule fills that chain's gaps with W passes of micro-batches whose B has run, as many as its
activation limit lets it defer, each then holding M_W (engine/memory/parallelism/zero_bubble.py):

* zb-h1: ZB-1p, the automatic schedule under the memory of 1F1B (limit p M_B: the fork's
  --zero-bubble-max-pending-backward p). Its bubble rates equal ZB-H1's in all 12 settings of the paper's Table 5,
  (p - 1)(T_F + T_B - T_W) (Table 2): p - 1 deferred W passes.
* zb-2p: ZB-2p, the automatic schedule under 2 p M_B (examples/pretrain_zero_bubble.sh ZERO_BUBBLE_MEM_LIMIT = 2p),
  which defers every W but the last micro-batch's: (p - 1)(T_F + T_B) - (m - 1) T_W, the paper's Appendix H for
  m <= p ('(m + p - 1)(T_F + T_B) + T_W' an iteration) and, when positive, past it: with Table 9's profiled times it
  gives Table 5's ZB-2p bubble rates with 2 (p - 1) T_comm added (1.5B at m = 24: 4.33%, as printed; the others
  0.15-0.92% against 0.10-0.66%), and ZB-H1's formula Table 5's ZB-1p rates 0.1-0.7 point low
  (tests/test_zero_bubble_schedule.py). With m <= p ZB-1p and ZB-2p are 'essentially the same' (Appendix H): both defer
  m - 1.
* zbv: ZB-V (section 6), two chunks a rank in a V (engine/scenario/pipeline_ends.py) under 1F1B's memory; zero
  bubble where T_F = T_B = T_W. The paper gives no closed form for other times; its Table 8 rates of ZB-V, computed
  from the ZB-V runs' profiled times, are within 0.85-1.02x of ZB-H2's (6.2B p 16: 0.0697 against 0.0823, 14.6B
  p 24: 0.0638 against 0.0628, 28.3B p 32: 0.0593 against 0.0629), so it takes ZB-H2's (p - 1)(T_F + T_B - 2 T_W)
  (Table 2), over whole-rank times (both chunks), with min(m - 1, 2 (p - 1)) W deferred. Its exchanges are twice
  1F1B's a micro-batch (2 p chunk boundaries; the fork's README: pipeline communication volume 2x) (pipeline.py).

The exchanges' 2 (p - 1) T_comm is the term every schedule already pays (engine/timing/pipeline.py). Stages differ
(the first and last hold the embedding and the head): the sums run over the stages outside the busiest, as the 1F1B
bubble does (pipeline.py stages_once), and T_W is their mean W."""

from __future__ import annotations

from ..frameworks.parallelism_row import ZERO_BUBBLE_SCHEDULES  # declared once, with the framework rows


def deferred_w_passes(schedule: str, pp: int, grad_accum: int) -> int:
    """The W passes a zero-bubble schedule moves into the F-B chain (ZB-1p p - 1, ZB-2p m - 1, ZB-V
    min(m - 1, 2 (p - 1)) on top of 1F1B's own W; each at most m - 1); 0 for the other schedules."""
    if schedule not in ZERO_BUBBLE_SCHEDULES or pp < 2:
        return 0
    if schedule == "zbv":
        return min(grad_accum - 1, 2 * (pp - 1))
    return min(grad_accum, pp if schedule == "zb-h1" else grad_accum) - 1


def zero_bubble_fill(schedule: str, pp: int, grad_accum: int, fill: float, fill_wgrad: float) -> float:
    """The bubble's compute seconds of a zero-bubble schedule, where 1F1B's is `fill` (every stage's F + B + W but
    the busiest's, pp - 1 stages); `fill_wgrad`: the W part of that sum. Other schedules keep `fill`. ZB-V: ZB-H2's
    (p - 1)(T_F + T_B - 2 T_W), 2 (p - 1) deferred W on top of 1F1B's own W."""
    if schedule not in ZERO_BUBBLE_SCHEDULES or pp < 2:
        return fill
    deferred = deferred_w_passes(schedule, pp, grad_accum)
    return max(0.0, fill - fill_wgrad - deferred * fill_wgrad / (pp - 1))
