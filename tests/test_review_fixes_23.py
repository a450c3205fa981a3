"""Edge cases of today's time mechanisms, each from the source its module cites.

- torchtitan all-gathers the sequence-parallel input in float8 only under its tensorwise converter
  (torchtitan/models/llama3/infra/parallelize.py: enable_float8_tensorwise_tp = enable_float8_linear and not
  float8_is_rowwise, "For rowwise recipes, we use regular TP and all-gather happens in high precision").
- Megatron's fp8 parameter update (engine/timing/fp8_param_cast.py) is its DistributedOptimizer's: no other framework
  runs it.
- DeepSpeed's PipelineEngine rebuilds three tensors a micro-batch on a middle stage; with two stages the first
  receives no activation and the last returns before rebuilding its own output (deepspeed/runtime/pipe/engine.py
  _exec_backward_pass at 2151c78) and receives no gradient, so the busiest stage rebuilds two.
- Megatron's own arguments (recompute_modules, fp8_param_gather, ...) apply to its 2021 release too
  (engine/scenario/keys.py MEGATRON)."""

from __future__ import annotations

import math

from engine.frameworks.defaults import defaults_for
from engine.models.presets import model_spec_for
from engine.plan_card import card_inputs
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.fp8_param_cast import fp8_param_cast_seconds
from engine.timing.hardware import hardware_for
from engine.timing.sequence_parallel import sp_copy_bytes

TITAN_TP = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", "gpus_per_node": 8,
            "nodes": 8, "tp": 8, "sequence_parallel": True, "micro_batch": 12, "seq_len": 8192, "fsdp": True,
            "checkpointing": "op-selective", "compile": True, "precision": "fp8"}


def _forward_copies(**changes: object) -> float:
    s = scenario_from_dict({**TITAN_TP, **changes})
    return sp_copy_bytes(s, model_spec_for(s.model), defaults_for(s.framework), 2)[0]


def test_rowwise_and_mx_recipes_gather_in_sixteen_bits():
    tensorwise = _forward_copies(fp8_recipe="tensorwise")
    assert math.isclose(_forward_copies(), tensorwise)  # auto is tensorwise in torchtitan
    for recipe in ("mxfp8", "blockwise"):
        assert math.isclose(_forward_copies(fp8_recipe=recipe), 2 * tensorwise)


def _param_cast(framework: str) -> float:
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": framework,
                            "precision": "fp8", "fp8_recipe": "tensorwise", "fp8_param_gather": True,
                            "zero_stage": 1})
    spec = resolve_model(s)
    return fp8_param_cast_seconds(s, framework_profile(s.framework), spec, hardware_for(s), spec.layers)


def test_the_fp8_parameter_update_is_megatrons_only():
    assert _param_cast("megatron") > 0.0
    assert _param_cast("deepspeed") == 0.0 and _param_cast("huggingface") == 0.0


def test_megatron_arguments_apply_to_the_2021_release():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "framework": "megatron-2021",
                            "precision": "fp8", "fp8_param_gather": True})
    assert "fp8_param_gather" in dict(card_inputs(s))
