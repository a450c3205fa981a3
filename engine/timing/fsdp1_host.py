"""Host time of FSDP1's own work on each unit visit (PyTorch FullyShardedDataParallel): the calls its unshard and
reshard make, counted from its sources, and its own Python around them, measured on the CPU. Shared by the training
step (every FSDP1 unit of the trained model: auto-wrap policies make each decoder layer one; engine/timing/host.py
layer_unit_seconds adds a layer's visits to its host work) and the post-training terms of the LoRA adapters' own units
(engine/posttraining/adapter_units.py, whose docstring gives the counts' sources and the exposure rule of the adapters).

What each visit calls is counted from pytorch/pytorch torch/distributed/fsdp/_runtime_utils.py and _flat_param.py at
00ae0bc91ac2 (VISIT_CALLS); each kernel is costed at presets/host_overhead.json launch_seconds, each other call
through PyTorch at view_seconds, the FSDP wrapper's call of the inner module at module_call_seconds (times the
host's factor), FSDP's own Python between them at view_seconds per view call it takes
(FSDP1_PYTHON_VIEW_CALLS, benchmarks/verl_lora_host_counts.py: per unit, averaged over a decoder layer's 15 units,
the layer's own among them). A decoder layer's unit holds more parameters than an adapter's (its views split more),
which the average over the 15 carries only in part: a lower bound for it.
"""

from __future__ import annotations

from ..scenario import Scenario
from ..scenario.behaviour import fsdp1_wrap, fsdp_shards

# (kernels, other PyTorch calls, module calls) of one unit's visit, counted from the FSDP1 sources (module docstring):
# forward (no grad): the pre-unshard stream's enter and exit (2), _use_low_precision_shard's storage alloc, .to and
# .data set (3) and its copy_ cast (kernel), the unshard stream's wait on it (record + wait: 2), the unshard stream's
# enter and exit (2), the padded unsharded alloc (1), all_gather_into_tensor (kernel), the unpadded slice, view and
# .data set (3), _use_unsharded_views' split and view (2), post_unshard's record_stream and free (2), the compute
# stream's wait (2); the reshard's .data set, record_stream and free (3) and its free event's creation and record (2);
# the wrapper's record_function enter and exit (2): 2 kernels, 26 calls, 1 call of the inner module.
# forward with grad: + the pre-backward hook's register_hook on the output (1).
# backward: _pre_backward_hook's record_function (2) and the unshard as above without the views (17 calls, 2 kernels:
# cast, all-gather); _post_backward_hook's record_function (2), reshard (5), the post-backward stream's wait and
# enter/exit (4), the gradient's cast to the fp32 reduce dtype (kernel) and .data set (1), chunk (1), empty_like (1),
# the reduce-scatter hook's pre- and post-division (2 kernels; one over 2 ranks, whose pre-divide factor is 1), the
# reduce-scatter (kernel), the sharded gradient's accumulation (kernel) and record_stream (1): 7 kernels, 34 calls.
VISIT_CALLS = {"forward": (2, 26, 1), "forward_grad": (2, 27, 1), "backward": (7, 34, 0)}
# FSDP1's own Python per unit visit beyond VISIT_CALLS (its state and handle checks, the hooks' bookkeeping, the
# Python-level tensor calls around the counted dispatches), in view calls (host_overhead.json view_seconds: the
# unit peft_python_seconds uses): measured by benchmarks/verl_lora_host_counts.py, which runs the logs' code path
# (transformers 4.52.4 Qwen2ForCausalLM, peft 0.15.2 LoRA r 32 all-linear, non-reentrant checkpointing, FSDP1 with
# verl 9466d371e's LoRA wrap policy and mixed precision, torch 2.13.0, 2 gloo ranks, collectives as no-ops) on the
# CPU at tiny widths: the thread seconds a decoder layer's 15 units add (with FSDP1 less without, 4 layers less 2),
# per unit, less VISIT_CALLS at the same CPU's per-call prices, over its view call; the median of three runs on a
# shared 2-core build host (forward 164.0, 120.4, 132.6; forward_grad 200.6, 170.2, 157.2; backward 367.3, 280.9,
# 263.5; the recompute's visit taken as forward_grad's)
FSDP1_PYTHON_VIEW_CALLS = {"forward": 132.6, "forward_grad": 170.2, "backward": 280.9}


def visit_seconds(visit: str, launch: float, call: float, module: float) -> float:
    """Host seconds of one unit's visit (VISIT_CALLS and FSDP1_PYTHON_VIEW_CALLS) at these per-call prices (a launch,
    a Python call through PyTorch, a module call; engine/timing/host.py visit_host_seconds gives the run's host's)."""
    kernels, calls, modules = VISIT_CALLS[visit]
    return kernels * launch + (calls + FSDP1_PYTHON_VIEW_CALLS[visit]) * call + modules * module


def wraps_layer_units(s: Scenario) -> bool:
    """FSDP1 shards the model over more than one rank, each decoder layer a unit of its own: FSDP1's auto-wrap
    policies make every decoder layer a unit (transformer_auto_wrap_policy; verl 9466d371e fsdp_utils.py
    get_fsdp_wrap_policy: the decoder-layer class or'd with the LoRA lambda). One rank runs NO_SHARD: nothing to
    unshard."""
    return fsdp_shards(s) and fsdp1_wrap(s) and s.dp > 1


__all__ = ["FSDP1_PYTHON_VIEW_CALLS", "VISIT_CALLS", "visit_seconds", "wraps_layer_units"]
