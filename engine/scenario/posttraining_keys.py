"""The post-training section of the scenario file (issue 22): objectives beyond supervised fine-tuning, the models
they score with, and the generation engine that produces their completions. A base class of `Scenario`, declared
with `key()` like every other key; not slotted, so it can share `Scenario` with the other sections.

Every key here is read only when `training_objective` is not "sft", so a scenario without them estimates exactly as
before. "auto" values take the framework's default (engine/frameworks/posttraining.py, with sources)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from .custom_parts import CustomModel, parse_model_value
from .keys import Choice, Count, Flag, Number, Parsed, WholeNumber, key

OBJECTIVES = ("sft", "dpo", "ipo", "kto", "orpo", "simpo", "cpo", "reward", "ppo", "grpo", "rloo", "online-dpo")
REFERENCE_MODES = ("auto", "separate", "adapter-off", "precomputed", "none")
ROLLOUT_ENGINES = ("auto", "none", "vllm", "sglang")
ROLLOUT_PLACEMENTS = ("colocate", "separate")
# vLLM's sleep levels (vllm/entrypoints/llm.py LLM.sleep): level 1 offloads the weights to CPU memory and discards
# the KV cache; level 2 discards both
ROLLOUT_SLEEPS = ("auto", "none", "level-1", "level-2")
ROLLOUT_KV_DTYPES = ("auto", "bf16", "fp16", "fp8")
# how the engine's release sizes its KV cache (engine/serving/generation.py VLLM_ACCOUNTINGS, with sources): the
# newest vLLM's accounting, or vLLM 0.8's V0 or V1 engine (verl's 2025 runs: VLLM_ATTENTION_BACKEND=XFORMERS makes
# vLLM 0.8 fall back to V0)
ROLLOUT_ENGINE_RELEASES = ("latest", "vllm-0.8-v0", "vllm-0.8-v1")
CRITIC_OFFLOADS = ("auto", "none", "optimizer", "optimizer+params")  # "auto" = the scenario's offload
# the critic's own layout ("auto" = the scenario's packing): verl sets it apart from the actor's
# (critic.model.use_remove_padding, default False, beside actor_rollout_ref.model.use_remove_padding)
CRITIC_PACKINGS = ("auto", "none", "padding-free")
POST_TRAINING = "training_objective other than sft"
ONLINE = "training_objective ppo, grpo, rloo, online-dpo"
POLICY_GRADIENT = "training_objective ppo, grpo, rloo"
CHOSEN_NLL = "training_objective dpo, ipo, cpo, simpo"


def _model_or_null(key_name: str, value: Any, same: bool) -> str | CustomModel | None:
    if value is None or (same and value == "same"):
        return value
    try:
        return parse_model_value(value)
    except ScenarioError as exc:
        raise ScenarioError(key_name, QT_TRANSLATE_NOOP("engine", "must be null{same}, a model preset id or "
                                                        '{{"name": ..., "hf_config": {{...}}}} ({detail}).'),
                            same=' or "same"' if same else "", detail=str(exc.detail)) from None


def parse_reward_model(value: Any) -> str | CustomModel | None:
    """null (rule or verifier rewards), or the reward model, written like `model`."""
    return _model_or_null("reward_model", value, same=False)


def parse_critic_model(value: Any) -> str | CustomModel | None:
    """null, "same" (a copy of the policy's architecture with a value head) or a model written like `model`."""
    return _model_or_null("critic_model", value, same=True)


@dataclass(frozen=True, kw_only=True)
class PostTrainingKeys:
    """Keys of the post-training objectives (declared in engine/scenario/keys.py's way)."""

    training_objective: str = key(
        "sft", "what the step optimises: sft = supervised fine-tuning (every key below is ignored); dpo, ipo, kto, "
        "orpo, simpo, cpo = preference objectives on stored completions; reward = a reward model trained on pairs; "
        "ppo, grpo, rloo, online-dpo = reinforcement learning on completions generated each step",
        Choice(OBJECTIVES))
    reference_model: str = key(
        "auto", "the frozen reference the loss compares against: separate = a frozen copy on the GPU; adapter-off = "
        "the base with LoRA adapters disabled (no copy); precomputed = log-probs computed before training (offline "
        "objectives); none; auto = the objective's and framework's default", Choice(REFERENCE_MODES),
        applies_to=POST_TRAINING)
    reward_model: str | CustomModel | None = key(
        None, 'null = rule or verifier rewards; or the reward model, a preset id or {"name": ..., "hf_config": '
        '{config.json}}', Parsed(parse_reward_model, "null | preset id | object", (None, "llama-3.2-1b")),
        applies_to=ONLINE)
    critic_model: str | CustomModel | None = key(
        None, 'PPO\'s value model: null = none; "same" = a copy of the policy\'s architecture; or a preset id or '
        'object', Parsed(parse_critic_model, 'null | "same" | preset id | object', (None, "same")),
        applies_to="training_objective ppo")
    critic_offload: str = key(
        "auto", "what of PPO's critic is offloaded to CPU memory: auto = as offload (one setting for every trained "
        "model); none | optimizer | optimizer+params on their own, as verl's critic.model.fsdp_config "
        "param_offload / optimizer_offload are set apart from the actor's", Choice(CRITIC_OFFLOADS),
        applies_to="training_objective ppo")
    critic_packing: str = key(
        "auto", "how PPO's critic lays out its sequences: auto = as packing; none = every sequence padded to the "
        "batch's width, rollout_max_model_len or else prompt_len + the longest completion (verl's "
        "critic.model.use_remove_padding False, its default: the batch's prompts are left-padded to "
        "data.max_prompt_length and its responses to rollout.response_length, the engine's max_model_len); "
        "padding-free = each sequence at its own tokens (use_remove_padding True)", Choice(CRITIC_PACKINGS),
        applies_to="training_objective ppo")
    critic_max_tokens_per_micro_batch: int = key(
        32_768, "tokens one micro-batch of PPO's critic holds where the actor's are cut by token count "
        "(max_tokens_per_micro_batch > 0 with packing): verl's critic.ppo_max_token_len_per_gpu, its own budget, "
        "default 32,768 (volcengine/verl@9e4074b7 verl/trainer/config/ppo_trainer.yaml line 165; critic.use_dynamic_bsz "
        "follows the actor's, line 164; dp_critic.py update_critic lines 199-201 cut by it)",
        WholeNumber(1, 100_000_000), applies_to="training_objective ppo")
    prompt_len: int = key(512, "tokens of each prompt (seq_len is not used by post-training objectives)",
                          WholeNumber(1, 10_000_000), applies_to=POST_TRAINING)
    prompt_len_mean: int | None = key(
        None, "tokens of the mean prompt without its padding, where prompt_len is the cap every prompt is padded to "
        "(verl's RLHFDataset left-pads to data.max_prompt_length; its vLLM rollout gets each prompt with the padding "
        "stripped, and the padding-free passes run the real tokens): what the engine prefills and decodes after, "
        "and the prompt of a padding-free pass; null = prompt_len (the prompts are that long)",
        Count(null=True, maximum=10_000_000), applies_to=ONLINE)
    completion_len: int = key(512, "tokens of each completion (generated, or stored for the offline objectives)",
                              WholeNumber(1, 10_000_000), applies_to=POST_TRAINING)
    max_completion_len: int | None = key(
        None, "tokens of the longest completion a step generates, which a synchronous engine decodes until (the "
        "configs' cap: verl data.max_response_length, TRL max_completion_length, OpenRLHF generate_max_len, NeMo-RL "
        "max_new_tokens); completion_len is then the mean; null = completion_len (every completion that long)",
        Count(null=True, maximum=10_000_000), applies_to=ONLINE)
    sequence_len_std: int | None = key(
        None, "standard deviation of one sequence's tokens (prompt + completion, without padding) over a step's "
        "sequences, as a run's log gives it (verl: global_seqlen/minmax_diff, the range of the ranks' token sums, "
        "over 2 e_n sqrt(sequences a rank)); what a padding-free micro-batch's longest rank waits on "
        "(engine/posttraining/rank_imbalance.py); null = the completions' maximum-entropy spread of completion_len "
        "and max_completion_len (assumed)", Count(null=True, maximum=10_000_000), applies_to=ONLINE)
    num_generations: int = key(8, "completions generated per prompt (GRPO's group size)", WholeNumber(1, 100_000),
                               applies_to=ONLINE)
    rollout_engine: str = key(
        "auto", "what generates the completions: none = the trainer's own generate; vllm; sglang; auto = the "
        "framework's default", Choice(ROLLOUT_ENGINES), applies_to=ONLINE)
    rollout_placement: str = key(
        "colocate", "colocate = the engine shares the training GPUs; separate = it runs on rollout_gpus of its own",
        Choice(ROLLOUT_PLACEMENTS), applies_to=ONLINE)
    rollout_gpus: int | None = key(None, "GPUs running the engine when rollout_placement is separate",
                                   Count(null=True, maximum=1_000_000), applies_to="rollout_placement separate")
    rollout_tp: int = key(1, "tensor-parallel size of the engine", WholeNumber(1, 4096), applies_to=ONLINE)
    rollout_gpu_memory_utilization: float | str = key(
        "auto", "the engine's gpu_memory_utilization: the share of each GPU's memory it may take for weights, "
        "activations, CUDA graphs and its KV cache; auto = the framework's default",
        Number(0, 1, QT_TRANSLATE_NOOP("engine", 'must be "auto" or a fraction above 0 and at most 1, not {p!r}.'),
               auto=True, to_float=True), applies_to=ONLINE)
    rollout_sleep: str = key(
        "auto", "the engine between generations, as vLLM's sleep levels: none = stays resident; level-1 = weights "
        "offloaded to CPU memory and KV cache freed; level-2 = both freed; auto = the framework's default",
        Choice(ROLLOUT_SLEEPS), applies_to=ONLINE)
    rollout_kv_cache_dtype: str = key("auto", "the engine's KV cache format; auto = the model's compute dtype",
                                      Choice(ROLLOUT_KV_DTYPES), applies_to=ONLINE)
    rollout_max_num_seqs: int = key(256, "the most sequences the engine decodes at once (vLLM max_num_seqs)",
                                    WholeNumber(1, 1_000_000), applies_to=ONLINE)
    rollout_max_model_len: int | None = key(
        None, "the longest request the engine accepts, which its KV cache must hold once (vLLM max_model_len; verl "
        "rollout.max_model_len); null = prompt_len + the longest completion (max_completion_len, else "
        "completion_len), as verl passes its prompt and response caps when unset",
        Count(null=True, maximum=10_000_000), applies_to=ONLINE)
    rollout_engine_release: str = key(
        "latest", "the engine release whose start-up accounting sizes the KV cache and whose loop runs the decode steps: "
        "latest = the newest vLLM's (V1); "
        "vllm-0.8-v0 = vLLM 0.8's V0 engine (the profile's own peak increase, no free-memory check at start-up; "
        "scheduling and input preparation of every running sequence before each step); "
        "vllm-0.8-v1 = vLLM 0.8's V1 engine (the process's whole torch peak and the device's non-torch memory, a "
        "colocated trainer's tensors and the CUDA context included, come out of the budget)",
        Choice(ROLLOUT_ENGINE_RELEASES), applies_to="rollout_engine vllm")
    rollout_max_num_batched_tokens: int | None = key(
        None, "tokens the engine runs in one forward, which sizes its startup profile run (vLLM "
        "max_num_batched_tokens; verl rollout.max_num_batched_tokens); null = the framework's default",
        Count(null=True, maximum=10_000_000), applies_to=ONLINE)
    ulysses_sequence_parallel_size: int = key(
        1, "GPUs that split each sequence's tokens between them for the training and scoring passes, exchanging "
        "attention heads by all-to-all (verl ulysses_sequence_parallel_size, DeepSpeed-Ulysses); it divides the "
        "attention heads and the data-parallel GPUs", WholeNumber(1, 1024), applies_to=POST_TRAINING)
    rollout_enforce_eager: bool | str = key(
        "auto", "the engine runs without CUDA graphs (vLLM enforce_eager; verl rollout.enforce_eager), so it captures "
        "none beside its budget; auto = the framework's default", Flag(auto=True), applies_to=ONLINE)
    rollout_async_engine: bool | str = key(
        "auto", "the engine runs as vLLM's AsyncLLM (NeMo-RL vllm_cfg.async_engine), whose engine core is always a "
        "process of its own, so its output processing overlaps the next decode step; auto = the framework's default",
        Flag(auto=True), applies_to=ONLINE)
    rollout_shares_weights: bool | str = key(
        "auto", "the engine and the trainer use one weight copy (Unsloth's fast inference); auto = the framework's "
        "default", Flag(auto=True), applies_to=ONLINE)
    entropy_coeff: float = key(
        0.0, "weight of the entropy bonus in the policy-gradient loss (verl actor.entropy_coeff, default 0): any "
        "value but 0 makes verl's update compute every token's entropy over the vocabulary with gradients",
        Number(0, 100, QT_TRANSLATE_NOOP("engine", "must be a number between 0 and 100, not {p!r}."),
               low_inclusive=True, to_float=True), applies_to=POLICY_GRADIENT)
    rpo_alpha: float = key(
        0.0, "weight of the chosen sequences' negative log-likelihood added to a preference loss (TRL / ms-swift "
        "DPO rpo_alpha, RPO; CPO/SimPO's cpo_alpha is the same term); 0 = off. Where the framework takes it from the "
        "logits (TRL; ms-swift's CPO/SimPO) the step log-softmaxes the chosen half's logits a second time, kept for "
        "backward",
        Number(0, 100, QT_TRANSLATE_NOOP("engine", "must be a number between 0 and 100, not {p!r}."),
               low_inclusive=True, to_float=True), applies_to=CHOSEN_NLL)
    num_iterations: int = key(
        1, "policy updates per generated batch (TRL / Unsloth GRPOConfig num_iterations, the GRPO paper's mu; TRL's "
        "default 1): above 1 TRL's GRPO scores the old policy's log-probs in a forward of its own, which at 1 it "
        "skips without an engine. Only that pass is modelled: each step still generates its own batch",
        WholeNumber(1, 1024), applies_to="training_objective grpo")
