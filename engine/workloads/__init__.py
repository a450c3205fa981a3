"""One entry for every workload: a scenario's memory estimate and step time, whatever the scenario runs.

Supervised training goes to engine/memory and engine/timing; the post-training objectives will go to
engine/posttraining and inference to engine/serving. Everything above this layer (planning, configs, the command
line, the window) calls these two functions, so a new workload is wired in here and nowhere else.
"""

from __future__ import annotations

from ..memory.breakdown import Estimate
from ..memory.estimate import estimate as training_estimate
from ..scenario.format import Scenario
from ..serving.scenario_estimate import serving_estimate
from ..timing import StepTime
from ..timing import step_time as training_step_time

__all__ = ["estimate", "step_time"]


def estimate(s: Scenario) -> Estimate:
    """The memory estimate of whatever `s` runs."""
    if s.workload == "inference":
        return serving_estimate(s)
    return training_estimate(s)


def step_time(s: Scenario) -> StepTime:
    """The time of one step of whatever `s` runs."""
    return training_step_time(s)
