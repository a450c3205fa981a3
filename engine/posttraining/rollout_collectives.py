"""The generation engine's tensor-parallel all-reduces in the rollout: vLLM (and SGLang) split every layer's
attention and MLP / MoE over the engine's rollout_tp GPUs and sum the partial outputs with one all-reduce after each,
so a forward over `tokens` tokens runs 2 x layers all-reduces of tokens x hidden x 2 bytes (bf16 activations) in
series with the layer's kernels (vllm/model_executor/models/deepseek_v2.py DeepseekV2MoE.forward: the routed and
shared experts' outputs summed first, then one tensor_model_parallel_all_reduce; RowParallelLinear's
reduce_results after o_proj and down_proj in the dense layers). Serving's decode counts the same (engine/serving/
speed.py, term decode_allreduce); the rollout's decode roofline had not.

Which all-reduce runs: vLLM's custom all-reduce (one- or two-shot over NVLink peer memory) only inside one node and
for 2, 4, 6 or 8 GPUs (vllm/distributed/device_communicators/custom_all_reduce.py CustomAllreduce: 'Custom
allreduce is disabled because this process group spans across nodes', _SUPPORTED_WORLD_SIZES = [2, 4, 6, 8]);
there it takes serving's figure, the intra-node latency + the ring's bytes over the NVLink bus. Any other group
(an engine of TP 16 or 32 over several nodes, or over several GB200 trays of an NVL72 rack) falls back to NCCL
(PyNcclCommunicator, captured in the CUDA graph), timed as the training model times an all-reduce of a known
message (engine/timing/collectives.py all_reduce_link: the algorithm and protocol NCCL's tuning model picks, ring
or tree, LL / LL128 / Simple, NVLS inside an NVLink domain, over the link the group crosses: links.py
collective_link), NVLS among NCCL's choices unless the framework's runs turn it off (its time profile's nccl_nvls:
NeMo-RL's performance scripts export NCCL_NVLS_ENABLE=0, tests/test_suites/llm/performance/grpo-deepseek-v3-32n8g.sh
and the Qwen3-235B ones at NVIDIA-NeMo/RL 69c7ca117; ASSUMED to reach the engine's Ray workers too). The engine's
ranks are consecutive GPUs (Ray's placement group bundles of one engine, rank order)."""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec
from ..serving.speed import chunked_all_reduce_seconds, intra_node_all_reduce_seconds
from ..timing.collectives import all_reduce_link
from ..timing.data import framework_profile
from ..timing.links import collective_link, nvlink_domain

CUSTOM_ALL_REDUCE_SIZES = (2, 4, 6, 8)  # vLLM's CustomAllreduce._SUPPORTED_WORLD_SIZES
ALL_REDUCES_PER_LAYER = 2  # after the attention's output projection and after the MLP / MoE
ACTIVATION_BYTES = 2  # bf16 hidden states


def custom_all_reduce(s: Any, tp: int) -> bool:
    """Whether vLLM's own all-reduce serves an engine of `tp` GPUs: inside one node and a supported size."""
    return tp in CUSTOM_ALL_REDUCE_SIZES and tp <= s.gpus_per_node


def all_reduce_seconds(s: Any, hw: Any, tp: int, message_bytes: float) -> float:
    """Seconds of one all-reduce of `message_bytes` over an engine's `tp` consecutive GPUs."""
    if tp <= 1 or message_bytes <= 0:
        return 0.0
    if custom_all_reduce(s, tp):  # serving's figure (engine/serving/speed.py)
        return intra_node_all_reduce_seconds(hw, tp, message_bytes)
    ring_bytes = 2 * (tp - 1) / tp * message_bytes
    domain = nvlink_domain(s, hw)
    link_bytes_per_s = collective_link(hw, tp, domain)[0]
    prof = framework_profile(s.framework)
    bus, latency = all_reduce_link(hw, tp, tp, domain, 1, link_bytes_per_s, prof, message_bytes)
    return ring_bytes / bus + latency


def forward_all_reduce_seconds(s: Any, hw: Any, spec: ModelSpec, tp: int, tokens: float) -> float:
    """Seconds of one engine forward's all-reduces over `tokens` tokens (a decode step: the running sequences)."""
    if tp <= 1 or tokens <= 0:
        return 0.0
    message = tokens * spec.hidden * ACTIVATION_BYTES
    return ALL_REDUCES_PER_LAYER * spec.layers * all_reduce_seconds(s, hw, tp, message)


def prefill_all_reduce_seconds(s: Any, hw: Any, spec: ModelSpec, tp: int, tokens: float, chunk_tokens: int) -> float:
    """Seconds of the rollout prefill's all-reduces over `tokens` prompt tokens: the engine schedules them in chunks of
    its max_num_batched_tokens (`chunk_tokens`; 0: one forward, the trainer's own generate()), one all-reduce per
    chunk and layer and a half, as serving's prefill counts them (speed.py chunked_all_reduce_seconds)."""
    if tp <= 1:
        return 0.0
    return chunked_all_reduce_seconds(lambda message: all_reduce_seconds(s, hw, tp, message), spec.layers, tokens,
                                      chunk_tokens, spec.hidden * ACTIVATION_BYTES)


__all__ = ["ALL_REDUCES_PER_LAYER", "CUSTOM_ALL_REDUCE_SIZES", "all_reduce_seconds", "custom_all_reduce",
           "forward_all_reduce_seconds", "prefill_all_reduce_seconds"]
