"""The generation engine of a post-training step, as engine/serving accounts for it (vLLM's or SGLang's own budget
arithmetic: engine/serving/generation.py, with its sources), seen from the trainer's GPUs.

vLLM takes a budget of its own, requested = total GPU memory x gpu_memory_utilization, refuses to start when less
than that is free (so what the trainer already holds on a colocated GPU counts), and gives the KV cache what the
budget leaves after the weights, the profile run's peak and non-torch memory; CUDA graphs come on top. A colocated
engine in the trainer's process (TRL's external_launcher, verl's hybrid engine) shares the trainer's CUDA context,
so the engine's own context is not counted twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from ..messages import Message
from ..models.architecture import ModelSpec
from ..serving.generation import GenerationInputs, generation_memory, settings_for
from ..serving.host_iteration import graph_capture_size
from ..serving.result import REFUSED, TIGHT


@dataclass(frozen=True, slots=True)
class EngineMemory:
    """One engine GPU's share of the generation engine."""

    requested_bytes: float  # the engine's budget when awake (utilization x capacity for vLLM)
    weight_bytes: float
    activation_bytes: float  # the profile run's peak
    overhead_bytes: float  # non-torch memory and CUDA graphs (+ its own CUDA context when in a process of its own)
    kv_pool_bytes: float  # the KV cache it allocates (0 when it refuses)
    kv_bytes_per_token: float  # every layer's K and V of one more token on this GPU
    kv_tokens: int  # tokens the pool holds
    block_size: int
    max_concurrent_sequences: int  # min(max_num_seqs, requests at max_model_len the pool holds), as vLLM logs it
    refusal: Message | None  # the engine's own sentence when it would not start
    # the engine's sentence when it may refuse (a KV pool within the start-up accounting's measured uncertainty,
    # engine/serving/startup_band.py) or start short (SGLang's runtime headroom): the step's verdict is then "tight"
    caution: Message | None = None
    start_margin_bytes: float | None = None  # vLLM: KV pool - one request at max_model_len (ServingMemory's)
    start_band_bytes: float = 0.0  # the start-up accounting's measured uncertainty in bytes
    # min(max_num_seqs, sequences the pool runs at once during generation): the scheduler admits a sequence by the
    # blocks it holds (prompt + completion so far), not by max_model_len; counted at prompt + the mean completion
    running_sequences: int = 0
    # the largest decode batch the engine replays from a CUDA graph (None: it captures none); a larger one runs
    # without a graph (engine/serving/host_iteration.py runs_without_graph)
    graph_capture_size: int | None = None
    # max_num_batched_tokens the engine runs (its default where none is passed): a prefill runs in chunks of it
    batched_tokens: int = 0

    @property
    def total_bytes(self) -> float:
        return self.weight_bytes + self.activation_bytes + self.overhead_bytes + self.kv_pool_bytes


@lru_cache(maxsize=512)  # a pure function of hashable inputs: edits that leave the engine alone reuse its answer
def engine_memory(spec: ModelSpec, engine: str, capacity_bytes: float, utilization: float, weight_bytes: float,
                  tp: int, max_num_seqs: int, kv_cache_dtype: str, sequence_tokens: int, used_by_trainer: float,
                  own_process: bool, gpu_name: str = "", batched_tokens: int | None = None,
                  release: str = "latest", lora_bytes: float = 0.0, enforce_eager: bool = False,
                  load_extra_bytes: float = 0.0, running_tokens: int = 0) -> EngineMemory:
    """The engine's budget split as the engine splits it, on one of its GPUs. `used_by_trainer`: what the trainer
    already holds on the GPU when the engine starts (0 on GPUs of its own); `sequence_tokens`: the engine's
    max_model_len; `release`: whose accounting (engine/serving/generation.py VLLM_ACCOUNTINGS); `lora_bytes`: the
    engine's LoRA stacks when it serves the adapters (engine/serving/profile_run.py lora_stack_bytes); `enforce_eager`:
    no CUDA graphs are captured; `load_extra_bytes`: what vLLM's weight figure holds beyond the parameters (the caching
    allocator's rounding of each weight tensor and the rotary cache, engine/serving/vllm_load.py); `running_tokens`:
    what a running sequence holds (prompt + mean completion) where it is less than max_model_len (running_sequences).
    """
    inputs = GenerationInputs(
        spec=spec, weight_bytes=weight_bytes, capacity_bytes=capacity_bytes, engine=engine,
        gpu_memory_utilization=utilization, max_num_batched_tokens=batched_tokens, max_num_seqs=max_num_seqs,
        max_model_len=sequence_tokens, kv_cache_dtype="fp8" if kv_cache_dtype == "fp8" else "auto", tp=tp,
        gpu_name=gpu_name, used_by_others_bytes=used_by_trainer, enforce_eager=enforce_eager,
        accounting=release if engine == "vllm" else "latest", lora_bytes=lora_bytes if engine == "vllm" else 0.0,
        load_extra_bytes=load_extra_bytes if engine == "vllm" else 0.0)
    m = generation_memory(inputs)
    running = m if not 0 < running_tokens < sequence_tokens else \
        generation_memory(replace(inputs, max_model_len=running_tokens))
    overhead = m.bytes_of("non_torch") + m.bytes_of("cuda_graphs") + (m.bytes_of("cuda_context") if own_process
                                                                       else 0.0)
    refused = m.verdict == REFUSED
    return EngineMemory(
        requested_bytes=m.budget_bytes, weight_bytes=m.bytes_of("weights"),
        activation_bytes=m.bytes_of("activation_peak"), overhead_bytes=overhead,
        kv_pool_bytes=0.0 if refused else m.bytes_of("kv_cache"), kv_bytes_per_token=m.kv_bytes_per_token,
        kv_tokens=0 if refused else m.kv_tokens, block_size=m.block_size,
        max_concurrent_sequences=0 if refused else min(max_num_seqs, math.floor(m.max_concurrent_sequences)),
        refusal=m.reason if refused else None, caution=m.reason if m.verdict == TIGHT else None,
        start_margin_bytes=m.start_margin_bytes, start_band_bytes=m.start_band_bytes,
        running_sequences=0 if refused else min(max_num_seqs, math.floor(running.max_concurrent_sequences)),
        graph_capture_size=graph_capture_size(m), batched_tokens=settings_for(inputs).max_num_batched_tokens)
