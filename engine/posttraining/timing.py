"""Time of one post-training step (issue 22): generation from a decode roofline, the scoring forwards, the training
step (the existing time model over the RL batch), PPO's critic step and the weight sync, one after another as the
synchronous trainers run them (TRL, verl's hybrid engine, NeMo-RL colocated, OpenRLHF without async)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from ..frameworks import defaults_for
from ..memory.states import dtypes_for
from ..messages import Message
from ..scenario import Scenario
from ..serving.fused_moe_rate import expert_read_share
from ..serving.host_iteration import runs_without_graph
from ..serving.kernel_fixed_time import decode_fixed_seconds
from ..serving.mla_attention import mla_path
from ..serving.weights import decode_unread_bytes, expert_byte_share, touched_expert_read_fraction
from ..timing import StepTime, TimeTerm, hardware_for, time_to_json
from ..timing import step_time as training_step_time
from ..timing.bands import Band, seconds_range
from ..timing.data import framework_profile
from ..timing.model import rates_for
from ..timing.provenance import Provenance, time_provenance
from .adapter_load import adapters_into_engine_seconds, per_generate_adapter_load_seconds
from .adapter_sync import serves_adapters, sleep_copy_seconds
from .adapter_units import adapter_unit_seconds
from .bnb_decode import bnb_decode_extra_bytes, bnb_decode_fixed_seconds
from .bridge_export import export_gather_seconds
from .dataproto_dispatch import scoring_dispatch_seconds
from .eager_decode import dynamic_cache_bytes_per_token, eager_decode_host_seconds, trainer_generate_host_seconds
from .engine_adapters import adapter_decode_fixed_seconds, adapter_decode_host_seconds
from .engine_imbalance import slowest_engine_decode_seconds
from .engine_loop import loop_host_seconds
from .estimate import critic_scenario, generated_per_engine, generation_tp, step_parts, step_sequences, training_scenario
from .generate_calls import decode_passes, rollout_waves
from .length_spread import last_pass_tail_seconds
from .longest_completion import engine_prompt_len, longest_completion_len, tail_iterations
from .models import engine_weight_format, model_spec, weight_shards
from .packed_padding import padded_tokens_ratio
from .phase_offload import phase_offload_seconds
from .phases import StepParts, step_parameter_loads_by_phase
from .rank_imbalance import rank_wait_inputs, update_rank_wait_seconds
from .refit_offload import refit_offload_seconds
from .rollout_attention import decode_attention_flops, prefill_attention_flops
from .rollout_collectives import forward_all_reduce_seconds, prefill_all_reduce_seconds
from .scoring_time import adapter_off_forward_seconds, policy_forward_seconds
from .settings import rl_settings
from .term_words import RL_FORMULAS, RL_PROVENANCE, RL_TERM_NAMES
from .time_band import BAND_PHASES, POSTTRAINING_REGIME, STEP, posttraining_band_basis, posttraining_bands
from .vocab_passes import vocab_pass_seconds
from .worker_output import worker_output_seconds


def step_provenance(s: Scenario) -> dict[str, Provenance]:
    """What kind of figure decides each term of `s`'s step (engine/timing/provenance.py), post-training's parts too;
    the rank wait with the figures its formula reads for `s` (rank_imbalance.py rank_wait_inputs)."""
    out = {**time_provenance(s), **RL_PROVENANCE}
    if s.training_objective == "sft":
        return out
    if inputs := rank_wait_inputs(training_scenario(s, rl_settings(s, dtypes_for(s).compute))):
        out["rank_imbalance"] = dataclasses.replace(out["rank_imbalance"], formula=RL_FORMULAS["rank_imbalance"],
                                                    inputs=inputs)
    return out


@dataclass(frozen=True)
class RLStepTime(StepTime):
    """A post-training step: the training step's terms, then the post-training parts (`rl_seconds`)."""

    rl_seconds: tuple[tuple[str, float], ...] = ()
    samples_per_step: int = 0
    samples_per_second: float = 0.0
    generation: tuple[tuple[str, Any], ...] = ()  # prefill/decode split, waves, concurrency
    # per phase the post-training regime's band (time_band.py); `band` is the whole step's
    phase_bands: tuple[tuple[str, Band], ...] = ()
    # the generation engine's own sentence when it would not start (rollout_memory.py): then no generation runs and
    # the step cannot run; the generation term is what a pool that does not exist would give (refused_step.py)
    engine_refusal: Message | None = dataclasses.field(default=None, repr=False)

    @property
    def phase_seconds(self) -> dict[str, float]:
        """The step in the phases the measured post-training set splits (time_band.BAND_PHASES): generation with the
        weight sync into it, the scoring forwards, and the update: the rest (the training step, PPO's critic, the
        offload copies between phases, the frozen models' streaming)."""
        parts = dict(self.rl_seconds)
        generation = parts.get("generation", 0.0) + parts.get("weight_sync", 0.0)
        scoring = parts.get("scoring", 0.0)
        return {"generation": generation, "scoring": scoring,
                "update": max(0.0, self.step_seconds - generation - scoring)}

    @property
    def phase_seconds_ranges(self) -> dict[str, tuple[float, float]]:
        """Per phase with a band: where its measured seconds likely fall (bands.seconds_range)."""
        seconds = self.phase_seconds
        return {phase: seconds_range(seconds[phase], band) for phase, band in self.phase_bands if phase in seconds}

    @property
    def terms(self) -> tuple[TimeTerm, ...]:
        return StepTime.terms.fget(self) + tuple(  # type: ignore[attr-defined]
            TimeTerm(k, RL_TERM_NAMES[k], v, RL_FORMULAS[k]) for k, v in self.rl_seconds)

    @property
    def breakdown_seconds(self) -> dict[str, float]:
        return {**StepTime.breakdown_seconds.fget(self), **dict(self.rl_seconds)}  # type: ignore[attr-defined]


def _generation(p: StepParts, s: Scenario, hw: Any, gemm: float) -> tuple[float, dict[str, Any]]:
    rs, spec = p.rs, p.spec
    sequences = generated_per_engine(s, rs)
    if not rs.online or sequences == 0:
        return 0.0, {}
    e = p.engine
    # at what the engine admits, per generate() call (generate_calls.py: TRL <= 0.15.2 one per micro-batch)
    concurrent, waves, calls = rollout_waves(rs.generate_calls, sequences, e.running_sequences if e else sequences)
    active, tp = spec.active_params, generation_tp(s, rs)  # rollout_tp, or the trainer's tp without an engine
    # weights' matmuls and causal attention (rollout_attention.py); all-reduces one a chunk and layer as serving's
    prompt = engine_prompt_len(s)  # without its padding (prompt_len_mean)
    prefill = (2 * active * prompt / tp + prefill_attention_flops(spec, rs.rollout_engine, tp, prompt)) * sequences / gemm
    prefill += prefill_all_reduce_seconds(s, hw, spec, tp, sequences * prompt, e.batched_tokens if e else 0)
    weights = e.weight_bytes if e else spec.total_params * p.dt.compute / tp
    # a decode step looks up its tokens' rows of an untied embedding table, and runs no vision encoder
    table_bytes = 2 if s.method == "qlora" else p.dt.compute  # bitsandbytes keeps embeddings in 16 bits
    unread = decode_unread_bytes(spec, "bf16", tp) * table_bytes / 2
    per_token_kv = e.kv_bytes_per_token if e else dynamic_cache_bytes_per_token(s, spec, tp, p.dt.compute)
    expert_share = expert_byte_share(spec, engine_weight_format(s) if e else "bf16", tp)  # each tensor's own format
    expert_share_read = expert_read_share(spec, rs.rollout_engine, engine_weight_format(s), tp, gpu=s.gpu) if e else 1.0
    # each kernel's fixed GPU time (kernel_fixed_time.py), the LoRA kernels' too when the engine serves the adapters
    fixed = decode_fixed_seconds(rs.rollout_engine, spec) + adapter_decode_fixed_seconds(s, spec, rs.rollout_engine)
    # without a CUDA graph the host launches every layer's kernels each iteration (eager_decode.py), and an engine
    # serving the LoRA adapters each wrapped linear's punica kernels (engine_adapters.py): an engine that captures
    # none, or a batch beyond the largest it captured (host_iteration.runs_without_graph, as in serving)
    adapters = adapter_decode_host_seconds(s, spec, rs.rollout_engine)
    launches = eager_decode_host_seconds(s, spec, tp, rs.rollout_engine, rs.enforce_eager) + adapters
    # without an engine the trainer's own generate() runs each layer from Python every step (eager_decode.py)
    generate = trainer_generate_host_seconds(s, spec) if e is None else 0.0

    def host(running: int) -> float:
        if generate:
            return generate
        eager = rs.enforce_eager if e is None else runs_without_graph(rs.enforce_eager, e.graph_capture_size, running)
        return launches if eager else 0.0

    mla_decode = bool(mla_path(spec, rs.rollout_engine, "decode"))  # vLLM's / SGLang's absorbed MLA decode

    def iteration(running: int, context: float) -> tuple[float, dict[str, float]]:
        """Seconds of one decode iteration over `running` sequences, and the parts the detail shows: the host's
        launches, the GPU's fixed time and all-reduces, the engine loop's host work in series with the forward
        (engine_loop.py loop_host_seconds: V0's or V1's)."""
        # a MoE reads the experts its tokens pick (fused_moe_rate.py's share), less the unread table and tower, as serving
        read = weights * touched_expert_read_fraction(spec, running, expert_share, expert_share_read) - unread
        # a bitsandbytes 4-bit base is dequantised whole for each GEMM of 2 or more sequences (bnb_decode.py)
        read += bnb_decode_extra_bytes(s, spec, rs.rollout_engine, tp, running, p.dt.compute)
        loop = loop_host_seconds(s, rs.rollout_engine, running, rs.enforce_eager, rs.sampled_logprobs,
                                 rs.engine_in_process, rs.detokenize)
        matmuls, kv = running * 2 * active / tp, running * context * per_token_kv
        attention = running * decode_attention_flops(spec, rs.rollout_engine, tp, context)
        if mla_decode:  # an MLA decode's attention: its own kernel after the projections (speed.py _decode_rooflines)
            forward = max(read / hw.memory_bytes_per_s, matmuls / gemm) + max(attention / gemm,
                                                                              kv / hw.memory_bytes_per_s)
        else:
            forward = max((read + kv) / hw.memory_bytes_per_s, (matmuls + attention) / gemm)
        bnb_fixed = bnb_decode_fixed_seconds(s, spec, rs.rollout_engine, running)  # bnb_decode.py
        # the engine's tensor-parallel all-reduces, two a layer, on the GPU's side (rollout_collectives.py)
        launched, all_reduce = host(running), forward_all_reduce_seconds(s, hw, spec, tp, running)
        seconds = max(forward + fixed + bnb_fixed + all_reduce, launched)
        host_loop = loop.serial_output + loop.schedule_input + loop.sampler + loop.v1_step + loop.in_process_output
        return seconds + host_loop, {
            "eager_host_seconds_per_step": launched, "adapter_host_seconds_per_step": adapters if launched else 0.0,
            "kernel_fixed_seconds_per_step": fixed + bnb_fixed,  # the step's whole fixed GPU time, bnb's too
            "tp_all_reduce_seconds_per_step": all_reduce, "serial_output_seconds_per_step": loop.serial_output,
            "schedule_input_seconds_per_step": loop.schedule_input, "sampler_host_seconds_per_step": loop.sampler,
            "engine_loop_host_seconds_per_step": loop.v1_step, "in_process_output_seconds_per_step": loop.in_process_output}

    step, parts = iteration(concurrent, prompt + s.completion_len / 2)
    # until the longest completion: eager, one sequence alone (longest_completion.py); a MoE or CUDA graphs: drains
    tail_seconds = last_pass_tail_seconds(iteration, s, spec, concurrent, calls, step, prompt,
                                          e is not None and not rs.enforce_eager)  # (length_spread.py)
    full_iterations = (waves := decode_passes(rs.generate_calls, sequences, concurrent)) * s.completion_len
    slowest = slowest_engine_decode_seconds(s, rs, iteration, -(-sequences // calls), full_iterations, waves, step, prompt)
    decode = full_iterations * step + tail_seconds + slowest  # every engine waited for (engine_imbalance.py)
    output = worker_output_seconds(s, rs, sequences, step_sequences(s))  # after the decode (worker_output.py)
    return prefill + decode + output, {"prefill_seconds": prefill, "decode_seconds": decode, "sequences": sequences,
                              "concurrent_sequences": concurrent, "waves": round(waves, 3), "decode_step_seconds": step,
                              **parts, "decode_iterations": round(full_iterations) + tail_iterations(s) * calls,
                              "longest_completion_tokens": longest_completion_len(s), "longest_tail_seconds": tail_seconds,
                              "worker_output_seconds": output}


def _scoring(p: StepParts, s: Scenario, gemm: float, train: Scenario) -> float:
    """The policy's own passes (old-policy, reference) as the training model times a forward of the same micro-batches
    (scoring_time.py); the reward model's and the critic's forwards by their matmul FLOPs."""
    rs = p.rs
    # the old policy's log-probs, where the framework scores them apart from the update (settings.old_policy_scored)
    policy = policy_forward_seconds(train) if rs.old_policy_pass else 0.0
    if rs.reference_forward:  # an adapter-off reference runs the base alone (scoring_time.py)
        policy += (adapter_off_forward_seconds(train) if rs.reference == "adapter-off"
                   else policy_forward_seconds(train))
    policy *= padded_tokens_ratio(s)  # packed micro-batches padded to the longest under a pipeline
    params_tokens = 0.0  # each forward's params x tokens: the critic's at its own layout (settings.critic_layout)
    if s.reward_model is not None and rs.online:
        params_tokens += model_spec(s.reward_model).active_params * rs.shard_tokens  # a Ulysses GPU: its slice
    if p.critic is not None:  # the critic's own model (critic_model), not the policy's unless "same"
        critic = p.spec if s.critic_model == "same" else model_spec(s.critic_model)
        params_tokens += critic.active_params * rs.critic_tokens
    sequences = s.micro_batch * rs.sequences_per_sample * s.grad_accum
    return policy + 2 * params_tokens * sequences / (s.tp * s.pp) / gemm


def _sync(p: StepParts, s: Scenario, hw: Any) -> float:
    """The policy's weights into the engine, and vLLM's level-1 sleep copies around the generation (adapter_sync.py);
    an engine served the LoRA adapters alone gets them after a full-precision gather of the policy instead."""
    if p.engine is None or p.rs.weight_sync == "shared":  # a shared engine may still load the adapters per call
        return per_generate_adapter_load_seconds(p, s, hw)  # (Unsloth's load_lora at each generate(): adapter_load.py)
    sleep = sleep_copy_seconds(p, hw)
    if serves_adapters(s):
        return adapters_into_engine_seconds(p, s, hw) + sleep  # Unsloth's per-generate loads are its sync
    moved = p.spec.total_params * p.dt.compute
    gathered = s.effective_zero == 3 or p.rs.placement == "separate"
    # a Megatron policy's export first gathers every tensor whole on every rank (bridge_export.py)
    export = export_gather_seconds(p, s, hw)
    return moved / (hw.intra_bytes_per_s if gathered else hw.memory_bytes_per_s) + sleep + export


def rl_step_time(s: Scenario) -> RLStepTime:
    """Seconds of one post-training step of `s`, the training step's terms first."""
    p = step_parts(s)
    rs = p.rs
    # offload between phases: the update runs with the states loaded and steps on the GPU (phase_offload.py)
    loaded = s.with_unchecked(offload="none") if rs.offload_between_phases else s
    train_scenario = training_scenario(loaded, rs)
    train = training_step_time(train_scenario)
    hw = hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    generation, detail = _generation(p, s, hw, rates.gemm)
    # the LoRA adapters as FSDP1 units of their own: their hooks in the old-policy pass and the update (adapter_units.py)
    units = adapter_unit_seconds(s, train_scenario, rs.old_policy_pass)
    # verl's division by the temperature, compiled entropy and out-of-place cross-entropy gradient (vocab_passes.py)
    logits = vocab_pass_seconds(s, rs, train_scenario)
    parts = [("generation", generation), ("scoring", _scoring(p, s, rates.gemm, train_scenario) + units["scoring"]
                                          + logits["scoring"] + scoring_dispatch_seconds(s, rs))]  # ray's round trips
    if p.critic is not None:  # with the critic's own offload (as its memory), loaded where it holds between phases
        parts.append(("critic", training_step_time(critic_scenario(s, rs, loaded=True)).step_seconds))
    parts.append(("weight_sync", _sync(p, s, hw)))
    if units["update"]:
        parts.append(("adapter_units", units["update"]))
    if logits["update"]:
        parts.append(("vocab_passes", logits["update"]))
    parts_of = train.breakdown_seconds  # padding-free micro-batches at their longest rank's tokens (rank_imbalance.py)
    if wait := update_rank_wait_seconds(train_scenario, parts_of["compute"] + parts_of["memory_bound"]
                                        + parts_of["recompute"]):
        parts.append(("rank_imbalance", wait))
    if (padded := padded_tokens_ratio(s)) > 1.0:  # the update's micro-batches padded to the longest (packed_padding.py)
        parts.append(("packed_padding", (padded - 1.0) * train.step_seconds))
    if rs.reference_params_offloaded and (streamed := streamed_frozen_bytes(p, s)):
        parts.append(("frozen_streaming", streamed / hw.host_bytes_per_s))
    if refit := refit_offload_seconds(p, s, hw):  # NeMo-RL's moves around the colocated sync (refit_offload.py)
        parts.append(("refit_offload", refit))
    if rs.offload_between_phases or rs.critic_offload_between_phases:
        loads = sum(step_parameter_loads_by_phase(p).values())
        parts.append(("phase_offload", phase_offload_seconds(
            s, p.moves, loads, hw.host_bytes_per_s, defaults_for(s.framework).posttraining.fsdp2_offload_pageable)))
    parts = [(k, v * train.calibration_factor) for k, v in parts]
    step = train.step_seconds + sum(v for _, v in parts)
    tps = train.tokens_per_step / step if step else math.inf
    samples, ttt, hours, cost = step_sequences(s), None, None, None
    if s.tokens_to_train:
        ttt = s.tokens_to_train / tps
        hours = ttt * s.world_size / 3600.0
        cost = hours * s.gpu_hour_price if s.gpu_hour_price is not None else None
    share = train.step_seconds / step if step else 0.0  # of the step the update takes: each MFU figure scales by it
    base = dataclasses.replace(train, step_seconds=step, tokens_per_second=tps, tokens_per_second_per_gpu=tps /
                               s.world_size, mfu=train.mfu * share, mfu_bf16_peak=train.mfu_bf16_peak * share,
                               mfu_attention_whole=train.mfu_attention_whole * share, time_to_train_seconds=ttt,
                               gpu_hours=hours, cost=cost)
    # a step that generates takes the post-training regime's own band, not the training runs' (time_band.py: its
    # measured runs are online, generating ones); an offline objective (DPO, KTO, ...) runs a training step over
    # pairs and keeps the training regime's band; a step scaled to the user's measured one has none (model.py)
    bands = posttraining_bands() if rs.online else {}
    base = dataclasses.replace(base, band=bands.get(STEP, base.band) if train.calibration_factor == 1.0 else None)
    return RLStepTime(**{f.name: getattr(base, f.name) for f in dataclasses.fields(StepTime)},
                      rl_seconds=tuple(parts), samples_per_step=samples, samples_per_second=samples / step,
                      generation=tuple(detail.items()),
                      phase_bands=tuple((k, bands[k]) for k in BAND_PHASES if k in bands),
                      engine_refusal=p.engine.refusal if p.engine is not None and rs.online else None)


def rl_time_to_json(t: StepTime) -> dict[str, Any]:
    """The `time` object of `estimate --json`, with the post-training parts when `t` is an RLStepTime."""
    out = time_to_json(t)
    if isinstance(t, RLStepTime):
        out["breakdown_seconds"] = t.breakdown_seconds
        out["generation"] = {"seconds": dict(t.rl_seconds).get("generation", 0.0), **dict(t.generation)}
        if t.engine_refusal is not None:  # no generation runs: no seconds, and the step cannot run (refused_step.py)
            out["generation"].update(seconds=None, engine_starts=False, engine_refusal=str(t.engine_refusal))
            out["step_runs"] = False
        out["samples_per_step"] = t.samples_per_step
        out["samples_per_second"] = t.samples_per_second
        if t.phase_bands:  # each phase's likely range, from the measured post-training runs (time_band.py)
            seconds = t.phase_seconds
            out["phase_seconds"] = seconds
            out["phase_seconds_range"] = {k: list(v) for k, v in t.phase_seconds_ranges.items()}
            out["phase_seconds_range_basis"] = {k: {"error_p10": b.low, "error_p90": b.high, "measured_runs": b.runs}
                                                for k, b in t.phase_bands}
        if t.band is not None and t.band.regime == POSTTRAINING_REGIME:
            out["step_seconds_range_basis"]["checked_against"] = posttraining_band_basis()
    return out


def streamed_frozen_bytes(p: StepParts, s: Scenario) -> float:
    """Bytes per GPU per step that FSDP's parameter CPU offload copies in for the separate reference and reward
    models (PostTrainingDefaults.reference_params_offloaded: verl builds them with FSDP1 CPUOffload(offload_params=
    True), fsdp_workers.py b178a3c _build_model_optimizer for the ref role; memory counts only the unit being computed,
    models.offloaded_units_bytes). Each forward unshards every unit from its pinned CPU shard (torch/distributed/fsdp/
    _flat_param.py init_flat_param_attributes pins _local_shard "for faster H2D transfer"), and nothing is copied
    back (frozen): one H2D copy of each model's shard per forward, the training micro-batches' count of them
    (scoring passes run train_sequences a forward, as the scoring phase's memory; verl's log_prob_micro_batch_size)."""
    rs = p.rs
    per_forward = 0.0
    if rs.reference == "separate" and rs.reference_forward:
        per_forward += p.spec.total_params
    if s.reward_model is not None and rs.online:
        per_forward += model_spec(s.reward_model).total_params
    forwards = -(-s.micro_batch * rs.sequences_per_sample * s.grad_accum // max(1, rs.train_sequences))
    return per_forward * p.dt.compute / weight_shards(s) * forwards
