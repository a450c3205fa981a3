"""The host's floor under one decode iteration of a generation engine that runs without CUDA graphs (vLLM
enforce_eager; verl's rollout.enforce_eager, its default before ff6978c14; or a batch beyond the largest graph the
engine captured: engine/serving/host_iteration.py runs_without_graph): every kernel of every layer is launched
from Python each iteration, so an iteration cannot take less than those launches and module calls, however little the
GPU has to do (a decode step of a small model at a small batch takes tens of microseconds a layer on the GPU).

The layer's launches, module calls and views are the serving engine's own, counted once from vLLM's decoder layer
(engine/serving/host_iteration.py paged_layer_host_seconds: 10 kernels, 2 all-reduces when tensor-parallel, 12
module calls, 3 views; Qwen3's q/k norms add theirs), on the run's host (engine/timing/host.py host_speed_factor).
The sampler, the scheduler and the per-sequence input and output work of the engine's loop are not in this floor: it
is a lower bound of the host's iteration (V0's output processing per running sequence, which an engine without CUDA
graphs waits for, is added after it: engine_loop.py).
"""

from __future__ import annotations

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..serving.host_iteration import paged_layer_host_seconds
from ..timing.host import host_speed_factor


def eager_decode_host_seconds(s: Scenario, spec: ModelSpec, tp: int) -> float:
    """Host seconds of one decode iteration's layer launches without a CUDA graph: every layer on each generating
    GPU, `tp` the GPUs the generating model splits over (tensor parallelism splits widths, not layers; it adds the
    all-reduces)."""
    return spec.layers * paged_layer_host_seconds(spec, tp) * host_speed_factor(s)


__all__ = ["eager_decode_host_seconds"]
