"""Engines that spread one model's layers over several GPUs, which then run one after another (user audit 5: the
transformers engine on 2 GPUs held the whole model on each).

- llama.cpp and ollama: split-mode layer, the offloaded layers over every GPU of the node (llama_cpp.py).
- transformers: from_pretrained(device_map="auto") places the model with accelerate's infer_auto_device_map over the
  visible GPUs: '"auto" and "balanced" evenly split the model on all available GPUs' (huggingface/accelerate
  docs/source/usage_guides/big_modeling.md, "Big Model Inference"; transformers modeling_utils passes "auto" on as
  a balanced map, get_balanced_memory). The layers then run in order, one GPU at a time (accelerate's hooks move the
  hidden states from one GPU to the next: a naive pipeline, no two GPUs at work on one token). With tp > 1 the
  planner's transformers scenario is tensor-parallel (tp_plan, one process per GPU), not a device map: no split.
Each GPU holds its share of the weights and of the KV cache (a layer's cache lives with the layer); a decode step
reads every GPU's share at one GPU's bandwidth, in series (speed.py). No Qt."""

from __future__ import annotations

from ..scenario import Scenario

LAYER_SPLIT_ENGINES = ("llama.cpp", "ollama")  # over every GPU of the node, whatever tp says
DEVICE_MAP_ENGINES = ("transformers",)  # device_map="auto" over the node's GPUs when not tensor-parallel


def layer_split_gpus(s: Scenario) -> int:
    """GPUs one engine instance spreads its layers over, one after another (1: none)."""
    if s.serving_engine in LAYER_SPLIT_ENGINES:
        return max(1, s.gpus_per_node)
    if s.serving_engine in DEVICE_MAP_ENGINES and s.tp <= 1 and s.pp <= 1:
        return max(1, s.gpus_per_node)
    return 1


__all__ = ["DEVICE_MAP_ENGINES", "LAYER_SPLIT_ENGINES", "layer_split_gpus"]
