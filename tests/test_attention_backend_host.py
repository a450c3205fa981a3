"""Transformer Engine's attention backend selection rerun per layer where layers alternate windows
(engine/timing/attention_backend_host.py; presets/host_overhead.json attention_backend_selection, measured by
benchmarks/te_attention_backend_host.py on get_attention_backend's own source at TE v2.14). gpt-oss's config
(openai/gpt-oss-120b config.json layer_types) alternates sliding_attention and full_attention from layer 0, so every
layer's DotProductAttention call differs from the previous one's window_size ((127, 0) against (-1, 0)) and reruns
the selection (dot_product_attention.py lines 1318-1348 at v2.9)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.attention_backend_host import reselections_per_layer
from engine.timing.host import backend_selection_seconds, host_figures


def _scenario(**keys):
    return scenario_from_dict({"model": "gpt-oss-120b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8,
                               "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8,
                               "seq_len": 4096, "tp": 1, "pp": 4, "ep": 8, **keys})


def test_alternating_layers_reselect_in_every_layer_and_uniform_ones_never():
    assert reselections_per_layer(resolve_model(_scenario())) == 1.0
    assert reselections_per_layer(resolve_model(_scenario(model="qwen3-30b-a3b"))) == 0.0


def test_the_selection_is_added_to_the_attention_forward_unless_captured_or_eager():
    """The added forward host time is the measured figure (host factor 1 on the DGX H100 host); none where a CUDA
    graph captures the attention (it replays without the Python), with eager (local) attention, or outside Megatron."""
    per_call = host_figures()["attention_backend_selection"]["seconds"]
    assert backend_selection_seconds(_scenario(), True) == pytest.approx(per_call)
    assert backend_selection_seconds(_scenario(model="qwen3-30b-a3b"), True) == 0.0
    assert backend_selection_seconds(_scenario(cuda_graphs="attention"), True) == 0.0
    assert backend_selection_seconds(_scenario(attention="eager"), True) == 0.0
    assert backend_selection_seconds(_scenario(framework="huggingface"), True) == 0.0
