"""LLaMA-Factory YAML (src/llamafactory/hparams: ModelArguments, DataArguments, FinetuningArguments + HF
TrainingArguments).

LLaMA-Factory loads the model in the compute dtype; in `full` and `freeze` tuning it upcasts the trainable
parameters to fp32 unless pure_bf16 is set (model/adapter.py, _setup_full_tuning / _setup_freeze_tuning), and
LoRA adapters are fp32 (peft) - so bf16 means autocast for full tuning and 16-bit frozen weights for LoRA.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, lora_targets, read_hf_args, set_flag, set_int, set_vision_freezing
from .result import Collector
from .rl_common import set_objective

_ATTN = {"fa2": "flash", "fa3": "flash", "sdpa": "sdpa", "disabled": "eager"}


def is_llamafactory(d: Any) -> bool:
    return (
        isinstance(d, dict)
        and "model_name_or_path" in d
        and any(k in d for k in ("finetuning_type", "template", "cutoff_len", "stage", "quantization_bit"))
    )


def read(c: Collector, d: dict[str, Any]) -> None:
    c.set("framework", "huggingface", "(LLaMA-Factory)")
    read_hf_args(
        c, {k: v for k, v in d.items() if k not in ("lora_target", "lora_rank", "bf16", "fp16")}, weights_follow_dtype=False
    )
    ft = d.get("finetuning_type", "lora")
    _read_method_and_lora(c, d, ft)
    _read_length_precision_checkpointing(c, d, ft)
    _read_kernels_and_extras(c, d)
    set_vision_freezing(c, d, "freeze_vision_tower", "freeze_multi_modal_projector")


def _read_method_and_lora(c: Collector, d: dict[str, Any], ft: Any) -> None:
    """finetuning_type (+ quantization_bit) -> the method; LoRA rank and targets with LLaMA-Factory's defaults."""
    quant = d.get("quantization_bit")
    if "finetuning_type" not in d:
        c.assume("method", "lora", message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory's default finetuning_type is lora")))
    if ft == "lora":
        if quant is not None:
            bits = set_int(c, "qlora_bits", quant, "quantization_bit")
            if bits:
                c.set("method", "qlora", "quantization_bit")
        else:
            c.set("method", "lora", "finetuning_type")
    elif ft in ("full", "freeze"):
        c.set("method", ft, "finetuning_type")
    else:
        c.skip("finetuning_type", message(QT_TRANSLATE_NOOP("engine", "finetuning type '{ft}' is not modelled yet"), ft=ft))
    c.use("finetuning_type")
    if d.get("lora_rank") is not None:
        set_int(c, "lora_rank", d["lora_rank"], "lora_rank")
    elif ft == "lora":
        c.assume("lora_rank", 8, message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory's default lora_rank 8")))
    if d.get("lora_target") is not None:
        t = lora_targets(d["lora_target"])
        if t:
            c.set("lora_targets", t, "lora_target")
    elif ft == "lora":
        c.assume(
            "lora_targets", "all-linear", message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory's default lora_target all"))
        )
    if ft == "freeze" and d.get("freeze_trainable_layers") is not None:
        _read_freeze(c, d)


def _read_length_precision_checkpointing(c: Collector, d: dict[str, Any], ft: Any) -> None:
    """cutoff_len, bf16/fp16/pure_bf16 (autocast for full and freeze) and gradient checkpointing (on unless disabled)."""
    if "cutoff_len" in d:
        set_int(c, "seq_len", d["cutoff_len"], "cutoff_len")
    else:
        c.assume("seq_len", 2048, message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory's default cutoff_len 2048")))
    pure = as_bool(d.get("pure_bf16"))
    bf16, fp16 = as_bool(d.get("bf16")), as_bool(d.get("fp16"))
    if as_bool(d.get("fp8")):
        _read_fp8(c, d)
    elif pure:
        c.set("precision", "bf16", "pure_bf16")
    elif bf16 or fp16:
        half = "bf16" if bf16 else "fp16"
        prec = f"amp-{half}" if ft in ("full", "freeze") else half
        c.set("precision", prec, "bf16" if bf16 else "fp16")
    c.use("bf16", "fp16", "pure_bf16")
    if ft in ("lora",) and (bf16 or fp16 or pure):
        c.assume(
            "lora_adapter_dtype",
            "fp32" if not pure else "compute",
            message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory keeps LoRA adapters in fp32 unless pure_bf16")),
        )
    if "disable_gradient_checkpointing" in d:
        set_flag(c, d, "disable_gradient_checkpointing", "checkpointing", ("none", "full"))
    else:
        c.assume(
            "checkpointing",
            "full",
            message(
                QT_TRANSLATE_NOOP(
                    "engine", "LLaMA-Factory enables gradient checkpointing unless disable_gradient_checkpointing is set"
                )
            ),
        )


# fp8_backend -> the recipe accelerate runs (ff6d4d1 src/llamafactory/train/fp8_utils.py create_fp8_kwargs): torchao
# (and auto) Float8LinearConfig.from_recipe_name("rowwise"); te FP8RecipeKwargs(fp8_format="HYBRID",
# amax_history_len=16), Transformer Engine's delayed scaling
_FP8_BACKENDS = {"auto": "rowwise", "torchao": "rowwise", "te": "delayed"}


def _read_fp8(c: Collector, d: dict[str, Any]) -> None:
    """fp8: true (accelerate's mixed_precision fp8 over the bf16 weights) with its fp8_backend's recipe."""
    backend = str(d.get("fp8_backend", "auto")).strip().lower()
    if backend not in _FP8_BACKENDS:
        c.skip("fp8_backend", message(QT_TRANSLATE_NOOP("engine", "FP8 backend '{backend}' is not modelled; the "
                                                                  "estimate keeps bf16"), backend=backend))
        c.set("precision", "amp-bf16", "bf16")
        return
    c.set("precision", "fp8", "fp8")
    c.set("fp8_recipe", _FP8_BACKENDS[backend], "fp8_backend") if "fp8_backend" in d else c.assume(
        "fp8_recipe", "rowwise", message(QT_TRANSLATE_NOOP("engine", "LLaMA-Factory's default fp8_backend auto: "
                                                                     "torchao's rowwise float8 recipe")))


def _read_kernels_and_extras(c: Collector, d: dict[str, Any]) -> None:
    """Attention kernel, Liger, Unsloth, and the methods not modelled yet."""
    attn = d.get("flash_attn")
    if attn is not None:
        if attn in _ATTN:
            c.set("attention", _ATTN[attn], "flash_attn")
        else:
            c.use("flash_attn")
    if as_bool(d.get("enable_liger_kernel")):
        c.set("cross_entropy", "fused-linear", "enable_liger_kernel")
        c.set("liger_kernels", True, "enable_liger_kernel")
    if as_bool(d.get("use_unsloth")):
        c.set("framework", "unsloth", "use_unsloth")
    for key in ("use_galore", "use_badam", "use_apollo", "use_llama_pro", "use_dora", "pissa_init"):
        if as_bool(d.get(key)):
            c.skip(key, message(QT_TRANSLATE_NOOP("engine", "not modelled yet")))
    _read_stage(c, d)


# FinetuningArguments.stage (src/llamafactory/hparams/finetuning_args.py @ff6d4d1: pt, sft, rm, ppo, dpo, kto); stage
# dpo's pref_loss picks the loss (sigmoid, hinge, ipo, kto_pair, orpo, simpo; orpo and simpo load no reference model,
# use_ref_model line 593): the trainer names set_objective reads
_STAGE_TRAINERS = {"rm": "reward", "ppo": "ppo", "kto": "kto"}
_PREF_LOSSES = {"ipo": "ipo", "orpo": "orpo", "simpo": "simpo"}


def _read_stage(c: Collector, d: dict[str, Any]) -> None:
    stage = d.get("stage")
    if stage == "dpo":
        set_objective(c, _PREF_LOSSES.get(str(d.get("pref_loss", "sigmoid")), "dpo"), "stage")
        c.use("pref_loss")
    elif isinstance(stage, str) and stage in _STAGE_TRAINERS:
        set_objective(c, _STAGE_TRAINERS[stage], "stage")
    else:
        c.use("stage")


def _read_freeze(c: Collector, d: dict[str, Any]) -> None:
    """freeze_trainable_layers: N > 0 trains the last N layers, N < 0 the first |N| (LLaMA-Factory)."""
    n = d.get("freeze_trainable_layers")
    if isinstance(n, bool) or not isinstance(n, int) or n == 0:
        c.skip(
            "freeze_trainable_layers",
            message(QT_TRANSLATE_NOOP("engine", "expected a non-zero whole number, found {n!r}"), n=n),
        )
        return
    c.settings.append(("_freeze_trainable", n, "freeze_trainable_layers", False))
    c.use("freeze_trainable_layers")
