"""What each framework does by default when it post-trains (issue 22): its generation engine and that engine's
memory settings, how it keeps the reference model, how it computes per-token log-probs, and how it copies the
trained weights into the engine. Each row cites the file (repository path at a commit) that sets each fact.

The sources read (commits of the snapshots): huggingface/trl f2cd577 (2026-07-24), volcengine/verl b178a3c
(2026-01-29), OpenRLHF/OpenRLHF 3c3be62 (2026-08-13), modelscope/ms-swift 3602360 (2026-08-22), NVIDIA-NeMo/RL
7ea279a (2026-08-22), unslothai/unsloth 015bdef (2026-08-22).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LOGPROB_PATHS = ("standard", "rows", "fused", "fused-fp32", "fused-linear", "model-loss")
WEIGHT_SYNCS = ("per-parameter", "bucket", "free-memory-buffers", "shared")


@dataclass(frozen=True, slots=True)
class PostTrainingDefaults:
    """One framework's post-training defaults. `rollout_*` are what the scenario's "auto" values become."""

    rollout_engine: str  # none (the trainer's own generate) | vllm | sglang
    rollout_gpu_memory_utilization: float  # the engine's share of each GPU's memory
    rollout_sleep: str  # none | level-1 | level-2 (vLLM's sleep levels) between generations
    rollout_shares_weights: bool  # the engine and the trainer hold one weight copy
    placement: str  # colocate | separate: where the framework runs the engine unless told (documentation only)
    reference_on_cpu: bool  # a full fine-tune's reference weights wait in CPU memory, copied in for its forward
    # the KL-optional objectives (engine/posttraining/settings.py KL_OPTIONAL: PPO, GRPO, RLOO) whose framework
    # defaults score a reference (a KL coefficient above 0, a KL switch on): "auto" keeps none for the others
    kl_by_default: tuple[str, ...]
    logprob_path: str  # standard: fp32 log-softmax of the whole b·s·V; rows: bf16 log-softmax one sequence at a
    # time; fused: one kernel keeping one log-sum-exp per token; fused-fp32: that kernel on an fp32 copy of the
    # logits; fused-linear: logits never materialised; model-loss: the model's own per-token loss (the training
    # estimator's cross-entropy tensors, as for supervised training)
    logits_completion_only: bool  # online objectives compute logits for the completion only (logits_to_keep)
    weight_sync: str  # per-parameter | bucket | free-memory-buffers | shared (nothing to copy)
    weight_sync_bucket_bytes: int  # the staging bucket of `bucket`
    sources: tuple[tuple[str, str], ...]
    rollout_batched_tokens: int = 0  # max_num_batched_tokens the framework passes to vLLM (0: vLLM's default)
    # the framework's own fused log-prob head, (token tile, vocabulary chunk) of its projection buffer; (0, 0): none
    fused_head_tile: tuple[int, int] = (0, 0)
    # the old-policy scoring pass also computes every response token's entropy over the whole vocabulary
    scoring_entropy: bool = False
    # the padded scoring path slices the response positions' logits and reshapes them into a copy before the loss
    response_logits_copied: bool = False
    # the online training pass divides the sliced logits by the temperature in place (a view of the model's logits)
    # and takes the entropy of that view without gradients
    logits_scaled_on_view: bool = False
    # `offload` moves the trained model's parameters and optimizer states to CPU memory between phases only: each
    # phase that computes with them (the update, the scoring passes, the weight sync) first loads them back whole
    offload_between_phases: bool = False
    # that offload copies an FSDP2 model's parameters to and from pageable CPU memory (module.cpu() / module.to()),
    # where FSDP1's flat parameters and the optimizer's states go through pinned memory (.to(non_blocking=True))
    fsdp2_offload_pageable: bool = False
    # the cross_entropy of the model's own loss in the offline objectives (DPO-style, KTO) when logprob_path is
    # model-loss ("auto": the framework row's loss)
    model_loss: str = "auto"
    # with an entropy bonus (entropy_coeff != 0) the update computes every token's entropy over the vocabulary with
    # gradients: "compiled" = verl's torch.compile'd entropy_from_logits on the padding-free logits, with flash-attn's
    # cross-entropy then computing its gradient out of place; "none" = the framework has no such bonus
    update_entropy: str = "none"
    # the separate reference (and reward) model is built with parameter CPU offload: each FSDP unit is copied in for
    # its forward and freed after it, so only the unit being computed is on the GPU
    reference_params_offloaded: bool = False
    # a LoRA policy's adapters are served by the engine's own LoRA support (vLLM enable_lora, max_loras 1,
    # max_lora_rank = the adapters' rank) instead of being merged into its weights: the engine holds LoRA stacks
    rollout_serves_adapters: bool = False
    # the padding-free update (the micro-batch's sequences in one row) divides the logits by the temperature in place
    # on a view of the model's output, so backward runs CopySlices over the whole logits (4 logits-sized tensors)
    padding_free_scaled_on_view: bool = False
    # the framework can run its generation engine on GPUs of its own (TRL's vllm_mode server, OpenRLHF's vLLM engines
    # without colocate_all_models, ms-swift's rollout server, NeMo-RL's non-colocated generation); False where it
    # generates on the training GPUs only. Make it fit offers the node's GPUs split only where True
    engine_apart: bool = True
    # the engine is built with enforce_eager (no CUDA graphs captured beside its budget)
    rollout_enforce_eager: bool = False
    # an online objective scores the old policy's log-probs in a forward of its own before the update; False where
    # the update's own forward serves as the old policy (one optimizer step per generation)
    old_policy_pass: bool = True
    # the objectives whose trainer scores the old policy only when the update is off policy: a generation reused by
    # more than one update (num_iterations > 1) or an engine's samples corrected by importance sampling (TRL's GRPO;
    # the rule and its sources: engine/posttraining/settings.py old_policy_scored)
    old_policy_pass_off_policy_only: tuple[str, ...] = ()
    # under FSDP each LoRA adapter is an FSDP unit of its own, so the adapters are sharded over the FSDP ranks like
    # the frozen base (the supervised estimator keeps them whole on every GPU)
    adapters_sharded: bool = False
    # a single controller sends each worker-group call the step's batch and gets per-token results back through ray,
    # pickled on the driver one rank's chunk after another (engine/posttraining/dataproto_dispatch.py)
    batch_dispatched: bool = False
    # each log-prob pass and the update cut a rank's share into micro-batches of a fixed number of sequences, so
    # padding-free micro-batches hold different tokens on each rank and FSDP's gathers wait for the longest; with a
    # token budget (max_tokens_per_micro_batch: verl's use_dynamic_bsz) by token count, each mini-batch's micro-batches
    # at its longest rank's (engine/posttraining/rank_imbalance.py, estimate.py _token_budget)
    micro_batches_by_count: bool = False
    # PPO without an engine: the trainer generates with the policy inside a wrapper that also holds the value model
    # (TRL's PolicyAndValueWrapper), and unwrap_model_for_generation gathers every parameter of that wrapper under
    # ZeRO-3, so the critic is gathered whole beside the policy for the whole generate()
    generate_gathers_critic: bool = False
    # the trainer's generate() keeps every step's sampling scores (output_scores=True: one fp32 batch x vocab tensor
    # per new token) and stacks them into the response's logits, a second copy, before the cache is released
    generate_keeps_scores: bool = False
    # around each weight sync to a colocated engine the policy worker moves its optimizer's states (pageable) and
    # its parameters to CPU memory and loads them back for the log-prob passes and the update, and the reference's
    # pass swaps the reference's CPU copy into the parameters and back (NeMo-RL: engine/posttraining/refit_offload.py)
    refit_offload: bool = False
    # those parameter copies go through pinned memory (Megatron's DDP buffers), else pageable (module.to("cpu"))
    refit_params_pinned: bool = False
    # the weight sync exports whole Hugging Face tensors on every training rank (Megatron-Bridge's export gathers TP
    # and EP shards and broadcasts each pipeline stage's: engine/posttraining/bridge_export.py)
    refit_gathers_full: bool = False
    # with a pipeline, every packed micro-batch is padded to the step's longest one (engine/posttraining/
    # packed_padding.py: NeMo-RL's Megatron backend)
    pp_pads_packed_bins: bool = False
    # the objectives whose chosen-sequence NLL (the scenario's rpo_alpha; CPO/SimPO's cpo_alpha) is a second
    # cross-entropy over the chosen half of the logits, whose log-softmax is kept for backward (none: the NLL is taken
    # from the per-token log-probs already computed, or the framework has no such term)
    chosen_nll_from_logits: tuple[str, ...] = ()
    # the offline trainers run the HF Trainer with bf16/fp16 mixed precision set from the model's dtype: without
    # DeepSpeed, accelerate's native amp wraps the model's forward in convert_outputs_to_fp32, so the loss and the
    # reference see the logits in fp32 (the compute-dtype ones alive beside the copy at the cast)
    outputs_fp32_without_deepspeed: bool = False
    # the online objectives whose trainer runs under that same native amp as well (the HF Trainer prepares their
    # policy likewise), where their log-prob passes were traced with accelerate's wrapper; the others keep the
    # compute dtype (not read)
    outputs_fp32_online: tuple[str, ...] = ()
    # PPO without an engine scores its rollout in chunks of this many sequences with TRL's forward()/get_reward()
    # (output_hidden_states, whole-sequence logits, the sampling scores kept: engine/posttraining/ppo_rollout.py);
    # 0: the scoring passes run per training micro-batch
    ppo_rollout_chunk: int = 0
    # the rollout asks the engine for each sampled token's log-prob (vLLM SamplingParams logprobs=0): the engine's
    # sampler gathers it and builds a Logprob dict per sequence every decode step (engine/posttraining/engine_sampler.py)
    rollout_sampled_logprobs: bool = False
    # the rollout leaves vLLM's detokenisation on (SamplingParams detokenize, default True)
    rollout_detokenize: bool = True
    # the framework runs vLLM V1's engine core in its own process (VLLM_ENABLE_V1_MULTIPROCESSING=0 with LLM): the
    # front-end's output processing then runs in series with each decode step (engine/posttraining/engine_output.py)
    rollout_engine_in_process: bool = False
    # the generation worker turns the engine's outputs into padded tensors token by token after generate() returns,
    # in series with the rollout (NeMo-RL's synchronous worker: engine/posttraining/worker_output.py)
    rollout_worker_output_loop: bool = False
    # the rollout engine generates once per gradient-accumulation micro-batch (TRL's GRPOTrainer up to v0.15.2), not
    # once per optimizer step: engine/posttraining/generate_calls.py
    rollout_generates_per_micro_batch: bool = False
    # a LoRA policy's adapters are handed to the engine anew at every generate() call (a fresh LoRA request each
    # time: copied to the host and into the engine's LoRA stacks): engine/posttraining/adapter_load.py
    rollout_loads_adapters_per_generate: bool = False
    # the engine's share of each of its GPUs where it runs on GPUs of its own (rollout_placement separate) and the
    # framework starts it with a default of its own there; 0: the colocated share above
    rollout_gpu_memory_utilization_apart: float = 0.0
    # where the engine runs on GPUs of its own, the framework's server builds vLLM's LLM class without
    # max_num_batched_tokens (vLLM's LLM-class default, engine/serving/defaults.py vllm_llm_class_batched_tokens),
    # not the rollout_batched_tokens of its colocated engine
    rollout_batched_tokens_apart_default: bool = False


_TRL_SOURCES = (
    ("rollout engine", "trl/trainer/grpo_config.py: use_vllm=False (the model's own generate), vllm_mode='colocate', "
     "vllm_gpu_memory_utilization=0.3, vllm_enable_sleep_mode=False, num_generations=8; "
     "trl/generation/vllm_generation.py builds LLM(max_num_batched_tokens=4096)"),
    ("server engine", "f2cd577 trl/scripts/vllm_serve.py:248-249 ScriptArguments gpu_memory_utilization default 0.9, "
     ":347 LLM(gpu_memory_utilization=script_args.gpu_memory_utilization): `trl vllm-serve`, the engine on GPUs of "
     "its own (vllm_mode server), which GRPOConfig's vllm_gpu_memory_utilization does not reach; :343-363 the LLM "
     "gets no max_num_batched_tokens (vLLM's LLM-class default, 16384 / 8192, where the colocated engine gets 4096)"),
    ("sleep", "trl/generation/vllm_generation.py: with vllm_enable_sleep_mode the engine sleeps at level 2 and wakes "
     "its weights before sync_weights, its KV cache before generate"),
    ("reference", "trl/trainer/grpo_trainer.py: beta=0.0 (default) loads no reference; a PEFT model uses the base with "
     "adapters disabled; otherwise create_model_from_path builds a frozen copy (dpo_trainer.py likewise, and "
     "precompute_ref_log_probs drops it)"),
    ("kl default", "f2cd577 trl/trainer/grpo_config.py:671-672 beta default 0.0 (0.04 up to v0.18.0, 0.0 from "
     "v0.19.0), grpo_trainer.py:955-957 beta == 0.0: ref_model None; rloo_config.py:494-495 beta default 0.05, "
     "rloo_trainer.py:593-609 builds the reference unless beta == 0.0; trl/experimental/ppo/ppo_trainer.py:439-444 "
     "PPO always keeps one (ref_model, or the PEFT base, or create_reference_model), ppo_config.py:240 kl_coef 0.05"),
    ("log-probs", "grpo_trainer.py _get_per_token_logps_and_entropies: logits_to_keep = completion tokens, "
     "utils.py selective_log_softmax: bf16 logits log-softmaxed one sequence (row) at a time"),
    ("weight sync", "vllm_generation.py sync_weights: each parameter gathered on its own (ZeRO-3 gather_params([param]) "
     "/ FSDP summon_full_params per module) and load_weights'd into the engine; with PEFT the whole model is gathered "
     "to merge the adapters"),
    ("pairs", "dpo_trainer.py: chosen and rejected completions are concatenated into one batch (two sequences per "
     "pair in one forward)"),
    ("fused head", "trl 1.16.0 trainer/utils.py add_fused_lm_head (_CHUNKED_LOGPROB_CHUNK_SIZE = 32768) and "
     "kernels/chunked_logprob.py (TOKEN_CHUNK_SIZE = 4096): forward and backward each project into one "
     "min(tokens, 4096) x 32768 buffer; backward accumulates the hidden and lm_head weight gradients in fp32 "
     "(torch.zeros(..., dtype=float32)) and returns them cast to the weights' dtype"),
    ("temperature", "grpo_trainer.py _get_per_token_logps_and_entropies (f2cd577, before the fused head): logits = "
     "logits[:, :-1, :]; logits = logits[:, -logits_to_keep:, :]; logits.div_(self.temperature) (in place on a view "
     "of the model's logits), then entropy_from_logits(logits) under torch.no_grad (utils.py: "
     "logits.reshape(-1, num_classes), a copy of the non-contiguous view)"),
    ("ppo generate", "v0.17.0 trl/trainer/ppo_trainer.py:228 self.model = PolicyAndValueWrapper(self.policy_model, "
     "self.value_model), :422 unwrap_model_for_generation(self.model, ...) around batch_generation(unwrapped_model."
     "policy, ...); trl/models/utils.py:217 deepspeed.zero.GatheredParameters(model.parameters()) (ds3_gather_for_"
     "generation True): the value model is gathered with the policy (the same at f2cd577, trl/experimental/ppo); "
     "trl/trainer/utils.py:1353-1362 generate(..., return_dict_in_generate=True, output_scores=True) then "
     "torch.stack(output.scores, 1); transformers' _sample stores each step's scores from outputs.logits[:, -1, :]."
     "to(copy=True, dtype=torch.float32)"),
)

TRL = PostTrainingDefaults("none", 0.3, "none", False, "colocate", False, ("ppo", "rloo"), "rows", True, "per-parameter",
                           0,
                           _TRL_SOURCES, rollout_batched_tokens=4096, fused_head_tile=(4096, 32768),
                           logits_scaled_on_view=True, generate_gathers_critic=True, generate_keeps_scores=True,
                           # trl/experimental/cpo/cpo_trainer.py:825-844 cross_entropy_loss(all_logits[:len_chosen])
                           # unless cpo_alpha == 0; DPO: rpo_alpha's F.cross_entropy over logits[:num_examples] (v0.17.0
                           # dpo_trainer.py:1244-1252), since e3b7897c8 (2026-02-19) loss_type "sft"'s
                           # F.cross_entropy(chosen_logits[chosen_mask]) (dpo_trainer.py:1314-1318)
                           chosen_nll_from_logits=("dpo", "ipo", "cpo", "simpo"),
                           # trl/trainer/utils.py:1064 (v0.17.0) OnPolicyConfig local_rollout_forward_batch_size 64
                           ppo_rollout_chunk=64, rollout_gpu_memory_utilization_apart=0.9,
                           # trl/scripts/vllm_serve.py:343-363 (f2cd577): LLM(...) passes no max_num_batched_tokens
                           rollout_batched_tokens_apart_default=True)

# TRL's own row (TRL is also the default of every framework without post-training facts of its own, which keep the
# compute dtype): the HF Trainer prepares the policy (Trainer._inner_training_loop accelerator.prepare) and TRL the
# reference (dpo_trainer.py:517 and kto_trainer.py:784 at v0.17.0, :936 and :955 at f2cd577: prepare_model(ref_model,
# evaluation_mode=True) outside DeepSpeed and FSDP); bf16 defaults to True in TRL's configs since 4c92de000 (v0.19.0:
# self.bf16 = not (self.fp16) if self.bf16 is None); accelerate turns native amp on for bf16 outside DeepSpeed and
# Megatron and wraps each prepared forward in convert_outputs_to_fp32(autocast(forward)) (src/accelerate/
# accelerator.py at 16cb6eb8 lines 586-592 and 1818-1829). Traced with accelerate's own prepare_model:
# validation/posttraining_traces.py (Case.accelerate_amp), tests/test_trl_fp32_outputs.py.
# GRPO likewise (grpo_trainer.py:676 at v0.17.0, :1143 at f2cd577 prepare the reference so; traced too). PPO (v0.17.0
# ppo_trainer.py:193 builds its own Accelerator, mixed precision from the environment), RLOO and online DPO: not traced
# GRPO's old-policy pass only off policy (grpo_trainer.py, settings.old_policy_scored); RLOO scores it every step
# (rloo_trainer.py:1456-1458 at f2cd577, unconditional)
TRL_TRAINERS = replace(TRL, outputs_fp32_without_deepspeed=True, outputs_fp32_online=("grpo",),
                       old_policy_pass_off_policy_only=("grpo",))

VERL = PostTrainingDefaults(
    "vllm", 0.5, "level-2", False, "colocate", False, (), "fused", False, "bucket", 2048 << 20,
    (("rollout engine", "verl/trainer/config/rollout/rollout.yaml: gpu_memory_utilization 0.5, free_cache_engine True, "
      "tensor_model_parallel_size 2, max_num_seqs 256; examples run rollout.name=vllm in the hybrid (colocated) "
      "engine"),
     ("sleep", "verl/third_party/vllm/__init__.py: VLLM_SLEEP_LEVEL = 2 from vLLM 0.8.5; vllm_async_server.py sleep(): "
      "hybrid mode collective_rpc('sleep', level=2)"),
     ("reference", "verl/trainer/ppo/ray_trainer.py: ref_in_actor when lora_rank > 0 (the actor with LoRA switched "
      "off); a reference is scored only when use_kl_loss or use_kl_in_reward, both false in actor.yaml / "
      "ppo_trainer.yaml"),
     ("kl default", "b178a3c verl/trainer/ppo/utils.py:72-76 need_reference_policy = algorithm.use_kl_in_reward or "
      "actor.use_kl_loss (ray_trainer.py:285 use_reference_policy; ed498f9f main_ppo.py:158-160 adds the RefPolicy "
      "role on the same test), config/algorithm.py:606 use_kl_in_reward False, config/actor/actor.yaml:95 use_kl_loss "
      "false: PPO and GRPO score no reference unless a run turns one on (the GRPO example scripts set use_kl_loss=True)"),
     ("log-probs", "verl/utils/torch_functional.py logprobs_from_logits: flash-attn's cross_entropy_loss "
      "(inplace_backward=True) when flash-attn is installed"),
     ("weight sync", "verl/workers/fsdp_workers.py: per-tensor full_tensor() generator; vllm_rollout.py update_weights "
      "packs it into a bucket of update_weights_bucket_megabytes = 2048 (workers/config/rollout.py)"),
     ("scoring entropy", "verl/workers/fsdp_workers.py compute_log_prob: calculate_entropy = not is_lora, where "
      "is_lora is the meta_info flag of the reference pass through the adapter-disabled actor: the old-policy pass "
      "always computes entropy_from_logits (torch_functional.py: softmax(logits) and softmax x logits, each b·c·V)"),
     ("response logits", "verl/workers/actor/dp_actor.py _forward_micro_batch (padded path): logits[:, -response_"
      "length - 1:-1, :] is a strided view; torch_functional.py logprobs_from_logits reshapes it to (b·c, V), a copy "
      "when b > 1, before flash-attn's cross_entropy_loss"),
     ("offload", "verl/workers/fsdp_workers.py (f50e5c2e8, 2025-09; b178a3c likewise): with fsdp_config.param_offload "
      "/ optimizer_offload, update_actor calls load_fsdp_model_to_gpu and load_fsdp_optimizer before update_policy "
      "and offloads both after it; compute_log_prob, compute_ref_log_prob (the LoRA reference inside the actor) and "
      "the rollout sharding manager load the parameters likewise; FSDP itself is built without CPUOffload"),
     ("micro-batches", "verl 9466d371e verl/workers/actor/dp_actor.py: compute_log_prob splits the rank's batch with "
      "batch.split(micro_batch_size) and update_policy each mini-batch with mini_batch.split("
      "ppo_micro_batch_size_per_gpu) when use_dynamic_bsz is False (trainer/config/ppo_trainer.yaml's default); "
      "_balance_batch (ray_trainer.py) evens the ranks' token totals over the whole step only"),
     ("batch dispatch", "verl 9466d371e verl/trainer/ppo/ray_trainer.py lines 1013-1054: compute_log_prob and "
      "compute_ref_log_prob called on the worker group with the whole batch (Dispatch.DP_COMPUTE_PROTO chunks it per "
      "rank); verl/protocol.py lines 261-280: DataProto pickles its TensorDict with torch.save into a BytesIO"),
     ("offload copies", "verl/utils/fsdp_utils.py at b178a3c: offload_fsdp_model_to_cpu / load_fsdp_model_to_gpu "
      "(lines 144-196) move FSDP1's flat parameters with flat_param_to(device, non_blocking=True), offload_fsdp_optimizer "
      "/ load_fsdp_optimizer (lines 204-225) each state with .to(device, non_blocking=True): pinned CPU memory "
      "(PyTorch's _to_copy pins a non-blocking GPU-to-CPU copy's output); FSDP2's offload_fsdp2_model_to_cpu / "
      "load_fsdp2_model_to_gpu (lines 171-201) call model.cpu() / model.to(device): pageable memory"),
     ("update entropy", "verl/workers/actor/dp_actor.py (b4aa2dce8, 2025-06-10, and e2ffa1c8): update_policy sets "
      "calculate_entropy = entropy_coeff != 0; _forward_micro_batch (remove-padding path) then passes "
      "inplace_backward=False to flash-attn's cross_entropy_loss and runs self.compute_entropy_from_logits = "
      "torch.compile(verl_F.entropy_from_logits, dynamic=True) (actor use_torch_compile, default true) on the "
      "(total_nnz, V) logits with gradients; entropy_checkpointing (default false) came later at 0bd03d7c0"),
     ("reference offload", "verl/workers/fsdp_workers.py _build_model_optimizer (b4aa2dce8 and b178a3c): 'We force "
      "reference policy to use CPUOffload to save memory': FSDP1 cpu_offload = None if role == 'actor' else "
      "CPUOffload(offload_params=True); FSDP2 CPUOffloadPolicy(pin_memory=True) for the reference; the reward model "
      "likewise (RewardModelWorker: CPUOffload(offload_params=True))"),
     ("rollout adapters", "verl/workers/fsdp_workers.py:406 at 49b08e950 and e2ffa1c8: lora_kwargs = {'enable_lora': "
      "True, 'max_loras': 1, 'max_lora_rank': self._lora_rank} when lora_rank > 0, passed to vLLM's LLM; b178a3cd "
      "vllm_async_server.py:352 likewise ('enable_lora': True, max_lora_rank from get_vllm_max_lora_rank)"),
     ("padding-free logits", "verl/workers/actor/dp_actor.py _forward_micro_batch, remove-padding path (from 5a94e14d, "
      "2025-01-18, through 966c8459 of June 2025 and b178a3c): logits_rmpad = output.logits.squeeze(0); "
      "logits_rmpad.div_(temperature): an in-place division of a view, so the model's output takes CopySlices as its "
      "grad_fn and the view AsStridedBackward0 (torch/csrc/autograd/functions/tensor.cpp CopySlices::apply: the "
      "incoming gradient, result = a copy in the base's shape, grad_slice.clone() and the division's gradient alive "
      "together); the padded path divides the output itself (logits.div_ before slicing)"),
     ("cuda graphs", "verl/trainer/config/rollout/rollout.yaml at b178a3c: enforce_eager: False (since ff6978c14, "
      "2025-08-08, PR #2956); before it ppo_trainer.yaml rollout.enforce_eager: True ('Whether to disable CUDA graph. "
      "Default True to allow cache freeing', at c62e7ac7b, fa23b696d and 49b08e950), passed by vllm_rollout_spmd.py as "
      "LLM(enforce_eager=config.enforce_eager), which asserts it whenever free_cache_engine is set"),
     ("adapters", "verl/utils/fsdp_utils.py get_fsdp_wrap_policy(is_lora=True) at 49b08e950 and b178a3c: "
      "lambda_auto_wrap_policy on every leaf module whose weight requires grad (the LoRA A and B linears), _or_policy'd "
      "with the decoder-layer policy; fsdp_workers.py get_sharding_strategy: FULL_SHARD over the FSDP mesh, so each "
      "adapter is a unit of its own sharded over the FSDP ranks"),
     ("sampled log-probs", "verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py lines 175-183 at 49b08e950 (the "
      "verl-data GRPO-LoRA rows) and vllm_rollout.py lines 120-128 at 36c10bff (the MI300X rows): SamplingParams(n=1, "
      "logprobs=0, max_tokens=response_length) with detokenize=False; generate_sequences reads each token's "
      "logprob (rollout_log_probs)")),
    rollout_sampled_logprobs=True, rollout_detokenize=False,
    scoring_entropy=True, response_logits_copied=True, offload_between_phases=True, fsdp2_offload_pageable=True,
    update_entropy="compiled",
    reference_params_offloaded=True, rollout_serves_adapters=True, padding_free_scaled_on_view=True,
    adapters_sharded=True, batch_dispatched=True, micro_batches_by_count=True,
    # main_ppo's rollout runs inside the actor's workers (verl/workers/fsdp_workers.py ActorRolloutRefWorker, "Hybrid
    # worker that includes actor model, rollout and optional ref model"), on the actor's GPUs: no engine apart
    engine_apart=False)

OPENRLHF = PostTrainingDefaults(
    "vllm", 0.95, "none", False, "separate", False, ("ppo", "grpo", "rloo"), "fused-fp32", False, "per-parameter", 0,
    (("rollout engine", "openrlhf/cli/train_ppo_ray.py: --vllm.gpu_memory_utilization 0.95, --vllm.enable_sleep off "
      "(only with --train.colocate_all), vLLM engines, actor, reference and reward on GPUs of their own unless "
      "--train.colocate_*"),
     ("reference", "train_ppo_ray.py: --algo.kl.init_coef 0.01 > 0 creates the reference model group"),
     ("log-probs", "openrlhf/models/actor.py Actor.forward: output['logits'] = output['logits'].to(torch.float32) "
      "(PR #634, commit 86827444 of 2024-12-28; in v0.6.2 and 3c3be62), so models/utils.py log_probs_from_logits "
      "takes its fp32 branch: flash_attn.ops.triton.cross_entropy (inplace_backward off) when available, else "
      "log-sum-exp in chunks of 1024 rows"),
     ("weight sync", "openrlhf/trainer/ray/ppo_actor.py: each parameter gathered by deepspeed.zero.GatheredParameters"
      "([param]) and broadcast (NCCL) or handed over by CUDA IPC")))

MS_SWIFT = PostTrainingDefaults(
    "none", 0.9, "none", False, "colocate", False, ("ppo", "grpo", "rloo"), "rows", True, "per-parameter", 0,
    (("rollout engine", "swift/rlhf_trainers/args_mixin.py: use_vllm off, vllm_gpu_memory_utilization 0.9, "
      "vllm_max_num_seqs 256, sleep_level 0, offload_model / offload_optimizer off"),
     ("reference", "swift/arguments/rlhf_args.py: GRPO beta defaults to 0.04 (a reference is scored)"),
     ("kl default", "3602360 swift/arguments/rlhf_args.py:291-296: a full dpo / kto / ppo / grpo run takes the model "
      "as its ref_model unless GRPO's beta is 0.0; line 356 GRPO beta 0.04 (RLOO runs as GRPO's advantage_estimator)"),
     ("log-probs", "swift/rlhf_trainers/grpo_trainer.py uses trl.trainer.utils.selective_log_softmax; its "
      "_get_per_token_logps_and_entropies slices outputs.logits[:, -(logits_to_keep + 1):-1, :] and divides the view "
      "in place (logits.div_(self.temperature))"),
     ("weight sync", "the GRPO trainer inherits TRL's per-parameter sync to vLLM"),
     ("ppo generate", "swift/trainers/rlhf_trainer/ppo_trainer.py (ae43d1bfb, 2025-05-18, the commit of the PPO "
      "examples' memory comments): class PPOTrainer(SwiftMixin, trl.PPOTrainer) overrides only __init__, train and "
      "saving, so generation is TRL's (trl>=0.15,<0.18 in requirements/framework.txt there)")),
    logits_scaled_on_view=True, generate_gathers_critic=True, generate_keeps_scores=True,
    # swift/rlhf_trainers/cpo_trainer.py runs TRL's CPOTrainer.concatenated_forward (its cross_entropy_loss over the
    # chosen logits; cpo_alpha 1 also for SimPO, swift/arguments/rlhf_args.py:250); its DPOTrainer takes the NLL from
    # the per-token log-probs (swift/rlhf_trainers/dpo_trainer.py: -origin_per_token_logps[:num_examples], since
    # 19b34bc5c of 2025-06-11; get_nll_loss's cross-entropy over the logits before it)
    chosen_nll_from_logits=("cpo", "simpo"),
    # swift/arguments/base_args/model_args.py _init_mixed_precision (3602360a; 40c8406fb likewise): bf16 = True for a
    # bf16 torch_dtype; accelerate src/accelerate/accelerator.py (16cb6eb8, 2026-07-24: lines 586-592 native_amp for
    # bf16 outside DeepSpeed and Megatron, 1817-1829 convert_outputs_to_fp32(autocast_context(forward)); v1.6.0
    # lines 565-571, 1517-1528), utils/operations.py convert_to_fp32: every bf16/fp16 output tensor .float()
    outputs_fp32_without_deepspeed=True,
    # swift/llm/argument/rlhf_args.py:35 at ae43d1bfb: local_rollout_forward_batch_size 64 (TRL's PPO rollout loop)
    ppo_rollout_chunk=64)

NEMO_RL = PostTrainingDefaults(
    "vllm", 0.6, "level-1", False, "colocate", True, ("ppo", "grpo", "rloo"), "standard", False, "free-memory-buffers",
    0,
    (("rollout engine", "examples/configs/grpo_math_1B.yaml: generation.backend vllm, vllm_cfg.gpu_memory_utilization "
      "0.6, colocated.enabled true, num_generations_per_prompt 16"),
     ("sleep", "nemo_rl/models/generation/vllm/vllm_worker.py: self.llm.sleep(level=1)"),
     ("reference", "nemo_rl/models/automodel/setup.py setup_reference_model_state: the reference is a pinned CPU copy "
      "of the state dict, copied into the policy's parameters by use_reference_model(); reference_policy_kl_penalty "
      "0.01"),
     ("log-probs", "grpo_math_1B.yaml policy.logprob_chunk_size null: the whole sequence's logits at once"),
     ("weight sync", "nemo_rl/models/policy/utils.py: two staging buffers sized from free memory "
      "(NRL_REFIT_BUFFER_MEMORY_RATIO 0.3), never more than is free"),
     ("refit offload", "v0.5.0 (6c708930) nemo_rl/algorithms/grpo.py refit_policy_generation lines 904-977; "
      "nemo_rl/models/policy/workers/dtensor_policy_worker_v2.py lines 1815-1910 offload_before_refit / "
      "offload_after_refit / prepare_for_lp_inference / prepare_for_training (optimizer `.to(device)`, model "
      "`.to(device)`), lines 1659-1685 use_reference_model"),
     ("sampled log-probs", "v0.5.0 (6c708930) nemo_rl/models/generation/vllm/vllm_worker.py lines 465-474: "
      "SamplingParams(..., logprobs=0, stop=stop_strings, include_stop_str_in_output=True), detokenize left at "
      "vLLM's default (on); lines 571-645 store each token's logprob in a tensor after generate() returns"),
     ("engine in process", "v0.5.0 vllm_worker.py line 112: env_vars['VLLM_ENABLE_V1_MULTIPROCESSING'] = '0' for every "
      "generation worker, whose VllmGenerationWorker builds vllm.LLM (lines 492-496) when vllm_cfg.async_engine is "
      "false, grpo_math_1B.yaml line 229's default (AsyncLLM, async_engine true, always runs its engine core in a "
      "process of its own)")),
    refit_offload=True, rollout_sampled_logprobs=True, rollout_engine_in_process=True, rollout_worker_output_loop=True)

UNSLOTH = PostTrainingDefaults(
    "none", 0.5, "none", True, "colocate", False, ("ppo", "rloo"), "fused-linear", True, "shared", 0,
    (("rollout engine", "unsloth/models/llama.py from_pretrained: fast_inference=False, gpu_memory_utilization=0.5, "
      "unsloth_vllm_standby=False"),
     ("shared weights", "llama.py: with fast_inference vLLM loads first and the trainer's model is built from the "
      "engine's state dict (convert_vllm_to_huggingface; llm.shared_weights = True): one copy"),
     ("reference", "Unsloth patches TRL's trainers (unsloth/models/rl.py): TRL's reference handling"),
     ("log-probs", "unsloth_zoo's fused, chunked log-prob kernels: the logits are never materialised for the batch"),
     ("served adapters", "unsloth 2025.3.8 (PyPI wheel) unsloth/models/rl.py lines 646-650 rewrites TRL's "
      "self.llm.generate(...) into generate(..., lora_request=self.model.load_lora(..., load_tensors=True)); "
      "unsloth_zoo 2025.3.8 vllm_utils.py load_vllm (lines 795-834) builds vLLM's LLM with enable_lora True, "
      "max_loras 1 and from_pretrained's max_lora_rank (the notebooks pass their lora_rank); their logs print "
      "'Using PunicaWrapperGPU' "
      "(unslothai/notebooks at bdda2efc nb/Llama3.1_(8B)-GRPO.ipynb)"),
     ("4-bit engine", "unsloth_zoo 2025.3.8 vllm_utils.py lines 80-129 replaces vLLM's "
      "BitsAndBytesLinearMethod._apply_4bit_weight: per packed shard bitsandbytes' matmul_4bit, in the quant "
      "state's dtype (vLLM's own casts to bf16): engine/posttraining/bnb_decode.py"),
     ("scoring", "unsloth 2025.3.8 / 2025.5.7 unsloth/models/rl_replacements.py _get_per_token_logps returns None "
      "(Unsloth efficient GRPO, unless UNSLOTH_USE_NEW_MODEL), so TRL's _prepare_inputs scores nothing; "
      "compute_loss calls unsloth_zoo rl_replacements.py grpo_accumulated_loss (2025.3.8 lines 190-224): per "
      "micro-batch the policy with its adapters disabled under inference_mode (the reference's hidden states), then "
      "the policy's forward, both heads' log-probs computed chunk by chunk in UnslothEfficientGRPO: no old-policy "
      "pass"),
     ("generation per micro-batch", "unsloth b22e654e (2025-05-15) pyproject.toml line 51 pins trl<=0.15.2 (the "
      "releases the notebooks ran); huggingface/trl v0.15.2 trl/trainer/grpo_trainer.py lines 520-544: "
      "_prepare_inputs, called once per gradient-accumulation micro-batch, makes one llm.generate call with that "
      "micro-batch's prompts"),
     ("adapters per generate() call", "unsloth ce9e5475 unsloth/models/rl.py lines 731-737 pass "
      "lora_request=self.model.load_lora(..., load_tensors=True) to every llm.generate; unsloth-zoo c14e5554 "
      "vllm_utils.py load_lora (lines 1434-1485) makes a LoRARequest with a new id each call (LORA_REQUEST_ID += 1), "
      "so vLLM's worker loads it again (vllm_lora_worker_manager.py add_adapter, lines 252-274): "
      "engine/posttraining/adapter_load.py")),
    rollout_serves_adapters=True, old_policy_pass=False, rollout_generates_per_micro_batch=True,
    rollout_loads_adapters_per_generate=True,
    engine_apart=False)  # fast_inference's vLLM runs in the trainer's process, on its GPU (the "shared weights" row)

# ms-swift's Megatron trainers (`megatron rlhf`): the reference and the policy each return the model's per-token
# cross-entropy, and the log-probs are its negation, so the logits are those of Megatron's own loss
MEGATRON_SWIFT = replace(
    MS_SWIFT, logprob_path="model-loss", logits_scaled_on_view=False, model_loss="megatron-fused",
    chosen_nll_from_logits=(), outputs_fp32_without_deepspeed=False, ppo_rollout_chunk=0,
    sources=MS_SWIFT.sources[:2] + (
        ("log-probs", "swift/megatron/trainers/dpo_trainer.py forward_step: ref_output_tensor = ref_model(**data) "
         "under no_grad, then output_tensor = model(**data), with the labels in data, so GPTModel returns the "
         "per-token loss of Megatron's vocab-parallel cross-entropy; rlhf_mixin.py get_logps: per_token_logps = "
         "-output_tensor (kto_trainer.py and the reward trainer likewise)"),
        ("model loss", "swift/megatron/arguments/megatron_args.py:496-497: cross_entropy_loss_fusion True, "
         "cross_entropy_fusion_impl 'native', so compute_language_model_loss runs fused_vocab_parallel_cross_entropy "
         "(megatron/core/models/common/language_module/language_module.py, core_v0.18.0; the examples also pass "
         "--cross_entropy_loss_fusion true)"),))
