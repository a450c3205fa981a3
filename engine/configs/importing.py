"""One or more config files of one job -> one scenario, with every setting accounted for."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import PlannerError, ScenarioError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import DEFAULTS, resolve_model, scenario_from_dict
from ..scenario.choices import ADAPTER_METHODS
from . import (
    accelerate,
    axolotl,
    deepspeed,
    hf,
    llamafactory,
    megatron,
    mlx_lm,
    openrlhf,
    swift,
    torchtitan,
    torchtune,
    trl,
    verl,
)
from .common import NO_MEMORY_WHY as _NO_MEMORY_WHY
from .common import shown_value, why_not_read
from .deepspeed_merged import deepspeed_mixed_precision, resolve_auto_buckets
from .hardware import HARDWARE_COUNTS, counts_for_import, layout_gpus
from .reading import ConfigFileError, decode, flatten, parse_json, parse_toml, parse_yaml, read_text, refusing_wrong_types
from .references import follow_references
from .result import Assumed, Collector, ImportResult, Mapped, Unmapped, as_message
from .swift_config import read_swift
from .swift_megatron import is_swift_megatron

FORMATS = ("huggingface", "deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory", "ms-swift", "torchtitan",
           "megatron", "verl", "trl", "openrlhf", "mlx-lm")
MAX_FILES = 16
# which framework wins when files of one job name different ones (a DeepSpeed JSON under an HF Trainer job)
_FRAMEWORK_RANK = {"huggingface": 0, "unsloth": 1, "deepspeed": 2}
_CORE_KEYS = (
    "gpus_per_node",
    "method",
    "precision",
    "optimizer",
    "micro_batch",
    "seq_len",
    "grad_accum",
    "checkpointing",
    "attention",
)
_PLACEHOLDER_MODEL = "llama-3-8b"  # validates the other keys when no model matched (never returned)


def detect(name: str, text: str) -> tuple[str, Any]:
    """(format, parsed data) of one file; a launch script's data is its text."""
    suffix = Path(name).suffix.lower()
    if suffix == ".toml":
        data = parse_toml(name, text)
        if torchtitan.is_torchtitan(data):
            return "torchtitan", data
        raise _unknown(name)
    if suffix in (".sh", ".bash", ".slurm", ".sbatch", "") or text.lstrip().startswith("#!"):
        if verl.is_verl_script(text):
            return "verl", text
        if is_swift_megatron(text):
            return "ms-swift", text
        if megatron.is_megatron_script(text):
            return "megatron", text
        if swift.is_swift_script(text):
            return "ms-swift", text
        if openrlhf.is_openrlhf_script(text):
            return "openrlhf", text
        if trl.is_trl_script(text):
            return "trl", text
        if suffix in (".sh", ".bash", ".slurm", ".sbatch"):
            raise _unknown(name)
    data = parse_json(name, text) if suffix == ".json" else parse_yaml(name, text)
    if not isinstance(data, dict):
        raise ConfigFileError(
            QT_TRANSLATE_NOOP("engine", "{name} does not hold a set of named settings, so it is not a training config."),
            name=name,
        )
    for fmt, test in (
        ("deepspeed", deepspeed.is_deepspeed),
        ("accelerate", accelerate.is_accelerate),
        ("torchtune", torchtune.is_torchtune),
        ("torchtitan", torchtitan.is_torchtitan),
        ("axolotl", axolotl.is_axolotl),
        ("llama-factory", llamafactory.is_llamafactory),
        ("ms-swift", _is_swift_args),
        ("verl", verl.is_verl_yaml),
        ("trl", lambda d: trl.is_trl_rl(d, text)),
        ("mlx-lm", mlx_lm.is_mlx_lm),
        ("huggingface", hf.is_hf),
    ):
        if test(data):
            return fmt, data
    if "schema_version" in data and "model" in data:  # the planner's own scenario file (engine/scenario/format.py)
        # imported by mistake, it was refused as "not a training config the planner knows" (user audit 7)
        raise ConfigFileError(QT_TRANSLATE_NOOP(
            "engine", "{name} is a scenario of this planner, not a training config: open it instead (File > Open a "
            "scenario file in the window; `estimate {name}` on the command line)."), name=name)
    raise _unknown(name)


def _is_swift_args(d: Any) -> bool:
    return isinstance(d, dict) and ("tuner_type" in d or "train_type" in d or is_swift_megatron(d)) and "model" in d


def _unknown(name: str) -> ConfigFileError:
    return ConfigFileError(
        QT_TRANSLATE_NOOP(
            "engine",
            "{name} is not a training config the planner knows (DeepSpeed, accelerate, "
            "TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan, verl, OpenRLHF, "
            "mlx-lm or a Megatron-LM script).",
        ),
        name=name,
    )


def _read_one(name: str, text: str) -> Collector:
    fmt, data = detect(name, text)
    c = Collector(name, fmt)
    with refusing_wrong_types(name):
        if fmt == "megatron":
            megatron.read(c, data)
        elif fmt == "verl":
            verl.read(c, data) if isinstance(data, str) else verl.read_yaml(c, data)
        elif fmt == "trl":
            trl.read_script(c, data) if isinstance(data, str) else trl.read(c, data, text)
        elif fmt == "openrlhf":
            openrlhf.read(c, data)
        elif fmt == "ms-swift":
            read_swift(c, data)
        elif fmt == "torchtune":
            torchtune.read(c, data, text)  # the usage comment names the recipe
        elif fmt == "torchtitan":
            torchtitan.read(c, data, text)  # a launch comment gives the world
        else:
            {
                "deepspeed": deepspeed.read,
                "accelerate": accelerate.read,
                "axolotl": axolotl.read,
                "llama-factory": llamafactory.read,
                "mlx-lm": mlx_lm.read,
                "huggingface": hf.read,
            }[fmt](c, data)
    if not c.flat and isinstance(data, dict):
        c.flat = flatten(data)
    return c


def import_texts(files: Sequence[tuple[str, str | bytes]], base_dir: Path | None = None) -> ImportResult:
    """Import (file name, contents) pairs describing one job."""
    if not files:
        raise ConfigFileError(QT_TRANSLATE_NOOP("engine", "No file to import."))
    if len(files) > MAX_FILES:
        raise ConfigFileError(
            QT_TRANSLATE_NOOP("engine", "At most {n} files make one job; {m} were given."), n=MAX_FILES, m=len(files)
        )
    collectors = []
    for name, content in files:
        text = decode(name, content) if isinstance(content, bytes) else content
        collectors.append(_read_one(name, text))
    follow_references(collectors, base_dir, _read_one)
    return _merge(collectors)


def import_files(paths: Sequence[str | Path]) -> ImportResult:
    files = [read_text(p) for p in paths]
    base = Path(paths[0]).resolve().parent if paths else None
    return import_texts(files, base)


# key -> (value, "file: src", assumed?)
Chosen = dict[str, tuple[Any, str, bool]]


def _merge(collectors: list[Collector]) -> ImportResult:
    chosen, mapped, unmapped, assumed, markers = _collect_settings(collectors)
    # a GPU count no file states is never imported: the set-up's stays (engine/configs/hardware.py)
    values = {k: v[0] for k, v in chosen.items() if not (k in HARDWARE_COUNTS and v[2])}
    extra_assumed = deepspeed_mixed_precision(values, markers)
    _list_unmodelled_keys(values, chosen, unmapped)
    scenario, dropped = validated(values)
    for key, why in dropped:
        unmapped.append(Unmapped(chosen[key][1] if key in chosen else key, why))
    resolve_auto_buckets(scenario, markers, extra_assumed)
    if "_freeze_trainable" in markers and scenario.get("method") == "freeze":
        _apply_freeze(scenario, markers["_freeze_trainable"], extra_assumed, unmapped)
    if "_lora_layer_indices" in markers and scenario.get("method") in ADAPTER_METHODS:
        _apply_lora_layers(scenario, markers["_lora_layer_indices"], extra_assumed, unmapped)
    if "model" not in scenario:
        unmapped.append(
            Unmapped("model", message(QT_TRANSLATE_NOOP("engine", "no model preset matched; pick the model in the planner")))
        )
    extra_assumed.append(
        (
            "gpu",
            DEFAULTS["gpu"][0],
            message(QT_TRANSLATE_NOOP("engine", "training configs do not name the GPU; choose it in the planner")),
        )
    )
    said = {a[0] for a in assumed}
    layout_counts, raised = counts_for_import(scenario, {})
    for key in _CORE_KEYS:
        if key in HARDWARE_COUNTS and key not in scenario and key in said:
            continue  # the file's own assumption about the GPU count says more than the generic one
        if key in HARDWARE_COUNTS and key not in scenario and raised:  # the default 1 cannot hold the layout
            extra_assumed.append((key, layout_counts[key], message(_LAYOUT_COUNT)))
        elif key not in scenario:
            extra_assumed.append(
                (key, DEFAULTS[key][0], message(QT_TRANSLATE_NOOP("engine", "not in the files: the planner's default")))
            )
    out_assumed = _shown_assumptions(assumed + extra_assumed, scenario)
    # a value read but superseded (a conflict, a lower-ranked framework) is listed once, under "not used"
    final_sources = {k for k in scenario for m in mapped if m.key == k and m.value == scenario[k]}
    mapped = [m for m in mapped if m.key in scenario and (m.key not in final_sources or m.value == scenario[m.key])]
    # a value read and then changed by a rule of the merged files (DeepSpeed makes --bf16's amp-bf16 mixed-bf16) reads
    # as the value it became, the rule under "assumed": the review listed "precision amp-bf16 <- bf16" and "precision
    # mixed-bf16" beside each other (user audit 15)
    ruled = {key for key, _value, _why in extra_assumed}
    mapped = [dataclasses.replace(m, value=scenario[m.key]) if m.key in ruled and m.key not in final_sources else m
              for m in mapped]
    unmapped.sort(key=lambda u: u.why == _NO_MEMORY_WHY)  # what matters for memory first
    return ImportResult(scenario, tuple(mapped), tuple(unmapped), tuple(out_assumed), tuple(c.fmt for c in collectors))


_LAYOUT_COUNT = QT_TRANSLATE_NOOP("engine", "not in the files: the least the files' parallel layout needs")


def _collect_settings(
    collectors: list[Collector],
) -> tuple[Chosen, list[Mapped], list[Unmapped], list[tuple[str, Any, Message]], dict[str, Any]]:
    """Every file's settings in order: the value each key takes (the first file's, or the higher-ranked framework),
    conflicts and unread keys listed, assumptions kept aside, markers ("_deepspeed", ...) gathered."""
    chosen: Chosen = {}
    mapped: list[Mapped] = []
    unmapped: list[Unmapped] = []
    assumed: list[tuple[str, Any, Message]] = []
    markers: dict[str, Any] = {}
    for c in collectors:
        for i, (key, value, src, is_assumed) in enumerate(c.settings):
            where = f"{c.file}: {src}" if src else c.file
            if key.startswith("_"):
                markers.setdefault(key, value)
                continue
            if is_assumed:
                assumed.append((key, value, c.assumed_why.get(i, as_message(""))))
                chosen.setdefault(key, (value, where, True))
                continue
            mapped.append(Mapped(key, value, where))
            prev = chosen.get(key)
            if key == "framework" and prev is not None and not prev[2]:
                if _FRAMEWORK_RANK.get(value, 3) > _FRAMEWORK_RANK.get(prev[0], 3):
                    chosen[key] = (value, where, False)
                continue
            if prev is None or prev[2]:
                chosen[key] = (value, where, False)
            elif prev[0] != value:
                unmapped.append(
                    Unmapped(
                        where,
                        message(
                            QT_TRANSLATE_NOOP("engine", "says {key} = {value!r} but {other} says {kept!r}; kept {kept!r}"),
                            key=key,
                            value=value,
                            other=prev[1],
                            kept=prev[0],
                        ),
                    )
                )
        for k in c.flat:
            if k not in c.consumed:
                unmapped.append(Unmapped(f"{c.file}: {k}", why_not_read(k)))
        unmapped.extend(c.unmapped)
    return chosen, mapped, unmapped, assumed, markers


def _list_unmodelled_keys(values: dict[str, Any], chosen: Chosen, unmapped: list[Unmapped]) -> None:
    # framework keys the scenario does not have yet (issue 11 / issue 10): listed, not dropped silently
    for key in list(values):
        if key not in DEFAULTS:
            value = values.pop(key)
            unmapped.append(
                Unmapped(
                    chosen[key][1],
                    message(
                        QT_TRANSLATE_NOOP(
                            "engine", "{key} = {value!r}: not modelled yet (the planner has no '{key}' setting)"
                        ),
                        key=key,
                        value=value,
                    ),
                )
            )


def _shown_assumptions(assumptions: list[tuple[str, Any, Message]], scenario: dict[str, Any]) -> list[Assumed]:
    # an assumption shows only where it is what the scenario holds (a later rule may have replaced it)
    kept = [a for a in assumptions if a[0] not in scenario or scenario[a[0]] == a[1]]
    seen: set[tuple[str, str]] = set()
    out_assumed = []
    for key, value, why in kept:
        if (key, why) not in seen:
            seen.add((key, why))
            out_assumed.append(Assumed(key, value, why))
    return out_assumed


def _is_set(chosen: dict[str, tuple[Any, str, bool]], key: str) -> bool:
    return key in chosen and not chosen[key][2]


def _probe(data: dict[str, Any]) -> dict[str, Any]:
    """The imported keys as a scenario to check: a placeholder model where none matched, and the set-up's GPUs, at
    least as many as the layout needs, where the files gave none."""
    probe = data if "model" in data else {**data, "model": _PLACEHOLDER_MODEL}
    if not any(k in data for k in HARDWARE_COUNTS):
        probe = {**probe, "gpus_per_node": layout_gpus(data)}
    elif "nodes" not in data:
        probe = {**probe, "nodes": counts_for_import(data, {})[0]["nodes"]}
    return probe


def _refusal(data: dict[str, Any]) -> ScenarioError | None:
    try:
        scenario_from_dict(_probe(data))
    except ScenarioError as exc:
        return exc
    return None


def _culprit(data: dict[str, Any], exc: ScenarioError) -> str | None:
    """The one key of the file whose removal answers an error that names a key the file does not set (a generation
    engine "on GPUs of its own" without their count: rollout_placement, not rollout_gpus): the keys the sentence
    names first, then those of the named key's family (rollout_*), then the file's order. Each key was dropped in
    turn, unrelated ones too, until the error went (user audit 13: 11 keys of a TRL server-mode config); None where
    no single key answers it."""
    said, family = str(exc.detail), f"{(exc.key or '').split('_')[0]}_"
    keys = sorted((k for k in data if k != "model"), key=lambda k: (k not in said, not k.startswith(family)))
    for key in keys:
        left = _refusal({k: v for k, v in data.items() if k != key})
        if left is None or (left.key, str(left.detail)) != (exc.key, said):
            return key
    return None


def validated(values: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Message]]]:
    """Drop the keys the scenario rejects, one at a time, with the planner's own sentence: the key the error names,
    or where the file does not set it the one key whose removal answers it (_culprit); every other key is kept."""
    data = dict(values)
    dropped: list[tuple[str, Message]] = []
    for _ in range(len(DEFAULTS) + 1):
        exc = _refusal(data)
        if exc is None:
            return data, dropped
        # no single key answers it: the file's keys in turn, until one does (the scenario must validate)
        key = exc.key if exc.key in data else _culprit(data, exc) or next((k for k in data if k != "model"), None)
        if key is None or key == "scenario":
            key = "model" if "model" in data else None
        if key is None:
            return data, dropped
        dropped.append((key, message(QT_TRANSLATE_NOOP("engine", "{key} = {value} rejected: {why}"), key=key,
                                     value=shown_value(data.pop(key)), why=exc.detail)))
    return data, dropped


def _apply_freeze(scenario: dict[str, Any], trainable: int, assumed: list, unmapped: list[Unmapped]) -> None:
    try:
        layers = resolve_model(scenario_from_dict(scenario)).layers
    except PlannerError:
        return
    n = abs(trainable)
    if n >= layers:
        unmapped.append(
            Unmapped(
                "freeze_trainable_layers",
                message(QT_TRANSLATE_NOOP("engine", "{n} trainable layers of {layers}: nothing frozen"), n=n, layers=layers),
            )
        )
        return
    scenario["frozen_layers"] = layers - n
    scenario["freeze_from"] = "bottom" if trainable > 0 else "top"
    assumed.append(
        (
            "frozen_layers",
            layers - n,
            message(QT_TRANSLATE_NOOP("engine", "{n} trainable layers of the model's {layers}"), n=n, layers=layers),
        )
    )


def _apply_lora_layers(scenario: dict[str, Any], indices: tuple[int, ...], assumed: list,
                       unmapped: list[Unmapped]) -> None:
    """PEFT's layers_to_transform as lora_layers: the adapted layers must be the model's top ones (as mlx-lm's
    --num-layers takes them), whose backward stops below the lowest; other sets are listed as not modelled."""
    try:
        layers = resolve_model(scenario_from_dict(scenario)).layers
    except PlannerError:
        return
    n = len(indices)
    if indices == tuple(range(layers - n, layers)):
        scenario["lora_layers"] = 0 if n == layers else n
        assumed.append(("lora_layers", scenario["lora_layers"], message(QT_TRANSLATE_NOOP(
            "engine", "adapters on the top {n} of the model's {layers} layers (layers_to_transform)"),
            n=n, layers=layers)))
        return
    unmapped.append(Unmapped("layers_to_transform", message(QT_TRANSLATE_NOOP(
        "engine", "adapters on layers {indices} of {layers}: only the top layers can be stated (lora_layers)"),
        indices=", ".join(str(i) for i in indices), layers=layers)))
