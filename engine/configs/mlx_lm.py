"""mlx-lm's fine-tuning YAML (`mlx_lm.lora --config FILE`): ml-explore/mlx-lm at d78bf58e217c mlx_lm/lora.py
CONFIG_DEFAULTS (lines 44-80) and train_model (lines 225-253). It trains through MLX (framework mlx), in the checkpoint's
dtype; --num-layers (default 16) is how many of the top decoder layers train: LoRA / DoRA adapters on them
(tuner/utils.py linear_to_lora_layers, model.layers[-num_layers:]; -1: every layer) or, with fine_tune_type full,
their weights unfrozen (the rest of the model, the embeddings included, stays frozen by model.freeze())."""

from __future__ import annotations

import math
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, set_int, set_model
from .result import Collector

_OWN_KEYS = ("fine_tune_type", "lora_parameters", "num_layers", "grad_checkpoint", "adapter_path")
# mlx_lm/lora.py --optimizer choices, as the planner's optimizers (Adam and AdamW keep the same two states)
# the planner's "attention" targets (engine/configs/export_common.py lora_target_list), sorted
_ATTENTION = ["k_proj", "o_proj", "q_proj", "v_proj"]
_OPTIMIZERS = {"adam": "adamw", "adamw": "adamw", "sgd": "sgd", "adafactor": "adafactor"}


def is_mlx_lm(d: Any) -> bool:
    return isinstance(d, dict) and "model" in d and any(k in d for k in _OWN_KEYS) and "train_type" not in d


def read(c: Collector, d: dict[str, Any]) -> None:
    c.set("framework", "mlx", "(mlx-lm)")
    set_model(c, d.get("model"), "model")
    _read_batch(c, d)
    _read_method(c, d)
    optimizer = str(d.get("optimizer", "adam")).lower()
    if optimizer in _OPTIMIZERS and "optimizer" in d:
        c.set("optimizer", _OPTIMIZERS[optimizer], "optimizer")
    elif optimizer in _OPTIMIZERS:
        c.assume("optimizer", "adamw", message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default optimizer adam")))
    else:
        c.skip("optimizer", message(QT_TRANSLATE_NOOP("engine", "optimizer {name!r} is not modelled"), name=optimizer))
    checkpoint = as_bool(d.get("grad_checkpoint"))
    if checkpoint is not None:  # mx.checkpoint around each decoder layer (mlx_lm/tuner/trainer.py grad_checkpoint)
        c.set("checkpointing", "full" if checkpoint else "none", "grad_checkpoint")
    else:
        c.assume("checkpointing", "none", message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default grad_checkpoint false")))
    _read_iters(c, d)
    c.assume("precision", "bf16", message(QT_TRANSLATE_NOOP(
        "engine", "mlx-lm trains in the checkpoint's own dtype (no mixed precision); taken as bf16")))


def _read_batch(c: Collector, d: dict[str, Any]) -> None:
    """batch_size (default 4), grad_accumulation_steps (1), max_seq_length (2048): mlx_lm/lora.py CONFIG_DEFAULTS."""
    for key, scenario_key, default in (("batch_size", "micro_batch", 4), ("grad_accumulation_steps", "grad_accum", 1),
                                       ("max_seq_length", "seq_len", 2048)):
        if key in d:
            set_int(c, scenario_key, d[key], key)
        else:
            c.assume(scenario_key, default, message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default {key} {value}"),
                                                    key=key, value=default))


def _read_method(c: Collector, d: dict[str, Any]) -> None:
    """fine_tune_type (lora, dora or full) with num_layers, and lora_parameters' rank and keys."""
    kind = str(d.get("fine_tune_type", "lora")).lower()
    layers = d.get("num_layers", 16)
    if isinstance(layers, bool) or not isinstance(layers, int):
        c.skip("num_layers", message(QT_TRANSLATE_NOOP("engine", "expected a whole number, found {n!r}"), n=layers))
        layers = 16
    if kind == "full":
        if layers < 0:
            c.set("method", "full", "fine_tune_type")
        else:  # the top num_layers layers trained: LLaMA-Factory's freeze_trainable_layers N (importing.py)
            c.set("method", "freeze", "fine_tune_type")
            c.settings.append(("_freeze_trainable", layers, "num_layers", False))
        c.use("num_layers")
        return
    if "fine_tune_type" in d:
        c.set("method", "lora", "fine_tune_type")
    else:
        c.assume("method", "lora", message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default fine_tune_type lora")))
    if kind == "dora":
        c.skip("fine_tune_type", message(QT_TRANSLATE_NOOP(
            "engine", "DoRA's magnitude vectors and their extra pass are not modelled: planned as LoRA")))
    value = max(layers, 0)
    if "num_layers" in d:
        c.set("lora_layers", value, "num_layers")
    else:
        c.assume("lora_layers", value, message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default num_layers 16")))
    params = d.get("lora_parameters") if isinstance(d.get("lora_parameters"), dict) else {}
    if "rank" in params:
        set_int(c, "lora_rank", params["rank"], "lora_parameters.rank")
    else:
        c.assume("lora_rank", 8, message(QT_TRANSLATE_NOOP("engine", "mlx-lm's default LoRA rank 8")))
    _read_scale(c, params)
    keys = params.get("keys")
    if isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys):
        names = sorted({k.rsplit(".", 1)[-1] for k in keys})
        c.set("lora_targets", "attention" if names == _ATTENTION else names, "lora_parameters.keys")
    else:  # linear_to_lora_layers adapts every linear of the decoder layers where no keys are given
        c.assume("lora_targets", "all-linear", message(QT_TRANSLATE_NOOP(
            "engine", "mlx-lm adapts every linear layer of the adapted blocks when lora_parameters has no keys")))


def _read_scale(c: Collector, params: dict[str, Any]) -> None:
    """lora_parameters.scale multiplies the adapter's output (mlx_lm/tuner/lora.py line 98), as PEFT's lora_alpha / r
    does: lora_alpha = scale x rank (default scale 20, lora.py CONFIG_DEFAULTS)."""
    scale, rank = params.get("scale", 20.0), params.get("rank", 8)
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in (scale, rank))
    if numbers and 0 < scale * rank <= 1_000_000 and "scale" in params:
        c.set("lora_alpha", round(scale * rank, 6), "lora_parameters.scale")
    elif numbers and 0 < scale * rank <= 1_000_000:
        c.assume("lora_alpha", round(scale * rank, 6), message(QT_TRANSLATE_NOOP(
            "engine", "mlx-lm's default LoRA scale 20 (lora_alpha = scale x rank)")))
    elif "scale" in params:
        c.skip("lora_parameters.scale", message(QT_TRANSLATE_NOOP("engine", "expected a positive number, found {n!r}"),
                                                n=scale))


def _read_iters(c: Collector, d: dict[str, Any]) -> None:
    """iters (one batch of batch_size sequences each, trainer.py) as tokens to train: every sequence taken at
    max_seq_length tokens, the most a batch holds (iterate_batches pads to the longest, capped there)."""
    if "iters" not in d:
        return
    iters, batch, seq = d["iters"], d.get("batch_size", 4), d.get("max_seq_length", 2048)
    if all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (iters, batch, seq)):
        c.set("tokens_to_train", iters * batch * seq, "iters")
    else:
        c.skip("iters", message(QT_TRANSLATE_NOOP("engine", "expected a whole number, found {n!r}"), n=iters))
