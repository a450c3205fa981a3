"""NeMo-RL's copies between the phases of a colocated step (PostTrainingDefaults.refit_offload): around the weight
sync to its colocated vLLM engine the policy worker moves its optimizer's states and its parameters to CPU memory,
and loads them back for the log-prob passes and the update; the reference's log-probs swap the reference's weights
(a CPU copy) into the policy's parameters and back. Read at NVIDIA-NeMo/RL v0.5.0 (6c708930, the release of the
performance summary's 'Nemo RL v0.5' tables):

- nemo_rl/algorithms/grpo.py grpo_train (lines 1103-1351): timer prepare_for_generation/total runs
  refit_policy_generation (lines 904-977): policy.offload_before_refit(), vLLM wake_up(tags=["weights"]), the IPC
  stream of the weights, policy.offload_after_refit(), vLLM wake_up(tags=["kv_cache"]); then generation, then
  logprob_inference_prep (policy.prepare_for_lp_inference()), policy_and_reference_logprobs (get_logprobs, then
  get_reference_policy_logprobs), training_prep (policy.prepare_for_training()), policy_training;
- both policy workers do the same moves: nemo_rl/models/policy/workers/megatron_policy_worker.py lines 2220-2360 and
  dtensor_policy_worker_v2.py lines 1815-1910: offload_before_refit moves every optimizer state to CPU
  (move_optimizer / move_optimizer_to_device: `state[k] = v.to("cpu")`, a blocking copy into pageable memory),
  offload_after_refit moves the model to CPU (Megatron: each DDP buffer's offload_to_cpu, whose parameters are
  copied into pinned memory, `param_data.cpu().pin_memory()` then `param_data_cpu.copy_(..., non_blocking=True)`,
  its gradient buffer freed, not copied: NVIDIA/Megatron-LM megatron/core/distributed/param_and_grad_buffer.py
  offload_to_cpu / reload_from_cpu; DTensor: `model.to("cpu")`, pageable), prepare_for_lp_inference loads the
  parameters back, prepare_for_training the optimizer's states (`.to("cuda")` from pageable memory: colocated
  generation 'will always offload optimizer to cuda before refit');
- the reference (use_reference_model: megatron_policy_worker.py lines 1485-1530, dtensor_policy_worker_v2.py lines
  1659-1685): the policy's state dict copied to CPU (Megatron `.to("cpu", non_blocking=True)`, DTensor
  get_cpu_state_dict(pin_memory=True): pinned), the reference's CPU copy (made the same way at set-up: pinned) copied
  into the parameters, and after the pass the policy's copied back: three parameter-sized copies.

Bytes are the memory estimate's own per GPU (one account with memory): the policy's weights, and as the
optimizer's the optimizer states with any fp32 master weights (with Megatron's use_precision_aware_optimizer, the
recipes' setting, Transformer Engine's FusedAdam keeps the master weights in the optimizer's state, which
move_optimizer moves). Pageable copies run at the host link's pinned rate / presets/efficiency.json pcie
pageable_pinned_speedup (phase_offload.pageable_fraction), assumed alike over Grace's C2C link. The copies run in
series with the phases (each is a blocking call between timers), so none hides behind compute."""

from __future__ import annotations

from typing import Any

from ..frameworks import defaults_for
from ..scenario import Scenario
from .phase_offload import pageable_fraction
from .phases import StepParts

OPTIMIZER_KEYS = ("policy_optimizer_states", "policy_master_weights")
PARAMETER_KEYS = ("policy_weights",)
# the reference's swap: the policy's parameters out, the reference's in, the policy's back (module docstring)
REFERENCE_SWAP_COPIES = 3


def applies(p: StepParts) -> bool:
    """The framework moves its states around the sync to a colocated engine, and this step has one."""
    return (defaults_for(p.s.framework).posttraining.refit_offload and p.engine is not None
            and p.rs.placement == "colocate")


def _bytes(p: StepParts, keys: tuple[str, ...]) -> float:
    return sum(c.peak_bytes for c in p.resident if c.key in keys)


def refit_offload_by_phase(p: StepParts, s: Scenario, hw: Any) -> dict[str, float]:
    """Seconds per step of the copies, by the phase whose timer holds them: generation (prepare_for_generation: the
    optimizer's states and the parameters to CPU), scoring (the parameters back, the reference's swap), update
    (training_prep: the optimizer's states back). Zeros where the framework does not make them."""
    if not applies(p):
        return {"generation": 0.0, "scoring": 0.0, "update": 0.0}
    pinned = hw.host_bytes_per_s
    pageable = pinned * pageable_fraction(s)
    optimizer = _bytes(p, OPTIMIZER_KEYS) / pageable
    params_pinned = defaults_for(s.framework).posttraining.refit_params_pinned
    params = _bytes(p, PARAMETER_KEYS) / (pinned if params_pinned else pageable)
    swap = REFERENCE_SWAP_COPIES * _bytes(p, PARAMETER_KEYS) / pinned if p.rs.reference == "cpu-swap" else 0.0
    return {"generation": optimizer + params, "scoring": params + (swap if p.rs.reference_forward else 0.0),
            "update": optimizer}


def refit_offload_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds per step of every copy refit_offload_by_phase counts."""
    return sum(refit_offload_by_phase(p, s, hw).values())


__all__ = ["OPTIMIZER_KEYS", "PARAMETER_KEYS", "REFERENCE_SWAP_COPIES", "applies", "refit_offload_by_phase",
           "refit_offload_seconds"]
