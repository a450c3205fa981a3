"""Host time of the FSDP1 units a LoRA policy's adapters become under verl (issue 23: verl's scoring and update).

verl wraps every leaf module whose weight requires grad, i.e. each LoRA A and B linear, as an FSDP unit of its own
beside the decoder layers (volcengine/verl 9466d371e verl/utils/fsdp_utils.py get_fsdp_wrap_policy(is_lora=True):
lambda_auto_wrap_policy on `len(list(module.named_children())) == 0 and module.weight.requires_grad`;
PostTrainingDefaults.adapters_sharded), builds FSDP1 (FullyShardedDataParallel, use_orig_params=False, FULL_SHARD,
mixed precision bf16 over fp32 parameters, forward_prefetch False in the logs' config; fsdp_workers.py lines
298-327) and keeps FSDP1's default limit_all_gathers=True. So every adapted linear adds two units, and each runs
FSDP1's unshard / reshard around its rank-r matmul on every visit:
- scoring: the old-policy pass visits each unit once per micro-batch (no grad); the reference pass, the same actor
  under peft's disable_adapter(), visits none (fsdp_workers.py compute_ref_log_prob sets is_lora, compute_log_prob
  enters self.actor.actor_module.disable_adapter(), lines 680-690; peft's lora Linear.forward then returns
  base_layer(x) without calling lora_A / lora_B);
- update: the forward visits it, the gradient-checkpointed layer's recompute (HF non-reentrant checkpoint around
  the FSDP-wrapped decoder layer, fsdp_workers.py line 271) runs the unit's FSDP forward again (its handle is IDLE,
  not BACKWARD_PRE, so _pre_forward unshards it anew), and the backward runs its pre-backward hook (another unshard)
  and its post-backward hook (the gradient's reduce-scatter).
What each visit calls, counted from pytorch/pytorch torch/distributed/fsdp/_runtime_utils.py (_pre_forward_unshard,
_unshard, _reshard, _post_forward_reshard, _register_pre_backward_hooks, _pre_backward_hook, _post_backward_hook,
_cast_grad_to_param_dtype) and _flat_param.py (pre_unshard, _use_low_precision_shard, unshard,
_alloc_padded_unsharded_flat_param, _all_gather_flat_param, _use_unsharded_flat_param, post_unshard,
_free_low_precision_sharded_param) at 00ae0bc91ac2 (the stored FSDP1 sources; verl's torch release not named in the
logs, FSDP1's unit logic is the same in the 2.x releases read): see engine/timing/fsdp1_host.py VISIT_CALLS. Each
kernel is costed at
presets/host_overhead.json launch_seconds, each other call through PyTorch at view_seconds, the FSDP wrapper's call of
the inner module at module_call_seconds (times the host's factor); FSDP's own Python between them (its state
checks, _p_assert, attribute walks, storage allocs and frees) at view_seconds per view call it takes, as measured by
benchmarks/verl_lora_host_counts.py on the logs' code path (FSDP1_PYTHON_VIEW_CALLS).

Exposure: the rate limiter keeps the host at most two unshards ahead of the GPU (_unshard: `event =
state._free_event_queue.dequeue_if_needed(); event.synchronize()`, one free event enqueued per resharded unit,
torch/distributed/fsdp/_limiter_utils.py _FreeEventQueue: two in flight), so the host cannot bank time behind
earlier layers: an adapted linear's two units must be issued while the GPU runs that linear's own base GEMM (peft
calls base_layer(x) before lora_A), and only what the two visits take beyond that GEMM is added. The backward's base
GEMM is the frozen weight's input gradient alone (same FLOPs as the forward). The adapters' tiny all-gathers and
reduce-scatters (NCCL small-message latency each) run on FSDP's side streams beside that GEMM.
"""

from __future__ import annotations

from ..frameworks import defaults_for
from ..memory.states import lora_targets, lowest_adapted_layer
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import fsdp1_wrap, fsdp_shards
from ..scenario.choices import ADAPTER_METHODS
from ..timing.collectives import ALL_GATHER, REDUCE_SCATTER, small_message_latency
from ..timing.data import framework_profile
from ..timing.gemm import gemm_seconds, rate_tile
from ..timing.hardware import hardware_for
from ..timing.host import visit_host_seconds
from ..timing.links import nvlink_domain
from ..timing.model import rates_for

UNITS_PER_ADAPTED_LINEAR = 2  # lora_A and lora_B, each its own FSDP unit


def wraps_adapter_units(s: Scenario) -> bool:
    """The scenario's LoRA adapters are FSDP1 units of their own, sharded over more than one rank (a single rank runs
    NO_SHARD: nothing to unshard)."""
    return (s.method in ADAPTER_METHODS and defaults_for(s.framework).posttraining.adapters_sharded
            and fsdp_shards(s) and fsdp1_wrap(s) and s.dp > 1)


def _exposed(s: Scenario, train: Scenario, visit: str) -> float:
    """Seconds one micro-batch's visit of every adapter unit adds: per adapted linear, what its two units' host work
    and collectives take beyond the linear's base GEMM (module docstring), over the layers."""
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    tokens = train.micro_batch * train.seq_len / train.tp
    host = UNITS_PER_ADAPTED_LINEAR * visit_host_seconds(s, visit)
    ranks, domain = s.dp, nvlink_domain(s, hw)
    kinds = (ALL_GATHER, REDUCE_SCATTER) if visit == "backward" else (ALL_GATHER,)
    latency = UNITS_PER_ADAPTED_LINEAR * sum(small_message_latency(hw, k, ranks, ranks, domain) for k in kinds)
    exposed = 0.0
    for linear in lora_targets(s, spec, spec.is_moe):
        base = gemm_seconds(tokens, linear.d_in, linear.d_out / train.tp, rates.linear, rates.memory,
                            rates.elem_bytes, rates.sms, 0.0, rate_tile(rates, True))
        exposed += max(host, latency, base) - base  # the collectives run on FSDP's streams beside the base GEMM
    return exposed * (spec.layers - lowest_adapted_layer(s, spec))  # the layers with adapters (the top lora_layers)


def adapter_unit_seconds(s: Scenario, train: Scenario, online: bool) -> dict[str, float]:
    """Per step, the adapters' FSDP units in the phases that visit them: "scoring" (the old-policy pass of an online
    objective, one no-grad forward visit per micro-batch) and "update" (forward, the checkpointed recompute, backward
    per micro-batch), `train` being the update's training scenario (its micro-batches); zeros where the adapters
    are not units of their own."""
    if not wraps_adapter_units(s):
        return {"scoring": 0.0, "update": 0.0}
    micro_batches = train.grad_accum
    update = _exposed(s, train, "forward_grad") + _exposed(s, train, "backward")
    if train.checkpointing == "full":
        update += _exposed(s, train, "forward_grad")
    return {"scoring": micro_batches * _exposed(s, train, "forward") if online else 0.0,
            "update": micro_batches * update}


__all__ = ["UNITS_PER_ADAPTED_LINEAR", "adapter_unit_seconds", "wraps_adapter_units"]
