"""What vLLM's weight figure ("model weights take", "Model loading took") holds beyond the parameters' own bytes
(engine/serving/vllm_load.py): load_model's DeviceMemoryProfiler reads torch.cuda.max_memory_allocated after
reset_peak_memory_stats (vllm/worker/model_runner.py lines 1111-1145, vllm/platforms/cuda.py lines 172-176, the v0.8.3
wheel on PyPI), i.e. the caching allocator's allocated blocks, and the model builds the rotary cos_sin_cache buffer
(vllm/model_executor/layers/rotary_embedding.py lines 99-102). The allocator's rules are PyTorch's
c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch at eb42ad6eca0ce61e7c581212b4bf32f991425571): requests round up to
512 bytes; get_allocation_size gives requests over 1 MiB and under 10 MiB a 20 MiB segment and larger ones a segment
rounded up to 2 MiB; should_split splits a large-pool block only when more than kSmallSize (1 MiB) would remain, and
allocated_bytes counts the block."""

from __future__ import annotations

import pytest

from engine.frameworks.allocator import allocated_block_bytes
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.vllm_load import vllm_load_extra_bytes

MIB = 2**20


def test_a_block_keeps_a_remainder_of_one_mib_or_less():
    assert allocated_block_bytes(31.5 * MIB) == 32 * MIB  # 0.5 MiB would remain in the 32 MiB segment: not split
    assert allocated_block_bytes(259 * MIB) == 260 * MIB  # exactly 1 MiB would remain: not more than kSmallSize
    assert allocated_block_bytes(24.5 * MIB) == 24.5 * MIB  # 1.5 MiB remains: split off
    assert allocated_block_bytes(8 * MIB) == 8 * MIB  # a 20 MiB segment, split
    assert allocated_block_bytes(9000) == 9216  # small pool: 512-byte rounding


def test_qwen2_5_7b_weight_figure():
    """Qwen2.5-7B in bf16 at tensor parallel 1 (hidden 3584, q 3584, k/v 512, ffn 18944, vocab 152,064, untied):
    per layer the fused qkv_proj 4,608 x 3,584 x 2 bytes = 31.5 MiB counts 32, o_proj 24.5 MiB counts 24.5, gate_up_proj
    259 MiB counts 260, down_proj 129.5 MiB counts 130: 2 MiB a layer, 56 MiB over 28 layers; the embedding and lm_head
    (1,039.5 MiB each) 0.5 MiB each; the rotary cache max_position x 128 x 2 bytes (the preset's 131,072: 32 MiB; the
    Instruct checkpoint's 32,768 gives 8)."""
    spec = resolve_model(scenario_from_dict({"model": "qwen2.5-7b"}))
    rotary = spec.max_position * 128 * 2
    assert vllm_load_extra_bytes(spec, 1) == pytest.approx(56 * MIB + 1 * MIB + rotary)
    # at tensor parallel 2 the column-parallel tensors halve: qkv 15.75 (+0.25), o 12.25 (+1.75 is split: 0),
    # gate_up 129.5 (+0.5), down 64.75 (+1.25 split: 0), embedding and lm_head 519.75 (+0.25 each)
    assert vllm_load_extra_bytes(spec, 2) == pytest.approx(28 * 0.75 * MIB + 0.5 * MIB + rotary)


def test_the_engine_counts_it_with_its_weights_for_vllm_only():
    """The post-training engine's weights component holds it (an input of its own), for vLLM; SGLang sizes its pool
    from the device's free memory, not this figure, and gets none."""
    base = {"model": "qwen2.5-7b", "training_objective": "grpo", "framework": "trl", "method": "lora",
            "rollout_gpu_memory_utilization": 0.5}
    spec = resolve_model(scenario_from_dict(base))
    vllm = step_parts(scenario_from_dict({**base, "rollout_engine": "vllm"})).engine
    sglang = step_parts(scenario_from_dict({**base, "rollout_engine": "sglang"})).engine
    assert vllm.weight_bytes - sglang.weight_bytes == pytest.approx(vllm_load_extra_bytes(spec, 1))
