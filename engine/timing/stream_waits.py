"""What the GPU waits for beside its compute stream, and what the host's launches can hide behind.

Three resources run beside the compute stream: NCCL's collectives on their own stream, the copy engine's host <->
device copies, and the host, which issues every kernel. The first two are streams: once enqueued they run whether or
not the compute stream has work, and the compute stream waits for them through events, not the host (pytorch/pytorch
torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp WorkNCCL::synchronizeStream, 'Block the current stream on the NCCL
stream': ncclEndEvent_->block(currentStream); the host waits only under blockingWait_). FSDP copies an offloaded
shard in and then all-gathers it as one chain: _unshard runs pre_unshard (flat_param_to(device, non_blocking=True))
on pre_unshard_stream, then unshard_stream.wait_stream(pre_unshard_stream) and the all-gather on unshard_stream
(torch/distributed/fsdp/_runtime_utils.py _unshard, _flat_param.py pre_unshard). The host is not a stream: its
launches hide behind whatever keeps the GPU's queue full, and a compute stream held by another stream's event is a
full queue, so the host's wait (host.py, hf_host.py: the host behind the GPU's own work) hides behind the seconds the
compute stream waits for the other streams too: the step is then max(host-bound, GPU + stream waits), not their
sum. Each compute window second hides each chain once: the offloaded weights' copies hide only behind the window
the data-parallel traffic left. Both keep a step from getting shorter when work is added (tests/test_step_monotone.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from ..memory.states import Dtypes
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .data_parallel import data_parallel_seconds
from .gemm import Rates
from .hardware import Hardware
from .hf_host import synchronised_phases
from .host import syncs_per_forward
from .links import exposed


class StageWindow(Protocol):
    """What the stream waits read of the busiest stage (model.py's _Stage, a dataclass: the traffic with no window
    is timed on a copy whose forward and backward seconds are 0)."""

    params: float
    fwd: float  # seconds per micro-batch
    bwd: float


def param_stream_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                         busiest: StageWindow, spec: ModelSpec, dp_exposed: float) -> float:
    """Exposed seconds per step of streaming the offloaded weights in for the forward and the backward
    (offload optimizer+params: each micro-batch copies the rank's shard in twice over the host link), hidden behind
    the micro-batch's forward and backward as ZeRO-3's traffic is (zero3_overlap), less the window the data-parallel
    traffic already hides behind (`dp_exposed`: what data_parallel_seconds left exposed; the traffic with no window,
    less that, is what hid): a shard's copy and its all-gather are one chain, each window second credited once.
    0 without parameter offload."""
    if s.offload != "optimizer+params":
        return 0.0
    stream = 2 * busiest.params / max(s.dp, 1) * rates.elem_bytes / hw.host_bytes_per_s
    window = busiest.fwd + busiest.bwd
    if s.dp * s.cp > 1:  # the data-parallel traffic with no compute beside it, per micro-batch
        alone = data_parallel_seconds(s, hw, prof, rates, dt, replace(busiest, fwd=0.0, bwd=0.0), spec)[0]
        window = max(0.0, window - max(0.0, alone - dp_exposed) / s.grad_accum)
    return s.grad_accum * exposed(stream, window, prof["zero3_overlap"])


def host_runs_ahead(s: Scenario, spec: ModelSpec) -> bool:
    """The host model lets the host run ahead of the GPU over the whole micro-batch: no synchronisation inside it
    (host.py syncs_per_forward: the MoE dispatcher's token counts, the framework's own; hf_host.py
    synchronised_phases: a loop that synchronises after each phase). After a synchronisation the host waits for the
    GPU with nothing queued, so its round trip hides behind nothing, stream waits included."""
    if synchronised_phases(s):
        return False
    kinds = {True, False} if spec.is_moe else {False}  # a model with MoE layers may mix dense ones
    return not any(syncs_per_forward(s, moe, fused) for moe in kinds for fused in (True, False))


def host_beside_streams(s: Scenario, spec: ModelSpec, host: float, stream_waits: float) -> float:
    """Seconds a step waits for the host (`host`: the host model's wait against the GPU's own work) once the
    seconds the compute stream waits for the other streams (`stream_waits`: the exposed data-parallel collectives
    and weight copies) are counted as GPU time the host runs ahead of: max(0, host - stream_waits), where the host
    runs ahead (host_runs_ahead; elsewhere `host`). The step's GPU timeline plus this is then max(host-bound time,
    GPU time + stream waits), not the sum of both waits."""
    return max(0.0, host - stream_waits) if host and stream_waits and host_runs_ahead(s, spec) else host
