"""Time of the weight sync into a colocated engine (issue 23: verl's `reshard`): the trainer's side when the engine
serves a LoRA policy's adapters itself, and vLLM's level-1 sleep and wake-up around each generation.

What verl's sharding manager runs, read at volcengine/verl 9466d371e (2025-06-18, the commit that added the GRPO-LoRA
baseline logs to docs/algo/baseline.md; the logs are dated that day), verl/workers/sharding_manager/fsdp_vllm.py
FSDPVLLMShardingManager.__enter__ (lines 151-198, all under simple_timer("reshard")): empty_cache; with param_offload
load_fsdp_model_to_gpu (the offload's copies: phase_offload.py); __collect_lora_params: with rollout.layered_summon
each decoder layer's FSDP unit under FSDP.summon_full_params(submodule, writeback=False) (verl/utils/fsdp_utils.py
layered_summon_lora_params, lines 464-495), else the whole model under one summon_full_params (lines 116-131), then
peft's get_peft_model_state_dict and `param.detach().cpu()` of every adapter tensor; wake_up(tags=["weights"]);
update_params hands vLLM the adapters alone (llm_engine.add_lora(TensorLoRARequest(lora_tensors=...)), lines
253-266, once the base is loaded: load_format safetensors); offload_fsdp_model_to_cpu; empty_cache;
wake_up(tags=["kv_cache"]). __exit__ (inside timing_s/gen, after generate_sequences) calls sleep(level=1).

- Gather: either way every parameter of the policy is all-gathered once a step, and in full precision: FSDP1 unshards
  outside computation into the full-precision padded flat parameter (pytorch/pytorch torch/distributed/fsdp/
  _flat_param.py FlatParameter `_full_prec_full_param_padded`, 'used for unsharding outside of computation when
  using mixed precision'; pre_unshard skips the low-precision shard while `_force_full_precision`, i.e. under
  summon_full_params), and verl keeps its actor's parameters in fp32 (fsdp_workers.py line 210: torch_dtype fp32
  for the actor; the scenario's weight dtype, Dtypes.weight). Each GPU receives the (n - 1) / n of every tensor it
  does not hold, over the FSDP group's link.
- Adapters to the host: `.cpu()` of a CUDA tensor is a synchronous copy (the host waits for it): one device-to-host
  round trip (presets/host_overhead.json sync_seconds) per adapter tensor, A and B of every adapted linear; their
  bytes (rank x (d_in + d_out) x 4 per linear, about 0.2 GB for Qwen2.5-7B at rank 32) are left out: a few ms.
- vLLM's level-1 sleep (vllm-project/vllm vllm/device_allocator/cumem.py at 9ac96588, CuMemAllocator.sleep /
  wake_up; LLM.sleep(level=1) offloads the "weights" tag): every weight allocation is copied with cudaMemcpy to a
  CPU backup allocated with pin_memory=is_pin_memory_available(), then unmapped; wake_up maps it again and copies it
  back. So the engine's weights cross the host link twice a step (pinned), whatever the policy's method. Level 2
  discards them (nothing copied back: the sync rewrites them).
The collection's work per FSDP unit, adapter tensor and parameter byte (the summon's unshards, the synchronizes, the
DTensor state dict's clones, full_tensor's all-gathers): adapter_summon.py, added where the sync is taken
(adapter_load.py adapters_into_engine_seconds). Not counted, for want of a figure: the empty_cache calls (one per
summoned layer under layered_summon, each returning the allocator's free blocks to the driver), vLLM's add_lora
(LoRAModel.from_lora_tensors on the CPU and the copy into its LoRA stacks), the KV cache's re-mapping at wake-up.
"""

from __future__ import annotations

from typing import Any

from ..frameworks import defaults_for
from ..memory.states import lora_targets, lowest_adapted_layer
from ..scenario import Scenario
from ..scenario.behaviour import fsdp_shards
from ..scenario.choices import ADAPTER_METHODS
from ..timing.host_table import host_figures
from .phases import StepParts


def serves_adapters(s: Scenario) -> bool:
    """The engine receives a LoRA policy's adapters, not merged weights (PostTrainingDefaults.rollout_serves_adapters:
    verl's add_lora)."""
    return s.method in ADAPTER_METHODS and defaults_for(s.framework).posttraining.rollout_serves_adapters


def adapter_tensors(s: Scenario, spec: Any) -> int:
    """The adapter tensors of the policy: A and B of every adapted linear in every layer that carries adapters (the
    top lora_layers; every layer by default)."""
    return 2 * len(lora_targets(s, spec, spec.is_moe)) * (spec.layers - lowest_adapted_layer(s, spec))


def full_precision_gather_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds of summon_full_params over the policy: every parameter all-gathered in its stored (full) precision,
    each GPU receiving the shards it lacks over the FSDP group's link (the node's, or between nodes when the group
    spans them)."""
    ranks = s.dp if fsdp_shards(s) else 1
    if ranks <= 1:
        return 0.0
    full = p.spec.total_params * p.dt.weight / (s.tp * s.pp)
    link = hw.intra_bytes_per_s if s.tp * s.pp * ranks <= s.gpus_per_node else hw.inter_bytes_per_s
    return full * (ranks - 1) / ranks / link


def adapter_copy_seconds(s: Scenario, spec: Any) -> float:
    """Seconds of the adapters' synchronous copies to the host: one round trip each (module docstring)."""
    return adapter_tensors(s, spec) * host_figures()["sync_seconds"]["value"]  # not scaled by the host (its source)


def sleep_copy_seconds(p: StepParts, hw: Any) -> float:
    """Seconds of vLLM's level-1 sleep and wake-up on one engine GPU: its weights to pinned CPU memory after the
    generation and back before the next (module docstring); 0 without an engine on the training GPUs or at another
    sleep level."""
    rs, e = p.rs, p.engine
    if e is None or rs.placement != "colocate" or rs.sleep != "level-1" or rs.rollout_engine != "vllm":
        return 0.0
    return 2 * e.weight_bytes / hw.host_bytes_per_s


def adapter_sync_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """The trainer's side of an adapters-only sync: the full-precision gather and the adapters' copies to the host."""
    return full_precision_gather_seconds(p, s, hw) + adapter_copy_seconds(s, p.spec)


__all__ = ["adapter_copy_seconds", "adapter_sync_seconds", "adapter_tensors", "full_precision_gather_seconds",
           "serves_adapters", "sleep_copy_seconds"]
