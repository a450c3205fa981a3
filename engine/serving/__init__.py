"""Serving (issue 26): what a model needs on each GPU when an inference engine serves it, and how fast it answers.

Public entry points:

- `generation_memory(GenerationInputs(...)) -> ServingMemory`: vLLM's or SGLang's accounting on one GPU from plain
  inputs (weights, profile-run activation peak, CUDA graphs, non-torch memory, the KV pool, blocks, tokens, maximum
  concurrency at max_model_len, and whether the engine starts). Post-training's rollout phase uses it too.
- `layer_kinds`, `kv_element_bytes`: KV bytes per token per layer kind (full, sliding window, chunked, MLA latent,
  linear-attention state) on one GPU.
"""

from .generation import GenerationInputs, generation_memory, sequence_kv_bytes, settings_for
from .kv_layout import KV_ELEMENT_BYTES, LayerKind, kv_element_bytes, layer_kinds
from .result import FITS, REFUSED, TIGHT, KvKind, ServingMemory

__all__ = ["FITS", "KV_ELEMENT_BYTES", "REFUSED", "TIGHT", "GenerationInputs", "KvKind", "LayerKind",
           "ServingMemory", "generation_memory", "kv_element_bytes", "layer_kinds", "sequence_kv_bytes",
           "settings_for"]
