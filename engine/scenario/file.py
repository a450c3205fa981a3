"""The scenario file on disk: bytes -> Scenario, for every reader (command line, File → Open, the library).

One owner for the format: size cap, UTF-8 with or without a byte-order mark, JSON parsed with bounds (nesting
depth, integer digits, no NaN/Infinity), then older schema versions migrated one step at a time, then validated.
Pure Python, no Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..bounded_json import JsonBoundError, parse_json
from ..errors import PresetError, ScenarioError
from ..messages import QT_TRANSLATE_NOOP, message, shown
from ..safe_read import RefusedFileError, read_capped
from . import MAX_SCENARIO_BYTES, SCHEMA_VERSION, Scenario, scenario_from_dict
from .card_file import is_card, scenario_json_in_card


class FutureVersionError(ScenarioError):
    """The file is from a newer app: valid data this version must not touch."""


# ---- migrations of older formats -------------------------------------------------------------------------------

def _v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    # Version 0 = files from before schema_version existed; they called micro_batch "batch_size" and
    # gpus_per_node "gpus". A file with no schema_version but today's keys passes through unchanged.
    out = {k: v for k, v in data.items() if k != "schema_version"}
    for old, new in (("batch_size", "micro_batch"), ("gpus", "gpus_per_node")):
        if old in out:
            if new in out:
                raise ScenarioError(old, QT_TRANSLATE_NOOP("engine", "is the old name of {new}, and the file sets both."),
                                    new=new)
            out[new] = out.pop(old)
    return {"schema_version": 1, **out}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _v0_to_v1}


def file_version(data: dict[str, Any]) -> int:
    """The file's schema_version (0 when absent); true, 1.0 or "1" are not versions."""
    version = data.get("schema_version", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ScenarioError("schema_version", QT_TRANSLATE_NOOP("engine", "must be a whole number, not {version!r}."),
                            version=version)
    return version


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a scenario object of any older schema_version up to SCHEMA_VERSION, one version at a time."""
    version = file_version(data)
    if version > SCHEMA_VERSION:
        raise FutureVersionError(
            "schema_version",
            QT_TRANSLATE_NOOP("engine", "{version} is from a newer LLM Memory Planner (this one reads up to {current})."),
            version=version, current=SCHEMA_VERSION)
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version = file_version(data)
    return data


# ---- bytes -> Scenario -----------------------------------------------------------------------------------------

def parse_scenario_bytes(raw: bytes, label: str) -> tuple[Scenario, int]:
    """(scenario, the file's schema_version) or a ScenarioError whose sentence starts with `label` (a file name)."""
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "is larger than 8 MB; a scenario is a few kilobytes."))
    try:
        data = parse_json(raw.decode("utf-8-sig"))  # -sig: Windows Notepad may add a byte-order mark
    except UnicodeDecodeError:
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "is not UTF-8 text; it may be damaged or not a scenario.")
                            ) from None
    except JsonBoundError as exc:  # valid JSON past a bound (a 41-digit number, 33 levels): say which, not "damaged"
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "cannot be read: {p}."), p=exc.message) from None
    except ValueError:  # the parser's own words (line, column, char) mean nothing to the person reading this
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "is not valid JSON; it may be truncated or damaged.")
                            ) from None
    if not isinstance(data, dict):
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "must hold one JSON object {{...}}."))
    try:
        version = file_version(data)
        if version > SCHEMA_VERSION:
            raise FutureVersionError(label, QT_TRANSLATE_NOOP(
                "engine", "was saved by a newer LLM Memory Planner (schema_version {version}; this version reads up to "
                "{current})."), version=version, current=SCHEMA_VERSION)
        return scenario_from_dict(migrate(data)), version
    except (FutureVersionError, PresetError):  # a damaged presets file: its own sentence naming it, not the scenario's
        raise
    except ScenarioError as exc:
        # the key's error as a message of its own (its detail a template), so the window and --lang translate it
        raise ScenarioError(label, "{p}", p=message("{key}: {detail}", key=exc.key, detail=exc.detail)) from exc
    except (ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as exc:
        # a malformed custom model config can fail in ways the checks do not name: still one sentence, no traceback
        raise ScenarioError(label, QT_TRANSLATE_NOOP("engine", "could not be read ({p}: {exc})."),
                            p=type(exc).__name__, exc=exc) from exc


def read_scenario_file(path: str | Path, label: str | None = None) -> tuple[bytes, Scenario, int]:
    """(the scenario's bytes, scenario, its file's schema_version) of a scenario file or plan card anywhere;
    ScenarioError otherwise."""
    p = Path(path)
    try:
        raw = read_capped(p, MAX_SCENARIO_BYTES)
    except RefusedFileError as exc:
        raise ScenarioError(label or shown(p.name), "{p}", p=exc.message) from None
    except OSError as exc:
        raise ScenarioError(label or shown(p.name), QT_TRANSLATE_NOOP("engine", "cannot be read: {p}."),
                            p=exc.strerror or exc) from None
    if is_card(raw):  # a plan card (PDF or PNG) opens as the scenario it carries
        raw = scenario_json_in_card(raw, label or shown(p.name))
    scenario, version = parse_scenario_bytes(raw, label or shown(p.name))
    return raw, scenario, version


def load_scenario(path: str | Path) -> Scenario:
    """A scenario file of any schema_version this app knows, validated; ScenarioError (one sentence) otherwise."""
    return read_scenario_file(path)[1]
