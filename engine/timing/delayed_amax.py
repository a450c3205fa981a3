"""The amax all-reduce of Transformer Engine's delayed scaling, once per fp8_autocast region and pass, on the stream.

Megatron-Core wraps each model chunk's TransformerBlock forward in one transformer_engine.pytorch.fp8_autocast whose
fp8_group is parallel_state.get_amax_reduction_group(with_context_parallel=True, tp_only_amax_red=...)
(NVIDIA/Megatron-LM core_v0.10.0 megatron/core/transformer/transformer_block.py lines 476-483; parallel_state.py line
1132): the tensor x data x context-parallel ranks of the pipeline stage, or the tensor x context-parallel ranks where
tp_only_amax_red is set. Since Transformer Engine pull request #575 (NVIDIA/TransformerEngine 73f8d90, 2024-04-12,
in v1.6), FP8GlobalStateManager.fp8_autocast_exit calls reduce_and_update_fp8_tensors(forward=True), which
concatenates the region's amaxes and all-reduces them with ReduceOp.MAX, async_op=False (v1.13
transformer_engine/pytorch/fp8.py lines 290-300 and 397-404), and the region's first module does the same for the
backward amaxes at the end of its backward (linear.py line 611, layernorm_linear.py 739, layernorm_mlp.py 1115). So
each micro-batch of each model chunk issues two all-reduces of a few hundred bytes over that group, which the compute
stream waits for: NCCL's small-message latency (collectives.small_message_latency), nothing to hide behind. Across
many nodes the group is the whole stage (tp x dp x cp ranks), and its latency grows with the nodes. Before #575
(Transformer Engine up to bfe21c3, v1.6.0.dev0 of April 2024: NeMo 24.05's container) NVTE_DP_AMAX_REDUCE_INTERVAL=0
reduced over the TP group only and NVTE_ASYNC_AMAX_REDUCTION=1 did it asynchronously; later releases no longer read
either variable, so a recipe that exports them still reduces over the whole group unless it sets tp_only_amax_red.
Current scaling, MXFP8 and blockwise scales keep no amax history to reduce here (sequence_parallel.py costs current
scaling's own TP amaxes). Megatron's frameworks only. No Qt."""

from __future__ import annotations

from typing import Any

from ..frameworks import defaults_for
from ..scenario import Scenario
from .collectives import ALL_REDUCE, nccl_nvls, small_message_latency
from .hardware import Hardware
from .layer_settings import fp8_casts, te_delayed_scaling
from .links import nvlink_domain
from .pipeline import model_chunks

# Transformer Engine v1.13: one reduce_and_update_fp8_tensors at the forward's autocast exit, one in the backward
REDUCTIONS_PER_CHUNK = 2


def delayed_amax_seconds(s: Scenario, prof: dict[str, Any], hw: Hardware) -> float:
    """Seconds per micro-batch the rank's compute stream waits for delayed scaling's amax all-reduces (the module's
    text): REDUCTIONS_PER_CHUNK per model chunk, each the small-message latency over the amax reduction group (tp x
    cp x dp consecutive ranks in Megatron's order, or tp x cp with tp_only_amax_red). 0 without fp8, under another
    recipe, outside Megatron's frameworks, or where the group is one rank."""
    if not (te_delayed_scaling(fp8_casts(s, prof)) and defaults_for(s.framework).takes_megatron_arguments):
        return 0.0
    ranks = s.tp * s.cp * (1 if s.tp_only_amax_red else s.dp)
    if ranks <= 1:
        return 0.0
    latency = small_message_latency(hw, ALL_REDUCE, ranks, ranks, nvlink_domain(s, hw), nvls=nccl_nvls(prof))
    return REDUCTIONS_PER_CHUNK * model_chunks(s) * latency
