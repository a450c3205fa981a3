"""Which layouts each framework can run: its pipeline schedules, the ZeRO / FSDP sharding it runs (alone and with a
pipeline) and whether it has tensor, ring-context and expert parallelism, each fact with where it is written, at the
release its row of engine/frameworks/defaults.py describes.

A fact that was not read stays permissive (the layout is allowed) and says so in its source: a layout is refused only
where the framework's own code refuses it or has no code for it. The searches (engine/planning/) do not propose what
a framework cannot run, and the estimate warns about it (engine/scenario/framework_support.py).

What a framework runs can depend on the training method too (a 4-bit QLoRA base cannot be sharded by Hugging Face's
tensor parallelism; torchtune's LoRA recipe has no tensor parallelism): a row's `methods` holds, per method, the
further limits of that method, each with its source; a method without an entry runs every layout the row runs.
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
    # method (the scenario's "lora", "qlora", "freeze") -> the further limits it runs under, a row with its own sources
    methods: tuple[tuple[str, Parallelism], ...] = ()

    def method_limits(self, method: str) -> Parallelism | None:
        """The further limits the training method runs under in this framework; None where it has none of its own."""
        return next((row for name, row in self.methods if name == method), None)

    def for_method(self, method: str) -> Parallelism:
        """This row with the method's limits applied: what the framework runs when it trains with the method."""
        row = self.method_limits(method)
        if row is None:
            return self
        return Parallelism(tuple(s for s in self.pp_schedules if s in row.pp_schedules),
                           min(self.max_zero, row.max_zero), min(self.max_zero_with_pp, row.max_zero_with_pp),
                           self.tensor and row.tensor, self.context and row.context, self.expert and row.expert,
                           (*self.sources, *row.sources))

    def cannot_run(self, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int,
                   method: str) -> tuple[str, ...]:
        """The settings of a layout this framework cannot run when it trains with the method, by name: "pp",
        "pp_schedule", "zero_with_pp", "zero", "tp", "cp", "ep" (zero is the effective stage: 3 for FSDP)."""
        out = self._refused(tp, pp, pp_schedule, cp, ep, zero)
        row = self.method_limits(method) if self.methods else None
        if row is None:  # what either row refuses is refused (no allocation: the searches call this per layout)
            return out
        return out + tuple(n for n in row._refused(tp, pp, pp_schedule, cp, ep, zero) if n not in out)

    def _refused(self, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int) -> tuple[str, ...]:
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
TORCHTITAN = Parallelism(methods=(("lora", Parallelism(sources=(
    ("parallelism", "pytorch/torchtitan at b5bcd76c66d0 torchtitan/components/lora.py: the adapters' sharding follows "
     "the base linear's tensor-parallel sharding (colwise / rowwise): allowed; no QLoRA there (no quantized base)"),
))),), sources=(
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
# QLoRA's base is bitsandbytes' Linear4bit: its Params4bit packs the whole weight into one column with one quant_state,
# which FSDP shards as a flat tensor (peft's FSDP-QLoRA and ZeRO-3 QLoRA) but no tensor-parallel plan can split
_BNB_QLORA_TP = ("tensor", "a 4-bit bitsandbytes base cannot be sharded by transformers' tensor parallelism: "
                 "bitsandbytes-foundation/bitsandbytes at 95f9af309d4d bitsandbytes/_ops.py line 235, quantize_4bit "
                 "packs a weight into one ((n + 1) // (2 x itemsize), 1) column with one quant_state for the whole "
                 "matrix; transformers v4.57.1 modeling_utils.py lines 718-746 hand a quantized weight to "
                 "create_quantized_param with the sharding arguments, which quantizer_bnb_4bit.py (lines 176-240) "
                 "ignores (it quantizes the whole weight on every rank; only quantizer_mxfp4.py shards there) and "
                 "integrations/tensor_parallel.py has no quantized path; transformers v5.25.0 distributed/"
                 "tensor_parallel.py runs quantized weights locally only where integrations/torchao.py or "
                 "finegrained_fp8.py set _hf_quantized_needs_local_tp, never for bitsandbytes. peft at 5d602fdbff04 "
                 "docs/source/package_reference/lora.md 'Tensor Parallelism' (LoRA over a tp_plan base, transformers "
                 ">= 5.4.0) is LoRA's, over an unquantized base")
_BNB_QLORA_SHARDING = ("ZeRO", "FSDP and ZeRO-3 run QLoRA: huggingface/peft at 5d602fdbff04 docs/source/accelerate/"
                       "fsdp.md line 242 and deepspeed.md line 241 (bnb_4bit_quant_storage, the published "
                       "peft-docs-fsdp-qlora-* and peft-docs-deepspeed-z3-qlora-* runs); bitsandbytes 95f9af309d4d "
                       "nn/modules.py line 447 Params4bit.__torch_function__ keeps the quant_state through "
                       "torch.chunk / split, FSDP's flat sharding")
_HF_QLORA = Parallelism(tensor=False, sources=(_BNB_QLORA_TP, _BNB_QLORA_SHARDING,
                                               ("pipeline schedules, context, expert", "not read with QLoRA (allowed)")))
# transformers' Trainer shards through accelerate (FSDP, or DeepSpeed ZeRO-1 to 3) and has no pipeline of its own
HUGGINGFACE = Parallelism(pp_schedules=(), methods=(("qlora", _HF_QLORA),), sources=(
    ("pipeline schedules", "huggingface/accelerate src/accelerate/parallelism_config.py at 16cb6eb80 "
     "ParallelismConfig: dp_replicate_size, dp_shard_size, tp_size, cp_size (cp_backend torch, FSDP2), sp_size "
     "(DeepSpeed Ulysses): no pipeline dimension; transformers.Trainer trains through it"),
    ("tensor, context, expert", "tp_size and cp_size above; expert parallelism not read (allowed)"),
))
# Unsloth trains through transformers' Trainer (TRL's SFTTrainer): no pipeline, as the Hugging Face row
UNSLOTH = Parallelism(pp_schedules=(), methods=(("qlora", Parallelism(tensor=False, sources=(
    ("tensor", "unslothai/unsloth at 015bdef0d94a unsloth/models/llama.py line 2620: load_in_4bit builds a "
     "transformers BitsAndBytesConfig (nf4), the Hugging Face row's 4-bit base: " + _BNB_QLORA_TP[1]),
    ("pipeline schedules, context, expert", "not read with QLoRA (allowed)"),
))),), sources=(
    ("pipeline schedules", "Unsloth trains with TRL's SFTTrainer, a transformers.Trainer: "
     + HUGGINGFACE.sources[0][1]),
    ("tensor, context, expert", "not read (allowed)"),
))
# torchtune's LoRA and QLoRA (NF4 base) recipe is lora_finetune_distributed (FSDP2; NF4Tensor shards under it)
_TORCHTUNE_LORA = Parallelism(tensor=False, sources=(
    ("tensor", "pytorch/torchtune at bd2a0fc7c314 recipes/lora_finetune_distributed.py lines 157-160: assert "
     "tensor_parallel_dim == 1, 'Tensor parallelism is not supported in this recipe.' (its QLoRA configs, e.g. "
     "recipes/configs/llama3_1/405B_qlora.yaml, run the same recipe)"),
    ("context", "the same recipe builds ParallelDims with context_parallel_dim (lines 162-176): allowed"),
))
TORCHTUNE = Parallelism(pp_schedules=(), expert=False, methods=(("lora", _TORCHTUNE_LORA), ("qlora", _TORCHTUNE_LORA)),
                        sources=(
    ("pipeline schedules", "pytorch/torchtune at bd2a0fc7c314 torchtune/training/_distributed.py ParallelDims: "
     "dp_replicate, dp_shard (FSDP2 fully_shard), tp, cp; no pipeline dimension (recipes/full_finetune_distributed.py "
     "builds the mesh from tensor_parallel_dim, context_parallel_dim, data_parallel_shard_dim and "
     "data_parallel_replicate_dim)"),
    ("expert", "the same ParallelDims (torchtune bd2a0fc7c314): no expert-parallel dimension"),
))
LITGPT = Parallelism(pp_schedules=(), tensor=False, context=False, expert=False, methods=(("qlora", Parallelism(sources=(
    ("GPUs", "litgpt 26857050fe3f finetune/lora.py lines 153-156: --quantize with devices * num_nodes > 1 raises "
     "'Quantization is currently not supported for multi-GPU training': QLoRA runs on one GPU, a limit on the GPU "
     "count, not on a layout, so not modelled here (the row already runs no tp, pp, cp or ep)"),
))),), sources=(
    ("pipeline schedules", "Lightning-AI/litgpt at 26857050fe3f: litgpt/pretrain.py and finetune/full.py train "
     "under lightning.fabric FSDPStrategy, finetune/lora.py under ModelParallelStrategy(data_parallel_size=..., "
     "tensor_parallel_size=1): no pipeline"),
    ("tensor", "litgpt 26857050fe3f finetune/lora.py: tensor_parallel_size=1 (generate/tp.py is inference only)"),
    ("context", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without context parallelism"),
    ("expert", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without expert parallelism"),
))
DEEPSPEED = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, methods=(("qlora", Parallelism(
    sources=(_BNB_QLORA_SHARDING, ("tensor, pipeline schedules", "AutoTP and the PipelineEngine over a 4-bit "
                                                                 "bitsandbytes base not read (allowed)"))),),),
    sources=(
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
MEGATRON = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), methods=(
    ("lora", Parallelism(sources=(("parallelism", "NVIDIA-NeMo/Megatron-Bridge at 067f987df03b src/megatron/bridge/"
                                                  "peft/lora.py, lora_layers.py: LoRA adapters over Megatron-Core's "
                                                  "tensor-parallel linears, with pipeline parallelism (the published "
                                                  "megatron-bridge-*-lora-* runs): allowed"),))),
    ("qlora", Parallelism(sources=(("parallelism", "Megatron-Bridge 067f987df03b has no QLoRA (src/megatron/bridge/"
                                                   "peft: LoRA, canonical LoRA, DoRA; models/README.md line 314 lists "
                                                   "'PEFT model support (LoRA, QLoRA)' under Future Enhancements): the "
                                                   "method itself, not a layout: engine/frameworks/runs.py MEGATRON"),))),
), sources=(
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
