"""The words on screen for each scenario key: errors, notices, undo entries and the rent layouts (window and command
line) name controls as a person sees them. No Qt: each function takes the "Fields" context's translator (gui/words.py
binds Qt's; the command line passes its own, engine/cli.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..frameworks import TABLE
from ..messages import QT_TRANSLATE_NOOP
from ..models.presets import gpu_presets, model_presets
from ..units import format_bytes, format_count, format_gb_per_s
from .serving_key_words import SERVING_FIELD_LABELS, SERVING_VALUE_WORDS

# key -> the label of its control in the window (the set-up panel uses the same texts).
FIELD_LABELS: dict[str, str] = {
    "name": QT_TRANSLATE_NOOP("Fields", "Name"),
    "model": QT_TRANSLATE_NOOP("Fields", "Model"),
    "gpu": QT_TRANSLATE_NOOP("Fields", "GPU"),
    "gpus_per_node": QT_TRANSLATE_NOOP("Fields", "GPUs per node"),
    "nodes": QT_TRANSLATE_NOOP("Fields", "Nodes"),
    "method": QT_TRANSLATE_NOOP("Fields", "Method"),
    "lora_rank": QT_TRANSLATE_NOOP("Fields", "Adapter rank (LoRA r)"),
    "lora_targets": QT_TRANSLATE_NOOP("Fields", "Adapted layers (targets)"),
    "lora_layers": QT_TRANSLATE_NOOP("Fields", "Layers with adapters (from the top)"),
    "frozen_layers": QT_TRANSLATE_NOOP("Fields", "Frozen layers"),
    "freeze_from": QT_TRANSLATE_NOOP("Fields", "Frozen side"),
    "freeze_embeddings": QT_TRANSLATE_NOOP("Fields", "Freeze the token embeddings"),
    "qlora_bits": QT_TRANSLATE_NOOP("Fields", "Base weights (QLoRA bits)"),
    "qlora_double_quant": QT_TRANSLATE_NOOP("Fields", "Double quantisation"),
    "base_storage": QT_TRANSLATE_NOOP("Fields", "Frozen base weights (storage)"),
    "precision": QT_TRANSLATE_NOOP("Fields", "Number format (precision)"),
    "optimizer": QT_TRANSLATE_NOOP("Fields", "Optimizer"),
    "micro_batch": QT_TRANSLATE_NOOP("Fields", "Sequences per GPU step (micro-batch)"),
    "seq_len": QT_TRANSLATE_NOOP("Fields", "Tokens per sequence (sequence length)"),
    "grad_accum": QT_TRANSLATE_NOOP("Fields", "Steps per update (gradient accumulation)"),
    "checkpointing": QT_TRANSLATE_NOOP("Fields", "Activation checkpointing"),
    "recompute_num_layers": QT_TRANSLATE_NOOP("Fields", "Recompute layers"),
    "recompute_method": QT_TRANSLATE_NOOP("Fields", "Recompute method"),
    "attention": QT_TRANSLATE_NOOP("Fields", "Attention kernel"),
    "tp": QT_TRANSLATE_NOOP("Fields", "Tensor parallel (TP)"),
    "pp": QT_TRANSLATE_NOOP("Fields", "Pipeline parallel (PP)"),
    "ep": QT_TRANSLATE_NOOP("Fields", "Expert parallel (EP)"),
    "cp": QT_TRANSLATE_NOOP("Fields", "Context parallel (CP)"),
    "sequence_parallel": QT_TRANSLATE_NOOP("Fields", "Sequence parallelism"),
    "zero_stage": QT_TRANSLATE_NOOP("Fields", "Sharding (ZeRO / FSDP)"),
    "fsdp": QT_TRANSLATE_NOOP("Fields", "Sharding (ZeRO / FSDP)"),
    "offload": QT_TRANSLATE_NOOP("Fields", "Offload (slow)"),
    "optimizer_offload_fraction": QT_TRANSLATE_NOOP("Fields", "Optimizer share on the CPU"),
    "estimator": QT_TRANSLATE_NOOP("Fields", "Estimator"),
    "reserve": QT_TRANSLATE_NOOP("Fields", "Safety reserve"),
    "k_factor": QT_TRANSLATE_NOOP("Fields", "K factor"),
    "lora_alpha": QT_TRANSLATE_NOOP("Fields", "LoRA alpha"),
    "lora_adapter_dtype": QT_TRANSLATE_NOOP("Fields", "Adapter number format"),
    "notes": QT_TRANSLATE_NOOP("Fields", "Notes"),
    "framework": QT_TRANSLATE_NOOP("Fields", "Framework"),
    "cross_entropy": QT_TRANSLATE_NOOP("Fields", "Loss computation"),
    "compile": QT_TRANSLATE_NOOP("Fields", "Compile the model"),
    "liger_kernels": QT_TRANSLATE_NOOP("Fields", "Liger kernels"),
    "activation_offload": QT_TRANSLATE_NOOP("Fields", "Activation offloading"),
    "optimizer_in_backward": QT_TRANSLATE_NOOP("Fields", "Optimizer in backward"),
    "modules_to_save": QT_TRANSLATE_NOOP("Fields", "Also fully train (modules_to_save)"),
    "distributed_optimizer": QT_TRANSLATE_NOOP("Fields", "Distributed optimizer"),
    "pp_schedule": QT_TRANSLATE_NOOP("Fields", "Pipeline schedule"),
    "vpp": QT_TRANSLATE_NOOP("Fields", "Virtual pipeline stages"),
    "dp_shard": QT_TRANSLATE_NOOP("Fields", "Shard group (GPUs)"),
    "reshard_after_forward": QT_TRANSLATE_NOOP("Fields", "Re-shard after forward"),
    "fsdp_version": QT_TRANSLATE_NOOP("Fields", "FSDP version"),
    "loss_parallel": QT_TRANSLATE_NOOP("Fields", "Loss parallel"),
    "lora_dropout": QT_TRANSLATE_NOOP("Fields", "LoRA dropout"),
    "expandable_segments": QT_TRANSLATE_NOOP("Fields", "GPU memory allocator"),
    "reduce_bucket_size": QT_TRANSLATE_NOOP("Fields", "Gradient reduce bucket (reduce_bucket_size)"),
    "allgather_bucket_size": QT_TRANSLATE_NOOP("Fields", "Weight gather bucket (allgather_bucket_size)"),
    "stage3_max_live_parameters": QT_TRANSLATE_NOOP("Fields", "Most gathered weights at once "
                                                    "(stage3_max_live_parameters)"),
    "stage3_prefetch_bucket_size": QT_TRANSLATE_NOOP("Fields", "Weights fetched ahead "
                                                     "(stage3_prefetch_bucket_size)"),
    "main_grads_fp32": QT_TRANSLATE_NOOP("Fields", "Gradient buffer"),
    "host_memory_bytes": QT_TRANSLATE_NOOP("Fields", "CPU memory per node"),
    "images_per_sample": QT_TRANSLATE_NOOP("Fields", "Images per sequence (images per sample)"),
    "image_resolution": QT_TRANSLATE_NOOP("Fields", "Image side in pixels (image resolution)"),
    "vision_tower": QT_TRANSLATE_NOOP("Fields", "Image encoder (vision tower)"),
    "attention_kernel": QT_TRANSLATE_NOOP("Fields", "Attention kernel variant"),
    "moe_token_dispatcher_type": QT_TRANSLATE_NOOP("Fields", "MoE token dispatcher"),
    "moe_a2a_overlap": QT_TRANSLATE_NOOP("Fields", "MoE all-to-all beside another micro-batch (moe_a2a_overlap)"),
    "fused_expert_mlp": QT_TRANSLATE_NOOP("Fields", "MoE expert MLP as fused grouped ops (fused_expert_mlp)"),
    "fp8_recipe": QT_TRANSLATE_NOOP("Fields", "FP8 scaling recipe"),
    "tp_only_amax_red": QT_TRANSLATE_NOOP("Fields", "FP8 amax reduced over tensor-parallel ranks only "
                                          "(tp_only_amax_red)"),
    "tp_comm_overlap": QT_TRANSLATE_NOOP("Fields", "TP collectives overlapped with userbuffers (tp_comm_overlap)"),
    "grad_reduce_fp32": QT_TRANSLATE_NOOP("Fields", "Gradients reduced in FP32 (grad_reduce_fp32)"),
    "packed_sequence_tokens": QT_TRANSLATE_NOOP("Fields", "Tokens per packed sequence (packed_sequence_tokens)"),
    "cuda_graphs": QT_TRANSLATE_NOOP("Fields", "CUDA graphs (captured parts)"),
    "fp8_all_gather": QT_TRANSLATE_NOOP("Fields", "FP8 weight all-gather (FSDP2)"),
    "entropy_coeff": QT_TRANSLATE_NOOP("Fields", "Entropy bonus weight (entropy_coeff)"),
    "rpo_alpha": QT_TRANSLATE_NOOP("Fields", "Chosen answers' NLL weight (rpo_alpha)"),
    "intra_node_bandwidth_bytes_per_s": QT_TRANSLATE_NOOP("Fields", "Bandwidth within a node"),
    "inter_node_bandwidth_bytes_per_s": QT_TRANSLATE_NOOP("Fields", "Bandwidth between nodes"),
    "tokens_to_train": QT_TRANSLATE_NOOP("Fields", "Tokens to train"),
    "gpu_hour_price": QT_TRANSLATE_NOOP("Fields", "Price per GPU-hour"),
    "currency": QT_TRANSLATE_NOOP("Fields", "Currency"),  # the plan card listed it as "currency" (user audit 6)
    "deadline_days": QT_TRANSLATE_NOOP("Fields", "Deadline"),  # the rent tab's rows (gui/rent_panel.py)
    "budget": QT_TRANSLATE_NOOP("Fields", "Budget"),
    "packing": QT_TRANSLATE_NOOP("Fields", "Sequence packing (packing)"),
    "max_tokens_per_micro_batch": QT_TRANSLATE_NOOP("Fields", "Tokens per micro-batch (max_tokens_per_micro_batch)"),
    "pipeline_layout": QT_TRANSLATE_NOOP("Fields", "Megatron pipeline layout (pipeline_layout)"),  # Make it fit sets it
    "time_calibration": QT_TRANSLATE_NOOP("Fields", "Measured step time"),
    "training_objective": QT_TRANSLATE_NOOP("Fields", "Objective (training objective)"),
    "reference_model": QT_TRANSLATE_NOOP("Fields", "Reference (reference model)"),
    "reward_model": QT_TRANSLATE_NOOP("Fields", "Reward model"),
    "critic_model": QT_TRANSLATE_NOOP("Fields", "Critic (value model)"),
    "critic_offload": QT_TRANSLATE_NOOP("Fields", "Critic offloaded to CPU memory (critic_offload)"),
    "critic_packing": QT_TRANSLATE_NOOP("Fields", "Critic's sequences (critic_packing)"),
    "critic_max_tokens_per_micro_batch": QT_TRANSLATE_NOOP("Fields", "Critic's tokens per micro-batch "
                                                           "(critic_max_tokens_per_micro_batch)"),
    "prompt_len_mean": QT_TRANSLATE_NOOP("Fields", "Mean prompt without padding (prompt_len_mean)"),
    "prompt_len": QT_TRANSLATE_NOOP("Fields", "Tokens per prompt (prompt length)"),
    "completion_len": QT_TRANSLATE_NOOP("Fields", "Tokens per completion (completion length)"),
    "max_completion_len": QT_TRANSLATE_NOOP("Fields", "Longest completion (max_completion_len)"),
    "sequence_len_std": QT_TRANSLATE_NOOP("Fields", "Spread of a sequence's tokens (sequence_len_std)"),
    "num_generations": QT_TRANSLATE_NOOP("Fields", "Completions per prompt (generations)"),
    "rollout_engine": QT_TRANSLATE_NOOP("Fields", "Generation engine (rollout engine)"),
    "rollout_placement": QT_TRANSLATE_NOOP("Fields", "Engine placement"),
    "rollout_gpus": QT_TRANSLATE_NOOP("Fields", "GPUs of the engine (rollout GPUs)"),
    "rollout_tp": QT_TRANSLATE_NOOP("Fields", "Engine tensor parallel (rollout TP)"),
    "rollout_gpu_memory_utilization": QT_TRANSLATE_NOOP("Fields", "Engine's share of each GPU "
                                                        "(gpu_memory_utilization)"),
    "rollout_sleep": QT_TRANSLATE_NOOP("Fields", "Engine while training (sleep mode)"),
    "rollout_kv_cache_dtype": QT_TRANSLATE_NOOP("Fields", "Engine KV cache format"),
    "rollout_max_num_seqs": QT_TRANSLATE_NOOP("Fields", "Sequences generated at once (max_num_seqs)"),
    "rollout_max_model_len": QT_TRANSLATE_NOOP("Fields", "Longest request (max_model_len)"),
    "rollout_engine_release": QT_TRANSLATE_NOOP("Fields", "vLLM release (start-up accounting)"),
    "rollout_shares_weights": QT_TRANSLATE_NOOP("Fields", "Engine shares the trainer's weights"),
    "rollout_enforce_eager": QT_TRANSLATE_NOOP("Fields", "Engine without CUDA graphs (enforce_eager)"),
    "rollout_async_engine": QT_TRANSLATE_NOOP("Fields", "Engine as vLLM's AsyncLLM (async_engine)"),
    "ulysses_sequence_parallel_size": QT_TRANSLATE_NOOP("Fields", "Ulysses sequence parallel size"),
}

# Values shown in words where the control shows words (combo items); numbers stay numbers.
VALUE_WORDS: dict[str, dict[Any, str]] = {
    "method": {"full": QT_TRANSLATE_NOOP("Fields", "full fine-tune"), "freeze": QT_TRANSLATE_NOOP("Fields", "frozen layers"),
               "lora": "LoRA", "qlora": "QLoRA"},
    "checkpointing": {"none": QT_TRANSLATE_NOOP("Fields", "off"), "selective": QT_TRANSLATE_NOOP("Fields", "selective"),
                      "full": QT_TRANSLATE_NOOP("Fields", "full"),
                      "op-selective": QT_TRANSLATE_NOOP("Fields", "per-op selective")},
    # the set-up's words for the kernel and the generation engine (gui/setup_panel.py, gui/rl_rows.py), so the
    # Markdown's inputs and the comparison do not show the file's "flash" / "vllm" (user audit 9)
    "attention": {"sdpa": "PyTorch SDPA", "flash": "FlashAttention",
                  "eager": QT_TRANSLATE_NOOP("Fields", "eager (stores b·a·s² scores)")},
    "rollout_engine": {"auto": QT_TRANSLATE_NOOP("Fields", "the framework's default (auto)"), "vllm": "vLLM",
                       "sglang": "SGLang", "none": QT_TRANSLATE_NOOP("Fields", "the trainer's own generate (none)")},
    "offload": {"none": QT_TRANSLATE_NOOP("Fields", "none"), "optimizer": QT_TRANSLATE_NOOP("Fields", "optimizer states"),
                "optimizer+params": QT_TRANSLATE_NOOP("Fields", "optimizer states and weights")},
    "zero_stage": {0: QT_TRANSLATE_NOOP("Fields", "off"), 1: "ZeRO-1", 2: "ZeRO-2", 3: "ZeRO-3"},
    "fsdp": {True: "FSDP", False: QT_TRANSLATE_NOOP("Fields", "off")},
    "dp_shard": {0: QT_TRANSLATE_NOOP("Fields", "all")},  # engine/scenario/shard_group.py ALL_RANKS
    "vision_tower": {"frozen": QT_TRANSLATE_NOOP("Fields", "frozen"), "trained": QT_TRANSLATE_NOOP("Fields", "trained"),
                     "frozen-backward": QT_TRANSLATE_NOOP("Fields", "frozen, back-propagated")},
    "expandable_segments": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework's launcher sets it")},
    "main_grads_fp32": {"auto": QT_TRANSLATE_NOOP("Fields", "as Megatron does it (fp32)")},
    "loss_parallel": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it")},
    "cuda_graphs": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it"),
                    "none": QT_TRANSLATE_NOOP("Fields", "none"),
                    "moe-router": QT_TRANSLATE_NOOP("Fields", "MoE router only"),
                    "attention": QT_TRANSLATE_NOOP("Fields", "attention and MoE router"),
                    "layers": QT_TRANSLATE_NOOP("Fields", "every transformer layer"),
                    "full-iteration": QT_TRANSLATE_NOOP("Fields", "the whole forward and backward")},
    "attention_kernel": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it"),
                         "flash1": "FlashAttention-1", "flash2": "FlashAttention-2", "flash3": "FlashAttention-3",
                         "flash4": "FlashAttention-4", "cudnn": "cuDNN 9", "cudnn8": "cuDNN 8.9",
                         "triton": "Triton FlashAttention"},
    "fp8_all_gather": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it")},
    **{key: {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it")}
       for key in ("rollout_enforce_eager", "rollout_async_engine", "rollout_shares_weights")},
    # Compare read "ppo | ppo | grpo" and a critic "same" (user audit 8): the set-up's words, shortened
    "training_objective": {"sft": QT_TRANSLATE_NOOP("Fields", "pre-training or supervised fine-tuning (SFT)"), "dpo": "DPO",
                           "ipo": "IPO", "kto": "KTO", "orpo": "ORPO", "simpo": "SimPO", "cpo": "CPO",
                           "reward": QT_TRANSLATE_NOOP("Fields", "reward model on pairs"),
                           "ppo": QT_TRANSLATE_NOOP("Fields", "PPO (with a critic)"), "grpo": "GRPO", "rloo": "RLOO",
                           "online-dpo": QT_TRANSLATE_NOOP("Fields", "online DPO")},
    "critic_model": {"same": QT_TRANSLATE_NOOP("Fields", "a copy of the policy")},
    "critic_offload": {"auto": QT_TRANSLATE_NOOP("Fields", "as the policy's offload"),
                       "none": QT_TRANSLATE_NOOP("Fields", "none"),
                       "optimizer": QT_TRANSLATE_NOOP("Fields", "optimizer states"),
                       "optimizer+params": QT_TRANSLATE_NOOP("Fields", "optimizer states and weights")},
    # the set-up's words (gui/packing_rows.py), shortened: the undo entry read "packing: padding-free" (user audit 15)
    "packing": {"none": QT_TRANSLATE_NOOP("Fields", "padded"), "padding-free": QT_TRANSLATE_NOOP("Fields", "padding-free"),
                "packed": QT_TRANSLATE_NOOP("Fields", "packed")},
    "max_tokens_per_micro_batch": {0: QT_TRANSLATE_NOOP("Fields", "no budget")},
    "critic_packing": {"auto": QT_TRANSLATE_NOOP("Fields", "as the policy's packing"),
                       "none": QT_TRANSLATE_NOOP("Fields", "padded"),
                       "padding-free": QT_TRANSLATE_NOOP("Fields", "padding-free")},
    "fp8_recipe": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it")},  # a plan that drops torchao's
    # the set-up panel's words, shortened where its item is a sentence (a plan or a comparison cell is narrow)
    "optimizer": {"adamw": "AdamW", "adamw-fused": QT_TRANSLATE_NOOP("Fields", "AdamW fused"),
                  "adamw-8bit": QT_TRANSLATE_NOOP("Fields", "AdamW 8-bit"),
                  "adamw-8bit-paged": QT_TRANSLATE_NOOP("Fields", "AdamW 8-bit, paged"), "sgd": "SGD",
                  "sgd-momentum": QT_TRANSLATE_NOOP("Fields", "SGD with momentum"), "adafactor": "Adafactor",
                  "auto": QT_TRANSLATE_NOOP("Fields", "AdamW as the framework runs it")},
    "precision": {"amp-bf16": QT_TRANSLATE_NOOP("Fields", "bf16 autocast, fp32 weights (AMP)"),
                  "amp-fp16": QT_TRANSLATE_NOOP("Fields", "fp16 autocast, fp32 weights (AMP)"),
                  "bf16": QT_TRANSLATE_NOOP("Fields", "pure bf16 (weights, grads, states)"),
                  "fp16": QT_TRANSLATE_NOOP("Fields", "pure fp16"),
                  "mixed-bf16": QT_TRANSLATE_NOOP("Fields", "bf16 + fp32 master weights (DeepSpeed, Megatron)"),
                  "mixed-fp16": QT_TRANSLATE_NOOP("Fields", "fp16 + fp32 master weights (DeepSpeed, Megatron)"),
                  "fp8": QT_TRANSLATE_NOOP("Fields", "fp8 compute (Transformer Engine, torchao)"),
                  "nvfp4": QT_TRANSLATE_NOOP("Fields", "NVFP4 compute (Blackwell)"),
                  "fp32": QT_TRANSLATE_NOOP("Fields", "full fp32")},
    # the set-up's words for TRL's two rows and axolotl's (gui/framework_options.py), so the Markdown and Compare name
    # the releases that decide a QLoRA plan's adapter dtype, as the picker and the plan card do, not "TRL" beside
    # "TRL up to 0.25"
    "framework": {"trl": QT_TRANSLATE_NOOP("Fields", "TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward "
                                           "from 0.26, RLOO 0.27, DPO / IPO 0.29, KTO 1.4)"),
                  "trl-2025": QT_TRANSLATE_NOOP("Fields", "TRL before its trainer's bf16 cast (QLoRA adapters in fp32: "
                                                "every trainer up to 0.25, RLOO 0.26, DPO / IPO up to 0.28, KTO up to "
                                                "1.3)"),
                  "axolotl": QT_TRANSLATE_NOOP("Fields", "axolotl (QLoRA adapters in bf16 for DPO / IPO, KTO, reward, "
                                               "GRPO)")},
    "lora_targets": {"all-linear": QT_TRANSLATE_NOOP("Fields", "all linear layers"),
                     "attention": QT_TRANSLATE_NOOP("Fields", "all attention projections")},
    # keys a Make it fit plan, a suggestion or Fastest layouts sets: a GRPO plan read "Loss computation: fused-linear"
    # and "Engine while training (sleep mode): level-2" (user audit 11); the set-up's words (gui/framework_options.py,
    # gui/rl_rows.py, gui/parallel_limits.py, gui/setup_panel.py), shortened
    "cross_entropy": {"auto": QT_TRANSLATE_NOOP("Fields", "as the framework does it"),
                      "standard": QT_TRANSLATE_NOOP("Fields", "whole-batch logits in fp32"),
                      "chunked": QT_TRANSLATE_NOOP("Fields", "logits in chunks"),
                      "fused": QT_TRANSLATE_NOOP("Fields", "one fused kernel over the logits"),
                      "te": QT_TRANSLATE_NOOP("Fields", "Transformer Engine's fused kernel"),
                      "te-inplace": QT_TRANSLATE_NOOP("Fields", "Transformer Engine's fused kernel before v2.18"),
                      "megatron-fused": QT_TRANSLATE_NOOP("Fields", "Megatron's fused vocab-parallel loss"),
                      "megatron-unfused": QT_TRANSLATE_NOOP("Fields", "Megatron's vocab-parallel loss, unfused"),
                      "fused-linear": QT_TRANSLATE_NOOP("Fields", "fused with the output layer, no logits (Liger)"),
                      "no-upcast": QT_TRANSLATE_NOOP("Fields", "logits in the compute dtype, no fp32 upcast")},
    "rollout_sleep": {"auto": QT_TRANSLATE_NOOP("Fields", "the framework's default (auto)"),
                      "none": QT_TRANSLATE_NOOP("Fields", "stays resident"),
                      "level-1": QT_TRANSLATE_NOOP("Fields", "sleep level 1: weights to CPU memory, KV cache freed"),
                      "level-2": QT_TRANSLATE_NOOP("Fields", "sleep level 2: weights and KV cache freed")},
    "rollout_placement": {"colocate": QT_TRANSLATE_NOOP("Fields", "on the training GPUs"),
                          "separate": QT_TRANSLATE_NOOP("Fields", "on GPUs of its own")},
    "reference_model": {"auto": QT_TRANSLATE_NOOP("Fields", "as the objective and framework do it"),
                        "separate": QT_TRANSLATE_NOOP("Fields", "a frozen copy on the GPU"),
                        "adapter-off": QT_TRANSLATE_NOOP("Fields", "the base with adapters switched off"),
                        "precomputed": QT_TRANSLATE_NOOP("Fields", "log-probs computed before training"),
                        "none": QT_TRANSLATE_NOOP("Fields", "none")},
    "rollout_kv_cache_dtype": {"auto": QT_TRANSLATE_NOOP("Fields", "the model's number format (auto)")},
    "pp_schedule": {"1f1b": "1F1B", "interleaved-1f1b": QT_TRANSLATE_NOOP("Fields", "interleaved 1F1B"),
                    "gpipe": "GPipe", "zb-h1": QT_TRANSLATE_NOOP("Fields", "zero bubble ZB-1p"),
                    "zb-2p": QT_TRANSLATE_NOOP("Fields", "zero bubble ZB-2p"),
                    "zbv": QT_TRANSLATE_NOOP("Fields", "zero bubble ZB-V")},
    "base_storage": {"compute": QT_TRANSLATE_NOOP("Fields", "in the compute number format"),
                     "released": QT_TRANSLATE_NOOP("Fields", "as the checkpoint was released"),
                     "mxfp4": "MXFP4", "fp8": "FP8"},
}
FIELD_LABELS.update(SERVING_FIELD_LABELS)
VALUE_WORDS.update(SERVING_VALUE_WORDS)
NOT_SET = QT_TRANSLATE_NOOP("Fields", "not set")
# method "full" on a pre-training token budget (engine/planning/pretraining.py is_pretraining), as the set-up's item and
# the plan card say it (h-polish15: Compare and the undo entry still read "full fine-tune" of a 2T-token pre-training)
PRETRAINING_WORDS = QT_TRANSLATE_NOOP("Fields", "pre-training")
HSDP_WORDS = QT_TRANSLATE_NOOP("Fields", "HSDP: shard within %1 GPUs")  # dp_shard, a shard group of %1 GPUs
# one change "Label: value" and the mark between changes, translated: Chinese takes its own colon and comma (the zh plan
# read "改动：引擎张量并行（rollout TP）: 2, 方法: QLoRA", user audit 11)
CHANGE_WORDS = QT_TRANSLATE_NOOP("Fields", "%1: %2")
CHANGES_SEPARATOR = QT_TRANSLATE_NOOP("Fields", ", ")
BOOL_WORDS = {True: QT_TRANSLATE_NOOP("Fields", "on"), False: QT_TRANSLATE_NOOP("Fields", "off")}
DAYS_WORDS = QT_TRANSLATE_NOOP("Fields", "%1 days")  # deadline_days, as the rent tab's box shows it ("21 days")


# what a rent option rents, said elsewhere in its row: the GPU and its count in the title, the price in the cost, the
# server's CPU memory beside the time (engine/planning/rent.py)
RENTED_KEYS = ("gpu", "gpus_per_node", "nodes", "gpu_hour_price", "currency", "host_memory_bytes")


def _same(text: str) -> str:
    return text


def field_label(key: str, tr: Callable[[str], str] = _same) -> str:
    """The control's label for a scenario key (the key itself for keys the window has no control for)."""
    return tr(FIELD_LABELS[key]) if key in FIELD_LABELS else key


def value_words(key: str, value: Any, tr: Callable[[str], str] = _same, pretraining: bool = False) -> str:
    """The value in the set-up's words; `pretraining`: the scenario trains on a pre-training budget, so training
    every weight is said as pre-training, not a full fine-tune (the caller decides: is_pretraining is planning's)."""
    if pretraining and key == "method" and value == "full":
        return tr(PRETRAINING_WORDS)
    if key in VALUE_WORDS and _hashable(value) and value in VALUE_WORDS[key]:
        return tr(VALUE_WORDS[key][value])
    if key == "framework" and isinstance(value, str) and value in TABLE:
        return TABLE[value].label  # "NeMo-RL", not the id "nemo-rl" a comparison showed
    if value is None:
        return tr(NOT_SET)
    presets = {"model": model_presets, "gpu": gpu_presets}.get(key)
    if presets is not None and isinstance(value, str) and value in presets():
        return presets()[value].name  # "Llama 3 8B", not the id "llama-3-8b" a table showed before
    if isinstance(value, bool):
        return tr(BOOL_WORDS[value])
    if key == "deadline_days" and isinstance(value, int | float):
        return tr(DAYS_WORDS).replace("%1", f"{value:,.1f}".removesuffix(".0"))
    if isinstance(value, int | float) and key.endswith(("_bytes", "_bytes_per_s", "tokens_to_train")):
        # sizes, bandwidths and token counts as people say them, not 2,199,023,255,552
        if key == "tokens_to_train":
            return format_count(value)
        if key.endswith("_per_s"):  # link rates in decimal GB/s, as the set-up's link line says them
            return format_gb_per_s(value) + " GB/s"
        return format_bytes(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, tuple)):
        return " + ".join(str(v) for v in value)
    if isinstance(value, dict):  # a custom model or GPU
        name = value.get("name", "")
        memory = value.get("memory_bytes")
        return f"{name} ({format_bytes(memory)})" if memory else str(name)
    return str(value)


def with_one_sharding(form: dict[str, Any]) -> dict[str, Any]:
    """A scenario's file form with its sharding under one key: zero_stage holds "FSDP" where fsdp is on, and fsdp
    goes. Both keys are labelled "Sharding (ZeRO / FSDP)" (the set-up's one combo writes both), so a comparison of a
    ZeRO-3 and an FSDP run showed two rows of that name, "off | ZeRO-3" and "FSDP | off" (user audit 7)."""
    if "fsdp" not in form:
        return form
    out = {k: v for k, v in form.items() if k != "fsdp"}
    if form["fsdp"]:
        out["zero_stage"] = "FSDP"
    return out


def describe_changes(changes: dict[str, Any], tr: Callable[[str], str] = _same, pretraining: bool = False) -> str:
    """An undo entry in on-screen words: "Optimizer: AdamW 8-bit", not "optimizer = adamw-8bit" (`pretraining`: as
    value_words)."""
    parts = []
    for key, value in changes.items():
        if key == "fsdp" and "zero_stage" in changes:
            continue  # the sharding combo writes both keys: name it once
        if key == "zero_stage" and changes.get("fsdp"):
            value = "FSDP"
        if key == "dp_shard" and value:  # a plan's or an edit's group, said as what it is
            parts.append(tr(HSDP_WORDS).replace("%1", f"{value:,}"))
            continue
        words = value_words(key, value, tr, pretraining)
        parts.append(tr(CHANGE_WORDS).replace("%1", field_label(key, tr)).replace("%2", words))
    return tr(CHANGES_SEPARATOR).join(parts)


def layout_words(changes: dict[str, Any], tr: Callable[[str], str] = _same, pretraining: bool = False) -> str:
    """The layout a rent option sets, in the set-up's words ("Sharding (ZeRO / FSDP): ZeRO-2"), not as key=value:
    every change but what is rented (RENTED_KEYS); "-" for none. The window's rent rows and `fit --objective cost`
    (`pretraining`: as value_words)."""
    return describe_changes({k: v for k, v in changes.items() if k not in RENTED_KEYS}, tr, pretraining) or "-"


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True

