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
- "deepspeed-torch-save": DeepSpeed's engine.save_checkpoint with its defaults (the deepspeed row; deepspeedai/
  DeepSpeed at edaa7221267243c7be7fb49c5d5f5c4fb97b4641, TorchCheckpointEngine: torch.save, checkpoint_engine/
  torch_checkpoint_engine.py line 32). torch.save copies one storage at a time to the CPU and writes it before the next
  (pytorch/pytorch at 000a1a54cb9c torch/serialization.py _save: storage = storage.cpu(), then zip_file.write_record),
  and a tensor that is a view saves its whole storage. So each rank holds, at once, the largest storage it writes:
  * the writer of the model states (data-parallel rank 0 of each tensor-parallel group, checkpoint_engine.py line 48;
    runtime/engine.py lines 1587-1589) under ZeRO-1/2 or BF16_Optimizer saves module.state_dict(), whose trainable
    weights are views of one flat 16-bit buffer per parameter group (zero/stage_1_and_2.py lines 795-803
    _update_model_bit16_weights; bf16_optimizer.py lines 154-158): the group's whole 16-bit buffer, one group holding
    (nearly) every trainable weight (a Trainer's weight-decay group leaves out only biases and norms); under ZeRO-3 the
    module's parameters are empty placeholders;
  * every rank saves its optimizer partition (_save_zero_checkpoint, engine.py lines 5409-5424): the flat fp32 master
    partition of each group (stage_1_and_2.py lines 492-509, bf16_optimizer.py line 170; ZeRO-3 fp32_partitioned_groups_flat
    per sub-group of at most sub_group_size = 1e9 values, zero/config.py line 175, stage3.py lines 3165-3181) and its
    Adam states, each 4 bytes x trainable / (dp x cp); with the optimizer offloaded they are CPU tensors already,
    nothing is copied;
  * with frozen parameters under ZeRO-2 and ZeRO-3 every rank first builds frozen_param_fragments (engine.py line 5245
    save_frozen_param = stage >= 2 and not exclude_frozen_parameters, whose default is False; lines 4897-4906 and
    5293-5306: param.detach().cpu(), the whole frozen weight under ZeRO-2, ds_tensor.detach().cpu(), its partition,
    under ZeRO-3), held together until _save_checkpoint returns; a parameter offloaded to the CPU is not copied.
  The writer holds the fragments with its largest module storage, then the optimizer partition; the other ranks hold
  the fragments, then the optimizer partition. The ranks save without a barrier between the two files, so the node's
  peak is taken as every rank at its own peak at once. Not modelled: pipeline parallelism (PipelineEngine saves each
  layer through clone_tensors_for_torch_save), DeepSpeed's MoE layers (_save_moe_checkpoint), stage 0 without
  BF16_Optimizer (FP16_Optimizer's flat fp32 groups).
Not modelled (see the Known-gaps note): torchtune's default save (one epoch: the model alone, gathered on rank 0's
CPU, which the load term already counts: the same full state dict), torchtitan (DCP, async_mode "disabled" by default).
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


# DeepSpeed's master partition: the 16-bit one in master_weights_and_grads_dtype, fp32 by default (stage_1_and_2.py
# lines 492-493), .float() under BF16_Optimizer (bf16_optimizer.py line 170)
FP32_BYTES = 4
SUB_GROUP_VALUES = 1e9  # ZeRO-3's default sub_group_size (deepspeed/runtime/zero/config.py line 175 at edaa7221)


@dataclass(frozen=True, slots=True)
class DeepSpeedSaveInputs:
    """One rank's figures for DeepSpeed's save_checkpoint (the module docstring's "deepspeed-torch-save")."""

    stage: int  # the ZeRO stage (0: BF16_Optimizer, which shards like ZeRO-1)
    trainable: float  # trainable values on one GPU (the flat 16-bit buffer's, before sharding)
    weight_bytes: float  # bytes of one 16-bit weight value
    shards: int  # the ranks the optimizer partition is split over (dp x cp)
    optimizer_on_cpu: bool  # offloaded: the master partition and the Adam states are CPU tensors already
    params_on_cpu: bool  # ZeRO-3 parameter offload: the frozen partitions are CPU tensors already
    frozen_bytes: float  # frozen weights on one GPU, as held (16-bit, or 4-bit QLoRA bases), before sharding
    largest_param_bytes: float  # the largest single weight (a frozen one is a storage of its own)


def deepspeed_save_checkpoint(gpus_per_node: int, writers: int, x: DeepSpeedSaveInputs) -> SaveHold:
    """The node's CPU while DeepSpeed's save_checkpoint runs: `writers` ranks of the node write the model states, each
    rank its optimizer partition; every rank at its own peak at once."""
    values = x.trainable / x.shards
    partition = 0.0 if x.optimizer_on_cpu else FP32_BYTES * (min(values, SUB_GROUP_VALUES) if x.stage == 3 else values)
    fragments = 0.0
    if x.stage == 2:
        fragments = x.frozen_bytes
    elif x.stage == 3 and not x.params_on_cpu:
        fragments = x.frozen_bytes / x.shards
    module = 0.0 if x.stage == 3 else max(x.trainable * x.weight_bytes, x.largest_param_bytes)
    writer = max(fragments + module, partition)
    other = max(fragments, partition)
    return SaveHold(writers * writer + (gpus_per_node - writers) * other,
                    "checkpoint save (DeepSpeed save_checkpoint, torch.save one storage at a time): on each rank the "
                    "frozen weights' CPU fragments (ZeRO-2/3) or its fp32 optimizer partition, on the model-state "
                    "writers also the flat 16-bit buffer of the trainable weights (ZeRO-1/2)")
