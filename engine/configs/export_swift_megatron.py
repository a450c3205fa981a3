"""A Megatron-run plan as ms-swift's `megatron sft` command (Megatron-SWIFT), written with the arguments
engine/configs/swift_megatron.py reads back, so the round trip holds.

ms-swift declares Megatron-LM's arguments with underscores and true/false switches (modelscope/ms-swift at 3602360a
swift/megatron/arguments/megatron_args.py), takes the model from --model (converted by mcore-bridge) and the GPUs
from NPROC_PER_NODE / NNODES (examples/megatron/*.sh). Its defaults that differ from Megatron-LM's
(use_distributed_optimizer True, recompute_granularity selective: lines 484, 587) are written out either way, so the
file says what the plan runs whichever default the installed version has.
"""

from __future__ import annotations

import shlex

from ..messages import QT_TRANSLATE_NOOP
from ..scenario import Scenario, resolve_model
from .export_common import ExportError, half_precision, header, model_name
from .megatron_offload import offload_flags


def _switch(on: bool) -> str:
    return "true" if on else "false"


def _precision_args(s: Scenario) -> list[tuple[str, object]]:
    """ms-swift takes bf16 from the model's dtype unless told: fp32 is written as --bf16 false."""
    half = half_precision(s)
    out: list[tuple[str, object]] = [("--bf16", _switch(half == "bf16"))]
    if half == "fp16":
        out.append(("--fp16", "true"))
    if s.precision == "fp8":
        out.append(("--fp8_format", "hybrid"))
        if s.fp8_param_gather:
            out.append(("--fp8_param_gather", "true"))
    elif s.precision == "nvfp4":
        out.append(("--fp4_format", "e2m1"))
    return out


def _recompute_args(s: Scenario) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = [("--recompute_granularity", s.checkpointing if s.checkpointing in (
        "full", "selective") else "none")]
    if s.checkpointing == "full":
        layers = s.recompute_num_layers or 1
        out += [("--recompute_method", s.recompute_method if s.recompute_num_layers else "uniform"),
                ("--recompute_num_layers", layers)]
    return out


def _tuner_args(s: Scenario) -> list[tuple[str, object]]:
    if s.method not in ("full", "lora"):
        raise ExportError(QT_TRANSLATE_NOOP("engine", "ms-swift's Megatron path trains full weights or LoRA "
                                                      "adapters, not {method}."), method=s.method)
    if s.method == "full":
        return [("--tuner_type", "full")]
    if s.lora_targets != "all-linear":  # ms-swift's Megatron LoRA names Megatron-Core's modules (linear_qkv, ...)
        raise ExportError(QT_TRANSLATE_NOOP("engine", "ms-swift's Megatron LoRA names Megatron-Core's modules, not "
                                                      "Hugging Face's; export this plan with all-linear targets."))
    return [("--tuner_type", "lora"), ("--lora_rank", s.lora_rank), ("--lora_alpha", s.lora_alpha),
            ("--target_modules", "all-linear")]


def swift_megatron_args(s: Scenario) -> str:
    name = model_name(s)
    if not name.isprintable():  # a line break or control character would leave the quoted word
        raise ExportError(QT_TRANSLATE_NOOP("engine", "The model's name holds characters a command line cannot "
                                                      "carry; rename the model before exporting for ms-swift."))
    # a name starting with "-" (and holding no space) after "--model" is taken by argparse for an option and fails
    # with "expected one argument" (ms-swift parses with transformers' HfArgumentParser, an ArgumentParser:
    # modelscope/ms-swift@3602360a swift/utils/utils.py:177-185); one --model=NAME word is the value
    model = [(shlex.quote(f"--model={name}"), "")] if name.startswith("-") else [("--model", shlex.quote(name))]
    args: list[tuple[str, object]] = [*model, *_tuner_args(s),
        ("--tensor_model_parallel_size", s.tp), ("--pipeline_model_parallel_size", s.pp),
        ("--context_parallel_size", s.cp), ("--expert_model_parallel_size", s.ep)]
    if s.vpp > 1:
        args.append(("--virtual_pipeline_model_parallel_size", s.vpp))
    args += [("--sequence_parallel", _switch(s.sequence_parallel)), ("--micro_batch_size", s.micro_batch),
             ("--global_batch_size", s.micro_batch * s.grad_accum * s.dp), ("--max_length", s.seq_len),
             *_precision_args(s), ("--use_distributed_optimizer", _switch(s.distributed_optimizer)),
             *_recompute_args(s)]
    if s.distributed_optimizer and s.dp_shard:  # instances of dp x cp / dp_shard ranks each (export_native.py)
        args.append(("--num_distributed_optimizer_instances", s.dp * s.cp // s.dp_shard))
    hybrid = offload_flags(s)  # Megatron's hybrid optimizer offload, as ms-swift spells the same arguments
    if hybrid:
        args += [("--use_precision_aware_optimizer", "true"), ("--optimizer_cpu_offload", "true"),
                 ("--optimizer_offload_fraction", f"{s.optimizer_offload_fraction:g}")]
    if resolve_model(s).n_experts:  # grouped experts: the plan's choice, written either way
        args.append(("--moe_grouped_gemm", _switch(s.moe_grouped_gemm)))
    if s.packing == "packed":
        args.append(("--packing", "true"))
    lines = [f"    {k} {v}".rstrip() for k, v in args]
    out = ["#!/bin/bash", header(s, "ms-swift-megatron").rstrip(), "",
           f"NPROC_PER_NODE={s.gpus_per_node} \\", f"NNODES={s.nodes} \\", "megatron sft \\"]
    return "\n".join(out + [line + " \\" for line in lines[:-1]] + [lines[-1]]) + "\n"
