"""Which parts of a step time are measured, derived or assumed (issue 23 item 8).

Each term of StepTime (model.py BREAKDOWN_KEYS) rests on figures of presets/efficiency.json and presets/gpus.json;
this says, per term and for the scenario's GPU and framework, what kind of figure decides it:

- measured: a rate someone measured on this GPU or kernel (the matmul fraction from the maximum achievable matmul
  FLOPS table, stas00/ml-engineering; attention fractions from the FlashAttention papers' benchmarks);
- derived: bytes, FLOPs, steps or latencies counted from the frameworks' and NCCL's source over datasheet rates;
- assumed: a stated figure without a measurement behind it for this case (a GPU without its own matmul
  measurement takes the table's median; the share of a collective hidden behind compute; DeepSpeed's CPU Adam's
  host memory bandwidth; Megatron's hybrid CPU optimizer's rate is derived from Megatron-Bridge's measured runs).

No Qt; the texts are marked for translation and shown by the Time tab.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frameworks.defaults import defaults_for
from ..memory.hybrid_offload import hybrid_offload_fraction
from ..messages import QT_TRANSLATE_NOOP
from ..scenario import CustomGpu, Scenario, resolve_model
from .costs import loss_path
from .data import efficiency, framework_profile, per_gpu
from .formulas import FORMULAS, OVERLAPPED_INTERLEAVED_BUBBLE, OVERLAPPED_INTERLEAVED_SENDS, bubble_formula
from .hardware import hardware_for
from .layer_settings import fp8_casts
from .links import ep_dispatch_inputs
from .nvfp4 import trains_nvfp4
from .pipeline import model_chunks, overlaps_chunk_exchanges
from .term_formulas import data_parallel_formula, optimizer_formula
from .tp_overlap import userbuffers_on
from .zero_bubble import ZERO_BUBBLE_SCHEDULES, deferred_w_passes

MEASURED = QT_TRANSLATE_NOOP("engine", "measured")
DERIVED = QT_TRANSLATE_NOOP("engine", "derived")
ASSUMED = QT_TRANSLATE_NOOP("engine", "assumed")
# the kinds in a reader's words, and what each means for how sure the figure is (the Time tab's legend and hover, the
# post-training phases' line): "assumed", "derived", "measured" are a modeller's words (user audit 9)
KIND_WORDS = {
    MEASURED: QT_TRANSLATE_NOOP("engine", "from measurements"),
    DERIVED: QT_TRANSLATE_NOOP("engine", "calculated from specs"),
    ASSUMED: QT_TRANSLATE_NOOP("engine", "a rough guess"),
}
KIND_MEANINGS = {
    MEASURED: QT_TRANSLATE_NOOP("engine", "the speed behind this part was measured on this GPU or for this kernel, "
                                          "so it is the surest kind of figure here."),
    DERIVED: QT_TRANSLATE_NOOP("engine", "worked out from the software's own code and the GPU's datasheet, not "
                                         "measured here, so it is fairly sure but can be off where the hardware runs "
                                         "below its datasheet."),
    ASSUMED: QT_TRANSLATE_NOOP("engine", "a stated figure with no measurement behind it for this set-up, so it is "
                                         "the least sure part of the time."),
}


@dataclass(frozen=True, slots=True)
class Provenance:
    kind: str  # MEASURED | DERIVED | ASSUMED (English; translated in the "engine" context)
    basis: str  # one sentence: what figure decides the term (translated in the "engine" context)
    formula: str = ""  # the term's formula as the scenario's settings cost it, where they change it (the bubble's)
    inputs: tuple[tuple[str, object], ...] = ()  # the scenario's figures the formula reads, by their scenario keys


_GEMM_MEASURED = Provenance(MEASURED, QT_TRANSLATE_NOOP(
    "engine", "Matmuls at the maximum achievable matmul rate measured on this GPU (stas00/ml-engineering), in whole "
    "tiles and waves; attention at the rate its kernel's paper measured."))
_GEMM_DERIVED = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "Matmuls at a rate derived from this GPU's measured bf16 rate and the fp8/bf16 ratio of GPUs measured "
    "in both; attention at the rate its kernel's paper measured."))
_GEMM_SUSTAINED = Provenance(MEASURED, QT_TRANSLATE_NOOP(
    "engine", "Matmuls and attention at the rates measured on this GPU, slowed to the clock its power limit leaves "
    "under sustained load (also measured), in whole tiles and waves."))
_GEMM_SAME_CHIP = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "Matmuls at the maximum achievable matmul rate measured on another part with the same chip; attention "
    "at the rate its kernel's paper measured."))
_GEMM_FP8_AT_BF16 = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "The fp8 matmuls at this GPU's measured bf16 matmul rate, not its fp8 one: Transformer Engine's ROCm port "
    "of late 2024 ran them at parity with bf16 (ROCm/TransformerEngine issue #73); a later release with tuned fp8 "
    "GEMMs runs faster. Attention at the rate its kernel's paper measured."))
_GEMM_ASSUMED = Provenance(ASSUMED, QT_TRANSLATE_NOOP(
    "engine", "No matmul measurement for this GPU: matmuls at the median fraction of peak of the GPUs measured."))
_FIXED = {
    "memory_bound": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Bytes counted operation by operation from the framework's kernels, at 85% of the datasheet memory "
        "bandwidth (stream benchmarks).")),
    "recompute": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "The forward work that checkpointing runs again, at the forward's rates.")),
    "communication_cp": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Transformer Engine's ring step by step: each K/V block hides behind one step's attention.")),
    "communication_ep": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Routed tokens over the links the expert group crosses, routing spread evenly over the experts.")),
    "communication_pp": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Activations and their gradients between stages over the link they cross.")),
    "offload": Provenance(ASSUMED, QT_TRANSLATE_NOOP(
        "engine", "DeepSpeed's CPU Adam on the whole optimizer shard at an assumed 150 GB/s of host memory bandwidth "
        "per node, and PCIe at 80% of its rate.")),
    "optimizer": Provenance(DERIVED, QT_TRANSLATE_NOOP(
        "engine", "Bytes the optimizer reads and writes per parameter at the achieved memory bandwidth.")),
    # kernel counts and syncs are counted from the frameworks' source; the host seconds per launch and per sync were
    # measured on one bare-metal Linux host, not on the servers of the runs (presets/host_overhead.json)
    "host": Provenance(ASSUMED, QT_TRANSLATE_NOOP(
        "engine", "Kernel launches and host syncs per layer counted from the framework's source, at a host time per "
        "launch and per sync measured on another machine's CPU, not this one's.")),
}
# Megatron's HybridDeviceOptimizer (optimizer_offload_fraction, timing/hybrid_offload.py): the per-thread rate of
# torch's fused CPU AdamW is derived from one measured point of Megatron-Bridge's CPU-offloading card and checked on
# its other points (presets/efficiency.json megatron_cpu_adam)
_HYBRID_OFFLOAD = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "Megatron's HybridDeviceOptimizer: the offloaded share of the optimizer shard (optimizer_offload_fraction) "
    "steps in torch's fused CPU AdamW on one thread per rank, at a per-thread rate derived from Megatron-Bridge's "
    "measured CPU-offloading runs; its fp32 gradients and weights cross PCIe at 80% of its rate."))
# the bubble per pipeline schedule (formulas.py BUBBLE_FORMULAS has each one's formula)
_BUBBLE_BASES = {
    "1f1b": QT_TRANSLATE_NOOP("engine", "The 1F1B schedule's idle slots: one micro-batch's forward and backward "
                                        "through every stage but the busiest, counted from the stages' own passes."),
    "gpipe": QT_TRANSLATE_NOOP("engine", "GPipe's idle slots, as 1F1B's: one micro-batch's forward and backward "
                                         "through every stage but the busiest."),
    "interleaved-1f1b": QT_TRANSLATE_NOOP("engine", "The interleaved schedule's idle slots: one micro-batch through "
                                                    "every stage but the busiest, divided by the chunks per GPU (vpp)."),
    "zb-h1": QT_TRANSLATE_NOOP("engine", "Zero bubble ZB-1p (arXiv:2401.10241): 1F1B's idle slots less the "
                                         "weight-gradient passes it defers into them, pp - 1 of them."),
    "zb-2p": QT_TRANSLATE_NOOP("engine", "Zero bubble ZB-2p (arXiv:2401.10241): 1F1B's idle slots less the "
                                         "weight-gradient passes of every micro-batch but the last, deferred into "
                                         "them."),
    "zbv": QT_TRANSLATE_NOOP("engine", "Zero bubble ZB-V (arXiv:2401.10241 section 6): two chunks per GPU in a V; "
                                       "1F1B's idle slots less up to 2 (pp - 1) deferred weight-gradient passes "
                                       "(ZB-H2's form: the paper gives none of its own)."),
}


def bubble_provenance(s: Scenario) -> Provenance:
    """The bubble's basis, formula and inputs as s's pipeline schedule costs it (engine/timing/pipeline.py,
    zero_bubble.py)."""
    basis = _BUBBLE_BASES.get(s.pp_schedule, _BUBBLE_BASES["1f1b"])
    inputs: tuple[tuple[str, object], ...] = (("pp", s.pp), ("grad_accum", s.grad_accum))
    if s.pp_schedule == "interleaved-1f1b":
        inputs += (("vpp", s.vpp),)
    if s.pp_schedule in ZERO_BUBBLE_SCHEDULES:
        inputs += (("deferred_w_passes", deferred_w_passes(s.pp_schedule, s.pp, s.grad_accum)),)
    formula = OVERLAPPED_INTERLEAVED_BUBBLE if _overlapped(s) else bubble_formula(s.pp_schedule)
    return Provenance(DERIVED, basis, formula, inputs)


def _overlapped(s: Scenario) -> bool:
    return overlaps_chunk_exchanges(s, framework_profile(s.framework), model_chunks(s))


def pipeline_sends_provenance(s: Scenario) -> Provenance:
    """The pipeline sends' basis, and under Megatron-Core's overlapped interleaving the formula it costs them by with
    the figures it reads (formulas.py OVERLAPPED_INTERLEAVED_SENDS): FORMULAS' per micro-batch sends elsewhere."""
    fixed = _FIXED["communication_pp"]
    if not _overlapped(s):
        return fixed
    return Provenance(DERIVED, fixed.basis, OVERLAPPED_INTERLEAVED_SENDS,
                      (("pp", s.pp), ("vpp", s.vpp), ("grad_accum", s.grad_accum)))


_COLLECTIVE_DERIVED = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "Bytes over the link the group crosses plus NCCL's latency model, nothing hidden behind compute."))
_TP_DERIVED = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "Bytes over the link plus NCCL's latency model, less what the framework's code runs beside its GEMMs, "
    "collective by collective (userbuffers' chunks, the backward's asynchronous collectives)."))
_CP_KV_ALL_GATHER = Provenance(DERIVED, QT_TRANSLATE_NOOP(
    "engine", "The framework's context parallelism all-gathers K and V before each layer's attention and "
    "reduce-scatters their gradients after it, on the critical path: bytes and NCCL latency over the link the cp "
    "group crosses, nothing hidden."), QT_TRANSLATE_NOOP(
    "engine", "per layer and micro-batch: all-gather of the other cp - 1 ranks' K and V (their TP share of the KV "
              "heads) before the attention, again where full recomputation reruns it, + reduce-scatter of their "
              "gradients after its backward, each (cp - 1) x the rank's K and V bytes / the link's bandwidth + "
              "NCCL's latency, exposed"))
_COLLECTIVE_ASSUMED = Provenance(ASSUMED, QT_TRANSLATE_NOOP(
    "engine", "Bytes and NCCL latency are derived; the share hidden behind compute is the framework's stated "
    "overlap, not a measurement."))


def time_provenance(s: Scenario) -> dict[str, Provenance]:
    """Per term of the training step (model.py BREAKDOWN_KEYS): what kind of figure decides it for `s`."""
    prof = framework_profile(s.framework)
    out = {"compute": _gemm(s), **_FIXED, "bubble": bubble_provenance(s),
           "communication_pp": pipeline_sends_provenance(s)}
    if hybrid_offload_fraction(s):
        out["offload"] = _HYBRID_OFFLOAD
    if s.cp > 1 and defaults_for(s.framework).cp_kv_all_gather:  # not a ring (context_parallel.py)
        out["communication_cp"] = _CP_KV_ALL_GATHER
    hides = userbuffers_on(s) or defaults_for(s.framework).tp_async_backward
    out["communication_tp"] = _TP_DERIVED if hides else _COLLECTIVE_DERIVED
    if prof["ep_overlap"] > 0:
        out["communication_ep"] = _COLLECTIVE_ASSUMED
    if inputs := ep_dispatch_inputs(s, resolve_model(s), hardware_for(s)):  # the figures the all-to-all reads
        ep = out.get("communication_ep", _FIXED["communication_ep"])
        out["communication_ep"] = Provenance(ep.kind, ep.basis, FORMULAS["communication_ep"], inputs)
    dp = _COLLECTIVE_ASSUMED if max(prof["dp_overlap"], prof["zero3_overlap"]) > 0 else _COLLECTIVE_DERIVED
    # the words of what the code computes for s's GPU and framework code (term_formulas.py)
    out["communication_dp"] = Provenance(dp.kind, dp.basis, *data_parallel_formula(s))
    out["optimizer"] = Provenance(_FIXED["optimizer"].kind, _FIXED["optimizer"].basis, *optimizer_formula(s))
    # the loss's kernels as the code prices them (costs.head_cost): which path, its bytes a logit of the rank's
    # vocabulary (Transformer Engine's cross-entropy differs by release: te 22, te-inplace 10)
    loss = loss_path(s, prof)
    out["memory_bound"] = Provenance(_FIXED["memory_bound"].kind, _FIXED["memory_bound"].basis, FORMULAS["memory_bound"],
                                     (("loss", loss), ("loss_bytes_per_logit",
                                                       f"{efficiency()['loss_bytes_per_token_per_vocab'][loss]:g} B")))
    return out


def _gemm(s: Scenario) -> Provenance:
    if isinstance(s.gpu, CustomGpu):
        return _GEMM_ASSUMED
    table = efficiency()["fp4_matmul_fraction_of_peak" if trains_nvfp4(s) else "fp8_matmul_fraction_of_peak"
                         if s.precision == "fp8" else "matmul_fraction_of_peak"]
    if s.gpu not in table:
        return _GEMM_ASSUMED
    # a recipe whose fp8 GEMMs run at the bf16 rate (layer_settings.fp8_linear_rate: efficiency.json
    # fp8_gemm_at_bf16_rate) is not decided by the fp8 table's figure
    if s.precision == "fp8" and fp8_casts(s, framework_profile(s.framework)) in efficiency()["fp8_gemm_at_bf16_rate"][
            "recipes"]:
        return _GEMM_FP8_AT_BF16
    if s.gpu in table.get("_ratio", ()):
        return _GEMM_DERIVED
    if s.gpu in table.get("_same_chip", ()):
        return _GEMM_SAME_CHIP
    if per_gpu("sustained_compute_fraction", s.gpu) >= 1.0:
        return _GEMM_MEASURED
    # the share of the short-run rates the code slows this GPU's linears to (model.py _compute_rates: the fp8 / NVFP4
    # recipes' at hardware.py's fp8 share, the GPU's own where measured)
    hw = hardware_for(s)
    share = hw.fp8_sustained_fraction if s.precision == "fp8" or trains_nvfp4(s) else hw.sustained_fraction
    return Provenance(MEASURED, _GEMM_SUSTAINED.basis, FORMULAS["compute"], (("sustained_share", f"{share:.3g}"),))
