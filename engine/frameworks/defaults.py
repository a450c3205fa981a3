"""What each training framework does by default, with where that is written.

A scenario's `framework` key picks one row; explicit keys (`cross_entropy`, `checkpointing`, ...) override it.
Only behaviour that changes memory is recorded. Each entry cites the file of the framework's current release
that sets it, so a reader can check (and update) it.
"""

from __future__ import annotations

from dataclasses import replace

from . import parallelism as par
from . import posttraining as rl
from . import runs as rn
from .axolotl import axolotl_row
from .fms_fsdp import fms_fsdp_row
from .framework_row import FrameworkDefaults
from .megatron_2021 import megatron_2021_row
from .megatron_2022 import megatron_2022_row
from .megatron_zb import megatron_zb_row
from .meta_llama3 import meta_llama3_row
from .mlx import ROW as MLX_ROW
from .mlx import ROW_2023 as MLX_2023_ROW
from .nemo_rl_megatron import nemo_rl_megatron_row
from .posttraining import PostTrainingDefaults
from .verl_megatron import verl_megatron_row

FRAMEWORKS = ("huggingface", "deepspeed", "deepspeed-2022", "deepspeed-2021", "torchtune", "torchtitan", "megatron",
              "megatron-2022", "megatron-2021", "megatron-zb", "unsloth", "litgpt", "pytorch", "fms-fsdp", "olmo-core",
              "nemo-automodel-te", "internevo", "aleph-alpha-scaling", "trl", "verl", "openrlhf", "ms-swift", "nemo-rl",
              "meta-llama3", "verl-megatron", "nemo-rl-megatron", "mlx", "mlx-2023", "trl-2025",
              "unsloth-2024", "axolotl")
CROSS_ENTROPIES = ("auto", "standard", "chunked", "fused", "te", "megatron-fused", "fused-linear", "no-upcast", "te-inplace",
                   "megatron-unfused")


_HF = FrameworkDefaults(
    "huggingface", "Hugging Face (Trainer / TRL / accelerate)", "standard", True, 1, 0, "attention", False,
    "direct", False, False, False, "bitsandbytes",
    (("loss", "transformers src/transformers/loss/loss_utils.py ForCausalLMLoss: logits.float() then "
      "F.cross_entropy over the whole b·s·V tensor"),
     ("loading", "transformers modeling_utils.from_pretrained: weights are loaded shard by shard straight "
      "into the model's device and dtype (low_cpu_mem_usage)"),
     ("QLoRA", "bitsandbytes/autograd/_functions.py MatMul4Bit keeps its input A for backward (ctx.tensors = (A, B))"),
     ("tools", "axolotl, LLaMA-Factory and ms-swift train through transformers.Trainer / TRL"),
     ("FSDP", "accelerate src/accelerate/utils/dataclasses.py at 16cb6eb80 FullyShardedDataParallelPlugin.__post_init__"
      ": fsdp_version = int(os.environ.get(\"FSDP_VERSION\", \"1\")), FullyShardedDataParallel unless 2 "
      "(fully_shard); the Trainer, axolotl and LLaMA-Factory shard through it")),
    offers_liger_kernel=True, fsdp_version=1, parallelism=par.HUGGINGFACE, runs=rn.HUGGINGFACE, checkpoint_save="fsdp1-full",
)
_DS = FrameworkDefaults(
    "deepspeed", "DeepSpeed", "standard", True, 1, 0, "attention", False, "sharded", False, False, False, "bitsandbytes",
    (("loss", "the model's own loss (transformers ForCausalLMLoss with fp32 upcast)"),
     ("buckets", "deepspeed/runtime/zero/config.py: reduce_bucket_size 5e8, allgather_bucket_size 5e8, "
      "stage3_max_live_parameters 1e9, stage3_prefetch_bucket_size 5e7"),
     ("loading", "deepspeed.zero.Init partitions each parameter as it is created (ZeRO-3)"),
     ("pipeline", "deepspeed/runtime/pipe/engine.py at edaa7221: _exec_recv_activations / _exec_recv_grads receive "
      "into pipe_recv_buf and grad_layer, allocated once; the last stage keeps a micro-batch's output until its "
      "backward sets it to None and keeps only detached losses (fwd_outputs)")),
    zero_bucket_settings=True, pipeline_returns_outputs=False, pipeline_recv_once=True, bf16_optimizer_without_zero=True,
    parallelism=par.DEEPSPEED, runs=rn.DEEPSPEED)

_PYTORCH = FrameworkDefaults(
    "pytorch", "plain PyTorch", "standard", True, 1, 0, "attention", False, "direct", False, False, False, "bitsandbytes",
    (("loss", "a plain training loop: F.cross_entropy(logits.float(), labels) over the whole batch"),
     ("pipeline", "torch.distributed.pipelining (also NeMo AutoModel's, NVIDIA-NeMo/Automodel 36044ad3d "
      "recipes/llm/train_ft.py: schedule.step(input_ids, target=targets, losses=losses) with torch's default "
      "return_outputs=True, so the last stage keeps every micro-batch's logits); torch/distributed/pipelining/"
      "stage.py _prepare_forward_infra / _prepare_backward_infra: a receive buffer per micro-batch per stage")),
    pipeline_keeps_weights=True, parallelism=par.PYTORCH,
)


def _post_trainer(base: FrameworkDefaults, fid: str, label: str, facts: PostTrainingDefaults, trains_with: str,
                  liger: bool) -> FrameworkDefaults:
    """A post-training framework's row: it trains through `base`'s machinery (memory facts and time profile)."""
    return replace(base, id=fid, label=label, sources=(("training", trains_with), *facts.sources), posttraining=facts,
                   profile=base.id, offers_liger_kernel=liger, parallelism=par.POST_TRAINING[fid],
                   runs=rn.POST_TRAINING[fid])

# TRL's own trainers cast a bitsandbytes model's trainable parameters to bf16 after get_peft_model ("When using QLoRA,
# the PEFT adapter weights are converted to bf16"), whatever bf16 / fp16 says, and no longer call peft's
# prepare_model_for_kbit_training; before, prepare_peft_model (trl/models/utils.py at v0.25.1 lines 559-607) kept
# peft's fp32 adapters, as the experimental trainers (CPO / SimPO, ORPO, PPO, online DPO) still do.
_TRL_QLORA_BF16 = (("sft", "dpo", "ipo", "kto", "reward", "grpo", "rloo"), (
    "QLoRA adapters in bf16", "huggingface/trl at f2cd57710ae3 trl/trainer/grpo_trainer.py lines 357-358 "
    "(_is_quantized_model = is_loaded_in_4bit or is_loaded_in_8bit) and 495-503 (param.data = param.data.to("
    "torch.bfloat16) for every param.requires_grad); sft_trainer.py 1127-1130, dpo_trainer.py 700-703, "
    "reward_trainer.py 527-530, rloo_trainer.py 413-416, kto_trainer.py 749-752 the same. Since 2af35fb0d (pull "
    "request #4577, v0.26.0: SFT, GRPO, reward), 00da0462b (#4685, v0.27.0: RLOO), e3b7897c8 (#3906, v0.29.0: DPO), "
    "9516563e3 (#5661, v1.4.0: KTO). The experimental trainers keep peft's fp32 adapters: cpo_trainer.py 217-254 and "
    "orpo_trainer.py 227-264 call prepare_model_for_kbit_training, get_peft_model and peft_module_casting_to_bf16 "
    "(norms, embeddings, lm_head only), online_dpo_trainer.py 305 prepare_peft_model (experimental/utils.py 862), "
    "ppo_trainer.py 433 peft_module_casting_to_bf16"))

TABLE: dict[str, FrameworkDefaults] = {
    "huggingface": _HF,
    "deepspeed": replace(_DS, checkpoint_save="deepspeed-torch-save"),  # rows built on _DS: their saves not read
    "torchtune": FrameworkDefaults(
        "torchtune", "torchtune", "chunked", True, 8, 0, "op", False, "direct", False, False, False, "torchao",
        (("loss", "torchtune/modules/loss/ce_chunked_output_loss.py CEWithChunkedOutputLoss(num_output_chunks=8): "
          "the output projection runs per chunk and each chunk is upcast to fp32 on its own"),
         ("checkpointing", "torchtune/training/_activation_checkpointing.py: ac_mode 'selective' with "
          "ac_option 'op' uses torch's per-op selective checkpointing"),
         ("optimizer in backward", "recipes/full_finetune_single_device.py optimizer_in_bwd: "
          "training.register_optim_in_bwd_hooks steps each parameter as its gradient is ready"),
         ("QLoRA", "torchao NF4Tensor (torchtune/modules/low_precision): linear_nf4 keeps only the 4-bit weight"),
         ("memory statistics", "torchtune/training/memory.py get_memory_stats: peak_memory_reserved = "
          "torch.cuda.max_memory_reserved()"),
         ("LoRA", "recipes/lora_finetune_*.py _setup_model builds the model under training.set_default_dtype(self._dtype):"
          " torchtune/modules/peft/lora.py LoRALinear's lora_a / lora_b are nn.Linear in the model's dtype"),
         ("QLoRA init", "LoRALinear._create_weight_and_bias builds an nn.Linear on the GPU and calls to_nf4 on its weight "
          "(torchao/dtypes/nf4tensor.py at pytorch/ao 0ed30902e: NF4Tensor.from_tensor); before 0.3.0 (b0895a798) the "
          "layers were deep copies of one (modules/transformer.py _get_clones) through the NF4 clone of "
          "modules/low_precision/_register_nf4_dispatch_ops.py, which dequantises first (scenario key cloned_layers)"),
         ("FSDP", "the distributed recipes shard with FSDP2 fully_shard since pytorch/torchtune PR #1287 (full "
          "finetune, 2024-08-08), #1517 (LoRA) and #1536 (DPO, 2024-09-10); before them FullyShardedDataParallel "
          "(FSDP1: scenario key fsdp_version 1)")),
        loss_outside_model=True, lora_adapters_in_model_dtype=True, parallelism=par.TORCHTUNE, runs=rn.TORCHTUNE,
        unchunked_logits_fp32=True,
    ),
    "torchtitan": FrameworkDefaults(
        "torchtitan", "torchtitan", "standard", True, 1, 0, "op", True, "sharded", False, False, False, "torchao",
        (("loss", "torchtitan/components/loss.py cross_entropy_loss: F.cross_entropy(pred.float(), labels)"),
         ("checkpointing", "torchtitan/distributed/activation_checkpoint.py SelectiveAC: saves matmul, attention "
          "and collective outputs except every second matmul, recomputes the rest"),
         ("allocator", "run_train.sh: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"),
         ("loading", "the model is built on the meta device, sharded by FSDP2, then loaded by DCP per shard"),
         ("compile", "torchtitan/components/loss.py build_cross_entropy_loss compiles the loss with the model "
          "(training.compile) since pull request #1033 (bbb1b616, 2025-04-02), and torchtitan/config/configs.py "
          "compile.components defaults to ['model', 'loss'] since 08b8b24 (2025-08-20); before #1033 each "
          "TransformerBlock only (scenario key compile_loss false)"),
         ("sequence parallelism", "torchtitan/models/llama3/infra/parallelize.py apply_tp: PrepareModuleInput "
          "gathers each block's input once for wq/wk/wv and once for w1/w3"),
         ("MLA down projections", "torchtitan at b5bcd76c torchtitan/models/deepseek_v3/sharding.py "
          "_set_deepseek_v3_layer_sharding (lines 79-133): the attention input x is gathered to Replicate, wkv_a, "
          "kv_norm, wq_a and q_norm keep Replicate weights on TP (whole on every rank, over the whole sequence), "
          "wkv_b, wq_b and wq are colwise")),
        loss_parallel_by_default=True, loss_outside_model=True, pipeline_keeps_weights=True,
        pipeline_returns_outputs=False, sp_gathers_per_block=True, fsdp_keeps_last_layer=True,
        attention_kv_expanded=True, sp_batch_first_copies=True, parallelism=par.TORCHTITAN, runs=rn.TORCHTITAN,
        mla_down_proj="replicated",
    ),
    "megatron": FrameworkDefaults(
        "megatron", "Megatron-LM / NeMo", "standard", True, 1, 0, "attention", False, "sharded", False, True, False,
        "bitsandbytes",
        (("loss", "megatron/core/tensor_parallel/cross_entropy.py (Megatron-LM d98e8a6) _VocabParallelCrossEntropy: "
          "one fp32 copy of the vocab-parallel logits (calculate_logits_max .float()), then max-subtraction, exp "
          "and the division by the sum in place; it saves that fp32 softmax and backward writes the gradient into "
          "it (grad_input = softmax, in place); the bf16 logits are freed after the forward"),
         ("gradient buffer", "megatron/core/distributed/param_and_grad_buffer.py: buckets are views of the "
          "contiguous grad buffer, reduced in place; main_grad dtype fp32 with grad_reduce_in_fp32 (Megatron-LM "
          "arguments.py sets it for bf16 unless --grad-reduce-in-bf16; Megatron-Bridge's perf recipes set "
          "grad_reduce_in_fp32=False: main_grads_fp32 false)"),
         ("LoRA", "Megatron-Bridge src/megatron/bridge/peft/lora.py (067f987d) LoRA.lora_dtype: 'Default None (will "
          "use model's dtype)': the adapters are bf16 like the model, not upcast to fp32"),
         ("checkpointing", "--recompute-granularity selective recomputes the attention core only"),
         ("gradients", "megatron/core/distributed/distributed_data_parallel_config.py grad_reduce_in_fp32 / "
          "--accumulate-allreduce-grads-in-fp32: gradients accumulate in an fp32 main_grad buffer"),
         ("optimizer", "--use-distributed-optimizer shards fp32 master weights and Adam states over data "
          "parallel ranks (off by default)"),
         ("fused Adam", "megatron/core/optimizer/__init__.py (Megatron-LM d98e8a6) imports transformer_engine.pytorch."
          "optimizers.FusedAdam as Adam (else apex.optimizers.FusedAdam; torch's AdamW only when neither is "
          "installed); optimizer.py / distrib_optimizer.py set main_param.grad = main_grad.float(), no copy when "
          "the main gradients are fp32 already"),
         ("LoRA on experts", "ms-swift 3602360a swift/megatron/utils/utils.py find_all_linears: 'all-linear' takes "
          "every TELinear, TELayerNormColumnParallelLinear, TEGroupedLinear and nn.Linear but output_layer (the "
          "router, a TopKRouter, is not one); mcore-bridge src/mcore_bridge/tuners/lora.py (02fb038f) "
          "LoraParallelLinear: a TEGroupedLinear base gets a grouped lora_A and lora_B of num_gemms = local experts; "
          "expert LoRA refuses expert TP ('Currently, LoRA does not support ETP.')"),
         ("adapter master weights", "megatron/core/optimizer/distrib_optimizer.py _build_model_and_main_param_groups: "
          "every bf16 parameter that requires grad, adapters included, gets shard_main_param = "
          "shard_model_param.clone().float(); its gradient is the fp32 main_grad of the DDP buffer (ms-swift "
          "3602360a swift/megatron/arguments/megatron_args.py: main_grads_dtype 'fp32' sets "
          "accumulate_allreduce_grads_in_fp32)"),
         ("vision tower", "mcore-bridge src/mcore_bridge/model/mm_gpts/utils.py (05925cf9) HuggingFaceVit builds the "
          "Hugging Face vision module and moves it whole to the GPU (self.to(device='cuda')), with no tensor "
          "parallelism; mm_gpts/qwen.py (1c95259e) Qwen2_5VL_Vit is one (ms-swift's `megatron` multimodal models)")),
        loss_parallel_by_default=True, loss_always_parallel=True, vocab_parallel_embedding=True,
        sp_saves_gathered_inputs=False, pipeline_frees_sent_outputs=True, cp_ring_attention=False,
        ep_all_to_all_dispatch=False, te_layers=True, selective_by_modules=True, takes_megatron_arguments=True,
        megatron_core_rope=True,
        # Megatron-Core's MLA (megatron/core/transformer/multi_latent_attention.py at core_v0.14.0 lines 367-435 and
        # 24bad8e6 lines 525-601: linear_q_down_proj / linear_kv_down_proj, TELinear in the TE spec (gpt_layer_specs.py
        # backend.linear()), get parallel_mode 'duplicated'; extensions/transformer_engine.py TELinear (core_v0.14.0
        # lines 313-335 and 370-378, 24bad8e6 lines 1197-1226 and 1276-1285): tp_size 1 and, under sequence
        # parallelism, the 'sequence_parallel' attribute that finalize_model_grads.py
        # _allreduce_non_tensor_model_parallel_grads (core_v0.14.0 lines 298-350, 24bad8e6 416-474) sums over TP
        mla_down_proj="duplicated",
        # NVIDIA's recipes turn userbuffers on wherever TP > 1 (NeMo nemo/collections/llm/recipes/*: MegatronCommOverlap
        # Callback(tp_comm_overlap=True) with tp_overlap_configs/userbuffers.py; Megatron-Bridge CommOverlapConfig(
        # tp_comm_overlap=True) in its performance configs; dgxc-benchmarking and MLPerf TP_COMM_OVERLAP); Megatron-LM's
        # own --tp-comm-overlap defaults off, which rows launched without it state (tp_comm_overlap false)
        tp_async_backward=True, tp_comm_overlap=True, checkpoint_save="torch-dist",
        grads_reduced_in_buffer=True, lora_adapters_in_model_dtype=True, loss_in_place=True, adam_fused=True,
        lora_adapts_experts=True, adapters_fp32_master=True, vision_tower_replicated=True, parallelism=par.MEGATRON,
        # post-training on Megatron as ms-swift's `megatron rlhf` runs it: log-probs from the model's own loss
        posttraining=rl.MEGATRON_SWIFT, runs=rn.MEGATRON, pipeline_layouts=True),
    "unsloth": FrameworkDefaults(
        "unsloth", "Unsloth", "fused-linear", True, 1, 0, "attention", False, "direct", False, False, True, "unsloth",
        (("loss", "unsloth_zoo fused_linear_cross_entropy / unsloth_fused_ce_loss: the lm_head and the loss run "
          "in chunks, logits are never materialised for the whole batch"),
         ("checkpointing", "use_gradient_checkpointing='unsloth' offloads each layer's saved input to CPU memory"),
         ("LoRA layers", "unsloth/kernels/fast_lora.py LoRA_QKV / LoRA_W / LoRA_MLP: fused autograd functions that "
          "save only their inputs (and gate/up for the MLP), dequantise the 4-bit weight themselves and cast the "
          "adapters to the input's dtype"),
         ("loading", "pre-quantised bnb-4bit checkpoints are loaded straight into 4-bit storage")),
        kernels_save_as_compiled=True, fused_lora_kernels=True, posttraining=rl.UNSLOTH, parallelism=par.UNSLOTH,
        runs=rn.UNSLOTH,
        # unslothai/unsloth at 015bdef0 unsloth/kernels/utils.py matmul_lora (line 1158) `fast_dequantize(W, W_quant,
        # use_global_buffer = True)`; fast_dequantize (lines 495-518) keeps WEIGHT_BUFFERS[device] (and ABSMAX_BUFFERS,
        # fp32) and resize_()s it to the largest weight; matmul_lora has done so since 144190bd06 (2025-02-06, #1620)
        qlora_dequant_buffer=True,
    ),
    "litgpt": FrameworkDefaults(
        "litgpt", "LitGPT", "chunked", False, 0, 128, "attention", False, "full-then-shard", True, False, False,
        "bitsandbytes",
        (("loss", "litgpt/utils.py chunked_cross_entropy with lm_head_chunk_size=128: logits per 128 tokens, "
          "cross-entropy in the logits' dtype (no upcast of its own)"),
         ("outputs", "lightning/fabric/wrappers.py _FabricModule.forward ends with precision.convert_output, which "
          "for bf16-true (plugins/precision/half.py) and bitsandbytes casts floating outputs to the default dtype: "
          "the logit chunks reach the loss as fp32"),
         ("logits kept", "litgpt/finetune/lora.py and full.py: `logits = model(...)` stays bound through backward and "
          "the optimizer step and is rebound only when the next forward returns"),
         ("weights", "litgpt/model.py GPT has its own lm_head next to transformer.wte (no tying); "
          "scripts/convert_hf_checkpoint.py copies a tied embedding into lm_head.weight"),
         ("QLoRA", "lightning/fabric/plugins/precision/bitsandbytes.py _convert_layers replaces every nn.Linear, "
          "lm_head included (litgpt passes no ignore_modules); _quantize_weight quantises an fp16 copy, so "
          "dequantize_4bit returns fp16 that MatMul4Bit casts to bf16"),
         ("memory statistics", "litgpt/finetune/*.py print torch.cuda.max_memory_allocated() at the end without "
          "resetting the statistics, so the figure includes loading"),
         ("loading", "fabric.load_raw loads the full 16-bit checkpoint next to the FSDP shards"),
         ("LoRA", "litgpt/finetune/lora.py builds GPT under fabric.init_module(), which for bf16-true creates every "
          "parameter, the LoRA adapters included, in bf16"),
         ("FSDP", "lightning/fabric/strategies/fsdp.py FSDPStrategy.setup_module wraps the model in "
          "torch.distributed.fsdp.FullyShardedDataParallel (FSDP1)")),
        outputs_fp32=True, logits_kept=True, unties_embeddings=True, quantizes_head=True,
        lora_adapters_in_model_dtype=True, fsdp_version=1, parallelism=par.LITGPT, runs=rn.LITGPT,
    ),
    "pytorch": _PYTORCH,
    "olmo-core": replace(
        _PYTORCH, id="olmo-core", label="OLMo-core", fsdp_embedding_unit=True, parallelism=par.OLMO_CORE, runs=rn.OLMO_CORE,
        sources=(("training", "allenai/OLMo-core: a PyTorch training loop of its own (FSDP2 fully_shard)"),
                 ("loss", "src/olmo_core/nn/functional/cross_entropy_loss.py at 7e58d12 cross_entropy_loss: "
                  "logits.float() then F.cross_entropy over the whole batch"),
                 ("FSDP units", "src/olmo_core/nn/transformer/model.py at 7e58d1289bc27103880e7a8382ad0847c35e04f7 "
                  "apply_fsdp: fully_shard each block, then self.embeddings with set_unshard_in_backward(False) "
                  "('Embedding params are not needed for backwards computation'), then self.lm_head with "
                  "reshard_after_forward=False, then the model"))),
    # NeMo AutoModel's own model code run with Transformer Engine modules (a recipe's backend attn / linear /
    # rms_norm te): a plain PyTorch loop with FSDP2 (its memory facts), its time profile ("nemo-automodel-te" in
    # presets/efficiency.json) TE's fused norms, rope and attention; its Hugging Face models (force_hf, the LoRA
    # benchmarks) run the pytorch row
    "nemo-automodel-te": replace(
        _PYTORCH, id="nemo-automodel-te", label="NeMo AutoModel (Transformer Engine backend)",
        profile="nemo-automodel-te", parallelism=par.NEMO_AUTOMODEL,
        sources=(*_PYTORCH.sources,
                 ("Transformer Engine backend", "NVIDIA-NeMo/Automodel at 36044ad3d139363fb6c73c24af2e7c6b65ec52f6: "
                  "nemo_automodel/components/models/common BackendConfig (attn, linear, rms_norm te; rope_fusion), "
                  "components/models/qwen3_moe/layers.py and model.py (TE RMSNorm, TE fused rope, "
                  "DotProductAttention, eager residual adds)"))),
    # InternEvo (InternLM's trainer) builds its model and ZeRO-1 optimizer itself; its memory facts are DeepSpeed
    # ZeRO-1's (bf16 weights and gradients on every rank, fp32 master and Adam states sharded over the ZeRO group),
    # its time profile ("internevo" in presets/efficiency.json) its own
    # DeepSpeed v0.4.4 to v0.12.6 (2021-07 to 2024-01): the same memory facts; its time profile ("deepspeed-2022" in
    # presets/efficiency.json) all-reduces ZeRO-1's gradients, as BigScience's Megatron-DeepSpeed runs of 2022 ran it
    "deepspeed-2022": replace(
        _DS, id="deepspeed-2022", label="DeepSpeed 0.4.4-0.12 (2021-2023)", profile="deepspeed-2022",
        parallelism=par.DEEPSPEED_2022, runs=rn.DEEPSPEED_2022, adam_fused=True, sources=(*_DS.sources,
                 ("ZeRO-1 gradients", "deepspeedai/DeepSpeed deepspeed/runtime/engine.py at 2151c787a (2022-02-18) "
                  "_configure_zero_optimizer: contiguous_gradients = False for stage 1 (since pull request #1246, "
                  "6ae756c03, v0.4.4), so zero/stage_1_and_2.py reduce_ipg_grads takes buffered_reduce_fallback and "
                  "allreduce_bucket all-reduces each bucket; pull request #4887 (af033831f, v0.13.0) removed it"))),
    # DeepSpeed as the SC21 paper (arXiv:2104.04473, April 2021) ran its ZeRO-3 baseline: the same memory facts, its
    # time profile ("deepspeed-2021" in presets/efficiency.json) gathers each parameter synchronously
    "deepspeed-2021": replace(
        _DS, id="deepspeed-2021", label="DeepSpeed (April 2021)", profile="deepspeed-2021",
        bf16_optimizer_without_zero=False,  # BF16_Optimizer came in 2022 (microsoft/DeepSpeed pull request #1801)
        parallelism=par.DEEPSPEED_2021, runs=rn.DEEPSPEED_2021, adam_fused=True, sources=(*_DS.sources,
                 ("ZeRO-3 of April 2021", "deepspeedai/DeepSpeed at 112ebff6e86a177608e52f7e36595ea2926ae37b "
                  "(2021-04-08): stage3.py fetch_sub_module gathers each submodule's parameters before it runs and "
                  "waits (_synchronize_communication: torch.cuda.synchronize()); partition_parameters.py "
                  "_allgather_param gathers one parameter after a torch.cuda.synchronize() into a list of one "
                  "tensor per rank, _reduce_scatter_gradient reduce-scatters one gradient from such a list; "
                  "param_persistence_threshold 1e5; stage3.py backward partitions every parameter again "
                  "(_partition_all_parameters) and step's _post_step gathers the persistent ones with "
                  "_allgather_params, a copy per parameter and rank; replaced by PR #1188 ('the async version is "
                  "not async at all')"))),
    "internevo": replace(
        _DS, id="internevo", label="InternEvo", profile="internevo", pipeline_returns_outputs=True,
        bf16_optimizer_without_zero=False,  # its own HybridZeroOptimizer, not DeepSpeed's
        pipeline_recv_once=False, cross_entropy="fused", parallelism=par.INTERNEVO, runs=rn.INTERNEVO,
        sources=(("training", "InternLM/InternEvo at c18bec9 (July 2023, the commit that wrote "
                  "doc/en/train_performance.md's table): train.py, internlm/solver/optimizer/hybrid_zero_optim.py"),
                 ("ZeRO-1", "hybrid_zero_optim.py HybridZeroOptimizer: parallel.zero1 ranks each keep the fp32 master "
                  "and Adam states of whole parameter tensors (_partition_param_list), gradients are all-reduced "
                  "in bf16 in hybrid_zero_optimizer.reduce_bucket_size buckets (configs/7B_sft.py: 512 x 1024 x "
                  "1024 elements) and the updated bf16 weights broadcast rank by rank (broadcast_params)"),
                 ("loss", "internlm/model/loss.py FlashGPTLMLoss (parallel_output=True, the model's default): "
                  "flash_attn.losses.cross_entropy.CrossEntropyLoss(inplace_backward=True) over the bf16 logits "
                  "(NaiveAMPModel casts only fp16 outputs to fp32)"),
                 ("pipeline", "not read: the published rows run without pipeline parallelism (the table's defaults)"))),
    "aleph-alpha-scaling": replace(_DS, id="aleph-alpha-scaling", label="Aleph Alpha Scaling", profile="aleph-alpha-scaling",
        parallelism=par.ALEPH_ALPHA_SCALING, runs=rn.ALEPH_ALPHA_SCALING, sp_gathers_per_block=True,
        sources=(("training", "Aleph-Alpha/scaling at 78489292be (memory: ZeRO-1's; SP: nn/norm/rms_norm.py gathers)"),)),
    # TRL's trainers subclass transformers.Trainer: its gradient checkpointing (the Hugging Face row's)
    "trl": replace(_post_trainer(_HF, "trl", "TRL", rl.TRL_TRAINERS, "TRL's trainers subclass transformers.Trainer",
                                 True), runs=rn.HUGGINGFACE, quantized_adapters_bf16=_TRL_QLORA_BF16[0]),
    "verl": replace(_post_trainer(_HF, "verl", "verl", rl.VERL, "verl's FSDP workers train transformers models "
                                  "(verl/workers/fsdp_workers.py), with FSDP1 by default (ppo_trainer.yaml actor."
                                  "strategy: fsdp; fsdp2 is fully_shard)", False), checkpoint_save=""),
    "openrlhf": _post_trainer(_DS, "openrlhf", "OpenRLHF", rl.OPENRLHF, "OpenRLHF trains with DeepSpeed, ZeRO-2 by "
                              "default (openrlhf/cli/train_ppo_ray.py --ds.zero_stage 2)", False),
    "ms-swift": _post_trainer(_HF, "ms-swift", "ms-swift", rl.MS_SWIFT, "ms-swift's RLHF trainers subclass TRL's "
                              "(swift/rlhf_trainers)", True),
    "nemo-rl": replace(_post_trainer(_HF, "nemo-rl", "NeMo-RL", rl.NEMO_RL, "NeMo-RL's DTensor policy worker trains "
                                     "transformers models with FSDP2 (nemo_rl/models/policy/workers/"
                                     "dtensor_policy_worker_v2.py)", False), fsdp_version=2, checkpoint_save=""),
}
# Megatron-LM as SC21 ran it, of 2022 to mid-2023, the Zero Bubble fork (megatron_2021.py, _2022.py, megatron_zb.py)
TABLE["megatron-2021"], TABLE["megatron-2022"] = megatron_2021_row(TABLE["megatron"]), megatron_2022_row(TABLE["megatron"])
TABLE["megatron-zb"], TABLE["fms-fsdp"] = megatron_zb_row(TABLE["megatron"]), fms_fsdp_row(TABLE["pytorch"])  # fms_fsdp.py
TABLE["meta-llama3"] = meta_llama3_row(TABLE["megatron"])  # Meta's Llama 3 stack: meta_llama3.py
TABLE["verl-megatron"] = verl_megatron_row(TABLE["megatron"])  # verl's Megatron actor: verl_megatron.py
TABLE["nemo-rl-megatron"] = nemo_rl_megatron_row(TABLE["megatron"])  # NeMo-RL's Megatron backend
TABLE["mlx"], TABLE["mlx-2023"] = MLX_ROW, MLX_2023_ROW  # MLX through mlx-lm's tuner, on Apple GPUs: mlx.py
TABLE["trl"] = replace(TABLE["trl"], sources=(*TABLE["trl"].sources, _TRL_QLORA_BF16[1]))
# Trainers over TRL's that never run its __init__ keep peft's fp32 QLoRA adapters: LLaMA-Factory's (the huggingface
# row's) and ms-swift's; axolotl's DPO / IPO / KTO / reward / GRPO run it (its own row: axolotl.py)
TABLE["huggingface"] = replace(_HF, sources=(*_HF.sources, (
    "QLoRA adapters in fp32", "hiyouga/LLaMA-Factory at ff6d4d12eeb0 (pyproject.toml line 47: trl>=0.18.0,<=0.24.0, "
    "before TRL's cast): src/llamafactory/model/adapter.py lines 337-349 cast_trainable_params_to_fp32 unless "
    "pure_bf16 / BAdam, lines 310-312 param.data.to(torch.float32); train/dpo/trainer.py line 87 and train/kto/"
    "trainer.py line 89 call Trainer.__init__ (not DPOTrainer's / KTOTrainer's), train/sft/trainer.py line 47 "
    "Seq2SeqTrainer, train/rm/trainer.py line 43 Trainer")))
TABLE["ms-swift"] = replace(TABLE["ms-swift"], sources=(*TABLE["ms-swift"].sources, (
    "QLoRA adapters in fp32", "modelscope/ms-swift at 3602360a5623 (requirements/framework.txt line 37: "
    "trl>=0.15,<1.0): swift/rlhf_trainers/dpo_trainer.py line 28 `del HFDPOTrainer.__init__` (kto_trainer.py 21, "
    "reward_trainer.py 23, grpo_trainer.py 79, cpo 17, orpo 16, ppo 20, gkd 40-41 the same), so their __init__ runs "
    "transformers.Trainer's; swift/trainers/trainer.py line 17 Trainer(SwiftMixin, DataLoaderMixin, HfTrainer) for "
    "SFT; swift/tuners/peft.py lines 147-160 keep peft's fp32 cast unless lora_dtype is set")))
TABLE["axolotl"] = axolotl_row(_HF)  # axolotl.py: TRL 1.8.0's cast under its TRL trainers
# TRL up to v0.25.1 (November 2025): the same trainers, a quantised model's adapters in peft's fp32
TABLE["trl-2025"] = replace(TABLE["trl"], id="trl-2025", label="TRL 0.25 or older", quantized_adapters_bf16=(),
                            sources=(*TABLE["trl"].sources[:-1], (
                                "QLoRA adapters in fp32", "huggingface/trl v0.25.1 trl/models/utils.py prepare_peft_model "
                                "lines 559-607: prepare_model_for_kbit_training, get_peft_model (peft's fp32 adapters), "
                                "peft_module_casting_to_bf16 casts only norms, embeddings and lm_head")))
# Unsloth up to its January 2025 release: matmul_lora dequantised each 4-bit weight into a new tensor and freed it
TABLE["unsloth-2024"] = replace(TABLE["unsloth"], id="unsloth-2024", label="Unsloth up to 2025.1 (2024)", profile="unsloth",
                                qlora_dequant_buffer=False, sources=(*TABLE["unsloth"].sources, (
                                    "QLoRA dequantisation", "unslothai/unsloth tag December-2024 (400d9955b6) unsloth/"
                                    "kernels/utils.py matmul_lora lines 402-413: `W = fast_dequantize(W.t(), W_quant)` "
                                    "then `del W`, no global buffer (tag 2025-02, ee5aaa2e82, line 448: "
                                    "use_global_buffer = True)")))


def defaults_for(framework: str) -> FrameworkDefaults:
    return TABLE[framework]
