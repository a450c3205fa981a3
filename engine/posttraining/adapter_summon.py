"""What verl's reshard runs per FSDP unit, per adapter tensor and per parameter byte when it collects a LoRA policy's
adapters from an FSDP1 actor (issue 23: verl's `reshard`, the per-layer gap of benchmarks/verl_tp8_rollout_gap.py).

Read at volcengine/verl 9466d371e (the commit that linked the verl-data GRPO-LoRA logs) and pytorch/pytorch's FSDP1:
- verl builds the actor with `FSDP(..., device_mesh=self.device_mesh)` (verl/workers/fsdp_workers.py line 326) and
  sets SHARDED_STATE_DICT on it when the engine loads the base from safetensors (sharding_manager/fsdp_vllm.py lines
  72-80, full_params = "hf" in load_format, fsdp_workers.py line 478). With a device mesh, FSDP1's state-dict hooks
  switch to DTensor (torch/distributed/fsdp/_state_dict_utils.py _set_use_dtensor: `_use_dtensor = True`).
- Every GRPO-LoRA script of verl at that commit sets rollout.layered_summon=True (docs/advance/ppo_lora.rst line 76,
  examples/grpo_trainer/run_qwen2_5-3b_gsm8k_grpo_lora.sh line 37, examples/tuning/*/qwen2-*_grpo-lora_*.sh line
  57; the verl-data logs' config too): verl/utils/fsdp_utils.py layered_summon_lora_params (lines 464-495) runs, for
  each decoder layer, `with FSDP.summon_full_params(layer, writeback=False)`, inside it `layer.state_dict()`, then
  `param.full_tensor().detach().cpu()` of each adapter tensor peft selects, then empty_cache. (Without it, one summon
  of the whole model runs the same per-unit and per-tensor work, fsdp_vllm.py lines 116-131.)
- summon_full_params -> _unshard_params -> for every FSDP state under the layer (its own unit and, under verl's LoRA
  wrap policy, each adapter's A and B: adapter_units.py) _unshard_fsdp_state_params
  (torch/distributed/fsdp/_unshard_param_utils.py): `state._device_handle.synchronize()`, then the unit's _unshard
  (pre_unshard, the flat parameter's all-gather, post_unshard) and on exit _reshard: the same calls as a unit's
  no-grad forward visit without the wrapped module's call (engine/timing/fsdp1_host.py VISIT_CALLS "forward" and its
  measured Python, FSDP1_PYTHON_VIEW_CALLS).
- layer.state_dict() under SHARDED_STATE_DICT runs each unit's _sharded_pre_state_dict_hook
  (torch/distributed/fsdp/_state_dict_utils.py): _common_pre_state_dict_hook (`synchronize()`), then
  _common_unshard_pre_state_dict_hook -> _enter_unshard_params_ctx -> _unshard_fsdp_state_params again: its handle is
  already SUMMON_FULL_PARAMS, so it yields at once, after one more `synchronize()`. The post hook's param_hook then
  makes every parameter of the layer a DTensor through _create_chunk_dtensor (torch/distributed/fsdp/_shard_utils.py:
  `tensor.detach().clone()` of the whole full-precision parameter, then DTensor.from_local(...).redistribute(Shard(0))).
- verl's `param.full_tensor()` on each adapter tensor redistributes it to Replicate: an all-gather over the FSDP mesh,
  waited for by the synchronous `.cpu()` that follows (its round trip is adapter_sync.py's).
Priced here: per state-dict tensor, _create_chunk_dtensor's Python and its clone's launch, and per adapter tensor
full_tensor()'s Python, both measured by running torch's own code on the CPU (benchmarks/
verl_dtensor_state_dict_host.py, in view calls: DTENSOR_CHUNK_PYTHON_VIEW_CALLS, FULL_TENSOR_PYTHON_VIEW_CALLS); per
unit, the visit's host calls less the module call, and three device synchronizes
(presets/host_overhead.json sync_seconds); per adapter unit, its tiny flat parameter's all-gather and per adapter
tensor the full_tensor all-gather, each at NCCL's small-message latency over the FSDP ranks (engine/timing/
collectives.py small_message_latency; the decoder layer's own all-gather is adapter_sync.py's bytes); per parameter
byte of the decoder layers, the clone's read and write at the GPU's memory rate (in series: the host waits for it at
the first `.cpu()`). Not priced, for want of a figure: full_tensor's collective's own host work (one rank in the
measurement), peft's get_peft_model_state_dict, empty_cache after each layer (the next layer allocates anew).
"""

from __future__ import annotations

from typing import Any

from ..memory.states import whole_model_params
from ..scenario import Scenario
from ..timing.collectives import ALL_GATHER, small_message_latency
from ..timing.fsdp1_host import wraps_layer_units
from ..timing.host import host_call_seconds, host_speed_factor, visit_host_seconds
from ..timing.host_table import host_figures
from ..timing.links import nvlink_domain
from .adapter_sync import adapter_tensors
from .adapter_units import wraps_adapter_units
from .phases import StepParts

# _unshard_fsdp_state_params' synchronize in the summon, and in the sharded state-dict pre-hook
# _common_pre_state_dict_hook's and _unshard_fsdp_state_params' again (module docstring)
SYNCS_PER_UNIT = 3
CLONE_PASSES = 2  # _create_chunk_dtensor's clone reads and writes each full-precision parameter once
# Python per call beyond the clone's launch, in view calls (host_overhead.json view_seconds): benchmarks/
# verl_dtensor_state_dict_host.py runs torch 2.14.1's _create_chunk_dtensor and DTensor.full_tensor on the CPU (one
# gloo rank), the median of three invocations of 5 runs each on the shared 2-core build host (chunk 48.9, 39.7, 53.0;
# full_tensor 31.5, 20.8, 28.2 view calls); the runs' torch (2.5 / 2.6) is not the one measured
DTENSOR_CHUNK_PYTHON_VIEW_CALLS = 48.9
FULL_TENSOR_PYTHON_VIEW_CALLS = 28.2


def summoned_units(s: Scenario, spec: Any) -> tuple[int, int]:
    """FSDP units the summon walks (the decoder layers' own where FSDP1 wraps them, the adapters' A and B) and, of
    them, the adapters' (their flat parameters are all-gathered at small-message latency)."""
    adapters = adapter_tensors(s, spec)
    return (spec.layers if wraps_layer_units(s) else 0) + adapters, adapters


def state_dict_tensors(s: Scenario, spec: Any) -> int:
    """Tensors the summoned layers' state dicts hold: each layer's linear weights (q, k, v apart, as Hugging Face
    keeps them), its q / k / v and o biases where the model has them, its norms (with their biases), and the
    adapters' A and B (a lower bound: a biased MLP's biases are left out)."""
    base = (len(spec.layer_linears(spec.is_moe)) + 3 * spec.qkv_bias + spec.o_bias
            + spec.norms_per_layer * (2 if spec.norm_bias else 1))
    return spec.layers * base + adapter_tensors(s, spec)


def adapter_summon_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds the adapters' collection adds to an adapters-only sync from an FSDP1 actor whose adapters are units of
    their own (wraps_adapter_units: verl): the per-unit summon and state-dict work, the per-tensor full_tensor
    all-gathers and the per-byte clones of the summoned layers (module docstring); 0 elsewhere."""
    if not wraps_adapter_units(s):
        return 0.0
    spec = p.spec
    units, adapter_units = summoned_units(s, spec)
    module_call = host_figures()["module_call_seconds"]["value"] * host_speed_factor(s)
    sync = host_figures()["sync_seconds"]["value"]  # not scaled by the host (its source)
    per_unit = visit_host_seconds(s, "forward") - module_call + SYNCS_PER_UNIT * sync
    latency = small_message_latency(hw, ALL_GATHER, s.dp, s.dp, nvlink_domain(s, hw))
    gathers = adapter_units + adapter_tensors(s, spec)  # the units' flat parameters, then full_tensor per tensor
    layer_params = spec.total_params - spec.embedding_params - spec.head_params + whole_model_params(s, spec).lora
    clones = CLONE_PASSES * layer_params * p.dt.weight / hw.memory_bytes_per_s
    launch, view = host_call_seconds(s)
    dtensors = (state_dict_tensors(s, spec) * (DTENSOR_CHUNK_PYTHON_VIEW_CALLS * view + launch)
                + adapter_tensors(s, spec) * FULL_TENSOR_PYTHON_VIEW_CALLS * view)
    return units * per_unit + gathers * latency + clones + dtensors


__all__ = ["CLONE_PASSES", "DTENSOR_CHUNK_PYTHON_VIEW_CALLS", "FULL_TENSOR_PYTHON_VIEW_CALLS", "SYNCS_PER_UNIT",
           "adapter_summon_seconds", "state_dict_tensors", "summoned_units"]
