"""Which layouts each framework can run: its pipeline schedules, the ZeRO / FSDP sharding it runs (alone and with a
pipeline) and whether it has tensor, ring-context and expert parallelism, each fact with where it is written, at the
release its row of engine/frameworks/defaults.py describes (the stacks of past papers' runs, DeepSpeed 0.3/0.6,
Megatron-LM of 2021/2022, InternEvo, Aleph Alpha's: engine/frameworks/past_stack_rows.py; NeMo's FSDP2 stacks:
nemo_fsdp2_rows.py; this module adds each row's shard-group facts).

A fact that was not read stays permissive (the layout is allowed) and says so in its source: a layout is refused only
where the framework's own code refuses it or has no code for it. The searches (engine/planning/) do not propose what
a framework cannot run, and the estimate warns about it (engine/scenario/framework_support.py).

What a framework runs can depend on the training method too (a 4-bit QLoRA base cannot be sharded by Hugging Face's
tensor parallelism; torchtune's LoRA recipe has no tensor parallelism): a row's `methods` holds, per method, the
further limits of that method, each with its source; a method without an entry runs every layout the row runs.
"""

from __future__ import annotations

from . import shard_group_facts as sg
from .nemo_fsdp2_rows import NEMO_AUTOMODEL, NEMO_RL

# the row type and its constants are part of this face
from .parallelism_row import ALL_OFFLOADS, ALL_SCHEDULES, ALL_STAGES, FSDP, FSDP2_OFFLOAD, FSDP_STAGES, Parallelism  # noqa: F401
from .past_stack_rows import (
    ALEPH_ALPHA_SCALING,
    DEEPSPEED_2021,
    DEEPSPEED_2022,
    INTERNEVO,
    MEGATRON_2021,
    MEGATRON_2022,
    MEGATRON_SCHEDULES,
)

ANY = Parallelism(sources=(("parallelism", "not read: every layout is allowed"),))

_TORCH_PIPELINING = ("pipeline schedules", "torch/distributed/pipelining/schedules.py: ScheduleGPipe, Schedule1F1B, "
                     "ScheduleInterleaved1F1B (get_schedule_class). Its zero-bubble classes run but have no value "
                     "here (pytorch/pytorch at 1fd7abc2f521 __all__): ScheduleInterleavedZeroBubble, 'the ZB1P "
                     "schedule in the paper' with several stages a rank (its docstring), whose bubble with v chunks "
                     "arXiv:2401.10241 gives no closed form for (its ZB-1p / ZB-2p formulas are one chunk a rank, "
                     "engine/timing/zero_bubble.py): not costed; ScheduleZBVZeroBubble, two stages a rank in a V "
                     "(pytorch/torchtitan b5bcd76c66d0 torchtitan/distributed/pipeline_parallel.py lines 550-567: "
                     "style 'v', rank r holds stages r and 2p-1-r, asserting 2 stages a rank; its docstring: 'The Zero "
                     "Bubble schedule (ZBV variant). See https://arxiv.org/pdf/2401.10241 Section 6') is zbv where "
                     "the row lists it (torchtitan's pipeline_parallel_schedule 'ZBVZeroBubble'; engine/scenario/"
                     "pipeline_ends.py)")
_TORCH_SCHEDULES = ("1f1b", "gpipe", "interleaved-1f1b")
PYTORCH = Parallelism(pp_schedules=_TORCH_SCHEDULES, sources=(
    _TORCH_PIPELINING,
    ("parallelism", "plain PyTorch composes fully_shard (FSDP2), DTensor tensor parallelism, context_parallel (ring "
     "attention) and pipelining itself: every layout is allowed"),
))
# FSDP2 is torchtitan's only sharding (and torchtune's, OLMo-core's, NeMo AutoModel's): it offloads through FSDP2's
# CPUOffloadPolicy, parameters, gradients and the optimizer step together, never the optimizer alone
_TITAN_SHARDING = (
    ("ZeRO", "pytorch/torchtitan at b5bcd76c66d0 torchtitan/models/llama3/parallelize.py line 63: fully_shard over "
     "the ['dp_replicate', 'fsdp'] (HSDP) or ['fsdp'] mesh, FSDP2 its only sharding, plain data parallelism where "
     "dp_shard is 1: no ZeRO-1 or ZeRO-2 stage; torchtitan/config/configs.py line 145 fsdp_reshard_after_forward "
     "'never' (distributed/fsdp.py lines 112-134; the default with a pipeline) keeps the gathered weights from forward "
     "to backward, the scenario's reshard_after_forward false on FSDP, not DeepSpeed's ZeRO-2"),
    ("offload", "torchtitan b5bcd76c66d0 torchtitan/config/configs.py line 69 enable_cpu_offload, 'Whether to apply "
     "CPU offloading of parameters, gradients, and optimizer states in FSDP' (distributed/fsdp.py line 14 "
     "CPUOffloadPolicy): weights and "
     "optimizer together, no optimizer-only offload"),
)
TORCHTITAN = Parallelism(pp_schedules=(*_TORCH_SCHEDULES, "zbv"), zero_stages=FSDP_STAGES,
                         offloads=("none", "optimizer+params"),
                         offload_names=(
    ("optimizer+params", "training.enable_cpu_offload, " + FSDP2_OFFLOAD),), methods=(("lora", Parallelism(sources=(
    ("parallelism", "pytorch/torchtitan at b5bcd76c66d0 torchtitan/components/lora.py: the adapters' sharding follows "
     "the base linear's tensor-parallel sharding (colwise / rowwise): allowed; no QLoRA there (no quantized base)"),
))),), sources=(
    _TORCH_PIPELINING,
    ("parallelism", "pytorch/torchtitan torchtitan/distributed/parallel_dims.py at b5bcd76c66d0 ParallelDims: "
     "dp_replicate, dp_shard (FSDP2), cp, tp, pp, ep; torchtitan/distributed/pipeline_parallel.py "
     "get_schedule_class(parallelism.pipeline_parallel_schedule), FSDP2 with PP (parallelize.py "
     "reshard_after_forward = not pp_enabled)"),
    *_TITAN_SHARDING,
))
OLMO_CORE = Parallelism(zero_stages=FSDP_STAGES, offloads=("none",), sources=(
    ("ZeRO", "allenai/OLMo-core at fa6c5014c9f6 src/olmo_core/distributed/parallel/data_parallel.py lines 27-30 "
     "DataParallelType: fsdp, hsdp, ddp (FSDP2 or plain data parallelism): no ZeRO-1 or ZeRO-2 stage"),
    ("offload", "OLMo-core fa6c5014c9f6: no CPUOffloadPolicy or optimizer offload in src/ (train_module.py line 190 "
     "cpu_offload=True is the state-dict options' for checkpoints, not training)"),
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
_ACCELERATE_MESH = ("huggingface/accelerate src/accelerate/parallelism_config.py at 16cb6eb80 ParallelismConfig: "
                    "dp_replicate_size, dp_shard_size, tp_size, cp_size (cp_backend torch, FSDP2), sp_size (DeepSpeed "
                    "Ulysses)")
# the scenario's ep spreads the experts over data-parallel copies, each with its own tokens (engine/scenario/format.py
# expert_dp); transformers' expert parallelism shards them over the tensor-parallel ranks, which see the same batch
_HF_EXPERT = ("expert", _ACCELERATE_MESH + " has no expert dimension (non_data_parallel_size = tp_size x cp_size x "
              "sp_size, lines 172-174: those ranks share one batch); transformers at 03d6d499eea2 src/transformers/"
              "distributed/mixin.py DistributedMixin.tp_plan returns the model's _ep_plan in place of its _tp_plan "
              "when distributed_config.enable_expert_parallel, and maybe_distribute_model applies it to "
              "device_mesh['tp'] (apply_tensor_parallelism): experts over the tensor-parallel ranks, the rest "
              "replicated, not experts over data-parallel copies")
HUGGINGFACE = Parallelism(pp_schedules=(), expert=False, methods=(("qlora", _HF_QLORA),), sources=(
    ("pipeline schedules", _ACCELERATE_MESH + ": no pipeline dimension; transformers.Trainer trains through it"),
    ("tensor, context", "tp_size and cp_size above"),
    _HF_EXPERT,
))
# Unsloth trains through transformers' Trainer (TRL's SFTTrainer): no pipeline, as the Hugging Face row; its own
# attention forward reshapes q_proj's output into the model's whole head count
UNSLOTH = Parallelism(pp_schedules=(), tensor=False, expert=False, methods=(("qlora", Parallelism(tensor=False, sources=(
    ("tensor", "unslothai/unsloth at 015bdef0d94a unsloth/models/llama.py line 2620: load_in_4bit builds a "
     "transformers BitsAndBytesConfig (nf4), the Hugging Face row's 4-bit base: " + _BNB_QLORA_TP[1]),
    ("pipeline schedules, context, expert", "not read with QLoRA (allowed)"),
))),), sources=(
    ("pipeline schedules", "Unsloth trains with TRL's SFTTrainer, a transformers.Trainer: "
     + HUGGINGFACE.sources[0][1]),
    ("tensor", "unslothai/unsloth at 015bdef0d94a unsloth/models/llama.py lines 696-705 LlamaAttention_fast_forward "
     "(qwen2.py lines 50-52 patch it into Qwen2 too): n_heads = self.config.num_attention_heads, then "
     "Q.view(bsz, q_len, n_heads, head_dim), the whole model's heads, where a tensor-parallel q_proj returns "
     "num_attention_heads / tp heads' outputs; its other patched forwards do the same (mistral.py line 82, qwen3.py "
     "line 91, gemma2.py line 98, cohere.py line 107, granite.py line 107); no tp_plan, device_mesh or tensor "
     "parallelism in unsloth/ (_gpu_init.py line 135: 'Multi-GPU is not yet supported (beta available on "
     "request)'); the architectures it loads through FastModel (vision.py) keep transformers' attention, not read"),
    ("expert", "no expert parallelism in unsloth/ at 015bdef0d94a; the Hugging Face row's: " + _HF_EXPERT[1]),
    ("context", "not refused at 015bdef0d94a: no context parallelism of its own; accelerate's cp_size (torch's "
     "context_parallel, which replaces scaled_dot_product_attention) over Unsloth's attention dispatch "
     "(unsloth/utils/attention_dispatch.py run_attention: flash-attn, xformers or SDPA) not tried (allowed)"),
))
# torchtune's LoRA and QLoRA (NF4 base) recipe is lora_finetune_distributed (FSDP2; NF4Tensor shards under it)
_TORCHTUNE_LORA = Parallelism(tensor=False, sources=(
    ("tensor", "pytorch/torchtune at bd2a0fc7c314 recipes/lora_finetune_distributed.py lines 157-160: assert "
     "tensor_parallel_dim == 1, 'Tensor parallelism is not supported in this recipe.' (its QLoRA configs, e.g. "
     "recipes/configs/llama3_1/405B_qlora.yaml, run the same recipe)"),
    ("context", "the same recipe builds ParallelDims with context_parallel_dim (lines 162-176): allowed"),
))
TORCHTUNE = Parallelism(pp_schedules=(), expert=False, zero_stages=FSDP_STAGES, offloads=("none", "optimizer+params"),
                        one_gpu_offloads=("optimizer",), offload_names=(
                            ("optimizer", "torchao CPUOffloadOptimizer"),
                            ("optimizer+params", "fsdp_cpu_offload, " + FSDP2_OFFLOAD)),
                        methods=(("lora", _TORCHTUNE_LORA), ("qlora", _TORCHTUNE_LORA)), sources=(
    ("ZeRO", "pytorch/torchtune at bd2a0fc7c314 recipes/full_finetune_distributed.py lines 56-62 (lora_finetune_"
     "distributed.py lines 52-58): 'training with FSDP2', fsdp_reshard_after_forward False 'corresponds to "
     "SHARD_GRAD_OP' (the scenario's reshard_after_forward false on FSDP); no ZeRO-1 or ZeRO-2 stage"),
    ("offload", "torchtune bd2a0fc7c314 recipes/full_finetune_distributed.py line 145 fsdp_cpu_offload, handed to "
     "shard_model's cpu_offload (lines 689, 707: FSDP2 CPUOffloadPolicy, weights, gradients and optimizer); on one "
     "GPU docs/source/tutorials/memory_optimizations.rst lines 253-281: 'CPU offloading in our single-device "
     "recipes through the CPUOffloadOptimizer from torchao' (optimizer states only, 'Offload optimizer to CPU for "
     "single-GPU training', the docstring of torchao's CPUOffloadOptimizer that torchtune re-exports)"),
    ("pipeline schedules", "pytorch/torchtune at bd2a0fc7c314 torchtune/training/_distributed.py ParallelDims: "
     "dp_replicate, dp_shard (FSDP2 fully_shard), tp, cp; no pipeline dimension (recipes/full_finetune_distributed.py "
     "builds the mesh from tensor_parallel_dim, context_parallel_dim, data_parallel_shard_dim and "
     "data_parallel_replicate_dim)"),
    ("expert", "the same ParallelDims (torchtune bd2a0fc7c314): no expert-parallel dimension"),
))
LITGPT = Parallelism(pp_schedules=(), tensor=False, context=False, expert=False, zero_stages=FSDP_STAGES,
                     offloads=("none",), methods=(("qlora", Parallelism(sources=(
    ("GPUs", "litgpt 26857050fe3f finetune/lora.py lines 153-156: --quantize with devices * num_nodes > 1 raises "
     "'Quantization is currently not supported for multi-GPU training': QLoRA runs on one GPU, a limit on the GPU "
     "count, not on a layout, so not modelled here (the row already runs no tp, pp, cp or ep)"),
))),), sources=(
    ("pipeline schedules", "Lightning-AI/litgpt at 26857050fe3f: litgpt/pretrain.py and finetune/full.py train "
     "under lightning.fabric FSDPStrategy, finetune/lora.py under ModelParallelStrategy(data_parallel_size=..., "
     "tensor_parallel_size=1): no pipeline"),
    ("tensor", "litgpt 26857050fe3f finetune/lora.py: tensor_parallel_size=1 (generate/tp.py is inference only)"),
    ("ZeRO, offload", "litgpt 26857050fe3f litgpt/pretrain.py line 143 FSDPStrategy(sharding_strategy='HYBRID_SHARD'),"
     " finetune/full.py lines 108-113 and adapter.py lines 126-131 FSDPStrategy(..., cpu_offload=False) with "
     "Lightning's default FULL_SHARD: FSDP only (no SHARD_GRAD_OP or optimizer-only sharding chosen anywhere), "
     "and no CPU offload"),
    ("context", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without context parallelism"),
    ("expert", "litgpt 26857050fe3f: FSDPStrategy / ModelParallelStrategy without expert parallelism"),
))
# AutoTP takes every nn.Linear, a bitsandbytes Linear4bit included, and multiplies by its weight tensor as it is
_DS_AUTOTP_4BIT = ("tensor", "deepspeedai/DeepSpeed at edaa7221 deepspeed/module_inject/auto_tp.py lines 664 and "
                   "741-751: AutoTP's linear policy is nn.Linear, matched by isinstance (a bitsandbytes Linear4bit "
                   "is a subclass), and replaced by module_inject/layers.py LinearLayer / LinearAllreduce (lines 752, "
                   "833), which split module.weight along dim 0 / dim 1 and compute torch.matmul(input, "
                   "self.weight.transpose(-1, -2)) (lines 771, 855): no dequantization, and the 4-bit weight is one "
                   "packed column (bitsandbytes 95f9af309d4d _ops.py line 235) that neither split follows")
_DS_QLORA = Parallelism(tensor=False, sources=(
    _BNB_QLORA_SHARDING, _DS_AUTOTP_4BIT,
    ("pipeline schedules", "not refused: deepspeed/runtime/pipe at edaa7221 has no quantization path and no check "
     "on the layers a PipelineModule is given; no QLoRA pipeline run read (allowed)"),
))
DEEPSPEED = Parallelism(pp_schedules=("1f1b",), max_zero_with_pp=1, context=False, methods=(("qlora", _DS_QLORA),),
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
# optimizer_offload_stage 1: Megatron offloads the optimizer from its distributed optimizer; optimizer_offload_fraction
# 1.0: --optimizer-offload-fraction's default (sources below)
MEGATRON = Parallelism(pp_schedules=("1f1b", "interleaved-1f1b"), offloads=("none", "optimizer"), even_pipeline_split=True,
                       max_zero_with_pp=1, offload_names=(
    ("optimizer", "--optimizer-cpu-offload, HybridDeviceOptimizer"),), optimizer_offload_stage=1,
    optimizer_offload_fraction=1.0, methods=(
    ("lora", Parallelism(sources=(("parallelism", "NVIDIA-NeMo/Megatron-Bridge at 067f987df03b src/megatron/bridge/"
                                                  "peft/lora.py, lora_layers.py: LoRA adapters over Megatron-Core's "
                                                  "tensor-parallel linears, with pipeline parallelism (the published "
                                                  "megatron-bridge-*-lora-* runs): allowed"),))),
    ("qlora", Parallelism(sources=(("parallelism", "Megatron-Bridge 067f987df03b has no QLoRA (src/megatron/bridge/"
                                                   "peft: LoRA, canonical LoRA, DoRA; models/README.md line 314 lists "
                                                   "'PEFT model support (LoRA, QLoRA)' under Future Enhancements): the "
                                                   "method itself, not a layout: engine/frameworks/runs.py MEGATRON"),))),
), sources=(
    MEGATRON_SCHEDULES,
    ("even pipeline split", "d98e8a64 megatron/core/transformer/transformer_block.py get_num_layers_to_build lines "
     "146-178: without --pipeline-model-parallel-layout or first / last stage layers, (layers + embedding + loss "
     "where counted) % pp == 0 and a stage's layers % vpp == 0 are asserted"),
    ("zero-bubble schedules", "none upstream: get_forward_backward_func at the commits above (d98e8a6, "
     "de7dc40f88, 285068c8) returns only the three schedules, and no --enable-zero-bubble; the Zero Bubble fork runs "
     "them (framework megatron-zb, engine/frameworks/megatron_zb.py) and AMD-AGI/Primus (at 78633ae7 "
     "examples/customer_package/run_qwen3_235b_a22b_pretrain_mi355x.sh PP_STRATEGY zb1p, lines 146-190; no row)"),
    ("ZeRO", "NVIDIA/Megatron-LM at d98e8a64ddf3: --use-distributed-optimizer is ZeRO-1; ZeRO-2 and ZeRO-3 are "
     "Megatron-FSDP's --data-parallel-sharding-strategy optim_grads / optim_grads_params (since d165a8548b, "
     "2025-02-26, core_v0.12.0, as --use-custom-fsdp; megatron/training/arguments.py lines 1118-1165), which "
     "asserts no pipeline limit (only "
     "--use-torch-fsdp2 asserts pipeline_model_parallel_size == 1, line 1034, and Megatron-FSDP v2, "
     "mcore_fsdp_adapter.py line 627, refuses tp, pp and cp > 1); docs/user-guide/features/megatron_fsdp.md: "
     "'compatible with ... Tensor Parallelism (TP) and Expert Parallelism (EP)'"),
    ("ZeRO with PP", "ZeRO-1 (the distributed optimizer) at most with pp > 1: Megatron-FSDP is neither "
     "documented nor tested with a pipeline, though v1 does not assert it. At d98e8a64ddf3 docs/user-guide/features/"
     "megatron_fsdp.md "
     "line 502 names TP and EP as compatible, every Megatron-FSDP functional test "
     "(tests/functional_tests/test_cases/*fsdp*) runs pipeline size 1, Megatron-FSDP v2 "
     "(core/distributed/fsdp/mcore_fsdp_adapter.py lines 627-639) and --use-torch-fsdp2 (training/arguments.py "
     "line 1035) refuse pp > 1; v1 (--use-megatron-fsdp) has no such check (arguments.py lines 1118-1190). "
     "NVIDIA/Megatron-LM issue #1455 ('Is there any plan to make custom_fsdp compatible with PP?', open) and "
     "#1643 ('router-dype + FSDP with Pipeline-parallelism leads to assertion error'); pull request #6081's "
     "examples/multimodal_dev/scripts/run_qwen35_vl.sh: 'FSDP and PP are mutually exclusive in Megatron's "
     "standard path'; every Megatron-FSDP recipe of NVIDIA-NeMo/Megatron-Bridge at 067f987df03b "
     "(src/megatron/bridge/perf_recipes) sets pipeline_model_parallel_size 1. Meta's Llama 3 runs (ZeRO-2 with "
     "PP 16) ran Meta's own stack: framework meta-llama3, engine/frameworks/meta_llama3.py"),
    ("offload", "Megatron-LM d98e8a64ddf3 megatron/training/arguments.py line 1884 --optimizer-cpu-offload (with "
     "--use-precision-aware-optimizer: HybridDeviceOptimizer, optimizer_offload_fraction) is its only training "
     "offload; no weight offload (--rl-offload-inference-model-weights-when-idle is RL inference's), activations "
     "apart (activation_offload_layers)"),
    ("optimizer offload stage", "Megatron-LM d98e8a64ddf3 megatron/training/arguments.py line 1884: "
     "--optimizer-cpu-offload asserts --use-precision-aware-optimizer, which megatron/core/optimizer/__init__.py lines "
     "1057-1059 allow 'only ... with distributed optimizer' (ZeRO-1); Megatron-FSDP v1 sets use_distributed_optimizer "
     "too (arguments.py lines 1128-1135)"),
    ("optimizer offload fraction", "Megatron-LM d98e8a64ddf3 megatron/training/arguments.py line 2922 "
     "--optimizer-offload-fraction default 1.0 (megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py "
     "HybridDeviceOptimizer steps that share of the shard's Adam moments on the CPU, the fp32 master weights staying "
     "on the GPU: engine/memory/hybrid_offload.py): what a search's offload plan writes"),
    ("tensor, context, expert", "--tensor-model-parallel-size, --context-parallel-size (Transformer Engine's ring), "
     "--expert-model-parallel-size"),
))
# The post-training frameworks, each through the backend its row of engine/frameworks/defaults.py plans (_post_trainer:
# TRL, verl, ms-swift and NeMo-RL on the Hugging Face row's memory facts, OpenRLHF on DeepSpeed's; ms-swift's Megatron
# trainers are the megatron row's, verl's and NeMo-RL's Megatron workers other backends, not these rows')
TRL = Parallelism(pp_schedules=(), expert=False, methods=HUGGINGFACE.methods, sources=(
    ("trainer", "huggingface/trl at f2cd57710ae3 trl/trainer/base_trainer.py line 67: class _BaseTrainer(Trainer), "
     "the base of SFTTrainer (sft_trainer.py line 790), DPOTrainer (dpo_trainer.py line 410) and GRPOTrainer "
     "(grpo_trainer.py line 143): transformers.Trainer through accelerate, the Hugging Face row's facts"),
    *HUGGINGFACE.sources,
))
# fsdp_offloads: verl's FSDP offloads its optimizer alone (optimizer_offload, each on its own: its "offload" source)
VERL = Parallelism(pp_schedules=(), tensor=False, context=False, expert=False, zero_stages=FSDP_STAGES,
                   fsdp_offloads=ALL_OFFLOADS, offload_names=(
    ("optimizer", "actor.fsdp_config.optimizer_offload"),
    ("optimizer+params", "actor.fsdp_config.param_offload and optimizer_offload")), sources=(
    ("ZeRO", "verl b178a3cd56f5 verl/workers/fsdp_workers.py lines 98-123: FSDP over the ('fsdp',) mesh (FULL_SHARD) "
     "or ('ddp', 'fsdp') (HYBRID_SHARD; fsdp_size 1 replicates, plain data parallelism); reshard_after_forward "
     "false is SHARD_GRAD_OP (trainer/config/engine/fsdp.yaml lines 21-23): no ZeRO-1 or ZeRO-2 stage"),
    ("offload", "verl b178a3cd56f5 trainer/config/engine/fsdp.yaml lines 10-19: param_offload and optimizer_offload, "
     "each on its own (fsdp_workers.py lines 233-234), and FSDP2's offload_policy (lines 547-548)"),
    ("pipeline schedules, tensor, expert", "volcengine/verl at b178a3cd56f5 verl/workers/fsdp_workers.py lines 98-105 "
     "create_device_mesh: ('fsdp',) or ('ddp', 'fsdp') (get_sharding_strategy lines 108-123: FULL_SHARD or "
     "HYBRID_SHARD) and lines 164-175: a ('dp', 'sp') Ulysses mesh, nothing else; workers/config/engine.py "
     "FSDPEngineConfig (strategy fsdp or fsdp2, ulysses_sequence_parallel_size) has no tensor, pipeline or expert "
     "size (those are McoreEngineConfig's, the Megatron workers')"),
    ("context", "verl b178a3cd56f5 FSDP workers: their sequence parallelism is Ulysses (verl/utils/ulysses.py, "
     "the scenario's ulysses_sequence_parallel_size), an all-to-all of heads, not the ring the scenario's cp is"),
))
_OPENRLHF_MESH = ("OpenRLHF/OpenRLHF at 3c3be6234e0c openrlhf/utils/deepspeed/deepspeed.py lines 103-108: "
                  "init_device_mesh((dp, ring_attn_size, ds_tensor_parallel_size), ('dp', 'sp', 'tp'))")
OPENRLHF = Parallelism(pp_schedules=(), expert=False, offloads=("none", "optimizer"), offload_names=(
    ("optimizer", "--ds.adam_offload"),), methods=(("qlora", Parallelism(tensor=False, sources=(
    ("tensor", "OpenRLHF 3c3be6234e0c openrlhf/models/actor.py lines 115-123: load_in_4bit loads a bitsandbytes nf4 "
     "base, which --ds.tensor_parallel_size hands to DeepSpeed's AutoTP (deepspeed.py lines 389-391 "
     "deepspeed.tp_model_init): " + _DS_AUTOTP_4BIT[1]),
))),), sources=(
    ("ZeRO, offload", "OpenRLHF 3c3be6234e0c cli/train_ppo_ray.py line 308 --ds.zero_stage (0 to 3, DeepSpeed's) "
     "and line 322 --ds.adam_offload; utils/deepspeed/deepspeed.py lines 437-439 build the training config with "
     "offload=False, so deepspeed_utils.py line 24 offload_param is 'none' while training (parameter offload is the "
     "reference and reward models' get_ds_eval_config): the optimizer alone"),
    ("pipeline schedules, expert", _OPENRLHF_MESH + ": no pipeline (no PipelineModule in openrlhf/: "
     "deepspeed.initialize over the transformers model) and no expert dimension"),
    ("tensor", "--ds.tensor_parallel_size: DeepSpeed AutoTP, deepspeed.tp_model_init (deepspeed.py lines 76-78 and "
     "389-391, DeepSpeed >= 0.16.4)"),
    ("context", "--ds.ring_attn_size: the mesh's 'sp' group runs ring_flash_attn's substitute_hf_flash_attn "
     "(deepspeed.py lines 118-134), the sequence split over the group and attention passed around it (allowed, "
     "costed as the scenario's ring)"),
))
# ms-swift's transformers trainers (swift/rlhf_trainers, swift/trainers) subclass TRL's and transformers.Trainer
_SWIFT_AUTOTP = ("modelscope/ms-swift at 3602360a5623 swift/arguments/sft_args.py lines 157-159 (RLHFArguments, "
                 "rlhf_args.py line 175, subclasses SftArguments): deepspeed_autotp_size, 'This feature only "
                 "supports full-parameter fine-tuning'")
_SWIFT_LORA = Parallelism(tensor=False, sources=(("tensor", _SWIFT_AUTOTP + " (not asserted in the code, lines "
                                                            "275-279: the maintainers' own limit)"),))
MS_SWIFT = Parallelism(pp_schedules=(), expert=False, methods=(("lora", _SWIFT_LORA), ("qlora", Parallelism(
    tensor=False, sources=(*_SWIFT_LORA.sources, _DS_AUTOTP_4BIT)))), sources=(
    ("ZeRO, offload", "ms-swift 3602360a5623 swift/config/zero0.json to zero3.json, zero2_offload.json (lines 17-20 "
     "offload_optimizer) and zero3_offload.json (lines 17-24, offload_optimizer and offload_param), fsdp2.json: every "
     "stage and offload kind"),
    ("pipeline schedules", "ms-swift 3602360a5623 swift/rlhf_trainers/grpo_trainer.py line 90 GRPOTrainer(..., "
     "HFGRPOTrainer), dpo_trainer.py line 49: TRL's trainers, transformers.Trainer through accelerate or DeepSpeed: "
     + _ACCELERATE_MESH + ", no pipeline dimension (device_map only places layers on GPUs, without a schedule)"),
    ("tensor", "ms-swift 3602360a5623 sft_args.py lines 275-279: deepspeed_autotp_size sets DeepSpeed's "
     "tensor_parallel.autotp_size (AutoTP)"),
    ("context", "ms-swift 3602360a5623 swift/sequence_parallel/sequence_parallel.py lines 643-660: "
     "sequence_parallel_size splits into Ulysses over gcd(key/value heads, size) and a ring over the rest "
     "(zigzag_ring_flash_attn_varlen_func, line 209)"),
    ("expert", "ms-swift 3602360a5623: expert parallelism only in swift/megatron (the megatron row); none in its "
     "transformers trainers, and the Hugging Face row's: " + _HF_EXPERT[1]),
))
# the stages each shards within groups of fewer than all data-parallel ranks at (dp_shard), with their sources:
# engine/frameworks/shard_group_facts.py (PYTORCH, ANY: every stage, as their other facts)
HUGGINGFACE, TRL = sg.grouped(HUGGINGFACE, sg.HUGGINGFACE), sg.grouped(TRL, sg.TRAINER)
MS_SWIFT, TORCHTITAN = sg.grouped(MS_SWIFT, sg.TRAINER), sg.grouped(TORCHTITAN, sg.TORCHTITAN)
TORCHTUNE, OLMO_CORE = sg.grouped(TORCHTUNE, sg.TORCHTUNE), sg.grouped(OLMO_CORE, sg.OLMO_CORE)
LITGPT, VERL, NEMO_RL = sg.grouped(LITGPT, sg.LITGPT), sg.grouped(VERL, sg.VERL), sg.grouped(NEMO_RL, sg.NEMO_RL)
NEMO_AUTOMODEL, UNSLOTH = sg.grouped(NEMO_AUTOMODEL, sg.NEMO_AUTOMODEL), sg.grouped(UNSLOTH, sg.UNSLOTH)
DEEPSPEED, DEEPSPEED_2022 = sg.grouped(DEEPSPEED, sg.DEEPSPEED), sg.grouped(DEEPSPEED_2022, sg.DEEPSPEED_2022)
DEEPSPEED_2021, OPENRLHF = sg.grouped(DEEPSPEED_2021, sg.DEEPSPEED_2021), sg.grouped(OPENRLHF, sg.OPENRLHF)
MEGATRON, MEGATRON_2022 = sg.grouped(MEGATRON, sg.MEGATRON), sg.grouped(MEGATRON_2022, sg.MEGATRON_2022)
MEGATRON_2021, INTERNEVO = sg.grouped(MEGATRON_2021, sg.MEGATRON_2021), sg.grouped(INTERNEVO, sg.INTERNEVO)
ALEPH_ALPHA_SCALING = sg.grouped(ALEPH_ALPHA_SCALING, sg.ALEPH_ALPHA_SCALING)
POST_TRAINING = {"trl": TRL, "verl": VERL, "openrlhf": OPENRLHF, "ms-swift": MS_SWIFT, "nemo-rl": NEMO_RL}
