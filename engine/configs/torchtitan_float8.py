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

MXFP8 (the engine's fp8_recipe mxfp8) is torchao's MX training, a converter of its own: "quantize.linear.mx"
(v0.2.2 components/quantization/mx.py line 171) with [quantize.linear.mx] recipe_name, default "mxfp8_cublas"
(job_config.py lines 767-790, class MXLinear). Its converter asserts at start what it cannot run (mx.py lines 42-44:
'MXFP8 is only supported on CUDA SM100 or later, or ROCm gfx950 or later'; lines 47-52: 'TP not yet supported with
torch.compile for mxfp8'), so the export refuses those plans in one sentence.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..models.presets import get_gpu
from ..scenario import Scenario
from ..timing.fp8_all_gather import fp8_all_gather_asked
from .common import as_bool
from .export_common import ExportError
from .result import Collector

CONVERTER = "quantize.linear.float8"
_CONVERTERS = (CONVERTER, "float8")  # v0.2.x, v0.1.0
_SECTIONS = ("quantize.linear.float8", "float8")
RECIPES = ("tensorwise", "rowwise", "rowwise_with_gw_hp")
MX_CONVERTER = "quantize.linear.mx"  # its section has the same dotted name
MX_RECIPE = "mxfp8_cublas"  # MXLinear.recipe_name's default (job_config.py line 777): torchao's MXFP8 with cuBLAS


def float8_lines(s: Scenario) -> tuple[list[str], list[str]]:
    """([model] converters lines, the [quantize.linear.float8] section) for an fp8 plan; ([], []) without fp8."""
    if s.precision != "fp8":
        return [], []
    if s.fp8_recipe == "mxfp8":
        return mx_lines(s)
    if s.fp8_recipe not in ("auto", *RECIPES):
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "torchtitan's float8 (torchao) has the recipes tensorwise, rowwise and rowwise_with_gw_hp, "
            "and mxfp8 through its MX converter, not {recipe}; pick one of them or auto."), recipe=s.fp8_recipe)
    section = ["[quantize.linear.float8]"]
    if s.fp8_recipe in ("auto", "tensorwise"):  # recipe_name unset: tensorwise, the one with the float8 all-gather
        flag = "true" if fp8_all_gather_asked(s) else "false"
        section += [f"enable_fsdp_float8_all_gather = {flag}", f"precompute_float8_dynamic_scale_for_fsdp = {flag}"]
    else:
        section.append(f'recipe_name = "{s.fp8_recipe}"')
    return [f'converters = ["{CONVERTER}"]'], section


def mx_lines(s: Scenario) -> tuple[list[str], list[str]]:
    """([model] converters, [quantize.linear.mx]) for an MXFP8 plan; ExportError where torchtitan's MX converter
    asserts at start: a GPU below CUDA SM100 / ROCm gfx950 (a preset with no fp4 tensor cores: before Blackwell or
    CDNA4; a custom GPU is taken at its word), or tensor parallelism with the model compiled."""
    gpu = get_gpu(s.gpu) if isinstance(s.gpu, str) else None
    if gpu is not None and not (gpu.vendor in ("NVIDIA", "AMD") and any(f == "fp4" and v for f, v in
                                                                        gpu.dense_peak_tflops)):
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "torchtitan's MXFP8 (torchao's MX converter) runs on CUDA SM100 (Blackwell) or ROCm gfx950 "
            "(MI350 / MI355X) and later only, not on {gpu}; pick another fp8 recipe or GPU."), gpu=gpu.name)
    if s.compile and s.tp > 1:
        raise ExportError(QT_TRANSLATE_NOOP(
            "engine", "torchtitan's MXFP8 does not run tensor parallelism with torch.compile; turn one of them "
            "off."))
    return [f'converters = ["{MX_CONVERTER}"]'], [f"[{MX_CONVERTER}]", f'recipe_name = "{MX_RECIPE}"']


def read_float8(c: Collector, d: dict[str, Any]) -> None:
    """precision fp8 where [model] converters names torchtitan's float8 converter, with its section's recipe and
    all-gather; the section's other keys (filter_fqns, emulate) are left to the unread list."""
    model = d.get("model") if isinstance(d.get("model"), dict) else {}
    converters = model.get("converters", [])
    converters = [converters] if isinstance(converters, str) else converters
    if not isinstance(converters, list):
        return
    if MX_CONVERTER in [str(n) for n in converters]:
        _read_mx(c, d)
        return
    if not any(str(n) in _CONVERTERS for n in converters):
        # the sections' keys do nothing without their converter (torchtitan's own configs keep [float8] with the
        # converter commented out, deepseek_v3_16b.toml lines 24, 71-75): not settings the run uses
        c.use(*(f"{name}.{key}" for name in (*_SECTIONS, MX_CONVERTER) for key in (_section(d, name) or {})))
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


def _read_mx(c: Collector, d: dict[str, Any]) -> None:
    """precision fp8 with fp8_recipe mxfp8 from torchao's MX converter; an MX recipe that is not MXFP8 (torchao's
    mxfp4_* recipes) is not the engine's and is said so."""
    section = _section(d, MX_CONVERTER) or {}
    recipe = str(section.get("recipe_name", MX_RECIPE))
    if not recipe.startswith("mxfp8"):
        c.skip(f"{MX_CONVERTER}.recipe_name", message(QT_TRANSLATE_NOOP(
            "engine", "MX recipe {recipe} is not MXFP8, the one the estimate models"), recipe=recipe))
        return
    c.set("precision", "fp8", "model.converters")
    c.set("fp8_recipe", "mxfp8", f"{MX_CONVERTER}.recipe_name" if "recipe_name" in section else "model.converters")


def _section(d: dict[str, Any], dotted: str) -> dict[str, Any] | None:
    node: Any = d
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None
