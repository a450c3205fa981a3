"""axolotl YAML (axolotl/utils/schemas/config.py: AxolotlInputConfig).

axolotl loads the model in the compute dtype (bf16: auto -> bf16 where the GPU has it), so `bf16` means 16-bit
weights, not autocast over fp32 weights; peft keeps LoRA adapters in fp32.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .accelerate import read_fsdp
from .common import (
    HF_OPTIMIZERS,
    as_bool,
    as_int,
    read_hf_attention,
    read_layers_to_transform,
    set_flag,
    set_int,
    set_model,
    set_optimizer,
)
from .result import Collector


def is_axolotl(d: Any) -> bool:
    return (
        isinstance(d, dict)
        and "base_model" in d
        and any(k in d for k in ("micro_batch_size", "sequence_len", "adapter", "datasets", "sample_packing", "lora_r"))
    )


def read(c: Collector, d: dict[str, Any]) -> None:
    c.set("framework", "huggingface", "(axolotl)")
    set_model(c, d.get("base_model"), "base_model")
    _read_batch(c, d)
    _read_method_and_lora(c, d)
    _read_precision_and_checkpointing(c, d)
    _read_optimizer_and_attention(c, d)
    _read_kernels(c, d)
    _read_sharding(c, d)
    _read_long_sequence(c, d)
    # whole samples packed into rows of sequence_len (axolotl's multipack sampler)
    set_flag(c, d, "sample_packing", "packing", ("packed", "none"))


def _read_batch(c: Collector, d: dict[str, Any]) -> None:
    """micro_batch_size, accumulation and sequence_len, with axolotl's defaults."""
    if "micro_batch_size" in d:
        set_int(c, "micro_batch", d["micro_batch_size"], "micro_batch_size")
    else:
        c.assume("micro_batch", 1, message(QT_TRANSLATE_NOOP("engine", "axolotl's default micro_batch_size 1")))
    if "gradient_accumulation_steps" in d:
        set_int(c, "grad_accum", d["gradient_accumulation_steps"], "gradient_accumulation_steps")
    if "sequence_len" in d:
        set_int(c, "seq_len", d["sequence_len"], "sequence_len")
    else:
        c.assume("seq_len", 2048, message(QT_TRANSLATE_NOOP("engine", "axolotl's default sequence_len 2048")))


def _read_method_and_lora(c: Collector, d: dict[str, Any]) -> None:
    """adapter + load_in_4bit/8bit -> full, LoRA or QLoRA; the LoRA rank, alpha and targets."""
    adapter = d.get("adapter")
    four, eight = as_bool(d.get("load_in_4bit")), as_bool(d.get("load_in_8bit"))
    c.use("load_in_4bit", "load_in_8bit")
    if adapter in ("lora", "qlora"):
        if adapter == "qlora" or four or eight:
            c.set("method", "qlora", "adapter")
            c.set("qlora_bits", 8 if eight and not four else 4, "load_in_8bit" if eight and not four else "load_in_4bit")
            if eight and not four:
                c.assume(
                    "qlora_double_quant",
                    False,
                    message(
                        QT_TRANSLATE_NOOP(
                            "engine",
                            "load_in_8bit is bitsandbytes' LLM.int8 (Linear8bitLt): one scale per row, no double "
                            "quantisation (bnb_4bit_use_double_quant is a 4-bit option)",
                        )
                    ),
                )
        else:
            c.set("method", "lora", "adapter")
    elif adapter:
        c.skip("adapter", message(QT_TRANSLATE_NOOP("engine", "adapter '{adapter}' is not modelled yet"), adapter=adapter))
    else:
        c.set("method", "full", "adapter" if "adapter" in d else "base_model")
    if d.get("lora_r") is not None:
        set_int(c, "lora_rank", d["lora_r"], "lora_r")
    alpha = d.get("lora_alpha")
    if isinstance(alpha, int | float) and not isinstance(alpha, bool) and alpha > 0:
        c.set("lora_alpha", alpha, "lora_alpha")
    if as_bool(d.get("lora_target_linear")):
        c.set("lora_targets", "all-linear", "lora_target_linear")
    elif isinstance(d.get("lora_target_modules"), list) and d["lora_target_modules"]:
        c.set("lora_targets", [str(m) for m in d["lora_target_modules"]], "lora_target_modules")
    read_layers_to_transform(c, d)  # peft_layers_to_transform
    if d.get("lora_modules_to_save"):
        c.set("modules_to_save", list(d["lora_modules_to_save"]), "lora_modules_to_save")


def _read_precision_and_checkpointing(c: Collector, d: dict[str, Any]) -> None:
    """bf16/fp16 flags and gradient_checkpointing ("offload" also offloads activations)."""
    bf16, fp16 = d.get("bf16"), d.get("fp16")
    if bf16 in (True, "auto", "true"):
        c.set("precision", "bf16", "bf16")
        if bf16 == "auto":
            c.assume(
                "precision",
                "bf16",
                message(QT_TRANSLATE_NOOP("engine", "bf16: auto is bf16 on a GPU that supports it")),
                "bf16",
            )
    elif as_bool(fp16):
        c.set("precision", "fp16", "fp16")
    elif bf16 is False or fp16 is False:
        c.set("precision", "fp32", "bf16")
    c.use("fp16", "bf16")
    if "gradient_checkpointing" in d:
        gc = d["gradient_checkpointing"]
        on = as_bool(gc)
        if gc == "offload":
            c.set("checkpointing", "full", "gradient_checkpointing")
            c.set("activation_offload", True, "gradient_checkpointing")
        elif on is not None:
            c.set("checkpointing", "full" if on else "none", "gradient_checkpointing")


def _read_optimizer_and_attention(c: Collector, d: dict[str, Any]) -> None:
    opt = d.get("optimizer")
    if opt is not None:
        name = HF_OPTIMIZERS.get(str(opt).lower())
        if name:
            set_optimizer(c, str(opt).lower(), name, "optimizer")
        else:
            c.skip("optimizer", message(QT_TRANSLATE_NOOP("engine", "optimizer '{opt}' is not modelled yet"), opt=opt))
    else:
        c.assume(
            "optimizer",
            "adamw",
            message(QT_TRANSLATE_NOOP("engine", "axolotl leaves the optimizer to TrainingArguments (AdamW)")),
        )
    if d.get("attn_implementation") is not None:
        read_hf_attention(c, d)
    elif as_bool(d.get("flash_attention")):
        c.set("attention", "flash", "flash_attention")
    elif as_bool(d.get("sdp_attention")):
        c.set("attention", "sdpa", "sdp_attention")


def _read_kernels(c: Collector, d: dict[str, Any]) -> None:
    """torch.compile, Liger kernels and the fused cross-entropy."""
    set_flag(c, d, "torch_compile", "compile")
    if as_bool(d.get("liger_rms_norm")) or as_bool(d.get("liger_glu_activation")):
        c.set("liger_kernels", True, "liger_rms_norm" if "liger_rms_norm" in d else "liger_glu_activation")
    plugins = [str(p) for p in d.get("plugins") or [] if isinstance(p, str)] if isinstance(d.get("plugins"), list) else []
    cce_plugin = any(p.endswith("CutCrossEntropyPlugin") for p in plugins)
    if as_bool(d.get("liger_fused_linear_cross_entropy")) or as_bool(d.get("cut_cross_entropy")) or cce_plugin:
        # axolotl's CutCrossEntropyPlugin (axolotl/integrations/cut_cross_entropy) patches the model's loss with
        # Apple's Cut Cross-Entropy: the lm_head and the loss in one kernel, no logits materialised
        src = next((k for k in ("liger_fused_linear_cross_entropy", "cut_cross_entropy") if k in d), "plugins")
        c.set("cross_entropy", "fused-linear", src)
    if "plugins" in d:
        c.use("plugins")


def _read_sharding(c: Collector, d: dict[str, Any]) -> None:
    """The DeepSpeed file it names, fsdp_config, tensor and context parallel sizes."""
    if isinstance(d.get("deepspeed"), str) and d["deepspeed"]:
        c.references.append(("deepspeed", d["deepspeed"]))
        c.use("deepspeed")
    fs = d.get("fsdp_config")
    if isinstance(fs, dict) and fs:
        if "fsdp_version" in d:
            fs = {**fs, "fsdp_version": d["fsdp_version"]}
            c.use("fsdp_version")
        read_fsdp(c, fs, "fsdp_config.")
    for key in ("tensor_parallel_size", "context_parallel_size", "sequence_parallel_degree"):
        if d.get(key) is not None:  # sequence_parallel_degree: axolotl's earlier name of context_parallel_size
            set_int(c, "tp" if key.startswith("tensor") else "cp", d[key], key)
    if d.get("expert_parallel_size") is not None:  # the expert_parallel plugin (src/axolotl/integrations/
        # expert_parallel/README.md @067b021): experts sharded over the ep ranks, the other weights replicated there
        set_int(c, "ep", d["expert_parallel_size"], "expert_parallel_size")
    _read_dp_sizes(c, d)


def _read_dp_sizes(c: Collector, d: dict[str, Any]) -> None:
    """dp_shard_size / dp_replicate_size (axolotl 067b021 src/axolotl/utils/distributed.py
    _get_parallel_config_kwargs): FSDP shards within groups of dp_shard_size ranks (with the context-parallel ranks:
    accelerate's dp_shard_cp mesh), replicated over dp_replicate_size of them (HSDP); the world is their product with
    the tensor, context and expert sizes. Under the expert-parallel plugin the groups are the plugin's own mesh, left
    to the planner's default."""
    shard, rep = as_int(d.get("dp_shard_size")), as_int(d.get("dp_replicate_size")) or 1
    c.use("dp_replicate_size")
    if shard is None or shard < 1 or (as_int(d.get("expert_parallel_size")) or 1) > 1:
        return
    tp, cp = as_int(d.get("tensor_parallel_size")) or 1, as_int(d.get("context_parallel_size")) or 1
    if shard > 1:
        c.set("dp_shard", shard * cp, "dp_shard_size")
    else:
        c.use("dp_shard_size")
    if rep > 1 or shard > 1:
        c.assume("gpus_per_node", shard * rep * tp * cp, message(QT_TRANSLATE_NOOP(
            "engine", "dp_shard_size x dp_replicate_size x tensor x context parallel sizes: the GPUs axolotl's "
                      "parallelism config is built for")), "dp_shard_size")


def _read_long_sequence(c: Collector, d: dict[str, Any]) -> None:
    """ALST long-sequence options (examples/alst): activation offloading and the tiled MLP."""
    if "activation_offloading" in d:
        value = d["activation_offloading"]
        on = True if value in ("legacy", "disk") else as_bool(value)
        if on is not None:  # axolotl offloads the checkpointed layer inputs to CPU memory ("disk": further on)
            c.set("activation_offload", on, "activation_offloading")
    if as_bool(d.get("tiled_mlp")):
        c.skip(
            "tiled_mlp",
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "ALST's tiled MLP runs the MLP in sequence tiles, so its recomputation in backward holds one tile's "
                    "intermediates: not modelled yet (the estimate counts the whole sequence's, an upper bound)",
                )
            ),
        )
