"""scenario -> StepTime: seconds of one optimizer step on the slowest rank, term by term.

A step is grad_accum micro-batches through the busiest pipeline stage (forward, backward, recompute,
exposed per-micro-batch communication), the pipeline bubble, the data-parallel gradient exchange that
backward did not hide, offload transfers and the optimizer step. Computed whether or not the run fits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..frameworks.defaults import defaults_for
from ..frameworks.megatron_layer import recomputed_matmul_share
from ..memory.states import LayerGroup, dtypes_for, layer_groups
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.architecture import ModelSpec
from ..scenario import KEYS_WITHOUT_TIME_EFFECT, Scenario, as_laid_out, attention_tokens, resolve_model
from ..scenario.behaviour import sac_saves_attention, whole_mla_down
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.memo import ScenarioMemo
from ..scenario.pipeline_ends import holds_head
from .a2a_overlap import PairedLayers, paired_exposed_seconds, paired_layers
from .attention import attention_by_work, no_mask_by_work
from .attention_layout_copies import attention_layout_copy_bytes
from .autocast import autocast_seconds
from .bands import time_band
from .bf16_optimizer import kept_gradients_seconds
from .bnb_4bit import quant_base
from .bounds import calibration, check_finite
from .ceiling import ceiling_note, frozen_weights, held_mfu, mfu_ceiling
from .collectives import ALL_REDUCE, REDUCE_SCATTER, collective_latency, nccl_nvls, tp_unit_seconds
from .context_parallel import cp_ring_seconds
from .costs import LayerCost, head_cost, layer_cost, loss_path, loss_split
from .data import efficiency, framework_profile
from .data_parallel import data_parallel_seconds
from .delayed_amax import delayed_amax_seconds
from .duplicated_grads import duplicated_grad_seconds
from .eager_attention_rate import eager_attention_slowdowns
from .eager_ops import eager_op_tables
from .fsdp1_host import wraps_layer_units
from .gemm import Rates, gemm_shape_facts, gemm_tiles
from .gpt_oss_host import glu_tail_gpu
from .hardware import Hardware, hardware_for
from .hf_host import LayerWork, optimizer_host_seconds, stage_host_seconds
from .layer_settings import expert_gemms, fp8_casts, fp8_linear_rate, linear_tile_format, moe_dispatch
from .links import dispatch_seconds, ep_ranks, link, nvlink_domain
from .lora_adapters import adapters_of
from .mfu import compute_format, mfu_format, step_flops_per_token
from .mtp import mtp_groups, mtp_seconds
from .node_boundary import crossing_slack
from .nvfp4 import trains_nvfp4
from .offload import optimizer_seconds
from .pipeline import model_chunks, pipeline_seconds, stages_once
from .recompute_split import recompute_chunks, recompute_parts
from .rope_fusion import unfused_rope_bytes
from .sequence_parallel import layer_copy_bytes, tp_amax_reduce_seconds
from .shard_groups import owned_parameters
from .stage_listing import distinct_stages, each_stage_listed
from .stage_parameters import stage_parameters
from .step_gradient_passes import step_gradient_pass_seconds
from .step_result import BREAKDOWN_KEYS, StepTime
from .stream_waits import host_beside_streams, param_stream_seconds
from .tp_overlap import tp_exposed_seconds, tp_layer
from .unaligned_gemm import unaligned_gemm_rate
from .vision_time import with_vision_tower
from .window_attention import window_rates
from .zero_bubble import ZERO_BUBBLE_SCHEDULES, zero_bubble_fill


def rates_for(s: Scenario, hw: Hardware, prof: dict[str, Any]) -> Rates:
    # keyed on the Hardware object itself (hardware_for's, cached): hashing its ~20 fields cost ~0.9 us a step time.
    # The entry holds the object, so its id names no other while the entry lives.
    key = (id(hw), s.precision, s.attention_kernel, s.framework, s.fp8_recipe, s.cuda_toolkit)
    found = _RATES.get(key)
    if found is not None and found[0] is hw:
        return found[1]
    if len(_RATES) >= _RATES_KEPT:  # bounded: a long session's hardware objects are not kept for ever
        _RATES.clear()
    rates = _compute_rates(s, hw, prof)
    _RATES[key] = (hw, rates)
    return rates


_RATES: dict[tuple, tuple[Hardware, Rates]] = {}
_RATES_KEPT = 4096


def _compute_rates(s: Scenario, hw: Hardware, prof: dict[str, Any]) -> Rates:
    fmt = compute_format(s)
    # a training step runs its matmuls back to back for seconds: at the clock the power limit leaves, which the short-run
    # matmul benchmarks behind matmul_fraction do not reach (presets/efficiency.json sustained_compute_fraction)
    sustained = hw.sustained_fraction
    gemm = hw.peak(fmt) * hw.matmul_fraction * sustained
    # per-tensor fp8 x the recipe's kernels, or NVFP4's (nvfp4.py)
    linear = fp8_linear_rate(s, hw, prof) if s.precision == "fp8" or trains_nvfp4(s) else gemm
    kernel = s.attention_kernel
    if kernel == "auto":
        kernel = prof["attention_hopper"] if hw.arch in ("hopper", "blackwell") else prof.get("attention_other", "flash2")
        if hw.arch == "blackwell":  # a framework that picks another kernel on sm100 and later says so
            kernel = prof.get("attention_blackwell", kernel)
    elif kernel == "flash3" and hw.arch != "hopper":
        kernel = "flash2"  # FlashAttention-3 runs on Hopper only
    elif kernel == "flash4" and hw.arch not in ("hopper", "blackwell"):
        kernel = "flash2"  # FlashAttention-4 neither (flash_attn.cute: sm90 and sm100): the A100's measured FA2 rates
    table = efficiency()["attention_fraction_of_bf16_peak"][kernel]
    # a GPU whose kernel was measured on it (_gpu: the data-centre Blackwells, whose exp units differ) before its family
    fraction = table.get("_gpu", {}).get(hw.gpu_id or "", table.get(hw.arch, table["default"]))
    attention = hw.peak(fmt) * fraction * sustained
    sms, best_k = gemm_shape_facts(hw.gpu_id or "", fmt, mfu_format(s))
    rates = Rates(gemm, linear, attention, hw.memory_bytes_per_s, 4 if fmt == "fp32" else 2, sms,
                 hw.arch in efficiency()["attention_tiles"]["head_dim_archs"], attention_by_work(kernel, hw.gpu_id or ""),
                 no_mask_by_work(kernel, hw.gpu_id or ""), window_rates(kernel, hw.gpu_id or "", sustained), best_k,
                 hw.memory_fraction, unaligned_gemm_rate(s.cuda_toolkit, fmt, hw),  # rows of no 16-byte multiple
                 eager_op_tables(prof, hw.gpu_id or ""),  # the framework's eager norm and RoPE as measured here
                 tiles=gemm_tiles(hw.gpu_id or "", fmt, linear_tile_format(s, prof, mfu_format(s))))  # library tiles
    if not prof.get("eager_attention_measured"):  # the framework's eager attention is the measured code's
        return rates
    # eager attention as measured on this GPU, over the roofline these rates give the measured code
    return rates._replace(eager_attention=eager_attention_slowdowns(hw.gpu_id or "", rates))


@dataclass(frozen=True, slots=True)
class _Stage:
    compute: float  # per micro-batch: matmuls + attention (forward + backward)
    memory: float  # per micro-batch: element-wise, loss, adapters, dequantisation
    recompute: float
    tp: float  # exposed, per micro-batch
    cp: float
    ep: float
    ep_paired: tuple[PairedLayers, ...]  # the all-to-all beside another micro-batch's layers (combined 1F1B)
    fwd: float  # forward seconds per micro-batch (for overlap windows)
    bwd: float
    trainable: float  # parameters per rank
    params: float
    layers: int  # decoder layers of the stage
    host: float = 0.0  # per micro-batch: the GPU waiting for the host's launches and syncs (host.py)
    trainable_expert: float = 0.0  # of trainable: the routed experts' (and their adapters'), per rank
    wgrad: float = 0.0  # of compute: the weight-gradient GEMMs (a zero-bubble schedule's W pass, zero_bubble.py)

    @property
    def total(self) -> float:
        return self.compute + self.memory + self.recompute + self.tp + self.cp + self.ep + self.host


def _stage(s: Scenario, spec: ModelSpec, hw: Hardware, prof: dict[str, Any], rates: Rates, index: int,
           layers: range, groups: tuple[LayerGroup, ...], chunks: int, layer_units: bool = False) -> _Stage:
    tokens, seq = s.micro_batch * s.seq_len / s.cp, attention_tokens(s, s.attention == "eager")  # packing.py
    elementwise = "fused" if s.compile or prof["elementwise"] == "fused" else "liger" if s.liger_kernels else \
        prof["elementwise"]
    attention = "eager" if s.attention == "eager" else "fused-fp8" if s.fp8_attention else "fused"
    eager_softmax = prof.get("eager_softmax", "auto") if s.eager_softmax == "auto" else s.eager_softmax  # auto: its code's
    adapters = s.method in ADAPTER_METHODS
    node = nvlink_domain(s, hw)
    tp_link = link(hw, s.tp, node)[0]
    tp_lat = collective_latency(hw, REDUCE_SCATTER if s.sequence_parallel else ALL_REDUCE, s.tp, s.tp, node)
    ep_lat = link(hw, ep_ranks(s)[0], node, ep_ranks(s)[1])[1]
    act_bytes = tokens * spec.hidden * rates.elem_bytes
    tp_unit = tp_unit_seconds(hw, s.tp, act_bytes, tp_link, tp_lat, 0 if s.sequence_parallel or s.tp > node
                              else node, nccl_nvls(prof))  # the node's GPUs where TP all-reduces inside it
    compute = memory = recompute = tp_comm = cp_comm = ep_comm = fwd_total = bwd_total = wgrad_total = 0.0
    paired: list[PairedLayers] = []
    fp8, expert_issue, dispatch = fp8_casts(s, prof), expert_gemms(s, prof), moe_dispatch(s, prof, node)
    work: list[LayerWork] = []
    layer_gpu, behaviour = 0.0, defaults_for(s.framework)
    ring, layout = (layer_copy_bytes(s, spec, behaviour, rates.elem_bytes),  # CP ring, SP reorders
                    attention_layout_copy_bytes(s, spec, prof, rates.elem_bytes))  # sequence-first above micro-batch 1
    rope = unfused_rope_bytes(s, spec, rates.elem_bytes)  # Megatron's eager RoPE (--no-rope-fusion)
    copy_bytes_per_token = (ring[0] + layout[0] + rope[0], ring[1] + layout[1] + rope[1])
    mla_down = behaviour.mla_down_proj if whole_mla_down(s) else ""  # MLA's down projections whole on the rank
    for g, sg in recompute_parts(s, groups, chunks):  # sg: the part's checkpointing (recompute_split.py)
        adapted = adapters and g.adapted  # LoRA: lora_layers leaves the layers below the top N without adapters
        lora = adapters_of(s, spec, g.kind, hw, rates) if adapted else ()  # rank's widths, the adapters' path
        c = layer_cost(spec, g.moe, tokens, seq, s.tp, s.ep, s.cp, s.sequence_parallel, rates, attention,
                       elementwise, fp8, lora, s.lora_rank, quant_base(s), **expert_issue,
                       gpt_oss_unfused=bool(prof.get("gpt_oss_unfused")), fused_expert_mlp=s.fused_expert_mlp,
                       **dispatch, eager_softmax=eager_softmax, copy_bytes_per_token=copy_bytes_per_token,
                       rms_norm_kernel=s.rms_norm_kernel, linear_attn=g.linear_attn, block=g.block, mla_down=mla_down)
        backward = not g.frozen or adapted or g.input_grad
        wgrad = 0.0 if g.frozen else c.gemm_wgrad
        dgrad = c.gemm_dgrad if (g.input_grad or adapted or not g.frozen) else 0.0
        fwd_c, fwd_m = c.gemm_fwd + c.attn_fwd, c.elem_fwd + c.lora_fwd + c.dequant
        bwd_c = (dgrad + wgrad + c.attn_bwd) if backward else 0.0
        bwd_m = (c.elem_bwd + c.lora_bwd + c.dequant) if backward else 0.0
        rec = _recompute_seconds(sg, spec, g, c) if backward else 0.0
        n = g.count
        compute += n * (fwd_c + bwd_c)
        wgrad_total += n * wgrad if backward else 0.0
        memory += n * (fwd_m + bwd_m)
        recompute += n * rec
        fwd_total += n * (fwd_c + fwd_m)
        bwd_total += n * (bwd_c + bwd_m + rec)
        before, layer_gpu = tp_comm + cp_comm + ep_comm, layer_gpu + n * (fwd_c + fwd_m + bwd_c + bwd_m + rec)
        if s.tp > 1:  # all-reduces, or AG + RS pairs with SP, less what GEMMs hide (tp_overlap.py)
            layer = tp_layer(sg, spec, prof, backward, bool(rec), bool(g.frozen or adapters), g.kind, tp_unit, rates, hw)
            tp_comm += n * (tp_exposed_seconds(s, c, layer)
                            + tp_amax_reduce_seconds(s, fp8, hw, node, g.moe, backward, rec, g.block))
        if s.cp > 1:  # ring: K and V blocks forward; K, V and their gradients backward (context_parallel.py)
            cp_comm += n * cp_ring_seconds(sg, spec, hw, behaviour, tokens, rates.elem_bytes, c.attn_fwd,
                                           c.attn_bwd if backward else 0.0, bool(rec) and sg.checkpointing == "full")
        if g.moe and s.ep > 1:  # dispatch + combine, forward and backward
            a2a = (dispatch_seconds(act_bytes, spec, s, hw) + ep_lat) * (1 - prof["ep_overlap"])
            ep_comm += n * (4 if backward else 2) * a2a
            # Megatron's combined 1F1B: one micro-batch's forward of a layer beside another's backward (a2a_overlap.py)
            paired.append(paired_layers(a2a, c, fwd_c + fwd_m, bwd_c + bwd_m + rec, n, not g.frozen, hw.arch,
                                        s.moe_token_dispatcher_type)
                          if backward else PairedLayers(n, 2 * a2a, 4 * a2a, 6 * a2a))
        comm = (tp_comm + cp_comm + ep_comm - before) / n / (2 if backward else 1)  # per layer, half of it forward
        block = c.experts_fwd + c.act_fwd + (a2a if g.moe and s.ep > 1 else 0.0)  # sync to fc2: host.py LayerWork
        tail = glu_tail_gpu(spec, c.experts_fwd, c.act_fwd) if g.moe else 0.0  # gpt-oss's second sync, to fc2
        work.append(LayerWork(n, g.moe, fwd_c + fwd_m + comm, (bwd_c + bwd_m + rec + comm) if backward else 0.0,
                              backward and sg.checkpointing == "full", 0.0 if s.moe_a2a_overlap else block, g.kind,
                              tail))
    first, last = index == 0, holds_head(s, index)  # the head's rank: pipeline_ends.py
    compute, memory, recompute, fwd_total, bwd_total, wgrad_total = _ends_seconds(s, spec, prof, rates, tokens, (
        act_bytes, index, last, adapters), (compute, memory, recompute, fwd_total, bwd_total, wgrad_total))
    if first and spec.vision is not None and s.images_per_sample:  # the image encoder, before the first layer
        compute, memory, recompute, fwd_total, bwd_total, wgrad_total = with_vision_tower(s, spec.vision, rates, (
            compute, memory, recompute, fwd_total, bwd_total, wgrad_total))
    p = stage_parameters(s, spec, layers, first, last, groups)  # looked up across batches and layouts
    params = p.trainable + p.frozen + p.quantized + p.released + p.lora
    host = stage_host_seconds(s, elementwise == "fused", tuple(work), compute + memory + recompute - layer_gpu, fp8,
                              layer_units)
    return _Stage(compute, memory, recompute, tp_comm, cp_comm, ep_comm, tuple(paired), fwd_total, bwd_total,
                  p.trainable + p.lora, params, len(layers), host, p.trainable_expert + p.lora_expert, wgrad_total)


def _ends_seconds(s: Scenario, spec: ModelSpec, prof: dict[str, Any], rates: Rates, tokens: float,
                  ends: tuple[float, int, bool, bool], totals: tuple[float, float, float, float, float, float]
                  ) -> tuple[float, float, float, float, float, float]:
    """The stage's (compute, memory, recompute, forward, backward, weight-gradient) seconds per micro-batch with the
    pipeline ends' own work added: the LM head and its loss where the stage holds the head (and the head's forward
    matmul once more where the framework's full checkpointing wraps the head too: checkpoint_recomputes_head), the
    embedding gather (and its gradient's scatter-add) on the first stage, the MTP layers' projection, head and loss
    (mtp.py). ends: (the micro-batch's activation bytes, the stage's index, whether it holds the head, whether the
    method trains adapters)."""
    act_bytes, index, last, adapters = ends
    first = index == 0
    compute, memory, recompute, fwd_total, bwd_total, wgrad_total = totals
    if last:
        matmul, loss = head_cost(spec, tokens, s.tp, rates, loss_path(s, prof), loss_split(s, prof))
        head_trains = not (adapters or (s.method == "freeze" and spec.tied_embeddings and s.freeze_embeddings))
        compute += matmul * (3 if head_trains else 2)
        wgrad_total += matmul if head_trains else 0.0
        memory += loss
        fwd_total += matmul + loss / 3
        bwd_total += matmul * (2 if head_trains else 1) + 2 * loss / 3
        if s.checkpointing == "full" and prof.get("checkpoint_recomputes_head"):  # its forward again in the backward
            recompute += matmul
            bwd_total += matmul
    if first:
        memory += 2 * act_bytes / rates.memory  # embedding gather (and its scatter-add gradient)
    mc, mm, mf, mb = mtp_seconds(s, spec, index, tokens, rates, loss_path(s, prof))  # MTP projection, head, loss
    compute, memory, fwd_total, bwd_total = compute + mc, memory + mm, fwd_total + mf, bwd_total + mb
    return compute, memory, recompute, fwd_total, bwd_total, wgrad_total


def _recompute_seconds(s: Scenario, spec: ModelSpec, g: LayerGroup, c: LayerCost) -> float:
    """Seconds per micro-batch of one layer's forward work that checkpointing runs again in the backward."""
    if s.checkpointing == "full":
        return c.gemm_fwd + c.attn_fwd + c.elem_fwd + c.lora_fwd + c.dequant
    if s.checkpointing == "selective" and defaults_for(s.framework).selective_by_modules:
        # Megatron's recompute_modules (engine/frameworks/megatron_layer.py): the attention kernel, the matmuls of
        # the modules it rebuilds and the element-wise ones (moe_act, layernorm: costs.recomputable_elementwise_bytes)
        modules = frozenset(s.recompute_modules)
        share = recomputed_matmul_share(spec, g.moe, modules, g.linear_attn, g.block)  # of the layer kind's matmuls
        return ((c.attn_fwd if "core_attn" in modules else 0.0) + (c.act_fwd if "moe_act" in modules else 0.0)
                + (c.norm_fwd if "layernorm" in modules else 0.0) + c.gemm_fwd * share)
    if s.checkpointing == "selective":
        return c.attn_fwd
    if s.checkpointing == "op-selective":  # torchtitan: every second matmul, and attention where it is not kept
        return c.gemm_every_second_fwd + c.elem_fwd + (0.0 if sac_saves_attention(s) else c.attn_fwd)
    return 0.0


# Keys a stage's per-micro-batch time does not read (tests/test_memo_keys.py): layouts differing only in them share it
STAGE_TIME_MEMO = ScenarioMemo("stage time", KEYS_WITHOUT_TIME_EFFECT | frozenset({
    "nodes", "grad_accum", "zero_stage", "fsdp", "offload", "vpp", "tokens_to_train", "gpu_hour_price",
    "time_calibration", "reserve", "estimator", "k_factor", "fp8_all_gather",
}))


def stage_time_per_micro_batch(s: Scenario, spec: ModelSpec, hw: Hardware, prof: dict[str, Any], rates: Rates,
                               index: int, layers: range, layer_units: bool = False) -> _Stage:
    """The stage's work per micro-batch. The table ignores vpp, which the stage's work does not read but for the model
    chunks where full checkpointing recomputes N layers of each (recompute_chunks) and the pipeline layout's chunks
    (which rank runs the MTP layers): those are in the key; and ZeRO and FSDP, which reach it through one fact,
    `layer_units` (the caller's fsdp1_host.wraps_layer_units: each decoder layer an FSDP1 unit whose hooks add to its
    host work), also in the key."""
    chunks = recompute_chunks(s)
    # a pipeline layout lists pp x vpp chunks, so vpp decides which rank runs its MTP layers (layout.mtp_stage)
    layout_vpp = s.vpp if s.pipeline_layout and s.pp > 1 else 0
    key = STAGE_TIME_MEMO.key(s, index, layers.start, layers.stop, chunks, layer_units, layout_vpp)
    st = STAGE_TIME_MEMO.get(key)
    if st is None:
        if each_stage_listed(s, spec):  # distinct_stages lists the stages one by one: those alike share their work
            st = _alike_stage(s, spec, hw, prof, rates, index, layers, chunks, layer_units)
        else:  # no two of the stages it lists are alike
            st = _stage(s, spec, hw, prof, rates, index, layers, _stage_groups(s, spec, index, layers), chunks,
                        layer_units)
        STAGE_TIME_MEMO.put(key, st)
    return st


def _alike_stage(s: Scenario, spec: ModelSpec, hw: Hardware, prof: dict[str, Any], rates: Rates, index: int,
                 layers: range, chunks: int, layer_units: bool) -> _Stage:
    """The stage's work, shared with every stage alike: a stage's place reaches its work only through its layer groups
    (the MTP layers' among them, mtp.py), whether it is the first and whether it holds the head (DeepSeek-V3's middle
    stages, dense and MoE layers mixed, are alike). Looked up where the stage's own key, cheaper to build, missed."""
    groups = _stage_groups(s, spec, index, layers)
    key = STAGE_TIME_MEMO.key(s, groups, index == 0, holds_head(s, index), len(layers), chunks, layer_units)
    st = STAGE_TIME_MEMO.get(key)
    if st is None:
        st = STAGE_TIME_MEMO.put(key, _stage(s, spec, hw, prof, rates, index, layers, groups, chunks, layer_units))
    return st


def _stage_groups(s: Scenario, spec: ModelSpec, index: int, layers: range) -> tuple[LayerGroup, ...]:
    """The stage's layer groups, its MTP layers' decoder layers among them (mtp.py)."""
    return layer_groups(s, spec, layers) + mtp_groups(s, spec, index)


def ep_seconds(s: Scenario, st: _Stage) -> float:
    """Exposed expert-parallel all-to-all of a step. Under combined 1F1B only the micro-batches without a partner
    run theirs alone: the pipeline's warm-up forwards and cool-down backwards, min(grad_accum, pp) micro-batches'
    worth (one without pipelining: the first forward and the last backward)."""
    if not s.moe_a2a_overlap:
        return s.grad_accum * st.ep
    alone = min(s.grad_accum, s.pp)
    # the pairs start cold in each model chunk
    return alone * st.ep + (s.grad_accum - alone) * paired_exposed_seconds(st.ep_paired, model_chunks(s))


def step_time(s: Scenario) -> StepTime:
    """Seconds per optimizer step, throughput and MFU for the scenario (fits or not)."""
    s = as_laid_out(s)  # the tokens a micro-batch really holds (packing)
    spec, hw = resolve_model(s), hardware_for(s)
    prof, dt = framework_profile(s.framework), dtypes_for(s)
    rates = rates_for(s, hw, prof)
    listed, units = distinct_stages(s, spec), wraps_layer_units(s)  # each decoder layer an FSDP1 unit (fsdp1_host.py)
    timed = {(i, r.start, r.stop): stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r, units) for i, r in listed}
    busiest = max(timed.values(), key=lambda st: st.total)
    ga, dp = s.grad_accum, s.dp
    def once(part: Callable[[_Stage], float]) -> float:  # every stage but the busiest once: the bubble's compute
        return stages_once(s, spec, listed, lambda i, r: part(timed.get((i, r.start, r.stop)) or stage_time_per_micro_batch(
            s, spec, hw, prof, rates, i, r, units))) - part(busiest)
    fill = once(lambda st: st.total) if s.pp > 1 else 0.0  # one stage: no bubble (pipeline_seconds reads no fill)
    if s.pp > 1 and s.pp_schedule in ZERO_BUBBLE_SCHEDULES:  # W deferred into the bubble (zero_bubble.py)
        fill = zero_bubble_fill(s.pp_schedule, s.pp, ga, fill, once(lambda st: st.wgrad))
    slack = crossing_slack(s, hw, spec.layers, busiest.total, lambda i, r: (timed.get((i, r.start, r.stop)) or timed.get(
        (1, 0, len(r))) or stage_time_per_micro_batch(s, spec, hw, prof, rates, i, r, units)).total)  # node_boundary.py
    pp_comm, bubble = pipeline_seconds(s, spec, hw, rates, prof, fill, slack)
    dp_comm, copies = data_parallel_seconds(s, hw, prof, rates, dt, busiest, spec)
    copies += kept_gradients_seconds(s, prof, rates, dt, busiest) + autocast_seconds(s, spec, prof, rates, dt, busiest)
    copies += step_gradient_pass_seconds(s, prof, rates, busiest)  # the step's passes over whole gradients
    offload, optimizer = optimizer_seconds(s, hw, prof, rates, dt, busiest, owned_parameters(s, prof, spec, busiest), spec)
    stream = param_stream_seconds(s, hw, prof, rates, dt, busiest, spec, dp_comm)  # offloaded weights (stream_waits)
    raw = {
        "compute": ga * busiest.compute, "memory_bound": ga * busiest.memory + copies, "recompute": ga * busiest.recompute,
        "communication_tp": ga * busiest.tp + duplicated_grad_seconds(s, spec, hw, prof, dt, busiest.layers),
        "communication_cp": ga * busiest.cp,
        "communication_ep": ep_seconds(s, busiest), "communication_pp": pp_comm,
        "communication_dp": dp_comm + ga * delayed_amax_seconds(s, prof, hw), "bubble": bubble, "offload": offload + stream,
        "optimizer": optimizer, "host": host_beside_streams(s, spec, ga * busiest.host, dp_comm + stream)
        + optimizer_host_seconds(s, spec, optimizer, busiest),
    }
    tokens, world, mflops = s.micro_batch * s.seq_len * ga * dp, s.world_size, step_flops_per_token(s, spec)
    peak = hw.peak(fmt := mfu_format(s))
    raw_step = sum(raw.values())
    ceiling = mfu_ceiling(hw.gpu_id, hw.arch, fmt, spec.is_moe, frozen_weights(s, spec))
    # the cap compares the MFU with attention counted whole (mfu.py's second figure), the count the published
    # runs' ceilings were measured in (presets/mfu_ceilings.json, benchmarks/speed_accuracy_report.py)
    whole_flops = step_flops_per_token(s, spec, causal=False)
    own = whole_flops * tokens / raw_step / world / peak if peak and raw_step else 0.0
    held = held_mfu(own, ceiling.mfu) if ceiling is not None else own
    if held < own:
        # matmuls do not run at the best shape's rate for a whole step of this size: no published run on this GPU
        # in this format came within 1/(1 + margin) of the ceiling; the step is stretched, in its compute term
        raw["compute"] += raw_step * (own / held - 1)
        raw_step = sum(raw.values())
    factor, scaled = calibration(s, mflops * tokens / raw_step / world / peak if peak and raw_step else 0.0)
    seconds = tuple([raw[k] * factor for k in BREAKDOWN_KEYS])  # a list first: faster than a generator
    step = sum(seconds)
    tps = tokens / step if step else math.inf
    notes: list[Message] = []
    if not hw.complete:
        notes.append(message(QT_TRANSLATE_NOOP(
            "engine", "{gpu} lacks some speed figures (peak FLOP/s or memory bandwidth): an H100 SXM's are used "
            "for those; enter them for a custom GPU."), gpu=hw.name))
    if ceiling is not None and held < own:
        notes.append(ceiling_note(ceiling, hw.gpu_id, own, held))
    notes += [scaled] if scaled else []
    ttt = hours = cost = None
    if s.tokens_to_train:
        ttt = s.tokens_to_train / tps
        hours = ttt * world / 3600.0
        cost = hours * s.gpu_hour_price if s.gpu_hour_price is not None else None
    mfu = mflops * tps / world / peak if peak else 0.0
    bf16_peak = peak if fmt == "bf16" else hw.peak("bf16")
    whole = mfu * whole_flops / mflops if mflops else 0.0  # the second figure
    return check_finite(StepTime(step, tokens, tps, tps / world, mfu, mflops, world, seconds, factor, ttt, hours, cost,
                                 tuple(notes), mfu * peak / bf16_peak if bf16_peak else 0.0,
                                 time_band(s.framework) if factor == 1.0 else None, whole))  # a measured step: no band
