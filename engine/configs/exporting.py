"""A scenario (or an applied plan) -> the launch configuration of a framework: the settings a plan changes
(parallelism, ZeRO stage, offload, micro-batch and accumulation, checkpointing, precision, LoRA/QLoRA), under a
comment header naming the planner and the scenario. Importing what is written here gives the same values back on
the keys the format carries (CARRIED), which the tests check for every format.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP
from ..scenario import CustomModel, Scenario, resolve_model
from .models import TORCHTITAN_FLAVORS, TORCHTUNE_BUILDERS, hub_repo

EXPORT_FORMATS = ("deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory", "torchtitan", "megatron")
FILE_NAMES = {
    "deepspeed": "ds_config.json",
    "accelerate": "accelerate_config.yaml",
    "torchtune": "torchtune.yaml",
    "axolotl": "axolotl.yaml",
    "llama-factory": "llamafactory.yaml",
    "torchtitan": "torchtitan.toml",
    "megatron": "megatron_args.sh",
}
# scenario keys each format writes (and reads back)
CARRIED: dict[str, tuple[str, ...]] = {
    "deepspeed": ("zero_stage", "offload", "micro_batch", "grad_accum", "precision"),
    "accelerate": (
        "gpus_per_node",
        "nodes",
        "zero_stage",
        "fsdp",
        "offload",
        "precision",
        "checkpointing",
        "reshard_after_forward",
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
    ),
    "torchtitan": ("model", "micro_batch", "seq_len", "tp", "pp", "cp", "fsdp", "checkpointing", "compile", "gpus_per_node"),
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
    ),
}
_HF_OPT = {
    "adamw": "adamw_torch",
    "adamw-fused": "adamw_torch_fused",
    "adamw-8bit": "adamw_bnb_8bit",
    "sgd": "sgd",
    "adafactor": "adafactor",
}
_HF_ATTN = {"flash": "flash_attention_2", "sdpa": "sdpa", "eager": "eager"}
_TT_OPT = {
    "adamw": "torch.optim.AdamW",
    "adamw-fused": "torch.optim.AdamW",
    "adamw-8bit": "bitsandbytes.optim.PagedAdamW8bit",
    "sgd": "torch.optim.SGD",
}


class ExportError(PlannerError):
    """A scenario that the chosen format cannot express; str() is one sentence."""


def header(s: Scenario, fmt: str, comment: str = "#") -> str:
    return (
        f'{comment} Written by LLM Memory Planner ({fmt} launch settings) for the scenario "{s.name}".\n'
        f"{comment} Only the settings the plan decides are here; merge them into your own config.\n"
    )


def _model_name(s: Scenario) -> str:
    if isinstance(s.model, CustomModel):
        return s.model.name
    return hub_repo(s.model) or s.model


def _half(s: Scenario) -> str | None:
    return "bf16" if "bf16" in s.precision else "fp16" if "fp16" in s.precision else None


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
        "torchtune": _torchtune,
        "axolotl": _axolotl,
        "llama-factory": _llamafactory,
        "torchtitan": _torchtitan,
        "megatron": _megatron,
    }[fmt](s)


def _yaml(s: Scenario, fmt: str, data: dict[str, Any]) -> str:
    return header(s, fmt) + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _deepspeed(s: Scenario) -> str:
    zero: dict[str, Any] = {"stage": s.effective_zero}
    if s.offload != "none":
        zero["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
    if s.offload == "optimizer+params":
        zero["offload_param"] = {"device": "cpu", "pin_memory": True}
    if s.effective_zero == 3:
        zero["stage3_max_live_parameters"] = s.stage3_max_live_parameters
        zero["stage3_prefetch_bucket_size"] = s.stage3_prefetch_bucket_size
    else:
        zero["reduce_bucket_size"] = s.reduce_bucket_size
        zero["allgather_bucket_size"] = s.allgather_bucket_size
    half = _half(s) if s.precision.startswith("mixed") or s.precision in ("bf16", "fp16") else None
    data: dict[str, Any] = {
        "_comment": header(s, "deepspeed", "").replace("\n", " ").strip(),
        "train_micro_batch_size_per_gpu": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "bf16": {"enabled": half == "bf16"},
        "fp16": {"enabled": half == "fp16"},
        "zero_optimization": zero,
    }
    return json.dumps(data, indent=2) + "\n"


def _accelerate(s: Scenario) -> str:
    world = s.world_size
    mp = {"amp-bf16": "bf16", "amp-fp16": "fp16", "fp32": "no", "fp8": "fp8"}.get(s.precision, _half(s) or "no")
    data: dict[str, Any] = {
        "compute_environment": "LOCAL_MACHINE",
        "num_machines": s.nodes,
        "num_processes": world,
        "mixed_precision": mp,
    }
    if s.effective_zero and not s.fsdp:
        data["distributed_type"] = "DEEPSPEED"
        data["deepspeed_config"] = {
            "zero_stage": s.zero_stage,
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
    else:
        data["distributed_type"] = "MULTI_GPU" if world > 1 else "NO"
    return _yaml(s, "accelerate", data)


def _torchtune_builder(s: Scenario) -> str:
    if isinstance(s.model, CustomModel):
        raise ExportError(
            QT_TRANSLATE_NOOP("engine", "torchtune has no builder for the custom model '{name}'; pick a preset model."),
            name=s.model.name,
        )
    for builder, preset in TORCHTUNE_BUILDERS.items():
        if preset == s.model:
            family = (
                builder.split("_")[0]
                if not builder.startswith(("llama3_1", "llama3_2", "qwen2_5"))
                else ("_".join(builder.split("_")[:2]))
            )
            return f"torchtune.models.{family}.{builder}"
    raise ExportError(QT_TRANSLATE_NOOP("engine", "torchtune has no builder for the model '{name}'."), name=s.model)


def _torchtune(s: Scenario) -> str:
    comp = _torchtune_builder(s)
    module, builder = comp.rsplit(".", 1)
    model: dict[str, Any] = {}
    if s.method in ("lora", "qlora"):
        builder = ("qlora_" if s.method == "qlora" else "lora_") + builder
        targets = _all_targets(s)
        attn = [{"o_proj": "output_proj"}.get(t, t) for t in targets if t in ("q_proj", "k_proj", "v_proj", "o_proj")]
        model = {
            "lora_attn_modules": attn,
            "apply_lora_to_mlp": any(t in targets for t in ("gate_proj", "up_proj", "down_proj")),
            "apply_lora_to_output": "lm_head" in targets,
            "lora_rank": s.lora_rank,
            "lora_alpha": s.lora_alpha,
        }
    data: dict[str, Any] = {
        "model": {"_component_": f"{module}.{builder}", **model},
        "tokenizer": {"max_seq_len": s.seq_len},
        "batch_size": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "dtype": {"bf16": "bf16", "fp32": "fp32"}.get(_half(s) or "fp32", "bf16") if s.precision != "fp32" else "fp32",
        "enable_activation_checkpointing": s.checkpointing != "none",
        "enable_activation_offloading": s.activation_offload,
        "optimizer_in_bwd": s.optimizer_in_backward,
        "compile": s.compile,
        "optimizer": {
            "_component_": _TT_OPT.get(s.optimizer, "torch.optim.AdamW"),
            **({"fused": True} if s.optimizer == "adamw-fused" else {}),
        },
    }
    if s.tp > 1:
        data["tensor_parallel_dim"] = s.tp
    if s.offload != "none":
        data["fsdp_cpu_offload"] = True
    recipe = ("lora_finetune" if s.method in ("lora", "qlora") else "full_finetune") + (
        "_distributed" if s.world_size > 1 else "_single_device"
    )
    launch = f"# Launch: tune run --nproc_per_node {s.world_size} {recipe} --config torchtune.yaml\n"
    return launch + _yaml(s, "torchtune", data)


def _all_targets(s: Scenario) -> list[str]:
    if s.lora_targets == "all-linear":
        return ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    if s.lora_targets == "attention":
        return ["q_proj", "k_proj", "v_proj", "o_proj"]
    return list(s.lora_targets)


def _peft_precision(s: Scenario) -> bool:
    return s.precision in ("bf16", "mixed-bf16", "amp-bf16")


def _axolotl(s: Scenario) -> str:
    data: dict[str, Any] = {
        "base_model": _model_name(s),
        "micro_batch_size": s.micro_batch,
        "gradient_accumulation_steps": s.grad_accum,
        "sequence_len": s.seq_len,
    }
    if s.method in ("lora", "qlora"):
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
            data["lora_target_modules"] = _all_targets(s)
    half = _half(s)
    data["bf16"] = half == "bf16"
    data["fp16"] = half == "fp16"
    data["gradient_checkpointing"] = s.checkpointing != "none"
    data["optimizer"] = _HF_OPT.get(s.optimizer, "adamw_torch")
    data["attn_implementation"] = _HF_ATTN.get(s.attention, "sdpa")
    data["torch_compile"] = s.compile
    if s.fsdp:
        data["fsdp_version"] = 2
        data["fsdp_config"] = {"offload_params": s.offload != "none", "reshard_after_forward": s.reshard_after_forward}
    return _yaml(s, "axolotl", data)


def _llamafactory(s: Scenario) -> str:
    data: dict[str, Any] = {"model_name_or_path": _model_name(s), "stage": "sft", "do_train": True}
    if s.method in ("lora", "qlora"):
        data["finetuning_type"] = "lora"
        if s.method == "qlora":
            data["quantization_bit"] = s.qlora_bits
        data["lora_rank"] = s.lora_rank
        data["lora_target"] = "all" if s.lora_targets == "all-linear" else ",".join(_all_targets(s))
    else:
        data["finetuning_type"] = s.method
    data["per_device_train_batch_size"] = s.micro_batch
    data["gradient_accumulation_steps"] = s.grad_accum
    data["cutoff_len"] = s.seq_len
    half = _half(s)
    if s.precision in ("bf16", "fp16") and s.method in ("full", "freeze"):
        data["pure_bf16"] = True
    elif half:
        data[half] = True
    data["disable_gradient_checkpointing"] = s.checkpointing == "none"
    data["flash_attn"] = {"flash": "fa2", "sdpa": "sdpa", "eager": "disabled"}.get(s.attention, "auto")
    return _yaml(s, "llama-factory", data)


def _torchtitan(s: Scenario) -> str:
    flavor = next((k for k, v in TORCHTITAN_FLAVORS.items() if v == s.model), None)
    if flavor is None:
        raise ExportError(
            QT_TRANSLATE_NOOP("engine", "torchtitan has no model flavour for '{name}'; pick Llama 3.1 or Qwen3."),
            name=_model_name(s),
        )
    other = s.tp * s.pp * s.cp
    shard = s.world_size // other if s.fsdp else 1
    lines = [
        header(s, "torchtitan"),
        "[model]",
        f'name = "{flavor[0]}"',
        f'flavor = "{flavor[1]}"',
        "",
        "[training]",
        f"local_batch_size = {s.micro_batch}",
        f"seq_len = {s.seq_len}",
        f"global_batch_size = {s.micro_batch * s.grad_accum * (s.world_size // other)}",
        "",
        "[parallelism]",
        "data_parallel_replicate_degree = 1" if s.fsdp else f"data_parallel_replicate_degree = {s.world_size // other}",
        f"data_parallel_shard_degree = {shard}",
        f"tensor_parallel_degree = {s.tp}",
        f"pipeline_parallel_degree = {s.pp}",
        f"context_parallel_degree = {s.cp}",
        "",
        "[activation_checkpoint]",
        'mode = "{}"'.format({"none": "none", "full": "full"}.get(s.checkpointing, "selective")),
        'selective_ac_option = "op"',
        "",
        "[compile]",
        f"enable = {'true' if s.compile else 'false'}",
        "",
    ]
    return "\n".join(lines)


def _megatron(s: Scenario) -> str:
    spec = resolve_model(s)
    dp = s.world_size // (s.tp * s.pp * s.cp)
    args = [
        ("--tensor-model-parallel-size", s.tp),
        ("--pipeline-model-parallel-size", s.pp),
        ("--context-parallel-size", s.cp),
        ("--expert-model-parallel-size", s.ep),
        ("--micro-batch-size", s.micro_batch),
        ("--global-batch-size", s.micro_batch * s.grad_accum * dp),
        ("--seq-length", s.seq_len),
    ]
    if s.vpp > 1:
        args.append(("--virtual-pipeline-model-parallel-size", s.vpp))
    flags = []
    if s.sequence_parallel:
        flags.append("--sequence-parallel")
    half = _half(s)
    if s.precision == "fp8":
        args.append(("--fp8-format", "hybrid"))
        flags.append("--bf16")
    elif half:
        flags.append(f"--{half}")
    if s.distributed_optimizer:
        flags.append("--use-distributed-optimizer")
    if s.checkpointing in ("full", "selective"):
        args.append(("--recompute-granularity", s.checkpointing))
        if s.checkpointing == "full":
            args += [("--recompute-method", "uniform"), ("--recompute-num-layers", 1)]
    model = [
        ("--num-layers", spec.layers),
        ("--hidden-size", spec.hidden),
        ("--ffn-hidden-size", spec.ffn),
        ("--num-attention-heads", spec.heads),
        ("--num-query-groups", spec.kv_heads),
        ("--kv-channels", spec.head_dim),
        ("--max-position-embeddings", spec.max_position or s.seq_len),
        ("--vocab-size", spec.vocab),
    ]
    mflags = [
        "--group-query-attention",
        "--swiglu",
        "--normalization RMSNorm",
        "--position-embedding-type rope",
        "--disable-bias-linear",
    ]
    if not spec.tied_embeddings:
        mflags.append("--untie-embeddings-and-output-weights")
    if spec.n_experts:
        model += [
            ("--num-experts", spec.n_experts),
            ("--moe-router-topk", spec.top_k),
            ("--moe-ffn-hidden-size", spec.expert_ffn),
        ]
    out = [
        "#!/bin/bash",
        header(s, "megatron").rstrip(),
        "",
        f"torchrun --nproc_per_node {s.gpus_per_node} --nnodes {s.nodes} pretrain_gpt.py \\",
    ]
    body = [f"    {k} {v}" for k, v in model + args] + [f"    {f}" for f in mflags + flags]
    out += [line + " \\" for line in body[:-1]] + [body[-1]]
    return "\n".join(out) + "\n"
