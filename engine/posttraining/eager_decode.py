"""The host's floor under one decode iteration of a generation engine that runs without CUDA graphs (vLLM
enforce_eager; verl's rollout.enforce_eager, its default before ff6978c14): every kernel of every layer is launched
from Python each iteration, so an iteration cannot take less than those launches and module calls, however little the
GPU has to do (a decode step of a small model at a small batch takes tens of microseconds a layer on the GPU).

Counted from vLLM's dense decoder layer (vllm-project/vllm vllm/model_executor/models/qwen2.py at
013a2792517057519158cd232fad1b4bd39c129e, Qwen2DecoderLayer.forward, Qwen2Attention.forward, Qwen2MLP.forward; the
Llama layer is the same): kernels launched per layer in a decode iteration: input_layernorm (fused add + RMSNorm, one
custom op), qkv_proj (one GEMM with its bias), rotary_emb (one custom op), the attention (the KV-cache write and the
paged decode kernel), o_proj (one GEMM), post_attention_layernorm (one), gate_up_proj (one GEMM), act_fn (SiluAndMul,
one) and down_proj (one GEMM): 10, plus the all-reduce after o_proj and after down_proj when the engine is
tensor-parallel (RowParallelLinear reduce_results); module calls: the layer, its two norms, self_attn, qkv_proj,
rotary_emb, attn, o_proj, mlp, gate_up_proj, act_fn and down_proj: 12; views: the q / k / v split of qkv (3). Each at
the host costs of presets/host_overhead.json (launch_seconds, module_call_seconds, view_seconds) on the run's host
(engine/timing/host.py host_speed_factor). The sampler, the scheduler and the per-sequence input and output work of the
engine's loop are not in this floor: it is a lower bound of the host's iteration (V0's output processing per running
sequence, which an engine without CUDA graphs waits for, is added after it: engine_loop.py).
"""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_figures, host_speed_factor

LAUNCHES_PER_LAYER = 10
TP_ALL_REDUCES_PER_LAYER = 2
MODULE_CALLS_PER_LAYER = 12
VIEWS_PER_LAYER = 3


def eager_decode_host_seconds(s: Scenario, layers: int, rollout_tp: int) -> float:
    """Host seconds of one decode iteration's layer launches in an engine without CUDA graphs."""
    fig = host_figures()
    launches = LAUNCHES_PER_LAYER + (TP_ALL_REDUCES_PER_LAYER if rollout_tp > 1 else 0)
    per_layer = (launches * fig["launch_seconds"]["value"] + MODULE_CALLS_PER_LAYER * fig["module_call_seconds"]["value"]
                 + VIEWS_PER_LAYER * fig["view_seconds"]["value"])
    return layers * per_layer * host_speed_factor(s)


__all__ = ["eager_decode_host_seconds"]
