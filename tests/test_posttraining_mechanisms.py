"""The post-training mechanisms modelled from the frameworks' sources (issue 22), each against the source's own
arithmetic and the CPU trace that ran that source (tests/data/ground_truth/posttraining, validation/
posttraining_traces.py)."""

import json

import pytest

from engine.accuracy import posttraining as pt
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.workloads import estimate, step_time

TRACES = {t["id"]: t for t in pt.read_traces()}
QWEN05_VOCAB, QWEN05_HIDDEN = 151936, 896  # Qwen2.5-0.5B config.json (the traces' hf_config)


def _phase(est, key):
    return next(p for p in est.rl.phases if p.key == key)


def _component(phase, key):
    return next(c for c in phase.components if c.key == key)


def test_trl_fused_head_backward_matches_its_source_and_trace():
    """trl 1.16.0 kernels/chunked_logprob.py backward: grad_weight and grad_hidden zeros in fp32, one
    min(N, TOKEN_CHUNK_SIZE=4096) x 32768 (_CHUNKED_LOGPROB_CHUNK_SIZE) buffer in bf16, both gradients returned
    cast to bf16. The trace of DPO on Qwen2.5-0.5B (2 pairs = 4 sequences of 1,024 tokens) records those buffers as
    the backward peak's "Temp" category."""
    trace = TRACES["qwen2.5-0.5b_trl-dpo_full_ref_p512_c512_b2_fused"]
    est = estimate(scenario_from_dict(trace["scenario"]))
    head = dict(_component(_phase(est, "training"), "logits").inputs)
    tokens = 4 * 1024
    expected = 4096 * 32768 * 2 + (4 + 2) * tokens * QWEN05_HIDDEN + (4 + 2) * QWEN05_VOCAB * QWEN05_HIDDEN
    assert head["head_backward_bytes"] == expected
    temp = trace["measured"]["peak_by_category"]["backward"]["Temp"]
    assert abs(expected - temp) / temp < 0.01


def test_trl_fused_head_with_lora_has_no_weight_gradient():
    """Under LoRA the lm_head is frozen: needs_weight_grad is False, no fp32 weight gradient."""
    trace = TRACES["qwen2.5-0.5b_trl-dpo_lora_refoff_p512_c512_b2_fused"]
    est = estimate(scenario_from_dict(trace["scenario"]))
    assert dict(_component(_phase(est, "training"), "logits").inputs)["weight_grad_bytes"] == 0


def test_verl_old_policy_scoring_holds_the_entropy():
    """verl fsdp_workers.py compute_log_prob: calculate_entropy = not is_lora (is_lora: the reference pass), so the
    old-policy pass runs entropy_from_logits over b x response x V: its softmax and softmax x logits, 2 bytes each
    in the traced bf16. The trace's scoring peak is within 3%."""
    trace = TRACES["qwen2.5-0.5b_verl-grpo_full_ref_p512_c1024_g8_b4_flash-ce_vllm"]
    est = estimate(scenario_from_dict(trace["scenario"]))
    score = _component(_phase(est, "scoring"), "score_policy")
    assert dict(score.inputs)["entropy_bytes"] == 2 * 2 * 4 * 1024 * QWEN05_VOCAB
    measured = trace["measured"]["rl_phases"]["scoring"]
    assert abs(_phase(est, "scoring").peak_bytes - measured) / measured < 0.03


def test_verl_reference_pass_copies_the_response_logits():
    """dp_actor.py padded path: logits[:, -r-1:-1, :] reshaped to (b·r, V) by logprobs_from_logits is a copy when
    b > 1; the reference pass computes no entropy, so the copy is its extra; the old-policy pass computes the entropy
    LoRA or not (the copy is freed before it)."""
    from engine.posttraining import phases
    from engine.posttraining.estimate import step_parts

    trace = TRACES["qwen2.5-0.5b_verl-grpo_lora_refoff_p512_c1024_g4_b4_flash-ce_vllm"]
    parts = step_parts(scenario_from_dict(trace["scenario"]))
    bcv = 4 * 1024 * QWEN05_VOCAB
    assert dict(phases._scoring_extras(parts, False)) == {"response_logits_copy_bytes": 2 * bcv,
                                                           "autocast_cache_bytes": 0.0, "lora_fp32_bytes": 0.0,
                                                           "gathered_units_bytes": 0.0}  # traced without FSDP
    assert dict(phases._scoring_extras(parts, True))["entropy_bytes"] == 2 * 2 * bcv


def test_rollout_max_num_batched_tokens_sizes_the_profile():
    """verl examples/tuning/7b/qwen2-7b_grpo-lora_1_h100_fsdp_vllm.sh passes rollout.max_num_batched_tokens=1536:
    the key reaches the engine's settings and a smaller profile run leaves the engine less activation memory."""
    rows = {r["id"]: r for r in pt.read_published()}
    sc = dict(rows["verl-tuning-7b-grpo-lora-1xh100"]["scenario"])
    assert sc["rollout_max_num_batched_tokens"] == 1536
    small = estimate(scenario_from_dict(sc))
    default = estimate(scenario_from_dict({**sc, "rollout_max_num_batched_tokens": None}))
    assert dict(small.rl.settings)["batched_tokens"] == 1536
    act = [dict(_component(_phase(e, "generation"), "rollout_activations").inputs)["activation_bytes"]
           for e in (small, default)]
    assert act[0] < act[1]
    assert json.loads(json.dumps(dict(small.rl.settings)))["batched_tokens"] == 1536


def test_trl_lora_scoring_holds_fp32_adapter_outputs():
    """peft tuners/lora/layer.py Linear.forward: x cast to the adapters' fp32, result + lora_B(lora_A(x)) * scaling:
    beside the base output, the input's fp32 cast and two tensors of the output's width (the MLP's at its up
    projection): fp32 without autocast, bf16 under accelerate's native amp (TRL without DeepSpeed, h-trlfp32: the
    trace runs through accelerate's prepare_model; autocast's linear returns bf16). The old-policy pass runs the
    adapters; the trace's scoring peak is within 3%."""
    from engine.posttraining import phases
    from engine.posttraining.estimate import step_parts

    trace = TRACES["qwen2.5-0.5b_trl-grpo_lora_refoff_p512_c1536_g8_b8_fused_vllm_ckpt"]
    parts = step_parts(scenario_from_dict(trace["scenario"]))
    tokens = 8 * (512 + 1536)
    assert dict(phases._scoring_extras(parts, True))["lora_fp32_bytes"] == tokens * (4 * QWEN05_HIDDEN + 2 * 2 * 4864)
    assert dict(phases._scoring_extras(parts, False))["lora_fp32_bytes"] == 0.0  # adapters disabled
    deepspeed = step_parts(scenario_from_dict({**trace["scenario"], "zero_stage": 2}))  # no native amp: fp32 outputs
    assert dict(phases._scoring_extras(deepspeed, True))["lora_fp32_bytes"] == tokens * 4 * (QWEN05_HIDDEN + 2 * 4864)
    est = estimate(scenario_from_dict(trace["scenario"]))
    measured = trace["measured"]["rl_phases"]["scoring"]
    assert abs(_phase(est, "scoring").peak_bytes - measured) / measured < 0.03


def test_rows_log_softmax_holds_two_rows():
    """TRL utils.py selective_log_softmax (bf16): `for row_logits, row_labels in zip(...): row_logps =
    F.log_softmax(row_logits)`; the previous row's output is still bound while the next is computed."""
    from engine.posttraining.logprobs import logprob_bytes

    one_row = 2 * 1024 * QWEN05_VOCAB
    assert logprob_bytes("rows", 8, 1024, QWEN05_VOCAB, QWEN05_HIDDEN, 2, 1) == 8 * one_row + 2 * one_row
    assert logprob_bytes("rows", 1, 1024, QWEN05_VOCAB, QWEN05_HIDDEN, 2, 1) == 2 * one_row


def test_critic_offload_apart_from_the_actor():
    """verl sets the critic's offload apart from the actor's (critic.model.fsdp_config.param_offload /
    optimizer_offload, false by default; TinyZero #107 offloads the actor only): with critic_offload none the
    critic's states stay on the GPU while `offload` still moves the actor's; auto follows `offload`."""
    rows = {r["id"]: r for r in pt.read_published()}
    sc = dict(rows["tinyzero-issue-107-ppo-1.5b-16k"]["scenario"])
    assert sc["critic_offload"] == "none" and sc["offload"] == "optimizer+params"
    apart = estimate(scenario_from_dict(sc))
    same = estimate(scenario_from_dict({**sc, "critic_offload": "auto"}))

    def critic_bytes(est):
        return dict(est.rl.per_model_bytes).get("critic", 0.0)

    def policy_bytes(est):
        return dict(est.rl.per_model_bytes).get("policy", 0.0)

    assert critic_bytes(apart) > critic_bytes(same)
    assert policy_bytes(apart) == policy_bytes(same)


def test_padded_batch_mask_matches_the_trace_per_layer():
    """transformers 5.25 integrations/sdpa_attention.py use_gqa_in_sdpa: with an attention mask SDPA gets no grouped
    K/V heads, so repeat_kv copies K and V to the 14 query heads (Qwen2.5-0.5B: 2 kv-heads of 64) and SDPA keeps the
    copies; the boolean mask converted to bf16 (b·s·s) is kept by every layer. The DPO trace (4 sequences of 1,024
    tokens, 24 layers) holds that much more in the backward peak's activations than the same step without a mask
    (the estimator's SFT step of the same tokens, checked against the SFT traces)."""
    trace = TRACES["qwen2.5-0.5b_trl-dpo_full_ref_p512_c512_b2_fused"]
    sc = trace["scenario"]
    rl = estimate(scenario_from_dict(sc))
    sft = estimate(scenario_from_dict({**sc, "training_objective": "sft", "micro_batch": 4, "seq_len": 1024,
                                       "reference_model": "auto"}))
    tokens = 4 * 1024
    per_layer = 2 * tokens * 2 * (14 - 2) * 64 + 2 * tokens * 1024
    extra = _component(_phase(rl, "training"), "activations").peak_bytes - next(
        c.peak_bytes for c in sft.components if c.key == "activations")
    assert extra == 24 * per_layer
    measured = trace["measured"]["peak_by_category"]["backward"]["Activation"]
    layers = _component(_phase(rl, "training"), "activations").peak_bytes
    head = _component(_phase(rl, "training"), "head_activations").peak_bytes
    assert abs(layers + head - measured) / measured < 0.01


def test_verl_row_by_row_log_softmax_holds_what_flash_attn_holds():
    """verl torch_functional.py logprobs_from_logits_v2 (no flash-attn): bf16 logits log-softmaxed one row at a time,
    each row's output kept for backward, as flash-attn's path keeps the response logits' copy: the traced training
    peaks of the two paths are equal, and so are the estimates but for flash-attn's fp32 per-token statistics (tens of
    kilobytes)."""
    torch_path = TRACES["qwen2.5-0.5b_verl-grpo_full_ref_p512_c1024_g8_b4_torch_vllm"]
    flash = TRACES["qwen2.5-0.5b_verl-grpo_full_ref_p512_c1024_g8_b4_flash-ce_vllm"]
    assert torch_path["measured"]["rl_phases"]["training"] == flash["measured"]["rl_phases"]["training"]
    a, b = (_phase(estimate(scenario_from_dict(t["scenario"])), "training") for t in (torch_path, flash))
    assert 0 <= b.peak_bytes - a.peak_bytes < 8 * 4 * 1536


def test_trl_dpo_reference_runs_inside_the_training_forward():
    """trl 1.16.0 dpo_trainer.py _compute_loss: the policy's forward, then the reference's under no_grad. With full
    logits (TRL before the fused head) the policy's logits are freed when its row-by-row log-softmax returns (only the
    rows' outputs are kept), so the reference adds its own peak less those logits, b·s·V x 2 bytes. Under DeepSpeed
    that holds; the trace runs through accelerate's prepare_model (h-trlfp32), whose fp32 logits selective_log_softmax's
    fp32 branch keeps for backward (gather and logsumexp save them): only one sequence's logsumexp temporary, s·V x 4
    bytes, is freed."""
    trace = TRACES["qwen2.5-0.5b_trl-dpo_full_ref_p512_c512_b2_full-logits"]
    est = estimate(scenario_from_dict(trace["scenario"]))
    inside = dict(_component(_phase(est, "training"), "reference_forward_in_step").inputs)
    assert inside["freed_bytes"] == 4 * 1024 * QWEN05_VOCAB
    ds = estimate(scenario_from_dict({**trace["scenario"], "zero_stage": 2}))
    ds_inside = dict(_component(_phase(ds, "training"), "reference_forward_in_step").inputs)
    assert ds_inside["freed_bytes"] == 2 * 4 * 1024 * QWEN05_VOCAB
    measured = trace["measured"]["phases"]["forward"]
    forward = sum(c.moments.forward for c in _phase(est, "training").components)
    assert abs(forward - measured) / measured < 0.01


def test_critic_packing_pads_the_critic_to_the_caps_apart_from_the_actor():
    """verl's critic pads unless critic.model.use_remove_padding (default False, volcengine/verl@ed498f9f
    ppo_trainer.yaml line 146) while the actor packs (actor_rollout_ref.model.use_remove_padding True): the critic
    runs prompt cap + response cap tokens a sequence (vllm_rollout_spmd.py line 270 pads the responses to
    response_length). play-verl's recommended Qwen2-7B PPO run (logs/verl_qwen2_7b_recommended.log at 7716a615)
    measures update_critic 99.2 s against update_actor 32.9 s on the same model and sequences: the critic's step
    under critic_packing none must be the longer by at least the token ratio's share of its matmuls, and its memory
    the larger; the actor's step is untouched."""
    sc = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
          "training_objective": "ppo", "method": "full", "fsdp": True, "checkpointing": "full", "packing": "padding-free",
          "critic_model": "same", "reference_model": "none", "prompt_len": 512, "prompt_len_mean": 94,
          "completion_len": 198, "max_completion_len": 1024, "num_generations": 1, "micro_batch": 4, "grad_accum": 8,
          "rollout_engine": "vllm"}
    packed = step_time(scenario_from_dict(sc))
    padded = step_time(scenario_from_dict({**sc, "critic_packing": "none"}))
    critic = {k: dict(t.rl_seconds)["critic"] for k, t in (("packed", packed), ("padded", padded))}
    tokens_ratio = (512 + 1024) / (94 + 198)
    assert critic["padded"] > 0.5 * tokens_ratio * critic["packed"]
    assert padded.step_seconds - dict(padded.rl_seconds)["critic"] == pytest.approx(
        packed.step_seconds - dict(packed.rl_seconds)["critic"], rel=0.2)  # the values pass moves too, not the actor
    # the critic's training phase holds the padded micro-batch's activations; the actor's phase keeps its own
    peaks = {k: {p.key: p.peak_bytes for p in estimate(scenario_from_dict({**sc, **extra})).rl.phases}
             for k, extra in (("packed", {}), ("padded", {"critic_packing": "none"}))}
    assert peaks["padded"]["critic_training"] > peaks["packed"]["critic_training"]
    assert peaks["padded"]["training"] == peaks["packed"]["training"]


def test_prompt_len_mean_is_what_the_engine_prefills_and_the_padded_passes_ignore():
    """verl's vLLM rollout strips each prompt's left padding (volcengine/verl@ed498f9f vllm_rollout_spmd.py
    _pre_process_inputs, lines 59-64): play-verl's padded Qwen2.5-0.5B PPO run logs prompt_length/mean 103.7 of the
    512 cap. prompt_len_mean shortens the generation's prefill (and its decode context) and leaves a padded
    (packing none) training step at prompt_len; a padding-free one runs the mean."""
    sc = {"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
          "training_objective": "grpo", "method": "full", "fsdp": True, "prompt_len": 512, "completion_len": 256,
          "num_generations": 4, "micro_batch": 4, "grad_accum": 4, "rollout_engine": "vllm"}
    whole, mean = (step_time(scenario_from_dict({**sc, **extra})) for extra in ({}, {"prompt_len_mean": 104}))
    assert dict(mean.rl_seconds)["generation"] < dict(whole.rl_seconds)["generation"]
    assert dict(mean.rl_seconds)["scoring"] == dict(whole.rl_seconds)["scoring"]
    free = {**sc, "packing": "padding-free"}
    free_whole, free_mean = (step_time(scenario_from_dict({**free, **extra})) for extra in ({}, {"prompt_len_mean": 104}))
    assert dict(free_mean.rl_seconds)["scoring"] < dict(free_whole.rl_seconds)["scoring"]


def _ppo_7b(**extra):
    sc = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
          "training_objective": "ppo", "method": "full", "fsdp": True, "checkpointing": "full", "packing": "padding-free",
          "critic_model": "same", "reference_model": "none", "prompt_len": 512, "prompt_len_mean": 94,
          "completion_len": 198, "max_completion_len": 1024, "num_generations": 1, "micro_batch": 4, "grad_accum": 8,
          "rollout_engine": "vllm"}
    return scenario_from_dict({**sc, **extra})


def test_the_critics_values_forward_runs_the_critics_own_model():
    """verl's compute_values runs the critic module (critic.model.path), not the actor: its forward's matmul seconds
    are 2 x the critic's active parameters x its tokens / the rate, so the scoring phase moves linearly with the critic
    model's parameters (the policy's own passes unchanged): the drop from 'same' (Qwen2.5-7B) to Qwen2.5-0.5B over the
    drop to Qwen2.5-1.5B is the ratio of the parameter differences."""
    scoring = {m: dict(step_time(_ppo_7b(critic_model=m)).rl_seconds)["scoring"]
               for m in ("same", "qwen2.5-0.5b", "qwen2.5-1.5b")}
    active = {m: model_spec_for(m).active_params for m in ("qwen2.5-7b", "qwen2.5-0.5b", "qwen2.5-1.5b")}
    expected = (active["qwen2.5-7b"] - active["qwen2.5-0.5b"]) / (active["qwen2.5-7b"] - active["qwen2.5-1.5b"])
    got = (scoring["same"] - scoring["qwen2.5-0.5b"]) / (scoring["same"] - scoring["qwen2.5-1.5b"])
    assert got == pytest.approx(expected, rel=1e-9)


def test_the_critics_values_forward_holds_its_own_layout_in_the_scoring_phase(monkeypatch):
    """critic_packing none: the critic's values forward (dp_critic.py compute_values, the same padded batch as its
    update, volcengine/verl@ed498f9f lines 48-68) runs prompt cap + response cap tokens a sequence (512 + 1024), as
    its update does (settings.critic_layout); the scoring phase's transient of it is sized at those tokens, where a
    packed critic runs the actor's (the mean prompt and completion, 94 + 198)."""
    from engine.posttraining import phases
    seen = {}

    def spy(key, *args, **kwargs):
        seen[key] = args[3]  # sequence_tokens
        return real(key, *args, **kwargs)
    real = phases.scoring_forward
    monkeypatch.setattr(phases, "scoring_forward", spy)
    estimate(_ppo_7b(critic_packing="none"))
    assert seen["score_values"] == 512 + 1024
    estimate(_ppo_7b())
    assert seen["score_values"] == 94 + 198
