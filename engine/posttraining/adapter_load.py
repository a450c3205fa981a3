"""Time of loading a LoRA policy's adapters into a weight-sharing engine at every generate() call (issue 23:
Unsloth's GRPO rollouts; PostTrainingDefaults.rollout_loads_adapters_per_generate).

What runs, read in the releases the executed notebooks print (tests/data/published/posttraining_time.json
unsloth-nb-*; unslothai/unsloth at ce9e5475, 2025-05-26, the last commit before the Qwen3-4B notebook's run, and
unslothai/unsloth-zoo at c14e5554 of the same day): unsloth/models/rl.py lines 731-737 rewrite TRL's
`self.llm.generate(...)` to pass `lora_request = self.model.load_lora(<name>, load_tensors = True)`, so each generate()
call builds a new request: unsloth_zoo/vllm_utils.py load_lora (lines 1434-1485) takes the adapters' A and B tensors
from the policy's state_dict (the trainer's own CUDA tensors, no copy) and makes LoRARequest(str(id), id,
lora_tensors = ..., lora_config = ...) with `LORA_REQUEST_ID += 1` (line 1482): a new id every call. vLLM's worker
then misses its adapter cache (unsloth_zoo/vllm_lora_worker_manager.py add_adapter, lines 252-274: `if
lora_request.lora_int_id not in self.list_adapters()`), and _load_adapter (lines 84-170) runs
LoRAModel.from_lora_tensors(..., device="cpu", dtype=lora_dtype): per tensor `tensor.to(device=device, dtype=dtype)`,
a synchronous device-to-host copy, then `.pin_memory()`, then optimize() scales B on the CPU (vLLM 0.7.3, the
Llama-3.1-8B notebook's engine, vllm/lora/models.py lines 108-179, lora.py lines 40-46); the LRU cache (max_loras 1)
drops the previous adapter and activate_adapter (models.py lines 370-407) copies every module's A and B into the
engine's GPU LoRA stacks (layers.py set_lora: `copy_(lora_a, non_blocking=True)` into lora_a_stacked, B likewise).

Priced per call: one device-to-host round trip per adapter tensor (presets/host_overhead.json sync_seconds, as
adapter_sync.py prices verl's `.cpu()` of each adapter tensor) and the adapters' bytes across the host link twice (to
the host, back into the stacks) in the engine's LoRA dtype (vLLM's lora_dtype "auto": the model's), at the host
link's rate. Not counted, for want of a figure: the pinned copy on the host, B's scaling on the CPU, the Python of
from_lora_tensors' loop (a few calls per tensor). A few tens of ms a call: Qwen3-4B's 66,060,288 adapter parameters
(the notebook prints 'Trainable parameters = 66,060,288') in 504 tensors on a T4's PCIe 3.0 x16: 13 + 21 ms.
"""

from __future__ import annotations

from typing import Any

from ..frameworks import defaults_for
from ..memory.states import whole_model_params
from ..scenario import Scenario
from ..timing.host_table import host_figures
from .adapter_summon import adapter_summon_seconds
from .adapter_sync import adapter_sync_seconds, adapter_tensors, serves_adapters
from .phases import StepParts


def loads_adapters_per_generate(s: Scenario) -> bool:
    """The framework hands the engine its adapters anew at every generate() call (a fresh LoRA request each time),
    for a LoRA policy whose adapters the engine serves."""
    return serves_adapters(s) and defaults_for(s.framework).posttraining.rollout_loads_adapters_per_generate


def adapter_load_call_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds of one generate() call's adapter load: a round trip per adapter tensor, and the adapters' bytes (in the
    engine's compute dtype) to the host and back into the engine's stacks."""
    adapter_bytes = whole_model_params(s, p.spec).lora * p.dt.compute
    round_trips = adapter_tensors(s, p.spec) * host_figures()["sync_seconds"]["value"]  # not scaled by the host
    return round_trips + 2 * adapter_bytes / hw.host_bytes_per_s


def per_generate_adapter_load_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds a step spends loading the adapters into the engine: one load per generate() call (RLSettings.
    generate_calls: one per gradient-accumulation micro-batch where the framework generates per micro-batch); 0
    without an engine or where the framework does not reload them per call."""
    if p.engine is None or not p.rs.online or not loads_adapters_per_generate(s):
        return 0.0
    return p.rs.generate_calls * adapter_load_call_seconds(p, s, hw)


def adapters_into_engine_seconds(p: StepParts, s: Scenario, hw: Any) -> float:
    """Seconds a step spends putting the LoRA adapters into an engine that does not share the policy's weights (a
    separate one): where the framework hands them anew at every generate() call, those loads are how they get there
    (load_lora takes the policy's own tensors, module docstring), so they replace the sync; else the framework's
    adapter sync (adapter_sync.py) with the collection's per-unit, per-tensor and per-byte work (adapter_summon.py)."""
    if loads_adapters_per_generate(s):
        return per_generate_adapter_load_seconds(p, s, hw)
    return adapter_sync_seconds(p, s, hw) + adapter_summon_seconds(p, s, hw)


__all__ = ["adapter_load_call_seconds", "adapters_into_engine_seconds", "loads_adapters_per_generate",
           "per_generate_adapter_load_seconds"]
