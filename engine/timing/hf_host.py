"""Host time of a Hugging Face eager training step: per layer as transformers' modeling code runs it, for frameworks
that run that code (presets/efficiency.json frameworks: host_layers hf-eager), and phase by phase on a named host whose
loop synchronises after the forward, the backward and the optimizer step (presets/host_overhead.json hosts; scenario
key host_cpu).

Where the loop calls torch.cuda.synchronize() at the end of each phase (validation/gpu_measure.py), the host cannot
run ahead of the GPU across phases: each phase ends when the later of its host and its GPU work does, and the next
one starts on an idle GPU after a round trip. Within a phase the host issues its work in order: the GPU runs a
segment no sooner than the host has issued it: after each segment of a phase (host seconds h, GPU seconds g) the
GPU's clock is max(its clock + g, the host's clock). The host's work is counted from the code that runs
(presets/host_overhead.json hf_eager_layers, counted by validation/hf_host_counts.py; adamw_foreach): Python calls,
the ATen operators they dispatch (kernels and views), nn.Module calls, the autograd engine's operators in the
backward (from C++, no Python), the optimizer's per-tensor Python and its foreach launches. Each is costed with the
published per-call figures (launch_seconds: a call from Python that launches a kernel; view_seconds: one that does
not; module_call_seconds; the Python binding's share, optimizer_syncs binding_call_share) times the host's factor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple, Protocol

from ..models.architecture import ModelSpec
from ..models.parameter_tensors import LayerKind, layer_tensors, typical_layer_kinds
from ..scenario import Scenario, resolve_model
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.memo import ScenarioMemo
from ..scenario.optimizer_used import optimizer_used
from .checkpoint_host import checkpoint_host_seconds
from .data import framework_profile
from .hf_moe import native_grouped_mm, runs_transformers_moe
from .host import (
    LAYER_HOST_MEMO,
    LayerWork,
    exposed_host_seconds,
    host_call_seconds,
    host_figures,
    layer_unit_seconds,
    linear4bit_layer_seconds,
)
from .lora_adapters import adapter_host_seconds, peft_adapted_linears, peft_python_seconds


class OptimizerWork(Protocol):
    """What the optimizer's host time reads of the busiest stage (model.py's _Stage)."""

    trainable: float
    params: float
    layers: int


def synchronised_phases(s: Scenario) -> bool:
    """The scenario's host runs a loop that synchronises after each phase (presets/host_overhead.json hosts)."""
    return bool(host_figures()["hosts"].get(s.host_cpu, {}).get("synchronised_phases"))


def counted_layers(s: Scenario) -> bool:
    """The framework runs transformers' modeling code eagerly (presets/efficiency.json frameworks: host_layers
    hf-eager), or the named host's loop does (the measured rows): its host work is counted per layer, not by the
    eager launch stack."""
    return synchronised_phases(s) or framework_profile(s.framework).get("host_layers") == "hf-eager"


def _per_call(s: Scenario) -> tuple[float, float, float, float]:
    """(launch from Python, view from Python, Python binding share, module call) seconds on the scenario's host."""
    fig = host_figures()
    launch, view = host_call_seconds(s)
    binding = fig["optimizer_syncs"]["binding_call_share"] * view
    return launch, view, binding, fig["module_call_seconds"]["value"] * launch / fig["launch_seconds"]["value"]


def eager_counts(s: Scenario, spec: ModelSpec) -> Mapping[str, Mapping[str, float]]:
    """{"per_layer": {...}, "per_step": {...}, "decode": {...}} of presets/host_overhead.json hf_eager_layers for the
    model type, precision (amp: fp32 weights under autocast) and attention kernel (eager or SDPA) of the scenario
    ("decode": a one-token decode step's layer, decode_per_layer's forward counts where the entry has them, else
    per_layer's), each with its
    in_op_launches and backward_in_op_launches (kernels an ATen operator launches on CUDA beyond its first: the MoE
    block's sort, histc, grouped GEMMs; 0 where the entry has none), and for the counted MoE types "frozen": the
    backward's kernels, views and in-op launches per layer with the layers' weights frozen (LoRA).
    Read-only views of one table per model type, precision and attention, built once (each stage's host time asks)."""
    return _eager_counts(spec.model_type, s.precision.startswith("amp"), s.attention == "eager")


@lru_cache(maxsize=64)  # model types x amp x eager attention: a handful
def _eager_counts(model_type: str, amp: bool, eager: bool) -> Mapping[str, Mapping[str, float]]:
    table = host_figures()["hf_eager_layers"]
    by_type = table["by_model_type"].get(model_type, table["by_model_type"][table["fallback"]])
    entry = by_type[f"{'amp' if amp else 'bf16'}-{'eager' if eager else 'sdpa'}"]
    out = {part: dict(zip(table["fields"], entry[part], strict=True)) for part in ("per_layer", "per_step")}
    for part in ("per_layer", "per_step"):
        forward, backward = entry.get("in_op_launches", {}).get(part, (0.0, 0.0))
        out[part] |= {"in_op_launches": forward, "backward_in_op_launches": backward}
    # a one-token decode step's layer over the cache, where it runs other code than the training forward (Qwen3.5's
    # recurrent DeltaNet path); other types' decode steps take their forward counts. cache_counted: the count ran
    # over the cache, so its kernels hold the cache's own updates (DynamicCache's cats: validation/
    # hf_hybrid_host_counts.py decode_counts dispatches model(past_key_values=...) whole)
    decode = entry.get("decode_per_layer")
    out["decode"] = out["per_layer"] | {"cache_counted": 0.0} if decode is None else (
        dict(zip(table["fields"], decode, strict=False))
        | {"in_op_launches": 0.0, "backward_in_op_launches": 0.0, "cache_counted": 1.0})
    if "frozen_backward" in entry:
        out["frozen"] = dict(zip(("backward_kernels", "backward_views", "backward_in_op_launches"),
                                 entry["frozen_backward"], strict=True))
    return MappingProxyType({part: MappingProxyType(counts) for part, counts in out.items()})


def counted_moe(s: Scenario, spec: ModelSpec, fused: bool) -> bool:
    """The scenario's MoE layers are counted per layer (hf_eager_layers has their model type: OLMoE, Qwen3-MoE,
    Mixtral) as transformers' grouped_mm MoE block runs them, with no host synchronisation (hf_moe.py: the CUTLASS
    grouped GEMM of sm_90 / sm_100; aten's per-expert fallback elsewhere is left to the eager launch model)."""
    return (spec.model_type in host_figures()["hf_eager_layers"]["by_model_type"]
            and runs_transformers_moe(s, fused) and native_grouped_mm(s))


def _host_forward_backward(s: Scenario, c: Mapping[str, float], frozen_linears: int) -> tuple[float, float]:
    """(forward, backward) host seconds of one counted unit (a layer or the step's own work). A frozen linear's
    backward runs no weight-gradient GEMM (LoRA's base weights)."""
    launch, view, binding, module = _per_call(s)
    # an operator's further kernels launch from C++ inside it: a launch without a dispatch of its own
    forward = (c["python_calls"] * binding + c["kernels"] * (launch - binding) + c["views"] * (view - binding)
               + c["modules"] * module + c["in_op_launches"] * (launch - view))
    backward = ((c["backward_kernels"] - frozen_linears) * (launch - binding) + c["backward_views"] * (view - binding)
                + c["backward_in_op_launches"] * (launch - view))
    return forward, backward


def _per_layer(spec: ModelSpec, transformer: LayerKind, per_kind: Callable[[LayerKind], float]) -> float:
    """per_kind(kind), host seconds of one layer of that kind, for one layer standing for all (the eager counts are
    of one kind of layer): a transformer's `transformer` layer, a gated DeltaNet or hybrid stack's each kind by its
    share of the layers (parameter_tensors.typical_layer_kinds), so each counts its own linears."""
    kinds = typical_layer_kinds(spec)
    if all(not linear_attn and not block for _, linear_attn, block in kinds):
        return per_kind(transformer)
    return sum(share * per_kind(kind) for kind, share in kinds.items())


def _idle(segments: tuple[tuple[float, float], ...]) -> float:
    """Seconds the GPU waits for the host over a phase of (host, GPU) segments, the host issuing in order and the GPU
    running a segment's work once the host has issued it (the phase ends at its GPU work plus this)."""
    host = gpu = idle = 0.0
    for h, g in segments:
        host += h
        gpu += g
        if host > gpu:
            idle, gpu = idle + host - gpu, host
    return idle


class CountedHost(NamedTuple):
    """Host seconds of the counted work of one micro-batch, whatever its batch: per layer, per step (the head and
    loss), per checkpointed layer (torch's non-reentrant checkpoint's own), and one device-to-host round trip;
    layer_forward is a no-grad forward's (the scoring passes), grad_forward what a layer's forward under grad adds."""

    layer_forward: float
    layer_backward: float
    step_forward: float
    step_backward: float
    checkpoint_forward: float
    checkpoint_backward: float
    round_trip: float
    grad_forward: float = 0.0


# Looked up across scenarios that differ only in keys it never reads (host.py LAYER_HOST_MEMO's: the batch, the
# sequence, the pipeline depth, ZeRO; tests/test_memo_keys.py checks the reads): ~12 us of each new scenario's step.
COUNTED_HOST_MEMO = ScenarioMemo("counted host", LAYER_HOST_MEMO.ignores)


def counted_host(s: Scenario, spec: ModelSpec) -> CountedHost:
    """The counted host work of the scenario's dense (or counted MoE) eager layers and step (`spec`: s's model)."""
    key = COUNTED_HOST_MEMO.key(s)
    found = COUNTED_HOST_MEMO.get(key)
    if found is None:
        found = COUNTED_HOST_MEMO.put(key, _counted_host(s, spec))
    return found


def _counted_host(s: Scenario, spec: ModelSpec) -> CountedHost:
    counts = eager_counts(s, spec)
    per_layer = counts["per_layer"]
    frozen = len(spec.layer_linears(False)) if s.method in ADAPTER_METHODS else 0
    if frozen and "frozen" in counts:  # the MoE types' frozen backward, counted as it runs
        per_layer = {**per_layer, **counts["frozen"]}
        frozen = 0
    layer_fwd, layer_bwd = _host_forward_backward(s, per_layer, frozen)
    # PEFT's adapters on top (lora_adapters.py): their forward launches and module calls from Python, their backward
    # from the autograd engine's C++
    launch, view, binding, module = _per_call(s)
    typical = (spec.is_moe, False, "")
    layer_fwd += _per_layer(spec, typical, lambda k: adapter_host_seconds(s, k, launch, module)[0]
                            + peft_python_seconds(s, k, view))
    layer_bwd += _per_layer(spec, typical, lambda k: adapter_host_seconds(s, k, launch - binding, module)[1])
    # bitsandbytes' 4-bit linears beyond nn.Linear's (bnb_4bit.py), a transformer's dense layer's standing for all
    layer_fwd += _per_layer(spec, (False, False, ""), lambda k: linear4bit_layer_seconds(s, k)[0])
    layer_bwd += _per_layer(spec, (False, False, ""), lambda k: linear4bit_layer_seconds(s, k)[1])
    step_fwd, step_bwd = _host_forward_backward(s, counts["per_step"], 0)
    # checkpointing runs the forward's Python again, and torch's non-reentrant checkpoint adds its own per layer and
    # saved tensor (checkpoint_host.py)
    ck_fwd, ck_bwd = checkpoint_host_seconds(s, spec, view)
    round_trip = host_figures()["sync_seconds"]["value"] + host_call_seconds(s)[0]
    # the layer's own Python and autograd's C++ beyond the counted calls (measured: hf_layer_python)
    py = layer_python_view_calls(s, spec)
    return CountedHost(layer_fwd + py.forward * view, layer_bwd + py.backward * view, step_fwd, step_bwd,
                       ck_fwd + py.checkpoint_forward * view, ck_bwd + py.checkpoint_backward * view, round_trip,
                       py.grad_forward * view)


class LayerPython(NamedTuple):
    """View calls per layer and micro-batch of an eager transformers layer's host work beyond its counted calls."""

    forward: float
    grad_forward: float
    backward: float
    checkpoint_forward: float
    checkpoint_backward: float


def _layer_python(model_type: str) -> dict[str, float]:
    """hf_layer_python's figures for the model type: its own measured ones over the shared (Llama's and Qwen2's)."""
    table = host_figures()["hf_layer_python"]
    return {**table, **table["by_model_type"].get(model_type, {})}


def layer_python_view_calls(s: Scenario, spec: ModelSpec) -> LayerPython:
    """presets/host_overhead.json hf_layer_python for one decoder layer of the scenario's model type, with PEFT's
    per adapted linear where its LoRA modules run (lora_adapters.py peft_adapted_linears)."""
    table = _layer_python(spec.model_type)
    adapted = _per_layer(spec, (spec.is_moe, False, ""), lambda k: float(peft_adapted_linears(s, k)))
    peft_fwd, peft_grad, peft_bwd = (adapted * n for n in table["peft_per_adapted_linear"])
    return LayerPython(table["forward"] + peft_fwd, table["grad_forward"] + peft_grad, table["backward"] + peft_bwd,
                       *table["checkpoint"])


def peft_forward_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds, on the run's host, of PEFT's LoRA adapters in one decoder layer's no-grad forward: their launches
    and module calls, PEFT_PYTHON_VIEW_CALLS and hf_layer_python's measured Python per adapted linear, the share of
    counted_host's layer forward its adapters add; 0 where PEFT's modules do not run. A trainer's own generate() of a
    peft model runs them in every decode step."""
    launch, view, _binding, module = _per_call(s)
    forward_views = _layer_python(spec.model_type)["peft_per_adapted_linear"][0]
    return _per_layer(spec, (spec.is_moe, False, ""), lambda k: adapter_host_seconds(s, k, launch, module)[0]
                      + peft_python_seconds(s, k, view) + peft_adapted_linears(s, k) * forward_views * view)


def linear4bit_decode_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds, on the run's host, of one decoder layer's bitsandbytes 4-bit linears beyond nn.Linear's in a
    no-grad decode step (bnb_4bit.py's forward counts without MatMul4Bit.apply), a transformer's dense layer standing
    for all as in counted_host; 0 without bitsandbytes' Linear4bit. A trainer's own generate() of a QLoRA policy
    runs them in every decode step (transformers' bitsandbytes integration replaces each linear of the decoder
    layers with bnb.nn.Linear4bit, whose forward calls bnb.matmul_4bit: bitsandbytes 0.50.1 nn/modules.py 609-637)."""
    return _per_layer(spec, (False, False, ""), lambda k: linear4bit_layer_seconds(s, k, under_grad=False)[0])


def decode_python_view_calls(spec: ModelSpec) -> float:
    """View calls of one decoder layer's no-grad decode step beyond its counted calls (hf_layer_python decode)."""
    return float(_layer_python(spec.model_type)["decode"])


def stage_host_seconds(s: Scenario, fused: bool, work: tuple[LayerWork, ...], other_gpu: float, fp8: str = "",
                       layer_units: bool = False) -> float:
    """Seconds per micro-batch the GPU waits for the host: host.exposed_host_seconds (its launch stacks), or for dense
    Hugging Face eager layers without CUDA graphs the counted host work, run ahead of the GPU over the micro-batch, or
    on a host whose loop synchronises after each phase, over the forward and the backward each on its own (the step's
    own work, head and loss, in the forward's first and the backward's first segment)."""
    eager = not fused and s.cuda_graphs in ("auto", "none")
    if not counted_layers(s) or not eager or not work:
        return exposed_host_seconds(s, fused, work, other_gpu, fp8, layer_units)
    spec = resolve_model(s)
    if any(w.moe for w in work) and not (counted_moe(s, spec, fused) and all(w.moe for w in work)):
        # the counts are of one kind of layer: a stage mixing dense and MoE layers keeps the eager launch model
        return exposed_host_seconds(s, fused, work, other_gpu, fp8, layer_units)
    h = counted_host(s, spec)
    layers = sum(w.count for w in work)
    backward_layers = sum(w.count for w in work if w.backward)  # frozen layers below every trained one run none
    gpu_fwd, gpu_bwd = sum(w.count * w.forward for w in work), sum(w.count * w.backward for w in work)
    checkpointed = sum(w.count for w in work if w.recompute)
    ck_fwd, ck_bwd = (h.checkpoint_forward, h.checkpoint_backward) if checkpointed else (0.0, 0.0)
    # each layer's own FSDP1 unit (host.py layer_unit_seconds): its forward visit, its backward hooks, and its
    # recompute's visit again
    unit_fwd, unit_bwd = layer_unit_seconds(s, layer_units, True, False)
    # a checkpointed layer's backward runs its forward again, under grad
    recompute = checkpointed * (h.layer_forward + h.grad_forward + ck_bwd + unit_fwd)
    # the head and loss: a third of their GPU time forward (one GEMM, the loss's forward), two thirds backward
    layer_fwd = h.layer_forward + h.grad_forward + ck_fwd * checkpointed / layers + unit_fwd
    syncs = padding_free_syncs(s)
    if syncs:  # each layer's forward on its own after its synchronisations (host.py exposed_host_seconds' rule)
        synced = layers * synced_layer_idle(layer_fwd, gpu_fwd / layers, syncs, h.round_trip)
        synced += checkpointed * syncs * h.round_trip  # the recomputed forward synchronises again
        forward = ((h.step_forward, 0.0), (0.0, other_gpu / 3))
    else:
        synced = 0.0
        forward = ((h.step_forward + layers * (h.layer_forward + h.grad_forward + unit_fwd) + checkpointed * ck_fwd,
                    gpu_fwd), (0.0, other_gpu / 3))
    backward = ((h.step_backward, 2 * other_gpu / 3),
                (backward_layers * (h.layer_backward + unit_bwd) + recompute, gpu_bwd))
    if synchronised_phases(s):  # each phase on its own, from an idle GPU
        return synced + _idle(forward) + _idle(backward) + 2 * h.round_trip
    # the host runs ahead over the micro-batch, from the idle GPU the Trainer's loss check (trainer.py: torch.isnan of
    # each micro-batch's loss) leaves; its round trip, tens of microseconds, is left out of the general model
    return synced + _idle(forward + backward)


def padding_free_syncs(s: Scenario) -> int:
    """Host synchronisations per layer forward of transformers' flash-attention path on padding-free rows (packing
    padding-free, or packed: the laid-out scenario's name for it, the sequences of a row told apart by position_ids
    alone, as transformers runs both; attention flash; presets/host_overhead.json hf_layer_python
    padding_free_flash_syncs), 0 elsewhere."""
    if s.packing not in ("padding-free", "packed") or s.attention != "flash":
        return 0
    return int(host_figures()["hf_layer_python"]["padding_free_flash_syncs"])


def synced_layer_idle(host: float, gpu: float, syncs: int, round_trip: float) -> float:
    """Seconds the GPU waits in one layer's forward that synchronises `syncs` times: after a synchronisation the
    queue is empty, so the host cannot run ahead across layers: each costs its round trips and its host seconds beyond
    its GPU seconds (counted once, as host.py exposed_host_seconds does)."""
    return syncs * round_trip + max(0.0, host - gpu)


def _foreach_launches(tensors: list[float], depth: int) -> int:
    """Kernels one foreach operator launches over the tensors (ATen multi_tensor_apply: a launch whenever the
    blocks or the depth's tensor slots fill up)."""
    table = host_figures()["adamw_foreach"]
    chunks = sum(math.ceil(n / table["chunk_elements"]) for n in tensors)
    limit = table["max_tensors_by_depth"][depth - 1]
    return max(math.ceil(chunks / table["max_blocks"]), math.ceil(len(tensors) / limit))


def _layer_tensors(spec: ModelSpec, tp: int) -> list[float]:
    """Elements of each parameter tensor of one decoder layer as transformers 5.x holds it: an MoE layer's routed
    experts as two 3-D tensors (models/olmoe, qwen3_moe, mixtral modeling_*.py: *Experts.gate_up_proj of
    (experts, 2 x ffn, hidden) and down_proj of (experts, hidden, ffn)), not one tensor per expert matrix."""
    if not spec.is_moe:
        return list(layer_tensors(spec, False, tp))
    tensors = list(layer_tensors(spec, True, tp))
    expert = spec.hidden * spec.expert_ffn
    for _ in range(spec.expert_matrices * spec.n_experts):  # equal sizes: which of the equal entries goes does not matter
        tensors.remove(expert)
    return tensors + [2.0 * spec.n_experts * expert, float(spec.n_experts * expert)]


@lru_cache(maxsize=256)  # specs hash by identity; a search asks of the same one for every layout
def _optimizer_launches(spec: ModelSpec, layers: int, tp: int, share: float, fused: bool) -> tuple[int, int]:
    """(parameter tensors, foreach kernel launches) of one AdamW step over the stage's layers and the root's
    embedding, head and final norm, the trained share of them."""
    table = host_figures()["adamw_foreach"]
    tensors = [n for n in _layer_tensors(spec, tp) for _ in range(layers)]
    tensors += [float(spec.vocab * spec.hidden)] * (1 if spec.tied_embeddings else 2) + [float(spec.hidden)]
    tensors = tensors[: max(1, round(len(tensors) * share))]
    depths = table["fused_ops_depth"] if fused else table["ops_depth"]
    return len(tensors), sum(_foreach_launches(tensors, d) for d in depths)


def optimizer_host_seconds(s: Scenario, spec: ModelSpec, optimizer_gpu: float, busiest: OptimizerWork) -> float:
    """Seconds per step the GPU waits for the optimizer's host on a host whose loop synchronises before and after the
    step (0 elsewhere: the host's optimizer work hides behind the GPU's backward or clipping): the per-tensor Python before
    the first kernel, then the foreach launches beside the GPU's step, then a round trip. Full fine-tuning of a dense
    model, or of the MoE layers counted_moe counts, with torch's AdamW (foreach, or fused) over whole tensors; LoRA's
    adapters, ZeRO's partitions and other optimizers are not counted here."""
    if s.method != "full" or s.effective_zero >= 1:  # the scenario's keys first (every step time asks); ZeRO:
        return 0.0  # DeepSpeed's optimizer over flat partitions, or FSDP's sharded tensors: not counted
    optimizer = optimizer_used(s)
    if not counted_layers(s) or optimizer not in ("adamw", "adamw-fused"):
        return 0.0
    if spec.is_moe and not counted_moe(s, spec, False):  # other MoE layers' tensors as transformers holds them: not read
        return 0.0
    if s.optimizer_in_backward or not synchronised_phases(s):
        # without a sync before it the optimizer's Python hides behind the backward's GPU work; after the Trainer's
        # loss check it hides behind the gradient clipping's norm kernels over every gradient, which the Trainer
        # (max_grad_norm 1.0 by default) queues before optimizer.step()
        return 0.0
    table = host_figures()["adamw_foreach"]
    share = min(1.0, busiest.trainable / busiest.params) if busiest.params else 1.0
    fused = optimizer == "adamw-fused"
    tensors, launches = _optimizer_launches(spec, busiest.layers, s.tp, round(share, 6), fused)
    launch, view, binding, _module = _per_call(s)
    depths = table["fused_ops_depth"] if fused else table["ops_depth"]
    items = 0 if fused else table["python_calls_per_tensor"]
    cpu_ops = 0 if fused else table["cpu_ops_per_tensor"]
    before = tensors * (table["binding_calls_per_tensor"] / 2 * binding + cpu_ops * (view - binding))
    beside = (len(depths) * launch + launches * (launch - view)
              + tensors * (items * view + table["binding_calls_per_tensor"] / 2 * binding))
    return _idle(((before, 0.0), (beside, optimizer_gpu))) + host_figures()["sync_seconds"]["value"] + launch
