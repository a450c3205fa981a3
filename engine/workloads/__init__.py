"""One entry for every workload: a scenario's memory estimate and step time, whatever the scenario runs.

Supervised training goes to engine/memory and engine/timing; the post-training objectives will go to
engine/posttraining and inference to engine/serving. Everything above this layer (planning, configs, the command
line, the window) calls these two functions, so a new workload is wired in here and nowhere else.
"""

from __future__ import annotations

from ..errors import WorkloadError
from ..memory.breakdown import Estimate
from ..memory.estimate import estimate as training_estimate
from ..memory.host_pool import with_shared_pool
from ..messages import QT_TRANSLATE_NOOP
from ..posttraining import rl_estimate, rl_step_time
from ..scenario.format import Scenario
from ..serving.scenario_estimate import serving_estimate
from ..timing import StepTime
from ..timing import step_time as training_step_time

__all__ = ["estimate", "require_training", "require_training_launch", "step_time"]


def estimate(s: Scenario) -> Estimate:
    """The memory estimate of whatever `s` runs."""
    if s.workload == "inference":
        est = serving_estimate(s)
    elif s.training_objective != "sft":
        est = rl_estimate(s)
    else:
        est = training_estimate(s)
    return with_shared_pool(s, est)  # unified memory: the CPU side is what the GPU leaves of the pool


NO_TRAINING_STEP = QT_TRANSLATE_NOOP(
    "engine", "is inference: a served model has no training step; its speed is the serving speed (time to first "
              "token, time per output token, tokens per second).")


NOT_A_TRAINING_PLAN = QT_TRANSLATE_NOOP(
    "engine", "is inference: these plans change a training job; for a served model, serve-fit finds the longest "
              "context, the most users and the fewest GPUs.")


def require_training(s: Scenario) -> None:
    """Refuse, in one sentence, a training plan (limits, Make it fit, Fastest layouts, What should I rent?) asked of
    a served model: its micro-batch, layouts and tokens to train do not exist."""
    if s.workload == "inference":
        raise WorkloadError(NOT_A_TRAINING_PLAN)


NO_LAUNCH_SETTINGS = QT_TRANSLATE_NOOP(
    "engine", "is inference: launch settings are written for training frameworks (micro-batch, sharding, "
              "optimizer), and a served model has none of these.")


def require_training_launch(s: Scenario) -> None:
    """Refuse, in one sentence, a training framework's launch settings asked of a served model (export-config, the
    window's Export launch config): they would be a training job's, as if the model were trained."""
    if s.workload == "inference":
        raise WorkloadError(NO_LAUNCH_SETTINGS)


def step_time(s: Scenario) -> StepTime:
    """The time of one training step of `s` (supervised or post-training). An inference scenario is refused with
    WorkloadError: its speed is engine/serving's (serving_speed), never a training step of the served model."""
    if s.workload == "inference":
        raise WorkloadError(NO_TRAINING_STEP)
    if s.training_objective != "sft":
        return rl_step_time(s)
    return training_step_time(s)
