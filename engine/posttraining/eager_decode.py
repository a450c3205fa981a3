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
from ..serving.host_iteration import paged_layer_host_seconds, transformers_decode_host_seconds
from ..timing.data import framework_profile
from ..timing.host import host_speed_factor


def eager_decode_host_seconds(s: Scenario, spec: ModelSpec, tp: int) -> float:
    """Host seconds of one decode iteration's layer launches without a CUDA graph: every layer on each generating
    GPU, `tp` the GPUs the generating model splits over (tensor parallelism splits widths, not layers; it adds the
    all-reduces)."""
    return spec.layers * paged_layer_host_seconds(spec, tp) * host_speed_factor(s)


def trainer_generate_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds of one decode iteration of the trainer's own generate() (rollout_engine none), where the
    framework runs transformers' modeling code eagerly (presets/efficiency.json frameworks: host_layers hf-eager, the
    fact the training step's host time reads: TRL, ms-swift's trainers, the Hugging Face row): every decode step's
    forward runs each layer from Python, as the served transformers engine's does (host_iteration.py
    transformers_decode_host_seconds, hf_eager_layers' counts). TRL builds its GenerationConfig with
    disable_compile=True (huggingface/trl f2cd577 trl/trainer/grpo_trainer.py:1124), so even a static cache
    (cache_implementation) is not compiled. 0 for a framework whose own loop runs other modeling code (torchtune,
    litgpt, Unsloth's patched forward: no count of their layers here, a lower bound as before)."""
    if framework_profile(s.framework).get("host_layers") != "hf-eager":
        return 0.0
    return transformers_decode_host_seconds(s, spec)


__all__ = ["eager_decode_host_seconds", "trainer_generate_host_seconds"]
