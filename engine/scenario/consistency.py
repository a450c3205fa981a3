"""Scenario checks that need the model's architecture (split from scenario.py to keep both readable)."""

from __future__ import annotations

from typing import Any

from ..errors import ConsistencyError, ScenarioError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from .choices import ADAPTER_METHODS
from .pipeline_ends import V_CHUNKS, V_SCHEDULES
from .posttraining_checks import check_posttraining
from .shard_group import check_shard_group


def parse_lora_targets(targets: Any) -> tuple[str, ...] | str:
    if targets in ("all-linear", "attention"):
        return targets
    if isinstance(targets, list) and targets and all(isinstance(t, str) and t for t in targets):
        return tuple(dict.fromkeys(targets))
    raise ScenarioError(
        "lora_targets",
        QT_TRANSLATE_NOOP("engine", 'must be "all-linear", "attention" or a non-empty list of module names.'),
    )


def check_consistency(s: Any, spec: ModelSpec) -> None:  # s: an engine.scenario.Scenario (which imports this)
    """Checks that need the model: parallel layout, layer counts, LoRA target names.

    Each message is one sentence in the words on screen (not the file's keys): the window shows it as it is.
    The groups run in this order, so a scenario breaking several rules is told the first one as before.
    """
    _check_tensor_and_pipeline_parallel(s, spec)
    _check_expert_and_context_parallel(s, spec)
    _check_sharding_and_offload(s)
    check_shard_group(s)
    _check_training_method(s, spec)
    _check_recompute_layers(s, spec)
    check_posttraining(s, spec)


def _check_tensor_and_pipeline_parallel(s: Any, spec: ModelSpec) -> None:
    """The GPUs divide into tensor x pipeline x context shards; heads and layers divide among them."""
    shards = s.tp * s.pp * s.cp
    if s.world_size % shards:
        if s.pp == 1 and s.cp == 1:
            raise ConsistencyError(
                "tp",
                QT_TRANSLATE_NOOP("engine", "Tensor-parallel size {tp} needs a number of GPUs divisible by {tp}; "
                                            "there are {world_size:,} (GPUs per node × nodes)."),
                tp=s.tp, world_size=s.world_size,
            )
        raise ConsistencyError(
            "tp",
            QT_TRANSLATE_NOOP(
                "engine", "Tensor-parallel × pipeline-parallel × context-parallel sizes ({tp} × {pp} × {cp} = {shards}) "
                          "need a number of GPUs divisible by {shards}; there are {world_size:,} (GPUs per node × nodes)."
            ),
            tp=s.tp, pp=s.pp, cp=s.cp, world_size=s.world_size, shards=shards,
        )
    if spec.heads % s.tp:
        raise ConsistencyError(
            "tp",
            QT_TRANSLATE_NOOP("engine", "Tensor-parallel size {tp} must divide the model's {heads} attention heads."),
            heads=spec.heads,
            tp=s.tp,
        )
    mamba = spec.mamba  # a hybrid stack's Mamba-2 mixer: Megatron-Core splits its heads and groups over tp in training
    if mamba is not None and s.workload != "inference" and (mamba.heads % s.tp or mamba.groups % s.tp):
        raise ConsistencyError(  # (mamba_mixer.py lines 262-271, as models/mamba2.py check_tp); the estimate raised it
            "tp",  # mid-way before, unnamed and after a file had loaded
            QT_TRANSLATE_NOOP("engine", "Tensor-parallel size {tp} must divide the model's {heads} Mamba heads and "
                                        "its {groups} Mamba groups."),
            tp=s.tp, heads=mamba.heads, groups=mamba.groups,
        )
    if spec.kv_heads % s.tp and s.tp % spec.kv_heads:
        raise ConsistencyError(
            "tp",
            QT_TRANSLATE_NOOP(
                "engine", "Tensor-parallel size {tp} and the model's {kv_heads} key/value heads must divide one another."
            ),
            tp=s.tp,
            kv_heads=spec.kv_heads,
        )
    if s.pp > spec.layers:
        raise ConsistencyError(
            "pp",
            QT_TRANSLATE_NOOP("engine", "Pipeline-parallel size {pp} cannot exceed the model's {layers} layers."),
            pp=s.pp, layers=spec.layers,
        )
    if s.pp > 1 and s.pp_schedule in V_SCHEDULES and s.vpp != V_CHUNKS:
        raise ScenarioError("vpp", QT_TRANSLATE_NOOP("engine", "pp_schedule zbv runs two model chunks per rank: vpp 2."))
    if s.vpp > 1 and s.pp_schedule not in ("interleaved-1f1b", *V_SCHEDULES):
        raise ScenarioError(
            "vpp", QT_TRANSLATE_NOOP("engine", "more than one virtual stage per rank needs pp_schedule interleaved-1f1b.")
        )
    if s.pp * s.vpp > _split_layers(s, spec.layers):
        raise ScenarioError(
            "vpp",
            QT_TRANSLATE_NOOP("engine", "pp x vpp = {chunks} model chunks cannot exceed the model's {layers} layers."),
            chunks=s.pp * s.vpp,
            layers=_split_layers(s, spec.layers),
        )


def _check_recompute_layers(s: Any, spec: ModelSpec) -> None:
    """Megatron refuses more recomputed layers than a model chunk builds (NVIDIA/Megatron-LM at d98e8a64
    megatron/core/transformer/transformer_config.py lines 1919-1925: 'recompute_num_layers must be between 1 and
    num_layers_per_pipeline_rank'); the largest chunk of an even split is the bound."""
    chunks = s.pp * s.vpp
    largest = -(-spec.layers // chunks)
    if s.checkpointing == "full" and s.recompute_num_layers > largest:
        raise ConsistencyError(
            "recompute_num_layers",
            QT_TRANSLATE_NOOP("engine", "Recompute layers ({n}) cannot exceed the {largest} decoder layers of one "
                                        "pipeline stage's model chunk ({layers} layers over {chunks} chunks)."),
            n=s.recompute_num_layers, largest=largest, layers=spec.layers, chunks=chunks,
        )


def split_counted_layers(s: Any, layers: int) -> int:
    """The decoder layers plus the embedding and/or the loss where the scenario asks Megatron to count each as one
    layer of the pipeline split (pipeline_split_accounts_for)."""
    return layers + ("embedding" in s.pipeline_split_accounts_for) + ("loss" in s.pipeline_split_accounts_for)


def _split_layers(s: Any, layers: int) -> int:
    """Layers the pipeline split divides: Megatron counts the embedding and/or the loss as one layer each when
    asked (megatron/core/transformer/transformer_block.py get_num_layers_to_build: (layers + 1 + 1) split evenly over
    pp x vpp chunks, the first chunk of the first rank building one decoder layer fewer), when that divides evenly
    (as engine/memory/parallelism/pipeline.py megatron_stage_layers splits it; otherwise the split is plain)."""
    counted = split_counted_layers(s, layers)
    return counted if s.pp > 1 and counted != layers and counted % (s.pp * s.vpp) == 0 else layers


def _check_expert_and_context_parallel(s: Any, spec: ModelSpec) -> None:
    """Experts divide among expert-parallel ranks, and those among data-parallel copies; tokens among CP ranks."""
    if s.ep > 1:
        if not spec.is_moe:
            raise ConsistencyError(
                "ep", QT_TRANSLATE_NOOP("engine", "Expert parallelism needs a mixture-of-experts model; "
                                                  "{model} has no experts."), model=spec.name)
        if spec.n_experts % s.ep:
            raise ConsistencyError(
                "ep",
                QT_TRANSLATE_NOOP("engine", "Expert-parallel size {ep} must divide the model's {n_experts} experts."),
                n_experts=spec.n_experts,
                ep=s.ep,
            )
        # Megatron's MoE parallel folding (megatron/core/parallel_state.py): ep x etp x expert-dp ranks are the
        # tp x cp x dp ranks of a stage; with etp = tp (every framework's layout) that is ep dividing dp x cp
        if (s.tp * s.dp * s.cp) % (s.ep * s.expert_tp):
            raise ConsistencyError(
                "ep",
                QT_TRANSLATE_NOOP("engine", "Expert-parallel size {ep} must divide the {p} data-parallel copies "
                                            "(GPUs ÷ tensor-parallel ÷ pipeline-parallel size)."),
                p=s.tp * s.dp * s.cp // s.expert_tp,
                ep=s.ep,
            )
    if spec.is_moe and s.ep == 1 and (s.tp * s.dp * s.cp) % s.expert_tp:
        # the same folding with one expert-parallel rank: Megatron's RankGenerator asserts that etp divides them
        raise ConsistencyError(
            "etp",
            QT_TRANSLATE_NOOP("engine", "Expert tensor-parallel size {etp} must divide the {p} GPUs of a pipeline "
                                        "stage (tensor-parallel × data-parallel × context-parallel size)."),
            etp=s.expert_tp, p=s.tp * s.dp * s.cp,
        )
    # post-training's sequences are a prompt and a completion, not seq_len (posttraining_checks.py)
    if s.packing != "none" and 0 < s.max_tokens_per_micro_batch < s.seq_len and s.training_objective == "sft":
        raise ConsistencyError(
            "max_tokens_per_micro_batch",
            QT_TRANSLATE_NOOP("engine", "Tokens per micro-batch ({tokens}) must hold at least one whole sequence "
                                        "({seq_len} tokens)."),
            tokens=s.max_tokens_per_micro_batch, seq_len=s.seq_len,
        )
    if s.cp > 1 and s.seq_len % s.cp:
        raise ConsistencyError(
            "cp",
            QT_TRANSLATE_NOOP("engine", "Context-parallel size {cp} must divide the sequence length ({seq_len} tokens)."),
            seq_len=s.seq_len, cp=s.cp,
        )


def _check_sharding_and_offload(s: Any) -> None:
    """FSDP is ZeRO-3; CPU offloading needs sharding (and ZeRO-3 or FSDP for the weights)."""
    if s.fsdp and s.zero_stage not in (0, 3):
        raise ConsistencyError(
            "fsdp",
            QT_TRANSLATE_NOOP("engine", "FSDP full sharding is ZeRO-3; it cannot be combined with ZeRO stage {zero_stage}."),
            zero_stage=s.zero_stage,
        )
    # Megatron's optimizer CPU offload runs under its distributed optimizer (megatron/core/optimizer/__init__.py
    # at d98e8a64 line 1057: the precision-aware optimizer it needs is "only supported with distributed optimizer")
    megatron_sharded = s.distributed_optimizer and defaults_for(s.framework).takes_megatron_arguments
    if s.offload != "none" and s.effective_zero == 0 and not (s.offload == "optimizer" and megatron_sharded):
        raise ConsistencyError(
            "offload",
            QT_TRANSLATE_NOOP("engine", "Offloading to the CPU needs sharding: ZeRO stage 1 or more, or FSDP."),
        )
    if s.offload == "optimizer+params" and s.effective_zero != 3:
        raise ConsistencyError(
            "offload", QT_TRANSLATE_NOOP("engine", "Offloading the weights to the CPU needs ZeRO-3 or FSDP.")
        )


def _check_training_method(s: Any, spec: ModelSpec) -> None:
    """Frozen layers, LoRA targets, optimizer-in-backward and modules_to_save fit the method and the model."""
    if s.frozen_layers > spec.layers:
        raise ConsistencyError(
            "frozen_layers",
            QT_TRANSLATE_NOOP("engine", "Frozen layers ({frozen}) cannot exceed the model's {layers} layers."),
            frozen=s.frozen_layers, layers=spec.layers,
        )
    if s.lora_layers > spec.layers:
        raise ConsistencyError(
            "lora_layers",
            QT_TRANSLATE_NOOP("engine", "LoRA layers ({adapted}) cannot exceed the model's {layers} layers."),
            adapted=s.lora_layers, layers=spec.layers,
        )
    if s.method in ADAPTER_METHODS:
        known = lora_target_names(spec)
        if isinstance(s.lora_targets, tuple):
            bad = [t for t in s.lora_targets if t not in known]
            if bad:
                raise ConsistencyError(
                    "lora_targets",
                    QT_TRANSLATE_NOOP(
                        "engine", 'Adapted layers: {bad!r} is not a linear layer of this model; choose from {p}, '
                                  'or all linear layers ("all-linear").'
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
    if s.modules_to_save and s.method not in ADAPTER_METHODS:
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
