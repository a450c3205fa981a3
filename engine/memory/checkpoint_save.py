"""CPU memory a checkpoint save holds on one node: a peak of its own, outside the step.

Modelled where the framework's default save is read at a commit (engine/frameworks/defaults.py checkpoint_save):
- "fsdp1-full": the Hugging Face Trainer and the trainers that subclass it (TRL, ms-swift; not verl, NeMo-RL) under
  FSDP1: accelerate's FullyShardedDataParallelPlugin defaults state_dict_type to FULL_STATE_DICT for fsdp_version 1, with
  FullStateDictConfig(offload_to_cpu=True, rank0_only=True) and FullOptimStateDictConfig(offload_to_cpu=True,
  rank0_only=True) (huggingface/accelerate src/accelerate/utils/dataclasses.py set_state_dict_type, at
  16cb6eb80dd9aa8b4df1a63ef57863e455d53b83). save_fsdp_model gathers the whole model state dict on rank 0's CPU and
  torch.save-s it; save_fsdp_optimizer then gathers the whole optimizer state dict (FSDP.optim_state_dict) on rank 0's
  CPU (src/accelerate/utils/fsdp_utils.py save_fsdp_model, save_fsdp_optimizer, same commit). The two run one after
  the other and each dict is a local of its function, so rank 0 holds the larger of the two, not their sum.
  FSDP2's default is SHARDED_STATE_DICT (each rank its shard through DCP): not modelled (no whole-model copy).
- "torch-dist": Megatron-LM (the megatron row, not its 2021 and 2022 rows; NVIDIA/Megatron-LM at
  d98e8a64ddf34856e74b24714e3bedb2f5a39553): the defaults are ckpt_format "torch_dist", async_save False and
  fully_parallel_save True (megatron/training/config/training_config.py lines 486, 511, 516); a synchronous torch_dist
  save is the async one executed at once (megatron/core/dist_checkpointing/strategies/torch.py
  TorchDistSaveShardedStrategy.save: async_request.execute_sync) and FileSystemWriterAsync.preload_tensors copies
  every tensor this rank writes to the CPU before writing any (strategies/filesystem_async.py).
  FullyParallelSaveStrategyWrapper spreads the writes of the tensors a data-parallel x context-parallel group holds in
  common over its ranks (megatron/training/checkpointing.py: process group dp_cp), so each rank stages its stage's
  weights and, for what trains, the fp32 main copy and optimizer states, over dp x cp; an expert's shard is held in
  common by dp x cp / ep of them (taken at least 1). What an optimizer offload keeps in CPU memory is not copied again
  (preload_tensors' tensor.to("cpu") returns a CPU tensor itself); the TP-replicated norms are counted on every TP
  rank (a few MB over). Megatron-FSDP saves fsdp_dtensor instead (arguments.py asserts it): not modelled.
Not modelled (see the Known-gaps note): torchtune's default save (one epoch: the model alone, gathered on rank 0's
CPU, which the load term already counts: the same full state dict), torchtitan (DCP, async_mode "disabled" by default),
DeepSpeed's save_checkpoint (torch.save of each rank's GPU partitions: what torch.save copies to the CPU at once was
not settled).
Offloaded optimizer states stay in host memory through a save (they are the optimizer's state), so the caller adds
them; offloaded activations do not (they are freed after the backward).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SaveHold:
    node_bytes: float  # CPU bytes the save holds on the busiest node beyond each process's own, at its peak
    formula: str


NONE = SaveHold(0.0, "")


def fsdp1_full_state_dict_save(weight_bytes: float, trainable_params: float,
                               state_bytes_per_param: float) -> SaveHold:
    """Rank 0's CPU while a Trainer under FSDP1 saves: the whole model state dict (weight_bytes, every weight as the
    model holds it) or the whole optimizer state dict (trainable_params x state_bytes_per_param), the larger."""
    optimizer_bytes = trainable_params * state_bytes_per_param
    return SaveHold(max(weight_bytes, optimizer_bytes),
                    "checkpoint save (accelerate FSDP1 FULL_STATE_DICT, rank0_only + offload_to_cpu): the whole "
                    "model state dict or the whole optimizer state dict on rank 0's CPU, the larger")


def megatron_torch_dist_save(gpus_per_node: int, dense_bytes: float, expert_bytes: float, dp_cp: int,
                             ep: int) -> SaveHold:
    """The node's CPU while Megatron saves torch_dist synchronously: each of its GPUs stages its share of what its
    stage holds, dense_bytes (weights, plus main copy and optimizer states of what trains, on one GPU) over the
    dp x cp ranks that hold it too, expert_bytes over dp x cp / ep of them."""
    per_rank = dense_bytes / dp_cp + expert_bytes / max(1, dp_cp // ep)
    return SaveHold(gpus_per_node * per_rank,
                    "checkpoint save (Megatron torch_dist, synchronous: FileSystemWriterAsync.preload_tensors): each "
                    "GPU's share of its stage's weights, main copy and optimizer states, staged in CPU memory")
