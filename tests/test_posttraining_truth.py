"""The post-training ground truth (issue 22): the CPU traces and the published set are complete, sourced and read by
the loader; the estimate is held to them once the post-training engine exists.

Data integrity is checked here without the engine; each accuracy target below states where its figures come from
(tests/data/ground_truth/posttraining/*.json: validation/posttraining_traces.py; tests/data/published/
posttraining.json: the URL of every row)."""

import dataclasses

import pytest

from engine.accuracy import posttraining as pt
from engine.scenario import Scenario

ISSUE_KEYS = ("training_objective", "reference_model", "reward_model", "critic_model", "prompt_len", "completion_len",
              "num_generations", "rollout_engine")
TRACES = pt.read_traces()
PUBLISHED = pt.read_published()
HAS_KEYS = "training_objective" in {f.name for f in dataclasses.fields(Scenario)}
TRACE_BY_ID = {t["id"]: t for t in TRACES}


def test_traces_cover_the_issue():
    """>= 20 traced configurations: DPO, KTO, GRPO and PPO; TRL and verl; full and LoRA; every reference mode the trainers
    offer; both log-prob paths of each framework; several sequence lengths and generation counts."""
    assert len(TRACES) >= 20
    scenarios = [t["scenario"] for t in TRACES]
    assert {s["training_objective"] for s in scenarios} == {"dpo", "kto", "grpo", "ppo"}
    assert {s["framework"] for s in scenarios} == {"trl", "verl"}
    assert {s["method"] for s in scenarios} == {"full", "lora"}
    assert {s["reference_model"] for s in scenarios} == {"separate", "adapter-off", "precomputed", "none"}
    assert {s["cross_entropy"] for s in scenarios} == {"fused-linear", "chunked", "fused"}
    assert len({s["prompt_len"] + s["completion_len"] for s in scenarios}) >= 4
    assert len({s["num_generations"] for s in scenarios if s["training_objective"] == "grpo"}) >= 2


@pytest.mark.parametrize("trace", TRACES, ids=[t["id"] for t in TRACES])
def test_each_trace_is_complete(trace):
    path = pt.TRACE_DIR / f"{trace['id']}.json"
    assert path.stat().st_size < 200_000
    assert {"torch", "transformers", "trl", "peft", "verl"} <= set(trace["versions"])
    assert set(ISSUE_KEYS) <= set(trace["scenario"])
    measured = trace["measured"]
    assert measured["rl_phases"]["training"] > measured["baseline_bytes"] > 0
    if "scoring" in measured["rl_phases"]:
        assert measured["rl_phases"]["scoring"] >= measured["baseline_bytes"]
    assert measured["peak_allocated_bytes"] == max(measured["phases"].values())


def test_published_set_size_and_figures():
    assert len(PUBLISHED) >= 40
    assert sum(1 for r in PUBLISHED if r.get("measured_bytes")) >= 15
    assert any(r["outcome"] == "oom" for r in PUBLISHED)
    ids = [r["id"] for r in PUBLISHED]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("row", PUBLISHED, ids=[r["id"] for r in PUBLISHED])
def test_each_published_row_is_sourced(row):
    assert pt.integrity_problems(row) == []
    assert row["lengths"] in pt.LENGTHS and row["lengths_basis"]


LOGGED = [r for r in PUBLISHED if r["lengths"] == "logged"]


@pytest.mark.parametrize("row", LOGGED, ids=[r["id"] for r in LOGGED])
def test_logged_lengths_are_the_steps_statistics(row):
    """A row at logged lengths enters the step's logged means (rounded) and keeps the logged maxima as its bound.
    verl's rows: each rank's sequences split in order into micro-batches of micro_batch (dp_actor.py update_policy,
    966c845), so global_seqlen/balanced_max over the busiest rank's micro-batches, its average micro-batch, equals
    micro_batch x (prompt mean + response mean) within 0.1% (the balancing evens the ranks out)."""
    stats, sc = row["logged_statistics"], row["scenario"]
    assert (sc["prompt_len"], sc["completion_len"]) == (round(stats["prompt_length/mean"]),
                                                        round(stats["response_length/mean"]))
    assert row["bound_lengths"] == {"prompt_len": stats["prompt_length/max"],
                                    "completion_len": stats["response_length/max"]}
    if row["framework"] == "verl":
        per_rank = sc["num_generations"] * row["settings"]["data.train_batch_size"] // sc["gpus_per_node"]
        average = stats["global_seqlen/balanced_max"] / (per_rank // sc["micro_batch"])
        mean = sc["micro_batch"] * (stats["prompt_length/mean"] + stats["response_length/mean"])
        assert average == pytest.approx(mean, rel=1e-3)
        assert sc["packing"] == "padding-free" and row["settings"]["actor_rollout_ref.model.use_remove_padding"]


def test_integrity_check_names_what_is_missing():
    """A row without a source or with a figure on a run that ran out of memory is refused with a reason."""
    good = next(r for r in PUBLISHED if r.get("measured_bytes"))
    assert "no url" in pt.integrity_problems({**good, "url": ""})
    assert "a figure on a run that did not run" in pt.integrity_problems({**good, "outcome": "oom"})
    logged = next(r for r in PUBLISHED if r.get("metric") == "reserved")
    assert any("logging code" in p for p in pt.integrity_problems({**logged, "metric_basis": "the trainer's log"}))
    bound = next(r for r in PUBLISHED if r.get("bound_basis"))
    assert any("bound_basis" in p for p in pt.integrity_problems({**bound, "bound_basis": ""}))
    logged = next(r for r in PUBLISHED if r["lengths"] == "logged")
    assert any("lengths_basis" in p for p in pt.integrity_problems({**logged, "lengths_basis": ""}))
    assert any("lengths_basis" in p for p in pt.integrity_problems({**logged, "logged_statistics": {}}))
    assert any("bound_lengths" in p for p in pt.integrity_problems({**logged, "bound_lengths": None}))
    assert any("lengths is not" in p for p in pt.integrity_problems({**logged, "lengths": "guessed"}))


def test_swift_figures_read_as_the_trainers_log():
    """ms-swift's example comments quote memory beside s/it, the two figures of the trainer's log line, whose
    memory(GiB) is max_memory_reserved (swift/megatron/callbacks/print.py, swift/trainers/patcher.py at 3602360):
    every ms-swift example row with a figure is read as reserved, with that source."""
    rows = [r for r in PUBLISHED if r["framework"] == "ms-swift" and r.get("measured_bytes")
            and "examples/" in r["source"]]
    assert len(rows) >= 14
    for r in rows:
        assert r["metric"] == "reserved", r["id"]
        assert "3602360a562313afbf2ef6065fdf61f271a2c5b9" in r["metric_basis"], r["id"]


@pytest.mark.skipif(not HAS_KEYS, reason="the post-training keys are not declared on this branch yet")
def test_every_scenario_parses():
    from engine.scenario import scenario_from_dict

    for entry in [*TRACES, *PUBLISHED]:
        assert scenario_from_dict(entry["scenario"]).training_objective == entry["scenario"]["training_objective"]


# ---- the estimate against the ground truth (needs engine/posttraining, merged from h-rl) ----

ENGINE = pytest.mark.skipif(not HAS_KEYS, reason="the post-training engine is not on this branch yet")


@pytest.fixture(scope="module")
def trace_rows():
    return pt.trace_rows()


@pytest.fixture(scope="module")
def published_rows():
    return pt.published_rows()


@ENGINE
def test_traced_training_phase(trace_rows):
    """Issue 22's target is median |error| <= 3% and worst <= 10% per phase. Reached (h-rltrace, 33 configurations):
    training median 0.0%, p90 0.8%, worst 2.6% (h-rlfix: 4.0% / 6.4% over 29; h-rl 63b5816: 5.5% / 12.9%). Closed,
    each from its source, by: the padded batch's attention mask in SDPA (transformers 5.25 integrations/
    sdpa_attention.py use_gqa_in_sdpa: K and V repeated to every head; the mask in the compute dtype kept per layer);
    the row-by-row log-softmax's own tensors (verl logprobs_from_logits_v2 keeps what flash-attn's path keeps; TRL
    GRPO's in-place temperature on a sliced view: the entropy's copy and CopySlices' 4 x b·k·V); the reference scored
    inside TRL's DPO/KTO step after the policy's logits are freed; TRL 1.16's fused head (trl/kernels/
    chunked_logprob.py) before the last layer's backward scratch and the first recompute.
    h-trlfp32 re-traced TRL's DPO, KTO and GRPO steps through accelerate's prepare_model (bf16 native amp): the worst
    is now the checkpointed LoRA GRPO step, -6.3% (-2.6% without the wrapper): its backward peak holds 0.22 GiB more
    than one recomputed layer with bf16 adapter casts and the layer's backward scratch (the scratch does not count
    the adapters' input gradients, which autocast passes through a bf16 gradient and its fp32 cast back; not
    established). Every other case within 1.5% (the checkpointed DPO step, +1.5% as before)."""
    stats = pt.error_stats(r.phase_error("training") for r in trace_rows)
    print("\n" + pt.trace_table(trace_rows))
    assert stats["count"] == len(TRACES)
    assert stats["median"] <= 0.005  # target 0.03
    assert stats["worst"] <= 0.07  # target 0.10
    for group in ("objective", "framework"):
        for name, s in pt.trace_summary(trace_rows, "training")[group].items():
            assert s["median"] <= 0.005 and s["worst"] <= 0.07, name
    assert sorted(abs(r.phase_error("training")) for r in trace_rows)[-2] <= 0.02


@ENGINE
def test_traced_scoring_phase(trace_rows):
    """Target median <= 3%, worst <= 10%. Reached (h-rltrace, with KTO's policy pass over its KL batch): median 0.2%,
    worst 2.3% (h-rlfix: 0.1% / 2.3% without KTO; h-rl 63b5816: 15% / 39%).
    Closed by, each from its source: a no-grad pass peaks inside a layer or at the head, not both (nothing is kept
    between layers); verl's old-policy pass computes every response token's entropy (fsdp_workers.py
    compute_log_prob: calculate_entropy = not is_lora, where is_lora marks the reference pass through the
    adapter-disabled actor; torch_functional.py entropy_from_logits: softmax and softmax x logits over b·r·V);
    verl's padded path copies the response slice of the logits before flash-attn's cross-entropy; autocast's bf16
    weight cache of the fp32 actor; TRL's fused head's projection buffer; peft's fp32 adapters' outputs at the MLP's
    width (tuners/lora/layer.py Linear.forward); selective_log_softmax's loop holding two rows."""
    errors = [r.phase_error("scoring") for r in trace_rows if "scoring" in r.measured]
    stats = pt.error_stats(errors)
    assert stats["count"] >= 10
    assert stats["median"] <= 0.005  # target 0.03
    assert stats["worst"] <= 0.03  # target 0.10


@ENGINE
def test_published_figures(published_rows):
    """Target: median |error| <= 10% on the rows with a figure. The figures compared are the rows whose tokens per
    step are the run's own (packed to max_length); rows at maximum lengths are held as bounds (below). All five are
    ms-swift example scripts; h-rlpub2 reads their figure as what ms-swift's trainers log, memory(GiB) =
    torch.cuda.max_memory_reserved() (swift/megatron/callbacks/print.py, swift/trainers/patcher.py at 3602360; the
    comments quote it beside the log line's s/it), where h-rl/h-rlpub read it as the device's memory in use
    (reserved + 1 GiB of CUDA context). Every row was already below its figure but one, so reading the statistic the
    source logs widens the gap: median 14.6% -> 18.7%. ms-swift's Megatron trainers take the log-probs from the
    model's own per-token loss (Megatron's vocab-parallel cross-entropy, 6 bytes per logit, as the supervised
    estimator holds it) and run the reference before the policy (tests/test_posttraining_published_mechanisms.py):
    median 16.7%. Per row (as nvidia-smi / as reserved / with the Megatron loss): swift-packing DPO 7B ZeRO-3 -4.8% /
    -6.8% / -6.8%, Megatron KTO 7B TP 4 +2.2% / -0.7% / -0.1%, Megatron DPO Qwen3-4B TP 4 -14.8% / -19.2% / -18.3%,
    Megatron KTO Qwen3-30B-A3B LoRA EP 2 -14.6% / -18.7% / -16.7%, Megatron reward model on it -24.6% / -26.9% /
    -26.9%. h-rlswift: Megatron LoRA as ms-swift's mcore-bridge builds it adapts every routed expert and keeps an
    fp32 master and main_grad for the bf16 adapters (tests/test_megatron_lora_states.py): KTO MoE LoRA -11.1%,
    reward model -21.0%, median 11.1%. Two more rows (ms-swift's Megatron Qwen2.5-VL-7B examples, packed): DPO TP 4
    -12.8%, reward model TP 2 +12.6% (then the first row above its figure). Two Megatron facts from the source
    (tests/test_megatron_swift_states.py): the optimizer reads the fp32 main_grad buffer itself (no fp32 gradient
    copy at the step) and the vision tower is whole on every TP rank: every row below its figure again, median
    11.6% over 7 (DPO 4B -24.1%, KTO 7B -11.6%, DPO VL -20.8%, RM VL -3.9%). The rest of what ms-swift's runs hold
    beyond the estimate is not found yet (docs/posttraining.md). h-swiftgap: Megatron's fused cross-entropy (ms-swift's
    default) holds 10 bytes per logit in its compiled backward, and the reference's vision tower is whole too
    (tests/test_megatron_fused_loss.py): median 8.9% over 7, the issue's 10% met on these rows. h-rlpub4 adds the first
    verl row with the run's own lengths: dingxianzhong/play-verl's PPO Qwen2.5-0.5B run (8 x 80 GB, verl of
    2025-04-30) ran with use_remove_padding false and no dynamic batches, so every micro-batch holds 512 + 256 padded
    tokens whatever the data (verl pads prompts to max_prompt_length and responses to response_length): -5.4% of
    its perf/max_memory_allocated_gb (allocated-engine-pool); and Bihan/dstack-configs' quickstart PPO Qwen2.5-7B on
    2 x 8 80 GB GPUs (verl of 2025-05-22, padded the same way): +16.2%. Median 8.9% over 9 (verl 10.8% over 2).
    h-verllens compares verl's 14 GRPO-LoRA baselines (eric-haibin-lin/verl-data) at the step's logged mean lengths
    (lengths "logged": each rank's micro-batches hold responses of many prompts in the batch's order, on average
    micro_batch x (prompt_length/mean + response_length/mean) tokens, which global_seqlen/balanced_max confirms),
    with packing padding-free as the runs' use_remove_padding: verl divides a view of the padding-free logits in
    place, so the update's backward runs CopySlices over them, 4 x b·s·V (tests/test_verl_padding_free_logits.py).
    Per row (before CopySlices -> now): GSM8K 0.5B -29.8% -> -14.7%, 1.5B -21.0% -> -7.1%, 3B -20.2% -> -8.2%, 7B
    -6.3% -> -2.8%, 14B +10.7% -> +13.5%, 32B +8.0% -> +13.8%, 72B +6.9% -> +10.6%; MATH 0.5B -26.0% -> -9.4%, 1.5B
    -23.4% -> -8.7%, 3B -19.3% -> -6.0%, 7B -7.0% -> -2.4%, 14B -3.7% -> -0.4%, 32B +0.9% -> +8.1%, 72B +1.6% ->
    +6.1%. The mean is the average micro-batch: the step's largest one holds more (not logged), the direction of
    the small models' rows. Median 8.2% over 23 (verl 8.1% over 16, GRPO 8.1% over 14)."""
    summary = pt.published_summary(published_rows)
    stats = summary["framework"]["all"]
    print("\n" + pt.published_table(published_rows))
    assert stats["count"] >= 23  # target 15
    assert stats["median"] <= 0.10  # the issue's target


@ENGINE
def test_published_bounds(published_rows):
    """Rows with a figure whose run's lengths are only bounded (ms-swift truncates or drops sequences past
    max_length: the bound_basis of each row) are held to the estimate at the maximum lengths: the figure must lie at
    or below it. Target: every one. Reached (h-rlpub2): 4 of 9 (3 before the Megatron loss); the 5 above it are
    ms-swift rows 7-31% above the estimate even at the maximum lengths (benchmarks/posttraining_accuracy.py lists
    them), the same direction as the compared rows: the estimate misses part of what ms-swift's runs hold.
    h-rlpub3 adds verl's own GRPO-LoRA baselines (eric-haibin-lin/verl-data, linked from verl docs/algo/baseline.md),
    step 1 of each log, read as verl's perf/max_memory_allocated_gb counts them (metric allocated-engine-pool: vLLM's
    sleep pool stays in torch's counters, tests/test_verl_offload_and_engine_pool.py) at the step's maximum lengths:
    6 of 7 at or below the estimate (0.5B +28.6%, 1.5B +46.8%, 3B +9.0%, 14B +19.0%, 32B +22.2%, 72B +21.5%), the
    7B one 2.1% above it. h-rlpub4 adds the same recipe's MATH runs (prompt 1,024 / response 512, step 1 at
    prompt_length/max 437, response_length/max 512): 3 of 7 at or below the estimate (14B +5.0%, 32B +16.8%, 72B
    +15.0%); 0.5B -11.3%, 1.5B -5.8%, 3B -2.6%, 7B -0.8% above it, the GSM8K rows' direction (verl's entropy over
    the vocabulary with gradients, entropy_coeff 0.001, is not held yet).
    h-verl (entropy_coeff 0.001 as the logs state, verl's compiled entropy in the update, FSDP1's root kept
    gathered): the GSM8K rows all 7 (0.5B +46.7%, 1.5B +73.3%, 3B +35.4%, 7B +3.4%, 14B +20.2%, 32B +18.9%, 72B
    +17.7%); with the MATH rows' entropy_coeff 0.001 set as their logs state, all 7 of those too (0.5B +19.8%,
    1.5B +23.0%, 3B +22.7%, 7B +7.8%, 14B +10.6%, 32B +15.2%, 72B +11.9%): 18 of 23. h-verllens compares the 14
    verl rows at their logged lengths and keeps these bounds at the maxima (bound_lengths) as a second check: all 14
    still hold (with CopySlices on the padding-free logits: +9.6% to +115.8%)."""
    summary = pt.published_summary(published_rows)
    assert summary["bound"] >= 23
    assert summary["bound_held"] >= 18  # target: summary["bound"]
    assert all(r.bound_error is not None and r.bound_error < 0
               for r in published_rows if r.id in summary["bound_broken"])
    logged = [r for r in published_rows if r.lengths == "logged"]
    assert len(logged) >= 14 and all(r.bound_held for r in logged)


@ENGINE
def test_published_verdicts(published_rows):
    """Target: every OOM row judged "does not fit", no run that ran judged so: both met since h-vtight (the 7B
    tuning row's engine shortfall lies within the start-up band, so it is "tight"). Reached (h-rlpub): no run that ran
    (with its own lengths) is judged "does not fit"; all 4 compared OOM rows are (h-rl 63b5816: 2 of 6). Closed by mechanisms
    read from the frameworks' sources (tests/test_posttraining_published_mechanisms.py): trl-issue-3168 ran in fp32
    (trl dpo_config.py at v0.16.0 sets no bf16; bf16=True became the default in PR #3515, June 2025):
    selective_log_softmax's log-sum-exp branch holds four fp32 logits-sized tensors in backward, 91 of 80 GiB;
    openrlhf-issue-887: OpenRLHF's Actor.forward casts the logits to fp32 (actor.py, PR #634), 21.5 GiB for 37,888
    tokens, kept through backward beside its fp32 gradient and the gradient's cast, 111 of 80 GiB. Left out with
    their reason in the data: verl-issue-855 (the command as stored is cut off before
    rollout.gpu_memory_utilization, which decides the verdict) and tinyzero-issue-107 (TinyZero's verl 0.1 fork
    sizes vLLM's KV cache from the free memory and keeps the entropy in the actor's graph; Ulysses sequence
    parallelism is not a planner key)."""
    summary = pt.published_summary(published_rows)
    # h-verltune2: the runs that ran are judged at their own lengths or, for verl's tuning table, at the lengths their
    # data had (lengths "dataset"); 10 of those 11 fit. verl-tuning-7b-grpo-lora-1xh100's vLLM 0.8 V0 engine is
    # short at any length once its LoRA stacks are counted: by ~17 MiB at nvidia-smi's total; with the CUDA-visible
    # total vLLM budgets from and its weight figure's allocator rounding and rotary cache, no KV block at all, 200 MiB
    # short of one request (h-verl7b; tests/test_vllm_release_accounting.py, docs/posttraining.md). h-vtight: 200 MiB
    # is 1.2% of its 16,218 MiB budget, within the start-up accounting's measured uncertainty (the largest |KV pool
    # error| of the published vLLM start-up logs, 2.73% of the budget: presets/engine_startup_band.json), so the
    # engine "may refuse" and the row is judged "tight"; every OOM row stays "does not fit" (none of their engines is
    # near the band: their margins are 26% to 93% of the budget).
    # h-verllens: verl's padding-free update divides the logits in place on a view (CopySlices: 4 logits-sized
    # tensors in backward, tests/test_verl_padding_free_logits.py); verl-tuning-32b-grpo-lora-4xh100 runs Ulysses
    # (so padding-free) and was then over by 1.8 GiB at its data's mean lengths (81.5 of 79.65 GiB). h-verlfit:
    # CopySlices runs in the head's backward, before FSDP's pre-backward hook on the model's output (the output's
    # gradient, the prefetched layer) and before the first recompute and its scratch, so those are not summed with
    # its four tensors (tests/test_verl_padding_free_logits.py), and verl shards its adapters over the FSDP ranks: 67.1 GiB
    assert summary["ran_judged_not_fitting"] == []
    assert summary["oom"] >= 4
    assert summary["oom_missed"] == []
