"""Memory-bound passes a ZeRO-1 step runs over a stage's whole gradients once a step, after its last backward,
beside the collectives data_parallel.py costs and the optimizer's own update (offload.py optimizer_seconds, which
covers the rank's 1 / dp shard). ZeRO-1 keeps every gradient whole on every rank, so these passes scale with the
parameters a GPU holds (1 / (tp x pp)): a deeper pipeline runs fewer of them.

The bytes per parameter are the framework profile's `zero1_step_gradient_bytes_per_param` (presets/efficiency.json
frameworks, with `_zero1_step_gradient_bytes_per_param_source` naming the code they are counted from): the all-reduce
bucket's flatten, division, casts and copies back, and the norm where it runs over the whole gradients. A profile
without it adds nothing, and so does a scenario that runs another path: ZeRO 0 (its own, other code), ZeRO 2/3 and
FSDP (sharded gradients) and DeepSpeed's BF16_Optimizer (bf16_optimizer.py counts its passes, STEP_BYTES_PER_PARAM)."""

from __future__ import annotations

from typing import Any

from ..scenario import Scenario
from ..scenario.behaviour import bf16_optimizer
from .data_parallel import StageWork
from .gemm import Rates


def step_gradient_pass_seconds(s: Scenario, prof: dict[str, Any], rates: Rates, busiest: StageWork) -> float:
    """Seconds a step spends in the profile's ZeRO-1 passes over the busiest stage's whole gradients (module
    docstring): bytes per parameter x the stage's trainable parameters / the GPU's element-wise memory rate."""
    per_param = float(prof.get("zero1_step_gradient_bytes_per_param", 0.0))
    if not per_param or s.fsdp or s.effective_zero != 1 or bf16_optimizer(s):
        return 0.0
    return per_param * busiest.trainable / rates.memory
