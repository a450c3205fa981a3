"""The argument file an ms-swift launch names (`swift sft examples/yaml/deepspeed/sft.yaml`, `megatron sft x.yaml`,
`... --config x.yaml`), followed as ms-swift reads it; the script is never run.

modelscope/ms-swift at 3602360a5623 swift/cli/main.py lines 38-72 parse_yaml_args: when the first argument after the
sub-command ends in .json, .yaml or .yml, cli_main (lines 87-93) loads it (json.load / yaml.safe_load) and replaces it
in argv by `--key value` for each of its keys (a list's items after the key), in place, before every other flag of
the command line; the arguments are then parsed by HfArgumentParser (swift/utils/utils.py lines 177-186,
argparse), where a flag given twice keeps its last value: a flag on the command line overrides the file's. The
file's ENV mapping sets each environment variable the environment does not set already (lines 53-59), so the
script's NPROC_PER_NODE wins over the file's. `--config x.yaml` is the Ray pipeline's (swift/ray/megatron/
pipeline.py lines 394-405, `megatron rlhf --use_ray true --config ...`), read the same way here.

The named file is read only if it was given with the job or lies in the job's folder or below it, as regular file
of bounded size (engine/configs/references.py, engine/safe_read.py); a missing or refused file is one sentence in
the review. The planner's merge keeps the first file's value of each key, and the script comes first, so its flags
override the file's, as in ms-swift.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from . import swift
from .common import as_int
from .reading import ConfigFileError, flatten, parse_json, parse_yaml, refusing_wrong_types
from .result import Collector
from .shell import logical_lines
from .swift_megatron import is_swift_megatron, read_swift_megatron

CONFIG_KEY = "(argument file)"  # the reference's key when the file is the positional argument of `swift ...`
MEGATRON_CONFIG_KEY = "(megatron argument file)"  # ... of `megatron sft|pt|rlhf`
_SUFFIXES = (".json", ".yaml", ".yml")
# the sub-command, then the first argument (swift/cli/main.py: argv[0] after the method name)
_LAUNCH = re.compile(r"(?:\bswift|(?:^|[\s;&|])megatron)\s+(?:sft|pt|rlhf)\s+(\S+)|"
                     r"swift/cli/(?:_megatron/)?(?:sft|pt|rlhf)\.py\s+(\S+)")


def config_reference(c: Collector, text: str) -> None:
    """Record the argument file the launch names as a reference of the script (followed by references.py)."""
    for line in logical_lines(text):
        body = line.strip()
        if body.startswith("#"):
            continue
        m = _LAUNCH.search(body)
        first = next((g for g in m.groups() if g), None) if m else None
        megatron = m is not None and "megatron" in m.group(0)
        if first is not None and _unquoted(first).lower().endswith(_SUFFIXES):
            c.references.append((MEGATRON_CONFIG_KEY if megatron else CONFIG_KEY, _unquoted(first)))
            return
        flag = re.search(r"--config[=\s]+(\S+)", body)
        if flag and _unquoted(flag.group(1)).lower().endswith(_SUFFIXES):
            c.references.append(("config", _unquoted(flag.group(1))))
            c.use("config")
            return


def _unquoted(word: str) -> str:
    try:
        parts = shlex.split(word)
    except ValueError:  # an unbalanced quote: the word as written
        return word
    return parts[0] if parts else word


def read_env(c: Collector, data: dict[str, Any]) -> None:
    """The file's ENV mapping: NPROC_PER_NODE and NNODES are the GPUs torchrun starts (swift/cli/main.py
    get_torchrun_args); each counts only where the script's environment does not set it (the script is read first
    and keeps its own)."""
    env = data.get("ENV")
    if not isinstance(env, dict):
        return
    c.use("ENV")
    for name, key in (("NPROC_PER_NODE", "gpus_per_node"), ("NNODES", "nodes")):
        if as_int(env.get(name)):
            c.set(key, as_int(env[name]), f"ENV.{name}")


def reads_argument_file(fmt: str, key: str) -> bool:
    """Whether an ms-swift script's reference is its argument file (read_argument_file), not another config."""
    return fmt == "ms-swift" and key in (CONFIG_KEY, MEGATRON_CONFIG_KEY, "config")


def read_argument_file(name: str, text: str, key: str) -> Collector:
    """The named YAML or JSON as ms-swift's arguments (a `megatron ...` launch's as Megatron-SWIFT's), whatever keys
    it holds; a value of the wrong shape is ConfigFileError's sentence."""
    data = parse_json(name, text) if name.lower().endswith(".json") else parse_yaml(name, text)
    if not isinstance(data, dict):
        raise ConfigFileError(QT_TRANSLATE_NOOP(
            "engine", "{name} does not hold a set of named settings, so it is not a training config."), name=name)
    c = Collector(name, "ms-swift")
    with refusing_wrong_types(name):
        read_arguments(c, data, key == MEGATRON_CONFIG_KEY)
    return c


def read_swift(c: Collector, data: str | dict[str, Any]) -> None:
    """An ms-swift import: a launch script (the argument file it names recorded first, then its flags, Megatron-SWIFT's
    for a `megatron` launch) or an argument file on its own (read_arguments, its ENV too)."""
    if not isinstance(data, str):
        read_arguments(c, data)
        return
    config_reference(c, data)
    if is_swift_megatron(data):
        read_swift_megatron(c, data)
    else:
        args = swift.args_from_script(c, data)
        c.flat = dict(args)
        swift.read(c, args)


def read_arguments(c: Collector, data: dict[str, Any], megatron_launch: bool = False) -> None:
    """An ms-swift argument file's settings as parse_yaml_args hands them on (the module docstring): its ENV block
    popped and set as the environment (read_env), every other key an argument, Megatron-SWIFT's where a `megatron`
    launch names the file or its keys are Megatron's. The one reader of such a file, named by a script
    (read_argument_file) or imported on its own (importing.py)."""
    if megatron_launch or is_swift_megatron(data):
        read_swift_megatron(c, data)  # its keys less ENV
    else:
        args = {k: v for k, v in data.items() if k != "ENV"}
        swift.read(c, args)
        c.flat = flatten(args)
    read_env(c, data)
