"""The load phase (building, loading and sharding the model) and the host (CPU) memory a run needs.

Loading happens before the first step, so it is a peak of its own: a run can fail there although its steps fit.
What reaches the GPU depends on the loader (engine/frameworks/defaults.py `loader`):
- direct: transformers from_pretrained / torchtune / Unsloth put the weights on the GPU in their storage dtype; QLoRA
  quantises each weight as it arrives (one 16-bit weight at a time on top of the 4-bit ones; torchao's NF4Tensor, which
  torchtune builds, also keeps its scaled copy and its indices: engine/memory/nf4_build.py). Under FSDP, accelerate's
  cpu_ram_efficient_loading and torchtune load the full state dict on the CPU of rank 0 and send each rank its shard.
- full-then-shard: litgpt's fabric.load_raw puts the full 16-bit checkpoint on the GPU next to the FSDP shards.
- sharded: torchtitan (meta device + DCP), Megatron and DeepSpeed zero.Init build each rank's shard directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..frameworks.defaults import defaults_for
from ..scenario.behaviour import Behaviour, bf16_optimizer, fsdp1_wrap
from ..scenario.shard_group import shard_group_ranks
from .checkpoint_save import (
    NONE,
    DeepSpeedSaveInputs,
    SaveHold,
    deepspeed_save_checkpoint,
    fsdp1_full_state_dict_save,
    megatron_torch_dist_save,
)
from .hybrid_offload import HOST_BYTES_PER_OFFLOADED_PARAM, hybrid_offload_fraction
from .nf4_build import nf4_build_bytes, nf4_clone_bytes
from .states import Dtypes, StageParams, optimizer_state_bytes_per_param, quantized_bytes_per_param, quantized_sharded_split

if TYPE_CHECKING:
    from ..scenario import Scenario

GIB = 2**30
# Resident memory of one training process before any model: Python, PyTorch, CUDA runtime and communication
# libraries (typically 2-4 GiB RSS per rank for a CUDA PyTorch process).
PROCESS_HOST_BYTES = 2.5 * GIB
# DeepSpeed CPU offload keeps fp32 master weights, two Adam states and an fp32 gradient copy in host memory.
OFFLOAD_BYTES_PER_PARAM = 16
# FSDP1 wraps one unit at a time (torch/distributed/fsdp/_flat_param.py FlatParamHandle: flatten_tensors torch.cat-s
# the unit's parameters, already on the GPU, into the FlatParameter while they still exist; _get_shard then clones this
# GPU's 1/N of it): the shards of the units before + the unit + its flat copy + its shard = shard + 2 x unit at the
# last unit, one unit more than FSDP2's per-parameter sharding. The freed blocks stay in the caching allocator's pool.
FSDP1_WRAP = ("; FSDP1 wrap (torch/distributed/fsdp/_flat_param.py flatten_tensors + _get_shard): + the unit's flat "
              "copy (shards so far + 2 x unit + unit / N), cached afterwards, so max_memory_reserved() is at least "
              "this")


@dataclass(frozen=True, slots=True)
class LoadAndHost:
    load_gpu_bytes: float  # GPU bytes allocated at the load peak (one GPU)
    host_bytes: float  # CPU bytes of one node at its peak (loading or training)
    load_formula: str
    host_formula: str


@dataclass(frozen=True, slots=True)
class LoadParts:
    """The load peak and the host memory of a stage before offloaded activations are added (they depend on the
    batch; the rest does not, so engine/memory/stage_states.py keeps this with the memoised model states)."""

    load_gpu_bytes: float
    load_formula: str
    host_load_bytes: float  # CPU bytes of one node while loading
    host_train_bytes: float  # CPU bytes of one GPU's process during training, before offloaded activations
    gpus_per_node: int
    save: SaveHold = NONE  # what a checkpoint save holds on the busiest node (engine/memory/checkpoint_save.py)


def with_offloaded_activations(parts: LoadParts, offloaded_activation_bytes: float) -> LoadAndHost:
    host_train = parts.host_train_bytes + offloaded_activation_bytes
    # a save runs between steps: the offloaded states stay (the optimizer's own), the offloaded activations are freed
    saving = parts.gpus_per_node * parts.host_train_bytes + parts.save.node_bytes
    host = parts.gpus_per_node * PROCESS_HOST_BYTES + max(parts.host_load_bytes, parts.gpus_per_node * host_train,
                                                          saving)
    host_formula = ("GPUs per node x (2.5 GiB per process + offloaded states and activations), or the state dict "
                    "held while loading, whichever is larger")
    if parts.save.node_bytes:
        host_formula = ("GPUs per node x 2.5 GiB per process + the largest of: the offloaded states and activations, "
                        "the state dict held while loading, the offloaded states + the " + parts.save.formula)
    return LoadAndHost(parts.load_gpu_bytes, host, parts.load_formula, host_formula)


def load_parts(s: Scenario, dt: Dtypes, p: StageParams, fw: Behaviour, adapter_bytes: int,
               largest_linear: float = 0.0, layer_count: int = 1) -> LoadParts:
    """largest_linear: values of the stage's largest linear weight (what QLoRA quantises) on one GPU; layer_count: the
    stage's decoder layers."""
    zero3 = s.effective_zero == 3
    shards = shard_group_ranks(s) if zero3 else 1  # the shard group's ranks (dp_shard)
    q_bpp = quantized_bytes_per_param(s.qlora_bits, s.qlora_double_quant)
    dense = (p.trainable + p.frozen) * dt.weight
    released = p.released * p.released_bytes_per_param  # loaded as stored: no 16-bit copy is made
    weights = dense + p.quantized * q_bpp + released + p.lora * adapter_bytes
    full16 = (p.trainable + p.frozen + p.quantized) * 2 + released + p.lora * adapter_bytes  # the checkpoint as stored
    # bitsandbytes' quantisation constants are no parameter: ZeRO-3 / FSDP leave them whole on every GPU (states.py)
    gathered_bpp, whole_bpp = quantized_sharded_split(s.qlora_bits, s.qlora_double_quant, fw.nf4_tensor_build)
    whole = p.quantized * whole_bpp
    shard = whole + (0.0 if s.offload == "optimizer+params" else (weights - whole) / shards)
    # sync_module_states broadcasts parameters only: bitsandbytes' packed data, not its QuantState (states.py)
    unit = p.largest_unit * (gathered_bpp if s.method == "qlora" else dt.weight)
    if not zero3 and s.method == "qlora" and fw.nf4_tensor_build:
        layer = (p.quantized * q_bpp + p.lora * adapter_bytes) / max(layer_count, 1)
        gpu, formula = _torchao_qlora_load(weights, largest_linear, dt.weight, s.cloned_layers is True, layer)
        host_load = 0.0  # safetensors are memory-mapped: page cache, not process memory
    elif not zero3:
        gpu = weights + (p.largest_param * 2 if s.method == "qlora" else 0.0)
        formula = "all weights in their storage dtype (QLoRA: + one 16-bit weight being quantised)"
        host_load = 0.0  # safetensors are memory-mapped: page cache, not process memory
    elif fw.loader == "full-then-shard":
        gpu = shard + full16
        formula = "the full 16-bit checkpoint next to this GPU's shard (litgpt load_raw)"
        host_load = s.gpus_per_node * full16
    elif fw.loader == "direct":
        gpu = shard + unit
        formula = "this GPU's shard + one unit being broadcast from rank 0"
        host_load = full16  # rank 0 of each node holds the full state dict
    else:
        gpu = shard + unit
        formula = "this GPU's shard + one unit (sharded construction)"
        host_load = 0.0
    if zero3 and fw.loader != "full-then-shard" and fsdp1_wrap(s):
        gpu += unit
        formula += FSDP1_WRAP
    host_train = 0.0
    if s.offload != "none":
        params = (p.trainable + p.lora) / shard_group_ranks(s)
        hybrid = hybrid_offload_fraction(s)  # Megatron's: that share of the shard, hybrid_offload.py
        host_train += params * (hybrid * HOST_BYTES_PER_OFFLOADED_PARAM if hybrid else OFFLOAD_BYTES_PER_PARAM)
        if s.offload == "optimizer+params":
            host_train += weights / shard_group_ranks(s)
    return LoadParts(gpu, formula, host_load, host_train, s.gpus_per_node, _save(s, dt, p, weights))


def _save(s: Scenario, dt: Dtypes, p: StageParams, weights: float) -> SaveHold:
    """What the framework's default checkpoint save holds in CPU memory (engine/memory/checkpoint_save.py)."""
    states = optimizer_state_bytes_per_param(s, dt.state)
    save = defaults_for(s.framework).checkpoint_save
    if save == "fsdp1-full" and fsdp1_wrap(s):
        return fsdp1_full_state_dict_save(weights, p.trainable + p.lora, states)
    if save == "torch-dist" and not s.fsdp:
        # tensor.to("cpu") returns a tensor already in CPU memory as it is: offloaded states are not staged again
        on_gpu = 1.0 - (hybrid_offload_fraction(s) or 1.0) * (s.offload != "none")
        kept = 0.0 if s.offload == "optimizer+params" else 1.0
        expert = p.trainable_expert * (dt.weight * kept + (dt.master + states) * on_gpu)
        dense = ((weights - p.trainable_expert * dt.weight) * kept
                 + (p.trainable_dense + p.lora) * (dt.master + states) * on_gpu)
        return megatron_torch_dist_save(s.gpus_per_node, dense, expert, s.dp * s.cp, s.ep)
    if (save == "deepspeed-torch-save" and not s.fsdp and s.pp == 1 and s.ep == 1
            and (s.effective_zero >= 1 or bf16_optimizer(s))):
        frozen = (p.frozen * dt.weight + p.released * p.released_bytes_per_param
                  + p.quantized * quantized_bytes_per_param(s.qlora_bits, s.qlora_double_quant))
        # the writers of the model states: data-parallel rank 0 of each tensor-parallel group, on the first node
        return deepspeed_save_checkpoint(s.gpus_per_node, min(s.tp, s.gpus_per_node), DeepSpeedSaveInputs(
            s.effective_zero, p.trainable + p.lora, dt.weight, s.dp * s.cp, s.offload != "none",
            s.offload == "optimizer+params", frozen, p.largest_param * dt.weight))
    return NONE


def _torchao_qlora_load(weights: float, largest_linear: float, weight_bytes: int, cloned: bool,
                        layer_bytes: float) -> tuple[float, str]:
    """Init peak of a QLoRA model built from torchao NF4 weights (torchtune), one GPU (engine/memory/nf4_build.py)."""
    reserved = ("; nothing empties the cache after it, so max_memory_reserved() is at least this (the reserved "
                "figure is the larger of the step's and this)")
    if cloned:
        return weights + layer_bytes + nf4_clone_bytes(largest_linear, weight_bytes), (
            "all weights in their storage dtype + the built layer the others are deep-copied from + the NF4 clone of "
            "the largest linear weight (n values): int64 indices (8n), dequantised and scaled halves and their stack "
            "(3 x 2n in bf16)" + reserved)
    return weights + nf4_build_bytes(largest_linear, weight_bytes), (
        "all weights in their storage dtype + torchao's NF4 build of the largest linear weight (n values): the weight "
        "in the model's dtype, its scaled copy, the uint8 indices and the packing (6n bytes in bf16, or 5n + one "
        "chunk's 64 MiB of distances)" + reserved)
