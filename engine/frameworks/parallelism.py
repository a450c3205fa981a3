"""Which layouts each framework can run: its pipeline schedules, the ZeRO / FSDP sharding it runs (alone and with a
pipeline) and whether it has tensor, ring-context and expert parallelism, each fact with where it is written, at the
release its row of engine/frameworks/defaults.py describes.

A fact that was not read stays permissive (the layout is allowed) and says so in its source: a layout is refused only
where the framework's own code refuses it or has no code for it. The searches (engine/planning/) do not propose what
a framework cannot run, and the estimate warns about it (engine/scenario/framework_support.py).
"""

from __future__ import annotations

from dataclasses import dataclass

# the scenario format's pipeline schedules (engine/scenario/format.py PP_SCHEDULES; that module imports this package,
# so the names are repeated here and tests/test_framework_parallelism.py holds them equal)
ALL_SCHEDULES = ("1f1b", "gpipe", "interleaved-1f1b")
FSDP = 3  # FSDP full sharding shards as ZeRO-3 does (Scenario.effective_zero)


@dataclass(frozen=True, slots=True)
class Parallelism:
    pp_schedules: tuple[str, ...] = ALL_SCHEDULES  # the pipeline schedules it runs; () : no pipeline parallelism
    max_zero: int = FSDP  # the deepest sharding it has: 0 none, 1 optimizer states, 2 + gradients, 3 + weights (FSDP)
    max_zero_with_pp: int = FSDP  # ... and the deepest it runs together with pipeline parallelism
    tensor: bool = True
    context: bool = True  # ring context parallelism, what the scenario's cp is (engine/timing/context_parallel.py)
    expert: bool = True
    sources: tuple[tuple[str, str], ...] = ()  # (fact, where it is written); "not read" for the permissive ones

    def cannot_run(self, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int) -> tuple[str, ...]:
        """The settings of a layout this framework cannot run, by name: "pp", "pp_schedule", "zero_with_pp", "zero",
        "tp", "cp", "ep" (zero is the effective stage: 3 for FSDP)."""
        out: tuple[str, ...] = ()
        if pp > 1 and not self.pp_schedules:
            out += ("pp",)
        elif pp > 1 and pp_schedule not in self.pp_schedules:
            out += ("pp_schedule",)
        if zero > self.max_zero:
            out += ("zero",)
        elif pp > 1 and self.pp_schedules and zero > self.max_zero_with_pp:
            out += ("zero_with_pp",)
        if tp > 1 and not self.tensor:
            out += ("tp",)
        if cp > 1 and not self.context:
            out += ("cp",)
        if ep > 1 and not self.expert:
            out += ("ep",)
        return out


ANY = Parallelism(sources=(("parallelism", "not read: every layout is allowed"),))

_TORCH_PIPELINING = ("pipeline schedules", "torch/distributed/pipelining/schedules.py: ScheduleGPipe, Schedule1F1B, "
                     "ScheduleInterleaved1F1B (get_schedule_class)")
PYTORCH = Parallelism(sources=(
    _TORCH_PIPELINING,
    ("parallelism", "plain PyTorch composes fully_shard (FSDP2), DTensor tensor parallelism, context_parallel (ring "
     "attention) and pipelining itself: every layout is allowed"),
))
TORCHTITAN = Parallelism(sources=(
    _TORCH_PIPELINING,
    ("parallelism", "pytorch/torchtitan torchtitan/distributed/parallel_dims.py at b5bcd76c66d0 ParallelDims: "
     "dp_replicate, dp_shard (FSDP2), cp, tp, pp, ep; torchtitan/distributed/pipeline_parallel.py "
     "get_schedule_class(parallelism.pipeline_parallel_schedule), FSDP2 with PP (parallelize.py "
     "reshard_after_forward = not pp_enabled)"),
))
OLMO_CORE = Parallelism(sources=(
    ("parallelism", "allenai/OLMo-core at fa6c5014c9f6: src/olmo_core/distributed/parallel/pipeline_parallel.py "
     "PipelineScheduleType (1F1B, Interleaved1F1B, GPipe, ...), train_module/transformer/config.py "
     "TransformerTensorParallelConfig, TransformerContextParallelConfig, TransformerExpertParallelConfig"),
))
# transformers' Trainer shards through accelerate (FSDP, or DeepSpeed ZeRO-1 to 3) and has no pipeline of its own
HUGGINGFACE = Parallelism(pp_schedules=(), sources=(
    ("pipeline schedules", "huggingface/accelerate src/accelerate/parallelism_config.py at 16cb6eb80 "
     "ParallelismConfig: dp_replicate_size, dp_shard_size, tp_size, cp_size (cp_backend torch, FSDP2), sp_size "
     "(DeepSpeed Ulysses): no pipeline dimension; transformers.Trainer trains through it"),
    ("tensor, context, expert", "tp_size and cp_size above; expert parallelism not read (allowed)"),
))
# Unsloth trains through transformers' Trainer (TRL's SFTTrainer): no pipeline, as the Hugging Face row
UNSLOTH = Parallelism(pp_schedules=(), sources=(
    ("pipeline schedules", "Unsloth trains with TRL's SFTTrainer, a transformers.Trainer: "
     + HUGGINGFACE.sources[0][1]),
    ("tensor, context, expert", "not read (allowed)"),
))
TORCHTUNE = Parallelism(pp_schedules=(), expert=False, sources=(
    ("pipeline schedules", "pytorch/torchtune at bd2a0fc7c314 torchtune/training/_distributed.py ParallelDims: "
     "dp_replicate, dp_shard (FSDP2 fully_shard), tp, cp; no pipeline dimension (recipes/full_finetune_distributed.py "
     "builds the mesh from tensor_parallel_dim, context_parallel_dim, data_parallel_shard_dim and "
     "data_parallel_replicate_dim)"),
    ("expert", "the same ParallelDims (torchtune bd2a0fc7c314): no expert-parallel dimension"),
))
LITGPT = Parallelism(pp_schedules=(), tensor=False, context=False, expert=False, sources=(
    ("pipeline schedules", "Lightning-AI/litgpt at 26857050fe3f: litgpt/pretrain.py and finetune/full.py train "
     "under lightning.fabric FSDPStrategy, finetune/lora.py under ModelParallelStrategy(data_parallel_size=..., "
     "tensor_parallel_size=1): no pipeline"),
    ("tensor", "litgpt 26857050fe3f finetune/lora.py: tensor_parallel_size=1 (generate/tp.py is inference only)"),
    ("context", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without context parallelism"),
    ("expert", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without expert parallelism"),
))
DEEPSPEED = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, sources=(
    ("pipeline schedules", "deepspeedai/DeepSpeed at edaa7221 (0.19.6.dev) deepspeed/runtime/pipe/engine.py "
     "train_batch runs schedule.TrainSchedule, a 1F1B schedule (runtime/pipe/schedule.py), and no other"),
    ("ZeRO with PP", "deepspeed/runtime/pipe/engine.py at edaa7221 lines 76-77: assert self.zero_optimization_stage()"
     " < ZeroStageEnum.gradients, 'ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism'"),
    ("tensor", "AutoTP training: deepspeed/runtime/tensor_parallel/config.py autotp_size (f04649d27, #7004, "
     "v0.16.4); runtime/engine.py at edaa7221 line 666: AutoTP with ZeRO-3 is supported"),
    ("context", "no ring attention in deepspeed/ at edaa7221: its sequence parallelism is Ulysses "
     "(deepspeed/sequence/layer.py DistributedAttention, runtime/sequence_parallel/ulysses_sp.py), an all-to-all "
     "of heads, not the scenario's cp"),
    ("expert", "deepspeed/moe/layer.py at edaa7221 MoE(ep_size=...)"),
))
# BigScience's Megatron-DeepSpeed runs of 2022: Megatron's tensor parallelism, DeepSpeed 0.6's PipelineEngine
DEEPSPEED_2022 = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, sources=(
    ("pipeline schedules", "deepspeedai/DeepSpeed at 2151c787a (0.6.0) deepspeed/runtime/pipe/schedule.py: "
     "TrainSchedule (1F1B) is its only training schedule"),
    ("ZeRO with PP", "deepspeed/runtime/pipe/engine.py at 2151c787a line 72: assert self.zero_optimization_stage() "
     "< 2, 'ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism'"),
    ("tensor", "Megatron-DeepSpeed's Megatron layers (mpu) split over tensor-parallel ranks"),
    ("context", "no ring attention at 2151c787a (no deepspeed/sequence package; Ulysses came in 2023) nor in "
     "Megatron-LM of 2022 (285068c8 megatron/arguments.py: no --context-parallel-size)"),
    ("expert", "deepspeed/moe at 2151c787a (MoE with ep_size)"),
))
# DeepSpeed as SC21's ZeRO-3 baseline ran it (April 2021, 0.3.14)
DEEPSPEED_2021 = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, expert=False, sources=(
    ("pipeline schedules", "deepspeedai/DeepSpeed at 112ebff6e86a (0.3.14) deepspeed/runtime/pipe/schedule.py: "
     "TrainSchedule (1F1B) is its only training schedule"),
    ("ZeRO with PP", "fbece50b2 (pull request #980, 2021-04-19, 'assert no Z2/Z3 with pipeline'): "
     "runtime/pipe/engine.py asserts zero_optimization_stage() < 2; at 112ebff it ran ZeRO-2 with a pipeline "
     "'enough to run a demo' (engine.py line 214)"),
    ("tensor", "through the model's own mpu (Megatron's): allowed"),
    ("context", "no ring attention at 112ebff (no deepspeed/sequence package) nor in Megatron-LM of 2021 "
     "(de7dc40f88 megatron/arguments.py: no --context-parallel-size)"),
    ("expert", "no deepspeed/moe package at 112ebff (it came with 0.5.0)"),
))
_MEGATRON_SCHEDULES = ("pipeline schedules", "megatron/core/pipeline_parallel/schedules.py (Megatron-LM d98e8a6; "
                       "megatron/schedules.py at de7dc40f88 and 285068c8) get_forward_backward_func: "
                       "forward_backward_no_pipelining, forward_backward_pipelining_without_interleaving (1F1B) or "
                       "forward_backward_pipelining_with_interleaving; no GPipe")
MEGATRON = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), sources=(
    _MEGATRON_SCHEDULES,
    ("ZeRO", "NVIDIA/Megatron-LM at d98e8a64ddf3: --use-distributed-optimizer is ZeRO-1; ZeRO-2 and ZeRO-3 are "
     "Megatron-FSDP's --data-parallel-sharding-strategy optim_grads / optim_grads_params (since d165a8548b, "
     "2025-02-26, core_v0.12.0, as --use-custom-fsdp; megatron/training/arguments.py lines 1118-1165), which "
     "asserts no pipeline limit (only "
     "--use-torch-fsdp2 asserts pipeline_model_parallel_size == 1, line 1034, and Megatron-FSDP v2, "
     "mcore_fsdp_adapter.py line 627, refuses tp, pp and cp > 1); docs/user-guide/features/megatron_fsdp.md: "
     "'compatible with ... Tensor Parallelism (TP) and Expert Parallelism (EP)'"),
    ("tensor, context, expert", "--tensor-model-parallel-size, --context-parallel-size (Transformer Engine's ring), "
     "--expert-model-parallel-size"),
))
MEGATRON_2022 = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), max_zero=1, context=False, expert=False,
                            sources=(
    _MEGATRON_SCHEDULES,
    ("ZeRO", "NVIDIA/Megatron-LM megatron/arguments.py at 285068c8 (2023-01-11): --use-distributed-optimizer "
     "(ZeRO-1, line 874) is its only sharding"),
    ("context", "megatron/arguments.py at 285068c8: no --context-parallel-size"),
    ("expert", "megatron/arguments.py at 285068c8: --num-experts builds SwitchMLP, every expert on every rank "
     "(megatron/model/transformer.py SwitchMLP: one ParallelMLP per expert); no expert parallelism"),
))
MEGATRON_2021 = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), max_zero=0, context=False, expert=False,
                            sources=(
    _MEGATRON_SCHEDULES,
    ("ZeRO", "NVIDIA/Megatron-LM megatron/arguments.py at de7dc40f88 (2021-08-10): no --use-distributed-optimizer "
     "(it came in 2022); gradients and optimizer states are whole on every data-parallel rank"),
    ("context", "megatron/arguments.py at de7dc40f88: no --context-parallel-size"),
    ("expert", "megatron/arguments.py at de7dc40f88: no --num-experts"),
))
INTERNEVO = Parallelism(pp_schedules=(), max_zero=1, context=False, expert=False, sources=(
    ("pipeline schedules", "InternLM/InternEvo train.py at c18bec9 lines 96-97: assert gpc.config.parallel.pipeline "
     "== 1, 'Pipeline parallelism is not supported for now.'"),
    ("ZeRO", "internlm/solver/optimizer/hybrid_zero_optim.py at c18bec9: HybridZeroOptimizer shards the optimizer "
     "states over parallel.zero1 ranks (ZeRO-1) only"),
    ("context", "internlm/core/context/process_group_initializer.py at c18bec9 ParallelMode: global, data, "
     "model, pipe, tensor, zero1 groups; no sequence or context group"),
    ("expert", "no MoE layer at c18bec9 (the same ParallelMode: no expert group)"),
))
ALEPH_ALPHA_SCALING = Parallelism(pp_schedules=("1f1b",), max_zero=1, context=False, expert=False, sources=(
    ("pipeline schedules", "Aleph-Alpha/scaling at 78489292be src/scaling/core/nn/pipeline_schedule/train.py "
     "PipelineScheduleTrain: 2 x (gradient_accumulation_steps + pipe_parallel_size - 1) steps of one forward or "
     "one backward, DeepSpeed's 1F1B TrainSchedule"),
    ("ZeRO", "src/scaling/core/optimizer/optimizer_config.py at 78489292be: zero, 'enable zero stage 1 optimizer', "
     "its only sharding"),
    ("context", "src/scaling/core/topology/topology_config.py at 78489292be: model_parallel_size, "
     "pipe_parallel_size, data_parallel_size and a sequence_parallel flag; no context-parallel size"),
    ("expert", "topology_config.py at 78489292be: no expert-parallel size"),
))
# The post-training frameworks' rows (TRL, verl, OpenRLHF, ms-swift, NeMo-RL): their trainers were not read layout by
# layout. TRL's subclass transformers.Trainer (the Hugging Face row's facts would hold), but verl and NeMo-RL also
# train through Megatron-Core workers, ms-swift through Megatron too, OpenRLHF through DeepSpeed with ring attention.
POST_TRAINING = Parallelism(sources=(("parallelism", "not read (allowed): the post-training frameworks train through "
                                                     "several backends (transformers, FSDP, DeepSpeed, Megatron-Core)"),))
