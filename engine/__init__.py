"""LLM Memory Planner engine: pure Python, no Qt.

    from engine import load_scenario, estimate
    est = estimate(load_scenario("run.json"))
    est.peak_allocated_bytes, est.verdict
"""

from .errors import ConsistencyError, ModelConfigError, PlannerError, PresetError, ScenarioError, WorkloadError
from .memory.breakdown import Component, Estimate, StageEstimate
from .memory.estimate import kv_cache_bytes
from .models.architecture import ModelSpec
from .models.config_file import read_config_file
from .models.hf_config import model_from_hf_config
from .models.presets import get_gpu, get_model_preset, gpu_presets, model_presets
from .scenario import DEFAULTS, SCHEMA_VERSION, Scenario, resolve_model, scenario_from_dict
from .scenario.file import load_scenario
from .workloads import estimate

__all__ = [
    "DEFAULTS", "SCHEMA_VERSION", "Component", "ConsistencyError", "Estimate", "ModelConfigError", "ModelSpec",
    "PlannerError", "PresetError", "Scenario", "ScenarioError", "StageEstimate", "estimate", "get_gpu", "get_model_preset",
    "gpu_presets", "kv_cache_bytes", "load_scenario", "model_from_hf_config", "model_presets", "read_config_file",
    "resolve_model", "scenario_from_dict", "WorkloadError",
]
