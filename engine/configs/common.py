"""Vocabulary shared by the importers: Hugging Face TrainingArguments / TRL / peft names and their planner values."""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message
from .models import preset_for
from .result import Collector

# TrainingArguments.optim (transformers OptimizerNames) -> planner optimizer. bitsandbytes' paged optimizers keep
# their states in unified memory (cudaMallocManaged) that pages to the host when the GPU runs short: the 8-bit one is
# the planner's adamw-8bit-paged (engine/memory/model_states.py: outside PyTorch's allocator); the 32-bit ones have
# no paged optimizer of the planner's, so they are AdamW with the states on the GPU, which the import says (set_optimizer).
HF_OPTIMIZERS = {
    "adamw_torch": "adamw",
    "adamw_hf": "adamw",
    "adamw_torch_xla": "adamw",
    "adamw_apex_fused": "adamw-fused",
    "adamw_torch_fused": "adamw-fused",
    "adamw_bnb_8bit": "adamw-8bit",
    "adamw_8bit": "adamw-8bit",
    "paged_adamw_8bit": "adamw-8bit-paged",
    # torchao's AdamW8bit (transformers OptimizerNames.ADAMW_TORCH_8BIT) is bitsandbytes' AdamW8bit to the byte that
    # counts: both keep each moment as uint8 codes plus one fp32 scale per 256 elements through a 256-entry dynamic
    # map (pytorch/ao@83379fe torchao/optim/adam.py AdamW8bit block_size=256, subclass_8bit.py OptimState8bit.zeros;
    # bitsandbytes optim/optimizer.py Optimizer2State.init_state: state1/2 uint8, absmax1/2 fp32 per 256) and fp32
    # moments below 4096 elements; they differ only where a tensor's element count is no multiple of 256 (torchao
    # keeps fp32 moments there, bitsandbytes pads the last block) and by torchao's own 1 KiB map per moment tensor
    "adamw_torch_8bit": "adamw-8bit",
    "paged_adamw_32bit": "adamw",
    "paged_adamw": "adamw",
    "adafactor": "adafactor",
    "sgd": "sgd",
    "adam": "adamw",
    "adamw": "adamw",
}
HF_ATTENTION = {"flash_attention_2": "flash", "flash_attention_3": "flash", "sdpa": "sdpa", "eager": "eager"}
TORCH_DTYPES = {
    "bfloat16": "bf16",
    "bf16": "bf16",
    "float16": "fp16",
    "fp16": "fp16",
    "half": "fp16",
    "float32": "fp32",
    "fp32": "fp32",
    "float": "fp32",
}

# Names of settings that change nothing in GPU memory (training schedule, logging, data, paths, hub, evaluation).
_NO_MEMORY = re.compile(
    r"(^|[._])(lr|learning_rate|.*_lr|warmup.*|.*scheduler.*|.*decay.*|weight_decay|adam_beta\d|adam_epsilon|eps|"
    r"betas?|momentum|clip.*|max_grad_norm|.*norm_clip|log.*|.*logging.*|.*_steps?|steps|epochs?|num_train_epochs|"
    r"max_steps.*|.*save.*|.*eval.*|.*output.*|.*_dir|.*dir|.*path|.*folder|.*dataset.*|datasets?|split|seed|"
    r"shuffle|wandb.*|report_to|.*hub.*|push_to_hub|tokenizer.*|template|chat_template|system|prompt.*|"
    r"special_tokens.*|.*tokens?|description|run_name|resume.*|overwrite.*|do_train|do_eval|do_predict|"
    r"dataloader.*|.*num_proc|.*workers?|preprocessing.*|max_samples|val_set_size|ddp_timeout|"
    r"model_revision|revision|trust_remote_code|plot_loss|profil.*|metric.*|.*interval|.*freq|timeout|"
    r"checkpoint.*|ckpt.*|stage|strict|remove_unused_columns|group_by_length|train_on_inputs|.*author|"
    r"model_name|tf32|.*dropout|lora_dropout|.*_init.*|init.*|dump_folder|job.*|comm.*|seed_.*|device|"
    r"compute_environment|debug|machine_rank|main_training_function|rdzv_backend|same_network|tpu.*|"
    r"main_process.*|enable_cpu_affinity|downcast_bf16|mixed_precision_policy|.*multinode_launcher|"
    r"steps_per_print|wall_clock_breakdown|.*bucket.*|overlap.*|contiguous_gradients|reduce_scatter|"
    r"allgather_partitions|round_robin_gradients|.*persistence.*|.*max_live.*|.*reuse_distance|sub_group_size|"
    r"gather_16bit.*|.*16bit.*save.*|.*state_dict.*|sync_module_states|.*prefetch.*|use_orig_params|"
    r"auto_wrap_policy|.*layer_cls_to_wrap|cpu_ram_efficient_loading|limit_all_gathers|hysteresis|.*loss_scale.*|"
    r"initial_scale_power|auto_cast|zero_allow_untested_optimizer|zero_force_ds_cpu_optimizer|pin_memory|"
    r"gradient_clipping|train_batch_size|global_batch_size|per_device_eval_batch_size|batch_size_val|"
    r"master_.*|node_rank|nproc_per_node|nnodes|max_norm)$"
)


NO_MEMORY_WHY = message(QT_TRANSLATE_NOOP("engine", "does not affect GPU memory"))


def shown_value(value: object, limit: int = 60) -> str:
    """A value as the user wrote it, cut short: a 309-digit number or a long list is not worth a screenful."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def why_not_read(key: str) -> Message:
    leaf = key.rsplit(".", 1)[-1].split("[", 1)[0]
    if _NO_MEMORY.search(leaf) or _NO_MEMORY.search(key):
        return NO_MEMORY_WHY
    # not "(not a memory setting it models)": the planner models time too, and some of these decide it
    return message(QT_TRANSLATE_NOOP("engine", "not read by the planner"))


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on"):
        return True
    # an empty value is no switch: ms-swift's and transformers' HfArgumentParser string_to_bool refuse it at start
    # (`--freeze_vit ''` read as false was a trained vision tower; h-fuzz12 item c)
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "off", "none"):
        return False
    if isinstance(value, int):
        return bool(value)
    return None


def not_a_switch(value: Any) -> Message:
    """Why a switch's value is not read: it is no true / false (ms-swift's and transformers' argument parsers refuse
    it at start: HfArgumentParser string_to_bool)."""
    return message(QT_TRANSLATE_NOOP("engine", "expected true or false, found {value}"), value=shown_value(value, 40))


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            f = float(value.strip())
        except ValueError:
            return None
        return int(f) if f.is_integer() else None
    return None


def set_int(c: Collector, key: str, value: Any, src: str, minimum: int = 1) -> bool:
    n = as_int(value)
    if n is None or n < minimum:
        c.skip(
            src,
            message(
                QT_TRANSLATE_NOOP("engine", "expected a whole number ≥ {minimum}, found {value!r}"),
                minimum=minimum,
                value=value,
            ),
        )
        return False
    c.set(key, n, src)
    return True


def set_flag(c: Collector, d: dict[str, Any], key: str, field: str, values: tuple[Any, Any] = (True, False),
             src: str = "") -> None:
    """Where `d` has the yes/no `key` and its value reads as one (as_bool), set `field` to values[0] for yes or
    values[1] for no, read from `src` (the key itself unless given)."""
    if key in d:
        on = as_bool(d[key])
        if on is not None:
            c.set(field, values[0] if on else values[1], src or key)


def set_model(c: Collector, name: Any, src: str) -> None:
    """A Hub id / local path -> preset id, or unmapped with the id so that the user picks one."""
    if not isinstance(name, str) or not name.strip():
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "no model named ({name!r})"), name=name))
        return
    preset, exact = preset_for(name)
    if preset is None and _set_local_model(c, name, src):
        return
    if preset is None:
        c.skip(
            src,
            message(QT_TRANSLATE_NOOP("engine", "model '{name}' is not a preset; pick the model in the planner"), name=name),
        )
        return
    c.set("model", preset, src)
    if not exact:
        c.assume(
            "model",
            preset,
            message(
                QT_TRANSLATE_NOOP("engine", "'{name}' taken as preset {preset} (a variant with the same architecture)"),
                name=name,
                preset=preset,
            ),
        )


def _set_local_model(c: Collector, name: str, src: str) -> bool:
    """A Hub id found in the local Hugging Face cache (or a user's folder): its config.json becomes the model."""
    from ..errors import ModelConfigError
    from ..models.config_file import read_config_file
    from ..models.local.hf_cache import find_local_models

    wanted = name.strip().rstrip("/").lower()
    for local in find_local_models():
        if local.repo_id.lower() != wanted and str(local.folder).lower() != wanted:
            continue
        try:
            config = read_config_file(local.config_path)  # size cap, bounded parse, one JSON object
        except ModelConfigError:
            return False
        c.set("model", {"name": local.repo_id, "hf_config": config}, src)
        c.assume("model", local.repo_id, message(
            QT_TRANSLATE_NOOP("engine", "'{name}' read from its config.json in the local model cache"), name=name))
        return True
    return False


def lora_targets(value: Any) -> str | list[str] | None:
    if isinstance(value, str):
        v = value.strip()
        if v in ("all-linear", "all_linear", "all"):
            return "all-linear"
        parts = [p.strip() for p in v.split(",") if p.strip()]
        return parts or None
    if isinstance(value, list) and value and all(isinstance(t, str) and t for t in value):
        return list(value)
    return None


def read_hf_args(c: Collector, d: dict[str, Any], weights_follow_dtype: bool = True) -> None:
    """TrainingArguments / TRL SFTConfig / TRL ModelConfig keys (also the HF part of axolotl, LLaMA-Factory, swift)."""
    _read_hf_batch_and_length(c, d)
    _read_hf_optimizer_and_attention(c, d)
    model = d.get("model_name_or_path")
    if model is not None:
        set_model(c, model, "model_name_or_path")
    _read_hf_precision(c, d, weights_follow_dtype)
    _read_hf_peft(c, d)
    _read_hf_framework_options(c, d)


def _read_hf_batch_and_length(c: Collector, d: dict[str, Any]) -> None:
    """Micro-batch, accumulation, gradient checkpointing and the sequence length."""
    if "per_device_train_batch_size" in d:
        set_int(c, "micro_batch", d["per_device_train_batch_size"], "per_device_train_batch_size")
    if "gradient_accumulation_steps" in d:
        set_int(c, "grad_accum", d["gradient_accumulation_steps"], "gradient_accumulation_steps")
    set_flag(c, d, "gradient_checkpointing", "checkpointing", ("full", "none"))
    for key in ("max_seq_length", "max_length", "model_max_length"):
        if key in d and d[key] is not None:
            set_int(c, "seq_len", d[key], key)
    # TRL SFTConfig/DPOConfig packing (whole samples in rows of max_length) and padding_free (a batch's samples in
    # one row, no padding); ms-swift's --packing / --padding_free mean the same
    packed, free = as_bool(d.get("packing")), as_bool(d.get("padding_free"))
    if packed or free:
        c.set("packing", "packed" if packed else "padding-free", "packing" if packed else "padding_free")
    elif packed is False or free is False:
        c.set("packing", "none", "packing" if packed is False else "padding_free")
    c.use("packing", "padding_free", "packing_strategy")


# the 32-bit paged AdamW of bitsandbytes, by the name each format gives it
PAGED_32BIT = ("paged_adamw_32bit", "paged_adamw", "bitsandbytes.optim.PagedAdamW", "bitsandbytes.optim.PagedAdamW32bit")
_PAGED_32BIT_WHY = QT_TRANSLATE_NOOP(
    "engine", "{name} keeps its fp32 states in unified memory that bitsandbytes pages to CPU memory when the GPU runs "
              "short; the planner has no paged 32-bit AdamW and counts the states on the GPU, an upper bound")


def set_optimizer(c: Collector, name: str, planner: str, src: str) -> None:
    """The optimizer `planner` read from the file's `name`: a paged 32-bit one assumed with its sentence."""
    if name in PAGED_32BIT:
        c.assume("optimizer", planner, message(_PAGED_32BIT_WHY, name=name), src)
    else:
        c.set("optimizer", planner, src)


def _read_hf_optimizer_and_attention(c: Collector, d: dict[str, Any]) -> None:
    if "optim" in d:
        opt = HF_OPTIMIZERS.get(str(d["optim"]).lower())
        if opt:
            set_optimizer(c, str(d["optim"]).lower(), opt, "optim")
        else:
            c.skip(
                "optim", message(QT_TRANSLATE_NOOP("engine", "optimizer '{optim}' is not modelled yet"), optim=d["optim"])
            )
    read_hf_attention(c, d)


def read_hf_attention(c: Collector, d: dict[str, Any]) -> None:
    """attn_implementation (transformers' from_pretrained argument, also axolotl's key) -> the attention kernel."""
    attn = d.get("attn_implementation")
    if attn is not None:
        if attn in HF_ATTENTION:
            c.set("attention", HF_ATTENTION[attn], "attn_implementation")
        else:
            c.skip(
                "attn_implementation",
                message(QT_TRANSLATE_NOOP("engine", "attention kernel '{attn}' is not modelled yet"), attn=attn),
            )


def _read_hf_precision(c: Collector, d: dict[str, Any], weights_follow_dtype: bool) -> None:
    """TrainingArguments bf16/fp16 is autocast over fp32 weights unless the model is loaded in 16 bits."""
    dtype = d.get("torch_dtype", d.get("dtype"))
    dtype_key = "torch_dtype" if "torch_dtype" in d else "dtype"
    loaded = TORCH_DTYPES.get(str(dtype).lower()) if dtype is not None else None
    bf16, fp16 = as_bool(d.get("bf16")), as_bool(d.get("fp16"))
    if loaded in ("bf16", "fp16") and weights_follow_dtype:
        c.set("precision", loaded, dtype_key)
        c.use("bf16", "fp16")
    elif bf16:
        c.set("precision", "amp-bf16", "bf16")
        c.use("fp16")
    elif fp16:
        c.set("precision", "amp-fp16", "fp16")
        c.use("bf16")
    elif loaded == "fp32" or bf16 is False:
        c.set("precision", "fp32", dtype_key if loaded else "bf16")
        c.use("fp16")
    if dtype is not None:
        c.use(dtype_key)


def _read_hf_peft(c: Collector, d: dict[str, Any]) -> None:
    """LoRA / QLoRA through TRL's ModelConfig (use_peft, load_in_4bit/8bit) and the LoRA settings."""
    use_peft = as_bool(d.get("use_peft"))
    four, eight = as_bool(d.get("load_in_4bit")), as_bool(d.get("load_in_8bit"))
    if use_peft is not None:
        c.use("use_peft")
    if use_peft or four or eight:
        if four or eight:
            c.set("method", "qlora", "load_in_4bit" if four else "load_in_8bit")
            c.set("qlora_bits", 4 if four else 8, "load_in_4bit" if four else "load_in_8bit")
            c.use("load_in_4bit", "load_in_8bit")
        else:
            c.set("method", "lora", "use_peft")
    elif use_peft is False or four is False or eight is False:
        c.use("load_in_4bit", "load_in_8bit")
    nested = next((k for k in ("bnb_4bit_use_double_quant", "use_bnb_nested_quant") if k in d), None)
    if nested is not None:
        b = as_bool(d[nested])
        if b is not None:
            c.set("qlora_double_quant", b, nested)
    elif four or eight:
        # trl/trainer/utils.py get_quantization_config: bnb_4bit_use_double_quant=model_args.use_bnb_nested_quant,
        # which TRL's ModelConfig defaults to False (and LLM.int8 has no double quantisation at all)
        c.assume("qlora_double_quant", False, message(QT_TRANSLATE_NOOP(
            "engine", "TRL's ModelConfig use_bnb_nested_quant defaults to false: no double quantisation")))
    for key in ("lora_r", "lora_rank"):
        if key in d and d[key] is not None:
            set_int(c, "lora_rank", d[key], key)
    if d.get("lora_alpha") is not None:
        alpha = d["lora_alpha"]
        if isinstance(alpha, int | float) and not isinstance(alpha, bool) and alpha > 0:
            c.set("lora_alpha", alpha, "lora_alpha")
    for key in ("lora_target_modules", "target_modules"):
        if d.get(key) is not None:
            t = lora_targets(d[key])
            if t:
                c.set("lora_targets", t, key)
    read_layers_to_transform(c, d)


def read_layers_to_transform(c: Collector, d: dict[str, Any]) -> None:
    """PEFT LoraConfig layers_to_transform (axolotl: peft_layers_to_transform): the decoder layer indices with
    adapters, an int or a list; kept aside until the model's layer count is known (importing.py: lora_layers when
    they are the top layers)."""
    for key in ("layers_to_transform", "peft_layers_to_transform"):
        value = d.get(key)
        if value is None:
            continue
        indices = [value] if isinstance(value, int) else value
        if isinstance(indices, list) and indices and all(type(i) is int and i >= 0 for i in indices):
            c.settings.append(("_lora_layer_indices", tuple(sorted(set(indices))), key, False))
            c.use(key)
        else:
            c.skip(key, message(QT_TRANSLATE_NOOP("engine", "expected layer indices, found {value!r}"), value=value))


def _read_hf_framework_options(c: Collector, d: dict[str, Any]) -> None:
    """Framework options (scenario keys of issue 11): compile, Liger, FSDP and the DeepSpeed file named."""
    if "torch_compile" in d:
        b = as_bool(d["torch_compile"])
        if b is not None:
            c.set("compile", b, "torch_compile")
    if as_bool(d.get("use_liger_kernel")):  # transformers applies every Liger kernel of the model's family
        c.set("cross_entropy", "fused-linear", "use_liger_kernel")
        c.set("liger_kernels", True, "use_liger_kernel")
    if "fsdp" in d and d["fsdp"]:
        read_hf_fsdp(c, d["fsdp"], "fsdp")
    if isinstance(d.get("deepspeed"), str) and d["deepspeed"]:
        c.references.append(("deepspeed", d["deepspeed"]))
        c.use("deepspeed")


def read_hf_fsdp(c: Collector, value: Any, src: str) -> None:
    """TrainingArguments.fsdp: "full_shard auto_wrap offload" or a list of those words."""
    words = value.split() if isinstance(value, str) else [str(v) for v in value] if isinstance(value, list) else []
    words = [w.lower() for w in words]
    if "full_shard" in words or "hybrid_shard" in words:
        c.set("fsdp", True, src)
    elif "shard_grad_op" in words:
        c.set("zero_stage", 2, src)
    if "offload" in words:
        c.set("offload", "optimizer+params", src)
    if not words:
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "unrecognised FSDP setting {value!r}"), value=value))


def set_vision_freezing(c: Collector, d: dict[str, Any], tower_key: str, projector_key: str) -> None:
    """A framework's freeze flags for a vision-language model's tower and its projector (merger / aligner): the
    engine's vision_tower trains the two together. Both flags default to frozen in LLaMA-Factory (00577a85
    src/llamafactory/hparams/finetuning_args.py freeze_vision_tower, freeze_multi_modal_projector) and ms-swift
    (815aa287 swift/llm/argument/tuner_args.py freeze_vit, freeze_aligner), as the engine's default does."""
    tower = as_bool(d[tower_key]) if tower_key in d else None
    projector = as_bool(d[projector_key]) if projector_key in d else None
    for key, value in ((tower_key, tower), (projector_key, projector)):
        if key in d and value is None:  # "maybe", 2, a list: said, not taken for the default (h-fuzz12)
            c.skip(key, not_a_switch(d[key]))
    if tower is False:
        c.set("vision_tower", "trained", tower_key)
    elif tower is True:
        c.set("vision_tower", "frozen", tower_key)
    if projector is False and tower is not False:
        c.skip(projector_key, message(QT_TRANSLATE_NOOP(
            "engine", "a projector trained beside a frozen vision tower is not modelled apart: both are counted frozen")))
    elif projector is not None:
        c.use(projector_key)
