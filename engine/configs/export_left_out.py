"""What a launch-config export leaves out of the plan: the settings a format has no place for, said in one sentence
beside the export (the CLI's `export-config`, the window's export), so that a plan made for one framework and
written for another (NeMo-RL's async engine into verl's command) does not lose settings silently (user audit 7).

A setting is left out when it is a launch setting (a key some format writes, CARRIED, or the framework and
NeMo-RL's async vLLM engine, which no format writes), the plan sets it away from the key's default, this format
does not carry it, and reading the written file back does not give it back either (verl writes the gradient
accumulation into its batch sizes, and its importer reads it back; verl's own FSDP actor needs no fsdp key)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..posttraining.estimate import step_sequences
from ..scenario import Scenario, resolve_model, scenario_from_dict
from ..scenario.format import KEY_SPECS
from ..scenario.key_words import describe_changes
from .exporting import CARRIED, FILE_NAMES, export_config
from .importing import import_texts
from .verl_batch import step_left_out

# settings of a launch that no export format writes (each is a framework's own switch)
_UNWRITTEN_LAUNCH_KEYS = ("framework", "rollout_async_engine")
LAUNCH_KEYS: frozenset[str] = frozenset().union(*CARRIED.values(), _UNWRITTEN_LAUNCH_KEYS)


def left_out_settings(s: Scenario, fmt: str) -> dict[str, Any]:
    """The plan's launch settings the `fmt` export does not carry, key -> the plan's value (file form), in the
    scenario format's key order; {} when nothing is lost."""
    candidates = [k for k in KEY_SPECS if k in LAUNCH_KEYS and k not in CARRIED[fmt]]
    mine = s.to_dict()
    candidates = [k for k in candidates if mine[k] != KEY_SPECS[k].default]
    if not candidates:
        return {}
    # "auto" is the framework's own choice, which the framework makes again from any file
    candidates = [k for k in candidates if mine[k] != "auto"]
    if not candidates:
        return {}
    back = import_texts([(FILE_NAMES[fmt], export_config(s, fmt))]).scenario
    lost = {k: mine[k] for k in candidates if back.get(k, KEY_SPECS[k].default) != mine[k]}
    if lost.get("zero_stage") == 1 and back.get("distributed_optimizer") and not s.fsdp:
        # Megatron's --use-distributed-optimizer reads back as distributed_optimizer: the same ZeRO-1
        # (Scenario.effective_zero), carried
        del lost["zero_stage"]
    if "model" in lost and "model" in back and _same_architecture(s, back["model"]):
        # a format that writes the model's shapes (Megatron's --num-layers, --hidden-size, ...) carries the model,
        # though it reads back as a custom model of those shapes rather than the preset's id
        del lost["model"]
    return lost


def _same_architecture(s: Scenario, model_back: Any) -> bool:
    """Whether the model read back from the file has the plan's shapes (the fields that size memory and time)."""
    try:
        back = resolve_model(scenario_from_dict({**s.to_dict(), "model": model_back}))
    except (ValueError, TypeError, KeyError):
        return False
    mine = resolve_model(s)
    return all(getattr(back, f) == getattr(mine, f) for f in _SHAPE_FIELDS)


_SHAPE_FIELDS = ("hidden", "layers", "heads", "kv_heads", "head_dim", "ffn", "vocab", "tied_embeddings", "n_experts",
                 "top_k", "expert_ffn", "shared_ffn")


def left_out_sentence(s: Scenario, fmt: str, tr_fields: Any = None) -> Message | None:
    """One sentence naming the settings the export leaves out, in the set-up's words ("Framework: NeMo-RL, Engine
    as vLLM's AsyncLLM (async_engine): on"); tr_fields translates those words ("Fields"); for verl a second where the
    step is no whole number of prompts (verl_batch.py step_left_out: its batch sizes left to verl's defaults, which
    the settings' round trip does not see, since verl carries micro_batch and grad_accum). None: nothing left out."""
    lost = left_out_settings(s, fmt)
    step = step_left_out(step_sequences(s), s.num_generations) if fmt == "verl" else None
    if not lost:
        return step
    words = describe_changes(lost, tr_fields) if tr_fields is not None else describe_changes(lost)
    settings = message(QT_TRANSLATE_NOOP("engine", "Not in this {fmt} file (it has no setting for them; set them by "
                                                   "hand or in the framework's own config): {settings}."),
                       fmt=fmt, settings=words)
    return settings if step is None else message(QT_TRANSLATE_NOOP("engine", "{settings} {step}"),
                                                 settings=settings, step=step)
