"""Whether a run asks FSDP2 to all-gather its float8 linear weights in float8 (scenario key fp8_all_gather): the
scenario's own setting, or with "auto" its framework's default (presets/efficiency.json frameworks fp8_all_gather,
default false: OLMo-core's Float8Config sets enable_fsdp_float8_all_gather=True, allenai/OLMo-core
src/olmo_core/float8/__init__.py at 7e58d12; torchtitan's float8 converter leaves it False). The time model
(engine/timing/data_parallel.py) and the torchtitan export (engine/configs/torchtitan_float8.py) both ask this one
rule; whether the setting can matter at all (tensorwise recipe, FSDP2, no MoE) is data_parallel's
fp8_all_gather_applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import framework_profile

if TYPE_CHECKING:
    from ..scenario import Scenario


def fp8_all_gather_asked(s: Scenario) -> bool:
    """The scenario's fp8_all_gather, "auto" resolved to its framework's default."""
    if s.fp8_all_gather == "auto":
        return bool(framework_profile(s.framework).get("fp8_all_gather", False))
    return bool(s.fp8_all_gather)
