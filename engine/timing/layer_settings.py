"""What one layer's cost reads from the scenario and the framework's time profile (presets/efficiency.json
frameworks): the fp8 cast recipe, how the experts' GEMMs are issued and how the MoE tokens are dispatched."""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for
from ..memory.states import dtypes_for
from ..scenario import Scenario
from ..scenario.behaviour import main_grads_fp32
from .data import efficiency
from .grouped_mm_rate import grouped_mm_rate
from .hardware import Hardware
from .links import ep_local_ranks
from .nvfp4 import NVFP4_CASTS, nvfp4_linear_rate, trains_nvfp4
from .sequential_experts import SEQUENTIAL


def fp8_casts(s: Scenario, prof: dict[str, Any]) -> str:
    """Key of the fp8 cast figures (efficiency.json fp8_cast_bytes): the framework's fp8 library and recipe, the
    scenario's recipe where it names one, the non-TN variant of Transformer Engine's per-tensor recipes on the GPUs
    whose fp8 GEMMs need no transposed operand (_non_tn_gpus), ROCm's port of it on CDNA3 (_rocm_te_gpus); "" without
    fp8; NVFP4's own (nvfp4.py) under precision nvfp4."""
    if trains_nvfp4(s):
        return NVFP4_CASTS
    if s.precision != "fp8":
        return ""
    table = efficiency()["fp8_cast_bytes"]
    key = prof["fp8_recipe"] if s.fp8_recipe == "auto" else prof["fp8_recipe"].split("-")[0] + "-" + s.fp8_recipe
    # a recipe the framework's library lacks: Transformer Engine's of that name, else torchao's (rowwise is torchao's)
    key = key if key in table else next((k for k in ("te-" + s.fp8_recipe, "torchao-" + s.fp8_recipe) if k in table),
                                        key)
    # data-centre Blackwell takes fp8 GEMM operands in any layout: Transformer Engine writes no transposed copy;
    # on CDNA3 ROCm's port runs its own cast-transpose kernel
    for prefix, gpus in (("te-nontn-", "_non_tn_gpus"), ("te-rocm-", "_rocm_te_gpus")):
        variant = key.replace("te-", prefix, 1)
        if variant in table and isinstance(s.gpu, str) and s.gpu in table[gpus]:
            return variant
    return key


def current_scaling(recipe: str) -> bool:
    """Whether an fp8 cast recipe (fp8_casts' key) is Transformer Engine's current scaling (Float8CurrentScaling:
    efficiency.json fp8_cast_bytes current_scaling), whose quantizers take each tensor's amax as they cast: under
    sequence parallelism an all-reduce over the TP group (sequence_parallel.py), and Megatron's fp8 parameter update
    casts its master weights through it (fp8_param_cast.py)."""
    return bool(efficiency()["fp8_cast_bytes"].get(recipe, {}).get("current_scaling"))


def te_delayed_scaling(recipe: str) -> bool:
    """Whether an fp8 cast recipe (fp8_casts' key) is Transformer Engine's delayed scaling (te-delayed and its non-TN
    and ROCm variants), whose amax history is all-reduced at each autocast exit (delayed_amax.py) and whose master
    weights Megatron's fp8 parameter update casts through its own path (fp8_param_cast.py)."""
    return recipe.startswith("te-") and recipe.endswith("-delayed")


def fp8_linear_rate(s: Scenario, hw: Hardware, prof: dict[str, Any]) -> float:
    """FLOP/s of the fp8 GEMMs: the GPU's fp8 peak x its per-tensor fp8 MAMF fraction x the share it sustains x the
    rate of the recipe's kernels against per-tensor ones (efficiency.json fp8_gemm_rate_of_tensorwise: MXFP8's
    block-scaled cuBLAS GEMMs 0.933); the bf16 GEMMs' rate for a recipe whose library's fp8 GEMMs were measured at
    parity with bf16 (efficiency.json fp8_gemm_at_bf16_rate: Transformer Engine's ROCm port of late 2024)."""
    if trains_nvfp4(s):
        return nvfp4_linear_rate(hw)
    casts = fp8_casts(s, prof)
    if casts in efficiency()["fp8_gemm_at_bf16_rate"]["recipes"]:
        return hw.peak("bf16") * hw.matmul_fraction * hw.sustained_fraction
    recipe = float(efficiency()["fp8_gemm_rate_of_tensorwise"].get(casts, 1.0))
    return hw.peak("fp8") * hw.fp8_matmul_fraction * hw.fp8_sustained_fraction * recipe


def linear_tile_format(s: Scenario, prof: dict[str, Any], linear_fmt: str) -> str:
    """The format whose library tile the decoder linears' GEMMs take (gemm.py gemm_tiles): the bf16 one for a recipe
    whose fp8 GEMMs were measured at parity with bf16 GEMMs of the same shapes (efficiency.json fp8_gemm_at_bf16_rate:
    they cost what a bf16 GEMM costs, in shape as in rate), else the linears' own format."""
    return "bf16" if fp8_casts(s, prof) in efficiency()["fp8_gemm_at_bf16_rate"]["recipes"] else linear_fmt


def expert_gemms(s: Scenario, prof: dict[str, Any]) -> dict[str, Any]:
    """How the routed experts' GEMMs run, as layer_cost's keywords: expert_streams (compute streams the framework
    issues one GEMM per local expert on, 0 for one grouped kernel), wgrad_out_bytes (read + write bytes per element
    of a weight gradient accumulated into main_grad in place, 0 where it is written apart), from
    presets/efficiency.json frameworks: expert_gemm_streams, wgrad_into_main_grad; expert_rate: the share of the
    linears' rate the framework's grouped kernel reaches (grouped_mm_rate.py). Where the framework issues one GEMM
    per expert and the scenario turns grouped GEMM off (moe_grouped_gemm false: Megatron-Core's SequentialMLP), the
    experts run one after another on the compute stream: 1 stream."""
    streams = int(prof.get("expert_gemm_streams", 0))
    accumulate = 2 * (4 if main_grads_fp32(s) else dtypes_for(s).grad) if prof.get(
        "wgrad_into_main_grad") else 0
    return {"expert_streams": 1 if streams and not s.moe_grouped_gemm else streams, "wgrad_out_bytes": float(accumulate),
            "expert_rate": grouped_mm_rate(s, prof)}


def tp_regions(block: str) -> tuple[bool, bool]:
    """(attention region, MLP region): the tensor-parallel regions of a layer, each a column-parallel linear's
    input all-gathered and a row-parallel one's output reduce-scattered (or one all-reduce). A transformer layer (or
    a gated DeltaNet layer: in_proj, out_proj) has both; a hybrid stack's block is one mixer with its residual
    (models/hybrid_blocks.py): a Mamba block's in_proj and out_proj (Megatron-LM d98e8a64 megatron/core/models/
    hybrid/hybrid_layer_specs.py lines 116-130: TELayerNormColumnParallelLinear and TERowParallelLinear; ssm/
    mamba_mixer.py lines 281 and 437) and an attention block's QKV and proj are the attention region, an MLP or MoE
    block's MLP the MLP region."""
    if not block:
        return True, True
    return block in ("mamba", "attention"), block in ("mlp", "moe")


def forward_pair_units(moe: bool, moe_pair: float, regions: tuple[bool, bool] = (True, True)) -> float:
    """A layer's forward tensor-parallel units: the attention's one and the MLP's one, or an MoE layer's token
    dispatcher pair (`moe_pair` units, expert_tp_gather.moe_pair_units: none with etp 1); a hybrid block's one
    region (tp_regions)."""
    return (1.0 if regions[0] else 0.0) + ((moe_pair if moe else 1.0) if regions[1] else 0.0)


def column_wgrad_linears(moe: bool, regions: tuple[bool, bool] = (True, True)) -> int:
    """Column-parallel linears of a layer that get a weight gradient and whose input sequence parallelism gathers:
    the attention region's (QKV, a Mamba block's in_proj) and a dense MLP region's fc1 (an MoE layer's experts run
    outside the TP group)."""
    return int(regions[0]) + int(regions[1] and not moe)


def tp_collectives(s: Scenario, prof: dict[str, Any], backward: bool, recomputed: bool, column_wgrads: int,
                   moe: bool = False, moe_pair: float = 1.0, regions: tuple[bool, bool] = (True, True)) -> float:
    """Tensor-parallel collectives of one layer and micro-batch, in all-reduce units (an all-reduce, or under
    sequence parallelism an all-gather + reduce-scatter pair: 2 (tp - 1) / tp of the activation): 2 forward (after
    the attention and the MLP), 2 backward, 2 more when full recompute runs the forward again. torchtitan's per-op
    policy saves reduce_scatter outputs but not all_gather or all_reduce (parallelize_llama.py _save_list): its
    recompute runs the forward's all-gathers again (half of the pairs under SP) or both all-reduces (plain TP).
    Where the framework keeps only its rank's part of a column-parallel layer's sequence-parallel input
    (presets/efficiency.json frameworks sp_backward_regather: Transformer Engine's LayerNormLinear and Linear,
    ln_out_needs_gather / backward_input_needs_gather = weight.requires_grad and column-parallel and
    sequence_parallel, at v2.2), the backward all-gathers it again for the weight gradient: one all-gather (half a
    unit) for each of the layer's `column_wgrads` column-parallel linears that get one (QKV and a dense fc1).
    Megatron's selective 'mlp' recompute runs a dense layer's whole MLP again under te_checkpoint /
    tensor_parallel.checkpoint (megatron/core/transformer/transformer_layer.py recompute_mlp, lines 868-885 at
    2a75ac12 and 24bad8e6), so its collectives run again too: fc1's sequence-parallel all-gather and fc2's
    reduce-scatter (or fc2's all-reduce without SP), one unit (`moe` False: a dense layer). An MoE layer's MLP pair
    is its token dispatcher's, `moe_pair` units (expert_tp_gather.moe_pair_units: none with etp 1). A hybrid
    block has one of the two regions (tp_regions)."""
    passes = (2 if backward else 1) + (1 if recomputed and s.checkpointing == "full" else 0)
    count = forward_pair_units(moe, moe_pair, regions) * passes
    if recomputed and not moe and regions[1] and s.checkpointing == "selective" and "mlp" in s.recompute_modules \
            and defaults_for(s.framework).selective_by_modules:
        count += 1
    if recomputed and s.checkpointing == "op-selective":  # per region: its all-gather (SP) or all-reduce again
        count += (1 if s.sequence_parallel else 2) * sum(regions) / 2
    if backward and s.sequence_parallel and prof.get("sp_backward_regather"):
        count += 0.5 * column_wgrads
    return float(count)


def moe_dispatch(s: Scenario, prof: dict[str, Any], nvlink_ranks: int) -> dict[str, Any]:
    """How the MoE layer's tokens are dispatched, as layer_cost's keywords: the framework's permutation kernels
    (efficiency.json frameworks moe_permutation: "megatron", "transformers" (eager only), or "" for the generic
    passes), the dispatcher, the
    NVLink domains the expert-parallel group spans (`nvlink_ranks`: GPUs per NVLink domain), and whether the
    experts receive fp32 probabilities (the flex dispatcher's HybridEP manager hands them fp32), and whether the
    experts pad their rows to the fp8 alignment themselves (frameworks fp8_expert_padding; the flex dispatcher's
    HybridEP and DeepEP pad while they permute, so only the all-to-all and all-gather dispatchers leave it to
    them). Without grouped GEMM at EP 1 (moe_grouped_gemm false where the framework issues one GEMM per expert), the
    permutation is Megatron-Core's allgather dispatcher and SequentialMLP loop, kernel by kernel
    (sequential_experts.py); at EP > 1 its dispatcher's kernels are not inventoried and the generic passes stay."""
    local = ep_local_ranks(s, nvlink_ranks)  # EP ranks inside this GPU's NVLink domain (links.ep_ranks)
    flex = s.moe_token_dispatcher_type == "flex"
    permutation = str(prof.get("moe_permutation", ""))
    if permutation == "transformers" and s.compile:  # torch.compile fuses transformers' element-wise experts kernels
        permutation = ""
    if not s.moe_grouped_gemm and prof.get("expert_gemm_streams") and s.ep == 1:
        permutation = SEQUENTIAL
    return {"permutation": permutation, "dispatcher": s.moe_token_dispatcher_type,
            "ep_domains": -(-s.ep // local), "fp32_probs": flex,
            "fp8_expert_padding": bool(prof.get("fp8_expert_padding")) and s.precision == "fp8" and not flex}
