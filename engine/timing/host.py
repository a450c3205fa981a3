"""Host (CPU) time of issuing a micro-batch's kernels, and the part of it the GPU waits for (issue 23 item 2).

The host launches every kernel in order (presets/host_overhead.json launch_seconds each) and normally runs ahead of
the GPU, so the host time only shows where it exceeds the GPU time of the same work. Where the host must read a
value the GPU computed (the MoE token dispatcher's token counts: one synchronisation per MoE layer and forward), it
can no longer run ahead: after each synchronisation the GPU waits the device-to-host round trip and the first launch,
and the layer's forward costs max(GPU, host) on its own. A captured CUDA graph (scenario key cuda_graphs) replaces the
launches it holds by one graph launch; captured MoE layers have static shapes and no synchronisation.
"""

from __future__ import annotations

from typing import NamedTuple

from ..scenario import KEYS_WITHOUT_TIME_EFFECT, Scenario, resolve_model
from ..scenario.memo import ScenarioMemo
from .attention_backend_host import reselections_per_layer
from .bnb_4bit import linear4bit_host_seconds
from .data import framework_profile
from .fsdp1_host import visit_seconds, wraps_layer_units
from .gpt_oss_host import fc1_bias_grad, glu_tail_host, gpt_oss_eager
from .hf_moe import (
    PARTS,
    runs_transformers_moe,
    transformers_moe_host_seconds,
    transformers_moe_launches,
    transformers_moe_syncs,
)
from .host_table import host_figures
from .layer_parts import layer_parts
from .lora_adapters import adapter_host_seconds
from .te_module_host import runs_te_modules, te_extra_launches, te_module_calls

# parts of a layer each scope captures (Megatron's cuda_graph_scope: attn + moe_router + moe_preprocess; a per-layer
# graph; the whole iteration)
_CAPTURED = {
    # cuda_graph_scope ["moe_router", "moe_preprocess"] without "attn": the graph holds pre_mlp_layernorm and the router
    # (and the dispatcher's preprocess), the attention runs eager (Megatron-LM 2edffadb transformer_layer.py
    # _get_submodules_under_cudagraphs, lines 1025-1026, and _te_cuda_graph_replay, lines 1109-1135)
    "moe-router": frozenset({"moe_router"}),
    # attn captures the layer's self_attention, a gated DeltaNet where Qwen3-Next's layer holds one (lines 1013-1020)
    "attention": frozenset({"attention", "gated_deltanet", "moe_router"}),
    "layers": frozenset({"attention", "mlp", "moe_router", "moe_experts", "mamba", "gated_deltanet"}),
    "full-iteration": frozenset({"attention", "mlp", "moe_router", "moe_experts", "mamba", "gated_deltanet"}),
}


def captured_parts(s: Scenario) -> frozenset[str]:
    """The parts of a layer the scenario's CUDA graphs capture (none without graphs)."""
    return _CAPTURED.get(s.cuda_graphs, frozenset())


def host_speed_factor(s: Scenario) -> float:
    """The run's host CPU against the presets' figures: the host_speed factor of the GPU system (Grace hosts of
    GB200/GB300) times the factor of a named host (hosts, scenario key host_cpu); 1 for other GPUs."""
    fig = host_figures()
    factor = fig["host_speed"]["factor"].get(s.gpu, 1.0) if isinstance(s.gpu, str) else 1.0
    return factor * fig["hosts"].get(s.host_cpu, {}).get("factor", 1.0)


def host_call_seconds(s: Scenario) -> tuple[float, float]:
    """(launch, Python call) host seconds on the run's own host CPU: the preset's figures times host_speed_factor."""
    fig, factor = host_figures(), host_speed_factor(s)
    return fig["launch_seconds"]["value"] * factor, fig["view_seconds"]["value"] * factor


class LayerWork(NamedTuple):
    """GPU seconds of one run of equal layers in one micro-batch (what the host's launches can hide behind)."""

    count: int
    moe: bool
    forward: float  # GPU seconds of one layer's forward
    backward: float  # GPU seconds of one layer's backward (and recompute); 0 when it runs none
    recompute: bool  # the backward runs the layer's forward again (full recompute: the dispatcher syncs again)
    # MoE: GPU seconds of the forward from the dispatcher's sync to the end of the experts (dispatch all-to-all, expert
    # GEMMs and activation). The queue is empty after a sync, so the experts' host work can hide only behind this,
    # not behind the combine and the next layer's attention, which the host issues after it. 0: the whole forward
    block: float = 0.0
    kind: tuple[bool, bool, str] | None = None  # (moe, linear_attn, block): the layers' own linears; None: (moe, ...)
    # GPT-OSS: GPU seconds of the block after the clamped GLU's synchronisation (activation, fc2; gpt_oss_host.py)
    tail: float = 0.0


def launches(s: Scenario, fused: bool, moe: bool, fp8: str = "",
             kind: tuple[bool, bool, str] | None = None) -> tuple[int, int]:
    """(forward, backward) kernel launches the host issues for one layer, CUDA graphs counted as one launch each.
    `fp8`: the fp8 cast recipe (layer_settings.py fp8_casts, e.g. "te-tensorwise"; "" without fp8): each fp8 GEMM casts its
    input in the forward and its output gradient in the backward. `kind` (moe, linear_attn, block): the layer's parts
    (layer_parts.py: a Mamba-2 block's mixer, a DeltaNet layer's linear attention); None: a transformer layer."""
    parts = layer_parts(kind, moe, host_figures()["stacks"]["fused" if fused else "eager"])
    captured = captured_parts(s)
    if s.cuda_graphs == "full-iteration":
        return 0, 0  # one replay per step
    casts = _casts_per_gemm(fp8)
    hf_moe = runs_transformers_moe(s, fused)  # transformers' own MoE block: its counts (hf_moe.py)
    eager = [transformers_moe_launches(s, p) if hf_moe and p in PARTS else _part_launches(fused, p, casts)
             for p in parts if p not in captured]
    fwd, bwd = sum(f for f, _b in eager), sum(b for _f, b in eager)
    # MLA's modules beyond the standard attention's and an MoE layer's shared experts (mla_shared_host.py)
    (mla_f, mla_b), (shared_f, shared_b) = te_extra_launches(s, fused, moe, captured, host_figures()["te_modules"])
    per_graph = host_figures()["graph_launches"]["per_region"]
    graphs = per_graph if any(p in captured for p in parts) else 0  # the captured parts are contiguous
    return fwd + mla_f + shared_f + graphs, bwd + mla_b + shared_b + graphs


def _casts_per_gemm(fp8: str) -> int:
    """fp8 cast launches per GEMM of the recipe (presets/host_overhead.json fp8_casts, keyed by the recipe's last
    word: "te-tensorwise" -> "tensorwise"); 0 without fp8."""
    per_cast = host_figures()["fp8_casts"]["launches_per_gemm"]
    return per_cast.get(fp8.split("-")[-1], per_cast["default"]) if fp8 else 0


def _part_launches(fused: bool, part: str, casts: int) -> tuple[int, int]:
    """(forward, backward) launches of one part of a layer's stack, its GEMMs' fp8 casts included."""
    fig = host_figures()
    forward, backward = fig["stacks"]["fused" if fused else "eager"][part]
    gemm_casts = casts * fig["fp8_casts"]["gemms"][part]
    return forward + gemm_casts, backward + gemm_casts


def _experts_captured(s: Scenario) -> bool:
    """A CUDA graph of the scenario's scope holds the MoE experts (dispatch, experts, combine)."""
    return "moe_experts" in captured_parts(s)


def _experts_launches(s: Scenario, fused: bool, fp8: str) -> int:
    """Launches of the stacks' moe_experts part (dispatch, experts, combine) in one forward, with its fp8 casts; 0
    where a CUDA graph captures it."""
    if _experts_captured(s):
        return 0
    if runs_transformers_moe(s, fused):
        return transformers_moe_launches(s, "moe_experts")[0]
    shared = te_extra_launches(s, fused, True, captured_parts(s), host_figures()["te_modules"])[1][0]
    return int(_part_launches(fused, "moe_experts", _casts_per_gemm(fp8))[0]) + shared


def syncs_per_forward(s: Scenario, moe: bool, fused: bool = True) -> int:
    """Host synchronisations per layer and forward: the MoE dispatcher's token counts, unless the layer is captured
    (a captured MoE layer runs with static shapes), and the framework's own in every layer (presets/efficiency.json
    frameworks: syncs_per_layer_forward; InternEvo's rotary embedding reads indexes.max().item()). transformers' own
    eager MoE block (`fused` False) has its own count (hf_moe.py transformers_moe_syncs)."""
    own = 0 if s.cuda_graphs == "layers" else int(framework_profile(s.framework).get("syncs_per_layer_forward", 0))
    if not moe or _experts_captured(s):
        return own
    if runs_transformers_moe(s, fused):
        return own + transformers_moe_syncs(s)
    return own + int(host_figures()["syncs"]["moe_forward"])


def expert_host_seconds(s: Scenario, fp8: str = "", fused: bool = True) -> tuple[float, float]:
    """(forward, backward) host seconds per MoE layer and micro-batch that Transformer Engine's GroupedLinear spends
    per LOCAL expert beyond what `launches` counts (presets/host_overhead.json grouped_linear): a cuBLAS GEMM per
    expert, per-expert quantize kernels in fp8 (none with delayed scaling's fused multi-cast on Hopper, 3 with
    current scaling), and the per-expert Python calls around them. Only frameworks whose experts run as one GEMM per
    expert on TE's streams (efficiency.json expert_gemm_streams) and not TE's fused grouped MLP; none where the
    experts are captured in a CUDA graph.

    Per LOCAL expert on purpose: without expert parallelism every rank runs all the experts' loop, so Qwen3-Next's
    512 experts at tp 8, ep 1 under Megatron cost 2 x 512 GEMM launches and Python calls a MoE layer (TE v2.14
    grouped_linear.py _GroupedLinear, cublaslt_gemm.cu multi_stream_cublas_gemm: presets/host_overhead.json
    grouped_linear), seconds of host time a step with the GPU idle, as Megatron would run it; torchtitan's experts are
    one torch._grouped_mm call (b5bcd76c torchtitan/models/common/moe.py line 120) and transformers' block has its
    own count (hf_moe.py), so neither takes this loop."""
    if _experts_captured(s) or s.fused_expert_mlp:
        return 0.0, 0.0
    if runs_transformers_moe(s, fused):  # transformers' MoE block: its Python calls that launch no kernel
        return transformers_moe_host_seconds(s, host_call_seconds(s)[1])
    if not framework_profile(s.framework).get("expert_gemm_streams"):
        return 0.0, 0.0
    spec = resolve_model(s)
    if not spec.is_moe:
        return 0.0, 0.0
    local = max(spec.n_experts // s.ep, 1)
    fig = host_figures()
    table = fig["grouped_linear"]
    recipe = fp8.removeprefix("te-") if fp8 else ""
    per_expert = table["quantize_launches"].get(recipe, table["quantize_launches"].get(recipe.split("-")[-1], 1))
    # the quantize launches per call minus the per-call casts fp8_casts already counts; delayed scaling's fused
    # multi-cast is that one cast
    quant = max(0, per_expert * local - _casts_per_gemm(fp8)) if fp8 else 0
    gemms = table["gemm_launches"]
    launch_fwd = (gemms["forward"] * local - 1) + quant  # the stacks count one launch per grouped GEMM call
    launch_bwd = (gemms["backward"] * local - 1) + quant
    calls_fwd, calls_bwd = table["python_calls"]["fp8" if fp8 else "bf16"]
    launch, call = host_call_seconds(s)
    n = table["calls_per_moe_layer"]
    bias_launches, bias_calls = fc1_bias_grad(s, spec, recipe)  # fc1's own bias gradient (GPT-OSS: gpt_oss_host.py)
    return (n * (launch_fwd * launch + local * calls_fwd * call),
            n * (launch_bwd * launch + local * calls_bwd * call) + local * (bias_launches * launch + bias_calls * call))


def visit_host_seconds(s: Scenario, visit: str) -> float:
    """Host seconds of one FSDP1 unit's visit (fsdp1_host.py) on the scenario's host."""
    launch, call = host_call_seconds(s)
    return visit_seconds(visit, launch, call, host_figures()["module_call_seconds"]["value"] * host_speed_factor(s))


def layer_unit_visit_seconds(s: Scenario, visit: str) -> float:
    """Host seconds of one decoder layer's own FSDP1 unit visit, 0 where FSDP1 does not shard the layers over more
    than one rank (fsdp1_host.wraps_layer_units): the same FSDP1 code as an adapter's unit, so at the same counted
    calls and measured Python (the 15th of the 15 units a layer that benchmarks/verl_lora_host_counts.py timed)."""
    return visit_host_seconds(s, visit) if wraps_layer_units(s) else 0.0


def layer_unit_seconds(s: Scenario, layer_units: bool, backward: bool, recompute: bool) -> tuple[float, float]:
    """(forward, backward) host seconds of one decoder layer's own FSDP1 unit in one training micro-batch, where
    `layer_units` (fsdp1_host.wraps_layer_units, read by the caller: the stage time's memo ignores ZeRO and FSDP keys):
    its forward under grad, and where it runs a backward its pre- and post-backward hooks, with the recompute's forward
    again where the layer is checkpointed (its handle idle again, so _pre_forward unshards anew)."""
    if not layer_units:
        return 0.0, 0.0
    forward = visit_host_seconds(s, "forward_grad")
    if not backward:
        return forward, 0.0
    return forward, visit_host_seconds(s, "backward") + (forward if recompute else 0.0)


def linear4bit_layer_seconds(s: Scenario, kind: tuple[bool, bool, str], under_grad: bool = True) -> tuple[float, float]:
    """(forward, backward) host seconds per layer of its bitsandbytes 4-bit linears beyond nn.Linear's, on the
    scenario's host (bnb_4bit.linear4bit_host_seconds at host_call_seconds' figures; under_grad False: no-grad
    calls, without the autograd function)."""
    if s.method != "qlora":
        return 0.0, 0.0
    fig = host_figures()
    launch, call = host_call_seconds(s)
    return linear4bit_host_seconds(s, kind, launch, call, fig["view_seconds"]["value"],
                                   fig["optimizer_syncs"]["binding_call_share"], under_grad)


def _module_seconds(s: Scenario, fused: bool, moe: bool,
                    kind: tuple[bool, bool, str] | None = None) -> tuple[float, float, float]:
    """(forward, backward, experts' forward) host seconds of one layer's TE and Megatron module calls that no CUDA
    graph captures (te_module_host.py), each at te_modules' factor x one nn.Linear call and launch on an H100 DGX's
    host, times the run's host speed (host_speed: Megatron-LM's own CI steps, module calls for the most part, take
    1.54x as long on GB200's Grace as on a DGX H100's Xeon, so the factor applies to them as to the launches)."""
    table = host_figures()["te_modules"]
    fwd, bwd, experts = te_module_calls(s, fused, moe, captured_parts(s), table, kind)
    if not fwd + bwd:
        return 0.0, 0.0, 0.0
    fig = host_figures()
    unit = table["factor"] * (fig["launch_seconds"]["value"] + fig["module_call_seconds"]["value"]) * host_speed_factor(s)
    return fwd * unit + backend_selection_seconds(s, fused), bwd * unit, experts * unit


def backend_selection_seconds(s: Scenario, fused: bool) -> float:
    """Host seconds per layer forward of Transformer Engine's get_attention_backend, rerun where consecutive layers'
    attention params differ (attention_backend_host.py), at its measured time on the run's host (host_speed); none
    where the attention is eager or captured in a CUDA graph."""
    if s.attention == "eager" or "attention" in captured_parts(s) or not runs_te_modules(s, fused):
        return 0.0
    share = reselections_per_layer(resolve_model(s))
    if not share:
        return 0.0
    return share * host_figures()["attention_backend_selection"]["seconds"] * host_speed_factor(s)


class LayerHost(NamedTuple):
    """Host work of one layer of a kind (dense or MoE) in one micro-batch: the same for every such layer of a
    scenario, whichever stage and group it is in."""

    forward: float  # host seconds of the forward: launches, experts', 4-bit linears', adapters' and modules' calls
    backward: float  # of the backward
    recomputing_backward: float  # of a backward that runs the layer's forward again (full recompute)
    syncs: int  # host synchronisations per forward (syncs_per_forward)
    block: float  # of the forward: the part issued after the MoE dispatcher's synchronisation (0 for a dense layer)
    tail: float = 0.0  # of the block: the part issued after GPT-OSS's GLU synchronisation (gpt_oss_host.py)
    backward_syncs: int = 0  # host synchronisations per backward (GPT-OSS's GLU recomputed: gpt_oss_host.py)


# A step time asks each of its stages, and each stage each of its groups of layers, for the same few kinds of layer
# (DeepSeek-V3 over 8 pipeline stages: ~10 groups, 2 kinds), and a new batch, sequence or pipeline depth leaves them
# alone: each kind is computed once for scenarios that differ in none of the keys it reads. Every key the stage-time
# table ignores is among these (model.py STAGE_TIME_MEMO: its stages read this table's key; tests/test_memo_keys.py).
LAYER_HOST_MEMO = ScenarioMemo("layer host", KEYS_WITHOUT_TIME_EFFECT | frozenset({
    "nodes", "grad_accum", "zero_stage", "fsdp", "offload", "vpp", "tokens_to_train", "gpu_hour_price",
    "time_calibration", "reserve", "estimator", "k_factor", "fp8_all_gather", "micro_batch", "seq_len", "pp",
    "pp_schedule", "cp", "packing", "max_tokens_per_micro_batch", "packed_sequence_tokens",
}))


def layer_host(s: Scenario, fused: bool, kind: tuple[bool, bool, str], fp8: str = "") -> LayerHost:
    """The host work of one layer of the scenario in one micro-batch; kind (moe, linear_attn, block): the layer's own
    linears (a DeltaNet layer's, a hybrid block's) for its 4-bit and adapter calls."""
    key = LAYER_HOST_MEMO.key(s, fused, kind, fp8)
    found = LAYER_HOST_MEMO.get(key)
    if found is None:
        found = LAYER_HOST_MEMO.put(key, _layer_host(s, fused, kind, fp8))
    return found


def _layer_host(s: Scenario, fused: bool, kind: tuple[bool, bool, str], fp8: str) -> LayerHost:
    moe = kind[0]
    launch, call = host_call_seconds(s)
    fwd, bwd = launches(s, fused, moe, fp8, kind)
    extra_fwd, extra_bwd = expert_host_seconds(s, fp8, fused) if moe else (0.0, 0.0)
    grouped_fwd = extra_fwd
    q_fwd, q_bwd = linear4bit_layer_seconds(s, kind)  # bitsandbytes' 4-bit linears (bnb_4bit.py)
    extra_fwd, extra_bwd = extra_fwd + q_fwd, extra_bwd + q_bwd
    lora_fwd, lora_bwd = adapter_host_seconds(s, kind, launch, call)  # the LoRA adapters' own (lora_adapters.py)
    mod_fwd, mod_bwd, mod_experts = _module_seconds(s, fused, moe, kind)  # TE's and Megatron's modules (te_module_host)
    syncs = syncs_per_forward(s, moe, fused)
    oss = gpt_oss_eager(s, fused, moe, captured_parts(s))  # GPT-OSS's eager kernels (gpt_oss_host.py)
    block = (_experts_launches(s, fused, fp8) + oss.experts) * launch + extra_fwd + mod_experts if syncs and moe else 0.0
    fwd, bwd = fwd + oss.forward + oss.experts, bwd + oss.backward
    forward = fwd * launch + extra_fwd + lora_fwd + mod_fwd
    backward = bwd * launch + extra_bwd + lora_bwd + mod_bwd
    recomputing = (bwd + fwd) * launch + extra_bwd + lora_bwd + mod_bwd + (extra_fwd + lora_fwd + mod_fwd)
    tail = glu_tail_host(oss, launch, grouped_fwd, mod_experts) if syncs and moe else 0.0
    return LayerHost(forward, backward, recomputing, syncs + oss.syncs if syncs else syncs, block, tail,
                     oss.backward_syncs)


def exposed_host_seconds(s: Scenario, fused: bool, work: tuple[LayerWork, ...], other_gpu: float,
                         fp8: str = "", layer_units: bool = False) -> float:
    """Seconds per micro-batch the GPU waits for the host. Without a synchronisation the host runs ahead over the
    whole micro-batch: max(0, host - GPU). With one per layer forward (MoE, or the framework's), each layer's forward
    is on its own (round trip + first launch + max(0, host - GPU)), the backward again over the whole micro-batch."""
    launch = host_call_seconds(s)[0]
    sync = host_figures()["sync_seconds"]["value"]
    if s.cuda_graphs == "full-iteration" or not work:
        return 0.0
    exposed = host_ahead = gpu_ahead = 0.0
    for w in work:
        h = layer_host(s, fused, w.kind or (w.moe, False, ""), fp8)  # the layers' own linears
        # each layer's own FSDP1 unit: its hooks' host work around the layer's (fsdp1_host.py)
        unit_fwd, unit_bwd = layer_unit_seconds(s, layer_units, bool(w.backward), w.recompute)
        h = h._replace(forward=h.forward + unit_fwd)
        host_bwd = (h.recomputing_backward if w.recompute else h.backward) + unit_bwd if w.backward else 0.0
        if h.syncs:
            waits = max(0.0, h.forward - w.forward)
            if w.moe and w.block > 0.0:  # sync -> experts, then the rest of the layer, each on its own
                waits = max(0.0, h.block - w.block) + max(0.0, h.forward - h.block - (w.forward - w.block))
                if h.tail > 0.0 and w.tail > 0.0:  # GPT-OSS's GLU syncs again inside the block: each part on its own
                    waits += max(0.0, h.block - h.tail - (w.block - w.tail)) + max(0.0, h.tail - w.tail) - max(
                        0.0, h.block - w.block)
            # each synchronisation costs its round trip and first launch; the layer's host seconds beyond its GPU seconds
            # are counted once, not once per synchronisation (each second of the layer's GPU work hides host work once)
            exposed += w.count * (h.syncs * (sync + launch) + waits)
            if w.recompute:  # the recomputed forward synchronises again
                exposed += w.count * h.syncs * (sync + launch)
        else:
            host_ahead += w.count * h.forward
            gpu_ahead += w.count * w.forward
        if w.backward:  # a synchronisation in the backward costs its round trip and first launch
            exposed += w.count * h.backward_syncs * (sync + launch)
        host_ahead += w.count * host_bwd
        gpu_ahead += w.count * w.backward
    return exposed + max(0.0, host_ahead - gpu_ahead - other_gpu)
