"""The engine's memo caches in one place: every one is bounded (an lru_cache with a maxsize, a memo table with a
limit (engine/scenario/memo.py), or keyed by the shipped presets only), and clear_caches() empties them all, e.g. for
a long-running process or a test. No Qt."""

from __future__ import annotations

from .memory import activations, detailed, layer_backward, states
from .memory import estimate as memory_estimate
from .memory.parallelism import pipeline
from .models import shared_models
from .scenario import behaviour, custom_parts
from .scenario import format as scenario_format
from .scenario.memo import memo_tables
from .timing import costs, expert_costs, hardware, hf_host, model, stage_listing

BOUNDED = (
    activations, layer_backward, custom_parts, scenario_format, behaviour, states, costs, expert_costs, hardware, model,
    stage_listing, detailed, memory_estimate, pipeline, hf_host,
)


def cached_functions() -> list:
    """Every lru_cache-wrapped function of the modules above (found, so a new cache is never forgotten)."""
    found = [f for module in BOUNDED for f in vars(module).values()
             if hasattr(f, "cache_clear") and hasattr(f, "cache_info")]
    return list({id(f): f for f in found}.values())  # a function re-exported by another module counts once


def clear_caches() -> int:
    """Empty every engine memo cache (presets stay: they are read once from the shipped files); returns how many."""
    functions = cached_functions()
    for f in functions:
        f.cache_clear()
    for table in memo_tables():  # bounded by their own limit; emptied here with the rest
        table.clear()
    shared_models.forget_shared_models()
    return len(functions)
