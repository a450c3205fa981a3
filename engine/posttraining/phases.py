"""One post-training step as phases (issue 22): generation, scoring, the training step (and PPO's critic step) and
the weight sync to the engine, each the list of components alive at its peak on one GPU.

What stays on a training GPU through every phase: the policy's states between steps (models.resident_states), the
frozen reference and reward models and the critic's states (models.frozen_models), and the colocated engine unless
it sleeps (level 1 moves its weights to CPU memory and frees its KV cache, level 2 frees both: vLLM LLM.sleep).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..memory.breakdown import Component, Estimate, Moments, phase_totals
from ..memory.estimate import kv_cache_bytes
from ..memory.states import Dtypes
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import accelerate_native_amp, adapter_dtype_bytes, bf16_adapters_on_fp16
from ..scenario.choices import ADAPTER_METHODS
from .logprobs import WHOLE_FORWARD, fused_head_buffer_bytes, scoring_forward
from .models import as_critic, largest_tensor_bytes, model_spec, offloaded_units_bytes
from .phase_offload import PhaseMoves, parameter_loads_by_phase
from .ppo_rollout import rollout_forward
from .result import RLPhase
from .rollout_memory import EngineMemory
from .settings import RLSettings

# per-token fp32 tensors of the policy loss over the completion: new, old and reference log-probs, the ratio and
# its clipped copy, the KL term, the two surrogate losses (trl/trainer/grpo_trainer.py _compute_loss); the
# preference losses keep the chosen and rejected log-probs and their margins
LOSS_TENSORS_ONLINE = 8
LOSS_TENSORS_OFFLINE = 3


@dataclass(frozen=True, slots=True)
class StepParts:
    """Everything the phases are built from."""

    s: Scenario
    spec: ModelSpec
    rs: RLSettings
    dt: Dtypes
    training: Estimate  # the training estimator over the RL batch
    training_components: tuple[Component, ...]  # its components, the logits as the post-training loss keeps them
    critic: Estimate | None  # PPO's critic step
    resident: tuple[Component, ...]  # the policy's states between steps
    frozen: tuple[Component, ...]  # reference, reward, critic states
    engine: EngineMemory | None
    engine_parts: dict[str, tuple[Component, ...]]  # engine_components(engine, awake) for "all", "weights", "none"
    # the policy's parameters loaded back for the scoring passes and the weight sync when offload holds between
    # phases only (verl: load_fsdp_model_to_gpu); empty otherwise
    loaded: tuple[Component, ...] = ()
    # the bytes that offload moves to and from CPU memory at each load (phase_offload.py); none otherwise
    moves: PhaseMoves = PhaseMoves()


def step_parameter_loads_by_phase(p: StepParts) -> dict[str, int]:
    """parameter_loads_by_phase of a step: its objective, its reference, and an engine built on the training GPUs."""
    return parameter_loads_by_phase(p.rs.online, p.rs.reference, p.engine is not None and p.rs.placement == "colocate",
                                    p.rs.old_policy_pass)


def _whole(key: str, name: str, category: str, value: float, formula: str, inputs: tuple = ()) -> Component:
    return Component(key, name, category, Moments.whole_step(value), formula, inputs)


@lru_cache(maxsize=512)
def engine_variants(e: EngineMemory | None) -> dict[str, tuple[Component, ...]]:
    """The engine's components awake, with only its weights, and asleep (built once per estimate)."""
    if e is None:
        return {"all": (), "weights": (), "none": ()}
    return {awake: engine_components(e, awake) for awake in ("all", "weights", "none")}


def engine_components(e: EngineMemory, awake: str) -> tuple[Component, ...]:
    """The engine's share of a GPU: "all" (weights + profile peak + KV pool), "weights", or "none" (asleep)."""
    if awake == "none":
        return ()
    weights = _whole("rollout_weights", QT_TRANSLATE_NOOP("engine", "Generation engine weights"), "model states",
                     e.weight_bytes, QT_TRANSLATE_NOOP(
                         "engine", "policy parameters x engine bytes / rollout_tp, the routers, norms and MLA's "
                         "down-projections whole on every engine rank"),
                     (("weight_bytes", round(e.weight_bytes)),))
    if awake == "weights":
        return (weights,)
    return (weights,
            _whole("rollout_activations", QT_TRANSLATE_NOOP("engine", "Generation engine activations and overheads"),
                   "transient", e.activation_bytes + e.overhead_bytes, QT_TRANSLATE_NOOP(
                       "engine", "the engine's profile-run peak (forward of max_num_batched_tokens or the sampler's "
                       "logits), non-torch memory and CUDA graphs (engine/serving)"),
                   (("activation_bytes", round(e.activation_bytes)), ("overhead_bytes", round(e.overhead_bytes)))),
            _whole("rollout_kv_cache", QT_TRANSLATE_NOOP("engine", "Generation engine KV cache"), "activations",
                   e.kv_pool_bytes, QT_TRANSLATE_NOOP(
                       "engine", "gpu_memory_utilization x capacity - weights - profile peak - non-torch memory, in "
                       "whole blocks (engine/serving, vLLM gpu_worker.py)"),
                   (("requested_bytes", round(e.requested_bytes)), ("kv_tokens", e.kv_tokens),
                    ("block_size", e.block_size), ("kv_bytes_per_token", round(e.kv_bytes_per_token, 1)))))


def _asleep(p: StepParts) -> str:
    """What the colocated engine holds while the trainer works."""
    if p.engine is None or p.rs.placement == "separate":
        return "none"
    if p.rs.shares_weights:
        return "weights" if p.rs.sleep != "none" else "all"  # one shared copy cannot be offloaded
    return "all" if p.rs.sleep == "none" else "none"


def _phase(key: str, gpus: str, components: tuple[Component, ...]) -> RLPhase:
    return RLPhase(key, gpus, components, max(phase_totals(components)))


def generation_phase(p: StepParts) -> RLPhase | None:
    """The engine awake and generating; on the training GPUs with everything resident, or on its own GPUs."""
    if p.engine is None:
        return None
    engine = p.engine_parts["all"]
    if p.rs.placement == "separate":
        return _phase("generation", "rollout", engine)
    return _phase("generation", "training", p.resident + p.frozen + engine)


def _trainer_generate(p: StepParts) -> RLPhase | None:
    """Without an engine the trainer's own generate() runs: the model (ZeRO-3 gathered for generation,
    ds3_gather_for_generation) and a KV cache of the generation batch."""
    if p.engine is not None or not p.rs.online:
        return None
    sequences = p.s.micro_batch * p.s.grad_accum
    kv = kv_cache_bytes(p.spec, sequences, p.rs.sequence_tokens, p.dt.compute) / p.s.tp
    gathered = p.spec.total_params * p.dt.compute / p.s.tp if p.s.effective_zero == 3 else 0.0
    parts = [_whole("generate_kv_cache", QT_TRANSLATE_NOOP("engine", "generate() KV cache"), "activations", kv,
                    QT_TRANSLATE_NOOP("engine", "per layer K and V of every sequence of the step at full length"),
                    (("sequences", sequences), ("sequence_tokens", p.rs.sequence_tokens)))]
    if gathered:
        parts.append(_whole("generate_gathered_weights", QT_TRANSLATE_NOOP("engine", "Weights gathered for "
                            "generate()"), "transient", gathered, QT_TRANSLATE_NOOP(
                                "engine", "ZeRO-3 gathers the whole model for generation (TRL ds3_gather_for_"
                                "generation, default true)"), (("params", p.spec.total_params),)))
    return _phase("generation", "training", p.resident + p.frozen + tuple(parts) + _generate_extras(p, sequences))


def _generate_extras(p: StepParts, sequences: int) -> tuple[Component, ...]:
    """What TRL's PPO generate() holds beside the policy and the cache (PostTrainingDefaults.generate_gathers_critic,
    generate_keeps_scores): the value model gathered with the policy, since both sit in one PolicyAndValueWrapper
    whose parameters unwrap_model_for_generation gathers; and the sampling scores, one fp32 (sequences x vocab)
    tensor per new token, alive with their torch.stack'd copy while the cache still is."""
    s, out = p.s, []
    if p.rs.generate_gathers_critic and p.critic is not None and s.effective_zero == 3:
        critic = p.spec if s.critic_model == "same" else model_spec(s.critic_model)
        # AutoModelForSequenceClassification: the backbone and a one-output score head, no lm_head
        params = critic.total_params - critic.head_params + critic.hidden
        out.append(_whole("generate_gathered_critic", QT_TRANSLATE_NOOP("engine", "Value model gathered for "
                          "generate()"), "transient", params * p.dt.compute / s.tp, QT_TRANSLATE_NOOP(
                              "engine", "the value model's parameters (backbone + score head) x compute bytes: TRL "
                              "gathers the policy-and-value wrapper whole under ZeRO-3"), (("params", params),)))
    if p.rs.generate_keeps_scores:
        scores = 2 * 4 * sequences * s.completion_len * p.spec.vocab
        out.append(_whole("generate_scores", QT_TRANSLATE_NOOP("engine", "generate() sampling scores"),
                          "activations", scores, QT_TRANSLATE_NOOP(
                              "engine", "2 x 4 bytes x sequences x completion_len x vocab: fp32 scores of each new "
                              "token (output_scores) and their stacked copy"),
                          (("sequences", sequences), ("completion_len", s.completion_len), ("vocab", p.spec.vocab))))
    return tuple(out)


def _scoring_extras(p: StepParts, policy: bool) -> tuple[tuple[str, float], ...]:
    """What the framework's scoring pass adds at its peak beyond its log-prob path. The entropy's softmax and product
    and the response logits' copy are not alive together (the copy is freed when the no-grad cross-entropy returns,
    before entropy_from_logits runs); autocast caches a bf16 copy of every trainable fp32 weight through the forward
    (as the training estimator's autocast cache)."""
    rs, s = p.rs, p.s
    # verl's padding-free path (Ulysses runs on it too): the entropy of every token of the GPU's slice, the logits
    # never sliced or copied
    scored = rs.shard_logits_tokens if rs.padding_free else s.completion_len
    bcv = p.dt.compute * rs.train_sequences * scored * p.spec.vocab / s.tp
    entropy = 2 * bcv if policy and rs.scoring_entropy else 0.0
    copied = bcv if (rs.response_logits_copied and rs.logprob_path == "fused" and rs.train_sequences > 1
                     and not rs.padding_free) else 0.0
    cache = 0.0
    if policy and p.dt.amp and s.method == "full" and s.effective_zero != 3:
        cache = 2.0 * p.spec.total_params / s.tp
    # the policy sharded by FSDP: its root unit (embeddings, norm, lm_head) stays gathered through the forward (FSDP1
    # never reshards the root after forward, _runtime_utils.py _post_forward_reshard; verl frees it after the pass
    # with _handle.reshard(True)) beside the decoder layer being computed
    gathered = offloaded_units_bytes(p.spec, p.dt.compute, s.tp) if s.fsdp and s.dp * s.cp > 1 else 0.0
    return (("entropy_bytes" if entropy >= copied else "response_logits_copy_bytes", max(entropy, copied)),
            ("autocast_cache_bytes", cache), ("lora_fp32_bytes", _lora_outputs(p) if policy else 0.0),
            ("gathered_units_bytes", gathered))


def _lora_outputs(p: StepParts) -> float:
    """A forward through LoRA layers whose adapters are in another dtype than the model (peft keeps them in fp32:
    autocast_adapter_dtype): peft's Linear.forward (tuners/lora/layer.py) casts the input to the adapter's dtype and
    adds lora_B(lora_A(x)) * scaling to the base output, so beside the base output it holds the input's cast and two
    adapter-dtype tensors of the output's width; at the MLP's up projection that width is the MLP's. The reference
    pass with adapters disabled runs the base layers only."""
    s = p.s
    if s.method not in ADAPTER_METHODS:
        return 0.0
    adapter = adapter_dtype_bytes(s, p.dt.compute)
    if adapter == p.dt.compute and not bf16_adapters_on_fp16(s):  # peft casts by dtype: fp16 into bf16 adapters too
        return 0.0
    spec = p.spec
    ffn = max(spec.ffn, spec.expert_ffn * max(spec.top_k, 1) if spec.is_moe else 0) / s.tp
    # under accelerate's autocast the adapters' linears return the compute dtype; the input's cast stays fp32
    out_bytes = p.dt.compute if accelerate_native_amp(s, p.dt.compute) else adapter
    return p.rs.train_sequences * p.rs.shard_tokens * (adapter * spec.hidden + 2 * out_bytes * ffn)


def scoring_phase(p: StepParts) -> RLPhase | None:
    """The forwards that score each sample without gradients; the largest one at a time."""
    rs, s = p.rs, p.s
    forwards = []
    compute, tp, tile = p.dt.compute, s.tp, rs.fused_head_tile
    if rs.rollout_chunk:
        forwards = _ppo_rollout(p)
    elif rs.old_policy_pass:  # online, where the framework scores the old policy apart (settings.old_policy_scored)
        forwards.append(scoring_forward("score_policy", QT_TRANSLATE_NOOP("engine", "Old-policy log-probs forward"),
                                        p.spec, rs.train_sequences, rs.shard_tokens, rs.shard_logits_tokens,
                                        rs.logprob_path, compute, tp, True, tile, _scoring_extras(p, True),
                                        rs.logit_bytes))
    if rs.kl_batch:  # the policy's no-grad pass over the KL batch, before its training forward (KTO)
        forwards.append(scoring_forward("score_policy_kl", QT_TRANSLATE_NOOP("engine", "Policy forward over the KL "
                                        "(mismatched) batch"), p.spec, rs.train_sequences, rs.shard_tokens,
                                        rs.shard_logits_tokens, rs.logprob_path, compute, tp, True, tile,
                                        _scoring_extras(p, True), rs.logit_bytes))
    if rs.reference_forward:
        forwards.append(_reference_forward(p))
    if s.reward_model is not None and rs.online:
        reward = model_spec(s.reward_model)
        forwards.append(scoring_forward("score_reward", QT_TRANSLATE_NOOP("engine", "Reward model forward"),
                                        reward, rs.train_sequences, rs.shard_tokens, rs.shard_logits_tokens,
                                        rs.logprob_path, compute, tp, False, extras=_streamed(p, reward)))
    if p.critic is not None:
        critic = p.spec if s.critic_model == "same" else model_spec(s.critic_model)
        # at the critic's own layout (critic_packing: settings.critic_layout), as its training step and time
        forwards.append(scoring_forward("score_values", QT_TRANSLATE_NOOP("engine", "Critic values forward"),
                                        critic, rs.train_sequences, rs.critic_tokens, rs.shard_logits_tokens,
                                        rs.logprob_path, compute, tp, False))
    if not forwards:
        return None
    largest = max(forwards, key=lambda c: c.peak_bytes)
    engine = p.engine_parts[_asleep(p)]
    return _phase("scoring", "training", p.resident + p.loaded + p.frozen + engine + (largest,))


def _ppo_rollout(p: StepParts) -> list[Component]:
    """TRL's PPO rollout scoring (engine/posttraining/ppo_rollout.py): the reference, value and reward passes over
    a chunk of the generated batch (the batch generate() ran, up to the framework's chunk)."""
    rs, s = p.rs, p.s
    chunk = min(rs.rollout_chunk, s.micro_batch * s.grad_accum)
    out = []
    if rs.reference_forward:
        out.append(rollout_forward("score_reference", QT_TRANSLATE_NOOP("engine", "Reference log-probs forward"),
                                   p.spec, chunk, rs.sequence_tokens, s.completion_len, p.spec.vocab, p.dt.compute,
                                   s.tp, True, tuple(x for x in _scoring_extras(p, False)
                                                     if x[0] in WHOLE_FORWARD)))
    for key, name, model in (("score_values", QT_TRANSLATE_NOOP("engine", "Critic values forward"),
                              None if p.critic is None else p.spec if s.critic_model == "same"
                              else model_spec(s.critic_model)),
                             ("score_reward", QT_TRANSLATE_NOOP("engine", "Reward model forward"),
                              None if s.reward_model is None else model_spec(s.reward_model))):
        if model is not None:
            out.append(rollout_forward(key, name, model, chunk, rs.sequence_tokens, s.completion_len, p.spec.vocab,
                                       p.dt.compute, s.tp, False))
    return out


def _loss_tensors(p: StepParts) -> Component:
    count = LOSS_TENSORS_ONLINE if p.rs.online else LOSS_TENSORS_OFFLINE
    tokens = p.rs.train_sequences * p.s.completion_len
    value = count * 4.0 * tokens
    return Component("rl_loss_tensors", QT_TRANSLATE_NOOP("engine", "Per-token loss tensors (log-probs, ratios, KL)"),
                     "activations", Moments(value, value, 0.0, 0.0), QT_TRANSLATE_NOOP(
                         "engine", "tensors per completion token x 4 bytes: new, old and reference log-probs, ratio, "
                         "clipped ratio, KL, surrogate losses (preference objectives: chosen/rejected log-probs)"),
                     (("tensors", count), ("tokens", tokens)))


POLICY_FORWARD_TENSORS = ("activations", "head_activations", "logits", "inputs")


def _reference_in_step(p: StepParts) -> tuple[Component, ...]:
    """The offline objectives score their reference inside the training step: TRL's DPO runs the policy's forward,
    then the reference's under no_grad (trl 1.16.0 trainer/dpo_trainer.py _compute_loss), while the policy's saved
    activations wait for backward. The policy's logits (or its fused head's projection buffer) are freed by then
    (only the log-softmax outputs are kept), so the reference's peak adds what exceeds them. ms-swift's Megatron
    trainers (log-probs from the model's own loss) run the reference before the policy instead."""
    rs = p.rs
    if rs.online or not rs.reference_forward:
        return ()
    ref = _reference_forward(p)
    tokens = rs.train_sequences * rs.shard_logits_tokens
    if rs.logprob_path == "fused-linear" and rs.fused_head_tile[0]:
        freed = fused_head_buffer_bytes(rs.fused_head_tile, tokens, p.dt.compute)
    elif rs.logprob_path == "rows" and rs.logit_bytes > p.dt.compute:
        # fp32 logits (accelerate's cast): selective_log_softmax's fp32 branch saves the logits themselves (gather and
        # logsumexp take them for backward); only one sequence's temporary is freed
        freed = rs.logit_bytes * tokens * p.spec.vocab / p.s.tp / max(rs.train_sequences, 1)
    elif rs.logprob_path == "rows":
        freed = p.dt.compute * tokens * p.spec.vocab / p.s.tp
    elif rs.logprob_path == "model-loss":
        # ms-swift's Megatron trainers run the reference first (swift/megatron/trainers/dpo_trainer.py forward_step:
        # ref_model(**data) under no_grad, then model(**data)): none of the policy's step tensors exist yet, so the
        # reference shows only where its peak exceeds them
        freed = sum(c.moments.forward for c in p.training_components if c.key in POLICY_FORWARD_TENSORS)
    else:
        freed = 0.0
    value = max(0.0, ref.peak_bytes - freed)
    return (Component("reference_forward_in_step", QT_TRANSLATE_NOOP("engine", "Reference forward during the "
                      "training step"), "transient", Moments(value, 0.0, 0.0, 0.0), QT_TRANSLATE_NOOP(
                          "engine", "the reference forward's peak (no_grad, one layer or the head at a time) less the "
                          "policy's logits freed before it runs"),
                      (("reference_peak_bytes", round(ref.peak_bytes)), ("freed_bytes", round(freed)))),)


def _reference_forward(p: StepParts) -> Component:
    rs = p.rs
    streamed = _streamed(p, p.spec) if rs.reference == "separate" else ()
    extras = _scoring_extras(p, False)
    if streamed:  # its own units copied in from CPU memory replace the sharded model's gathered ones
        extras = tuple((k, 0.0 if k == "gathered_units_bytes" else v) for k, v in extras) + streamed
    return scoring_forward("score_reference", QT_TRANSLATE_NOOP("engine", "Reference log-probs forward"), p.spec,
                           rs.train_sequences, rs.shard_tokens, rs.shard_logits_tokens, rs.logprob_path, p.dt.compute,
                           p.s.tp, True, rs.fused_head_tile, extras, rs.logit_bytes)


def _streamed(p: StepParts, spec: ModelSpec) -> tuple[tuple[str, float], ...]:
    """A frozen model whose parameters wait in CPU memory (verl's reference and reward): its gathered units during
    its own forward (models.offloaded_units_bytes)."""
    if not p.rs.reference_params_offloaded:
        return ()
    return (("offloaded_units_bytes", offloaded_units_bytes(spec, p.dt.compute, p.s.tp)),)


def training_phase(p: StepParts) -> RLPhase:
    """The existing training estimator over the RL batch, beside the frozen models and the engine's remains."""
    extra = p.frozen + p.engine_parts[_asleep(p)]
    return _phase("training", "training", p.training_components + (_loss_tensors(p),) + _reference_in_step(p)
                  + extra)


def critic_phase(p: StepParts) -> RLPhase | None:
    """PPO's critic step: the critic's own training estimate while the policy's states wait."""
    if p.critic is None:
        return None
    others = tuple(c for c in p.frozen if not c.key.startswith("critic_"))
    extra = p.engine_parts[_asleep(p)]
    own = tuple(as_critic(c) for c in p.critic.components)
    return _phase("critic_training", "training", own + p.resident + others + extra)


def weight_sync_phase(p: StepParts) -> RLPhase | None:
    """The trained weights copied into the engine: the engine's weights awake, plus what the copy stages."""
    rs, s = p.rs, p.s
    if p.engine is None or rs.weight_sync == "shared":
        return None
    sharded = s.effective_zero == 3
    tensor = largest_tensor_bytes(p.spec, p.dt.compute) / s.tp if sharded else 0.0
    whole = s.method in ADAPTER_METHODS and sharded and rs.weight_sync == "per-parameter"
    if whole:  # TRL gathers every parameter to merge the adapters (gather_params(list(model.parameters())))
        staged = p.spec.total_params * p.dt.compute / s.tp
    elif rs.weight_sync == "bucket":
        staged = min(rs.weight_sync_bucket_bytes, p.spec.total_params * p.dt.compute) + tensor
    elif rs.weight_sync == "free-memory-buffers":
        staged = 0.0  # sized from whatever is free, never the cause of running out
    else:
        staged = tensor
    buffer = _whole("sync_buffer", QT_TRANSLATE_NOOP("engine", "Weight-sync staging"), "transient", staged,
                    QT_TRANSLATE_NOOP("engine", "per-parameter: the largest tensor gathered whole (ZeRO-3/FSDP); "
                                      "bucket: the framework's bucket + one gathered tensor; LoRA under ZeRO-3: the "
                                      "whole model gathered to merge the adapters"),
                    (("style", "whole-model" if whole else rs.weight_sync), ("sharded", sharded)))
    if rs.placement == "separate":
        return _phase("weight_sync", "training", p.resident + p.loaded + p.frozen + (buffer,))
    awake = "all" if rs.sleep == "none" else "weights"
    return _phase("weight_sync", "training", p.resident + p.loaded + p.frozen + p.engine_parts[awake] + (buffer,))


def all_phases(p: StepParts) -> tuple[RLPhase, ...]:
    built = (generation_phase(p) or _trainer_generate(p), scoring_phase(p), training_phase(p), critic_phase(p),
             weight_sync_phase(p))
    return tuple(ph for ph in built if ph is not None)
