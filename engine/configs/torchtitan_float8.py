"""torchtitan's float8 training settings, both ways: precision fp8 with its recipe and FSDP's float8 all-gather.

torchtitan's TOML job config (pytorch/torchtitan v0.2.2, 73a0e697, torchtitan/config/job_config.py lines 731-745,
class Float8Linear under [quantize.linear.float8]) turns torchao's Float8Linear on with the model converter
"quantize.linear.float8" ([model] converters; registered at torchtitan/components/quantization/float8.py line 238;
v0.1.0 spelled the section [float8] and the converter "float8"). Its recipe_name is tensorwise, rowwise or
rowwise_with_gw_hp; unset (None, its default) float8.py lines 85-100 build torchao's tensorwise config, the only one
with enable_fsdp_float8_all_gather (lines 65-69 assert the two are not set together), which precompute_float8_dynamic_
scale_for_fsdp accompanies. That is what the engine's auto means for torchtitan (presets/efficiency.json frameworks
torchtitan fp8_recipe torchao-tensorwise, fp8_all_gather off). torchtitan's later Python configs (b5bcd76c
components/quantization/float8.py line 58) default to rowwise and drop tensorwise and the float8 all-gather; they are
not TOML, which is what this file reads and writes.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario import Scenario
from ..timing.data import framework_profile
from .common import as_bool
from .export_common import ExportError
from .result import Collector

CONVERTER = "quantize.linear.float8"
_CONVERTERS = (CONVERTER, "float8")  # v0.2.x, v0.1.0
_SECTIONS = ("quantize.linear.float8", "float8")
RECIPES = ("tensorwise", "rowwise", "rowwise_with_gw_hp")


def float8_lines(s: Scenario) -> tuple[list[str], list[str]]:
    """([model] converters lines, the [quantize.linear.float8] section) for an fp8 plan; ([], []) without fp8."""
    if s.precision != "fp8":
        return [], []
    if s.fp8_recipe not in ("auto", *RECIPES):
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "torchtitan's float8 (torchao) has the recipes tensorwise, rowwise and rowwise_with_gw_hp, "
            "not {recipe}; pick one of them or auto."), recipe=s.fp8_recipe)
    section = ["[quantize.linear.float8]"]
    if s.fp8_recipe in ("auto", "tensorwise"):  # recipe_name unset: tensorwise, the one with the float8 all-gather
        gather = framework_profile(s.framework).get("fp8_all_gather", False) if s.fp8_all_gather == "auto" \
            else bool(s.fp8_all_gather)
        flag = "true" if gather else "false"
        section += [f"enable_fsdp_float8_all_gather = {flag}", f"precompute_float8_dynamic_scale_for_fsdp = {flag}"]
    else:
        section.append(f'recipe_name = "{s.fp8_recipe}"')
    return [f'converters = ["{CONVERTER}"]'], section


def read_float8(c: Collector, d: dict[str, Any]) -> None:
    """precision fp8 where [model] converters names torchtitan's float8 converter, with its section's recipe and
    all-gather; the section's other keys (filter_fqns, emulate) are left to the unread list."""
    model = d.get("model") if isinstance(d.get("model"), dict) else {}
    converters = model.get("converters", [])
    converters = [converters] if isinstance(converters, str) else converters
    if not isinstance(converters, list) or not any(str(n) in _CONVERTERS for n in converters):
        return
    c.set("precision", "fp8", "model.converters")
    name = next((n for n in _SECTIONS if _section(d, n) is not None), _SECTIONS[0])
    section = _section(d, name) or {}
    recipe = section.get("recipe_name")
    if recipe in RECIPES:
        c.set("fp8_recipe", recipe, f"{name}.recipe_name")
    elif recipe is not None:
        c.skip(f"{name}.recipe_name", message(QT_TRANSLATE_NOOP(
            "engine", "float8 recipe {recipe} is not one of torchtitan's (tensorwise, rowwise, rowwise_with_gw_hp)"),
            recipe=recipe))
    gather = as_bool(section.get("enable_fsdp_float8_all_gather"))
    if gather is not None:
        c.set("fp8_all_gather", gather, f"{name}.enable_fsdp_float8_all_gather")
        c.use(f"{name}.precompute_float8_dynamic_scale_for_fsdp")


def _section(d: dict[str, Any], dotted: str) -> dict[str, Any] | None:
    node: Any = d
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None
