"""What the memory calibration key accepts (issue 27.4): one figure measured on the machine that ran the plan, and
what the plan predicted for it then, like time_calibration's measured and predicted step times.

- "peak_reserved" (torch.cuda.max_memory_reserved): the difference is the allocator's fragmentation on that machine;
- "nvidia_smi" (the process's memory.used): the difference is the CUDA context and library workspaces;
- "peak_allocated" (torch.cuda.max_memory_allocated): the memory model's own figure, not an overhead: it is shown
  beside the plan and fits nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from .keys import MEGATRON, MEMORY_ONLY, Check, Choice, Flag, Number, Parsed, WholeNumber, key
from .pipeline_layout import parse_pipeline_layout

RECOMPUTE_METHODS = ("block", "uniform")  # Megatron --recompute-method (engine/scenario/recompute_layers.py)
MEMORY_FIGURES = ("peak_reserved", "nvidia_smi", "peak_allocated")
CALIBRATION_BYTES_RANGE = (2**20, 2**50)  # 1 MiB to 1 PiB
# Overheads are a few GiB beside tens of GiB of model: a measured figure more than 2x off the prediction was taken
# of another set-up (or in other units), and fitting an overhead to it would move every plan by the whole error.
MEMORY_CALIBRATION_FACTOR_RANGE = (0.5, 2.0)


@dataclass(frozen=True, slots=True)
class MemoryCalibration:
    figure: str
    measured_bytes: int
    predicted_bytes: int

    @property
    def difference_bytes(self) -> int:
        return self.measured_bytes - self.predicted_bytes

    def file_form(self) -> dict[str, Any]:
        return {"figure": self.figure, "measured_bytes": self.measured_bytes, "predicted_bytes": self.predicted_bytes}


FSDP_VERSIONS = ("auto", 1, 2)


@dataclass(frozen=True)
class FsdpVersion(Check):
    """"auto" (the framework's default: engine/frameworks/defaults.py fsdp_version), 1 or 2."""

    def parse(self, key: str, value: Any) -> int | str:
        if value == "auto" or (type(value) is int and value in (1, 2)):
            return value
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", 'must be 1, 2 or "auto", not {p!r}.'), p=value)

    def describe(self) -> str:
        return '"auto" | 1 | 2'

    def samples(self) -> tuple[Any, ...]:
        return FSDP_VERSIONS

    def choices(self) -> tuple[Any, ...]:
        return FSDP_VERSIONS


@dataclass(frozen=True)
class LayersOrAuto(Check):
    """"auto" (the model's own count) or a whole number of layers, 0 for none."""

    def parse(self, key: str, value: Any) -> int | str:
        if value == "auto" or (type(value) is int and 0 <= value <= 64):
            return value
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", 'must be "auto" or a whole number from 0 to 64, not '
                                                             '{p!r}.'), p=value)

    def describe(self) -> str:
        return '"auto" | whole number 0..64'

    def samples(self) -> tuple[Any, ...]:
        return ("auto", 0, 1, 64)


@dataclass(frozen=True, kw_only=True)
class MemoryKeys:
    """Memory keys declared outside engine/scenario/format.py (a base class of `Scenario`, like ServingKeys)."""

    # mlx-lm's --num-layers (ml-explore/mlx-lm@d78bf58e mlx_lm/lora.py line 58: default 16; tuner/utils.py
    # linear_to_lora_layers line 104: `for l in model.layers[-max(num_layers, 0):]`, so -1 adapts every layer) and
    # PEFT's layers_to_transform; autograd (MLX's value_and_grad as PyTorch's) runs no backward below the lowest layer
    # that has a trainable parameter
    lora_layers: int = key(0, "decoder layers carrying LoRA adapters, counted from the top (mlx-lm --num-layers, "
                           "PEFT layers_to_transform of the top layers); the layers below the lowest adapted one run "
                           "no backward and keep no activations for it; 0: every layer", WholeNumber(0, 100_000),
                           applies_to="method lora, qlora")
    fsdp_version: int | str = key("auto", "PyTorch FSDP1 (FullyShardedDataParallel: flat parameters, wrapping "
                                  "leaves one unit more in the load peak) or FSDP2 (fully_shard); auto: the "
                                  "framework's (1 for accelerate, the Trainer and litgpt's Fabric)", FsdpVersion(),
                                  applies_to="fsdp")
    mtp_layers: int | str = key("auto", "Megatron --mtp-num-layers: multi-token-prediction layers trained after the "
                                "decoder (each one decoder layer of the model's last kind, a 2h -> h projection, norms "
                                "and the shared output layer and loss run again), on the pipeline stage the layout "
                                "gives them, else the last (full training only); auto: the checkpoint's (DeepSeek-V3: "
                                "1), 0: none",
                                LayersOrAuto(), applies_to=MEGATRON)
    pipeline_layout: str = key("", 'Megatron pipeline_model_parallel_layout: which chunk holds the embedding (E), '
                               'decoder layers (t), MTP layers (m) and the loss (L), chunks separated by "|", pp x vpp of '
                               'them, e.g. "Et*4|(t*4|)*14tmL" (Megatron-Bridge\'s DeepSeek-V3 recipes); a layout whose '
                               "chunks or decoder layers do not match pp x vpp and the model is not used; \"\": the even "
                               "split", Parsed(parse_pipeline_layout, "text: Megatron layout string, or \"\"",
                                               ("", "Et*4|(t*4|)*14tmL")), applies_to=MEGATRON)
    optimizer_offload_fraction: float = key(
        0.0, "Megatron-Core optimizer_offload_fraction (optimizer_cpu_offload: HybridDeviceOptimizer), read with "
        'offload "optimizer" under the megatron framework: the share of each rank\'s optimizer shard, by elements, '
        "whose Adam moments live in CPU memory and are stepped there by torch's fused CPU AdamW (the fp32 "
        "gradients copied to the host, the fp32 parameters back); the fp32 master weights and main gradients stay "
        "on the GPU (with precision_aware_optimizer the offloaded share's master weights are on the CPU too). 0: the "
        "offload key alone (the whole optimizer, its master weights and the gradients on the CPU, "
        "as DeepSpeed's ZeRO-Offload); ignored by the other frameworks",
        Number(0, 1, QT_TRANSLATE_NOOP("engine", "must be a number between 0 and 1, not {p!r}."), low_inclusive=True,
               to_float=True), applies_to="offload optimizer")
    # NVIDIA/Megatron-LM@23265d2d: megatron/core/optimizer/optimizer_config.py lines 398-404 (precision-aware with
    # optimizer_cpu_offload takes the path without the distributed optimizer's fp32 copies), distrib_optimizer.py
    # lines 394-424 (shard_main_param = None on that path), cpu_offloading/hybrid_optimizer.py lines 273-281 (the
    # offloaded share's fp32 clone made on the CPU, the rest's on the GPU); megatron/training/arguments.py lines
    # 1553-1557 require the flag with --optimizer-cpu-offload; Megatron-Bridge's recipes leave it False.
    precision_aware_optimizer: bool = key(
        False, "Megatron-Core use_precision_aware_optimizer (--use-precision-aware-optimizer, which Megatron-LM's "
        "command line requires with --optimizer-cpu-offload), read with optimizer_offload_fraction: the distributed "
        "optimizer keeps no fp32 copy of the bf16 parameters and HybridDeviceOptimizer makes its own, the "
        "offloaded share's in CPU memory, so only the rest's fp32 master weights stay on the GPU; false "
        "(Megatron-Core's default, Megatron-Bridge's recipes): the fp32 master weights all stay on the GPU",
        Flag(), affects=MEMORY_ONLY, applies_to="offload optimizer")
    recompute_num_layers: int = key(
        0, "decoder layers per pipeline stage (per model chunk with vpp) that full checkpointing recomputes "
        "(Megatron --recompute-num-layers, NeMo recompute_num_layers); block: the first N keep only their input, "
        "the others all their activations (torchtitan's selective_ac_option N, every N-th block: floor(layers / N) "
        "of them); uniform: groups of N layers, each group keeps its input and is recomputed at once; 0: every "
        "layer, each its own checkpoint", WholeNumber(0, 1_000), applies_to="checkpointing full")
    recompute_method: str = key(
        "block", "Megatron --recompute-method read with recompute_num_layers: block (the first N layers of each "
        "stage or chunk recomputed, the rest not) or uniform (every layer recomputed, N at a time)",
        Choice(RECOMPUTE_METHODS), applies_to="checkpointing full")
    dp_shard: int = key(0, "data-parallel x context-parallel ranks each ZeRO / FSDP shard group spans, the states "
                        "replicated across the groups (hybrid sharding: torchtitan data_parallel_shard_degree, FSDP "
                        "HYBRID_SHARD / HSDP, Megatron dp / --num-distributed-optimizer-instances, InternEvo "
                        "parallel.zero1): gathers and reduce-scatters within the group, the reduced shard all-reduced "
                        "across the groups; 0: one group of all of them; else at least 2, dividing dp x cp",
                        WholeNumber(0, 4096), applies_to="zero_stage > 0 or fsdp or distributed_optimizer")


def _error(template: str, **params: Any) -> ScenarioError:
    return ScenarioError("memory_calibration", template, **params)


def parse_memory_calibration(value: Any) -> MemoryCalibration | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"figure", "measured_bytes", "predicted_bytes"}:
        raise _error(QT_TRANSLATE_NOOP("engine", 'must be {{"figure": F, "measured_bytes": M, "predicted_bytes": P}} '
                                                 "or null."))
    if value["figure"] not in MEMORY_FIGURES:
        raise _error(QT_TRANSLATE_NOOP("engine", "figure must be one of {choices}."), choices=", ".join(MEMORY_FIGURES))
    measured, predicted = value["measured_bytes"], value["predicted_bytes"]
    low, high = CALIBRATION_BYTES_RANGE
    if not all(type(v) is int and low <= v <= high for v in (measured, predicted)):
        raise _error(QT_TRANSLATE_NOOP("engine", "the measured and predicted figures must each be whole bytes from "
                                                 "{low:,} (1 MiB) to {high:,} (1 PiB)."), low=low, high=high)
    if not MEMORY_CALIBRATION_FACTOR_RANGE[0] <= measured / predicted <= MEMORY_CALIBRATION_FACTOR_RANGE[1]:
        raise _error(QT_TRANSLATE_NOOP("engine", "the measured figure is more than {limit:g} times off the predicted "
                                                 "one: it was measured on another set-up, or in other units."),
                     limit=MEMORY_CALIBRATION_FACTOR_RANGE[1])
    return MemoryCalibration(value["figure"], measured, predicted)
