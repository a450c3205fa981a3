"""Hugging Face TrainingArguments / TRL config (SFTConfig, DPOConfig, ModelConfig) as JSON or YAML."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import read_hf_args
from .result import Collector

_MARKERS = (
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "output_dir",
    "learning_rate",
    "num_train_epochs",
    "model_name_or_path",
    "bf16",
    "gradient_checkpointing",
    "optim",
)


def is_hf(d: Any) -> bool:
    return isinstance(d, dict) and sum(k in d for k in _MARKERS) >= 2


def read(c: Collector, d: dict[str, Any]) -> None:
    c.set("framework", "huggingface", "(TrainingArguments)")
    read_hf_args(c, d)
    if "per_device_train_batch_size" not in d:
        c.assume(
            "micro_batch",
            8,
            message(QT_TRANSLATE_NOOP("engine", "TrainingArguments' default per_device_train_batch_size 8")),
        )
    if "gradient_checkpointing" not in d:
        c.assume(
            "checkpointing",
            "none",
            message(QT_TRANSLATE_NOOP("engine", "TrainingArguments' default gradient_checkpointing false")),
        )
    if not any(k in d for k in ("max_seq_length", "max_length")):
        c.assume(
            "seq_len",
            1024,
            message(QT_TRANSLATE_NOOP("engine", "TRL SFTConfig's default max_length 1024 (not set in the file)")),
        )
    if not any(k in d for k in ("bf16", "fp16", "torch_dtype", "dtype")):
        c.assume(
            "precision",
            "fp32",
            message(QT_TRANSLATE_NOOP("engine", "TrainingArguments' default: no bf16/fp16, fp32 weights")),
        )
    if "optim" not in d:
        c.assume(
            "optimizer", "adamw", message(QT_TRANSLATE_NOOP("engine", "TrainingArguments' default optim (PyTorch AdamW)"))
        )
    if isinstance(d.get("fsdp_config"), dict):
        from .accelerate import read_fsdp

        if any(k in c.consumed for k in ("fsdp",)):
            read_fsdp(c, d["fsdp_config"], "fsdp_config.")
    if isinstance(d.get("deepspeed"), dict):
        from . import deepspeed

        deepspeed.read(c, d["deepspeed"], prefix="deepspeed.")
