"""Post-training objectives (issue 22), engine layer: keys, per-phase memory, time and JSON.

Expected values are derived from first principles and the frameworks' sources read at the commits named in
engine/frameworks/posttraining.py (TRL f2cd577, verl b178a3c, NeMo-RL 7ea279a, unsloth 015bdef) and vLLM's
memory accounting (vllm/v1/worker/gpu_worker.py determine_available_memory; vllm/v1/kv_cache_interface.py page size
= 2 x block_size x kv_heads x head_size x dtype bytes). Model dimensions are the config.json's: Llama-3-8B 32 layers,
8 kv-heads of 128; Qwen2.5-1.5B 28 layers, 2 kv-heads of 128.
"""

from __future__ import annotations

import json

import pytest

from engine import ScenarioError, scenario_from_dict
from engine.cli import estimate_to_json, json_text, main
from engine.frameworks import FRAMEWORKS, TABLE
from engine.memory.estimate import estimate as training_estimate
from engine.models.presets import model_spec_for
from engine.posttraining import PHASE_KEYS, RLStepTime, rl_estimate, rl_settings, step_parts
from engine.scenario import resolve_gpu
from engine.serving.scenario_estimate import cuda_visible_capacity
from engine.workloads import estimate, step_time

BASE = {"model": "qwen2.5-1.5b", "precision": "bf16", "micro_batch": 4, "grad_accum": 2, "prompt_len": 256,
        "completion_len": 512}


def _s(**kw):
    return scenario_from_dict({**BASE, **kw})


def _phase(est, key):
    return est.rl.phase(key)


def _comp(phase, key):
    return sum(c.peak_bytes for c in phase.components if c.key == key)


def test_sft_goes_to_the_training_estimator_unchanged():
    # training_objective defaults to sft: the workload entry returns exactly the training estimator's answer and the
    # JSON gains no rl object (the 2,000-scenario byte-identical check is benchmarks/output_fingerprint.py compare)
    s = scenario_from_dict({"model": "llama-3-8b"})
    assert s.training_objective == "sft"
    est = estimate(s)
    assert est == training_estimate(s) and est.rl is None
    out = estimate_to_json(est, step_time(s))
    assert "rl" not in out and "generation" not in out["time"]


def test_dpo_runs_two_sequences_per_pair_of_prompt_plus_completion_tokens():
    # TRL dpo_trainer.py (f2cd577, line 355) concatenates the chosen and rejected completions into one batch: the
    # training step is the SFT step of 2 x micro_batch sequences of prompt_len + completion_len tokens
    # plus, per layer, what the padded batch's attention mask adds (transformers 5.25 integrations/sdpa_attention.py
    # use_gqa_in_sdpa: no GQA in SDPA with a mask, so K and V are repeated to the 12 query heads; the mask converted
    # to bf16, b·s·s, kept by SDPA): Qwen2.5-1.5B, 28 layers, 12 heads / 2 kv-heads of 128
    s = _s(training_objective="dpo", framework="trl", reference_model="precomputed")
    train = _phase(rl_estimate(s), "training")
    sft = training_estimate(scenario_from_dict({**BASE, "seq_len": 768, "micro_batch": 8, "framework": "trl"}))
    tokens = 8 * 768
    mask = 2 * tokens * 2 * (12 - 2) * 128 + 2 * tokens * 768
    assert _comp(train, "activations") == pytest.approx(
        next(c.peak_bytes for c in sft.components if c.key == "activations") + 28 * mask)


def test_grpo_with_lora_scores_the_reference_with_adapters_off_adding_no_weights():
    # TRL grpo_trainer.py (f2cd577, lines 957-971): a PEFT policy's reference is the base with the adapters disabled,
    # no copy; a separate reference of a LoRA policy is a full bf16 copy of the base (params x 2 bytes)
    spec = model_spec_for("qwen2.5-1.5b")
    off = rl_estimate(_s(training_objective="grpo", method="lora", reference_model="auto", framework="nemo-rl"))
    assert off.rl.settings and dict(off.rl.settings)["reference"] == "adapter-off"
    sep = rl_estimate(_s(training_objective="grpo", method="lora", reference_model="separate", framework="nemo-rl"))
    assert "reference" not in dict(off.rl.per_model_bytes)
    assert dict(sep.rl.per_model_bytes)["reference"] == spec.total_params * 2
    assert (_phase(sep, "training").peak_bytes - _phase(off, "training").peak_bytes
            == pytest.approx(spec.total_params * 2))


def test_trl_grpo_loads_no_reference_at_beta_zero():
    # TRL GRPOConfig beta defaults to 0.0: "the reference model is not loaded" (grpo_config.py, f2cd577)
    est = rl_estimate(_s(training_objective="grpo", framework="trl"))
    assert dict(est.rl.settings)["reference"] == "none" and "reference" not in dict(est.rl.per_model_bytes)


def test_sleep_level_two_frees_the_engine_while_the_trainer_works():
    # vLLM LLM.sleep(level=2) discards the weights and the KV cache; awake, a colocated engine holds its whole
    # budget, gpu_memory_utilization x the total torch.cuda.mem_get_info reports (gpu_worker.py requested_memory;
    # the preset's CUDA-visible total, below nvidia-smi's)
    kw = {"training_objective": "grpo", "framework": "trl", "rollout_engine": "vllm",
          "rollout_gpu_memory_utilization": 0.4}
    awake, asleep = (rl_estimate(_s(rollout_sleep=level, **kw)) for level in ("none", "level-2"))
    _, capacity = resolve_gpu(_s(**kw))
    capacity = cuda_visible_capacity(_s(**kw), capacity)
    engine = step_parts(_s(**kw)).engine  # its budget, plus the CUDA graphs vLLM captures beside it
    freed = _phase(awake, "training").peak_bytes - _phase(asleep, "training").peak_bytes
    assert freed == pytest.approx(engine.total_bytes) and freed >= 0.4 * capacity
    # the weight sync wakes only the weights (trl/generation/vllm_generation.py wake_up(tags=["weights"]))
    sync = _phase(asleep, "weight_sync")
    assert _comp(sync, "rollout_weights") > 0 and _comp(sync, "rollout_kv_cache") == 0


def test_the_engine_is_engine_serving_s_accounting_on_the_trainer_s_gpu():
    # vLLM: budget = gpu_memory_utilization x the total torch.cuda.mem_get_info reports (the preset's CUDA-visible
    # total, as the serving estimate uses); page = 2 x block x kv_heads x head_size x dtype bytes per layer,
    # Llama-3-8B bf16: 2 x 8 x 128 x 2 = 4,096 bytes per token per layer x 32 layers
    s = scenario_from_dict({"model": "llama-3-8b", "training_objective": "grpo", "framework": "trl",
                            "rollout_engine": "vllm", "method": "lora", "precision": "bf16",
                            "rollout_gpu_memory_utilization": 0.5})
    e = step_parts(s).engine
    _, capacity = resolve_gpu(s)
    assert e.requested_bytes == pytest.approx(0.5 * cuda_visible_capacity(s, capacity))
    assert e.kv_bytes_per_token == 32 * 4096 and e.kv_tokens % e.block_size == 0
    assert e.kv_pool_bytes == pytest.approx(e.kv_tokens * e.kv_bytes_per_token)
    assert 0 < e.max_concurrent_sequences <= min(256, e.kv_tokens // (256 + 512))


def test_an_engine_that_would_not_start_makes_the_step_not_fit_in_its_own_words():
    # vLLM refuses when the budget left after the weights and the profile run holds no KV block, and when less than
    # utilization x capacity is free on a GPU the trainer already uses (gpu_worker.py init_device)
    starved = rl_estimate(scenario_from_dict({"model": "llama-3-8b", "training_objective": "grpo", "framework": "trl",
                                              "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.15}))
    assert starved.verdict == "does not fit" and starved.rl.max_concurrent_sequences == 0
    assert "no available memory for the cache blocks" in str(starved.room()).lower()
    crowded = rl_estimate(scenario_from_dict({"model": "llama-3-8b", "training_objective": "grpo", "framework": "trl",
                                              "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.9}))
    assert crowded.verdict == "does not fit" and "free memory" in str(crowded.room())


def test_separate_rollout_gpus_keep_the_engine_off_the_training_gpus():
    est = rl_estimate(_s(training_objective="grpo", framework="trl", rollout_engine="vllm",
                         rollout_placement="separate", rollout_gpus=1))
    gen = _phase(est, "generation")
    _, capacity = resolve_gpu(_s())
    # TRL's 0.3 default; on GPUs of its own the engine also holds its CUDA context and graphs beside the budget
    assert gen.gpus == "rollout" and gen.peak_bytes >= 0.3 * capacity * 0.99
    assert not any(c.key.startswith("rollout_") for c in _phase(est, "training").components)


def test_shared_weights_are_held_once():
    # Unsloth fast_inference builds the trainer's model from vLLM's state dict (llm.shared_weights = True)
    kw = {"training_objective": "grpo", "framework": "unsloth", "method": "lora", "rollout_engine": "vllm"}
    shared, apart = (rl_estimate(_s(rollout_shares_weights=on, **kw)) for on in (True, False))
    assert not any(c.key == "policy_frozen_weights" for c in _phase(shared, "generation").components)
    assert any(c.key == "policy_frozen_weights" for c in _phase(apart, "generation").components)
    assert shared.rl.phase("weight_sync") is None  # nothing to copy


def test_ppo_holds_the_critic_states_beside_the_policy():
    # critic "same": a copy of the policy's architecture, trained with the same optimizer, so its states between
    # steps are the policy's (the value head is one number per token)
    est = rl_estimate(_s(training_objective="ppo", framework="trl", critic_model="same"))
    per_model = dict(est.rl.per_model_bytes)
    assert per_model["critic"] == pytest.approx(per_model["policy"], rel=0.01)
    assert est.rl.phase("critic_training") is not None


def test_the_critic_reward_and_reference_have_their_own_components():
    # PPO with a critic, a reward model and a reference: every phase tells the models apart by key and by name (the
    # critic is trained by the policy's estimator, so without its own names its step read "Trainable weights",
    # "Activations (decoder layers)" like the policy's)
    est = rl_estimate(_s(training_objective="ppo", framework="verl", critic_model="same",
                         reward_model="qwen2.5-0.5b", reference_model="separate"))
    critic_step = est.rl.phase("critic_training")
    own = [c for c in critic_step.components if c.key.startswith("critic_")]
    assert {"critic_weights", "critic_gradients", "critic_optimizer_states", "critic_activations"} <= {
        c.key for c in own}
    for phase in est.rl.phases:
        keys = [c.key for c in phase.components]
        assert len(keys) == len(set(keys)), phase.key
        critic = {c.name for c in phase.components if c.key.startswith("critic_")}
        others = {c.name for c in phase.components if not c.key.startswith("critic_")}
        assert not critic & others, phase.key
        assert all(name.startswith("Critic") for name in critic)
    names = {c.key: c.name for p in est.rl.phases for c in p.components}
    assert names["reference_weights"] != names["reward_weights"] != names["critic_weights"]
    # the critic's own step still counts what the policy's estimator gives for its training
    assert sum(c.peak_bytes for c in own) > 0 and critic_step.peak_bytes > sum(c.peak_bytes for c in own)


def test_kto_scores_the_kl_batch_with_the_policy_and_the_reference_inside_its_step():
    # trl 1.16.0 trainer/kto_trainer.py _compute_loss: _compute_kl_logps(model) under no_grad before the policy's
    # forward over the mismatched (KL) batch of as many sequences as the batch, then under no_grad the reference's KL
    # and matched passes while the policy's activations wait for backward. KTO is unpaired: one sequence per example.
    s = _s(training_objective="kto", framework="trl", reference_model="separate")
    est = rl_estimate(s)
    assert rl_settings(s, 2).train_sequences == BASE["micro_batch"]
    scoring = _phase(est, "scoring")
    kl = next(c for c in scoring.components if c.key == "score_policy_kl")
    # the KL pass runs the same model over as many sequences of the same length as the reference's pass
    ref = rl_estimate(_s(training_objective="dpo", framework="trl", reference_model="separate", micro_batch=2))
    assert kl.peak_bytes == _comp(_phase(ref, "scoring"), "score_reference")
    assert _comp(_phase(est, "training"), "reference_forward_in_step") > 0
    # precomputed reference log-probs (ref_logps and ref_KL_logps in the batch): the policy's KL pass still runs
    pre = rl_estimate(_s(training_objective="kto", framework="trl", reference_model="precomputed"))
    assert _comp(_phase(pre, "scoring"), "score_policy_kl") == kl.peak_bytes
    assert _comp(_phase(pre, "training"), "reference_forward_in_step") == 0
    # DPO has no KL batch
    assert _comp(_phase(ref, "scoring"), "score_policy_kl") == 0


def test_ulysses_splits_each_sequence_and_adds_the_all_to_all_copies():
    # verl b178a3c: with ulysses_sequence_parallel_size the actor runs padding-free rows through flash-attention
    # (workers/config/actor.py requires use_remove_padding), each GPU holding 1/sp of the tokens
    # (utils/ulysses.py ulysses_pad_and_slice_inputs). Per layer, _ulysses_flash_attention_forward
    # (models/transformers/monkey_patch.py) adds o_proj's own copy of the output gathered back by all-to-all
    # (c x t x q) and, with fewer key/value heads than the group, K and V repeated sp // kv_heads times.
    # Qwen2.5-1.5B: 28 layers, 12 heads and 2 kv-heads of 128; 4 sequences of 256 + 512 tokens over sp = 4: t = 768
    s = _s(training_objective="grpo", framework="verl", gpus_per_node=8, ulysses_sequence_parallel_size=4)
    train = _phase(rl_estimate(s), "training")
    plain = training_estimate(scenario_from_dict({**BASE, "seq_len": 768 // 4, "micro_batch": 4, "framework": "verl",
                                                  "attention": "flash"}))
    t, c, q, kv = 4 * 192, 2, 12 * 128, 2 * 128
    per_layer = c * t * q + c * t * 2 * kv * (4 // 2 - 1)
    assert _comp(train, "activations") == pytest.approx(
        next(x.peak_bytes for x in plain.components if x.key == "activations") + 28 * per_layer)
    # the scoring passes run on the GPU's slice too
    score = next(c for c in _phase(rl_estimate(s), "scoring").components if c.key == "score_policy")
    assert dict(score.inputs)["sequence_tokens"] == 192
    # a group of GPUs shares each micro-batch: a quarter of the samples per step
    one = step_time(_s(training_objective="grpo", framework="verl", gpus_per_node=8))
    assert step_time(s).samples_per_step * 4 == one.samples_per_step
    # verl's checks (monkey_patch.py apply_monkey_patch): heads divisible by the group
    with pytest.raises(ScenarioError, match="Ulysses"):
        _s(training_objective="grpo", framework="verl", gpus_per_node=8, ulysses_sequence_parallel_size=8)


def test_the_estimate_is_its_peak_phase():
    for kw in ({"training_objective": "grpo", "framework": "verl"}, {"training_objective": "dpo"},
               {"training_objective": "ppo", "critic_model": "same", "reward_model": "qwen2.5-0.5b"}):
        est = estimate(_s(**kw))
        peak = max(est.rl.phases, key=lambda p: p.peak_bytes)
        assert est.rl.peak_phase == peak.key and est.peak_allocated_bytes == pytest.approx(peak.peak_bytes)
        assert {p.key for p in est.rl.phases} <= set(PHASE_KEYS)


def test_auto_takes_the_frameworks_post_training_defaults():
    # verl rollout.yaml gpu_memory_utilization 0.5 and sleep level 2 (vLLM >= 0.8.5); NeMo-RL 0.6 and level 1
    for fw, util, sleep in (("verl", 0.5, "level-2"), ("nemo-rl", 0.6, "level-1"), ("trl", 0.3, "none")):
        rs = rl_settings(_s(training_objective="grpo", framework=fw), 2)
        assert (rs.utilization, rs.sleep) == (util, sleep)
    assert all(TABLE[fw].posttraining.sources for fw in FRAMEWORKS)


def test_time_has_a_generation_part_and_samples_per_second():
    s = _s(training_objective="grpo", framework="verl")
    t = step_time(s)
    assert isinstance(t, RLStepTime)
    parts = t.breakdown_seconds
    assert parts["generation"] > 0 and t.step_seconds == pytest.approx(sum(parts.values()))
    # decode cannot beat reading the engine's weights once per generated token
    p = step_parts(s)
    detail = dict(t.generation)
    assert detail["decode_step_seconds"] >= p.engine.weight_bytes / 4.8e12
    assert t.samples_per_second == pytest.approx(4 * 2 / t.step_seconds)


def test_estimate_json_has_the_rl_object(tmp_path, capsys):
    path = tmp_path / "grpo.json"
    path.write_text(json.dumps({**BASE, "training_objective": "grpo", "framework": "trl", "rollout_engine": "vllm"}))
    assert main(["estimate", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"phases", "per_model_bytes", "rollout_kv_bytes", "rollout_kv_tokens",
            "max_concurrent_sequences"} <= set(out["rl"])
    assert out["time"]["generation"]["seconds"] > 0 and out["time"]["samples_per_second"] > 0
    assert json_text(out)


@pytest.mark.parametrize("kw,key", [
    ({"training_objective": "grpo", "reference_model": "adapter-off"}, "reference_model"),
    ({"training_objective": "grpo", "rollout_placement": "separate"}, "rollout_gpus"),
    ({"training_objective": "grpo", "reference_model": "precomputed"}, "reference_model"),
    ({"training_objective": "dpo", "critic_model": "same"}, "critic_model"),
    ({"training_objective": "grpo", "num_generations": 1}, "num_generations"),
    ({"training_objective": "grpo", "rollout_tp": 3, "gpus_per_node": 2}, "rollout_tp"),
    ({"training_objective": "rl"}, "training_objective"),
    ({"training_objective": "ppo", "reward_model": "no-such-model"}, "reward_model"),
    ({"rollout_gpu_memory_utilization": 0}, "rollout_gpu_memory_utilization"),
])
def test_bad_inputs_get_one_sentence(kw, key):
    with pytest.raises(ScenarioError) as exc:
        _s(**kw)
    assert exc.value.key == key and "\n" not in str(exc.value) and "Traceback" not in str(exc.value)


@pytest.mark.parametrize("framework", ["trl", "verl", "openrlhf", "ms-swift", "nemo-rl", "unsloth"])
def test_every_objective_estimates_and_times_with_every_post_training_framework(framework):
    # no hard-coded figure: each answer is finite, its peak is its largest phase, and its time adds up
    for objective in ("dpo", "ipo", "kto", "orpo", "simpo", "cpo", "reward", "ppo", "grpo", "rloo", "online-dpo"):
        for method in ("full", "qlora"):
            s = _s(training_objective=objective, framework=framework, method=method,
                   critic_model="same" if objective == "ppo" else None)
            est, t = estimate(s), step_time(s)
            assert est.rl.peak_phase == max(est.rl.phases, key=lambda p: p.peak_bytes).key
            assert t.step_seconds == pytest.approx(sum(t.breakdown_seconds.values()))
            assert json.loads(json_text(estimate_to_json(est, t)))["rl"]["objective"] == objective


def test_trl_grpo_training_keeps_completion_logits_and_their_row_log_softmax():
    # grpo_trainer.py passes logits_to_keep = completion tokens; utils.py selective_log_softmax log-softmaxes the bf16
    # logits one sequence at a time, each row's output saved for backward: logits + outputs = 2 x 2 bytes x b·k·V;
    # logits.div_(temperature) on the sliced view and the no-grad entropy's reshape (a copy of that view) add one
    # more b·k·V in forward, and CopySlices' backward holds 4 x b·k·V (Qwen2.5-1.5B vocabulary 151,936;
    # micro_batch 4 completions of 512 tokens). Under DeepSpeed (zero_stage 2) the logits are the model's bf16 output;
    # without it accelerate's native amp casts them to fp32 (tests/test_trl_fp32_outputs.py, traced)
    est = rl_estimate(_s(training_objective="grpo", framework="trl", zero_stage=2))
    logits = next(c for c in _phase(est, "training").components if c.key == "logits")
    assert logits.moments.forward == 3 * 2 * 4 * 512 * 151936
    assert logits.moments.backward_start == 4 * 2 * 4 * 512 * 151936
    # verl keeps the whole sequence's logits for flash-attn's fused kernel: the estimator's fused path unchanged
    verl = rl_estimate(_s(training_objective="grpo", framework="verl"))
    fused = training_estimate(scenario_from_dict({**BASE, "seq_len": 768, "framework": "verl",
                                                  "cross_entropy": "fused"}))
    assert _comp(_phase(verl, "training"), "logits") == next(c.peak_bytes for c in fused.components
                                                              if c.key == "logits")


def test_suggestions_for_post_training_are_priced_by_the_post_training_estimate():
    # each change is re-estimated as the post-training step it becomes: sleeping the engine frees what it holds while
    # the trainer works; switching the adapters off drops the reference copy (params x 2 bytes)
    from engine.planning.suggest import suggestions
    s = _s(training_objective="grpo", framework="trl", rollout_engine="vllm", method="lora",
           reference_model="separate", micro_batch=16)
    found = {tuple(sorted(sug.changes)): sug for sug in suggestions(s)}
    sleep = found[("rollout_sleep",)]
    assert sleep.estimate.rl is not None and sleep.saved_bytes > 0
    off = found[("reference_model",)]
    assert dict(off.estimate.rl.per_model_bytes).get("reference") is None
