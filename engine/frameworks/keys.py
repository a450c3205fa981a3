"""Scenario keys of the frameworks (issue 11): their defaults and meanings, and how they are validated.

scenario.py splices FRAMEWORK_KEYS into its DEFAULTS table (the one documented list of keys) and calls
parse_framework_keys() while it builds a Scenario.
"""

from __future__ import annotations

from typing import Any

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from .defaults import CROSS_ENTROPIES, FRAMEWORKS
from .megatron_layer import RECOMPUTE_MODULES

MODULES_TO_SAVE = ("embed_tokens", "lm_head")

FRAMEWORK_KEYS: dict[str, tuple[Any, str]] = {
    "lora_dropout": (0.0, "LoRA dropout probability (peft lora_dropout): above 0 each adapter keeps its dropped input "
                     "and mask"),
    "framework": ("huggingface", " | ".join(FRAMEWORKS) + " (sets the defaults below as that framework's current "
                  "release does; huggingface covers Trainer, TRL, accelerate, axolotl, LLaMA-Factory, ms-swift)"),
    "cross_entropy": ("auto", " | ".join(CROSS_ENTROPIES) + " (auto: the framework's loss; standard: fp32 logits of "
                      "the whole batch; chunked: logits per chunk; fused: one kernel over the logits in their own "
                      "dtype, as flash-attn's (llm-foundry's default); te: Transformer Engine's parallel cross-entropy, "
                      "one kernel that writes the fp32 gradient in forward (Megatron cross_entropy_fusion_impl te); "
                      "fused-linear: lm_head fused with the loss, "
                      "logits never materialised, as Liger/Unsloth/Cut-Cross-Entropy)"),
    "compile": (False, "torch.compile the model (fused elementwise ops save fewer intermediates)"),
    "liger_kernels": (False, "Liger-Kernel's RMSNorm, SwiGLU and RoPE patched into the model (transformers "
                      "use_liger_kernel, NeMo AutoModel's default, LLaMA-Factory enable_liger_kernel, axolotl "
                      "liger_rms_norm): a norm keeps only its input, the MLP only its gate and up outputs"),
    "activation_offload": (False, "move saved activations to CPU memory during the forward pass (torchtune)"),
    "optimizer_in_backward": (False, "step each parameter as soon as its gradient is ready (torchtune "
                              "optimizer_in_bwd): no full set of gradients; needs grad_accum 1"),
    "modules_to_save": ([], 'peft modules_to_save: fully trained copies of "embed_tokens" and/or "lm_head" '
                        "(lora / qlora)"),
    "expandable_segments": ("auto", 'true | false | "auto" (the framework\'s launcher setting): '
                            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"),
    "reduce_bucket_size": (500_000_000, "DeepSpeed ZeRO-1/2 gradient reduce bucket, elements"),
    "allgather_bucket_size": (500_000_000, "DeepSpeed ZeRO-1/2 parameter all-gather bucket, elements"),
    "stage3_max_live_parameters": (1_000_000_000, "DeepSpeed ZeRO-3: most gathered parameters alive at once"),
    "stage3_prefetch_bucket_size": (50_000_000, "DeepSpeed ZeRO-3: parameters gathered ahead of use, elements"),
    "distributed_optimizer": (False, "Megatron --use-distributed-optimizer: fp32 master weights and optimizer "
                              "states sharded over data-parallel ranks"),
    "main_grads_fp32": ("auto", 'true | false | "auto" (Megatron: true): gradients accumulated in an fp32 buffer'),
    "recompute_modules": (["core_attn"], 'Megatron recompute_modules: what checkpointing "selective" rebuilds in '
                          "backward under the megatron framework, any of " + ", ".join(RECOMPUTE_MODULES)
                          + " (Megatron's default: the attention core)"),
    "activation_offload_layers": (0, "Megatron cpu_offloading_num_layers: decoder layers whose saved activations "
                                  "Transformer Engine's CPU offload moves to CPU memory (the others stay on the GPU)"),
    "pipeline_split_accounts_for": ([], 'Megatron account_for_embedding_in_pipeline_split / '
                                    'account_for_loss_in_pipeline_split: "embedding" and/or "loss" count as one layer '
                                    "each when the layers are split over pipeline stages (the first/last stage builds "
                                    "one decoder layer fewer)"),
    "host_memory_bytes": (None, "CPU memory of one node in bytes, checked against what offloading and loading "
                          "need (null: not checked)"),
}

_CHOICES = {"framework": FRAMEWORKS, "cross_entropy": CROSS_ENTROPIES}
_BOOLS = ("compile", "liger_kernels", "activation_offload", "optimizer_in_backward", "distributed_optimizer")
_AUTO_BOOLS = ("expandable_segments", "main_grads_fp32")
_ELEMENT_COUNTS = ("reduce_bucket_size", "allgather_bucket_size", "stage3_max_live_parameters",
                   "stage3_prefetch_bucket_size", "host_memory_bytes")


def _count(key: str, value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a whole number of at least 1, not {p!r}."),
                            p=value)
    return value


def parse_auto_bools(data: dict[str, Any], kw: dict[str, Any], keys: tuple[str, ...]) -> None:
    """true / false / "auto" keys ("auto": the framework's default), present in `data`: checked and copied."""
    for key in keys:
        if key in data:
            if data[key] != "auto" and not isinstance(data[key], bool):
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", 'must be true, false or "auto", not {p!r}.'),
                                    p=data[key])
            kw[key] = data[key]


def parse_choices_and_bools(data: dict[str, Any], kw: dict[str, Any], choices: dict[str, tuple[str, ...]],
                            bools: tuple[str, ...]) -> None:
    """Keys with a fixed set of words and true/false keys, present in `data`: checked and copied into `kw`."""
    for key, allowed in choices.items():
        if key in data:
            if data[key] not in allowed:
                raise ScenarioError(
                    key, QT_TRANSLATE_NOOP("engine", "must be one of {p}; got {p2!r}."), p=", ".join(allowed), p2=data[key]
                )
            kw[key] = data[key]
    for key in bools:
        if key in data:
            if not isinstance(data[key], bool):
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be true or false, not {p!r}."), p=data[key])
            kw[key] = data[key]


def parse_framework_keys(data: dict[str, Any], kw: dict[str, Any]) -> None:
    """Validate the framework keys present in `data` and put their engine form in `kw`."""
    if "lora_dropout" in data:
        p = data["lora_dropout"]
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p < 1:
            raise ScenarioError("lora_dropout", QT_TRANSLATE_NOOP("engine", "must be a probability from 0 to 0.99, "
                                                                           "not {p!r}."), p=p)
        kw["lora_dropout"] = float(p)
    parse_choices_and_bools(data, kw, _CHOICES, _BOOLS)
    parse_auto_bools(data, kw, _AUTO_BOOLS)
    for key in _ELEMENT_COUNTS:
        if key in data:
            if key == "host_memory_bytes" and data[key] is None:
                continue
            kw[key] = _count(key, data[key])
    if "recompute_modules" in data:
        modules = data["recompute_modules"]
        if not isinstance(modules, list) or not all(m in RECOMPUTE_MODULES for m in modules):
            raise ScenarioError("recompute_modules", QT_TRANSLATE_NOOP("engine", "must be a list naming {p}; got {p2!r}."),
                                p=", ".join(RECOMPUTE_MODULES), p2=modules)
        kw["recompute_modules"] = tuple(dict.fromkeys(modules))
    if "pipeline_split_accounts_for" in data:
        parts = data["pipeline_split_accounts_for"]
        if not isinstance(parts, list) or not all(m in ("embedding", "loss") for m in parts):
            raise ScenarioError("pipeline_split_accounts_for", QT_TRANSLATE_NOOP(
                "engine", "must be a list naming {p}; got {p2!r}."), p="embedding and/or loss", p2=parts)
        kw["pipeline_split_accounts_for"] = tuple(dict.fromkeys(parts))
    if "activation_offload_layers" in data:
        n = data["activation_offload_layers"]
        kw["activation_offload_layers"] = 0 if n == 0 and not isinstance(n, bool) else _count("activation_offload_layers", n)
    if "modules_to_save" in data:
        modules = data["modules_to_save"]
        if not isinstance(modules, list) or not all(m in MODULES_TO_SAVE for m in modules):
            raise ScenarioError(
                "modules_to_save",
                QT_TRANSLATE_NOOP("engine", "must be a list naming {p}; got {p2!r}."),
                p=" and/or ".join(MODULES_TO_SAVE),
                p2=modules,
            )
        kw["modules_to_save"] = tuple(dict.fromkeys(modules))
