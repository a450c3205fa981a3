"""One rule resolves fp8_all_gather "auto" (engine/timing/fp8_all_gather.py): the framework's default from
presets/efficiency.json frameworks fp8_all_gather (OLMo-core's Float8Config turns enable_fsdp_float8_all_gather on,
allenai/OLMo-core src/olmo_core/float8/__init__.py at 7e58d12; torchtitan's float8 converter leaves it off). The time
model's float8 gather and the torchtitan export's enable_fsdp_float8_all_gather both ask it, so they agree."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.configs.exporting import export_config
from engine.timing import step_time
from engine.timing.data import framework_profile
from engine.timing.fp8_all_gather import fp8_all_gather_asked

FP8_FSDP = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096, "micro_batch": 1,
            "grad_accum": 2, "fsdp": True, "zero_stage": 3, "precision": "fp8", "fp8_recipe": "auto"}


@pytest.mark.parametrize("framework", ["olmo-core", "torchtitan"])
@pytest.mark.parametrize("setting", ["auto", True, False])
def test_the_time_model_and_the_export_ask_the_same_rule(framework, setting):
    s = scenario_from_dict({**FP8_FSDP, "framework": framework, "fp8_all_gather": setting})
    asked = fp8_all_gather_asked(s)
    default = bool(framework_profile(framework).get("fp8_all_gather", False))  # the row's own datum
    assert asked == (default if setting == "auto" else setting)
    flag = "true" if asked else "false"
    assert f"enable_fsdp_float8_all_gather = {flag}" in export_config(s, "torchtitan")
    explicit = step_time(s.replace(fp8_all_gather=asked)).breakdown_seconds
    assert step_time(s).breakdown_seconds == explicit


def test_the_rows_differ_as_their_sources_say():
    # OLMo-core on, torchtitan off (the sources in the module docstring)
    olmo, titan = (scenario_from_dict({**FP8_FSDP, "framework": fw}) for fw in ("olmo-core", "torchtitan"))
    assert (fp8_all_gather_asked(olmo), fp8_all_gather_asked(titan)) == (True, False)
