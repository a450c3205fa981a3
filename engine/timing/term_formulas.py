"""The formula words of the terms whose mechanism depends on the scenario's GPU and framework code (the Time tab's
hover, through provenance.time_provenance): the compute a hidden data-parallel collective displaces (contention.py
nccl_sm_share: on Hopper only the GEMMs of more CTAs than the SMs NCCL leaves lose their tail wave, sm_residency.py),
and the passes the optimizer step runs around Adam (offload.py optimizer_seconds: the profile's where the framework
runs that code, presets/efficiency.json optimizer_steps where the row states its optimizer, the generic clip passes
else). Each formula is one whole translated sentence; the figures it reads go with it as inputs."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..scenario import Scenario, resolve_model
from .contention import nccl_held_sms, nccl_sm_share
from .data import efficiency, framework_profile
from .hardware import hardware_for
from .sm_residency import makes_gemm_wait, static_persistent_gemms

Inputs = tuple[tuple[str, object], ...]

DP_TAIL_WAVE = QT_TRANSLATE_NOOP(
    "engine", "gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP "
              "runs under pipelining) not hidden behind forward and backward, + the compute the hidden part "
              "displaces: on this Hopper GPU a GEMM of more CTAs than the SMs NCCL leaves (gpu_sms - nccl_sms) runs "
              "those beyond as a second wave and loses 1/2, one of no more loses nothing, an MoE layer's GEMMs 1/2 "
              "(displaced_share: over the layer's GEMM FLOPs) of the compute-bound work, 3 x link / HBM bandwidth of "
              "the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its "
              "own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x "
              "vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL's "
              "small-message latency")
DP_SM_SHARE = QT_TRANSLATE_NOOP(
    "engine", "gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP "
              "runs under pipelining) not hidden behind forward and backward, + the compute the hidden part "
              "displaces: nccl_sms / gpu_sms (displaced_share) of the compute-bound work, 3 x link / HBM bandwidth of "
              "the memory-bound work; DeepSpeed of April 2021: each parameter gathered and reduce-scattered on its "
              "own, synchronously, with one copy launch per rank; + fp8 delayed scaling under Megatron: grad_accum x "
              "vpp x 2 amax all-reduces over the tp x cp x dp ranks (tp_only_amax_red: tp x cp) at NCCL's "
              "small-message latency")

DP_NO_SM_SHARE = QT_TRANSLATE_NOOP(
    "engine", "gradient all-reduce / reduce-scatter (+ ZeRO-3 weight gathers per micro-batch, once per step when FSDP "
              "runs under pipelining) not hidden behind forward and backward, + the compute the hidden part "
              "displaces: none of the compute-bound work (the SMs NCCL holds on this GPU, or its SM count, are not "
              "known), 3 x link / HBM bandwidth of the memory-bound work; DeepSpeed of April 2021: each parameter "
              "gathered and reduce-scattered on its own, synchronously, with one copy launch per rank; + fp8 delayed "
              "scaling under Megatron: grad_accum x vpp x 2 amax all-reduces over the tp x cp x dp ranks "
              "(tp_only_amax_red: tp x cp) at NCCL's small-message latency")
OPT_GRAD_BUFFER = QT_TRANSLATE_NOOP(
    "engine", "bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting "
              "for the host: Megatron's fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round "
              "trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; Megatron-Core's step: + "
              "step_bytes_per_param per owned parameter (the gradient norm, the copy into the 16-bit weights) + "
              "step_grad_buffer_passes passes over the rank's whole gradient buffer, every parameter it trains (its "
              "zeroing and the NaN check's norm) + the cast of the owned gradients to fp32 where the buffer is "
              "narrower")
OPT_APEX = QT_TRANSLATE_NOOP(
    "engine", "bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting "
              "for the host: Megatron's fp8 weights (fp8_param_gather, tensorwise) updated after the grad-norm round "
              "trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp; Apex's DistributedFusedAdam "
              "(optimizer_step): + step_bytes_per_param per owned parameter (its shard's gradient norm) + "
              "step_grad_buffer_passes pass over the rank's whole gradient buffer (its zeroing); it writes the 16-bit "
              "weights itself: no copy, no gradient cast, no NaN check over the buffer")
OPT_FRAMEWORK_BYTES = QT_TRANSLATE_NOOP(
    "engine", "bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the GPU waiting "
              "for the host: bitsandbytes' sync after each tensor; + the framework's own passes around its step: "
              "step_bytes_per_param per owned parameter (its gradient buffer's zeroing and scaling, the gradient "
              "norm, the copy into the 16-bit weights)")
OPT_CLIP = QT_TRANSLATE_NOOP(
    "engine", "bytes the optimizer reads and writes per owned parameter / achieved memory bandwidth, + the gradients "
              "read clip_passes times more for the gradient norm and clipping, + the GPU waiting for the host: "
              "bitsandbytes' sync after each tensor; Megatron's fp8 weights (fp8_param_gather, tensorwise) updated "
              "after the grad-norm round trip, 3 Python calls per fp8 weight + the amax all-reduce over dp x cp")


def data_parallel_formula(s: Scenario) -> tuple[str, Inputs]:
    """The data-parallel term's words and figures as data_parallel.py costs the compute its hidden collectives displace
    on s's GPU (contention.hidden_share over the layer's GEMMs, backward included, one node's NCCL where tp x dp fit)."""
    hw = hardware_for(s)
    one_node = s.tp * s.dp <= s.gpus_per_node
    held, sms = nccl_held_sms(hw, one_node), efficiency()["gemm_waves"]["sms"].get(hw.gpu_id or "", 0)
    if not (held and sms):  # contention.nccl_sm_share: 0 where either is not known
        return DP_NO_SM_SHARE, ()
    inputs: Inputs = (("nccl_sms", held), ("gpu_sms", sms))
    if static_persistent_gemms(hw.arch) and makes_gemm_wait("nccl"):
        share = nccl_sm_share(hw, one_node, (s, resolve_model(s), True))
        return DP_TAIL_WAVE, inputs + (("displaced_share", f"{share:.3g}"),)
    return DP_SM_SHARE, inputs + (("displaced_share", f"{nccl_sm_share(hw, one_node):.3g}"),)


def optimizer_formula(s: Scenario) -> tuple[str, Inputs]:
    """The optimizer term's words and figures as offload.optimizer_seconds counts the passes around the step: the
    optimizer_step's (presets/efficiency.json optimizer_steps) or the profile's where the framework runs that code,
    else the gradients read again for clipping (optimizer_bytes_per_param clip_passes)."""
    prof = framework_profile(s.framework)
    if s.optimizer_step != "auto":
        prof = {**prof, **efficiency()["optimizer_steps"][s.optimizer_step]}
    if "step_bytes_per_param" not in prof or not defaults_for(s.framework).profile_step_passes:
        return OPT_CLIP, (("clip_passes", efficiency()["optimizer_bytes_per_param"]["clip_passes"]),)
    step = prof.get("step_bytes_per_param_no_pipeline", prof["step_bytes_per_param"]) if s.pp == 1 else \
        prof["step_bytes_per_param"]
    inputs: Inputs = (("step_bytes_per_param", f"{step} B"),)
    if "step_grad_buffer_passes" not in prof:
        return OPT_FRAMEWORK_BYTES, inputs
    inputs += (("step_grad_buffer_passes", prof["step_grad_buffer_passes"]),)
    return (OPT_APEX if s.optimizer_step != "auto" else OPT_GRAD_BUFFER), inputs


__all__ = ["data_parallel_formula", "optimizer_formula"]
