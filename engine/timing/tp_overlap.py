"""How much of a decoder layer's tensor-parallel collectives stays exposed, collective by collective, from the code
that schedules each one beside its GEMM (replaces the assumed share presets/efficiency.json had for Megatron).

Sequence parallelism moves 10 collectives a dense layer (layer_settings.tp_collectives): forward the all-gather
before the QKV and fc1 GEMMs and the reduce-scatter after the proj and fc2 GEMMs; backward the all-gather of the
output gradient before the proj and fc2 input-gradient (dgrad) GEMMs, and for QKV and fc1 the all-gather of the saved
input for the weight gradient (sp_backward_regather) and the reduce-scatter of the input gradient. Without sequence
parallelism the same places hold an all-reduce after proj and fc2 (forward) and after the QKV and fc1 dgrad
(backward).

Without userbuffers (Megatron-Core's own linears and Transformer Engine's modules with tp_comm_overlap off): the
forward's collectives and the backward's output-gradient all-gathers are exposed; a column-parallel linear's backward
starts the all-gather of its saved input asynchronously, runs the dgrad GEMM, waits, then starts the reduce-scatter
(or all-reduce) of the input gradient asynchronously and runs the weight-gradient GEMM beside it (NVIDIA/Megatron-LM
megatron/core/tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication.backward: handle =
dist_all_gather_func(..., async_op=True), grad_input = grad_output.matmul(weight), handle.wait(), then
reduce_scatter_tensor / all_reduce async_op=True before the wgrad GEMM, ordered by CUDA_DEVICE_MAX_CONNECTIONS=1;
Transformer Engine's LayerNormLinear / Linear backward does the same with gather_along_first_dim(async_op=True) and
reduce_scatter_along_first_dim / allreduce(async_op=True), transformer_engine/pytorch/module/layernorm_linear.py at
v1.13 and v2.2). Each hides min(collective, its GEMM), and NCCL holds its channels' SMs while it runs beside it, so
the GEMM loses that share of its SMs for the hidden seconds (contention.nccl_sm_share, as data_parallel.py charges
the collectives it hides: 24 of an H100's 132 inside a node, 18.2%; arXiv 2507.03114 measured compute beside
overlapped NCCL collectives 18.9% slower on average over A100, H100, MI250 and MI210, 40% at most).

With userbuffers (tp_comm_overlap; Transformer Engine initialize_ub's default config, NVIDIA/TransformerEngine
transformer_engine/pytorch/module/base.py at d0067d0 get_default_config: methods ring_exchange for qkv_fprop,
fc1_fprop, proj_dgrad, fc2_dgrad; pipeline for proj_fprop and fc2_fprop, num_sm 16, num_splits 4, set_sm_margin;
bulk for qkv/fc1 dgrad and wgrad, num_sm 16, set_sm_margin; transformer_engine/common/comm_gemm_overlap/
comm_gemm_overlap.cpp: bulk_overlap and split_overlap_rs run their GEMMs on _math_sms = sm_count - num_comm_sm):
- ring exchange all-gather (split_overlap_ag): tp GEMM chunks, chunk i + 1 waiting for hop i, the first chunk local:
  exposed max(0, comm - (tp - 1) / tp x GEMM);
- pipeline reduce-scatter (split_overlap_rs): 4 GEMM chunks, each chunk's reduce-scatter beside the next one, the
  last exposed: comm / 4 + 3/4 max(0, comm - GEMM), and the GEMM on 16 fewer SMs;
- bulk: the collective beside the dgrad (all-gather) or wgrad (reduce-scatter) GEMM: max(0, comm - GEMM), the GEMM
  on 16 fewer SMs.
The ring exchange copies over the copy engines (get_default_config use_ce True, num_sm unused, no SM margin): it
holds no SMs and the GEMM beside it, compute-bound, is not charged the HBM its copies take (contention.py counts that
only against memory-bound work). Each ring-exchange and pipeline GEMM runs as chunks that read the weight again,
beside copies that take HBM from them: ub_chunks.py's stretch of the GEMM's seconds, charged to the collective.
The recipes' own userbuffers configs (NeMo nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py,
Megatron-Bridge comm_overlap.py) change num_sm per GEMM and run the forward
reduce-scatters by ring exchange in fp8; no scenario key states them, so the defaults are taken. An MoE layer's MLP
collectives (the token dispatcher's, top_k (etp - 1) / (tp - 1) dense pairs under Megatron-Core:
expert_tp_gather.py) are left exposed; full recomputation runs the forward's collectives again,
overlapped as in the forward.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..frameworks.defaults import defaults_for
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .contention import nccl_sm_share
from .costs import LayerCost
from .expert_tp_gather import moe_pair_units
from .gemm import Rates
from .hardware import Hardware
from .layer_settings import column_wgrad_linears, forward_pair_units, tp_collectives, tp_regions
from .ub_chunks import tp_linear_part, ub_stretch

UB_SPLITS = 4  # initialize_ub default num_splits of the pipeline method (base.py get_default_config)
UB_COMM_SMS = 16  # ... its num_sm for the pipeline and bulk methods, taken from the GEMM (set_sm_margin)
DEFAULT_SMS = 132  # the GEMM's SMs where the GPU's are not known (H100 SXM)


@dataclass(frozen=True, slots=True)
class TpLayer:
    """One layer's tensor-parallel collectives, as model.py counts them."""

    units: float  # all-reduce units (layer_settings.tp_collectives): an all-reduce, or an all-gather + reduce-scatter
    unit_seconds: float  # one unit over the TP group (collectives.tp_unit_seconds)
    moe: bool
    backward: bool
    full_recompute: bool  # the forward runs again in the backward, its collectives with it
    wgrads: int  # column-parallel linears with a weight gradient (QKV, and a dense fc1)
    regather: bool  # the backward all-gathers a column-parallel linear's saved input (sp_backward_regather)
    sms: int  # the GPU's streaming multiprocessors, which userbuffers' kernels share with the GEMMs
    shares: tuple[float, float, float, float]  # of the dense GEMMs' time: QKV, proj, fc1, fc2 (flop_shares)
    nccl_sm_share: float = 0.0  # of the SMs an NCCL collective holds beside its GEMM (contention.nccl_sm_share)
    # userbuffers' chunk GEMMs over the whole GEMM (ub_chunks.py): QKV, proj, fc1, fc2 forward; proj, fc2 dgrad
    stretch: tuple[float, float, float, float, float, float] = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    moe_pair: float = 1.0  # an MoE layer's dispatcher pair in dense MLP pairs (expert_tp_gather.moe_pair_units)
    regions: tuple[bool, bool] = (True, True)  # attention and MLP regions (layer_settings.tp_regions: a hybrid block one)

    def columns(self, g: _Gemms) -> tuple[tuple[float, float, float], ...]:
        """The layer's column-parallel GEMMs in the TP group: QKV (or a Mamba in_proj) in the attention region, fc1 in
        a dense MLP region (an MoE layer's experts run outside it)."""
        return ((g.qkv,) if self.regions[0] else ()) + ((g.fc1,) if self.regions[1] and not self.moe else ())

    def column_gemms(self, g: _Gemms) -> tuple[tuple[float, float, float], ...]:
        """The column-parallel GEMMs with a weight gradient (QKV or a Mamba in_proj; a dense fc1), as `wgrads`."""
        return self.columns(g)[:self.wgrads]


@dataclass(frozen=True, slots=True)
class _Gemms:
    """Seconds of the GEMMs each collective is paired with: (forward, dgrad, wgrad)."""

    qkv: tuple[float, float, float]
    proj: tuple[float, float, float]
    fc1: tuple[float, float, float]
    fc2: tuple[float, float, float]


@lru_cache(maxsize=256)  # specs hash by identity; a search asks of the same few
def flop_shares(spec: ModelSpec, moe: bool, tp: int, linear_attn: bool = False,
                block: str = "") -> tuple[float, float, float, float]:
    """Shares of a layer's dense GEMM FLOPs (the rank's part of each weight) of QKV, proj, fc1 and fc2 (a Mamba
    block's in_proj and out_proj, a gated DeltaNet layer's projections, are its QKV and proj: ub_chunks.tp_linear_part)."""
    flops = {"qkv": 0.0, "proj": 0.0, "fc1": 0.0, "fc2": 0.0, "other": 0.0}
    for lin in spec.layer_linears(moe, linear_attn, block):
        d_in, d_out = lin.split(tp)
        flops[tp_linear_part(lin)] += d_in * d_out
    total = sum(flops.values()) or 1.0
    return flops["qkv"] / total, flops["proj"] / total, flops["fc1"] / total, flops["fc2"] / total


def _paired_gemms(c: LayerCost, shares: tuple[float, float, float, float]) -> _Gemms:
    """The layer's dense GEMM seconds shared among its linears by FLOPs."""
    dense = (c.gemm_fwd - c.experts_fwd, c.gemm_dgrad - c.experts_dgrad, c.gemm_wgrad - c.experts_wgrad)
    qkv, proj, fc1, fc2 = (tuple(max(t, 0.0) * share for t in dense) for share in shares)
    return _Gemms(qkv, proj, fc1, fc2)  # type: ignore[arg-type]


def _async_backward_hidden(one: float, unit: float, g: _Gemms, layer: TpLayer, sp: bool) -> float:
    """Seconds the column-parallel backward hides without userbuffers: the saved input's all-gather beside the dgrad
    GEMM, the input gradient's reduce-scatter (all-reduce without SP) beside the wgrad GEMM."""
    hidden = 0.0
    for gemm in layer.column_gemms(g):
        if sp:
            hidden += (min(one, gemm[1]) if layer.regather else 0.0) + min(one, gemm[2])
        else:
            hidden += min(unit, gemm[2])
    return hidden


def _userbuffers_exposed(one: float, g: _Gemms, layer: TpLayer, tp: int) -> float:
    """Exposed seconds of the collectives userbuffers overlaps, and the SMs its pipeline and bulk kernels take from
    their GEMMs (forward: the QKV / fc1 all-gathers by ring exchange, the proj / fc2 reduce-scatters pipelined;
    backward: the proj / fc2 output-gradient all-gathers by ring exchange, QKV / fc1 bulk pairs)."""
    lost = UB_COMM_SMS / max(layer.sms - UB_COMM_SMS, 1)  # the GEMM's extra time on sms - num_sm SMs

    def ring_ag(gemm: float, stretch: float) -> float:  # the chunk GEMMs' extra seconds are the GEMM's own loss
        return max(0.0, one - (tp - 1) / tp * gemm * stretch) + gemm * (stretch - 1)

    def pipeline_rs(gemm: float, stretch: float) -> float:
        chunks = gemm * stretch
        return one / UB_SPLITS + (UB_SPLITS - 1) / UB_SPLITS * max(0.0, one - chunks) + chunks * lost + chunks - gemm

    def bulk(gemm: float) -> float:
        return max(0.0, one - gemm) + gemm * lost

    st, (has_attention, has_mlp) = layer.stretch, layer.regions
    attention = ring_ag(g.qkv[0], st[0]) + pipeline_rs(g.proj[0], st[1]) if has_attention else 0.0
    mlp = 0.0 if not has_mlp else (
        2 * one * layer.moe_pair if layer.moe else ring_ag(g.fc1[0], st[2]) + pipeline_rs(g.fc2[0], st[3]))
    forward = (attention + mlp) * (2 if layer.full_recompute else 1)
    if not layer.backward:
        return forward
    mlp_backward = 2 * one * layer.moe_pair if layer.moe else ring_ag(g.fc2[1], st[5])  # MoE: the dispatcher's pair
    backward = (ring_ag(g.proj[1], st[4]) if has_attention else 0.0) + (mlp_backward if has_mlp else 0.0)
    for gemm in layer.columns(g):  # the input gradient's reduce-scatter, by bulk beside
        # the wgrad GEMM where the weight trains (with the saved input's all-gather beside the dgrad GEMM)
        backward += (bulk(gemm[1]) if layer.regather else 0.0) + bulk(gemm[2]) if layer.wgrads else one
    return forward + backward


def tp_layer(s: Scenario, spec: ModelSpec, prof: dict[str, Any], backward: bool, recomputed: bool, frozen: bool,
             kind: tuple[bool, bool, str], unit_seconds: float, rates: Rates, hw: Hardware | None = None) -> TpLayer:
    """A layer's collectives as layer_settings.tp_collectives counts them, with what pairs them with GEMMs; hw: the
    GPU whose SMs NCCL's channels take and whose links userbuffers' copies run over (None: neither charged). kind:
    the layer's (moe, linear_attn, block), whose own linears and TP regions (tp_regions) are counted."""
    moe, linear_attn, block = kind
    regions = tp_regions(block)
    wgrads = 0 if frozen else column_wgrad_linears(moe, regions)
    regather = bool(prof.get("sp_backward_regather")) and backward and s.sequence_parallel
    stretch = (1.0,) * 6
    if hw and s.tp > 1 and s.sequence_parallel and userbuffers_on(s):
        stretch = ub_stretch(spec, moe, s.tp, s.micro_batch * s.seq_len / s.cp, rates,
                             1 if s.precision == "fp8" else rates.elem_bytes, hw.intra_bytes_per_s, UB_SPLITS,
                             linear_attn, block)
    pair = moe_pair_units(s, spec) if moe else 1.0
    return TpLayer(tp_collectives(s, prof, backward, recomputed, wgrads, moe, pair, regions), unit_seconds, moe,
                   backward, recomputed and s.checkpointing == "full", wgrads, regather, rates.sms or DEFAULT_SMS,
                   flop_shares(spec, moe, s.tp, linear_attn, block),
                   nccl_sm_share(hw, s.tp <= s.gpus_per_node, (s, spec, backward)) if hw else 0.0, stretch, pair, regions)


def userbuffers_on(s: Scenario) -> bool:
    """The run overlaps its TP collectives with userbuffers: the scenario's tp_comm_overlap, or ("auto") its
    framework's (engine/frameworks/defaults.py tp_comm_overlap)."""
    if s.tp_comm_overlap == "auto":
        return defaults_for(s.framework).tp_comm_overlap
    return bool(s.tp_comm_overlap)


def tp_exposed_seconds(s: Scenario, c: LayerCost, layer: TpLayer) -> float:
    """Seconds per micro-batch of one layer's tensor-parallel collectives that no GEMM hides (module docstring)."""
    tp, sp, userbuffers = s.tp, s.sequence_parallel, userbuffers_on(s)
    async_backward = defaults_for(s.framework).tp_async_backward
    total = layer.units * layer.unit_seconds
    if not (userbuffers or async_backward) or tp < 2:
        return total
    g = _paired_gemms(c, layer.shares)
    one = layer.unit_seconds / 2  # an all-gather or a reduce-scatter: half an all-reduce unit
    if userbuffers and sp:  # Megatron asserts sequence parallelism for tp_comm_overlap (arguments.py)
        units = forward_pair_units(layer.moe, layer.moe_pair, layer.regions)
        counted = units * (1 + layer.full_recompute) + (units + 0.5 * layer.wgrads * layer.regather if layer.backward
                                                        else 0)
        return max(total - counted * layer.unit_seconds, 0.0) + _userbuffers_exposed(one, g, layer, tp)
    hidden = _async_backward_hidden(one, layer.unit_seconds, g, layer, sp) if layer.backward else 0.0
    return max(total - hidden, 0.0) + hidden * layer.nccl_sm_share  # the GEMMs' SMs NCCL held while hiding
