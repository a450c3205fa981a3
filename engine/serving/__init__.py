"""Serving (issue 26): what a model needs on each GPU when an inference engine serves it, and how fast it answers.

Public entry points (a stable API; post-training's rollout phase uses the first):

- `generation_memory(GenerationInputs(...)) -> ServingMemory`: vLLM's or SGLang's accounting on one GPU from plain
  inputs (weights, profile-run activation peak, CUDA graphs, non-torch memory, the KV pool, blocks, tokens, maximum
  concurrency at max_model_len, and whether the engine starts).
- `layer_kinds`, `kv_element_bytes`: KV bytes per token per layer kind (full, sliding window, chunked, MLA latent,
  linear-attention state) on one GPU.
- `serving_memory(scenario)`, `serving_estimate(scenario)`: an inference scenario on its engine (vLLM, SGLang,
  llama.cpp, ollama, transformers, mlx); `serving_speed(scenario, memory)`: TTFT, TPOT, tokens/s.
- `shard(spec, weight_format, tp, pp, ep)`: the deployed weights one GPU holds, by tensor family.
"""

from .generation import GenerationInputs, generation_memory, sequence_kv_bytes, settings_for
from .kv_layout import KV_ELEMENT_BYTES, LayerKind, kv_element_bytes, layer_kinds
from .result import FITS, REFUSED, TIGHT, KvKind, ServingMemory
from .scenario_estimate import serving_estimate, serving_memory
from .speed import ServingSpeed, cost_per_million_output_tokens, serving_speed
from .weights import WeightShard, shard

__all__ = ["FITS", "KV_ELEMENT_BYTES", "REFUSED", "TIGHT", "GenerationInputs", "KvKind", "LayerKind",
           "ServingMemory", "ServingSpeed", "WeightShard", "cost_per_million_output_tokens", "generation_memory",
           "kv_element_bytes", "layer_kinds", "sequence_kv_bytes", "serving_estimate", "serving_memory",
           "serving_speed", "settings_for", "shard"]
