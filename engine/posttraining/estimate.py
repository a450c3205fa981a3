"""scenario -> Estimate for the post-training objectives: the peak phase of one step as the estimate, every phase in
its `rl` field."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ..frameworks import defaults_for
from ..memory.breakdown import Component, Estimate, Moments, StageEstimate, phase_peak
from ..memory.estimate import estimate as training_estimate
from ..memory.states import dtypes_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import Scenario, resolve_gpu, resolve_model
from ..serving.defaults import vllm_llm_class_batched_tokens
from ..serving.scenario_estimate import cuda_visible_capacity
from .entropy import with_update_entropy
from .logprobs import fused_head_training, training_logits, with_chosen_nll, with_copy_slices
from .longest_completion import longest_completion_len
from .models import (
    LOADED_KEYS,
    engine_load_extra_bytes,
    engine_lora_bytes,
    engine_weight_bytes,
    frozen_models,
    resident_states,
    weight_shards,
    zero3_grads_persistent,
)
from .phase_offload import phase_moves
from .phases import StepParts, all_phases, engine_variants
from .result import RLEstimate, RLPhase
from .rollout_memory import engine_memory
from .settings import RLSettings, critic_offload, rl_settings

# the training step's loss path for each log-prob path (the scenario's own cross_entropy wins): TRL's row-by-row
# bf16 log-softmax keeps every row's output for backward, closest to the standard path's whole-batch tensors
TRAINING_LOSS = {"standard": "standard", "rows": "standard", "fused": "fused", "fused-fp32": "fused",
                 "fused-linear": "fused-linear", "model-loss": "auto"}


# the reserve's formula on an engine's own GPUs, where the engine's start-up check is the judgment (_engine_stage)
ENGINE_GPUS_NO_OVERHEAD = QT_TRANSLATE_NOOP("engine", "none on the generation engine's own GPUs: the engine takes its "
                                                      "share up front and its start-up check judges it")

SETTING_NAMES = tuple(f.name for f in dataclasses.fields(RLSettings))


def training_scenario(s: Scenario, rs: RLSettings) -> Scenario:
    """The training step of the RL batch as the training estimator sees it: sequences of prompt + completion tokens,
    two per pair for the pair objectives; a reward model's one-number head is closest to the fused-linear path
    (no vocabulary logits)."""
    loss = s.cross_entropy if s.cross_entropy != "auto" else TRAINING_LOSS[rs.logprob_path]
    if loss == "auto" and not rs.online:  # the model's own loss, as the framework's offline trainers configure it
        # (ms-swift's Megatron GRPO pops the labels and log-softmaxes the logits itself: grpo_trainer.py forward_step)
        loss = defaults_for(s.framework).posttraining.model_loss
    if rs.objective == "reward":
        loss = "fused-linear"
    if rs.ulysses > 1:  # verl runs Ulysses on padding-free rows through flash-attention (workers/config/actor.py:
        # sequence parallelism requires use_remove_padding; models/transformers/monkey_patch.py patches flash attention)
        return _token_budget(s.with_unchecked(seq_len=rs.shard_tokens, micro_batch=rs.train_sequences,
                                              cross_entropy=loss, attention="flash"))
    return _token_budget(s.with_unchecked(seq_len=rs.sequence_tokens, micro_batch=rs.train_sequences,
                                          cross_entropy=loss))


def _token_budget(train: Scenario) -> Scenario:
    """A framework that cuts micro-batches by token count (verl's use_dynamic_bsz: rearrange_micro_batches splits the
    rank's mini-batch of micro_batch sequences into k = ceil(tokens / max_token_len) micro-batches of about equal
    tokens, volcengine/verl@9e4074b7 verl/utils/seqlen_balancing.py lines 216-247, dp_actor.py lines 276-278): each of
    the grad_accum mini-batches runs k micro-batches of its tokens / k (k = 1: the same layout as without a budget,
    packing.py laid_out), the budget kept stated for rank_imbalance.py."""
    tokens = train.micro_batch * train.seq_len
    parts = _budget_parts(train, tokens)
    if not parts:
        return train
    return train.with_unchecked(max_tokens_per_micro_batch=-(-tokens // parts), grad_accum=train.grad_accum * parts)


def _budget_parts(s: Scenario, tokens: int) -> int:
    """The micro-batches a rank's mini-batch of `tokens` runs as where the framework cuts its passes by a token budget
    (PostTrainingDefaults.micro_batches_by_count, padding-free or packed sequences, max_tokens_per_micro_batch set):
    ceil(tokens / budget); 0 where no budget cuts them. The one rule _token_budget (the step's micro-batches) and
    per_forward (the tensors one forward holds) both read."""
    cap = s.max_tokens_per_micro_batch
    if not cap or s.packing == "none" or not defaults_for(s.framework).posttraining.micro_batches_by_count:
        return 0
    return -(-tokens // cap)


def per_forward(s: Scenario, rs: RLSettings) -> RLSettings:
    """`rs` with train_sequences the sequences one forward holds where the framework cuts its passes by a token
    budget (verl's use_dynamic_bsz, _token_budget: a rank's micro_batch sequences in ceil(tokens / budget)
    micro-batches, each run forward and backward before the next): the logits, loss tensors and scoring forwards
    alive at once are one micro-batch's, not the mini-batch's (user audit 15: a budget of 24,000 tokens left the
    logits at the whole mini-batch's, so a larger micro_batch read 'does not fit' at the same tokens a forward). The
    log-prob passes take the actor's budget (volcengine/verl@9e4074b7 verl/trainer/config/ppo_trainer.yaml lines
    84-85 and 110-111: the reference's and rollout's log_prob_use_dynamic_bsz / log_prob_max_token_len_per_gpu
    interpolate the actor's; dp_actor.py compute_log_prob lines 212-215). Memory only: the time counts the
    micro-batches on the training scenario."""
    parts = _budget_parts(s, rs.train_sequences * (rs.shard_tokens if rs.ulysses > 1 else rs.sequence_tokens))
    return rs if parts <= 1 else dataclasses.replace(rs, train_sequences=-(-rs.train_sequences // parts))


def critic_scenario(s: Scenario, rs: RLSettings, loaded: bool) -> Scenario:
    """The training scenario of PPO's critic step: its model, a value head's fused loss, its own offload and layout;
    `loaded`: with its states loaded back for its own phases where its offload holds between phases only."""
    offload = "none" if loaded and rs.critic_offload_between_phases else critic_offload(s)
    # by token count the critic cuts its passes at its own budget, not the actor's (verl critic.ppo_max_token_len_per_gpu,
    # 32,768 by default; its use_dynamic_bsz follows the actor's: posttraining_keys.py critic_max_tokens_per_micro_batch)
    own = s.with_unchecked(max_tokens_per_micro_batch=s.critic_max_tokens_per_micro_batch) \
        if s.max_tokens_per_micro_batch else s
    critic = training_scenario(own, rs).with_unchecked(model=s.model if s.critic_model == "same" else s.critic_model,
                                                       cross_entropy="fused-linear", offload=offload)
    # its own layout (critic_packing: settings.critic_layout), each sequence at its tokens
    return critic.with_unchecked(packing=rs.critic_packing, seq_len=rs.critic_tokens) if rs.critic_packing else critic


def _critic(s: Scenario, rs: RLSettings, loaded: bool = False) -> Estimate | None:
    """PPO's critic step's memory (critic_scenario); None without a critic."""
    if rs.objective != "ppo" or s.critic_model is None:
        return None
    return training_estimate(critic_scenario(s, rs, loaded))


@lru_cache(maxsize=256)
def _training_step(s: Scenario, rs: RLSettings, spec: ModelSpec, gpu: tuple) -> Estimate:
    """The training estimator over the RL batch, computed once per scenario (the phases, the JSON and the window's
    chart all read it). The resolved model and GPU are part of the key: a preset edited under the same name is a
    new entry."""
    return training_estimate(training_scenario(s, rs))


def step_parts(s: Scenario) -> StepParts:
    spec = resolve_model(s)
    dt = dtypes_for(s)
    rs = rl_settings(s, dt.compute)
    train = _cached_training(s, rs, spec)
    between, critic_between = train, _critic(s, rs)  # the states kept on the GPU between phases
    # the critic's offload holds between phases apart from the actor's: its own phases run with its states loaded
    critic = _critic(s, rs, loaded=True) if rs.critic_offload_between_phases else critic_between
    loaded: tuple[Component, ...] = ()
    if rs.offload_between_phases:
        # verl's offload holds between phases only: the update runs with the states loaded back (the training
        # estimator without offload), the scoring passes and the weight sync with the parameters loaded back
        train = _cached_training(s.with_unchecked(offload="none"), rs, spec)
        resident = resident_states(between, rs.shares_weights, zero3_grads_persistent(s))
        kept = {c.key for c in resident}
        loaded = tuple(c for c in resident_states(train, rs.shares_weights)
                       if c.key in LOADED_KEYS and c.key not in kept)
    else:
        resident = resident_states(train, rs.shares_weights, zero3_grads_persistent(s))
    frozen = frozen_models(s, spec, rs, dt, train, critic_between)
    # an estimate not offloaded between phases is its own loaded one: nothing moves (phase_offload._moved)
    moves = phase_moves(between, train, critic_between, critic, rs.shares_weights)
    if s.fsdp and defaults_for(s.framework).posttraining.adapters_sharded:
        resident, loaded = _adapters_sharded(resident, s), _adapters_sharded(loaded, s)
    if rs.offload_between_phases and "params" in s.offload:
        # verl's offload_fsdp_model_to_cpu moves every FSDP unit's flat parameter, the LoRA adapters' units too
        # (verl/utils/fsdp_utils.py b178a3c lines 143-168: each handle's flat_param_to(cpu); FSDP2's model.cpu()),
        # so the adapters are off the GPU between phases and loaded with the base for each phase
        adapters = tuple(c for c in resident if c.key == "policy_lora_weights")
        resident, loaded = tuple(c for c in resident if c not in adapters), loaded + adapters
        moves = dataclasses.replace(moves, params_bytes=moves.params_bytes + sum(c.peak_bytes for c in adapters))
    engine = None
    if rs.rollout_engine != "none":
        gpu_name, capacity = resolve_gpu(s)
        # vLLM's budget is gpu_memory_utilization x the total torch.cuda.mem_get_info reports (vllm/worker/worker.py
        # lines 222 and 233 at v0.8.3, v1/worker/gpu_worker.py), below nvidia-smi's: the same CUDA-visible total the
        # serving estimate uses (SGLang reads mem_get_info too)
        capacity = cuda_visible_capacity(s, capacity)
        apart = rs.placement == "separate"
        # what the trainer holds when the engine starts: its weights and the frozen models (the optimizer's states
        # are created at the first step)
        trainer = 0.0 if apart else sum(c.peak_bytes for c in resident + frozen if c.key.endswith("_weights"))
        engine = engine_memory(spec, rs.rollout_engine, capacity, rs.utilization,
                               engine_weight_bytes(s, spec, rs, dt, train), rs.rollout_tp, s.rollout_max_num_seqs,
                               s.rollout_kv_cache_dtype, engine_max_model_len(s), trainer,
                               apart, gpu_name, rs.batched_tokens or _default_batched_tokens(s, rs, capacity, gpu_name),
                               s.rollout_engine_release,
                               engine_lora_bytes(s, spec, rs, dt.compute), rs.enforce_eager,
                               engine_load_extra_bytes(s, spec, rs, dt.compute), rs.sequence_tokens)
    # the head's backward runs before the first checkpointed layer is recomputed and before the last layer's backward
    # allocates its intermediate gradients: that recompute and that scratch, which the estimator puts at backward
    # start, are not alive beside it
    later = sum(c.moments.backward_start for c in train.components if c.key in ("recompute", "backward_scratch"))
    comps = tuple(_training_logits(c, s, per_forward(s, rs), spec.vocab, spec.hidden, dt.compute, later,
                                   _after_output_grad(train))
                  if c.key == "logits" else c for c in train.components)
    if s.fsdp and defaults_for(s.framework).posttraining.adapters_sharded:
        comps = _adapters_sharded(comps, s)
    return StepParts(s, spec, rs, dt, train, comps, critic, resident, frozen, engine, engine_variants(engine), loaded,
                     moves)


def _default_batched_tokens(s: Scenario, rs: RLSettings, capacity: float, gpu_name: str) -> int | None:
    """The engine's max_num_batched_tokens where the framework passes none: a framework's own server on GPUs of its
    own builds vLLM V1's LLM class, whose default it is (engine/serving/defaults.py vllm_llm_class_batched_tokens);
    None (the engine's default as engine/serving takes it) elsewhere and for vLLM 0.8's V0 engine."""
    if (rs.placement != "separate" or rs.rollout_engine != "vllm" or s.rollout_engine_release == "vllm-0.8-v0"
            or not defaults_for(s.framework).posttraining.rollout_batched_tokens_apart_default):
        return None
    return vllm_llm_class_batched_tokens(capacity, gpu_name, s.rollout_max_num_seqs, engine_max_model_len(s))


def _cached_training(s: Scenario, rs: RLSettings, spec: ModelSpec) -> Estimate:
    try:
        return _training_step(s, rs, spec, resolve_gpu(s))
    except TypeError:  # a scenario holding an unhashable part (a custom model's config) is estimated uncached
        return training_estimate(training_scenario(s, rs))


def _adapters_sharded(comps: tuple[Component, ...], s: Scenario) -> tuple[Component, ...]:
    """The LoRA adapters sharded over the FSDP ranks, as the frozen base is (PostTrainingDefaults.adapters_sharded:
    verl wraps each adapter as an FSDP unit of its own)."""
    shards = weight_shards(s)
    if shards <= 1:
        return comps
    return tuple(Component(c.key, c.name, c.category, c.moments.scaled(1 / shards), c.formula,
                           c.inputs + (("fsdp_shards", shards),))
                 if c.key in ("lora_weights", "policy_lora_weights") else c for c in comps)


def _after_output_grad(train: Estimate) -> float:
    """What the FSDP component holds at backward start beyond its gathered root unit: the gradient reaching the
    model's output and the layer its pre-backward hook prefetches, both only once that gradient exists."""
    c = next((c for c in train.components if c.key == "zero3_gather"), None)
    inputs = dict(c.inputs) if c is not None else {}
    if "root_params" not in inputs or "gather_bytes" not in inputs:
        return 0.0
    return max(0.0, c.moments.backward_start - inputs["root_params"] * inputs["gather_bytes"])


def _training_logits(c: Component, s: Scenario, rs: RLSettings, vocab: int, hidden: int, compute: int,
                     later: float, after_output_grad: float = 0.0) -> Component:
    """The training estimator's logits component as the post-training loss computes them."""
    if rs.fused_head_tile[0] and rs.objective != "reward":
        return fused_head_training(c, rs.fused_head_tile, rs.train_sequences * rs.shard_logits_tokens, vocab, hidden,
                                   compute, s.tp, s.method == "full", later)
    # the model's own loss (ms-swift on Megatron): the training estimator's cross-entropy tensors, as in supervised
    # training; "chunked" is the row-by-row log-softmax here (rl_settings), not the SFT estimator's chunked loss
    if rs.logprob_path == "model-loss" or s.cross_entropy not in ("auto", "chunked") or rs.objective == "reward":
        return c
    # verl slices the response positions before its log-probs; TRL's DPO log-softmaxes every position it has logits of
    scored = min(s.completion_len, rs.logits_tokens) if rs.response_logits_copied else rs.logits_tokens
    if rs.ulysses > 1:  # the padding-free path log-softmaxes every token of the GPU's slice
        scored = rs.shard_logits_tokens
    # the logits as the loss sees them: fp32 ones (the model's outputs cast by accelerate) take the rows path's fp32
    # branch; rl_settings always sets it (the compute dtype's otherwise)
    logit_bytes = rs.logit_bytes
    out = training_logits(c, rs.logprob_path, rs.train_sequences, rs.shard_logits_tokens, rs.shard_tokens, vocab,
                          logit_bytes, s.tp, scored, rs.logits_scaled_on_view)
    if rs.chosen_nll:  # the chosen half's log-softmax in the logits' dtype
        out = with_chosen_nll(out, rs.train_sequences // 2, rs.shard_logits_tokens, vocab, logit_bytes, s.tp)
    if rs.logprob_path == "fused":  # verl's entropy bonus runs on the padding-free logits of every token
        out = with_update_entropy(out, rs.update_entropy, rs.train_sequences * rs.shard_logits_tokens, vocab,
                                  compute, s.tp)
        if rs.update_copy_slices:
            out = with_copy_slices(out, rs.train_sequences * rs.shard_logits_tokens, vocab, compute, s.tp,
                                   later + after_output_grad)
    return out


def _stage(train: StageEstimate, phase: RLPhase) -> StageEstimate:
    """The peak phase as a stage: its components at their moments, the training stage's overheads with the reserve
    taken on this phase's peak (the allocator's gap only where the phase holds the loss's logits)."""
    comps = phase.components
    phases, peak, moment = phase_peak(comps)
    fraction = train.reserve_bytes / train.peak_allocated_bytes if train.peak_allocated_bytes else 0.0
    overheads = []
    for c in train.overheads:
        if c.key == "reserve":
            c = Component(c.key, c.name, c.category, Moments.only_at(moment, fraction * phases[peak]), c.formula,
                          c.inputs)
        elif c.key == "fragmentation" and phase.key != "training":
            c = Component(c.key, c.name, c.category, Moments.only_at(moment, 0.0), c.formula, c.inputs)
        elif c.key == "fragmentation":
            c = Component(c.key, c.name, c.category, Moments.only_at(moment, _gap(c, comps)), c.formula, c.inputs)
        overheads.append(c)
    return StageEstimate(train.stage, train.layers, train.microbatches_in_flight, comps, tuple(overheads), moment,
                         phases)


def _engine_stage(train: StageEstimate, phase: RLPhase) -> StageEstimate:
    """The engine's phase on GPUs of its own, judged as a served engine is (the Serve tab's verdict): vLLM takes
    gpu_memory_utilization x the GPU's memory up front, refusing to start where less is free (vLLM v0.11.2
    vllm/v1/worker/gpu_worker.py:240-256 init_device), gives the KV cache that share less the weights and the
    profile run's peak (:341-343 determine_available_memory) and refuses a cache short of one request at max_model_len
    (vllm/v1/core/kv_cache_utils.py:663-712 check_enough_kv_cache_memory; the same code at 35d5cda, the "latest"
    accounting; vllm/worker/worker.py determine_num_available_blocks at v0.8.3 for vllm-0.8-v0): the refusal and
    caution of engine/serving/generation.py _vllm_verdict, RLEstimate.refusal / caution. Nothing else lives on those
    GPUs in server mode (`trl vllm-serve` alone), and the engine's components already count its own CUDA context
    (rollout_memory.engine_memory own_process), so no training overhead is added there: the trainer's context, its
    allocator's gap and its safety reserve (7.24 GiB on an H100) stay on the training GPUs."""
    comps = phase.components
    phases, _, moment = phase_peak(comps)
    overheads = tuple(Component(c.key, c.name, c.category, Moments.only_at(moment, 0.0),
                                ENGINE_GPUS_NO_OVERHEAD if c.key == "reserve" else c.formula, c.inputs)
                      for c in train.overheads)
    return StageEstimate(train.stage, train.layers, train.microbatches_in_flight, comps, overheads, moment, phases)


def _gap(frag: Component, comps: tuple[Component, ...]) -> float:
    """The allocator's gap follows the loss's b·s·V spike (engine/frameworks/allocator.py reserved_gap_bytes, linear
    in it): rescaled to the logits the post-training loss keeps."""
    old = dict(frag.inputs).get("loss_spike_bytes", 0)
    logits = next((c for c in comps if c.key == "logits"), None)
    if not old or logits is None:
        return frag.peak_bytes
    new = dict(logits.inputs).get("bsv_bytes", logits.moments.forward)
    return frag.peak_bytes * new / old


def _per_model(p: StepParts) -> tuple[tuple[str, float], ...]:
    groups = {"policy": ("policy_",), "reference": ("reference_",), "reward": ("reward_",), "critic": ("critic_",)}
    comps = p.resident + p.frozen
    out = [(name, sum(c.peak_bytes for c in comps if c.key.startswith(prefixes))) for name, prefixes in groups.items()]
    if p.engine is not None:
        out.append(("rollout_engine", p.engine.requested_bytes))
    return tuple((name, b) for name, b in out if b > 0)


def rl_estimate(s: Scenario) -> Estimate:
    """The memory of one post-training step of `s`: the Estimate of its peak phase, with every phase in `rl`. The
    training GPUs' peak phase carries the training stage's overheads (the safety reserve among them); an engine on
    GPUs of its own is judged as the engine judges itself (_engine_stage), and the larger of the two is the
    estimate."""
    p = step_parts(s)
    phases = all_phases(dataclasses.replace(p, rs=per_forward(s, p.rs)))  # one micro-batch's tensors at a time
    peak = max((ph for ph in phases if ph.gpus == "training"), key=lambda ph: ph.peak_bytes)
    stage = _stage(p.training.busiest, peak)
    apart = next((ph for ph in phases if ph.gpus == "rollout"), None)
    on_engine = _engine_stage(p.training.busiest, apart) if apart is not None else None
    # the engine's GPUs are the estimate where they hold more than the training GPUs with their reserve (the load's
    # peak on the training GPUs counted as Estimate.total_bytes counts it)
    trainer_total = dataclasses.replace(p.training, stages=(stage,), busiest_stage=0).total_bytes
    trainer_overheads = stage.overheads
    if on_engine is not None and on_engine.total_bytes > trainer_total:
        peak, stage = apart, on_engine
    e, rs = p.engine, p.rs
    generated = generated_per_engine(s, rs)
    rl = RLEstimate(
        objective=rs.objective, phases=phases, peak_phase=peak.key, per_model_bytes=_per_model(p),
        rollout_engine=rs.rollout_engine, rollout_kv_bytes=e.kv_pool_bytes if e else 0.0,
        rollout_kv_tokens=e.kv_tokens if e else 0, max_concurrent_sequences=e.max_concurrent_sequences if e else 0,
        generated_sequences=generated,
        settings=tuple((name, getattr(rs, name)) for name in SETTING_NAMES), refusal=e.refusal if e else None,
        caution=e.caution if e else None, engine_start_margin_bytes=e.start_margin_bytes if e else None,
        engine_start_band_bytes=e.start_band_bytes if e else 0.0, training_overheads=trainer_overheads,
        training_gpu_bytes=trainer_total if on_engine else 0.0, engine_gpu_bytes=on_engine.total_bytes if on_engine else 0.0)
    train = p.training
    warnings = train.warnings
    if e is not None and (e.refusal or e.caution) is not None:
        warnings += (e.refusal or e.caution,)
    host, host_formula = _host_need(s, p)
    return dataclasses.replace(train, stages=(stage,), busiest_stage=0, other_ranks=(), rl=rl, warnings=warnings,
                               host_bytes=host, host_formula=host_formula)


def _host_need(s: Scenario, p: StepParts) -> tuple[float, str]:
    """CPU memory of one node over the step (user audit 8: a verl step with the policy's or the critic's optimizer
    offloaded read the host need of no offload): the policy's states as kept between phases (offloaded there where
    the offload holds between phases, p.training being the update's loaded estimate), and PPO's critic's offloaded
    states beside them, which its own estimate counts apart (the per-process part counted once: verl colocates the
    critic's worker group with the actor's on the same GPUs, one process per GPU)."""
    policy = _cached_training(s, p.rs, p.spec) if p.rs.offload_between_phases else p.training
    critic = _critic(s, p.rs)
    if critic is None or critic_offload(s) == "none":
        return policy.host_bytes, policy.host_formula
    bare = training_estimate(critic_scenario(s, p.rs, False).with_unchecked(offload="none"))
    extra = max(critic.host_bytes - bare.host_bytes, 0.0)
    return policy.host_bytes + extra, policy.host_formula + ", + the critic's offloaded states"


def engine_max_model_len(s: Scenario) -> int:
    """The longest request the engine accepts (vLLM max_model_len): the scenario's, else the prompt and the longest
    completion, as verl passes prompt_length + response_length (the caps, not the mean: a mean set below the cap had
    sized the engine's start-up check for the mean)."""
    return s.rollout_max_model_len or s.prompt_len + longest_completion_len(s)


def step_sequences(s: Scenario) -> int:
    """Sequences one optimizer step trains: micro_batch x grad_accum per data-parallel rank, a Ulysses group of GPUs
    sharing each (verl: device mesh (dp, sp), batches split over dp)."""
    return s.micro_batch * s.grad_accum * s.dp // s.ulysses_sequence_parallel_size


def generation_tp(s: Scenario, rs: RLSettings) -> int:
    """The GPUs one generating model's weights split over: the engine's rollout_tp, or without an engine
    (rollout_engine none: the trainer's own model generates) the training tensor parallelism."""
    return rs.rollout_tp if rs.rollout_engine != "none" else s.tp


def generated_per_engine(s: Scenario, rs: RLSettings) -> int:
    """Completions one engine instance generates per optimizer step: the step's sequences (step_sequences) spread over
    the engines, colocated one per rollout_tp GPUs of the trainer's, apart rollout_gpus / rollout_tp. Each engine had
    been given its rollout_tp trainer ranks' micro-batches, which holds only where every trainer rank is data-parallel:
    NeMo-RL's Qwen3-32B GRPO at TP 4 x PP 4 on 32 H100 (2,048 sequences a step over 8 engines, 256 each) got 4,096
    (tests/test_posttraining_time_accuracy.py)."""
    if not rs.online:
        return 0
    return -(-step_sequences(s) // rollout_engine_count(s, rs))


def rollout_engine_count(s: Scenario, rs: RLSettings) -> int:
    """Engine instances the step's rollout is split over: colocated one per rollout_tp GPUs of the trainer's, apart
    rollout_gpus / rollout_tp."""
    tp = generation_tp(s, rs)
    gpus = s.world_size if rs.placement == "colocate" else (s.rollout_gpus or tp)
    return max(1, gpus // tp)


__all__ = ["critic_scenario", "generation_tp", "per_forward", "rl_estimate", "rollout_engine_count", "step_parts",
           "step_sequences", "training_scenario"]
