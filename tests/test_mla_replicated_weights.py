"""An MLA layer's down-projections to the latents are whole on every tensor-parallel rank in vLLM and SGLang
(engine/serving/weights.py MLA_REPLICATED_LINEARS: SGLang 0.5.7 deepseek_v2.py 1328-1360 ReplicatedLinear
fused_qkv_a_proj_with_mqa; vLLM's fused_qkv_a_proj with disable_tp=True), so a GPU holds and a decode step reads
them whole."""

from __future__ import annotations

import pytest

from engine.accuracy import posttraining_time as ptt
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.weights import layer_weights, shard

SCENARIO = {"model": "deepseek-r1", "gpu": "h200", "workload": "inference", "serving_engine": "sglang", "tp": 8,
            "gpus_per_node": 8}


def test_deepseek_r1s_q_a_and_kv_a_are_held_whole_on_each_rank() -> None:
    spec = resolve_model(scenario_from_dict(SCENARIO))
    # DeepSeek-R1's config.json: hidden 7168, q_lora_rank 1536, kv_lora_rank 512 + qk_rope_head_dim 64; its fp8
    # checkpoint stores 1 byte a weight and one fp32 scale per [128, 128] block (weight_block_size)
    down_bytes = 7168 * (1536 + 512 + 64) * (1 + 4 / (128 * 128))
    first = layer_weights(spec, "checkpoint")[0]  # a dense layer: no router, so replicated = these + norms
    assert first.replicated - spec.small_params(*spec.layer_keys[0]) * 2 == pytest.approx(down_bytes)
    one, eight = shard(spec, "checkpoint", tp=1), shard(spec, "checkpoint", tp=8)
    assert eight.replicated == pytest.approx(one.replicated)  # not divided by tensor parallelism
    assert eight.replicated >= spec.layers * down_bytes


def test_other_attention_keeps_every_matrix_split() -> None:
    spec = resolve_model(scenario_from_dict({**SCENARIO, "model": "llama-3.1-8b"}))
    one, eight = shard(spec, "bf16", tp=1), shard(spec, "bf16", tp=8)
    assert eight.layers == pytest.approx(one.layers / 8)
    assert eight.replicated == pytest.approx(one.replicated)  # norms only


def test_a_rollout_engine_holds_them_whole_too() -> None:
    """NeMo-RL's DeepSeek-V3 GRPO row (tests/data/published/posttraining_time.json) runs vLLM at rollout_tp 32: every
    engine rank holds the MLA down-projections and the routers whole, as a serving rank does, in its memory and in
    each decode step's read (engine/posttraining/models.py engine_weight_bytes), not 1/32 of them."""
    row = next(r for r in ptt.read_rows() if r["id"] == "nemo-rl-perf-grpo-deepseek-v3-256xh100")
    s = scenario_from_dict(row["scenario"])
    spec, e = resolve_model(s), step_parts(s).engine
    assert s.rollout_tp == 32
    # DeepSeek-V3's config.json: hidden 7168, q_lora_rank 1536, kv_lora_rank 512 + qk_rope_head_dim 64, 61 layers;
    # the router of each of its 58 MoE layers (first_k_dense_replace 3) 256 x 7168; bf16 in the engine
    down_and_router = (61 * 7168 * (1536 + 512 + 64) + 58 * 256 * 7168) * 2
    sharded = spec.total_params * 2 / 32
    whole = e.weight_bytes - sharded  # what each rank holds beyond an even 1/32 share
    # + the norms, a few MB; each decode step reads them (its read is taken of e.weight_bytes: test_rollout_moe_reads)
    assert whole == pytest.approx(down_and_router * 31 / 32, rel=0.01)


def test_a_qlora_rollout_engine_holds_them_whole_in_their_own_format() -> None:
    """A QLoRA policy's engine loads the 4-bit base (engine_weight_bytes' QLoRA branch); its ranks too hold the MLA
    down-projection and the routers whole (vLLM's ReplicatedLinear), so splitting the engine over two GPUs halves all
    but them."""
    base = {"model": "deepseek-v2-lite", "gpu": "h100-sxm-80gb", "method": "qlora", "precision": "bf16",
            "training_objective": "grpo", "framework": "trl", "rollout_engine": "vllm", "gpus_per_node": 2,
            "micro_batch": 1, "prompt_len": 256, "completion_len": 256}
    one, two = (step_parts(scenario_from_dict({**base, "rollout_tp": tp})).engine.weight_bytes for tp in (1, 2))
    # DeepSeek-V2-Lite's config.json: 27 layers, hidden 2048, no q_lora_rank (q_proj is split), kv_lora_rank 512 +
    # qk_rope_head_dim 64 in bitsandbytes NF4 (4 bits and an fp32 absmax per 64 values); the routers of its 26 MoE
    # layers (first_k_dense_replace 1) 64 x 2048 in 16 bits
    kv_a_and_router = 27 * 2048 * (512 + 64) * (4 + 32 / 64) / 8 + 26 * 64 * 2048 * 2
    # + the norms, a few hundred kB
    assert two - one / 2 == pytest.approx(kv_a_and_router / 2, rel=0.02)
