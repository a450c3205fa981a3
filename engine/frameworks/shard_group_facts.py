"""At which sharding stages each framework shards within groups of fewer than all its data-parallel ranks and
replicates across the groups (HSDP, hybrid ZeRO: the scenario's dp_shard, engine/scenario/shard_group.py), each fact
with where it is written, at the commit its row of engine/frameworks/parallelism.py already cites where that has it.

The stages are the engine's effective ones (Scenario.effective_zero): 1 the optimizer states (ZeRO-1, Megatron's
distributed optimizer), 2 + gradients, 3 + weights (FSDP, ZeRO-3). A framework whose row is not read here keeps every
stage (Parallelism.shard_group_stages' default), as its other facts are permissive. The estimate warns about a group its
framework cannot run (engine/scenario/framework_support.py), and the searches neither try nor keep one
(engine/planning/shard_group_choice.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from .parallelism_row import Parallelism


class ShardGroups(NamedTuple):
    stages: tuple[int, ...]  # the effective stages it runs a group at; () : none, it shards over every rank
    source: str  # where that is written


def grouped(row: Parallelism, facts: ShardGroups) -> Parallelism:
    """row with the stages it runs a shard group at, and their source as its "shard group" fact."""
    return replace(row, shard_group_stages=facts.stages, sources=(*row.sources, ("shard group", facts.source)))


_MICS = ("deepspeedai/DeepSpeed at edaa7221 deepspeed/runtime/engine.py lines 2382-2410: ZeRO-1 and 2 build "
         "Stage1And2ZeroOptimizer over dp_process_group=self.seq_data_parallel_group, every data-parallel rank; lines "
         "2434-2469: ZeRO-3 alone returns the MiCS optimizer where mics_shard_size > 0 (runtime/zero/mics.py line 361 "
         "MiCS_Optimizer(DeepSpeedZeroOptimizer_Stage3), states sharded within mics_shard_size ranks, replicated "
         "across); ZeRO++'s hpZ (zero_hpz_partition_size) partitions a secondary copy of the weights only, gradients "
         "and optimizer states still over every rank")
DEEPSPEED = ShardGroups((3,), _MICS)
# accelerate's FSDP1 hybrid strategies, its FSDP2 mesh and DeepSpeed through a DeepSpeed config
HUGGINGFACE = ShardGroups((2, 3), (
    "huggingface/accelerate at 16cb6eb80 src/accelerate/utils/constants.py line 38 FSDP_SHARDING_STRATEGY "
    "'HYBRID_SHARD', 'HYBRID_SHARD_ZERO2' (utils/dataclasses.py lines 1839-1843: ShardingStrategy(index + 1), "
    "torch's HYBRID_SHARD and _HYBRID_SHARD_ZERO2, FULL_SHARD or SHARD_GRAD_OP within a node and replicated across "
    "nodes; the latter reads as ZeRO-2, engine/configs/accelerate.py HYBRID); parallelism_config.py lines 61-64: "
    "dp_replicate_size > 1 with dp_shard_size > 1 is HSDP (FSDP2); DeepSpeed through its config: " + _MICS
    + ". No group at ZeRO-1 (FSDP has no optimizer-only stage, DeepSpeed's ZeRO-1 spans every rank)"))
TRAINER = ShardGroups(HUGGINGFACE.stages, "through transformers.Trainer and accelerate, the Hugging Face row's: "
                      + HUGGINGFACE.source)
TORCHTITAN = ShardGroups((3,), (
    "pytorch/torchtitan at b5bcd76c66d0 torchtitan/models/llama3/parallelize.py lines 62-65: fully_shard over the "
    "['dp_replicate', 'fsdp'] mesh where parallel_dims.dp_replicate_enabled (distributed/parallel_dims.py lines "
    "134-135 dp_replicate, dp_shard): FSDP2's HSDP, at its only sharding"))
TORCHTUNE = ShardGroups((3,), (
    "pytorch/torchtune at bd2a0fc7c314 recipes/full_finetune_distributed.py lines 169-174 (lora_finetune_distributed.py "
    "lines 166-171) data_parallel_replicate_dim -> ParallelDims(dp_replicate=...), lines 681-691 (lora 543-553) "
    "shard_model over the ('dp_replicate', 'dp_shard_cp') mesh where dp_replicate_enabled: FSDP2's HSDP, at its only "
    "sharding"))
OLMO_CORE = ShardGroups((3,), (
    "allenai/OLMo-core at fa6c5014c9f6 src/olmo_core/distributed/parallel/data_parallel.py line 29 "
    "DataParallelType.hsdp, lines 38-41 num_replicas, shard_degree (get_replicate_and_shard_degree: one replica per "
    "node by default): FSDP2's HSDP, at its only sharding"))
LITGPT = ShardGroups((3,), (
    "Lightning-AI/litgpt at 26857050fe3f litgpt/pretrain.py line 143 FSDPStrategy(..., sharding_strategy="
    "'HYBRID_SHARD') on more than one GPU (torch's HYBRID_SHARD: FULL_SHARD within a node, replicated across nodes); "
    "finetune/full.py and adapter.py keep FULL_SHARD"))
NEMO_AUTOMODEL = ShardGroups((3,), (
    "NVIDIA-NeMo/Automodel at 36044ad3d139 nemo_automodel/components/distributed/mesh_utils.py lines 71-76: "
    "dp_replicate_size > 1 only with FSDP2Config; parallelizer.py lines 314-315 'if dp_replicate_size > 1, use HSDP' "
    "(get_fsdp_dp_mesh over dp_replicate x dp_shard_cp)"))
VERL = ShardGroups((3,), (
    "volcengine/verl at b178a3cd56f5 verl/workers/fsdp_workers.py lines 98-105 create_device_mesh: fsdp_size below "
    "the world size builds the ('ddp', 'fsdp') mesh, lines 108-123 HYBRID_SHARD over it (FSDP, its only sharding)"))
NEMO_RL = ShardGroups((3,), (
    "NVIDIA-NeMo/RL at 7ea279abfbeb nemo_rl/models/automodel/setup.py lines 464-473: dtensor_cfg.dp_replicate_size "
    "copies of the FSDP2 shard groups ('HSDP requires the data-parallel axis to evenly contain the replicate dim')"))
OPENRLHF = ShardGroups((), (
    "OpenRLHF/OpenRLHF at 3c3be6234e0c openrlhf/utils/deepspeed/deepspeed_utils.py lines 7-38: get_train_ds_config "
    "writes the training DeepSpeed config with zero_hpz_partition_size (line 36, ZeRO++'s hpZ: a secondary weight "
    "copy) and no mics_shard_size, so its ZeRO shards over every data-parallel rank (" + _MICS + ")"))
DEEPSPEED_2022 = ShardGroups((3,), (
    "MiCS came with DeepSpeed v0.9.2 (deepspeedai/DeepSpeed 2e99f6edf, #2964, 2023-04-25; none at 2151c787a, 0.6.0), "
    "inside the row's 0.4.4-0.12 range: ZeRO-3 only, as the DeepSpeed row's: " + _MICS))
DEEPSPEED_2021 = ShardGroups((), (
    "deepspeedai/DeepSpeed at 112ebff6e86a (0.3.14): no MiCS (deepspeed/runtime/zero/mics.py came with v0.9.2, "
    "2e99f6edf) nor hpZ: ZeRO shards over every data-parallel rank"))
MEGATRON = ShardGroups((1, 2, 3), (
    "NVIDIA/Megatron-LM at d98e8a64ddf3 megatron/training/arguments.py line 3216 --num-distributed-optimizer-instances: "
    "the distributed optimizer (ZeRO-1) within dp x cp / N ranks (megatron/core/parallel_state.py lines 922-929); "
    "Megatron-FSDP (its ZeRO-2 / 3, optim_grads / optim_grads_params) runs the same instances as its HSDP "
    "(core/distributed/fsdp/mcore_fsdp_adapter.py line 346 enable_hsdp = num_distributed_optimizer_instances > 1; "
    "arguments.py line 3195 --outer-dp-sharding-strategy)"))
MEGATRON_2022 = ShardGroups((), (
    "NVIDIA/Megatron-LM 285068c8 megatron/arguments.py line 874 --use-distributed-optimizer shards over the whole "
    "data-parallel group: no --num-distributed-optimizer-instances in megatron/ there"))
MEGATRON_2021 = ShardGroups((), "NVIDIA/Megatron-LM de7dc40f88: no sharding at all (its ZeRO fact)")
INTERNEVO = ShardGroups((1,), (
    "InternLM/InternEvo at c18bec9 internlm/core/context/process_group_initializer.py lines 293-333 Initializer_Zero1: "
    "zero1 groups of parallel.zero1 consecutive data-parallel ranks, the optimizer states partitioned within them "
    "(internlm/solver/optimizer/hybrid_zero_optim.py lines 129-135), its only sharding"))
ALEPH_ALPHA_SCALING = ShardGroups((), (
    "Aleph-Alpha/scaling at 78489292be src/scaling/core/optimizer/parameter_group.py lines 48-63 "
    "get_data_parallel_partitions splits over topology.config.data_parallel_size, the whole data-parallel group; "
    "optimizer_config.py line 34 zero is a flag, with no group size"))
UNSLOTH = ShardGroups((), (
    "unslothai/unsloth at 015bdef0d94a unsloth/_gpu_init.py line 135 'Multi-GPU is not yet supported': one GPU, no "
    "data-parallel ranks to group"))
