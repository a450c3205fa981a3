"""Megatron-LM's pipeline exchanges of 2021-2023, each a batch_isend_irecv followed by torch.cuda.synchronize().

NVIDIA/Megatron-LM megatron/p2p_communication.py _communicate at de7dc40f88 (2021-08-10, the SC21 runs), bbab79f86907
(2022-05-16, arXiv:2205.05198) and 285068c8 (2023-01-11, arXiv:2402.15627's baseline) posts the exchange's sends and
receives as one torch.distributed.batch_isend_irecv, waits on each request and then calls torch.cuda.synchronize() ('To
protect against race condition when using batch_isend_irecv()'). The host therefore waits for the GPU to drain before
every exchange and again for the transfer: nothing runs beside a transfer, and after it the GPU idles a device-to-host
round trip and a launch until the host issues the next kernel (presets/host_overhead.json sync_seconds,
launch_seconds; engine/timing/host.py charges the MoE dispatcher's synchronisations the same way).

Without sequence parallelism each send is split over the TP ranks and all-gathered over the TP group on arrival
(args.scatter_gather_tensors_in_pipeline, on unless --no-scatter-gather-tensors-in-pipeline; at bbab79f86907 and
285068c8 off under --sequence-parallel, whose tensors are 1/tp already): split_tensor_into_1d_equal_chunks sends a
slice of the flat tensor, gather_split_1d_tensor all-gathers into one new buffer, once per received tensor (no
rebuild of the stage's own output, unlike DeepSpeed's PipelineEngine).

Exchanges per micro-batch (megatron/schedules.py at the same commits): forward_backward_pipelining_without_interleaving
runs send_forward_recv_backward after each forward and send_backward_recv_forward after each backward, two exchanges
each carrying one tensor each way; forward_backward_pipelining_with_interleaving runs one
send_forward_backward_recv_forward_backward after each forward chunk + backward chunk pair, which sends the
activation to the next rank and the gradient to the previous one, both out of the GPU's own NIC: one exchange per
model chunk carrying two tensors each way. Each model chunk's activation and gradient cross a stage boundary.
"""

from __future__ import annotations

from typing import Any

from ..scenario import Scenario
from .host import host_call_seconds, host_figures


def synchronised(prof: dict[str, Any], chunks: int) -> bool:
    """Whether the framework's pipeline exchanges end in torch.cuda.synchronize() (presets/efficiency.json frameworks
    pipeline_p2p_synchronize): true, every schedule (Megatron-LM before Megatron-Core, which had no overlap_p2p_comm);
    "batch-p2p", the non-interleaved schedule only: Megatron-Core's _communicate synchronises when batch_p2p_comm and
    batch_p2p_sync (both default True, megatron/core/model_parallel_config.py at d98e8a64), Megatron-LM's
    argument_utils.py sets batch_p2p_comm = not overlap_p2p_comm and arguments.py turns overlap_p2p_comm off without
    the interleaved schedule (on by default with it: --no-overlap-p2p-communication is store_false); Megatron-Bridge
    does the same (src/megatron/bridge/training/comm_overlap.py at 067f987df: PP > 1 without VP, batch_p2p_comm True;
    with VP, overlap_p2p_comm True and batch_p2p_comm False)."""
    mode = prof.get("pipeline_p2p_synchronize", False)
    return mode is True or (mode == "batch-p2p" and chunks == 1)


def synced_exchange_seconds(s: Scenario, chunks: int, transfer_seconds: float, latency_seconds: float,
                            gather_seconds: float) -> float:
    """Seconds a micro-batch's pipeline exchanges hold its stage under Megatron-LM's synchronised exchanges.

    `chunks`: model chunks per pipeline rank (1 without interleaving); `transfer_seconds`: one tensor (or its 1/tp part)
    over the pipeline link, without latency; `latency_seconds`: the link's latency, once per exchange;
    `gather_seconds`: the TP all-gather of one received tensor (0 where nothing is split). Each chunk sends its
    activation on and its gradient back (2 x chunks tensors, each gathered where it arrives); the exchanges they travel
    in (2 without interleaving, one per chunk with it) each end in a synchronisation (round trip + the next launch)."""
    exchanges = 2 if chunks == 1 else chunks
    launch, _ = host_call_seconds(s)
    sync = host_figures()["sync_seconds"]["value"]
    return 2 * chunks * (transfer_seconds + gather_seconds) + exchanges * (latency_seconds + sync + launch)
