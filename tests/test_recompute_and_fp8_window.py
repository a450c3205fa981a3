"""Two mechanisms of GPT-OSS in Megatron-Bridge, each held to its source.

Megatron's element-wise recompute modules (engine/timing/costs.py recomputable_elementwise_bytes): 'moe_act' wraps
the experts' bias_act_func in CheckpointWithoutOutput and runs it again in the backward
(NVIDIA/Megatron-LM megatron/core/transformer/moe/experts.py TEGroupedMLP at core_v0.16.0); 'layernorm' reruns an MoE
layer's own pre-MLP TENorm (transformer_layer.py recompute_pre_mlp_layernorm: set only where pre_mlp_layernorm is
not an IdentityOp; a dense layer's norm is fused into fc1's LayerNormLinear).

cuDNN's fp8 SDPA with a sliding window (presets/efficiency.json fp8_attention): NVIDIA/cudnn-frontend
benchmark/sdpa_benchmark_training/results/gpt_oss/gb200/gpt_oss_20260424_100011.csv at 3929da2 (cuDNN 9.22,
128-token window, head dim 64, 2 x 128 heads, top_left causal): at 4,096 tokens the bf16 backward takes 0.465 ms, the
fp8 one 1.731 ms and the MXFP8 one 2.080 ms; from 8K to 16K tokens the bf16 backward doubles (0.911 -> 1.818 ms),
the MXFP8 one grows 3.76x (7.427 -> 27.940 ms): it visits every causal key tile, not the window's.
"""

from __future__ import annotations

import dataclasses
import math

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.attention import attention_core
from engine.timing.costs import layer_cost, recomputable_elementwise_bytes
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for

# cudnn-frontend 3929da2, gpt_oss on GB200, backward ms at 4,096 tokens (see the module docstring)
GB200_WINDOW_BWD_MS = {"bf16": 0.465, "fp8": 1.731, "mxfp8": 2.080}
GB200_MXFP8_BWD_MS_8K_16K = (7.427, 27.940)

GB200_MXFP8 = {"model": "gpt-oss-120b", "gpu": "gb200", "gpus_per_node": 4, "nodes": 16, "framework": "megatron",
               "precision": "fp8", "fp8_recipe": "mxfp8", "micro_batch": 4, "grad_accum": 5, "seq_len": 4096,
               "ep": 64, "zero_stage": 1, "moe_token_dispatcher_type": "flex", "moe_a2a_overlap": True,
               "cuda_graphs": "full-iteration", "fused_expert_mlp": True}


def _spec(model: str = "gpt-oss-120b", ep: int = 8):
    return resolve_model(scenario_from_dict({"model": model, "gpu": "b200", "gpus_per_node": 8, "ep": ep}))


def test_moe_act_reruns_the_fused_activation_and_gpt_oss_clamps():
    """Per routed unit (top_k x expert_ffn): the fused GLU reads gate and up and writes the product (3 elements, the
    elementwise_bytes_per_token fused mlp figure, 6 bytes), and gpt-oss's eager clamps and cat (8 elements,
    gpt_oss_megatron_unfused clamp_per_expert_unit); the pre-MLP norm reads and writes the hidden state (2)."""
    spec = _spec()
    units = 4 * 2880  # openai/gpt-oss-120b config.json: 4 of 128 experts of 2,880
    fused = efficiency()["elementwise_bytes_per_token"]["fused"]["mlp"]
    assert fused == 6
    assert recomputable_elementwise_bytes(spec, 1, False, 2, fused, True) == (6 * units + 8 * 2 * units, 2 * 2 * 2880)
    # TE's fused grouped-MLP ops take the clamp: only the fused activation is rerun
    assert recomputable_elementwise_bytes(spec, 1, False, 2, fused, False) == (6 * units, 2 * 2 * 2880)
    # a model without expert biases has no clamp path (Qwen3-30B-A3B: 8 experts of 768, hidden 2048)
    assert recomputable_elementwise_bytes(_spec("qwen3-30b-a3b"), 1, False, 2, fused, True) == (6 * 8 * 768,
                                                                                                2 * 2 * 2048)


def test_layer_cost_carries_them_at_the_memory_rate_for_moe_layers_only():
    memory, tokens = 8e12, 16384.0
    rates = Rates(1e15, 1e15, 1e15, memory, 2, 148)
    spec = _spec()
    moe = layer_cost(spec, True, tokens, 4096, 1, 8, 1, False, rates, "fused", "fused", "", (), 0, 0, 4, 4.0,
                     gpt_oss_unfused=True)
    act, norm = recomputable_elementwise_bytes(spec, 1, False, 2, 6, True)
    assert math.isclose(moe.act_fwd, tokens * act / memory) and math.isclose(moe.norm_fwd, tokens * norm / memory)
    dense = layer_cost(_spec("llama-3.1-8b", 1), False, tokens, 4096, 1, 1, 1, False, rates, "fused", "fused", "", (),
                       0, 0)
    assert dense.act_fwd == dense.norm_fwd == 0.0


def test_recompute_modules_cost_what_they_rerun():
    base = {**GB200_MXFP8, "precision": "mixed-bf16", "fp8_recipe": "auto", "cuda_graphs": "none",
            "fused_expert_mlp": False, "checkpointing": "selective"}
    seconds = {mods: step_time(scenario_from_dict({**base, "recompute_modules": list(mods)})).breakdown_seconds[
        "recompute"] for mods in ((), ("moe_act",), ("layernorm",), ("layernorm", "moe_act"))}
    assert seconds[()] == 0.0
    assert 0 < seconds[("layernorm",)] < seconds[("moe_act",)]
    assert math.isclose(seconds[("layernorm", "moe_act")], seconds[("moe_act",)] + seconds[("layernorm",)])


def _gb200_window_backward_ms(kind: str) -> float:
    """The model's backward of one 128-token-window layer at cudnn-frontend's shape (2 x 128 heads of 64 x 4,096
    tokens = gpt-oss's micro-batch of 4 x 64 heads) on GB200."""
    s = scenario_from_dict(GB200_MXFP8)
    spec = resolve_model(s)
    windowed = dataclasses.replace(spec, layer_types=("sliding",) * len(spec.layer_types))
    rates = rates_for(s, hardware_for(s), framework_profile("megatron"))
    return attention_core(windowed, 4 * 4096, 4096, 1, rates, kind)[2] * 1e3


def test_fp8_window_backward_matches_cudnn_frontend_on_gb200():
    fp8 = _gb200_window_backward_ms("fused-fp8")
    bf16 = _gb200_window_backward_ms("fused")
    # counted as full causal attention at the bf16 kernel's rate: within 10% of the measured MXFP8 backward, and
    # between the measured fp8 and MXFP8 kernels
    assert abs(fp8 / GB200_WINDOW_BWD_MS["mxfp8"] - 1) < 0.10
    assert GB200_WINDOW_BWD_MS["fp8"] * 0.9 < fp8 < GB200_WINDOW_BWD_MS["mxfp8"] * 1.1
    # the bf16 kernel skips the tiles outside the window: the measured ratio fp8 / bf16 is 3.7-4.5x
    assert 3.0 < fp8 / bf16 < 6.0
    assert efficiency()["fp8_attention"]["window_backward_visits_causal_tiles"] is True


def test_the_measured_fp8_window_backward_is_quadratic_in_length():
    """The fact the mechanism rests on, from the same CSV: doubling the length costs about 4x, not 2x."""
    short, long = GB200_MXFP8_BWD_MS_8K_16K
    assert 3.5 < long / short < 4.0


def test_fp8_attention_slows_only_models_with_windows():
    slow = step_time(scenario_from_dict({**GB200_MXFP8, "fp8_attention": True})).step_seconds
    fast = step_time(scenario_from_dict(GB200_MXFP8)).step_seconds
    assert slow > fast
    qwen = {**GB200_MXFP8, "model": "qwen3-30b-a3b", "nodes": 2, "ep": 8}
    assert step_time(scenario_from_dict({**qwen, "fp8_attention": True})).step_seconds == step_time(
        scenario_from_dict(qwen)).step_seconds
