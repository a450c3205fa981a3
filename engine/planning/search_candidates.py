"""The candidates of the speed search (speed_search.py): a layout's scenarios by micro-batch, each made once when
first asked for, with its step time computed once; memory estimates are shared by the whole search."""

from __future__ import annotations

from typing import Any

from ..errors import ScenarioError
from ..memory.breakdown import Estimate
from ..memory.estimate import estimate
from ..scenario import Scenario, resolve_model
from ..scenario.consistency import check_consistency
from ..timing.model import StepTime, step_time


class EstimateMemo:
    """Memory estimates of the search's candidates, None for a layout the consistency checks refuse."""

    def __init__(self) -> None:
        self.memo: dict[Scenario, Estimate | None] = {}

    def __call__(self, s: Scenario) -> Estimate | None:
        if s not in self.memo:
            try:
                check_consistency(s, resolve_model(s))
                self.memo[s] = estimate(s)
            except ScenarioError:
                self.memo[s] = None
        return self.memo[s]


def candidate(base: Scenario, keys: dict[str, Any], per_replica: int, mb: int, ckpt: str, offload: str) -> Scenario:
    zero = max(keys["zero_stage"], 2 if offload == "optimizer" else 3 if offload != "none" else 0)
    fsdp = keys["fsdp"] and offload == "none"
    return base.with_unchecked(**{**keys, "zero_stage": zero, "fsdp": fsdp}, micro_batch=mb,
                               grad_accum=per_replica // mb, checkpointing=ckpt, offload=offload)


class Candidates:
    """The candidates of one layout, checkpointing and offload, by micro-batch index, each made once when asked; their
    step times likewise (the search times a candidate as a probe, as a fitting plan and as the first that does not
    fit: 7,770 step times of 4,865 distinct scenarios for Llama-3.1-405B on 1,024 GPUs, benchmarks/time_speed.py)."""

    def __init__(self, base: Scenario, keys: dict[str, Any], per_replica: int, micro: list[int], ckpt: str,
                 offload: str) -> None:
        self.made: dict[int, Scenario] = {}
        self.times: dict[int, StepTime] = {}
        self.args = (base, keys, per_replica, micro, ckpt, offload)

    def __getitem__(self, i: int) -> Scenario:
        if i not in self.made:
            base, keys, per_replica, micro, ckpt, offload = self.args
            self.made[i] = candidate(base, keys, per_replica, micro[i], ckpt, offload)
        return self.made[i]

    def time(self, i: int) -> StepTime:
        if i not in self.times:
            self.times[i] = step_time(self[i])
        return self.times[i]
