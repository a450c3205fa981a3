"""Scenario checks that need the model's architecture (split from scenario.py to keep both readable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .architecture import ModelSpec
from .errors import ScenarioError
from .messages import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from .scenario import Scenario


def check_consistency(s: Scenario, spec: ModelSpec) -> None:
    """Checks that need the model: parallel layout, layer counts, LoRA target names."""
    shards = s.tp * s.pp * s.cp
    if s.world_size % shards:
        raise ScenarioError(
            "tp",
            QT_TRANSLATE_NOOP(
                "engine", "world size {world_size} (gpus_per_node x nodes) is not divisible by tp x pp x cp = {shards}."
            ),
            world_size=s.world_size,
            shards=shards,
        )
    if spec.heads % s.tp:
        raise ScenarioError(
            "tp",
            QT_TRANSLATE_NOOP("engine", "must divide the model's {heads} attention heads; {tp} does not."),
            heads=spec.heads,
            tp=s.tp,
        )
    if spec.kv_heads % s.tp and s.tp % spec.kv_heads:
        raise ScenarioError(
            "tp",
            QT_TRANSLATE_NOOP("engine", "{tp} and the model's {kv_heads} KV heads must divide one another."),
            tp=s.tp,
            kv_heads=spec.kv_heads,
        )
    if s.pp > spec.layers:
        raise ScenarioError(
            "pp", QT_TRANSLATE_NOOP("engine", "cannot exceed the model's {layers} layers."), layers=spec.layers
        )
    if s.vpp > 1 and s.pp_schedule != "interleaved-1f1b":
        raise ScenarioError(
            "vpp", QT_TRANSLATE_NOOP("engine", "more than one virtual stage per rank needs pp_schedule interleaved-1f1b.")
        )
    if s.pp * s.vpp > spec.layers:
        raise ScenarioError(
            "vpp",
            QT_TRANSLATE_NOOP("engine", "pp x vpp = {chunks} model chunks cannot exceed the model's {layers} layers."),
            chunks=s.pp * s.vpp,
            layers=spec.layers,
        )
    if s.ep > 1:
        if not spec.is_moe:
            raise ScenarioError("ep", QT_TRANSLATE_NOOP("engine", "expert parallelism needs a mixture-of-experts model."))
        if spec.n_experts % s.ep:
            raise ScenarioError(
                "ep",
                QT_TRANSLATE_NOOP("engine", "must divide the model's {n_experts} experts; {ep} does not."),
                n_experts=spec.n_experts,
                ep=s.ep,
            )
        if (s.dp * s.cp) % s.ep:
            raise ScenarioError(
                "ep",
                QT_TRANSLATE_NOOP("engine", "must divide the data-parallel ranks ({p}); {ep} does not."),
                p=s.dp * s.cp,
                ep=s.ep,
            )
    if s.cp > 1 and s.seq_len % s.cp:
        raise ScenarioError(
            "cp", QT_TRANSLATE_NOOP("engine", "must divide seq_len ({seq_len}); {cp} does not."), seq_len=s.seq_len, cp=s.cp
        )
    if s.fsdp and s.zero_stage not in (0, 3):
        raise ScenarioError(
            "fsdp",
            QT_TRANSLATE_NOOP("engine", "FSDP full sharding is ZeRO-3; it cannot be combined with zero_stage {zero_stage}."),
            zero_stage=s.zero_stage,
        )
    if s.offload != "none" and s.effective_zero == 0:
        raise ScenarioError(
            "offload",
            QT_TRANSLATE_NOOP("engine", "offloading needs ZeRO (stage 1 or more) or FSDP to move states to the CPU."),
        )
    if s.offload == "optimizer+params" and s.effective_zero != 3:
        raise ScenarioError("offload", QT_TRANSLATE_NOOP("engine", "offloading parameters needs ZeRO-3 or FSDP."))
    if s.frozen_layers > spec.layers:
        raise ScenarioError(
            "frozen_layers", QT_TRANSLATE_NOOP("engine", "cannot exceed the model's {layers} layers."), layers=spec.layers
        )
    if s.method in ("lora", "qlora"):
        known = lora_target_names(spec)
        if isinstance(s.lora_targets, tuple):
            bad = [t for t in s.lora_targets if t not in known]
            if bad:
                raise ScenarioError(
                    "lora_targets",
                    QT_TRANSLATE_NOOP(
                        "engine", '{bad!r} is not a linear layer of this model; choose from {p} or "all-linear".'
                    ),
                    bad=bad[0],
                    p=", ".join(known),
                )
    if s.optimizer_in_backward and s.grad_accum > 1:
        raise ScenarioError(
            "optimizer_in_backward",
            QT_TRANSLATE_NOOP("engine", "steps the optimizer during backward, so it cannot accumulate gradients over "
                              "{ga} micro-batches: set grad_accum to 1."),
            ga=s.grad_accum,
        )
    if s.optimizer_in_backward and s.offload != "none":
        raise ScenarioError(
            "optimizer_in_backward",
            QT_TRANSLATE_NOOP("engine", "cannot be combined with optimizer offloading to the CPU."),
        )
    if s.modules_to_save and s.method not in ("lora", "qlora"):
        raise ScenarioError(
            "modules_to_save",
            QT_TRANSLATE_NOOP("engine", "applies to LoRA and QLoRA only; the other methods already train these modules."),
        )


def lora_target_names(spec: ModelSpec) -> tuple[str, ...]:
    names = [lin.name for lin in spec.attention_linears()]
    if spec.linear_layers:  # hybrid models: the gated DeltaNet projections can be adapted too
        names += [lin.name for lin in spec.attention_linears(True)]
    names += [lin.name for lin in spec.mlp_linears(spec.ffn or spec.shared_ffn or 1)]
    return tuple(names)


def default_lora_targets(spec: ModelSpec) -> tuple[str, ...]:
    """The LoRA targets when a scenario names none: peft's per-architecture default
    (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: q_proj + v_proj; phi3: the fused qkv_proj)."""
    names = lora_target_names(spec)
    if "q_proj" in names and "v_proj" in names:
        return ("q_proj", "v_proj")
    return tuple(n for n in names if n in ("qkv_proj", "query_key_value", "c_attn", "Wqkv")) or names[:1]
