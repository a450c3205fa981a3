"""The host path of Megatron's fp8 parameter update, which no GPU work hides.

Megatron-Core's optimizer step (NVIDIA/Megatron-LM at tag 25.09-alpha.rc1, d339190, the container of MLPerf Training
v5.1's Llama 3.1 8B submissions) clips the gradients by their global norm before it steps: get_grad_norm_fp32
(megatron/core/optimizer/clip_grads.py lines 99 and 133) reads the norm with .item(), a device-to-host round trip
after which the GPU has no queued work. What the host does next runs on an idle GPU. With --fp8-param-gather under
the distributed optimizer, DistributedOptimizer._copy_main_params_to_model_params (distrib_optimizer.py) calls
quantize_param_shard with every fp8 parameter of its buffers (_get_fp8_params_and_shard_fp32_from_fp8: None as the
shard where the rank holds none), and it passes them to Transformer Engine's cast_master_weights_to_fp8
(NVIDIA/TransformerEngine v2.8, 40c69e7, transformer_engine/pytorch/tensor/utils.py), whose current-scaling path
(_cast_master_weights_to_fp8_current_scaling) makes, for each weight whether or not this rank holds a shard of it,
three PyTorch view calls (line 251: its slice of the packed amax buffer; lines 269-270: the views of its scale and
scale_inv), then all-reduces the packed amaxes over the data-parallel group (line 279: the casts wait for it). Only
those are counted: the weights' Python bookkeeping (_get_quantizer, _reset_caches) and the casts of this rank's own
shards are left out, so the figure is a lower bound. The weights are the Float8Tensor parameters of Megatron's layers:
linear_qkv and linear_proj (MLA: its separate projections), linear_fc1 and linear_fc2, and in an MoE layer each local
expert's two (Transformer Engine's GroupedLinear registers weight0..weightN-1, one per expert) and a shared expert's
two. Delayed scaling takes the same path with more calls a weight: Transformer Engine v2.2 (c55e425,
transformer_engine/pytorch/tensor/utils.py _cast_master_weights_to_fp8_delayed_scaling) loops over every fp8 weight
whether or not the rank holds a shard of it, three view calls each (lines 133-135: its quantizer's amax and scale,
its scale_inv), then packs the amaxes and the scales through per-weight views (lines 164 and 179:
packed[i].view(1), an index and a view each) and all-reduces the packed amaxes over the data-parallel group (line
168). Megatron-Core's own loop for Transformer Engine 2.0-2.1, which a 2.2 development build such as NeMo 25.04's
bee4649c (2.2.0.dev0) also takes (NVIDIA/Megatron-LM 3cdfd613 megatron/core/fp8_utils.py: is_te_min_version("2.2")
is False for a .dev0 release, megatron/core/utils.py line 265), makes the same calls: the three views and
_reset_caches per weight, the packed scale and amax views, one all-reduce over the data-parallel group. No Qt.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..frameworks import defaults_for
from ..models.architecture import ModelSpec
from ..models.parameter_tensors import mean_over_layers
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS
from .collectives import ALL_REDUCE, nccl_nvls, small_message_latency
from .hardware import Hardware
from .host import host_call_seconds, host_figures
from .layer_settings import current_scaling, fp8_casts, te_delayed_scaling
from .links import nvlink_domain

# Transformer Engine v2.8 utils.py _cast_master_weights_to_fp8_current_scaling: view calls per fp8 weight (above)
VIEWS_PER_WEIGHT = 3
# Transformer Engine v2.2 utils.py _cast_master_weights_to_fp8_delayed_scaling: three views, and an index and a view
# into each of the packed amax and scale buffers, per fp8 weight (above)
DELAYED_CALLS_PER_WEIGHT = 7


def fp8_param_cast_seconds(s: Scenario, prof: dict[str, Any], spec: ModelSpec, hw: Hardware, layers: int,
                           trained_share: float = 1.0) -> float:
    """Seconds per step the GPU idles while the host runs the fp8 parameter update of Megatron's optimizer step (the
    module's text): the grad-norm round trip, the recipe's Python calls per fp8 weight of the rank's `layers`
    decoder layers (`trained_share` of them: the buffers hold only the weights that train, so frozen layers add
    none), and the latency of the amax all-reduce over the dp x cp ranks. 0 unless the scenario keeps its weights in
    fp8 (fp8_param_gather) under the distributed optimizer with one of Transformer Engine's per-tensor recipes,
    tensorwise (current scaling, VIEWS_PER_WEIGHT calls a weight) or delayed (DELAYED_CALLS_PER_WEIGHT), the paths
    read here, and trains them (LoRA's adapters are not fp8 weights); Megatron's frameworks only
    (takes_megatron_arguments), since the update is its DistributedOptimizer's."""
    if not (s.fp8_param_gather and s.precision == "fp8" and s.effective_zero >= 1  # the scenario's keys first:
            and s.method not in ADAPTER_METHODS  # every step time asks, few keep fp8 weights
            and defaults_for(s.framework).takes_megatron_arguments):  # Megatron's DistributedOptimizer runs it
        return 0.0
    calls = _calls_per_weight(fp8_casts(s, prof))
    if not calls:
        return 0.0
    weights = layers * _weights_per_layer(spec, s.ep) * min(1.0, max(trained_share, 0.0))
    call = host_call_seconds(s)[1]
    ranks, domain = s.dp * s.cp, nvlink_domain(s, hw)
    # a few KB of amaxes: NCCL sends them with the protocol of the lowest latency (LL's ring or tree, or NVLS where
    # the framework leaves it on: collectives.small_message_latency)
    amax = small_message_latency(hw, ALL_REDUCE, ranks, s.tp * ranks, domain, s.tp,
                                 nvls=nccl_nvls(prof)) if ranks > 1 else 0.0
    return host_figures()["sync_seconds"]["value"] + weights * calls * call + amax


def _calls_per_weight(recipe: str) -> int:
    """Host tensor calls per fp8 weight of Transformer Engine's master-weight cast for a cast recipe (fp8_casts' key):
    current scaling's VIEWS_PER_WEIGHT, Transformer Engine's delayed scaling (te-delayed and its non-TN and ROCm
    variants) DELAYED_CALLS_PER_WEIGHT; 0 for the recipes whose path is not read here (MXFP8, blockwise, torchao)."""
    if current_scaling(recipe):
        return VIEWS_PER_WEIGHT
    return DELAYED_CALLS_PER_WEIGHT if te_delayed_scaling(recipe) else 0


@lru_cache(maxsize=256)
def _weights_per_layer(spec: ModelSpec, ep: int) -> float:
    """Megatron's fp8 weight tensors of one decoder layer, averaged over the model's layer kinds (the module's text).
    A gated DeltaNet layer's mixer and a hybrid stack's Mamba-2 mixer are two, in_proj and out_proj (Megatron-LM
    d98e8a64 megatron/core/ssm/gated_delta_net/common.py lines 211 and 274, ssm/mamba_mixer.py lines 281 and 437);
    a hybrid's MLP and MoE blocks have no attention, its attention blocks no MLP."""
    attention = len(spec.attention_linears()) if spec.attention == "mla" else 2

    def count(kind: tuple[bool, bool, str]) -> float:
        moe, linear_attn, block = kind
        mixer = 0 if block in ("mlp", "moe") else 2 if (linear_attn or block) else attention
        if not moe:
            return mixer + (2 if block in ("", "mlp") else 0)
        return mixer + 2 * spec.n_experts / max(ep, 1) + (2 if spec.shared_ffn else 0)
    return mean_over_layers(spec, count)
