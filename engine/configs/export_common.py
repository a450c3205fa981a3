"""What every launch-config writer shares: the header naming the planner and the scenario, the YAML dump, the
model's name as the framework knows it, the 16-bit format, LoRA target names, and the error of a scenario a format
cannot express."""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, one_line
from ..scenario import CustomModel, Scenario
from .models import hub_repo


class ExportError(PlannerError):
    """A scenario that the chosen format cannot express; str() is one sentence."""


def header(s: Scenario, fmt: str, comment: str = "#") -> str:
    """The comment lines opening an export. The name is the user's text, so it is made one printable line: a line
    break of any kind (YAML also ends lines at U+0085, U+2028, U+2029) would end the comment and turn the rest of
    the name into shell commands or config keys; a lone surrogate could not even be written as UTF-8."""
    return (
        f'{comment} Written by LLM Memory Planner ({fmt} launch settings) for the scenario "{one_line(s.name)}".\n'
        f"{comment} Only the settings the plan decides are here; merge them into your own config.\n"
    )


def model_name(s: Scenario) -> str:
    if isinstance(s.model, CustomModel):
        return s.model.name
    return hub_repo(s.model) or s.model


def half_precision(s: Scenario) -> str | None:
    """The 16-bit format of s's training, None for fp32. An fp8 or NVFP4 run keeps its weights and everything outside
    the low-precision GEMMs in bf16 (Megatron's --bf16 beside --fp8-format / --fp4-format, export_native.py; the
    memory model's mixed-bf16 bytes), so a config without fp8 / fp4 settings states bf16, not fp32."""
    if s.precision in ("fp8", "nvfp4"):
        return "bf16"
    return "bf16" if "bf16" in s.precision else "fp16" if "fp16" in s.precision else None


class OneLineDumper(yaml.SafeDumper):
    """safe_dump, but every value stays on its own line: text holding a line break or another non-printable
    character is written double-quoted, where it is escaped (PyYAML would write it across lines, and writes NEL,
    LS and PS raw even there, which a reader folds into spaces or line breaks)."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=None if text.isprintable() else '"')


OneLineDumper.add_representer(str, _represent_text)


def _all_printable(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_all_printable(k) and _all_printable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_all_printable(v) for v in value)
    return not isinstance(value, str) or value.isprintable()


def yaml_config(s: Scenario, fmt: str, data: dict[str, Any], dumper: type[OneLineDumper] = OneLineDumper) -> str:
    # dumper: OneLineDumper or a subclass resolving scalars as the framework's own loader does (export_mlx_lm.py).
    # Non-ASCII text is written as itself (a Chinese model name stays readable) unless some text holds characters
    # that must be escaped: PyYAML only escapes NEL, LS and PS when it escapes all non-ASCII.
    text = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=_all_printable(data),
                     width=float("inf"))
    return header(s, fmt) + text


def lora_target_list(s: Scenario) -> list[str]:
    if s.lora_targets == "all-linear":
        return ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    if s.lora_targets == "attention":
        return ["q_proj", "k_proj", "v_proj", "o_proj"]
    return list(s.lora_targets)


def hsdp_degrees(s: Scenario) -> tuple[int, int]:
    """(shard, replicate) degrees of an HSDP mesh for s's shard group dp_shard, whose dp x cp ranks the cp ranks join
    (torchtitan's ("dp_replicate", "dp_shard_cp") mesh, torchtitan/models/llama3/infra/parallelize.py): shard =
    dp_shard / cp data-parallel ranks, replicate = dp x cp / dp_shard groups. A group that is no multiple of cp
    has no such mesh."""
    if s.dp_shard % s.cp:
        raise ExportError(QT_TRANSLATE_NOOP("engine", "A shard group of {group} GPUs is not a multiple of the context-"
                                                      "parallel size {cp}: an HSDP mesh cannot express it."),
                          group=s.dp_shard, cp=s.cp)
    return s.dp_shard // s.cp, s.dp * s.cp // s.dp_shard
