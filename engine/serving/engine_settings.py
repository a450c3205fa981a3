"""The settings a scenario's vLLM or SGLang engine runs with (its own where given, else the engine's defaults for the
GPU, defaults.py), resolved once for every serving figure that reads them: the Users curve's sequences at once and
the prefill's chunk budget (speed.py), as the memory model resolves them from its inputs (generation.py)."""

from __future__ import annotations

from ..scenario import Scenario, resolve_gpu
from .defaults import EngineSettings, sglang_settings, vllm_settings


def scenario_engine_settings(s: Scenario) -> EngineSettings | None:
    """vLLM's or SGLang's settings for `s`; None for an engine without them (llama.cpp, transformers, mlx)."""
    if s.serving_engine not in ("vllm", "sglang"):
        return None
    gpu_name, capacity = resolve_gpu(s)
    if s.serving_engine == "sglang":
        return sglang_settings(capacity, s.tp, s.pp, s.max_num_batched_tokens, s.max_num_seqs, s.block_size,
                               s.gpu_memory_utilization)
    return vllm_settings(capacity, gpu_name, s.max_num_batched_tokens, s.max_num_seqs, s.block_size,
                         s.gpu_memory_utilization)
