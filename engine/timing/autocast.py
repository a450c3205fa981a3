"""PyTorch autocast over fp32 weights (precision amp-bf16 / amp-fp16): the casts it runs around every matmul, and
which element-wise path a layer's own work takes under it.

torch.autocast does not keep 16-bit weights: each matmul of an autocast region casts its fp32 weight to the compute
dtype (aten::_to_copy, 4 bytes read + 2 written per element) and caches the copy only for the rest of that region
(cached_cast keeps leaf tensors that require grad; the cache is cleared when the outermost autocast region exits:
torch/amp/autocast_mode.py at 2.11.0, autocast.__exit__, `if torch.autocast_decrement_nesting() == 0:
torch.clear_autocast_cache()`). A training loop enters one region per micro-batch
(`with torch.autocast(...): loss = model(...)`), so every micro-batch's forward casts every weight once. The backward
runs outside the region: the weight gradient comes out of the matmul in the compute dtype and ToCopyBackward0 casts
it to the fp32 of the weight before AccumulateGrad (2 read + 4 written per element), for the weights that train.
Activation checkpointing recomputes a layer inside a fresh autocast region with the forward's settings
(torch/utils/checkpoint.py at torch 2.11.0, _checkpoint_without_reentrant_generator's recompute_fn: `with
device_autocast_ctx, ...`, and the reentrant CheckpointFunction.backward likewise), so the checkpointed layers' weights
are cast again. Frameworks that keep 16-bit weights for their matmuls (FSDP's mixed-precision param_dtype, which the
published amp rows ran: the cast is then the all-gather's copy-in; DeepSpeed's bf16 mode, precision mixed-bf16) do
not cast here: only amp precision without FSDP or ZeRO sharding is counted.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..memory.states import Dtypes
from ..models.architecture import ModelSpec
from ..models.parameter_tensors import LayerKind, typical_layer_figure
from ..scenario import Scenario
from ..scenario.behaviour import whole_mla_down
from .block_mixer import block_elementwise_bytes
from .costs import elementwise_bytes_per_token
from .data import efficiency
from .gemm import Rates
from .recompute_split import recomputed_share


class StageWork(Protocol):
    trainable: float  # parameters per rank that train
    params: float
    layers: int  # decoder layers of the stage


def casts_weights(s: Scenario, prof: dict[str, Any], dt: Dtypes) -> bool:
    """Whether autocast casts fp32 weights before each matmul (see the module docstring); frameworks that never enter
    torch.autocast say so (presets/efficiency.json frameworks autocast)."""
    return (s.precision.startswith("amp") and dt.weight > dt.compute and not s.fsdp and s.effective_zero == 0
            and prof.get("autocast", True))


def autocast_seconds(s: Scenario, spec: ModelSpec, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                     busiest: StageWork) -> float:
    """Memory-bound seconds per step that autocast over fp32 weights adds on the busiest stage: each micro-batch's
    forward casts the stage's matmul weights (and the recompute of checkpointed layers casts theirs again), its
    backward casts the trained weights' gradients back to fp32; where the framework's layer is eager, its element-wise
    work over an fp32 residual stream (amp_elementwise_seconds). QLoRA's 4-bit base weights are dequantised instead
    (costs.py), not cast, and not counted here."""
    if not casts_weights(s, prof, dt) or s.method == "qlora":
        return 0.0
    return _weight_cast_seconds(s, spec, rates, dt, busiest) + amp_elementwise_seconds(s, spec, prof, rates, busiest)


def _weight_cast_seconds(s: Scenario, spec: ModelSpec, rates: Rates, dt: Dtypes, busiest: StageWork) -> float:
    def matmul_weights(kind: LayerKind) -> float:  # the layer kind's own linears (a Mamba block's, a DeltaNet's)
        expert = spec.expert_params_per_layer() / (s.ep * s.tp) if kind[0] else 0.0
        return spec.tp_linear_params(*kind, s.tp, whole_mla_down(s)) + expert
    layers = typical_layer_figure(spec, matmul_weights) * busiest.layers
    weights = layers + (spec.vocab * spec.hidden / s.tp if s.pp == 1 else 0.0)  # the LM head on the only stage
    trained = 0.0 if s.method == "lora" else min(1.0, busiest.trainable / busiest.params) if busiest.params else 1.0
    cast = dt.weight + dt.compute  # read fp32, write the compute dtype (and the reverse for a gradient)
    recast = layers * recomputed_share(s, busiest.layers)  # the recomputed layers cast their weights again
    return s.grad_accum * cast * (weights + recast + trained * weights) / rates.memory


def amp_elementwise_seconds(s: Scenario, spec: ModelSpec, prof: dict[str, Any], rates: Rates,
                            busiest: StageWork) -> float:
    """Seconds per step the eager layer's element-wise work takes beyond its 16-bit figure when the residual stream is
    fp32 and each matmul casts its input (presets/efficiency.json elementwise_bytes_per_token eager-amp against
    eager): forward, backward (backward_factor) and, under full checkpointing, the recomputed forward. Counted here,
    per step, because whether weights are fp32 depends on sharding keys the per-stage time is not keyed on."""
    if prof["elementwise"] != "eager" or s.compile or s.liger_kernels:
        return 0.0
    table = efficiency()["elementwise_bytes_per_token"]
    amp, eager = table["eager-amp"], table["eager"]
    def layer_bytes(kind: LayerKind, per: dict[str, float]) -> float:  # a hybrid block's own (block_mixer.py)
        moe, linear_attn, block = kind
        if block:
            return block_elementwise_bytes(spec, block, s.tp, s.sequence_parallel, per, rates.elem_bytes)
        return elementwise_bytes_per_token(spec, moe, s.tp, s.sequence_parallel, per, linear_attn)
    extra = typical_layer_figure(spec, lambda kind: layer_bytes(kind, amp) - layer_bytes(kind, eager))
    passes = 1.0 + table["backward_factor"] + recomputed_share(s, busiest.layers)
    tokens = s.micro_batch * s.seq_len / s.cp
    return s.grad_accum * passes * extra * tokens * busiest.layers / rates.memory
