"""presets/host_overhead.json read once: the host figures of every module that costs host work (host.py's launches
and calls, host_cpu.py's CPU of each GPU system, hf_moe.py's counts of transformers' MoE block), where each read it
for itself. It imports no timing module, so any of them can ask it without an import cycle. No Qt."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..models.presets import PRESETS_DIR, read_preset_json
from .preset_shapes import checked_host

HOST_FILE = PRESETS_DIR / "host_overhead.json"


@cache
def host_figures() -> dict[str, Any]:
    """The whole of presets/host_overhead.json (each figure with its source there)."""
    return checked_host(read_preset_json(HOST_FILE), HOST_FILE.name)
