"""Time of the offload that holds between phases only (PostTrainingDefaults.offload_between_phases: verl's
actor / critic fsdp_config param_offload and optimizer_offload, its Megatron actor's optimizer_offload): the states
are copied to CPU memory after each phase that computes with them and back before the next one, and the optimizer
steps on the GPU (the training step is timed with the states loaded). Not ZeRO-Offload: nothing steps on the CPU.

Per RL step, from volcengine/verl at b178a3c verl/workers/fsdp_workers.py (f50e5c2e8 likewise):
- update_actor (lines 893-932): load_fsdp_model_to_gpu and load_fsdp_optimizer before update_policy, offload both
  after it: the parameters and the optimizer states one round trip each; dp_actor.py update_policy ends with
  optimizer.zero_grad() (line 668), so no gradient is moved;
- compute_log_prob (lines 989-1034): the parameters loaded and offloaded around the old-policy scoring pass, and
  again for the reference when it is the actor with its adapters off (compute_ref_log_prob -> compute_log_prob,
  lines 1041-1045);
- rollout_mode (lines 677-722): the parameters loaded for the weight sync to the colocated engine and offloaded
  before the engine resumes;
- the critic (lines 1540-1588): compute_values loads its parameters, update_critic its parameters and optimizer.

The bytes are what the memory estimate takes off the GPU between phases (the states of the loaded estimate less
those the offloaded one keeps: models.resident_states), so time and memory read one account. The copies run on the
compute stream before and after the phase that needs them, so none hides behind compute. Host memory, as verl
allocates it: FSDP1's flat_param_to(cpu, non_blocking=True) (fsdp_utils.py lines 144-196) and the optimizer's
state[key].to("cpu", non_blocking=True) (lines 204-225; Megatron's offload_megatron_optimizer, megatron_utils.py at
db5f055 lines 407-440, likewise) land in pinned memory: pytorch/pytorch aten/src/ATen/native/TensorConversions.cpp
_to_copy (00faeaed) pins the CPU destination when non_blocking and the source is on the GPU; FSDP2's
model.cpu() / model.to(device) (fsdp_utils.py lines 171-201) copy to and from pageable memory
(PostTrainingDefaults.fsdp2_offload_pageable; presets/efficiency.json pcie pageable_pinned_speedup)."""

from __future__ import annotations

from dataclasses import dataclass

from ..memory.breakdown import Estimate
from ..scenario import Scenario
from ..scenario.behaviour import fsdp1_wrap, fsdp_shards
from ..timing.data import efficiency
from .models import LOADED_KEYS, resident_states


@dataclass(frozen=True, slots=True)
class PhaseMoves:
    """Bytes per GPU the offload between phases moves each way per load: the trained model's parameters (loaded for
    every phase that computes with them) and the rest of its states (the optimizer's, loaded for the update only),
    the policy's and PPO's critic's."""

    params_bytes: float = 0.0
    update_bytes: float = 0.0
    critic_params_bytes: float = 0.0
    critic_update_bytes: float = 0.0


def _moved(between: Estimate, loaded: Estimate, shares_weights: bool) -> tuple[float, float]:
    """(parameter bytes, other bytes) the loaded estimate holds between steps beyond what the offloaded one keeps."""
    kept: dict[str, float] = {}
    for c in resident_states(between, shares_weights):
        kept[c.key] = kept.get(c.key, 0.0) + c.peak_bytes
    params = other = 0.0
    for c in resident_states(loaded, shares_weights):
        gone = max(0.0, c.peak_bytes - kept.pop(c.key, 0.0))
        if c.key in LOADED_KEYS:
            params += gone
        else:
            other += gone
    return params, other


def phase_moves(between: Estimate, loaded: Estimate, critic_between: Estimate | None, critic_loaded: Estimate | None,
                shares_weights: bool) -> PhaseMoves:
    """What the offload between phases takes off the GPU, from the estimates with and without it."""
    params, update = _moved(between, loaded, shares_weights)
    critic_params = critic_update = 0.0
    if critic_between is not None and critic_loaded is not None:
        critic_params, critic_update = _moved(critic_between, critic_loaded, False)
    return PhaseMoves(params, update, critic_params, critic_update)


def pageable_fraction(s: Scenario) -> float:
    """Share of the pinned host-copy rate a copy to or from pageable memory reaches (presets/efficiency.json pcie
    pageable_pinned_speedup: one GPU, or a node's GPUs copying at once)."""
    speedup = efficiency()["pcie"]["pageable_pinned_speedup"]
    return 1.0 / speedup["one_gpu" if s.gpus_per_node == 1 else "node"]


# loads of PPO's critic's parameters per step: compute_values and update_critic (module docstring, lines 1540-1588)
CRITIC_PARAMETER_LOADS = 2


def parameter_loads_by_phase(online: bool, reference: str, engine_colocated: bool,
                             old_policy_pass: bool | None = None) -> dict[str, int]:
    """Loads of the policy's parameters per step, by the phase whose timer holds them (verl's timing_s/gen, old_log_prob
    + ref, update_actor): the weight sync to a colocated engine, the old-policy scoring pass (online objectives where
    the framework scores it apart, settings.old_policy_scored; None: every online objective) and the reference as the
    actor with its adapters off, the update."""
    old = online if old_policy_pass is None else old_policy_pass
    return {"generation": int(online and engine_colocated),
            "scoring": int(old) + int(reference == "adapter-off"), "update": 1}


def parameter_loads(online: bool, reference: str, engine_colocated: bool) -> int:
    """Loads of the policy's parameters per step, every phase's (parameter_loads_by_phase)."""
    return sum(parameter_loads_by_phase(online, reference, engine_colocated).values())


def phase_offload_seconds(s: Scenario, moves: PhaseMoves, loads: int, host_bytes_per_s: float,
                          fsdp2_pageable: bool) -> float:
    """Seconds per RL step of the copies: each load a host-to-device copy and its offload a device-to-host one;
    the critic's parameters CRITIC_PARAMETER_LOADS times, its optimizer once."""
    param_rate = host_bytes_per_s * parameter_rate_fraction(s, fsdp2_pageable)
    params = moves.params_bytes * loads + moves.critic_params_bytes * CRITIC_PARAMETER_LOADS
    states = moves.update_bytes + moves.critic_update_bytes
    return 2 * (params / param_rate + states / host_bytes_per_s)


def parameter_rate_fraction(s: Scenario, fsdp2_pageable: bool) -> float:
    """Share of the pinned host-copy rate the parameters' copies reach: pageable_fraction where FSDP2's model.cpu()
    copies them to pageable memory (module docstring), else 1 (the optimizer's states are always pinned)."""
    return pageable_fraction(s) if fsdp2_pageable and fsdp_shards(s) and not fsdp1_wrap(s) else 1.0


def critic_shares(s: Scenario, moves: PhaseMoves, loads: int, fsdp2_pageable: bool) -> tuple[float, float]:
    """(compute_values, update_critic) shares of phase_offload_seconds, by time: the critic's parameters loaded and
    offloaded around its values pass, and its parameters and optimizer around its update (verl b178a3c
    fsdp_workers.py lines 1540-1555 and 1560-1586), which verl times as timing_s/values and timing_s/update_critic
    (ray_trainer.py lines 1543 and 1598), not as update_actor."""
    fraction = parameter_rate_fraction(s, fsdp2_pageable)
    one_load = moves.critic_params_bytes / fraction
    whole = (moves.params_bytes * loads / fraction + moves.update_bytes + CRITIC_PARAMETER_LOADS * one_load
             + moves.critic_update_bytes)
    return one_load / max(whole, 1.0), (one_load + moves.critic_update_bytes) / max(whole, 1.0)


def policy_parameter_share(s: Scenario, moves: PhaseMoves, loads: int, fsdp2_pageable: bool) -> float:
    """Share of phase_offload_seconds that is the policy's parameter loads, by time: the parameters may copy at the
    pageable rate where the optimizer's states copy pinned (parameter_rate_fraction)."""
    fraction = parameter_rate_fraction(s, fsdp2_pageable)
    params = moves.params_bytes * loads / fraction
    return params / max(params + moves.update_bytes + CRITIC_PARAMETER_LOADS * moves.critic_params_bytes / fraction
                        + moves.critic_update_bytes, 1.0)

