"""A post-training scenario's settings as the run uses them: the scenario's keys, "auto" resolved by the framework's
post-training defaults (engine/frameworks/posttraining.py), and what the objective implies (sequences per sample,
whether it generates, which frozen models it scores with)."""

from __future__ import annotations

from dataclasses import dataclass

from ..frameworks.defaults import defaults_for
from ..frameworks.posttraining import PostTrainingDefaults
from ..scenario import Scenario
from ..scenario.behaviour import accelerate_native_amp
from ..scenario.choices import ADAPTER_METHODS
from .longest_completion import engine_prompt_len, padded_sequence_len

# Objectives whose samples are a chosen and a rejected completion of one prompt, both run through the model in one
# batch (TRL dpo_trainer.py concatenates chosen and rejected ids; reward_trainer.py likewise for reward models);
# online DPO samples two completions per prompt and ranks them.
PAIR_OBJECTIVES = ("dpo", "ipo", "orpo", "simpo", "cpo", "reward", "online-dpo")
ONLINE_OBJECTIVES = ("ppo", "grpo", "rloo", "online-dpo")
# Objectives with no reference model: ORPO, SimPO and CPO are reference-free by construction (their papers' losses);
# a reward model is trained on its own.
REFERENCE_FREE = ("orpo", "simpo", "cpo", "reward")
# Objectives whose reference is optional: only a KL term scores one (PPO's KL in the reward or loss, GRPO/RLOO's beta);
# "auto" follows the framework's defaults (engine/frameworks/posttraining.py kl_by_default)
KL_OPTIONAL = ("ppo", "grpo", "rloo")
POLICY_GRADIENT = ("ppo", "grpo", "rloo")  # objectives whose loss can carry an entropy bonus (entropy_coeff)
KV_BYTES = {"bf16": 2, "fp16": 2, "fp8": 1}
# KTO estimates its KL term from a batch of mismatched prompt/completion pairs beside the real one: the policy scores
# it without gradients before its training forward, the reference beside its own pass (trl 1.16.0
# trainer/kto_trainer.py: calculate_kl = loss_type not in ["apo_zero_unpaired"], _compute_kl_logps under no_grad;
# the KTO paper, arXiv 2402.01306, eq. 7's z_ref estimated from mismatched pairs)
KL_BATCH_OBJECTIVES = ("kto",)


@dataclass(frozen=True, slots=True)
class RLSettings:
    """What one post-training step runs, resolved."""

    objective: str
    online: bool  # completions are generated every step
    sequences_per_sample: int  # 2 for pair objectives, else 1
    sequence_tokens: int  # prompt + completion
    train_sequences: int  # sequences per GPU per forward of the training step
    reference: str  # separate | adapter-off | precomputed | none | cpu-swap
    rollout_engine: str  # none | vllm | sglang
    placement: str  # colocate | separate
    rollout_tp: int
    utilization: float
    sleep: str  # none | level-1 | level-2
    shares_weights: bool
    kv_dtype_bytes: int
    batched_tokens: int  # max_num_batched_tokens passed to the engine (0: the engine's default)
    logprob_path: str  # standard | rows | fused | fused-linear
    logits_tokens: int  # tokens of each sequence that get logits when scoring
    weight_sync: str
    weight_sync_bucket_bytes: int
    fused_head_tile: tuple[int, int]  # the framework's fused log-prob head's buffer (tokens, vocabulary); (0, 0): none
    scoring_entropy: bool  # the old-policy scoring pass computes the entropy over the vocabulary
    response_logits_copied: bool  # the scoring pass copies the response positions' logits before the loss
    logits_scaled_on_view: bool  # the online training pass scales a view of the logits in place (TRL GRPO)
    kl_batch: bool  # the step also scores a KL batch of mismatched pairs (KTO), as many sequences as the batch
    # Ulysses sequence parallelism: each GPU of a group holds 1/ulysses of every sequence's tokens in the training and
    # scoring passes (verl dp_actor.py ulysses_pad_and_slice_inputs); shard_* are the tokens one GPU holds
    ulysses: int = 1
    shard_tokens: int = 0
    shard_logits_tokens: int = 0
    # the scenario's offload holds between phases only: the update, scoring and weight-sync phases load the trained
    # model's states back (verl's param_offload / optimizer_offload); otherwise offload holds through the compute
    offload_between_phases: bool = False
    # the same for PPO's critic, whose offload is its own (critic_offload, verl's critic fsdp_config): its update and
    # value passes load its states back whether or not the actor's are offloaded
    critic_offload_between_phases: bool = False
    # the update's entropy bonus as the framework computes it (PostTrainingDefaults.update_entropy; "none" without a
    # bonus: entropy_coeff 0 or an objective without a policy-gradient loss)
    update_entropy: str = "none"
    reference_params_offloaded: bool = False  # the separate reference / reward model streams its units in from CPU
    # the micro-batch's sequences in one row without padding (packing padding-free, as verl's use_remove_padding is
    # imported, or Ulysses, which runs on that path): every token gets logits, none are sliced or copied
    padding_free: bool = False
    # the update divides a view of the whole logits in place (PostTrainingDefaults.padding_free_scaled_on_view on the
    # padding-free path): CopySlices' backward holds four logits-sized tensors
    update_copy_slices: bool = False
    # the engine captures no CUDA graphs (PostTrainingDefaults.rollout_enforce_eager, or the scenario's)
    enforce_eager: bool = False
    # the rollout asks the engine for each sampled token's log-prob (PostTrainingDefaults.rollout_sampled_logprobs)
    sampled_logprobs: bool = False
    # the rollout detokenises (PostTrainingDefaults.rollout_detokenize)
    detokenize: bool = True
    # vLLM V1's front-end runs in series with each decode step: the framework's engine core in its own process
    # (PostTrainingDefaults.rollout_engine_in_process) and not vLLM's AsyncLLM (rollout_async_engine)
    engine_in_process: bool = False
    # the generation worker's per-token loop over the outputs after generate() (PostTrainingDefaults.
    # rollout_worker_output_loop), not under vLLM's AsyncLLM (rollout_async_engine: each request as it finishes)
    worker_output_loop: bool = False
    # PPO's own generate() (PostTrainingDefaults.generate_gathers_critic / generate_keeps_scores): the critic gathered
    # with the policy under ZeRO-3, and the sampling scores kept as fp32 logits of the response
    generate_gathers_critic: bool = False
    generate_keeps_scores: bool = False
    # the loss adds the chosen sequences' NLL over their logits (rpo_alpha / cpo_alpha above 0, a preference
    # objective on the HF row-by-row log-prob path: TRL and ms-swift's transformers trainers)
    chosen_nll: bool = False
    # bytes per logit the loss and the scoring passes see: the compute dtype's, or 4 where the framework's offline
    # trainer gets the model's outputs cast to fp32 (PostTrainingDefaults.outputs_fp32_without_deepspeed); rl_settings
    # always sets it
    logit_bytes: int = 0
    # PPO's rollout scored by the trainer in chunks of this many sequences (PostTrainingDefaults.ppo_rollout_chunk,
    # without an engine); 0: per training micro-batch
    rollout_chunk: int = 0
    # an online objective scores the old policy's log-probs in a forward of its own before the update
    # (old_policy_scored); rl_settings always sets it
    old_policy_pass: bool = False
    # generate() calls an optimizer step makes: gradient_accumulation_steps where the framework generates per
    # micro-batch (PostTrainingDefaults.rollout_generates_per_micro_batch: generate_calls.py), else 1
    generate_calls: int = 1
    # PPO's critic's layout where critic_packing sets one apart from the scenario's ("" = the scenario's packing) and
    # the tokens of each of its sequences (critic_sequence_tokens); rl_settings always sets critic_tokens
    critic_packing: str = ""
    critic_tokens: int = 0

    @property
    def reference_forward(self) -> bool:
        """The reference runs a forward pass of its own in the step (a separate copy, the policy with its adapters
        switched off, or a copy swapped in from CPU); not when its log-probs were precomputed or there is none."""
        return self.reference in ("separate", "adapter-off", "cpu-swap")


def rollout_engine_for(s: Scenario) -> str:
    """The generation engine `s` names: its rollout_engine, or its framework's default for auto."""
    return defaults_for(s.framework).posttraining.rollout_engine if s.rollout_engine == "auto" else s.rollout_engine


def auto_utilization(s: Scenario, facts: PostTrainingDefaults) -> float:
    """The engine's share of each GPU under "auto": the framework's default where the engine runs on GPUs of its
    own, where it has one there (TRL's `trl vllm-serve` 0.9, not GRPOConfig's colocated 0.3: user audit 13), else its
    colocated default."""
    if s.rollout_placement == "separate" and facts.rollout_gpu_memory_utilization_apart > 0:
        return facts.rollout_gpu_memory_utilization_apart
    return facts.rollout_gpu_memory_utilization


def _framework_batched_tokens(s: Scenario, facts: PostTrainingDefaults, engine: str) -> int:
    """max_num_batched_tokens the framework passes its engine (0: the engine's default): none where its server on
    GPUs of its own builds the engine without it (TRL's `trl vllm-serve`, user audit 13), its colocated figure
    otherwise."""
    if engine != "none" and s.rollout_placement == "separate" and facts.rollout_batched_tokens_apart_default:
        return 0
    return facts.rollout_batched_tokens


def rl_settings(s: Scenario, compute_bytes: int) -> RLSettings:
    """Resolve the post-training keys of `s` (training_objective other than sft)."""
    facts = defaults_for(s.framework).posttraining
    objective = s.training_objective
    online = objective in ONLINE_OBJECTIVES
    per_sample = 2 if objective in PAIR_OBJECTIVES else 1
    engine = rollout_engine_for(s)
    if not online:
        engine = "none"
    shares = facts.rollout_shares_weights if s.rollout_shares_weights == "auto" else bool(s.rollout_shares_weights)
    # one weight copy only on the same GPUs (posttraining_checks.py refuses sharing a separate engine's); an engine
    # that does not share gets the weights copied, by the framework's own sync, or tensor by tensor where the
    # framework always shares and has none of its own (Unsloth: facts.weight_sync 'shared')
    shares = shares and engine != "none" and s.rollout_placement == "colocate"
    sync = "shared" if shares else facts.weight_sync if facts.weight_sync != "shared" else "per-parameter"
    path = facts.logprob_path
    if s.cross_entropy == "fused-linear":
        path = "fused-linear"
    elif s.cross_entropy == "chunked":
        path = "rows"
    elif s.cross_entropy in ("fused", "te", "te-inplace"):
        path = "fused"
    elif s.cross_entropy == "standard":
        path = "standard"
    elif s.cross_entropy in ("megatron-fused", "megatron-unfused"):
        # Megatron's own loss, fused or not (the same vocab_parallel_cross_entropy call with or without the flag):
        # the log-probs are its per-token losses
        path = "model-loss"
    sp = s.ulysses_sequence_parallel_size
    padding_free = s.packing == "padding-free" or sp > 1
    # a padding-free pass runs each prompt without its padding (prompt_len_mean: engine_prompt_len)
    tokens = (engine_prompt_len(s) if padding_free else s.prompt_len) + s.completion_len
    logits_tokens = s.completion_len if facts.logits_completion_only and online else tokens
    critic_packing, critic_tokens = critic_layout(s, -(-tokens // sp))
    return RLSettings(
        objective=objective, online=online, sequences_per_sample=per_sample,
        sequence_tokens=tokens, train_sequences=s.micro_batch * per_sample,
        reference=reference_for(s), rollout_engine=engine,
        placement=s.rollout_placement if engine != "none" else "colocate", rollout_tp=s.rollout_tp,
        utilization=auto_utilization(s, facts) if s.rollout_gpu_memory_utilization == "auto"
        else float(s.rollout_gpu_memory_utilization),
        sleep=facts.rollout_sleep if s.rollout_sleep == "auto" else s.rollout_sleep,
        shares_weights=shares,
        kv_dtype_bytes=compute_bytes if s.rollout_kv_cache_dtype == "auto" else KV_BYTES[s.rollout_kv_cache_dtype],
        batched_tokens=s.rollout_max_num_batched_tokens or _framework_batched_tokens(s, facts, engine),
        logprob_path=path,
        # TRL's online trainers pass logits_to_keep (grpo_trainer.py); its DPO trainer takes the whole sequence's
        # logits (dpo_trainer.py outputs.logits[..., :-1, :])
        logits_tokens=logits_tokens,
        weight_sync=sync,
        weight_sync_bucket_bytes=facts.weight_sync_bucket_bytes,
        fused_head_tile=facts.fused_head_tile if path == "fused-linear" else (0, 0),
        scoring_entropy=facts.scoring_entropy, response_logits_copied=facts.response_logits_copied,
        logits_scaled_on_view=facts.logits_scaled_on_view and online, kl_batch=objective in KL_BATCH_OBJECTIVES,
        ulysses=sp, shard_tokens=-(-tokens // sp), shard_logits_tokens=-(-logits_tokens // sp),
        offload_between_phases=facts.offload_between_phases and s.offload != "none",
        critic_offload_between_phases=facts.offload_between_phases and critic_offload(s) != "none",
        update_entropy=facts.update_entropy if objective in POLICY_GRADIENT and s.entropy_coeff != 0 else "none",
        # the offload is FSDP's (CPUOffload of verl's FSDP workers): without FSDP the frozen copy stays on the GPU
        reference_params_offloaded=facts.reference_params_offloaded and s.fsdp,
        padding_free=padding_free, update_copy_slices=facts.padding_free_scaled_on_view and padding_free and online,
        enforce_eager=facts.rollout_enforce_eager if s.rollout_enforce_eager == "auto" else bool(s.rollout_enforce_eager),
        sampled_logprobs=facts.rollout_sampled_logprobs,
        detokenize=facts.rollout_detokenize,
        engine_in_process=facts.rollout_engine_in_process and s.rollout_async_engine is not True,
        worker_output_loop=facts.rollout_worker_output_loop and s.rollout_async_engine is not True,
        generate_gathers_critic=facts.generate_gathers_critic and objective == "ppo",
        generate_keeps_scores=facts.generate_keeps_scores and objective == "ppo",
        # only where the framework's code takes the NLL from the logits (PostTrainingDefaults.chosen_nll_from_logits);
        # Megatron's trainers take it from the model's per-token loss (swift/megatron/trainers/dpo_trainer.py)
        chosen_nll=s.rpo_alpha != 0 and objective in facts.chosen_nll_from_logits and path == "rows",
        logit_bytes=4 if (accelerate_native_amp(s, compute_bytes) and objective != "reward" and path == "rows")
        else compute_bytes,
        rollout_chunk=facts.ppo_rollout_chunk if objective == "ppo" and engine == "none" else 0,
        old_policy_pass=old_policy_scored(s, online, engine),
        generate_calls=s.grad_accum if online and facts.rollout_generates_per_micro_batch else 1,
        critic_packing=critic_packing, critic_tokens=critic_tokens,
    )


def critic_layout(s: Scenario, shard_tokens: int) -> tuple[str, int]:
    """PPO's critic's packing where critic_packing sets one apart from the scenario's ("" otherwise), and the tokens of
    each of its sequences: padded, the batch's width (longest_completion.padded_sequence_len: verl's batch holds the
    prompts left-padded to data.max_prompt_length and the responses padded to rollout.response_length, and a critic
    with use_remove_padding False, its default, volcengine/verl@ed498f9f trainer/config/ppo_trainer.yaml line 146,
    runs that width: workers/critic/dp_critic.py lines 48-68); padding-free, the mean prompt without its padding and
    the mean completion; else the scenario's own (`shard_tokens`)."""
    if s.critic_packing in ("auto", s.packing) or s.training_objective != "ppo":
        return "", shard_tokens
    if s.critic_packing == "none":
        return "none", padded_sequence_len(s)
    return s.critic_packing, engine_prompt_len(s) + s.completion_len


def old_policy_scored(s: Scenario, online: bool, engine: str) -> bool:
    """Whether an online step scores the old policy's log-probs in a forward of its own: where the framework does
    (PostTrainingDefaults.old_policy_pass; Unsloth never), and for the objectives whose trainer skips it when on
    policy (PostTrainingDefaults.old_policy_pass_off_policy_only, TRL's GRPO) only when it is needed. TRL's
    grpo_trainer.py: v0.16.0 lines 741-748 `if self.num_iterations > 1: old_per_token_logps = ...` else None (the
    update's own log-probs, detached, serve as the old policy; before v0.16 there is no old-policy pass at all);
    v0.19.0 line 1205 also when steps_per_generation > gradient_accumulation_steps; f2cd577 lines 2561-2564 when
    gradient_accumulation_steps % (steps_per_generation x num_iterations) != 0 (steps_per_generation defaults to
    gradient_accumulation_steps, grpo_config.py 1077-1078, no key here: so num_iterations > 1) or, since v0.23.0
    (lines 1370-1373), `self.use_vllm and self.vllm_importance_sampling_correction` (default True, grpo_config.py
    915 at f2cd577): a vLLM rollout is scored for the importance-sampling ratio. The row is read at f2cd577."""
    facts = defaults_for(s.framework).posttraining
    if not (online and facts.old_policy_pass):
        return False
    if s.training_objective == "ppo" and engine == "none" and facts.generate_keeps_scores:
        # TRL's PPO rollout takes the policy's log-probs from generate()'s own scores (v0.17.0 ppo_trainer.py 437-438,
        # selective_log_softmax(logitss[i:...], response)): no forward of its own, as the scoring memory holds
        return False
    if s.training_objective in facts.old_policy_pass_off_policy_only:
        return s.num_iterations > 1 or engine == "vllm"
    return True


def reference_for(s: Scenario) -> str:
    """The reference the plan's step keeps (none | separate | cpu-swap | adapter-off): the scenario's reference_model,
    or on "auto" what the framework's defaults build for the objective."""
    facts = defaults_for(s.framework).posttraining
    return _reference(s, facts.kl_by_default, facts.reference_on_cpu)


def _reference(s: Scenario, kl_by_default: tuple[str, ...], on_cpu: bool) -> str:
    """The reference the step keeps: the scenario's choice, or the objective's and framework's default."""
    if s.reference_model != "auto":
        return s.reference_model
    if s.training_objective in REFERENCE_FREE:
        return "none"
    if s.training_objective in KL_OPTIONAL and s.training_objective not in kl_by_default:
        return "none"  # e.g. TRL GRPOConfig beta=0.0, verl use_kl_loss / use_kl_in_reward false load no reference
    if s.method in ADAPTER_METHODS:
        return "adapter-off"  # TRL (is_peft_model: ref_model None), verl (ref_in_actor when lora_rank > 0)
    return "cpu-swap" if on_cpu else "separate"


def critic_offload(s: Scenario) -> str:
    """What of PPO's critic is offloaded: its own critic_offload, or on "auto" the scenario's offload (verl offloads
    the critic apart from the actor: critic.model.fsdp_config param_offload / optimizer_offload,
    verl/trainer/config/critic/dp_critic.yaml, both false by default)."""
    return s.offload if s.critic_offload == "auto" else s.critic_offload
