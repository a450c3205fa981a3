"""Post-training (issue 22): preference objectives, reward models, PPO and GRPO-style RL with a generation engine.

Public API (stable; the ground-truth helper and the window build on it):
- rl_estimate(scenario) -> Estimate: the peak phase of one step, with every phase in `estimate.rl` (RLEstimate)
- rl_step_time(scenario) -> StepTime: the training step plus the generation, scoring and weight-sync parts
- rl_settings(scenario, compute_bytes) -> RLSettings: the keys with "auto" resolved by the framework's defaults
- step_parts(scenario) -> StepParts: what the phases are built from (training estimate, engine memory, ...)
- rl_to_json(RLEstimate) -> dict: the `rl` object of `estimate --json`
- rl_time_to_json(StepTime) -> dict: the `time` object, with `generation`, `samples_per_second` for RLStepTime
- engine_memory(...) -> EngineMemory: the vLLM accounting of one engine GPU
- RLEstimate, RLPhase, RLSettings, EngineMemory, PHASE_KEYS
"""

from .estimate import generated_per_engine, rl_estimate, step_parts, training_scenario
from .result import PHASE_KEYS, RLEstimate, RLPhase, rl_to_json
from .rollout_memory import EngineMemory, engine_memory
from .settings import RLSettings, rl_settings
from .timing import RLStepTime, rl_step_time, rl_time_to_json

__all__ = ["PHASE_KEYS", "EngineMemory", "RLEstimate", "RLPhase", "RLSettings", "RLStepTime", "engine_memory",
           "generated_per_engine", "rl_estimate", "rl_settings", "rl_step_time", "rl_time_to_json", "rl_to_json",
           "step_parts", "training_scenario"]
