"""How sure a generation engine's start-up verdict is: the measured uncertainty of the KV pool the start-up
accounting computes (engine/serving/generation.py).

presets/engine_startup_band.json holds, per engine with enough published start-up logs, one fraction of the engine's
budget (gpu_memory_utilization x the CUDA-visible total): the largest |error| of the accounting's KV pool against the
pools the engines logged (tests/data/published/serving_logs.json), in bytes as a share of that budget, with the logs
it comes from and its leave-one-log-out figures. engine/accuracy/startup_band.py derives it from the logs and
tests/test_engine_startup_band.py checks the file is current. A KV pool whose margin over what the engine needs to
start (one request at max_model_len) lies within +-band x budget is "tight": the engine may refuse, or start with a
pool that barely holds one request. Engines without an entry (SGLang: one log) keep a binary verdict. No Qt.
"""

from __future__ import annotations

from functools import cache

from ..models.presets import PRESETS_DIR, checked_table, preset_number, read_preset_json

BAND_FILE = PRESETS_DIR / "engine_startup_band.json"


@cache
def bands() -> dict[str, float]:
    """Every engine's band, read once (write_band_file clears it)."""
    return checked_table(BAND_FILE.name, read_preset_json(BAND_FILE), lambda data: {
        engine: preset_number(entry["band"], 0, 1) for engine, entry in data["engines"].items()})  # a share of the budget


def startup_band(engine: str) -> float:
    """The engine's start-up band as a share of its budget (0.0: no measured band, the verdict stays binary)."""
    return bands().get(engine, 0.0)
