"""Sharding, parallelism and set-up effects: each follows from what the frameworks keep per GPU."""

import pytest

from engine import estimate, kv_cache_bytes, resolve_model, scenario_from_dict

BASE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 2048}


def part(est, key):
    return sum(c.peak_bytes for c in est.components if c.key == key)


def run(**kw):
    return estimate(scenario_from_dict({**BASE, **kw}))


def test_zero_stages_shard_what_the_zero_paper_says():
    # ZeRO paper: stage 1 shards optimizer states (+ fp32 master), stage 2 adds gradients, stage 3 adds weights.
    d = 8
    plain = run(gpus_per_node=d, zero_stage=0)
    z1, z2, z3 = (run(gpus_per_node=d, zero_stage=z) for z in (1, 2, 3))
    assert part(z1, "optimizer_states") == pytest.approx(part(plain, "optimizer_states") / d)
    assert part(z1, "master_weights") == pytest.approx(part(plain, "master_weights") / d)
    assert part(z1, "gradients") == part(plain, "gradients")
    assert part(z2, "gradients") == pytest.approx(part(plain, "gradients") / d)
    assert part(z2, "weights") == part(plain, "weights")
    assert part(z3, "weights") == pytest.approx(part(plain, "weights") / d)
    assert part(z3, "zero3_gather") > 0  # gathered layers are transient, not free
    assert part(plain, "ddp_buckets") == part(plain, "gradients")  # DDP keeps a flat copy of the gradients


def test_fsdp_shards_states_like_zero3_but_keeps_its_own_buffers():
    a, b = run(gpus_per_node=8, fsdp=True), run(gpus_per_node=8, zero_stage=3)
    for key in ("weights", "gradients", "optimizer_states", "master_weights"):
        assert part(a, key) == part(b, key), key
    # FSDP2 keeps its root unit (embeddings, norm, lm_head) gathered all step (traced, see docs/accuracy.md)
    spec = resolve_model(scenario_from_dict({**BASE}))
    root = 2 * (spec.embedding_params + spec.head_params + spec.hidden)  # bf16 gathered under mixed precision
    gathered = next(c for c in a.components if c.key == "zero3_gather")
    assert gathered.moments[0] >= root


@pytest.mark.parametrize("framework", ["torchtitan", "torchtune", "fms-fsdp"])
def test_an_fsdp_only_frameworks_zero_stage_3_is_costed_as_its_fsdp(framework):
    # FSDP is these frameworks' only sharding (their parallelism rows: Parallelism.sharding(3) is fsdp), so a file
    # that states zero_stage 3 without the fsdp key (examples/qwen3-30b-a3b-8x-h100.json) runs their FSDP (FSDP2, or
    # fms-fsdp's FSDP1), not DeepSpeed's per-module gathers: the expected figures are the fsdp: true scenario's own.
    kw = {"framework": framework, "gpus_per_node": 8, "seq_len": 8192}
    stated_as_zero3, stated_as_fsdp = run(**kw, zero_stage=3), run(**kw, fsdp=True)
    assert part(stated_as_zero3, "zero3_gather") == part(stated_as_fsdp, "zero3_gather")
    assert stated_as_zero3.peak_reserved_bytes == stated_as_fsdp.peak_reserved_bytes
    # Hugging Face has DeepSpeed's ZeRO-3 besides FSDP: zero_stage 3 there stays DeepSpeed's buffers
    hf = {**kw, "framework": "huggingface"}
    assert part(run(**hf, zero_stage=3), "zero3_gather") != part(run(**hf, fsdp=True), "zero3_gather")


def test_tensor_parallel_splits_layers_and_sequence_parallel_splits_norms():
    one, tp2 = run(), run(gpus_per_node=2, tp=2)
    assert part(tp2, "weights") == pytest.approx(part(one, "weights") / 2, rel=0.01)  # norms are replicated
    act = part(tp2, "activations")
    assert part(one, "activations") / 2 < act < part(one, "activations")  # norms/residual stay full without SP
    sp = run(gpus_per_node=2, tp=2, sequence_parallel=True)
    # PyTorch SP halves everything per token, except that each column-parallel linear (q, k, v, gate, up) keeps
    # its own all-gathered full-sequence input where one shared norm output was kept before (traced).
    t, h, layers = 2048, 4096, 32
    gathered = layers * (5 * t * h * 2 - 2 * (t // 2) * h * 2)
    assert part(sp, "activations") == pytest.approx(part(one, "activations") / 2 + gathered, rel=0.01)
    assert part(sp, "activations") <= act  # on Llama-3-8B the gathered copies cancel what SP splits


def test_pipeline_stages_and_in_flight_microbatches():
    est = run(gpus_per_node=4, pp=4, grad_accum=8)
    assert [st.layers for st in est.stages] == [8, 8, 8, 8]
    assert [st.microbatches_in_flight for st in est.stages] == [4, 3, 2, 1]  # 1F1B
    first, last = est.stages[0], est.stages[-1]
    keys_last = {c.key for c in last.components}
    assert "logits" in keys_last and "logits" not in {c.key for c in first.components}
    assert est.busiest_stage == max(range(4), key=lambda i: est.stages[i].total_bytes)


def test_gradient_accumulation_keeps_gradients_alive_in_forward():
    # zero_grad(set_to_none=True) frees gradients only after the optimizer step: later micro-steps carry them.
    one, four = run(), run(grad_accum=4)
    assert four.phases["forward"] - one.phases["forward"] == pytest.approx(part(one, "gradients"))


def test_offload_moves_states_to_cpu_and_warns():
    est = run(gpus_per_node=8, zero_stage=2, offload="optimizer")
    assert part(est, "optimizer_states") == 0 and part(est, "master_weights") == 0
    assert any("slower" in str(w) for w in est.warnings)


def test_expert_parallel_scores_and_moe_states_use_total_params():
    sc = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "zero_stage": 3,
          "precision": "mixed-bf16", "seq_len": 2048}
    est, ep8 = estimate(scenario_from_dict(sc)), estimate(scenario_from_dict({**sc, "ep": 8}))
    spec = resolve_model(scenario_from_dict({"model": "qwen3-30b-a3b"}))
    # Traced (tests/data/ground_truth/distributed/*_ep*, torchtitan's all-to-all dispatch): the routing scores
    # multiply the returned expert outputs in fp32, so each MoE layer keeps 4 instead of 2 bytes per routed row
    # element (b·s·top_k x hidden); the dispatch buffers are gone by the loss.
    routed = 2048 * spec.top_k * spec.hidden
    assert part(ep8, "activations") - part(est, "activations") == pytest.approx(spec.layers * 2 * routed)
    # FSDP over 8 ranks or experts over 8 ranks (FSDP over the 8/8 holding the same ones): the same weight shard
    assert part(ep8, "weights") == pytest.approx(part(est, "weights"))
    assert spec.total_params > 9 * spec.active_params  # 30.5B total vs 3.3B active (model card)


def test_context_parallel_splits_the_sequence():
    one, cp2 = run(seq_len=8192), run(seq_len=8192, gpus_per_node=2, cp=2)
    spec = resolve_model(scenario_from_dict(BASE))
    # Traced (tests/data/ground_truth/distributed/*cp*): every saved tensor covers s/cp tokens, and on the busiest
    # cp rank the load-balanced ring's merged attention output is a copy o_proj keeps besides SDPA's output
    # (bf16, one b·s/cp·q_dim tensor per layer).
    ring_copy = spec.layers * 2 * (8192 // 2) * spec.q_dim
    assert part(cp2, "activations") - ring_copy == pytest.approx(part(one, "activations") / 2, rel=0.01)
    assert part(cp2, "activations") > part(one, "activations") / 2 + 0.9 * ring_copy


def test_checkpointing_and_eager_attention():
    none, full = run(precision="bf16"), run(precision="bf16", checkpointing="full")
    assert part(full, "activations") < part(none, "activations") / 10
    assert part(full, "recompute") > 0
    eager = run(precision="bf16", attention="eager")
    assert part(eager, "activations") > part(none, "activations")  # b·a·s² probabilities


def test_kv_cache_uses_kv_heads_not_hidden():
    # Llama-3-8B: 32 layers x 2 (K, V) x 8192 tokens x 8 KV heads x 128 x 2 bytes = exactly 1 GiB per sequence.
    spec = resolve_model(scenario_from_dict({"model": "llama-3-8b"}))
    assert kv_cache_bytes(spec, 1, 8192) == 2**30
    seed_004 = 1 * spec.layers * 2 * 8192 * spec.hidden * 2  # the seed's B x L x 2 x T x H x bytes
    assert seed_004 == 4 * kv_cache_bytes(spec, 1, 8192)  # 4x too much under GQA (32 query / 8 KV heads)


def test_qlora_storage_from_the_qlora_paper():
    from engine.memory.states import quantized_bytes_per_param

    # QLoRA paper section 3: NF4 = 4 bits + 32/64 bits of constants; double quantisation: 8/64 + 32/(64*256).
    assert quantized_bytes_per_param(4, False) == pytest.approx(0.5 + 0.5 / 8)
    assert quantized_bytes_per_param(4, True) == pytest.approx(0.5 + (8 / 64 + 32 / (64 * 256)) / 8)
    est = estimate(scenario_from_dict({**BASE, "model": "llama-2-7b", "method": "qlora", "precision": "bf16"}))
    assert part(est, "quantized_weights") == pytest.approx(6_476_005_376 * quantized_bytes_per_param(4, True),
                                                           rel=0.01)


@pytest.mark.parametrize("kw", [
    {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 4, "pp": 16, "tp": 2, "grad_accum": 32},
    {"model": "mixtral-8x7b", "gpus_per_node": 8, "pp": 4, "grad_accum": 8, "checkpointing": "full", "method": "lora"},
    {"model": "llama-3-8b", "gpus_per_node": 8, "pp": 8, "grad_accum": 3, "method": "freeze", "frozen_layers": 6},
])
def test_reused_pipeline_stages_equal_a_direct_computation(kw):
    """estimate() computes repeated stages once and rescales micro-batches in flight: it must change nothing."""
    from engine.memory.breakdown import phase_totals
    from engine.memory.estimators import estimator_for
    from engine.memory.parallelism.pipeline import micro_batches_in_flight, stage_layer_ranges
    from engine.memory.states import dtypes_for, layer_groups
    from engine.scenario.behaviour import behaviour

    s = scenario_from_dict({**BASE, **kw})
    est, spec, dt = estimate(s), resolve_model(s), dtypes_for(s)
    estimator = estimator_for(s, spec, dt, behaviour(s))
    for i, layers in enumerate(stage_layer_ranges(spec.layers, s.pp)):
        direct = estimator.stage(i, layers, layer_groups(s, spec, layers))
        assert direct.in_flight == est.stages[i].microbatches_in_flight == micro_batches_in_flight(s, i)
        assert phase_totals(direct.components) == pytest.approx(phase_totals(est.stages[i].components), rel=1e-12)


def _in_flight(est, stage=0):
    return est.stages[stage].microbatches_in_flight


def test_pipeline_schedules_keep_their_micro_batches_in_flight():
    # torch.distributed.pipelining: GPipe runs all forwards first; Schedule1F1B warms up with pp - stage forwards;
    # ScheduleInterleaved1F1B warms up (vpp-1)*per_round + 2*(pp-1-rank) chunk forwards, +1 before the first backward.
    kw = {"gpus_per_node": 4, "pp": 4, "grad_accum": 8}
    assert _in_flight(run(**kw, pp_schedule="gpipe")) == 8
    assert _in_flight(run(**kw)) == 4 and _in_flight(run(**kw), 3) == 1
    inter = run(**kw, pp_schedule="interleaved-1f1b", vpp=2)
    per_round = 8 // (8 // 4)
    assert _in_flight(inter) == ((2 - 1) * per_round + 2 * 3 + 1) / 2
    assert _in_flight(inter, 3) == ((2 - 1) * per_round + 1) / 2

    def first_stage_acts(est):
        return sum(c.peak_bytes for c in est.stages[0].components if c.key == "activations")
    assert first_stage_acts(run(**kw, pp_schedule="gpipe")) == pytest.approx(2 * first_stage_acts(run(**kw)))


def test_loss_parallel_splits_the_logits_over_tp():
    # Without loss_parallel PyTorch gathers the lm_head output: every rank holds full (b, s, V) logits.
    rep, split = run(gpus_per_node=4, tp=4), run(gpus_per_node=4, tp=4, loss_parallel=True)

    def logits_at(est, moment):
        return next(c.moments[moment] for c in est.components if c.key == "logits")
    assert logits_at(rep, 1) == pytest.approx(4 * logits_at(split, 1))  # loss backward: 3 fp32 b·s·V tensors
    # forward: the decomposed loss-parallel log-softmax keeps one more fp32 b·s·V/tp tensor (traced)
    tv = 2048 * 128256
    assert logits_at(rep, 0) - 4 * logits_at(split, 0) == pytest.approx(-4 * tv)


def test_torchtitan_splits_the_loss_over_tp_unless_told_not_to():
    # torchtitan's job_config: parallelism.disable_loss_parallel = false, so train.py runs the loss under
    # loss_parallel() whenever TP is on; "auto" (the default) follows that, an explicit false does not.
    def logits(**kw):
        return part(run(gpus_per_node=4, tp=4, framework="torchtitan", **kw), "logits")
    assert logits() == pytest.approx(logits(loss_parallel=True))
    assert logits(loss_parallel=False) > 3 * logits()
    # the other frameworks gather the logits unless the scenario says otherwise (unchanged default)
    assert part(run(gpus_per_node=4, tp=4), "logits") == pytest.approx(
        part(run(gpus_per_node=4, tp=4, loss_parallel=False), "logits"))


def test_megatron_pipeline_buffers_do_not_grow_with_micro_batches():
    # Megatron allocates each p2p receive when it happens (megatron/core/pipeline_parallel/p2p_communication.py):
    # received activations are the stage's saved inputs and sent outputs are freed (deallocate_pipeline_outputs),
    # while torch.distributed.pipelining allocates a receive buffer per micro-batch (traced, pp*-nokeep traces).
    kw = {"gpus_per_node": 4, "pp": 4, "precision": "bf16"}

    def buffers(framework, ga):
        est = run(**kw, framework=framework, grad_accum=ga)
        return sum(c.peak_bytes for c in est.stages[0].components if c.key == "pp_buffers")
    assert buffers("megatron", 64) == buffers("megatron", 8) == 2048 * 4096 * 2  # one b·s·h bf16 gradient
    assert buffers("pytorch", 64) == pytest.approx(8 * buffers("pytorch", 8))


def test_deepspeed_pipeline_engine_receives_into_buffers_allocated_once():
    # DeepSpeed's PipelineEngine (deepspeed/runtime/pipe/engine.py at edaa7221): _exec_recv_activations receives into
    # pipe_recv_buf and _exec_recv_grads into grad_layer, each allocated once; the last stage keeps a micro-batch's
    # output until its backward sets pipe_buffers['outputs'][id] = None, and only detached losses after that.
    kw = {"gpus_per_node": 4, "pp": 4, "precision": "bf16", "framework": "deepspeed"}

    def buffers(stage, ga):
        est = run(**kw, grad_accum=ga)
        return sum(c.peak_bytes for c in est.stages[stage].components if c.key == "pp_buffers")
    bsh = 2048 * 4096 * 2  # Llama-3-8B: hidden 4096, one sequence of 2048 in bf16
    assert buffers(1, 64) == buffers(1, 8) == 2 * bsh  # an activation and a gradient buffer on a middle stage
    # the last stage: its activation buffer and one micro-batch's bf16 logits (vocabulary 128256), not 64 of them
    assert buffers(3, 64) == buffers(3, 8) == pytest.approx(bsh + 2048 * 128256 * 2)


def test_no_reshard_after_forward_keeps_layers_gathered():
    kw = {"gpus_per_node": 8, "fsdp": True}
    assert part(run(**kw, reshard_after_forward=False), "zero3_gather") > 3 * part(run(**kw), "zero3_gather")


def test_megatron_style_tensor_parallelism_is_kept_apart():
    # Megatron-LM: vocabulary-parallel embedding and cross-entropy, SP inputs re-gathered in backward.
    kw = {"gpus_per_node": 4, "tp": 4, "sequence_parallel": True, "precision": "bf16"}
    torch_style, megatron = run(**kw), run(**kw, framework="megatron")
    assert part(torch_style, "tp_embedding_grad") > 0 and part(megatron, "tp_embedding_grad") == 0
    assert part(megatron, "logits") < part(torch_style, "logits") / 3
    assert part(megatron, "activations") < part(torch_style, "activations")


def test_automodel_interleaved_pipeline_keeps_a_receive_buffer_and_the_logits_per_micro_batch():
    # NeMo AutoModel runs torch.distributed.pipelining (the "pytorch" row): NVIDIA-NeMo/Automodel 36044ad3d
    # recipes/llm/train_ft.py steps with schedule.step(input_ids, target=targets, losses=losses), leaving
    # return_outputs at torch's default True, so the last stage keeps every micro-batch's output (the logits);
    # torch/distributed/pipelining/stage.py _prepare_forward_infra creates an activation receive buffer per
    # micro-batch (args_recv_info[chunk]) and _prepare_backward_infra a gradient one, for each stage a rank holds.
    kw = {"gpus_per_node": 2, "pp": 2, "vpp": 2, "pp_schedule": "interleaved-1f1b", "grad_accum": 8,
          "precision": "bf16", "framework": "pytorch"}
    est = run(**kw)

    def buffers(stage):
        return sum(c.peak_bytes for c in est.stages[stage].components if c.key == "pp_buffers")
    bsh = 2048 * 4096 * 2  # Llama-3-8B: hidden 4096, one sequence of 2048 in bf16
    # rank 0 holds stages 0 and 2: a gradient buffer for stage 0, an activation and a gradient buffer for stage 2
    assert buffers(0) == pytest.approx(3 * 8 * bsh)
    # rank 1 holds stages 1 and 3 (the last): 2 + 1 buffers per micro-batch and 8 micro-batches' bf16 logits
    assert buffers(1) == pytest.approx(3 * 8 * bsh + 8 * 2048 * 128256 * 2)
