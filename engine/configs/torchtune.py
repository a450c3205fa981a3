"""torchtune recipe YAML. `_component_` paths are strings to recognise, never imported.

Recipe keys read (recipes/full_finetune_*.py, lora_finetune_*.py): batch_size, gradient_accumulation_steps, dtype,
enable_activation_checkpointing, enable_activation_offloading, optimizer_in_bwd, compile, tokenizer.max_seq_len,
model (builder: lora_/qlora_ prefix, lora_rank, lora_alpha, lora_attn_modules, apply_lora_to_mlp/output),
optimizer and loss components, tensor_parallel_dim, fsdp_cpu_offload.
"""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario.choices import ADAPTER_METHODS
from .common import as_bool, as_int, set_flag, set_int, set_optimizer
from .models import TORCHTUNE_BUILDERS
from .result import Collector

_OPTIMIZERS = {
    "torch.optim.AdamW": "adamw",
    "torch.optim.Adam": "adamw",
    "torch.optim.SGD": "sgd",
    "bitsandbytes.optim.PagedAdamW8bit": "adamw-8bit-paged",  # unified memory (engine/memory/model_states.py)
    "bitsandbytes.optim.AdamW8bit": "adamw-8bit",
    "bitsandbytes.optim.PagedAdamW": "adamw",
    "bitsandbytes.optim.PagedAdamW32bit": "adamw",
    "torchao.prototype.low_bit_optim.AdamW8bit": "adamw-8bit",
    "torchao.optim.AdamW8bit": "adamw-8bit",
}
# loss component -> cross_entropy (issue 11): torchtune chunks the output projection + CE, or fuses them
_LOSSES = {
    "torchtune.modules.loss.CEWithChunkedOutputLoss": "chunked",
    "torchtune.modules.loss.LinearCrossEntropyLoss": "chunked",
    "torch.nn.CrossEntropyLoss": "standard",
}
# torchtune's lora_attn_modules names -> HF module names the planner uses
_LORA_NAMES = {"q_proj": "q_proj", "k_proj": "k_proj", "v_proj": "v_proj", "output_proj": "o_proj"}
_MLP = ["gate_proj", "up_proj", "down_proj"]


def is_torchtune(d: Any) -> bool:
    return isinstance(d, dict) and any(isinstance(v, dict) and "_component_" in v for v in d.values())


# the recipe a config is written for, as its usage comment runs it: "tune run [--nproc_per_node N] <recipe> --config"
_RECIPE = re.compile(r"tune run\b[^\n]*?\b(\w+_(?:distributed|single_device))\b")
_FSDP_KEYS = ("fsdp_cpu_offload", "fsdp_reshard_after_forward", "custom_sharded_layers")


def read(c: Collector, d: dict[str, Any], text: str = "") -> None:
    c.set("framework", "torchtune", "(recipe)")
    model = d.get("model")
    if isinstance(model, dict) and isinstance(model.get("_component_"), str):
        _read_model(c, model)
    _read_batch_and_precision(c, d)
    _read_switches(c, d)
    _read_seq_len_optimizer_loss(c, d)
    _read_recipe(c, d, text)
    _read_distributed(c, d)


def _read_recipe(c: Collector, d: dict[str, Any], text: str) -> None:
    """The *_distributed recipes shard the model with FSDP2 (recipes/full_finetune_distributed.py and
    lora_finetune_distributed.py: training.shard_model -> fully_shard on every layer and the root); the usage comment
    names the recipe, and only distributed configs carry fsdp_* keys."""
    found = _RECIPE.search(text)
    recipe = found.group(1) if found else ""
    if recipe.endswith("_distributed") or (not recipe and any(k in d for k in _FSDP_KEYS)):
        c.set("fsdp", True, f"(recipe {recipe})" if recipe else "fsdp_*")


def _read_batch_and_precision(c: Collector, d: dict[str, Any]) -> None:
    """batch_size, accumulation and dtype (recipes default to bf16)."""
    if "batch_size" in d:
        set_int(c, "micro_batch", d["batch_size"], "batch_size")
    if "gradient_accumulation_steps" in d:
        set_int(c, "grad_accum", d["gradient_accumulation_steps"], "gradient_accumulation_steps")
    dtype = d.get("dtype")
    if dtype is not None:
        prec = {"bf16": "bf16", "fp32": "fp32", "fp16": "fp16"}.get(str(dtype))
        if prec:
            c.set("precision", prec, "dtype")
        else:
            c.skip("dtype", message(QT_TRANSLATE_NOOP("engine", "unknown dtype {dtype!r}"), dtype=dtype))
    else:
        c.assume("precision", "bf16", message(QT_TRANSLATE_NOOP("engine", "torchtune recipes default to dtype bf16")))


def _read_switches(c: Collector, d: dict[str, Any]) -> None:
    """The recipe's on/off switches: checkpointing, activation offload, optimizer in backward, compile."""
    set_flag(c, d, "enable_activation_checkpointing", "checkpointing", ("full", "none"))
    set_flag(c, d, "enable_activation_offloading", "activation_offload")
    set_flag(c, d, "optimizer_in_bwd", "optimizer_in_backward")
    set_flag(c, d, "compile", "compile")


def _read_seq_len_optimizer_loss(c: Collector, d: dict[str, Any]) -> None:
    """tokenizer.max_seq_len, the optimizer and the loss components."""
    tok = d.get("tokenizer")
    if isinstance(tok, dict) and "max_seq_len" in tok:
        if tok["max_seq_len"] is None:
            c.skip(
                "tokenizer.max_seq_len",
                message(QT_TRANSLATE_NOOP("engine", "null: the length of the longest sample; set seq_len in the planner")),
            )
        else:
            set_int(c, "seq_len", tok["max_seq_len"], "tokenizer.max_seq_len")
    opt = d.get("optimizer")
    if isinstance(opt, dict) and isinstance(opt.get("_component_"), str):
        comp = opt["_component_"]
        name = _OPTIMIZERS.get(comp)
        if name == "adamw" and as_bool(opt.get("fused")):
            name = "adamw-fused"
            c.use("optimizer.fused")
        if name:
            set_optimizer(c, comp, name, "optimizer._component_")
        else:
            c.skip(
                "optimizer._component_",
                message(QT_TRANSLATE_NOOP("engine", "optimizer {comp} is not modelled yet"), comp=comp),
            )
    loss = d.get("loss")
    if isinstance(loss, dict) and isinstance(loss.get("_component_"), str):
        ce = _LOSSES.get(loss["_component_"])
        if ce:
            c.set("cross_entropy", ce, "loss._component_")
        else:
            c.skip(
                "loss._component_",
                message(
                    QT_TRANSLATE_NOOP("engine", "loss {_component} is not modelled yet"), _component=loss["_component_"]
                ),
            )


def _read_distributed(c: Collector, d: dict[str, Any]) -> None:
    """Tensor parallelism and the FSDP options of the distributed recipes."""
    if d.get("tensor_parallel_dim") is not None and set_int(c, "tp", d["tensor_parallel_dim"], "tensor_parallel_dim"):
        tp = as_int(d["tensor_parallel_dim"]) or 1
        if tp > 1:
            c.assume(
                "gpus_per_node",
                tp,
                message(
                    QT_TRANSLATE_NOOP(
                        "engine",
                        "the GPU count is given to `tune run --nproc_per_node`, not in the recipe: at least the "
                        "tensor-parallel degree",
                    )
                ),
            )
    set_flag(c, d, "fsdp_cpu_offload", "offload", ("optimizer+params", "none"))
    set_flag(c, d, "fsdp_reshard_after_forward", "reshard_after_forward")
    if "custom_sharded_layers" in d:
        c.skip(
            "custom_sharded_layers",
            message(QT_TRANSLATE_NOOP("engine", "sharding of embeddings and output apart is not modelled yet")),
        )


def _read_model(c: Collector, model: dict[str, Any]) -> None:
    comp = model["_component_"]
    builder = comp.rsplit(".", 1)[-1]
    method = "full"
    if builder.startswith("qlora_"):
        method, builder = "qlora", builder[len("qlora_") :]
    elif builder.startswith("lora_"):
        method, builder = "lora", builder[len("lora_") :]
    elif builder.startswith(("dora_", "qdora_")):
        c.skip("model._component_", message(QT_TRANSLATE_NOOP("engine", "DoRA ({comp}) is not modelled yet"), comp=comp))
        return
    preset = TORCHTUNE_BUILDERS.get(builder)
    if preset:
        c.set("model", preset, "model._component_")
    else:
        c.skip(
            "model._component_",
            message(
                QT_TRANSLATE_NOOP("engine", "model builder {comp} is not a preset; pick the model in the planner"), comp=comp
            ),
        )
    c.set("method", method, "model._component_")
    if method in ADAPTER_METHODS:
        c.assume(
            "lora_adapter_dtype",
            "compute",
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "torchtune builds the model, LoRA adapters included, under training.set_default_dtype(dtype) "
                    "(recipes/lora_finetune_*.py _setup_model): the adapters are in the model dtype",
                )
            ),
        )
    if method == "qlora":
        c.assume("qlora_bits", 4, message(QT_TRANSLATE_NOOP("engine", "torchtune QLoRA quantises base weights to NF4")))
        c.assume(
            "qlora_double_quant",
            False,
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "torchtune's NF4Tensor (torchao) keeps per-block scales quantised once, with no second-level "
                    "quantisation of the constants",
                )
            ),
        )
    if method == "full":
        return
    if model.get("lora_rank") is not None:
        set_int(c, "lora_rank", model["lora_rank"], "model.lora_rank")
    alpha = model.get("lora_alpha")
    if isinstance(alpha, int | float) and not isinstance(alpha, bool) and alpha > 0:
        c.set("lora_alpha", alpha, "model.lora_alpha")
    mods = model.get("lora_attn_modules")
    if isinstance(mods, list):
        targets = [_LORA_NAMES.get(str(m), str(m)) for m in mods]
        mlp = as_bool(model.get("apply_lora_to_mlp"))
        if mlp:
            targets += _MLP
        c.use("model.apply_lora_to_mlp")
        if as_bool(model.get("apply_lora_to_output")):
            targets.append("lm_head")
        c.use("model.apply_lora_to_output")
        if set(targets) >= {"q_proj", "k_proj", "v_proj", "o_proj", *_MLP}:
            c.set("lora_targets", "all-linear" if "lm_head" not in targets else targets, "model.lora_attn_modules")
        else:
            c.set("lora_targets", targets, "model.lora_attn_modules")
    if as_int(model.get("lora_dropout")) is not None or "lora_dropout" in model:
        c.skip("model.lora_dropout", message(QT_TRANSLATE_NOOP("engine", "does not affect GPU memory")))
