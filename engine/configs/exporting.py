"""A scenario (or an applied plan) -> the launch configuration of a framework: the settings a plan changes
(parallelism, ZeRO stage, offload, micro-batch and accumulation, checkpointing, precision, LoRA/QLoRA), under a
comment header naming the planner and the scenario. Importing what is written here gives the same values back on
the keys the format carries (CARRIED), which the tests check for every format.
"""

from __future__ import annotations

import json
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from .export_common import ExportError, half_precision, header, hsdp_degrees, lora_target_list, model_name, yaml_config
from .export_mlx_lm import FILE_NAME as MLX_LM_FILE
from .export_mlx_lm import mlx_lm_config
from .export_native import megatron_args, torchtitan_config, torchtune_config
from .export_rl import trl_config, verl_args
from .export_swift_megatron import swift_megatron_args

EXPORT_FORMATS = ("deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory", "torchtitan", "megatron", "trl",
                  "verl", "ms-swift-megatron", "mlx-lm")
FILE_NAMES = {
    "deepspeed": "ds_config.json",
    "accelerate": "accelerate_config.yaml",
    "torchtune": "torchtune.yaml",
    "axolotl": "axolotl.yaml",
    "llama-factory": "llamafactory.yaml",
    "torchtitan": "torchtitan.toml",
    "megatron": "megatron_args.sh",
    "trl": "trl_config.yaml",
    "verl": "verl_main_ppo.sh",
    "ms-swift-megatron": "swift_megatron_sft.sh",
    "mlx-lm": MLX_LM_FILE,
}
_RL_CARRIED = ("model", "training_objective", "prompt_len", "completion_len", "num_generations", "rollout_engine",
               "rollout_gpu_memory_utilization", "rollout_tp", "reference_model", "micro_batch", "checkpointing",
               "method", "lora_rank", "lora_alpha")
# scenario keys each format writes (and reads back)
CARRIED: dict[str, tuple[str, ...]] = {
    "deepspeed": ("zero_stage", "offload", "micro_batch", "grad_accum", "precision", "dp_shard"),
    "accelerate": (
        "gpus_per_node",
        "nodes",
        "zero_stage",
        "fsdp",
        "offload",
        "precision",
        "checkpointing",
        "reshard_after_forward",
        "dp_shard",
    ),
    "torchtune": (
        "model",
        "method",
        "lora_rank",
        "lora_alpha",
        "micro_batch",
        "grad_accum",
        "precision",
        "checkpointing",
        "seq_len",
        "optimizer",
        "activation_offload",
        "optimizer_in_backward",
        "compile",
        "tp",
        "qlora_bits",
    ),
    "axolotl": (
        "model",
        "method",
        "qlora_bits",
        "lora_rank",
        "lora_alpha",
        "lora_targets",
        "micro_batch",
        "grad_accum",
        "seq_len",
        "precision",
        "checkpointing",
        "optimizer",
        "attention",
        "fsdp",
        "offload",
        "compile",
        "tp",
        "cp",
        "ep",
        "packing",
    ),
    "llama-factory": (
        "model",
        "method",
        "qlora_bits",
        "lora_rank",
        "lora_targets",
        "micro_batch",
        "grad_accum",
        "seq_len",
        "precision",
        "checkpointing",
        "attention",
        "training_objective",
    ),
    "torchtitan": ("model", "micro_batch", "seq_len", "tp", "pp", "cp", "fsdp", "checkpointing", "compile", "gpus_per_node",
                   "dp_shard", "pp_schedule", "precision", "fp8_recipe", "fp8_all_gather"),
    "megatron": (
        "gpus_per_node",
        "nodes",
        "tp",
        "pp",
        "cp",
        "ep",
        "sequence_parallel",
        "micro_batch",
        "grad_accum",
        "seq_len",
        "precision",
        "distributed_optimizer",
        "checkpointing",
        "vpp",
        "pp_schedule",
        "fp8_param_gather",
        "offload",
        "optimizer_offload_fraction",
        "moe_grouped_gemm",
        "apply_rope_fusion",
        "moe_token_dispatcher_type",
        "recompute_num_layers",
        "recompute_method",
        "dp_shard",
        "pipeline_layout",  # --pipeline-model-parallel-layout (export_native.py _virtual_stage_args)
        "attention",  # --attention-backend flash / unfused (export_native.py MEGATRON_ATTENTION)
    ),
    "trl": _RL_CARRIED + ("grad_accum", "precision", "rollout_placement", "rollout_sleep", "lora_targets", "gpus_per_node",
            "nodes", "zero_stage", "fsdp"),
    "verl": _RL_CARRIED + ("rollout_max_num_seqs", "rollout_max_model_len", "offload", "gpus_per_node", "nodes",
                           "critic_model", "rollout_enforce_eager", "packing", "max_tokens_per_micro_batch",
                           "critic_max_tokens_per_micro_batch"),
    # ms-swift's `megatron sft` (export_swift_megatron.py): Megatron's layout keys plus the model and the tuner
    "ms-swift-megatron": ("model", "method", "lora_rank", "lora_alpha", "lora_targets", "gpus_per_node", "nodes", "tp",
                          "pp", "cp", "ep", "vpp", "sequence_parallel", "micro_batch", "grad_accum", "seq_len",
                          "precision", "distributed_optimizer", "checkpointing", "recompute_num_layers",
                          "recompute_method", "offload", "optimizer_offload_fraction", "moe_grouped_gemm", "dp_shard",
                          "fp8_param_gather", "packing"),
    # mlx-lm's `mlx_lm.lora --config` YAML (export_mlx_lm.py); batch_size is one worker's on one Mac. Not carried:
    # checkpointing (grad_checkpoint is whole layers: selective reads back as full, and the left-out sentence says
    # so), the optimizer (mlx-lm has no 8-bit one), tokens_to_train (iters, rounded up to whole batches)
    "mlx-lm": ("model", "method", "lora_rank", "lora_alpha", "lora_targets", "lora_layers", "frozen_layers",
               "micro_batch", "grad_accum", "seq_len"),
}
_HF_OPT = {
    "adamw": "adamw_torch",
    "adamw-fused": "adamw_torch_fused",
    "adamw-8bit": "adamw_bnb_8bit",
    "adamw-8bit-paged": "paged_adamw_8bit",
    "sgd": "sgd",
    "adafactor": "adafactor",
}
_HF_ATTN = {"flash": "flash_attention_2", "sdpa": "sdpa", "eager": "eager"}
def export_config(s: Scenario, fmt: str) -> str:
    if fmt not in EXPORT_FORMATS:
        raise ExportError(
            QT_TRANSLATE_NOOP("engine", "Unknown export format '{fmt}'. Choose one of {p}."),
            fmt=fmt,
            p=", ".join(EXPORT_FORMATS),
        )
    return {
        "deepspeed": _deepspeed,
        "accelerate": _accelerate,
        "torchtune": torchtune_config,
        "axolotl": _axolotl,
        "llama-factory": _llamafactory,
        "torchtitan": torchtitan_config,
        "megatron": megatron_args,
        "trl": trl_config,
        "verl": verl_args,
        "ms-swift-megatron": swift_megatron_args,
        "mlx-lm": mlx_lm_config,
    }[fmt](s)


def _deepspeed(s: Scenario) -> str:
    zero: dict[str, Any] = {"stage": s.effective_zero}
    if s.offload != "none":
        zero["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
    if s.offload == "optimizer+params":
        zero["offload_param"] = {"device": "cpu", "pin_memory": True}
    if s.effective_zero == 3 and s.dp_shard:  # MiCS: ZeRO-3 within groups (deepspeed/runtime/zero/config.py)
        zero["mics_shard_size"] = s.dp_shard
    if s.effective_zero == 3:
        zero["stage3_max_live_parameters"] = s.stage3_max_live_parameters
        zero["stage3_prefetch_bucket_size"] = s.stage3_prefetch_bucket_size
    else:
        zero["reduce_bucket_size"] = s.reduce_bucket_size
        zero["allgather_bucket_size"] = s.allgather_bucket_size
    half = half_precision(s) if s.precision.startswith("mixed") or s.precision in ("bf16", "fp16", "fp8", "nvfp4") \
        else None
    data: dict[str, Any] = {
        "_comment": header(s, "deepspeed", "").replace("\n", " ").strip(),
        "train_micro_batch_size_per_gpu": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "bf16": {"enabled": half == "bf16"},
        "fp16": {"enabled": half == "fp16"},
        "zero_optimization": zero,
    }
    if optimizer_used(s) == "adamw-fused" and s.offload == "none":
        # DeepSpeed builds FusedAdam for it (engine/frameworks/runs.py DEEPSPEED); without the section the Trainer
        # trains its own torch AdamW. "auto": transformers fills them from TrainingArguments (integrations/deepspeed.py)
        data["optimizer"] = {"type": "AdamW", "params": {k: "auto" for k in ("lr", "betas", "eps", "weight_decay")}}
    return json.dumps(data, indent=2) + "\n"


def _accelerate(s: Scenario) -> str:
    world = s.world_size
    mp = {"amp-bf16": "bf16", "amp-fp16": "fp16", "fp32": "no", "fp8": "fp8"}.get(s.precision, half_precision(s) or "no")
    data: dict[str, Any] = {
        "compute_environment": "LOCAL_MACHINE",
        "num_machines": s.nodes,
        "num_processes": world,
        "mixed_precision": mp,
    }
    if s.effective_zero and not s.fsdp:
        if s.dp_shard:  # accelerate's deepspeed_config keys have no mics_shard_size: the group would be lost
            raise ExportError(QT_TRANSLATE_NOOP(
                "engine", "accelerate's DeepSpeed settings have no shard group (MiCS, a group of {group} GPUs): export "
                          "to deepspeed and give accelerate that file as deepspeed_config_file."), group=s.dp_shard)
        data["distributed_type"] = "DEEPSPEED"
        data["deepspeed_config"] = {
            "zero_stage": s.effective_zero,  # Megatron's distributed optimizer is ZeRO-1 whatever zero_stage reads
            "gradient_accumulation_steps": s.grad_accum,
            "offload_optimizer_device": "cpu" if s.offload != "none" else "none",
            "offload_param_device": "cpu" if s.offload == "optimizer+params" else "none",
        }
    elif s.fsdp:
        data["distributed_type"] = "FSDP"
        data["fsdp_config"] = {
            "fsdp_version": 2,
            "fsdp_reshard_after_forward": s.reshard_after_forward,
            "fsdp_offload_params": s.offload != "none",
            "fsdp_activation_checkpointing": s.checkpointing != "none",
            "fsdp_auto_wrap_policy": "TRANSFORMER_BASED_WRAP",
        }
        if s.dp_shard:  # HSDP: FSDP2 over accelerate's (replicate, shard) mesh, the cp ranks in the shard group
            shard, replicate = hsdp_degrees(s)
            data["parallelism_config"] = {"parallelism_config_dp_replicate_size": replicate,
                                          "parallelism_config_dp_shard_size": shard,
                                          "parallelism_config_tp_size": s.tp, "parallelism_config_cp_size": s.cp}
    else:
        data["distributed_type"] = "MULTI_GPU" if world > 1 else "NO"
    return yaml_config(s, "accelerate", data)


def _peft_precision(s: Scenario) -> bool:
    return s.precision in ("bf16", "mixed-bf16", "amp-bf16")


def _axolotl(s: Scenario) -> str:
    data: dict[str, Any] = {
        "base_model": model_name(s),
        "micro_batch_size": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "sequence_len": s.seq_len,
    }
    if s.method in ADAPTER_METHODS:
        data["adapter"] = s.method
        data["load_in_4bit"] = s.method == "qlora" and s.qlora_bits == 4
        data["load_in_8bit"] = s.method == "qlora" and s.qlora_bits == 8
        if s.method == "qlora" and s.qlora_bits == 8:
            data["adapter"] = "lora"
        data["lora_r"] = s.lora_rank
        data["lora_alpha"] = s.lora_alpha
        if s.lora_targets == "all-linear":
            data["lora_target_linear"] = True
        else:
            data["lora_target_modules"] = lora_target_list(s)
    half = half_precision(s)
    data["bf16"] = half == "bf16"
    data["fp16"] = half == "fp16"
    data["gradient_checkpointing"] = s.checkpointing != "none"
    data["optimizer"] = _HF_OPT.get(optimizer_used(s), "adamw_torch")
    data["attn_implementation"] = _HF_ATTN.get(s.attention, "sdpa")
    data["torch_compile"] = s.compile
    if s.fsdp:
        data["fsdp_version"] = 2
        data["fsdp_config"] = {"offload_params": s.offload != "none", "reshard_after_forward": s.reshard_after_forward}
    # the layout keys axolotl reads (src/axolotl/utils/schemas/config.py; the expert_parallel plugin's README)
    for key, degree in (("tensor_parallel_size", s.tp), ("context_parallel_size", s.cp)):
        if degree > 1:
            data[key] = degree
    if s.ep > 1:
        data["plugins"] = ["axolotl.integrations.expert_parallel.ExpertParallelPlugin"]
        data["expert_parallel_size"] = s.ep
    if s.packing == "packed":
        data["sample_packing"] = True
    return yaml_config(s, "axolotl", data)


# training_objective -> LLaMA-Factory stage and, for stage dpo, pref_loss (engine/configs/llamafactory.py reads them)
_LF_STAGES = {"sft": ("sft", None), "dpo": ("dpo", "sigmoid"), "ipo": ("dpo", "ipo"), "orpo": ("dpo", "orpo"),
              "simpo": ("dpo", "simpo"), "kto": ("kto", None), "reward": ("rm", None), "ppo": ("ppo", None)}


def _llamafactory(s: Scenario) -> str:
    if s.training_objective not in _LF_STAGES:
        raise ExportError(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory has no stage for the objective '{objective}'; "
                                                      "pick sft, dpo, ipo, orpo, simpo, kto, reward or ppo, or "
                                                      "another format."), objective=s.training_objective)
    stage, pref_loss = _LF_STAGES[s.training_objective]
    data: dict[str, Any] = {"model_name_or_path": model_name(s), "stage": stage, "do_train": True}
    if pref_loss is not None:
        data["pref_loss"] = pref_loss
    if s.method in ADAPTER_METHODS:
        data["finetuning_type"] = "lora"
        if s.method == "qlora":
            data["quantization_bit"] = s.qlora_bits
        data["lora_rank"] = s.lora_rank
        data["lora_target"] = "all" if s.lora_targets == "all-linear" else ",".join(lora_target_list(s))
    else:
        data["finetuning_type"] = s.method
    data["per_device_train_batch_size"] = s.micro_batch
    data["gradient_accumulation_steps"] = s.grad_accum
    data["cutoff_len"] = s.seq_len
    half = half_precision(s)
    if s.precision in ("bf16", "fp16") and s.method not in ADAPTER_METHODS:
        data["pure_bf16"] = True
    elif half:
        data[half] = True
    data["disable_gradient_checkpointing"] = s.checkpointing == "none"
    data["flash_attn"] = {"flash": "fa2", "sdpa": "sdpa", "eager": "disabled"}.get(s.attention, "auto")
    return yaml_config(s, "llama-factory", data)


