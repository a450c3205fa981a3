"""Megatron LoRA as ms-swift's `megatron sft/rlhf` builds it (mcore-bridge): "all-linear" adapts every routed expert
(one grouped lora_A / lora_B per expert), and Megatron's optimizer treats the bf16 adapters as any bf16 parameter
(an fp32 main_grad in the DDP buffer and an fp32 master shard). Sources: ms-swift 3602360a
swift/megatron/utils/utils.py find_all_linears (TEGroupedLinear is a target), mcore-bridge 02fb038f
src/mcore_bridge/tuners/lora.py LoraParallelLinear.update_layer (grouped lora_A: hidden -> r, lora_B: r -> fc1's
width; fc2 row-parallel: expert_ffn -> r -> hidden), megatron/core/optimizer/distrib_optimizer.py
(shard_main_param = shard_model_param.clone().float()), ms-swift megatron_args.py main_grads_dtype 'fp32'."""

from __future__ import annotations

from engine import estimate, scenario_from_dict

# Qwen3-30B-A3B's config.json (huggingface.co/Qwen/Qwen3-30B-A3B): hidden_size 2048, moe_intermediate_size 768,
# num_experts 128, num_hidden_layers 48, every layer MoE (decoder_sparse_step 1, mlp_only_layers [])
HIDDEN, EXPERT_FFN, EXPERTS, LAYERS = 2048, 768, 128, 48
RANK = 8
# per expert: fc1 (gate and up fused, hidden -> 2 x expert_ffn) r x (hidden + 2 x expert_ffn), fc2 r x (expert_ffn +
# hidden)
EXPERT_LORA_PER_LAYER = EXPERTS * RANK * ((HIDDEN + 2 * EXPERT_FFN) + (EXPERT_FFN + HIDDEN))

BASE = {
    "model": "qwen3-30b-a3b", "gpu": "a100-80gb", "gpus_per_node": 2, "precision": "mixed-bf16", "method": "lora",
    "lora_rank": RANK, "lora_alpha": 32, "lora_targets": "all-linear", "ep": 2, "checkpointing": "full",
    "attention": "flash", "micro_batch": 1, "seq_len": 2048, "optimizer": "adamw-fused", "distributed_optimizer": True,
}


def _components(s: dict) -> dict:
    est = estimate(scenario_from_dict(s))
    return {c.key: c for c in est.stages[0].components}


def test_megatron_lora_adapts_every_routed_expert():
    mega = _components(dict(BASE, framework="megatron"))
    hf = _components(dict(BASE, framework="huggingface", ep=1, gpus_per_node=1))
    # expert parallelism 2: each GPU holds half of the experts and their adapters
    expert_local = LAYERS * EXPERT_LORA_PER_LAYER / 2
    assert dict(mega["lora_weights"].inputs)["params"] - dict(hf["lora_weights"].inputs)["params"] == expert_local
    assert expert_local == 157_286_400


def test_megatron_keeps_fp32_master_and_main_grads_for_adapters():
    c = _components(dict(BASE, framework="megatron"))
    lora = dict(c["lora_weights"].inputs)["params"]
    expert_local = LAYERS * EXPERT_LORA_PER_LAYER / 2
    dense = lora - expert_local
    # bf16 adapters (lora_weights: 2 bytes), fp32 main_grad buffer (4 bytes, whole), fp32 master sharded like Adam's
    # states: the dense adapters over the 2 data-parallel ranks, the experts' over the expert data-parallel ranks
    # (2 GPUs / expert parallelism 2 = 1)
    assert c["lora_weights"].peak_bytes == lora * 2
    assert c["gradients"].peak_bytes == lora * 4
    assert c["master_weights"].peak_bytes == (dense / 2 + expert_local) * 4
    assert c["optimizer_states"].peak_bytes == (dense / 2 + expert_local) * 8


def test_peft_adapters_keep_no_master_copy():
    # peft's fp32 adapters (huggingface): no master copy, gradients in the adapters' dtype, experts not adapted
    c = _components(dict(BASE, framework="huggingface", ep=1, gpus_per_node=1))
    assert c["master_weights"].peak_bytes == 0
    lora = dict(c["lora_weights"].inputs)["params"]
    assert c["gradients"].peak_bytes == lora * dict(c["lora_weights"].inputs)["bytes_per_param"]
