"""The CPU memory a checkpoint save holds (engine/memory/checkpoint_save.py).

Source: huggingface/accelerate at 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83, src/accelerate/utils/dataclasses.py
set_state_dict_type (FSDP1 defaults to FULL_STATE_DICT with offload_to_cpu=True, rank0_only=True for the model and the
optimizer; FSDP2 to SHARDED_STATE_DICT) and src/accelerate/utils/fsdp_utils.py save_fsdp_model / save_fsdp_optimizer
(the whole model state dict, then the whole optimizer state dict, each on rank 0's CPU, one after the other).
NVIDIA/Megatron-LM at d98e8a64ddf34856e74b24714e3bedb2f5a39553: ckpt_format torch_dist, async_save False,
fully_parallel_save True (megatron/training/config/training_config.py); AsyncRequest.execute_sync stages the write
buckets to CPU memory first (megatron/core/dist_checkpointing/strategies/async_utils.py, filesystem_async.py
preload_tensors); the fully parallel save spreads the common tensors over the dp x cp group."""

import pytest

from engine.memory.checkpoint_save import fsdp1_full_state_dict_save, megatron_torch_dist_save
from engine.memory.estimate import estimate
from engine.memory.loading import PROCESS_HOST_BYTES
from engine.scenario import resolve_model
from engine.scenario.file import load_scenario

EXAMPLE = "examples/7b-zero3-8x-a100-40g.json"  # Llama 2 7B, mixed-bf16, AdamW, 8 GPUs in one node


def _fsdp(version: int, framework: str = "huggingface"):
    return load_scenario(EXAMPLE).with_unchecked(framework=framework, fsdp=True, fsdp_version=version)


def test_the_larger_dict_not_their_sum():
    # 7e9 weights in bf16 (14 GB) against 7e9 x two fp32 Adam states (56 GB): the optimizer's dict is the peak
    hold = fsdp1_full_state_dict_save(14e9, 7e9, 8)
    assert hold.node_bytes == 56e9
    # a LoRA run: the weights' dict (14 GB) beats the adapters' states (20M x 8 B)
    assert fsdp1_full_state_dict_save(14e9, 20e6, 8).node_bytes == 14e9


def test_hugging_face_fsdp1_node_holds_the_optimizer_state_dict():
    s = _fsdp(1)
    est = estimate(s)
    params = resolve_model(s).total_params
    # 8 processes x 2.5 GiB + rank 0's whole optimizer state dict: AdamW's two fp32 states per parameter (8 B)
    assert est.host_bytes == 8 * PROCESS_HOST_BYTES + params * 8
    assert "FULL_STATE_DICT" in est.host_formula


def test_fsdp2_and_other_frameworks_unchanged():
    # FSDP2 saves SHARDED_STATE_DICT by default (no whole-model copy); torchtune's default one-epoch save gathers the
    # model alone on rank 0's CPU, the state dict the load term already counts (full 16-bit weights)
    for s in (_fsdp(2), _fsdp(1, "torchtune")):
        est = estimate(s)
        params = resolve_model(s).total_params
        assert est.host_bytes == 8 * PROCESS_HOST_BYTES + params * 2
        assert "FULL_STATE_DICT" not in est.host_formula


def test_megatron_node_stages_one_copy_of_the_checkpoint():
    # one node of 8 GPUs, TP 2 x DP 4: the 4 data-parallel ranks split their stage's share, so the node stages one copy
    # of the whole checkpoint: bf16 weights (2 B) + fp32 main copy (4 B) + two fp32 Adam states (8 B) = 14 B a parameter
    s = load_scenario(EXAMPLE).with_unchecked(framework="megatron", zero_stage=1, tp=2)
    est = estimate(s)
    params = resolve_model(s).total_params
    # + the RMSNorm weights each tensor-parallel rank holds whole (32 layers x 2 + 1 final, 4,096 each: 266,240 x 14
    # B), counted on both TP ranks although the checkpoint writes them once
    assert est.host_bytes == 8 * PROCESS_HOST_BYTES + (params + 65 * 4096) * 14
    assert "torch_dist" in est.host_formula


def test_megatron_expert_share():
    # 8 GPUs, DP 8, EP 8: each expert shard is held by dp x cp / ep = 1 rank of the group, so a rank stages all of it;
    # EP 2: 4 ranks hold each shard, a quarter each
    assert megatron_torch_dist_save(8, 0.0, 100.0, 8, 8).node_bytes == 8 * 100.0
    assert megatron_torch_dist_save(8, 80.0, 100.0, 8, 2).node_bytes == 8 * (10.0 + 25.0)


def test_megatron_offloaded_states_not_staged_again():
    # --optimizer-cpu-offload keeps the main copy and Adam states in CPU memory (16 B a parameter, engine/memory/
    # loading.py OFFLOAD_BYTES_PER_PARAM, spread over the 4 data-parallel ranks of each TP pair: one copy a node);
    # preload_tensors' tensor.to("cpu") returns those tensors as they are, so the save stages the bf16 weights only (2 B)
    s = load_scenario(EXAMPLE).with_unchecked(framework="megatron", zero_stage=1, tp=2, offload="optimizer")
    est = estimate(s)
    params = resolve_model(s).total_params + 65 * 4096  # the norms each TP rank holds whole, as above
    assert est.host_bytes == pytest.approx(8 * PROCESS_HOST_BYTES + params * 16 + params * 2, rel=1e-12)
