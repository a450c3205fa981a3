"""The post-training TIME against measured runs (issue 23; tests/data/published/posttraining_time.json, report
benchmarks/posttraining_time_accuracy.py). The measured figures are the logged timing_s of verl's GRPO-LoRA baseline
logs (eric-haibin-lin/verl-data) and the step times of NeMo-RL's performance summary (NVIDIA-NeMo/RL
docs/about/performance-summary.md), each row's source and url; the expected values below are recomputed from the stored
rows, never typed in, and the held error bounds are the report's own figures at this commit (stated per test), so a
change of the model that moves them must move these bounds and say so."""

from __future__ import annotations

import statistics

import pytest

from engine.accuracy import posttraining_time as ptt
from engine.accuracy.posttraining import error_stats


def test_every_row_is_complete_and_sourced() -> None:
    rows = ptt.read_rows()
    assert len(rows) >= 10
    for row in rows:
        assert ptt.integrity_problems(row) == [], row["id"]
        assert row["source_name"] and row["id"].split("-")[0] in row["source_name"], row["id"]
    assert len({row["source_name"] for row in rows}) >= 2  # one source on one stack cannot tell a wrong model


def test_measured_phase_is_the_median_of_the_logged_steps() -> None:
    # the 7B row: steps 2 and 3 of gsm8k/Qwen2.5-7B-...-score0.934.log log timing_s/gen 26.800 and 26.814,
    # old_log_prob 2.312 / 2.334 and ref 1.055 / 1.149
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    measured = ptt.measured_phases(row)
    gens = [s["timing_s"]["gen"] for s in row["steps"]]
    scoring = [s["timing_s"]["old_log_prob"] + s["timing_s"]["ref"] for s in row["steps"]]
    assert measured["generation"] == statistics.median(gens)
    assert measured["scoring"] == statistics.median(scoring)
    assert set(measured) == set(ptt.PHASES)


def test_the_scenario_runs_the_logged_batch() -> None:
    # every GRPO-LoRA baseline row ran 64 prompts x rollout.n 5 = 320 sequences a step; the logged
    # perf/total_num_tokens over the mean lengths says so within rounding, and the scenario holds them as micro_batch x
    # grad_accum x GPUs (the FSDP2 row of verl-data is checked on its own batch below)
    for row in ptt.read_rows():
        if row["source_name"] != "verl-data" or "-grpo-lora-" not in row["id"]:
            continue
        s = row["scenario"]
        for step in row["steps"]:
            per_sequence = step["prompt_length_mean"] + step["response_length_mean"]
            assert abs(step["perf_total_num_tokens"] / per_sequence - 320) < 1.0, row["id"]
        assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == 320, row["id"]


def test_summary_matches_the_rows_and_holds_the_reported_gap() -> None:
    compared = ptt.compare()
    summary = ptt.summary(compared)
    for phase in ptt.PHASES:
        expected = error_stats(e for c in compared if (e := c.error(phase)) is not None)
        assert summary["all"][phase] == expected
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py, 7 rows, the offload copies in the
    # phase whose timer holds them): every phase estimated short, generation the most (median signed -85.2%: vLLM's
    # eager decode iteration measures 49-183 ms where the roofline, the host's eager launches and V0's serial output
    # processing give 13-47 ms; -95.8% before the output processing was counted), then update (-63.3%) and scoring
    # (-54.9%; -70.5% when it counted matmul FLOPs alone); the whole step -77.6% (-86.6% before); decoding until each
    # step's longest completion (max_completion_len, the logged response_length/max; engine/posttraining/
    # longest_completion.py): generation -85.2% -> -80.5%, the step -77.6% -> -72.9%; V0's scheduling and input
    # preparation per running sequence (engine/posttraining/engine_loop.py schedule_input_seconds, WukLab's vLLM
    # 0.5.4 measurement): generation -80.5% -> -74.9%, the step -72.9% -> -68.2%; the LoRA sync's full-precision
    # gather and vLLM's level-1 sleep copies (adapter_sync.py), the adapters' FSDP units (adapter_units.py): scoring
    # -54.8% -> -53.1%, update -63.2% -> -58.0%; the engine's punica kernels of the served adapters launched from
    # Python (engine/posttraining/engine_adapters.py, h-enginelora): generation -74.6% -> -53.7%, the step -67.7% ->
    # -55.0%, so generation is no longer the shortest phase (update -58.0%); verl's passes over the padding-free
    # logits beyond the loss path's (engine/posttraining/vocab_passes.py: the temperature's div_, the compiled entropy,
    # the out-of-place cross-entropy gradient, from verl 9466d371e dp_actor.py lines 160-178), h-rlupdate: update
    # -58.0% -> -56.7%, scoring -56.9% -> -56.5%, the step -54.8% -> -54.7%; then V0's sampler, its Python per running
    # sequence with the sampled token's log-prob (engine/posttraining/engine_sampler.py, h-rlgen: vLLM 0.7.3's
    # Sampler.forward timed by benchmarks/vllm_v0_sampler_host.py): generation -53.7% -> -52.3%, the step -54.7% ->
    # -54.0%; FSDP1's own Python per visit of the adapters' units (adapter_units.py FSDP1_PYTHON_VIEW_CALLS, measured
    # by benchmarks/verl_lora_host_counts.py running the logs' transformers / peft / FSDP1 code path on the CPU),
    # h-rlops: update -56.7% -> -11.5%, scoring -56.5% -> -31.0%, the step -54.0% -> -43.2%; vLLM V0's own Python of
    # the eager decode forward beyond its counted calls and of its LoRA layers (eager_decode.py
    # VLLM_V0_LAYER_PYTHON_VIEW_CALLS, engine_adapters.py LORA_PYTHON_VIEW_CALLS_PER_LINEAR, measured by
    # benchmarks/vllm_v0_eager_decode_host.py running vllm 0.7.3's Qwen2 and LoRA code on the CPU), h-vllmeager:
    # generation -52.3% -> -13.0%, the step -43.2% -> -13.1%, so scoring is the shortest phase and the 3B row's step
    # (generation +22.3%) the one estimated long; the eager
    # Hugging Face layer's own Python beyond its counted calls and the padding-free flash path's 4 host syncs a layer
    # forward (hf_host.py hf_layer_python, measured by benchmarks/hf_layer_host_seconds.py; h-hflayer): scoring about
    # one point nearer, update and step unchanged to 0.1
    # the figures below are the seven GRPO-LoRA baseline logs' on GSM8K (the FSDP2 run h-rlrows3 added from the same
    # repository, and the MATH / GSM8K + MATH runs of the recipe h-rlrows4 added, are held by their own tests)
    verl_data = [c for c in ptt.groups(compared)["source verl-data"] if c.id.startswith("verl-data-time-grpo-lora-qwen")]
    assert len(verl_data) == 7
    # vLLM admits a waiting sequence as a running one ends (engine/posttraining/generate_calls.py decode_passes; vLLM
    # 0.7.3 scheduler.py _schedule_default), h-nemomoe2: the 3B row's 320 sequences on an engine holding 232 decode
    # 320 / 232 = 1.38 passes of the mean completion, not 2 whole waves: generation +27.0% -> -1.6%, the step
    # +21.1% -> -1.8%, so no verl-data row is estimated long
    # the reshard's collection of the adapters per FSDP unit, adapter tensor and parameter byte (engine/posttraining/
    # adapter_summon.py: verl 9466d371e layered_summon_lora_params, FSDP1's _unshard_fsdp_state_params and DTensor
    # state dict, its DTensor chunks and full_tensor measured by benchmarks/verl_dtensor_state_dict_host.py), h-verltp8:
    # 17 ms a layer, so the 3B row (the one near zero) goes from -0.0% to +0.8% in the step and -0.3% to +0.7% in
    # generation; every other GSM8K row stays short
    assert [c.id for c in verl_data if c.error("step") > 0] == ["verl-data-time-grpo-lora-qwen2.5-3b-2gpu"]
    three_b = next(c for c in verl_data if c.id == "verl-data-time-grpo-lora-qwen2.5-3b-2gpu")
    assert -0.05 < three_b.error("generation") < 0.02 and -0.05 < three_b.error("step") < 0.02
    # one currency for build-host timings (engine_sampler.py run_host_per_build_host_second: the V0 sampler and V1's
    # output processing in the build host's view calls at view_seconds, as the other measured host terms; lead,
    # after h-review17): generation -13.0% -> -9.6%, the step -13.0% -> -10.2%; padding-free micro-batches of a fixed
    # count of sequences at their longest rank's tokens (engine/posttraining/rank_imbalance.py, verl 9466d371e
    # dp_actor.py batch.split / mini_batch.split, FSDP's gathers tying the ranks), h-verlscore: scoring -24.8% ->
    # -17.5%, update -11.5% -> -5.0% (the 8-GPU rows' 8-sequence micro-batches, factor 1.20-1.24), so the update is
    # now nearer than generation (-8.5%, unchanged) and scoring the shortest; h-verldynbsz: each row's spread from its
    # log (sequence_len_std, global_seqlen/minmax_diff on steps 2-4 over 2 e_n sqrt(sequences a rank): 1.23 / 0.79 /
    # 1.73 of the assumed on the 2-GPU rows, 1.16-1.19 and 0.95 (72B) on the 8-GPU rows): scoring -17.5% -> -17.2%,
    # update -5.0% -> -3.8%, step -8.8% -> -8.9%
    assert (ptt.signed_median(verl_data, "scoring") < ptt.signed_median(verl_data, "generation")
            < ptt.signed_median(verl_data, "update") < 0)
    # FSDP1's weight gathers in the scoring passes (engine/posttraining/scoring_gathers.py: each micro-batch gathers
    # every layer again, the first layer's exposed behind unpad_input's sync, the others beyond the previous layer's
    # work queued after the attention's syncs; the root once a pass), h-scoring: scoring -30.1% -> -25.2%; the longest
    # rank's pace (h-verlscore): -24.8% -> -17.5%
    assert -0.22 < ptt.signed_median(verl_data, "scoring") < -0.13
    # -0.018 since h-verlscore's rank wait (engine/posttraining/rank_imbalance.py) and h-a2await's Hopper GEMM beside
    # an NCCL collective (contention.nccl_sm_share 1/2) lengthened the update
    assert -0.09 < ptt.signed_median(verl_data, "update") < 0.0
    assert -0.18 < ptt.signed_median(verl_data, "step") < -0.08
    # h-verltp8's adapter collection (adapter_summon.py) above: generation -8.5% -> -7.6% (the median row, 1.5B)
    assert -0.18 < ptt.signed_median(verl_data, "generation") < -0.07


def test_decode_iteration_measured_far_above_the_roofline() -> None:
    # gen / response_length max: the 7B row's 26.8 s over 554 and 537 iterations, about 49 ms each
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    expected = statistics.median(s["timing_s"]["gen"] / s["response_length_max"] for s in row["steps"])
    assert ptt.measured_decode_iteration_seconds(row) == expected
    assert 0.045 < expected < 0.055


def test_policy_scoring_is_the_training_forward_of_the_step(monkeypatch) -> None:
    # engine/posttraining/scoring_time.py: verl's compute_log_prob runs the update's _forward_micro_batch under no_grad
    # (verl b178a3cd5 dp_actor.py lines 418-472), so each of GRPO's two policy passes (old policy, adapter-off
    # reference) is the training model's forward of the step's micro-batches: the old policy's with its adapters, the
    # reference's under peft's disable_adapter() the base's alone (the same forward with method full: no adapter
    # kernels or calls), plus the old-policy pass's visits of the LoRA adapters' FSDP units
    # (engine/posttraining/adapter_units.py: the adapter-off reference calls no adapter), which that module prices apart,
    # and both passes' division by the temperature and compiled entropy over the logits (vocab_passes.py)
    from engine import scenario_from_dict
    from engine.posttraining.adapter_units import adapter_unit_seconds
    from engine.posttraining.dataproto_dispatch import scoring_dispatch_seconds
    from engine.posttraining.estimate import step_parts, training_scenario
    from engine.posttraining.scoring_time import policy_forward_seconds
    from engine.posttraining.vocab_passes import vocab_pass_seconds
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"])
    rs = step_parts(s).rs
    train = training_scenario(s.with_unchecked(offload="none"), rs)  # verl loads the states for its passes
    one = policy_forward_seconds(train)
    t = step_time(s)
    assert rs.online and rs.reference_forward
    units = adapter_unit_seconds(s, train, True)["scoring"]
    assert units > 0
    base = policy_forward_seconds(train.with_unchecked(method="full"))
    assert 0 < base < one  # the adapters' rank-r matmuls and element-wise passes come off
    logits = vocab_pass_seconds(s, rs, train)["scoring"]
    assert logits > 0
    # and the batch's round trip through ray for each of the two calls (engine/posttraining/dataproto_dispatch.py)
    dispatch = scoring_dispatch_seconds(s, rs)
    assert dispatch > 0
    assert abs(dict(t.rl_seconds)["scoring"] - (one + base + units + logits + dispatch) * t.calibration_factor) < 1e-9
    # under full checkpointing the update's recompute term is the decoder layers' forward of the same micro-batches
    # (engine/timing/model.py _recompute_seconds); a scoring pass is that and the head with its log-softmax, its
    # per-token work at the longest rank's tokens as the update's (rank_imbalance.py: the recompute's share of the
    # update's wait is (factor - 1) x recompute), and FSDP1's weight gathers beyond what its forward hides
    # (scoring_gathers.py; the update counts its own in communication_dp, not in recompute): compared without them
    import engine.posttraining.scoring_time as scoring_time
    from engine.posttraining.rank_imbalance import longest_rank_factor

    factor = longest_rank_factor(train)
    assert factor > 1.1  # 8 ranks of 8-sequence padding-free micro-batches
    monkeypatch.setattr(scoring_time, "scoring_gather_seconds", lambda *args, **kwargs: 0.0)
    forward_only = policy_forward_seconds(train)
    assert 0 < forward_only < one
    recompute = t.breakdown_seconds["recompute"] * factor
    assert recompute < forward_only < 1.2 * recompute


def test_offload_copies_are_counted_in_their_phases() -> None:
    # verl's update_actor, compute_log_prob (old policy, adapter-off reference) and the weight sync each load the
    # parameters (engine/posttraining/phase_offload.py); the split keeps the total and gives the update the optimizer
    from engine import scenario_from_dict
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"])
    total = dict(step_time(s).rl_seconds)["phase_offload"]
    split = ptt.offload_by_phase(s, total)
    assert abs(sum(split.values()) - total) < 1e-12
    assert abs(split["scoring"] - 2 * split["generation"]) < 1e-12  # two parameter loads against one
    assert split["update"] >= split["generation"] > 0


def test_eager_engine_decode_is_held_by_the_host_launches() -> None:
    # engine/posttraining/eager_decode.py: without CUDA graphs every layer's 10 kernels (+2 all-reduces under TP),
    # 12 module calls and 3 views are launched from Python each iteration, at presets/host_overhead.json's costs
    from engine import scenario_from_dict
    from engine.posttraining.eager_decode import eager_decode_host_seconds
    from engine.scenario import resolve_model
    from engine.timing.host import host_figures
    from engine.workloads import step_time

    fig = host_figures()
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"])
    per_layer = (12 * fig["launch_seconds"]["value"] + 12 * fig["module_call_seconds"]["value"]
                 + 3 * fig["view_seconds"]["value"])
    spec = resolve_model(s)  # Qwen2.5-7B: 28 layers, no q/k norm; TP 2
    assert spec.layers == 28 and spec.qk_norm == "none"
    assert abs(eager_decode_host_seconds(s, spec, 2) - 28 * per_layer) < 1e-12
    # vLLM V0's own Python around those calls (the row's engine is vLLM 0.7.3 V0), measured by
    # benchmarks/vllm_v0_eager_decode_host.py: 52.5 view calls a layer and 43.3 a forward, on the H100 host (factor 1);
    # at TP 2 each layer's two all-reduce calls add their Python, 3.6 view calls each beyond the counted launch
    # (benchmarks/vllm_v0_tp_all_reduce_host.py: vLLM 0.7.3's path to the communicator, the custom all-reduce's)
    v0_python = (28 * 52.5 + 43.3) * fig["view_seconds"]["value"]
    tp_calls = 28 * 2 * 3.6 * fig["view_seconds"]["value"]
    assert eager_decode_host_seconds(s, spec, 2, "vllm") == pytest.approx(28 * per_layer + v0_python + tp_calls)
    assert eager_decode_host_seconds(s, spec, 1, "vllm") < eager_decode_host_seconds(s, spec, 2, "vllm")
    eager = dict(step_time(s).generation)
    graphs = dict(step_time(s.with_unchecked(rollout_enforce_eager=False)).generation)
    # the iteration: the launches' floor (above the roofline here) and then V0's output processing, scheduling and
    # input preparation (engine_loop.py) and its sampler (engine_sampler.py), and the engine's TP 2 all-reduces
    # (rollout_collectives.py) (the engine's tensor-parallel all-reduces run on the GPU's side, under the launches)
    assert eager["tp_all_reduce_seconds_per_step"] > 0
    assert eager["decode_step_seconds"] == pytest.approx(eager["eager_host_seconds_per_step"]
                                                         + eager["serial_output_seconds_per_step"]
                                                         + eager["schedule_input_seconds_per_step"]
                                                         + eager["sampler_host_seconds_per_step"])
    assert eager["eager_host_seconds_per_step"] > (graphs["decode_step_seconds"]
                                                   - graphs["schedule_input_seconds_per_step"]
                                                   - graphs["sampler_host_seconds_per_step"])
    assert graphs["eager_host_seconds_per_step"] == 0.0 == graphs["serial_output_seconds_per_step"]
    # the row's engine is V0 (vLLM 0.7.3): it schedules and prepares every running sequence before each step with
    # CUDA graphs too; the newest vLLM is V1 only (V0 removed in 0.11.0) and gets neither V0 term (engine_loop.py)
    assert graphs["schedule_input_seconds_per_step"] > 0
    latest = dict(step_time(s.with_unchecked(rollout_engine_release="latest")).generation)
    assert latest["schedule_input_seconds_per_step"] == 0.0 == latest["serial_output_seconds_per_step"]
    assert latest["sampler_host_seconds_per_step"] == 0.0 < graphs["sampler_host_seconds_per_step"]
    # V1's eager model code runs in an enforce_eager rollout engine as in a served --enforce-eager one: its measured
    # Python (benchmarks/vllm_v1_eager_forward_host.py: 55.8 view calls a layer, 37.5 a forward; the figure serving's
    # host_iteration.py prices) in place of V0's 52.5 and 43.3 and V0's all-reduce calls (V1's were not measured); with
    # graphs captured none (a batch beyond them runs V1's torch.compile'd forward, not measured)
    from engine.posttraining.eager_decode import v1_python_seconds
    v1_python = (28 * 55.8 + 37.5) * fig["view_seconds"]["value"]
    assert eager_decode_host_seconds(s, spec, 2, "vllm", True) == pytest.approx(28 * per_layer + v0_python + tp_calls)
    v1 = s.with_unchecked(rollout_engine_release="latest")
    assert eager_decode_host_seconds(v1, spec, 2, "vllm", True) == pytest.approx(28 * per_layer + v1_python)
    assert v1_python_seconds(v1, spec, "vllm", False) == 0.0 == v1_python_seconds(v1, spec, "sglang", True)
    assert latest["eager_host_seconds_per_step"] - eager["eager_host_seconds_per_step"] == pytest.approx(
        v1_python - v0_python - tp_calls)
    # V1 (the newest vLLM) runs its engine loop in series with each step, eager or not (engine_step_host.py); a V0
    # release has V0's terms instead
    from engine.serving.engine_step_host import engine_step_host_seconds
    assert eager["engine_loop_host_seconds_per_step"] == 0.0 == graphs["engine_loop_host_seconds_per_step"]
    loop = engine_step_host_seconds(s, "vllm", latest["concurrent_sequences"])
    assert loop > 0 and latest["engine_loop_host_seconds_per_step"] == pytest.approx(loop)


def test_each_source_is_summarised_on_its_own_rows() -> None:
    compared = ptt.compare()
    by_group = ptt.groups(compared)
    summary = ptt.summary(compared)
    sources = {c.source_name for c in compared}
    assert {"verl-data", "nemo-rl-performance-summary"} <= sources
    for name in sources:
        members = [c for c in compared if c.source_name == name]
        assert by_group[f"source {name}"] == members
        for phase in ptt.PHASES:
            assert summary[f"source {name}"][phase] == error_stats(
                e for c in members if (e := c.error(phase)) is not None)


def test_nemo_rl_rows_hold_the_tables_step_and_batch() -> None:
    # NeMo-RL's performance summary states one figure per run, 'Total Step time(s)', the average of 5 steps, and no
    # phase split; each recipe steps num_prompts_per_step x num_generations_per_prompt sequences, the table's G-GBS
    # (64 x 32 = 2,048; DeepSeek-V3 32 x 16 and Qwen3-235B 16 x 32 = 512), which the scenario holds as micro_batch x
    # grad_accum x data-parallel GPUs; every release's table (v0.4 at cff17f83b, v0.5 at e7c0123d7, v0.6 at 69c7ca117)
    from engine import scenario_from_dict

    rows = [r for r in ptt.read_rows() if r["source_name"] == "nemo-rl-performance-summary"]
    assert len(rows) >= 14
    for row in rows:
        stated = dict(part.strip().rsplit(" ", 1) for part in row["stated"].split("|")[3:] if " " in part.strip())
        assert ptt.measured_phases(row) == {"step": float(stated["Total Step time(s)"])}, row["id"]
        sequences = int(stated["G-GBS"].replace(",", ""))
        assert sequences in (512, 2048)
        s = scenario_from_dict(row["scenario"])
        assert s.micro_batch * s.grad_accum * s.dp == sequences, row["id"]
        assert s.num_generations == (16 if s.model.startswith("deepseek-v3") else 32)
        # completion = G-Average Seq len (mean generated tokens); prompt = the tokens the page's own Tokens/sec/GPU
        # definition gives a sequence (x step seconds x GPUs / G-GBS) less the completion: 99-132 on every row
        generated = int(stated["G-Average Seq len"].replace(",", ""))
        per_sequence = (float(stated["Tokens / sec / GPU"].replace(",", "")) * float(stated["Total Step time(s)"])
                        * int(stated["#-GPUs"]) / sequences)
        assert s.completion_len == generated and s.prompt_len == round(per_sequence - generated), row["id"]
        assert 99 <= s.prompt_len <= 132
        assert s.world_size == int(stated["#-GPUs"]), row["id"]
        assert ptt.measured_decode_iteration_seconds(row) is None  # no generation time stated


def test_nemo_rl_step_gap_as_reported() -> None:
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py): NeMo-RL's Llama-3.1-8B (16 H100,
    # PP 2) and Qwen3-30B-A3B (32 H100, EP 8) steps are estimated 39% short, on GB200 56% and 66% short, nearer than
    # verl-data's -80 to -94% (vLLM V1 with CUDA graphs there, V0 eager here); Qwen3-32B (TP 4 x PP 4) 20% short. Each
    # colocated engine generates the step's sequences over the engines (engine/posttraining/estimate.py
    # generated_per_engine): 2,048 over 32 / 4 = 8 engines, 256 each; it had been given micro_batch x grad_accum x
    # rollout_tp = 4,096 and the row was estimated 3.6 x long (+263%), Llama's PP 2 row 256 for 128 (-23%). Decoding
    # until the longest completion, taken at the recipe's cap (4,096 less the prompt; the table states no longest,
    # an upper bound): Llama H100 -39.0% -> -21.4%, Qwen3-32B -20.2% -> -19.1%, 30B-A3B H100 -39.1% -> -34.9%,
    # Llama GB200 -56.1% -> -48.3%, 30B-A3B GB200 -66.2% -> -63.1% (the Llama rows' mean, 1,019-1,066 tokens, lies
    # farthest below the cap). The engine runs as many sequences as the blocks they hold allow (prompt + the mean
    # completion, EngineMemory.running_sequences), not as many requests of the recipe's max_model_len 4,096 as its pool
    # holds: Llama H100 -21.4% -> -35.1%, Qwen3-32B -19.1% -> -26.1%, 30B-A3B H100 -34.9% -> -33.0%, Llama GB200
    # -48.3% -> -52.9%, 30B-A3B GB200 unchanged. Each decode kernel's fixed GPU time (engine/serving/kernel_fixed_time.py,
    # from vLLM's measured H100 decode kernel tables): Llama H100 -35.1% -> -31.2%, Qwen3-32B -26.1% -> -22.2%, 30B-A3B
    # H100 -33.0% -> -25.8%, Llama GB200 -52.9% -> -48.9%, 30B-A3B GB200 -63.1% -> -59.7%. vLLM V1's engine loop in
    # series with each step (engine/serving/engine_step_host.py) and the untied embedding table's unread rows: Llama
    # H100 -31.2% -> -30.0%, Qwen3-32B -22.2% -> -21.1%, 30B-A3B H100 -25.8% -> -23.6%, Llama GB200 -48.9% -> -46.1%,
    # 30B-A3B GB200 -59.7% -> -58.3%. NeMo-RL's copies around the colocated sync (engine/posttraining/refit_offload.py)
    # and the rows trained by the Megatron backend their recipes name (framework nemo-rl-megatron with its distributed
    # optimizer, where the DTensor row without sharding stood in; engine/frameworks/nemo_rl_megatron.py): Llama H100
    # -30.0% -> -36.6%, Qwen3-32B -21.1% -> -32.4%, 30B-A3B H100 -23.6% -> -26.7%, Llama GB200 -46.1% -> -45.9%,
    # 30B-A3B GB200 -58.3% -> -50.3%; the GB200 Qwen3-32B line (TP 2, vLLM TP 1, as its v0.5.0 recipe says) -22.6%.
    # Megatron-Bridge's export gathering every tensor whole (bridge_export.py) and, under a pipeline, every packed
    # micro-batch padded to the longest (packed_padding.py, an upper bound): Llama H100 -36.6% -> -30.8%, Qwen3-32B
    # H100 -32.4% -> -22.8%, 30B-A3B H100 -26.7% -> -26.6%, the others unchanged. Precision mixed-bf16 (Megatron's bf16
    # with fp32 main weights and states): -30.0 / -22.4 / -25.9 / -45.7 / -50.1 / -22.5% (Llama H100, Qwen3-32B H100,
    # 30B-A3B H100, Llama GB200, 30B-A3B GB200, Qwen3-32B GB200)
    # h-rlgen: vLLM V1's output processing in the trainer's process each decode step (NeMo-RL's
    # VLLM_ENABLE_V1_MULTIPROCESSING=0 with vllm.LLM; engine/posttraining/engine_output.py, vLLM 0.11.2's
    # OutputProcessor timed by benchmarks/vllm_v1_output_host.py, x 1.54 on GB200's Grace): -30.0 / -18.5 / -25.7 /
    # -45.7 / -52.9 / -22.5% -> -28.4 / -15.8 / -21.8 / -40.7 / -49.9 / -20.1% (Llama H100, Qwen3-32B H100, 30B-A3B
    # H100, Llama GB200, 30B-A3B GB200, Qwen3-32B GB200)
    # h-v1loop: vLLM V1's engine-core step outside the forward measured by running 0.11.2's Scheduler, GPUModelRunner
    # and Sampler on the CPU (benchmarks/vllm_v1_engine_step_host.py; engine/serving/engine_step_host.py: 207.0 + 6.71
    # view calls a request, where PR #42131 / #46112 priced 0.43 ms + 1.13 us a request): -28.4 / -15.8 / -21.8 /
    # -40.7 / -49.9 / -20.1% -> -23.9 / -9.5 / -12.6 / -28.2 / -43.0 / -13.6%
    from engine import scenario_from_dict
    from engine.workloads import step_time

    compared = {c.id: c for c in ptt.compare()}
    assert -0.27 < compared["nemo-rl-perf-grpo-llama3.1-8b-16xh100"].error("step") < -0.12
    # one currency for build-host timings (V1's in-process output processing in the build host's view calls at
    # view_seconds, x 3.52 / 1.49; lead): -23.9 / -9.5 / -12.6 / -28.2 / -43.0 / -13.6% -> -21.8 / -5.8 / -7.3 / -21.3 /
    # -39.0 / -10.3%
    # h-nemomoe2: an engine given more sequences than it holds admits a waiting one as one ends (generate_calls.py
    # decode_passes: vLLM 0.11.2 v1/core/sched/scheduler.py lines 218-333 and 395-402), sequences / holds passes of the
    # mean completion where it had decoded whole waves: 30B-A3B H100 (128 sequences, 112 held) -7.3% -> -38.6%,
    # Qwen3-32B H100 (256, 146) -5.8% -> -10.7%, Qwen3-32B GB200 (128, 58) -10.3% -> -24.4%; the rows whose engines
    # hold their whole batch unchanged. The 30B-A3B H100 row had matched by two decode waves standing in for what
    # its Megatron passes lack (benchmarks/nemo_rl_v03_phases.py: NeMo-RL v0.3's Qwen3-30B-A3B update -56%, get
    # logprobs -71%), so it now sits beside the GB200 30B-A3B rows
    # h-fusedmoe: the rollout's experts at vLLM's fused_moe tile share (engine/serving/fused_moe_rate.py), with
    # h-nemorl4: the rollout waits for the slowest of its engines (engine/posttraining/engine_imbalance.py: NeMo-RL v0.5.0
    # vllm_generation.py generate shards the batch contiguously and gets every engine's result; the lower bound of
    # independent draws from the completions' spread): Llama H100 -21.8% -> -20.4%, Qwen3-32B H100 -8.6 -> -7.9,
    # 30B-A3B H100 -28.7 -> -27.1, Llama GB200 -21.3 -> -19.3, 30B-A3B GB200 -32.8 -> -31.7, Qwen3-32B GB200 -23.4 -> -22.0
    # h-nemorlroll: the synchronous worker's batch built token by token from the outputs and the driver's decode of
    # every response after generate() (worker_output.py; x 1.54 on Grace), with a dense decode from CUDA graphs draining
    # along the spread (length_spread.py): Llama H100 -20.3% -> -14.2%, Qwen3-32B H100 -7.9 -> -3.6, 30B-A3B H100 -27.0
    # -> -21.6, Llama GB200 -19.3 -> -8.0, 30B-A3B GB200 -31.7 -> -24.5, Qwen3-32B GB200 -22.0 -> -17.5
    assert -0.36 < compared["nemo-rl-perf-grpo-qwen3-30b-a3b-32xh100"].error("step") < -0.16
    assert -0.22 < compared["nemo-rl-perf-grpo-llama3.1-8b-8xgb200"].error("step") < -0.05
    assert -0.39 < compared["nemo-rl-perf-grpo-qwen3-30b-a3b-16xgb200"].error("step") < -0.20
    assert -0.14 < compared["nemo-rl-perf-grpo-qwen3-32b-32xh100"].error("step") < 0.0
    assert -0.28 < compared["nemo-rl-perf-grpo-qwen3-32b-16xgb200"].error("step") < -0.12
    row = next(r for r in ptt.read_rows() if r["id"] == "nemo-rl-perf-grpo-qwen3-32b-32xh100")
    s = scenario_from_dict(row["scenario"])
    assert s.micro_batch * s.grad_accum * s.dp == 2048 and s.world_size // s.rollout_tp == 8
    assert dict(step_time(s).generation)["sequences"] == 256


def test_ms_swift_dpo_row_is_the_memory_rows_run_at_its_global_batch() -> None:
    # examples/megatron/rlhf/dpo/packing.sh: '4 * 28GiB; 3.4s/it', global_batch_size 4 over micro_batch_size 1 and
    # data-parallel 1 (TP 4 on 4 GPUs): 4 micro-batches a step; the card is assumed (an 80 GB A100); estimated 44% short,
    # 38.7% at 4d2cc15c, 34.0% since h-trlpost states ms-swift's tp_comm_overlap False (megatron_args.py line 174 at
    # 3bbc7fe43: the sequence-parallel collectives without userbuffers, where the megatron row's auto has them)
    import json

    from engine import scenario_from_dict
    from engine.accuracy.posttraining import PUBLISHED_FILE

    row = next(r for r in ptt.read_rows() if r["source_name"] == "ms-swift-examples")
    memory_rows = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"))
    memory_rows = memory_rows["rows"] if isinstance(memory_rows, dict) else memory_rows
    memory = next(m for m in memory_rows if m["id"] == row["memory_row"])
    assert row["stated"] == memory["reported_as"] and ptt.measured_phases(row) == {"step": 3.4}
    s = scenario_from_dict(row["scenario"])
    assert s.grad_accum * s.micro_batch * s.dp == memory["settings"]["--global_batch_size"] == 4
    assert {k: v for k, v in row["scenario"].items() if k not in ("name", "grad_accum")} == {
        k: v for k, v in memory["scenario"].items() if k not in ("name", "grad_accum")}
    error = next(c for c in ptt.compare() if c.id == row["id"]).error("step")
    assert -0.40 < error < -0.28


def test_an_engine_without_cuda_graphs_waits_for_v0s_output_processing_per_running_sequence() -> None:
    # engine/posttraining/engine_loop.py: vllm-project/vllm issue #6913 measures _process_model_outputs at 0.2 ms for
    # batch 1 and 3.4 ms for batch 32, so 0.2 ms + (n - 1) x 3.2 / 31 ms for n running sequences, in series with the
    # forward when the async output processor is off (enforce_eager)
    from engine import scenario_from_dict
    from engine.posttraining.engine_loop import serial_output_seconds
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    s = scenario_from_dict(row["scenario"])
    assert serial_output_seconds(s, 1) == pytest.approx(0.2e-3)
    assert serial_output_seconds(s, 32) == pytest.approx(3.4e-3)
    detail = dict(step_time(s).generation)
    n = detail["concurrent_sequences"]
    assert detail["serial_output_seconds_per_step"] == pytest.approx(0.2e-3 + (n - 1) * 3.2e-3 / 31)
    # the mean decode iteration still under the measured one (gen / response_length max, an upper bound of the mean
    # iteration over the batch as it thins to its longest completion): nothing is fitted to it. The full batch's own
    # iteration (decode_step_seconds, 63 ms with the served adapters' punica launches, engine_adapters.py) may be
    # above that mean, as the measured batch thins out too
    assert detail["decode_seconds"] / detail["decode_iterations"] < ptt.measured_decode_iteration_seconds(row)


def test_the_posttraining_band_file_is_current_and_is_the_runs_percentiles() -> None:
    # presets/posttraining_time_bands.json is written by benchmarks/posttraining_time_accuracy.py from the measured
    # rows; each band is the 10th / 90th percentile (statistics.quantiles 'inclusive') of measured / estimated - 1
    import json

    from engine.accuracy.posttraining_band import bands_json
    from engine.posttraining.settings import ONLINE_OBJECTIVES
    from engine.posttraining.time_band import POSTTRAINING_BANDS_FILE

    assert POSTTRAINING_BANDS_FILE.read_text(encoding="utf-8") == bands_json()
    data = json.loads(bands_json())
    # only the runs that generate: the band applies to online steps alone (an offline objective such as DPO keeps
    # the training band, engine/posttraining/timing.py), so its text must not list DPO among its runs
    rows = [r for r in ptt.read_rows() if r["objective"] in ONLINE_OBJECTIVES]
    compared = ptt.compare(rows)
    assert data["offline_runs_left_out"] == sorted(r["id"] for r in ptt.read_rows()
                                                   if r["objective"] not in ONLINE_OBJECTIVES)
    assert all(o in ONLINE_OBJECTIVES for o in data["objectives"])
    # every kept row's source repository (its url): verl-data's logs, NeMo-RL's performance summary
    assert data["source_names"] == sorted({r["source"].split(" at ")[0] for r in rows})
    assert data["runs"] == len(compared) and data["sources"] == len(data["source_names"])
    for band in data["bands"]:  # the phases only where a run states them (verl-data's); the step over every run
        errors = [c.measured[band["phase"]] / c.estimated[band["phase"]] - 1 for c in compared
                  if c.measured.get(band["phase"])]
        deciles = statistics.quantiles(errors, n=10, method="inclusive")
        assert band["low"] == round(deciles[0], 4) and band["high"] == round(deciles[-1], 4)
        assert band["low"] <= statistics.median(errors) <= band["high"]


def test_a_posttraining_step_shows_its_own_regimes_range_and_a_training_step_keeps_its_own() -> None:
    # the GRPO example's step takes the post-training band (presets/posttraining_time_bands.json), the range is the
    # step x (1 + low) to x (1 + high), each phase its own; the same model trained without RL keeps the training band
    import json

    from engine import scenario_from_dict
    from engine.posttraining.time_band import POSTTRAINING_BANDS_FILE, POSTTRAINING_REGIME
    from engine.posttraining.timing import rl_time_to_json
    from engine.timing.bands import time_band
    from engine.workloads import step_time

    example = json.loads(open("examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json", encoding="utf-8").read())
    bands = {b["phase"]: b for b in json.loads(POSTTRAINING_BANDS_FILE.read_text(encoding="utf-8"))["bands"]}
    t = step_time(scenario_from_dict(example))
    assert t.band.regime == POSTTRAINING_REGIME
    assert t.seconds_range[0] == t.step_seconds * (1 + bands["step"]["low"])
    assert t.seconds_range[1] == t.step_seconds * (1 + bands["step"]["high"])
    phases = t.phase_seconds
    assert sum(phases.values()) == pytest.approx(t.step_seconds)
    for phase, (low, high) in t.phase_seconds_ranges.items():
        assert low == pytest.approx(phases[phase] * (1 + bands[phase]["low"]))
        assert high == pytest.approx(phases[phase] * (1 + bands[phase]["high"]))
    out = rl_time_to_json(t)
    assert out["step_seconds_range_basis"]["regime"] == POSTTRAINING_REGIME  # the keys training steps have, kept
    assert out["step_seconds_range_basis"]["checked_against"]["runs"] == json.loads(
        POSTTRAINING_BANDS_FILE.read_text(encoding="utf-8"))["runs"]
    assert set(out["phase_seconds_range"]) == {"generation", "scoring", "update"}
    trained = {k: v for k, v in example.items() if k not in {"training_objective"}}
    trained_time = step_time(scenario_from_dict(trained))
    assert trained_time.band == time_band(trained_time_framework(trained))


def trained_time_framework(scenario: dict) -> str:
    from engine import scenario_from_dict

    return scenario_from_dict(scenario).framework


def test_the_estimate_text_says_what_the_posttraining_range_was_checked_against() -> None:
    import json

    from engine import scenario_from_dict
    from engine.estimate_output import render_time
    from engine.workloads import step_time

    example = json.loads(open("examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json", encoding="utf-8").read())
    text = render_time(step_time(scenario_from_dict(example)))
    from engine.posttraining.time_band import posttraining_band_basis

    basis = posttraining_band_basis()  # the band file's runs: the online ones (DPO's row is left out of it)
    assert "dpo" not in basis["objectives"] and "GRPO" in text
    assert (f"checked against {basis['runs']} measured {', '.join(basis['frameworks'])} post-training runs "
            f"({', '.join(basis['objectives']).upper()}) of {basis['sources']} sources "
            f"({', '.join(basis['source_names'])})") in text
    # each phase with the model's own time before its range (user audit 6: the ranges alone had nothing to read the
    # multiples against)
    from engine.units import format_seconds
    t = step_time(scenario_from_dict(example))
    generation = t.phase_seconds["generation"]
    # and where the phases' ranges come from: fewer runs than the step's, so they need not add up to it (user audit 7)
    runs = min(band.runs for _phase, band in t.phase_bands)
    assert runs < basis["runs"]
    assert (f"By phase, the model's time and what measured runs like this one came to (from the {runs} runs that "
            f"timed each phase, so the phases' ranges need not add up to the step's): generation (with the weight "
            f"sync) {format_seconds(generation)} (") in text


def test_an_offline_objective_keeps_the_training_band() -> None:
    # DPO generates nothing: the measured post-training runs (online GRPO) say nothing of it, so its step keeps the
    # training regime's band (engine/timing/bands.py) and shows no post-training lines
    import json

    from engine import scenario_from_dict
    from engine.posttraining.band_text import posttraining_band_lines
    from engine.timing.bands import time_band
    from engine.workloads import step_time

    example = json.loads(open("examples/dpo-llama3-8b-lora-trl.json", encoding="utf-8").read())
    s = scenario_from_dict(example)
    t = step_time(s)
    assert t.band == time_band(s.framework)
    assert posttraining_band_lines(t, str) == []
    # and the post-training band, which offline steps do not take, is made without the offline rows (its text
    # listed DPO among its runs while DPO kept the training band)
    from engine.posttraining.time_band import posttraining_band_basis

    assert "dpo" not in posttraining_band_basis()["objectives"]


def test_the_rows_longest_completion_is_the_logged_max_or_the_recipes_cap() -> None:
    # verl's logs (verl-data, the MI300X logs): the median over the logged steps of response_length/max (the 1.5B
    # row's 834 and 795 -> 815); NeMo-RL: max_new_tokens = max_total_sequence_length (4,096; DeepSeek-V3's recipes
    # 1,536, Qwen3-235B's 8,192) with vLLM max_model_len the same (grpo_math_1B.yaml): no completion runs past it
    # less its prompt
    for row in ptt.read_rows():
        scenario = row["scenario"]
        if row["framework"] == "verl":
            logged = statistics.median(s["response_length_max"] for s in row["steps"])
            assert scenario["max_completion_len"] == int(logged + 0.5)
            if scenario.get("packing") == "padding-free":  # use_remove_padding: the mean completion, below its longest
                assert scenario["max_completion_len"] > scenario["completion_len"]
            else:  # use_remove_padding False (play-verl, dstack): every response padded to response_length, the cap
                assert scenario["max_completion_len"] == scenario["completion_len"]
        elif row.get("source_name") == "nemo-rl-performance-summary":
            assert scenario["max_completion_len"] == scenario["rollout_max_model_len"] - scenario["prompt_len"]


def test_the_batch_decodes_until_its_longest_completion_with_one_sequence_left() -> None:
    # engine/posttraining/longest_completion.py: the engine's slots stay full for the mean's iterations, then one
    # sequence decodes alone from completion_len to max_completion_len, each such iteration over one running sequence
    # (the eager launches' floor, or the weights' read, and V0's output processing at batch 1: 0.2 ms)
    from engine import scenario_from_dict
    from engine.posttraining.engine_loop import serial_output_seconds
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    s = scenario_from_dict(row["scenario"])
    mean_only = dict(step_time(s.with_unchecked(max_completion_len=None)).generation)
    detail = dict(step_time(s).generation)
    tail = s.max_completion_len - s.completion_len  # 1,024 - 327 iterations
    assert detail["decode_iterations"] == detail["waves"] * s.completion_len + tail
    assert detail["longest_completion_tokens"] == 1024 and mean_only["longest_tail_seconds"] == 0.0
    lone = max(detail["eager_host_seconds_per_step"], 0.0) + serial_output_seconds(s, 1)
    assert detail["longest_tail_seconds"] >= tail * lone - 1e-12
    assert detail["decode_seconds"] == pytest.approx(mean_only["decode_seconds"] + detail["longest_tail_seconds"])
    # a lone sequence's iteration is cheaper than the full batch's, so the tail adds less than the mean's iterations
    assert detail["longest_tail_seconds"] / tail < detail["decode_step_seconds"]


def test_v0s_scheduling_and_input_preparation_is_priced_per_running_sequence_from_wuklabs_measurement() -> None:
    # engine/posttraining/engine_loop.py: WukLab's Figure 4 (vLLM 0.5.4, Llama-3-8B on one A6000, 1024:1024) bars,
    # read off WukLab/wuklab_sysml 92e190d static/images/scheduling_overhead/1024_1024.svg at 67.65 px a ms:
    # scheduling 2.518 + 1.142 + 0.043 + 0.174 ms, the forward's inputs 7.046 + 1.786 + 0.110 + 0.283 + 0.055 ms,
    # over at most vLLM 0.5.4's default max_num_seqs = 256 running sequences
    from engine import scenario_from_dict
    from engine.posttraining import engine_loop
    from engine.workloads import step_time

    assert engine_loop.SCHEDULE_SECONDS_MEASURED == pytest.approx((2.518 + 1.142 + 0.043 + 0.174) * 1e-3)
    assert engine_loop.MODEL_INPUT_SECONDS_MEASURED == pytest.approx(
        (7.046 + 1.786 + 0.110 + 0.283 + 0.055) * 1e-3)
    per_sequence = (3.877e-3 + 9.280e-3) / 256
    assert engine_loop.SCHEDULE_INPUT_SECONDS_PER_SEQUENCE == pytest.approx(per_sequence)
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    s = scenario_from_dict(row["scenario"])
    detail = dict(step_time(s).generation)
    n = detail["concurrent_sequences"]
    assert detail["schedule_input_seconds_per_step"] == pytest.approx(n * per_sequence)
    # the mean iteration is still under the measured one (gen / response_length max, an upper bound): nothing is
    # fitted
    assert detail["decode_seconds"] / detail["decode_iterations"] < ptt.measured_decode_iteration_seconds(row)
    # V1 (the release key that names it) and SGLang run other loops: neither V0 term
    for other in ({"rollout_engine_release": "vllm-0.8-v1"}, {"rollout_engine": "sglang"}):
        detail = dict(step_time(s.with_unchecked(**other)).generation)
        assert detail["schedule_input_seconds_per_step"] == 0.0 == detail["serial_output_seconds_per_step"]
    # a release named V0 with CUDA graphs: the async output processor overlaps the output processing, not the
    # scheduling and input preparation that come before each forward (vllm/engine/llm_engine.py step at 0.7.3)
    graphs_v0 = s.with_unchecked(rollout_engine_release="vllm-0.8-v0", rollout_enforce_eager=False)
    detail = dict(step_time(graphs_v0).generation)
    assert detail["serial_output_seconds_per_step"] == 0.0
    assert detail["schedule_input_seconds_per_step"] == pytest.approx(detail["concurrent_sequences"] * per_sequence)


def test_an_adapter_off_qlora_reference_keeps_the_base_dequantisation() -> None:
    # engine/posttraining/scoring_time.py: under disable_adapter() a QLoRA policy's reference still runs its 4-bit
    # base (bitsandbytes dequantises each weight before its matmul), without the adapters: cheaper than the policy's
    # own pass, dearer than a bf16 base's
    from engine import scenario_from_dict
    from engine.posttraining.estimate import step_parts, training_scenario
    from engine.posttraining.scoring_time import adapter_off_forward_seconds, policy_forward_seconds

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"]).with_unchecked(method="qlora", fsdp=False, offload="none")
    train = training_scenario(s, step_parts(s).rs)
    off = adapter_off_forward_seconds(train)
    assert policy_forward_seconds(train.with_unchecked(method="full")) < off < policy_forward_seconds(train)


def test_the_mi300x_logs_run_their_scripts_batch_on_the_card_verls_mfu_names() -> None:
    # yushengsu-thu/verl_training_log (linked from verl docs/algo/baseline.md as the AMD MI300 logs): GRPO 1024
    # prompts x rollout.n 5, PPO 1024 prompts; total_num_tokens / (prompt + response mean) says so on every logged
    # step, and the scenario holds them as micro_batch (ppo_micro_batch_size_per_gpu) x grad_accum x 8 GPUs. verl's
    # mfu/actor divides 6 x dense params x tokens / update time / GPUs by the card's peak (volcengine/verl 4c2ea9aa
    # verl/utils/flops_counter.py: 'MI300X' 1336e12, 'H100'/'H800'/'H200' 989e12): recomputed from the logged fields it
    # names the MI300X (verl's update_policy timer sits inside timing_s/update_actor, so the peak comes out a little low)
    rows = [r for r in ptt.read_rows() if r["source_name"] == "verl-training-log-mi300x"]
    assert len(rows) == 2
    for row in rows:
        s = row["scenario"]
        sequences = 5120 if s["training_objective"] == "grpo" else 1024
        assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == sequences and s["gpu"] == "mi300x"
        cfg = s["model"]["hf_config"]
        dense = ((3 * cfg["hidden_size"] * cfg["intermediate_size"] + 4 * cfg["hidden_size"] ** 2)
                 * cfg["num_hidden_layers"] + 2 * cfg["vocab_size"] * cfg["hidden_size"])
        for step in row["steps"]:
            per_sequence = step["prompt_length_mean"] + step["response_length_mean"]
            assert abs(step["total_num_tokens"] / per_sequence - sequences) < 2, row["id"]
            peak = 6 * dense * step["total_num_tokens"] / step["timing_s"]["update_actor"] / 8 / step["mfu_actor"]
            assert abs(peak / 1336e12 - 1) < 0.15 and abs(peak / 989e12 - 1) > 0.15, (row["id"], peak)


def test_a_ppo_steps_scoring_adds_the_critics_value_forward() -> None:
    # verl's PPO step times the critic's value forward as timing_s/values (ray_trainer.py fit marked_timer("values"),
    # volcengine/verl b178a3c lines 1543-1544), which the estimate counts in scoring; a GRPO step logs none
    row = next(r for r in ptt.read_rows() if r["id"] == "verl-mi300x-ppo-deepseek-llm-7b-chat-8gpu")
    assert ptt.measured_phases(row)["scoring"] == statistics.median(
        s["timing_s"]["old_log_prob"] + s["timing_s"]["ref"] + s["timing_s"]["values"] for s in row["steps"])
    for other in ptt.read_rows():
        if other["objective"] == "grpo" and other["framework"] == "verl":
            assert all("values" not in s["timing_s"] for s in other["steps"])


def test_the_new_sources_gap_as_reported() -> None:
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py). vLLM 0.6.3's V0 engine without CUDA
    # graphs on MI300X (verl's ROCm image): GRPO step +0.2% (generation +24.4%, scoring -32.2%, update -23.7%), PPO
    # -34.9% (generation -35.1%, scoring -37.1%, update -33.2%). NeMo-RL with vLLM V1 and CUDA graphs: dense and small
    # MoE on H100 21-31% short (v0.4 Llama-3.1-8B -31.2%, Qwen3-32B -30.1%; v0.6 Qwen3-30B-A3B -21.1%), on GB200
    # -56.2% (v0.6 Qwen3-30B-A3B); the largest MoE far shorter: Qwen3-235B-A22B -50.9% (256 H100) and -62.7% (128
    # GB200), DeepSeek-V3 -76.4% to -79.5% on 256 H100 (v0.4-v0.6) and -84.1% / -85.6% on 128 GB200. The performance
    # recipes train with NeMo-RL's Megatron backend (h-nemorl, v0.5.0 recipes), so the rows take the nemo-rl-megatron
    # row (mixed-bf16, distributed optimizer; refit offload, the bridge's export gather, packed padding under PP):
    # v0.4 Llama -32.6%, Qwen3-32B -32.1%; v0.6 Qwen3-30B-A3B -23.5% (H100), -47.7% (GB200); Qwen3-235B-A22B -49.0% /
    # -58.1%; DeepSeek-V3 -46.6% / -53.4% / -46.4% on 256 H100 (v0.5 / v0.4 / v0.6), -79.0% / -73.1% on 128 GB200.
    # h-revc: the rollout's decode reads a MoE's touched experts (weights.touched_expert_read_fraction, the serving
    # step's rule), which the lone longest-completion tail (one sequence: top_k of n_experts) makes shorter:
    # Qwen3-30B-A3B -27.2% (H100) / -50.5% (GB200), Qwen3-235B-A22B -58.0% / -65.2%, DeepSeek-V3 -54.4% / -60.3% /
    # -54.6% on 256 H100, -81.1% / -77.1% on 128 GB200
    # h-nemomoe: the engine's tensor-parallel all-reduces in every decode step (rollout_collectives.py: vLLM's custom
    # all-reduce inside a node, NCCL across nodes and across GB200 trays, NVLS off as NeMo-RL's perf scripts set it)
    # and the export's pipeline broadcast over the network when the pp group spans two NVL72 racks: MI300X GRPO
    # +1.6% (generation +27.0%), PPO -33.6%; v0.4 Llama -32.6% (TP 1: unchanged), Qwen3-32B -28.4%; v0.6
    # Qwen3-30B-A3B -19.5% / -47.7%; Qwen3-235B-A22B -27.7% / -50.0%; DeepSeek-V3 -39.1% / -46.9% / -39.1% on 256
    # H100, -67.9% / -60.4% on 128 GB200
    # Both, merged (the all-reduces on the GPU's side of max(GPU, host launches), as serving times them): MI300X GRPO
    # +1.2%, PPO -34.2%; v0.4 Llama -32.6%, Qwen3-32B -28.4%; v0.6 Qwen3-30B-A3B -23.2% / -50.5%; Qwen3-235B-A22B
    # -36.6% / -57.1%; DeepSeek-V3 -46.9% / -53.7% / -47.2% on 256 H100 (v0.5 / v0.4 / v0.6), -70.0% / -64.4% on 128
    # GB200
    # h-rlgen: vLLM V0's sampler in series with each decode iteration, its Python per running sequence with the
    # sampled token's log-prob (verl's logprobs=0; engine/posttraining/engine_sampler.py, vLLM 0.7.3's Sampler.forward
    # timed by benchmarks/vllm_v0_sampler_host.py): MI300X GRPO +1.2% -> +6.5% (generation +26.1% -> +35.7%, 1,280
    # sequences an engine), PPO -34.2% -> -31.2% (generation -33.9% -> -28.9%); vLLM V1's output processing in the
    # trainer's process (engine/posttraining/engine_output.py) on the rows whose recipe runs vllm.LLM
    # (async_engine false): v0.4 Llama -32.6% -> -31.1%, Qwen3-32B -28.4% -> -25.8%; v0.6 Qwen3-30B-A3B -23.3% ->
    # -19.2% / -50.5% -> -47.5%; the AsyncLLM rows (rollout_async_engine true: DeepSeek-V3, Qwen3-235B) unchanged
    compared = {c.id: c for c in ptt.compare()}
    # one currency for build-host timings (the V0 sampler in the build host's view calls at view_seconds; lead): MI300X
    # GRPO +11.3% -> +18.6% (generation +43.9% -> +56.9%: 1,280 sequences an engine, away), PPO -25.4% -> -21.2%; v06
    # Qwen3-30B-A3B on H100 -9.7% -> -4.2%
    # h-nemomoe2: a waiting sequence admitted as one ends (generate_calls.py decode_passes, vLLM's scheduler), not whole
    # waves: MI300X GRPO (1,280 sequences, 1,024 held) +20.0% -> -8.8% (generation +56.9% -> +5.3%), v04 Qwen3-32B
    # (256, 147) -16.3% -> -21.2%, v06 30B-A3B H100 (128, 112) -4.2% -> -36.5%; the others hold their whole batch
    held = {"verl-mi300x-grpo-deepseek-llm-7b-chat-8gpu": (-0.06, 0.07),
            "verl-mi300x-ppo-deepseek-llm-7b-chat-8gpu": (-0.19, -0.06),
            "nemo-rl-perf-v04-grpo-llama3.1-8b-16xh100": (-0.30, -0.15),
            "nemo-rl-perf-v04-grpo-qwen3-32b-32xh100": (-0.24, -0.10),
            "nemo-rl-perf-v06-grpo-qwen3-30b-a3b-32xh100": (-0.30, -0.15),
            "nemo-rl-perf-v06-grpo-qwen3-30b-a3b-16xgb200": (-0.33, -0.18),
            "nemo-rl-perf-v06-grpo-qwen3-235b-a22b-256xh100": (-0.23, -0.10),
            "nemo-rl-perf-v06-grpo-qwen3-235b-a22b-128xgb200": (-0.52, -0.39),
            "nemo-rl-perf-grpo-deepseek-v3-256xh100": (-0.35, -0.22),
            "nemo-rl-perf-v04-grpo-deepseek-v3-256xh100": (-0.44, -0.31),
            "nemo-rl-perf-v06-grpo-deepseek-v3-256xh100": (-0.36, -0.23),
            "nemo-rl-perf-grpo-deepseek-v3-128xgb200": (-0.62, -0.49),
            "nemo-rl-perf-v06-grpo-deepseek-v3-128xgb200": (-0.56, -0.43)}
    # h-fusedmoe: the rollouts' experts at vLLM's fused_moe tile share (engine/serving/fused_moe_rate.py), after
    # h-nemomoe2's passes: v06 Qwen3-30B-A3B H100 -36.5% -> -32.5%, GB200 -36.0% -> -34.2%; Qwen3-235B H100 -34.5% ->
    # -22.4%, GB200 -54.2% -> -48.5%; DeepSeek-V3 H100 -44.7 / -51.8 / -45.1% -> -36.2 / -44.4 / -37.0%, GB200 -65.2 /
    # -59.7% -> -59.4 / -54.8%
    # h-v1loop (engine/serving/engine_step_host.py measured, benchmarks/vllm_v1_engine_step_host.py): v04 Llama
    # -31.1% -> -26.7%, v04 Qwen3-32B -25.8% -> -19.9%, v06 30B-A3B H100 -19.2% -> -9.7%, GB200 -47.5% -> -40.2%;
    # the large-model rows move 1-5 points inside their ranges
    # h-nemorl3: a MoE's last pass drains along the completions' spread (length_spread.py: the expert read is concave
    # in the running sequences, so the lone tail was its least): v06 Qwen3-30B-A3B -30.7% -> -26.4% (H100), -32.6% ->
    # -29.4% (GB200); Qwen3-235B-A22B -20.5% -> -16.4% / -48.1% -> -45.5%; DeepSeek-V3 -34.1 / -42.6 / -35.0% ->
    # -28.6 / -37.7 / -29.3% on 256 H100 (v0.5 / v0.4 / v0.6), -58.6 / -54.0% -> -55.7 / -49.3% on 128 GB200; the
    # dense rows unchanged
    # h-verlgen (vLLM V0's all-reduce host path at TP > 1) with h-nemorl4 (the slowest engine of a synchronous
    # rollout): MI300X GRPO -4.9% -> -2.9%, PPO -16.5% -> -15.0%; h-verlscore (padding-free micro-batches at their
    # longest rank's tokens, rank_imbalance.py: 8 ranks, 80 / 16 sequences a micro-batch): GRPO -2.9% -> +0.4%
    # (scoring -7.2% -> +0.7%, update -16.3% -> -8.2%), PPO -15.0% -> -12.3% (scoring -9.7% -> -0.4%, update -23.4% ->
    # -11.4%); h-verldynbsz: each row's spread from its log (sequence_len_std 149 / 88 tokens, global_seqlen/minmax_diff
    # over 2 e_8 sqrt(640 / 128), 0.82 / 0.63 of the assumed): GRPO +0.4% -> -0.2% (scoring +0.7% -> -0.7%, update
    # -8.2% -> -9.6%), PPO -12.3% -> -13.3% (scoring -0.4% -> -3.8%, update -11.4% -> -15.8%)
    # h-nemorlroll: NeMo-RL's synchronous worker building its batch from the outputs token by token and its driver
    # decoding every response after generate() (engine/posttraining/worker_output.py, benchmarks/
    # nemo_rl_worker_output_host.py), with a dense decode from CUDA graphs draining along the spread (length_spread.py):
    # v04 Llama -23.1% -> -17.1%, v04 Qwen3-32B -18.8% -> -14.7%, v06 Qwen3-30B-A3B -24.7% -> -19.1% (H100), -28.2% ->
    # -20.7% (GB200); the AsyncLLM rows (DeepSeek-V3, Qwen3-235B) unchanged
    for rid, (low, high) in held.items():
        assert low < compared[rid].error("step") < high, (rid, compared[rid].error("step"))
    grpo = compared["verl-mi300x-grpo-deepseek-llm-7b-chat-8gpu"]
    # vLLM V0's measured model-forward Python (eager_decode.py, h-vllmeager; these rows run V0 eager, full fine-tuning:
    # no LoRA layers) moves the GRPO row's generation +35.7% -> +43.9% (its 1,280 sequences an engine, away) and the
    # PPO row's -28.9% -> -19.4%; steps +6.7% -> +11.3%, -31.1% -> -25.4%
    # and the V0 sampler in the build host's view calls (lead): generation +43.9% -> +56.9%
    # FSDP1's gathers in the scoring passes, the separate reference's offloaded units counted in scoring and the batch's
    # ray round trips (scoring_gathers.py, dataproto_dispatch.py; h-scoring): scoring -31.2% -> -19.4%
    # hipBLASLt's measured rate at a workload's GEMM shapes on CDNA3 (workload_gemm.py, h-cdna3: AMD's TAF / MAF):
    # scoring -19.4% -> -7.2%, update -23.2% -> -16.3%, generation +56.9% -> +57.6% (its prefill's GEMMs)
    # and its 1,280 sequences on an engine holding 1,024 decoding 1.25 passes of the mean completion, not 2 waves
    # (generate_calls.py decode_passes, vLLM 0.7.3's V0 scheduler admitting a waiting sequence as one ends;
    # h-nemomoe2): generation +57.6% -> +5.9% (with h-cdna3's rates; +56.9% -> +5.3% without them); its 80-sequence
    # padding-free micro-batches at their longest rank's tokens (rank_imbalance.py, h-verlscore): scoring -7.2% ->
    # +0.7%, update -16.3% -> -8.2%; at its log's spread (h-verldynbsz) scoring -0.7%, update -9.6%
    assert 0.0 < grpo.error("generation") < 0.12 and -0.05 < grpo.error("scoring") < 0.07
    assert -0.15 < grpo.error("update") < -0.02


def test_the_unsloth_notebook_rows_are_their_runs_mean_step_and_logged_lengths() -> None:
    # unslothai/notebooks (executed Colab notebooks): TRL's TrainOutput states train_runtime over global_step, the
    # only time the notebooks keep, so the measured step is their mean; completion_len is the mean over the logged
    # steps of TRL's completion_length; the rows where the per-step mean sits at the cap decode to the cap, the others
    # to the mean (the longest is not logged: a lower bound). Held as h-unsloth reports them, with vLLM's punica
    # kernels of the served adapters (engine_adapters.py) and no old-policy scoring pass (Unsloth's
    # _get_per_token_logps returns None): Qwen3-4B (16-bit LoRA, 1,671-token completions, T4) -32.3% (-33.4%
    # before); Llama-3.2-3B (16-bit, decoding to the mean) -75.3% (-73.3%); the QLoRA rows, once the engine holds
    # the packed base with its 16-bit rest (models.py engine_weight_bytes), shares it with the trainer and
    # dequantises every 4-bit linear per GEMM of 2 or more sequences (bnb_decode.py): Llama-3.1-8B -50.0%
    # (-85.5%), Mistral-7B (RTX 4090) -3.0% (-75.1%), Phi-4 -40.3% (-73.6%: the engine had been refused for want
    # of memory, so it decoded one sequence at a time), Qwen2.5-3B -44.7% (-80.6%). h-unsloth2: TRL 0.15.2 (the
    # version these Unsloth releases pin) generates once per gradient-accumulation micro-batch (generate_calls.py), so
    # Llama-3.2-3B's 4 micro-batches of 4 decode one after the other: -75.1% -> -43.3%; the other rows accumulate 1.
    # Then the T4's matmuls at the rate its 70 W cap sustains (efficiency.json sustained_compute_fraction t4 0.473,
    # NVIDIA's forum: cuBLAS fp16 4,096^3 back to back ~24 TFLOPS): Qwen3-4B -31.8% -> -26.1%, Llama-3.2-3B -43.3% ->
    # -33.2%, Llama-3.1-8B -49.9% -> -42.7%, Phi-4 -40.2% -> -32.1%, Qwen2.5-3B -44.4% -> -35.4% (Mistral: RTX 4090).
    # h-unsloth3: the T4's GDDR6 at its measured device-to-device copy (efficiency.json memory_bandwidth_fraction t4
    # 0.749, CUDA's bandwidthTest 239.6 GB/s of 320) for the decode's weight and cache reads: Qwen3-4B -26.1% ->
    # -18.2%, Llama-3.2-3B -33.2% -> -27.2%, Llama-3.1-8B -42.7% -> -37.0%, Phi-4 -32.1% -> -25.2%, Qwen2.5-3B -35.4% ->
    # -29.5%; then Unsloth's load_lora at every generate() call (adapter_load.py: the adapters to the host and into
    # vLLM's LoRA stacks, tens of ms a call): -18.2%, -26.9%, -36.9%, Mistral -2.4% -> -2.2%, -25.2%, -29.3%
    import re

    rows = [r for r in ptt.read_rows() if r["source_name"] == "unsloth-notebooks"]
    assert len(rows) == 6
    compared = {c.id: c for c in ptt.compare()}
    held = {"unsloth-nb-grpo-qwen3-4b-t4": (-0.25, -0.12), "unsloth-nb-grpo-llama-3.2-3b-t4": (-0.34, -0.21),
            "unsloth-nb-grpo-llama-3.1-8b-qlora-t4": (-0.43, -0.30),
            "unsloth-nb-grpo-mistral-7b-qlora-rtx4090": (-0.10, 0.04),
            "unsloth-nb-grpo-phi-4-qlora-t4": (-0.32, -0.19), "unsloth-nb-grpo-qwen2.5-3b-qlora-t4": (-0.36, -0.23)}
    for row in rows:
        runtime = float(re.search(r"'train_runtime': ([0-9.]+)", row["stated"]).group(1))
        steps = int(re.search(r"global_step=(\d+)", row["stated"]).group(1))
        step = row["steps"][0]
        assert step["averaged_over_steps"] == steps
        assert ptt.measured_phases(row) == {"step": round(runtime / steps, 3)}, row["id"]
        s = row["scenario"]
        assert s["completion_len"] == round(step["completion_length_mean"])
        assert s.get("max_completion_len") in (None, s["rollout_max_model_len"] - s["prompt_len"], 200)
        assert s["rollout_engine_release"] == "vllm-0.8-v0" and s["rollout_enforce_eager"] is False
        low, high = held[row["id"]]
        assert low < compared[row["id"]].error("step") < high, (row["id"], compared[row["id"]].error("step"))


def test_the_verl_ppo_logs_without_a_reference_are_their_runs_padded_batch() -> None:
    # dingxianzhong/play-verl logs/verl_ppo_qwen2.5b_8gpu.log (train_batch_size 2048 on 8 GPUs) and Bihan/dstack-configs
    # verl_demo.log (256 on 2 x 8 GPUs), both verl's quickstart PPO with use_remove_padding False: every logged step's
    # perf/total_num_tokens over its prompt + response mean is the batch, which the scenario holds as micro_batch
    # (ppo_micro_batch_size_per_gpu 4) x grad_accum x GPUs, every sequence at the padded max_prompt_length 512 +
    # max_response_length 256. Neither run has a reference (use_kl_loss and use_kl_in_reward False), so verl logs no
    # timing_s/ref and the scoring phase is old_log_prob + the critic's values
    batch = {"play-verl-ppo-qwen2.5-0.5b-8xh100": 2048, "dstack-verl-ppo-qwen2.5-7b-16xh100": 256}
    rows = {r["id"]: r for r in ptt.read_rows() if r["id"] in batch}
    assert set(rows) == set(batch)
    for rid, row in rows.items():
        s = row["scenario"]
        assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] * s.get("nodes", 1) == batch[rid]
        assert (s["prompt_len"], s["completion_len"], s["reference_model"]) == (512, 256, "none")
        # the rollout's prompt: the logged prompt_length/mean, the median over the taken steps, rounded
        assert s["prompt_len_mean"] == round(statistics.median(step["prompt_length_mean"] for step in row["steps"]))
        for step in row["steps"]:
            per_sequence = step["prompt_length_mean"] + step["response_length_mean"]
            assert abs(step["total_num_tokens"] / per_sequence - batch[rid]) < 2, rid
            assert "ref" not in step["timing_s"]
        assert ptt.measured_phases(row)["scoring"] == statistics.median(
            s["timing_s"]["old_log_prob"] + s["timing_s"]["values"] for s in row["steps"])


def test_the_verl_ppo_logs_gap_as_reported() -> None:
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py, h-rlrows3): play-verl Qwen2.5-0.5B on
    # 8 H100 step +3.0% (generation +48.4%; scoring -48.9%; update -1.5%); dstack Qwen2.5-7B on 16 H100 step -19.5%
    # (generation -11.5%, scoring -33.7%, update -24.7%). h-rlrows3 entered prompt_len_mean 104 (the logged
    # prompt_length/mean: vLLM gets the prompts without the left padding to 512): generation +49.9% -> +48.4% and
    # -8.0% -> -11.5%, so the padded prefill was not what puts the 0.5B rollout +48% over. h-a2await: FSDP's gathers and
    # reduce-scatters beside Hopper's persistent GEMMs take half their rate (engine/timing/contention.py): dstack step
    # -19.5% -> -15.4%, scoring -33.7% -> -29.4%, update -24.7% -> -16.9%
    compared = {c.id: c for c in ptt.compare()}
    held = {("play-verl-ppo-qwen2.5-0.5b-8xh100", "step"): (-0.03, 0.10),
            ("play-verl-ppo-qwen2.5-0.5b-8xh100", "generation"): (0.40, 0.60),
            ("play-verl-ppo-qwen2.5-0.5b-8xh100", "scoring"): (-0.58, -0.40),
            ("play-verl-ppo-qwen2.5-0.5b-8xh100", "update"): (-0.08, 0.05),
            ("dstack-verl-ppo-qwen2.5-7b-16xh100", "step"): (-0.25, -0.11),
            ("dstack-verl-ppo-qwen2.5-7b-16xh100", "generation"): (-0.15, -0.01),
            ("dstack-verl-ppo-qwen2.5-7b-16xh100", "scoring"): (-0.42, -0.25),
            ("dstack-verl-ppo-qwen2.5-7b-16xh100", "update"): (-0.22, -0.12)}
    for (rid, phase), (low, high) in held.items():
        assert low < compared[rid].error(phase) < high, (rid, phase, compared[rid].error(phase))


def test_the_play_verl_grpo_row_is_its_logged_batch_on_an_h100() -> None:
    # dingxianzhong/play-verl logs/verl_grpo_qwen2.5b_8gpu.log: train_batch_size 256 x rollout.n 2 = 512 sequences a
    # step (perf/total_num_tokens over the mean lengths says so on every logged step), held as micro_batch 16
    # (ppo_mini_batch_size 64 x n 2 / 8 GPUs, one dynamic micro-batch of ~4,700 tokens under ppo_max_token_len_per_gpu
    # 8000) x grad_accum 4 x 8 GPUs. verl's mfu/actor divides 6 x params x tokens / update seconds / GPUs by the card's
    # peak (volcengine/verl verl/utils/flops_counter.py: 'H100' 989e12, 'A100' 312e12): Qwen2.5-0.5B's 494M params
    # (its model card) recomputed from the logged fields name the H100 the README states, not the A100 the script's
    # experiment name says: 0.76 of 989e12 on the logged steps, as timing_s/update_actor also spans the dispatch around
    # the worker's own update timer that mfu divides by (a large share of a 0.5B model's 1.1 s update)
    row = next(r for r in ptt.read_rows() if r["id"] == "play-verl-grpo-qwen2.5-0.5b-8xh100")
    s = row["scenario"]
    assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == 512 and s["num_generations"] == 2
    for step in row["steps"]:
        assert abs(step["total_num_tokens"] / (step["prompt_length_mean"] + step["response_length_mean"]) - 512) < 2
        peak = 6 * 494e6 * step["total_num_tokens"] / step["timing_s"]["update_actor"] / 8 / step["mfu_actor"]
        assert abs(peak / 989e12 - 1) < 0.35 and abs(peak / 312e12 - 1) > 1.0, peak
    assert s["max_completion_len"] == 192 and s["packing"] == "padding-free"  # response_length/max at the cap


def test_the_coursia_probe_rows_are_the_probes_mean_step_on_the_memory_rows_run() -> None:
    # jsboige/CoursIA vram_wall_probe.py (1a61240a): sec_per_step = (time after trainer.train() - t1) / 3 with t1
    # taken before GRPOTrainer(...), so the figure is train_s / 3 (the line states both); the scenario is the memory
    # row's with the probe's gradient_accumulation_steps 4 (per_device_train_batch_size 8 completions x 4 = 32 an
    # optimizer step, one generation call: TRL >= 0.18 steps_per_generation)
    import json
    import re

    from engine.accuracy.posttraining import PUBLISHED_FILE

    memory_rows = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"))
    memory_rows = {m["id"]: m for m in (memory_rows["rows"] if isinstance(memory_rows, dict) else memory_rows)}
    rows = [r for r in ptt.read_rows() if r["source_name"] == "coursia-vram-probe"]
    assert len(rows) == 7  # Qwen3-14B at 3 caps and 16 generations, Qwen3.5-9B at 3 caps (h-qwen35)
    for row in rows:
        train_s, per_step = (float(v) for v in re.findall(r"[0-9.]+", row["stated"]))
        assert abs(train_s / 3 - per_step) <= 0.051 and ptt.measured_phases(row) == {"step": per_step}
        memory = memory_rows[row["memory_row"]]
        assert {k: v for k, v in row["scenario"].items() if k not in ("name", "grad_accum")} == {
            k: v for k, v in memory["scenario"].items() if k != "name"}
        assert row["scenario"]["micro_batch"] * row["scenario"]["grad_accum"] == 32


def test_the_new_ms_swift_dpo_rows_are_their_examples_global_batch() -> None:
    # examples/megatron/lora/dpo.sh ('2 * 65GiB; 4.50s/it'): global_batch_size 16 = micro_batch_size 8 x
    # data-parallel 2 (EP 2 on 2 GPUs, TP 1) x 1; examples/megatron/multimodal/dense/dpo.sh ('4 * 50GiB 14s/it'):
    # 4 = 1 x data-parallel 1 (TP 4 on 4 GPUs) x 4. Both scripts set rpo_alpha 0.1 at 3602360a, but only since
    # 8382fb061 (2025-12-25), after their figures were written (3bbc7fe43, a161d54d4): the runs had none (h-verlrows)
    import json

    from engine import scenario_from_dict
    from engine.accuracy.posttraining import PUBLISHED_FILE

    memory_rows = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"))
    memory_rows = {m["id"]: m for m in (memory_rows["rows"] if isinstance(memory_rows, dict) else memory_rows)}
    global_batch = {"ms-swift-example-time-megatron-dpo-lora-qwen3-30b-a3b-2gpu": (16, 4.5),
                    "ms-swift-example-time-megatron-dpo-packing-qwen2.5-vl-7b-4gpu": (4, 14.0)}
    rows = {r["id"]: r for r in ptt.read_rows() if r["id"] in global_batch}
    assert set(rows) == set(global_batch)
    for rid, row in rows.items():
        memory = memory_rows[row["memory_row"]]
        assert row["stated"] == memory["reported_as"] and ptt.measured_phases(row) == {"step": global_batch[rid][1]}
        s = scenario_from_dict(row["scenario"])
        assert s.grad_accum * s.micro_batch * s.dp == global_batch[rid][0] and s.rpo_alpha == 0.0
        assert {k: v for k, v in row["scenario"].items() if k not in ("name", "grad_accum")} == {
            k: v for k, v in memory["scenario"].items() if k != "name"}
    # ms-swift's Megatron arguments default padding_free True (swift/megatron/argument/megatron_args.py line 82 at
    # 3bbc7fe43) and its DPO trainer runs a micro-batch as one 'thd' sequence: the LoRA run's 8 pairs unpadded
    assert rows["ms-swift-example-time-megatron-dpo-lora-qwen3-30b-a3b-2gpu"]["scenario"]["packing"] == "padding-free"


def test_the_rlrows2_sources_gap_as_reported() -> None:
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py, h-rlrows2). TRL GRPO QLoRA Qwen3-14B
    # on an RTX 4090 without vLLM (the probe's mean over 3 steps with the trainer's build: an upper bound) at completion
    # caps 96 / 160 / 288: -47.3% / -50.5% / -42.4%; at 16 generations (same 32 completions a step, measured 54.4 s
    # against 37.4 s at 8) -66.0%. ms-swift Megatron DPO: LoRA Qwen3-30B-A3B at max_length 2048 (an upper bound on
    # the lengths) +51.8%; Qwen2.5-VL-7B packed -78.0%. play-verl GRPO Qwen2.5-0.5B: step -27.0% (generation -26.7%,
    # scoring -23.8%, update -21.1%). Then (h-trlgen) the 4-bit linears' own Python and dequantisation launches in
    # every decode step of TRL's generate (hf_host.linear4bit_decode_host_seconds, bitsandbytes 0.50.1's no-grad
    # matmul_4bit; presets/bnb_4bit.json counts): the CoursIA rows -47.3 / -50.5 / -42.4 / -66.0% -> -38.9 / -42.4 /
    # -32.7 / -60.4%; lora_dropout's kernel (lora_adapters.py runs_lora_dropout) -> -36.9 / -40.4 / -30.4 / -59.0%;
    # DynamicCache's concatenation (host_iteration.py DYNAMIC_CACHE_CATS_PER_LAYER, eager_decode.py
    # dynamic_cache_bytes_per_token) -> -36.7 / -40.2 / -30.2 / -58.9%; generate()'s loop outside the layers
    # (GENERATE_LOOP_*, benchmarks/hf_generate_loop_host.py) -> -35.8 / -39.4 / -29.2 / -58.4%; Qwen3's q/k norms in
    # the eager layer's counts (host_overhead.json hf_eager_layers qwen3) -> -33.1 / -36.8 / -26.1 / -56.5%; then
    # (h-trlbf16) TRL's cast of the 4-bit model's adapters to bf16 (grpo_trainer.py 495-503 at f2cd577: the 16-bit
    # adapter path, no fp32 casts or CUDA-core SGEMMs) -> -38.1 / -41.6 / -31.7 / -59.8%, faster: the wrong way.
    # Then (h-vlmtime) the image encoder's forward (frozen tower, one 980 px image a sample, engine/timing/
    # vision_time.py): the Qwen2.5-VL-7B DPO row -77.3% -> -72.3%; then (h-trlpost) the frozen tower's input-gradient
    # backward and its checkpointed blocks' second forward in the policy pass (vision_tower frozen-backward: the
    # script's --vit_gradient_checkpointing true, ms-swift a161d54d4 swift/megatron/trainers/base.py lines 266-275)
    # -72.1% -> -66.4%
    compared = {c.id: c for c in ptt.compare()}
    held = {("coursia-time-trl-grpo-qlora-qwen3-14b-c96-g8-rtx-4090", "step"): (-0.45, -0.31),
            ("coursia-time-trl-grpo-qlora-qwen3-14b-c160-g8-rtx-4090", "step"): (-0.49, -0.35),
            ("coursia-time-trl-grpo-qlora-qwen3-14b-c288-g8-rtx-4090", "step"): (-0.39, -0.25),
            ("coursia-time-trl-grpo-qlora-qwen3-14b-c160-g16-rtx-4090", "step"): (-0.67, -0.53),
            ("ms-swift-example-time-megatron-dpo-lora-qwen3-30b-a3b-2gpu", "step"): (0.40, 0.65),
            ("ms-swift-example-time-megatron-dpo-packing-qwen2.5-vl-7b-4gpu", "step"): (-0.72, -0.60),
            ("play-verl-grpo-qwen2.5-0.5b-8xh100", "step"): (-0.34, -0.20),
            ("play-verl-grpo-qwen2.5-0.5b-8xh100", "generation"): (-0.34, -0.19),
            ("play-verl-grpo-qwen2.5-0.5b-8xh100", "scoring"): (-0.32, -0.15),
            ("play-verl-grpo-qwen2.5-0.5b-8xh100", "update"): (-0.29, -0.13)}
    for (rid, phase), (low, high) in held.items():
        assert low < compared[rid].error(phase) < high, (rid, phase, compared[rid].error(phase))


def test_the_qwen35_probe_rows_gap_as_reported() -> None:
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py, h-qwen35): the same probe's Qwen3.5-9B
    # lines (18.2 / 27.6 / 65.1 s at caps 96 / 160 / 288) on the same RTX 4090, estimated 8.61 / 13.98 / 24.73 s:
    # -52.7% / -49.3% / -62.0%, as short as its Qwen3-14B rows (-47.3% / -50.5% / -42.4%) up to 160 tokens. At 288
    # the 9B's measured step passes the 14B's (65.1 against 56.5 s) where the estimate keeps the 9B below the 14B
    # (24.73 against 32.57 s): the measured 9B grows 2.36x from 160 to 288 tokens (the 14B 1.51x, the estimate 1.77x);
    # not modelled (candidates: the DeltaNet layers' torch loops if fla / causal-conv1d were absent, not stated).
    # After h-trlgen's decode mechanisms (bitsandbytes 4-bit calls, the KV cache concatenation and generate()'s own
    # loop, tests/test_trl_generate_decode.py) merged beside them: 10.79 / 17.60 / 31.23 s, -40.7% / -36.2% / -52.0%;
    # with TRL's bf16 adapters (h-trlbf16, the 16-bit adapter path): 9.95 / 16.23 / 28.80 s, -45.3% / -41.2% / -55.8%;
    # with the DeltaNet layers' torch path counted (h-unsloth3: hf_eager_layers qwen3_5_text, the decode step's
    # recurrent path 79.1 -> 94.8 ms at 288): 11.46 / 18.75 / 33.33 s, -37.0% / -32.1% / -48.8%; without the two
    # DynamicCache cats added again to counts that ran over the cache (review 20): 11.42 / 18.69 / 33.22 s,
    # -37.2% / -32.3% / -49.0%
    compared = {c.id: c for c in ptt.compare()}
    held = {"coursia-time-trl-grpo-qlora-qwen3.5-9b-c96-g8-rtx-4090": (-0.42, -0.32),
            "coursia-time-trl-grpo-qlora-qwen3.5-9b-c160-g8-rtx-4090": (-0.37, -0.27),
            "coursia-time-trl-grpo-qlora-qwen3.5-9b-c288-g8-rtx-4090": (-0.54, -0.44)}
    for rid, (low, high) in held.items():
        assert low < compared[rid].error("step") < high, (rid, compared[rid].error("step"))
    steps = [compared[rid].measured["step"] for rid in held]
    assert steps == [18.2, 27.6, 65.1]


def test_no_source_holds_more_than_30_percent_of_the_runs() -> None:
    # the validation standard of issue 23: no single source above 30% of the measured post-training runs. At this
    # commit NeMo-RL's performance summary and verl-data hold 17 of 64 each (26.6%; 17 of 59 = 28.8% before the five
    # per-phase NeMo-RL rows of h-nemorl4, 17 of 56 = 30.4% before the three Qwen3.5-9B probe rows)
    compared = ptt.compare()
    counts: dict[str, int] = {}
    for c in compared:
        counts[c.source_name] = counts.get(c.source_name, 0) + 1
    assert max(counts.values()) / len(compared) <= 0.30, counts


def test_every_left_out_run_states_its_source_figures_and_reason() -> None:
    # tests/data/published/posttraining_time.json left_out: published step times looked at and not taken (as the
    # throughput files' not_expressible lists); none of them is also compared
    import json

    data = json.loads(ptt.TIME_FILE.read_text(encoding="utf-8"))
    row_ids = {r["id"] for r in data["rows"]}
    assert len(data["left_out"]) >= 5
    for entry in data["left_out"]:
        assert entry["source"] and entry["reason"] and entry["measured_seconds"], entry["id"]
        assert entry["url"].startswith("https://") and entry["id"] not in row_ids


def test_the_gpg_log_runs_its_batch_on_the_card_verls_mfu_names() -> None:
    # diqiuzhuanzhuan/verldata run_logs/qwen2-7b_math.log (verl docs/algo/baseline.md's GPG log): 1024 prompts x
    # rollout.n 5 = 5120 sequences a step, held as ppo_micro_batch_size_per_gpu 16 x grad_accum 40 x 8 GPUs; verl's
    # mfu/actor divides the update's FLOPs by the card's peak (verl/utils/flops_counter.py at f9a7cf30: 'A100' /
    # 'A800' 312e12, 'H100' / 'H800' / 'H200' 989e12): 6 x Qwen2-7B's 7.6e9 params x the logged tokens name the A100
    # class the row enters; its 80 GB part (perf/max_memory_allocated_gb 66.1). prompt_len is data.max_prompt_length
    # 1024 (the command line the log traces); prompt_len_mean and completion_len the medians of the logged means, as
    # its twins take them (h-verlrows). Held as reported: every phase about half the measured (step -48.7%,
    # generation -52.9%, scoring -43.0%, update -47.3%); A100 or A800, SXM4 or PCIe, is not said (at a PCIe-class
    # 25 GB/s link the step would be -14.5%: the row's largest unknown). h-verlscore: its 16-sequence padding-free
    # micro-batches (use_dynamic_bsz False) at their longest rank's tokens (rank_imbalance.py, factor 1.22 over 8
    # ranks): step -48.3% -> -40.3%, scoring -42.6% -> -31.4%, update -46.9% -> -35.7%, generation unchanged.
    # h-verldynbsz: at its log's spread (sequence_len_std 343 tokens: global_seqlen/minmax_diff 24,729 (median of
    # steps 2-4) over 2 e_8 sqrt(640), 1.47 of the assumed; an upper bound for GRPO's grouped completions): step
    # -40.3% -> -36.6%, scoring -31.4% -> -26.1%, update -35.7% -> -30.4%
    row = next(r for r in ptt.read_rows() if r["id"] == "diqiuzhuanzhuan-verl-gpg-qwen2-7b-8gpu")
    s = row["scenario"]
    assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == 5120 and s["reference_model"] == "none"
    assert s["prompt_len"] == 1024 and s["prompt_len_mean"] == round(statistics.median(
        step["prompt_length_mean"] for step in row["steps"]))
    assert s["completion_len"] == round(statistics.median(step["response_length_mean"] for step in row["steps"]))
    for step in row["steps"]:
        assert abs(step["total_num_tokens"] / (step["prompt_length_mean"] + step["response_length_mean"]) - 5120) < 3
        peak = 6 * 7.6e9 * step["total_num_tokens"] / step["timing_s"]["update_actor"] / 8 / step["mfu_actor"]
        assert abs(peak / 312e12 - 1) < 0.1 and s["gpu"] == "a100-80gb", peak
    compared = next(c for c in ptt.compare() if c.id == row["id"])
    for phase, (low, high) in {"step": (-0.44, -0.30), "generation": (-0.60, -0.46), "scoring": (-0.33, -0.19),
                               "update": (-0.38, -0.24)}.items():
        assert low < compared.error(phase) < high, (phase, compared.error(phase))


def test_the_play_verl_qwen2_7b_ppo_rows_pad_the_critic_apart_from_the_actor() -> None:
    # dingxianzhong/play-verl logs/verl_qwen2_7b_min.log / _recommended.log at 7716a615 (resolved configs): the actor
    # runs use_remove_padding True (packing padding-free, at the logged prompt_length/mean and response_length/mean),
    # the critic critic.model.use_remove_padding False (verl's default, volcengine/verl@ed498f9f ppo_trainer.yaml line
    # 146): critic_packing none, each critic sequence at the batch's width max_prompt_length 512 + response_length
    # 1024 (rollout_max_model_len 1536). Batches: 512 x n 1 and 1024 x n 5 sequences (perf/total_num_tokens over the
    # mean lengths on every taken step) as micro_batch x grad_accum x 8 GPUs; the min run offloads actor and critic.
    batch = {"play-verl-ppo-qwen2-7b-min-8xh100": 512, "play-verl-ppo-qwen2-7b-recommended-8xh100": 5120}
    rows = {r["id"]: r for r in ptt.read_rows() if r["id"] in batch}
    assert set(rows) == set(batch)
    for rid, row in rows.items():
        s = row["scenario"]
        assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == batch[rid]
        assert (s["packing"], s["critic_packing"], s["prompt_len"], s["rollout_max_model_len"]) == (
            "padding-free", "none", 512, 1536)
        for step in row["steps"]:
            per_sequence = step["prompt_length_mean"] + step["response_length_mean"]
            assert abs(step["total_num_tokens"] / per_sequence - batch[rid]) < 2, rid
        assert s["prompt_len_mean"] == round(statistics.median(step["prompt_length_mean"] for step in row["steps"]))
        assert s["completion_len"] == round(statistics.median(st["response_length_mean"] for st in row["steps"]))
    # held as reported (h-rlrows3): the recommended run's critic update (measured update_critic 99.2 s, the
    # median of steps 2-4) estimated 110.6 s at the padded width, 22.1 s at the actor's layout; the step -7.1%
    # (-59.4% at the actor's layout), generation -23.7%, scoring -16.8%, update -33.3%; the min run's step -30.3%
    # (-53.2%), generation -13.3%, scoring -29.3%, update -47.5% (its critic's offload copies in values and
    # update_critic, not update_actor, h-verlrows: before, scoring -31.5%, update -40.9%). h-verlscore: the actor's
    # padding-free micro-batches at their longest rank's tokens (rank_imbalance.py): recommended step -7.0% -> -4.8%,
    # scoring -16.8% -> -13.2%, update -33.3% -> -24.4%; min step -30.2% -> -26.3%, scoring -29.3% -> -21.7%, update
    # -47.5% -> -34.0%. h-verldynbsz: the runs' use_dynamic_bsz True stated (max_tokens_per_micro_batch 12,000 / 8,192,
    # ppo_max_token_len_per_gpu), so the log-prob passes, each rank's whole share balanced by tokens, wait for no rank
    # and the update's mini-batches for their longest rank (verl@9e4074b7 rearrange_micro_batches), at each log's
    # spread (sequence_len_std 113 / 95: 0.60 / 0.59 of the assumed): recommended step -4.8% -> -6.1%, scoring -13.2% ->
    # -16.8%, update -24.4% -> -27.9%; min step -26.3% -> -28.6%, scoring -21.7% -> -29.3%, update -34.0% -> -39.5%
    # (away from the measured: the code's split, not a fit)
    compared = {c.id: c for c in ptt.compare()}
    held = {("play-verl-ppo-qwen2-7b-recommended-8xh100", "step"): (-0.15, 0.0),
            ("play-verl-ppo-qwen2-7b-recommended-8xh100", "generation"): (-0.32, -0.15),
            ("play-verl-ppo-qwen2-7b-recommended-8xh100", "scoring"): (-0.25, -0.09),
            ("play-verl-ppo-qwen2-7b-recommended-8xh100", "update"): (-0.36, -0.20),
            ("play-verl-ppo-qwen2-7b-min-8xh100", "step"): (-0.37, -0.21),
            ("play-verl-ppo-qwen2-7b-min-8xh100", "generation"): (-0.22, -0.05),
            ("play-verl-ppo-qwen2-7b-min-8xh100", "scoring"): (-0.37, -0.21),
            ("play-verl-ppo-qwen2-7b-min-8xh100", "update"): (-0.48, -0.31)}
    for (rid, phase), (low, high) in held.items():
        assert low < compared[rid].error(phase) < high, (rid, phase, compared[rid].error(phase))
    critic = dict(compared["play-verl-ppo-qwen2-7b-recommended-8xh100"].estimated_parts)["critic"]
    measured = statistics.median(s["timing_s"]["update_critic"] for s in rows[
        "play-verl-ppo-qwen2-7b-recommended-8xh100"]["steps"])
    assert abs(critic / measured - 1) < 0.2, (critic, measured)


def test_the_verl_data_fsdp2_row_runs_its_batch_on_the_card_verls_mfu_names() -> None:
    # eric-haibin-lin/verl-data gsm8k/qwen2-7b-fsdp2.log at 2ef0b0af (verl docs/algo/baseline.md): 1024 prompts x
    # rollout.n 5 = 5120 sequences a step, held as ppo_micro_batch_size_per_gpu 40 x grad_accum 16 x 8 GPUs; verl's
    # mfu/actor divides the update's FLOPs by the card's peak (verl/utils/flops_counter.py at b178a3c: 'H20' 148e12,
    # 'A100' 312e12, 'H100' 989e12): 6 x Qwen2-7B's 7.62e9 params (the log) x the logged tokens name the H20 the row
    # enters. Held as reported (h-rlrows3): step -2.6%, generation -3.6%, scoring +1.6%, update -3.4%; h-verlscore
    # moves it the wrong way: its 40-sequence padding-free micro-batches at their longest rank's tokens
    # (rank_imbalance.py, factor 1.14 over 8 ranks at the assumed maximum-entropy spread of a 193-token mean and the
    # longest) give step +7.5%, scoring +14.8%, update +9.8% (generation unchanged): the one verl row estimated long
    # in every phase but generation. h-verldynbsz: at its log's own spread (sequence_len_std 100 tokens:
    # global_seqlen/minmax_diff 7,223 (median of steps 2-4) over 2 e_8 sqrt(640), 0.55 of the assumed; an upper bound
    # for GRPO's grouped completions), factor 1.08: step +7.5% -> +3.1%, scoring +14.8% -> +8.8%, update +9.8% -> +3.8%
    row = next(r for r in ptt.read_rows() if r["id"] == "verl-data-time-grpo-qwen2-7b-fsdp2-8xh20")
    s = row["scenario"]
    assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == 5120 and s["gpu"] == "h20"
    for step in row["steps"]:
        assert abs(step["total_num_tokens"] / (step["prompt_length_mean"] + step["response_length_mean"]) - 5120) < 2
        peak = 6 * 7.62e9 * step["total_num_tokens"] / step["timing_s"]["update_actor"] / 8 / step["mfu_actor"]
        assert abs(peak / 148e12 - 1) < 0.05, peak
    compared = next(c for c in ptt.compare() if c.id == row["id"])
    for phase, (low, high) in {"step": (-0.04, 0.10), "generation": (-0.12, 0.05), "scoring": (0.02, 0.16),
                               "update": (-0.03, 0.11)}.items():
        assert low < compared.error(phase) < high, (phase, compared.error(phase))


def test_the_math_runs_of_the_lora_recipe_are_their_memory_rows_at_the_logged_lengths() -> None:
    # eric-haibin-lin/verl-data math/Qwen2.5-*-prompt1024-resp512-*.log (verl docs/algo/baseline.md; h-rlrows4): the
    # GSM8K GRPO-LoRA recipe at prompt 1,024 / response 512, seven runs on MATH (bcff590b, cc499463; July 2025, each
    # with its memory row in posttraining.json) and the 7B and 32B on GSM8K + MATH (f2960497; June 2025, the same
    # script but the data files, so the MATH run's memory row of that size): every setting is the memory row's, only
    # the lengths (logged medians of steps 2 and 3), the optimizer's micro-batches and the V0 release are the time row's
    import json

    from engine.accuracy.posttraining import PUBLISHED_FILE

    memory = json.loads(PUBLISHED_FILE.read_text(encoding="utf-8"))
    memory = {m["id"]: m for m in (memory["rows"] if isinstance(memory, dict) else memory)}
    rows = [r for r in ptt.read_rows()
            if r["id"].startswith(("verl-data-time-grpo-lora-math-", "verl-data-time-grpo-lora-mixed-"))]
    assert len(rows) == 9
    own = {"name", "prompt_len", "prompt_len_mean", "completion_len", "max_completion_len", "grad_accum",
           "rollout_engine_release"}
    # verl's perf/mfu/actor divides the update's FLOPs by the device's promised peak (verl/utils/flops_counter.py at
    # b178a3c: 'H100' / 'H800' / 'H200' 989e12, 'A100' / 'A800' 312e12, 'H20' 148e12): 6 x the Qwen2.5 parameters
    # (7.62e9, 14.77e9, 32.76e9, 72.71e9: the models' configs) x perf/total_num_tokens / timing_s/update_actor /
    # GPUs / mfu reads 0.88-0.93 of 989e12 on every logged step of the 7B-72B runs (the update timer also holds the
    # offload copies), the card class the rows enter (an 80 GB H100, as verl docs/perf/device_tuning.rst lists the
    # recipe's runs), not an A100's or H20's
    params = {"7b": 7.62e9, "14b": 14.77e9, "32b": 32.76e9, "72b": 72.71e9}
    for row in rows:
        memory_id = row.get("memory_row") or row["id"].replace("-time-", "-").replace("-mixed-", "-math-")
        expected = {k: v for k, v in memory[memory_id]["scenario"].items() if k not in own}
        assert {k: v for k, v in row["scenario"].items() if k not in own} == expected, row["id"]
        size = row["id"].split("qwen2.5-")[1].split("-")[0]
        for step in row["steps"]:
            assert step["response_length_max"] == row["scenario"]["max_completion_len"] == 512
            if size in params:
                peak = (6 * params[size] * step["perf_total_num_tokens"] / step["timing_s"]["update_actor"]
                        / row["scenario"]["gpus_per_node"] / step["mfu_actor"])
                assert 0.85 < peak / 989e12 < 1.0, (row["id"], peak)
    # held as reported (h-rlrows4), the whole step: MATH 0.5B -3.9%, 1.5B -5.9%, 3B +7.6% (generation +8.7%: the one
    # row estimated long), 7B -8.0%, 14B -20.0%, 32B -24.3%, 72B -28.4%; GSM8K + MATH 7B -11.3%, 32B -19.7%. The rollout
    # of the TP-8 engines (14B, 32B, 72B) is the shortest phase: generation -21.5%, -28.8%, -34.0%
    compared = {c.id: c for c in ptt.compare() if c.id in {r["id"] for r in rows}}
    steps = sorted(c.error("step") for c in compared.values())
    # median -0.078 since h-verlscore's rank wait and h-a2await's Hopper GEMM beside NCCL (was -0.08..-0.14)
    assert -0.14 < statistics.median(steps) < -0.06 and -0.32 < steps[0] and steps[-1] < 0.12
    for size in ("14b", "32b", "72b"):
        assert compared[f"verl-data-time-grpo-lora-math-qwen2.5-{size}-8gpu"].error("generation") < -0.15


def test_the_gpg_megatron_twin_runs_without_recompute_on_the_same_card_class() -> None:
    # diqiuzhuanzhuan/verldata run_logs/qwen2-7b_math_megatron.log (verl docs/algo/baseline.md): the FSDP GPG run's
    # batch (5120 sequences) on verl's Megatron actor, TP 2 x PP 2 (data-parallel 2), 4 sequences a micro-batch: 2560 a
    # rank = micro_batch 4 x grad_accum 640. enable_gradient_checkpointing True with null gradient_checkpointing_kwargs,
    # which verl@f9a7cf30 worker.py lines 86-90 reads as recompute_granularity None (the log's TF config says so): no
    # recompute. verl's mfu names the A100 class (312e12) as for the FSDP twin. Held as reported (h-rlrows3): step
    # -55.1%, generation -44.0%, scoring -65.2%, update -54.2%: every phase about half, as the FSDP twin's (-51.2%) on
    # another training framework, so the machine (card or host) rather than either framework's model. h-verlscore: the
    # FSDP twin's padding-free micro-batches now wait for their longest rank (FSDP's per-layer gathers tie the 8
    # ranks: rank_imbalance.py), its step -48.3% -> -40.3%; the Megatron twin's two data-parallel ranks meet only in
    # the gradient reduction after the micro-batches, so it stays (-54.4%): 14 points apart, not 6; h-verldynbsz: the
    # FSDP twin at its log's spread (sequence_len_std 343, 1.47 of the assumed) -40.3% -> -36.6%: 18 points apart
    row = next(r for r in ptt.read_rows() if r["id"] == "diqiuzhuanzhuan-verl-megatron-gpg-qwen2-7b-8gpu")
    s = row["scenario"]
    dp = s["gpus_per_node"] // (s["tp"] * s["pp"])
    assert s["micro_batch"] * s["grad_accum"] * dp == 5120 and s["checkpointing"] == "none"
    for step in row["steps"]:
        assert abs(step["total_num_tokens"] / (step["prompt_length_mean"] + step["response_length_mean"]) - 5120) < 3
        peak = 6 * 7.6e9 * step["total_num_tokens"] / step["timing_s"]["update_actor"] / 8 / step["mfu_actor"]
        assert abs(peak / 312e12 - 1) < 0.1, peak
    compared = {c.id: c for c in ptt.compare()}
    megatron = compared[row["id"]]
    for phase, (low, high) in {"step": (-0.62, -0.48), "generation": (-0.52, -0.36), "scoring": (-0.72, -0.58),
                               "update": (-0.62, -0.46)}.items():
        assert low < megatron.error(phase) < high, (phase, megatron.error(phase))
    assert abs(megatron.error("step") - compared["diqiuzhuanzhuan-verl-gpg-qwen2-7b-8gpu"].error("step")) < 0.20


def test_the_play_verl_qwen2_7b_logs_ran_on_the_h100_class_verls_mfu_names() -> None:
    # dingxianzhong/play-verl's README said 8xA100-80GB when the logs were added (976b3cf, c5fbcb2) and 8xH100-80GB
    # from 7716a615. verl's perf/mfu/actor is the update's FLOPs (6 x params x the batch's tokens) over update_policy's
    # own time, the GPUs and the card's peak (verl/utils/flops_counter.py: 'A100' / 'A800' 312e12, 'H100' / 'H800' /
    # 'H200' 989e12), and timing_s/update_actor contains update_policy: only the H100 class fits every logged step
    for rid in ("play-verl-ppo-qwen2-7b-min-8xh100", "play-verl-ppo-qwen2-7b-recommended-8xh100"):
        row = next(r for r in ptt.read_rows() if r["id"] == rid)
        assert row["scenario"]["gpu"] == "h100-sxm-80gb"
        for step in row["steps"]:
            flops_per_gpu = 6 * 7.62e9 * step["total_num_tokens"] / 8
            update_actor = step["timing_s"]["update_actor"]
            assert flops_per_gpu / (step["mfu_actor"] * 989e12) < update_actor, (rid, step["step"])
            assert flops_per_gpu / (step["mfu_actor"] * 312e12) > update_actor, (rid, step["step"])


def test_the_critics_offload_copies_are_timed_in_values_and_update_critic() -> None:
    # verl b178a3c fsdp_workers.py: compute_values loads and offloads the critic's parameters (lines 1540-1555),
    # update_critic its parameters and optimizer (1560-1586); ray_trainer.py times them as timing_s/values (line
    # 1543, the comparison's scoring) and timing_s/update_critic (1598, the step only), not as update_actor
    from engine import scenario_from_dict
    from engine.posttraining.estimate import step_parts
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"] == "play-verl-ppo-qwen2-7b-min-8xh100")
    s = scenario_from_dict(row["scenario"])
    moves = step_parts(s).moves
    total = dict(step_time(s).rl_seconds)["phase_offload"]
    split = ptt.offload_by_phase(s, total)
    assert moves.critic_params_bytes > 0 and moves.critic_update_bytes > 0
    assert abs(sum(split.values()) - total) < 1e-12
    # the actor: one parameter load in generation (weight sync), one in scoring (old policy), one in the update
    actor_load = split["generation"]
    critic_load = split["scoring"] - actor_load
    assert critic_load > 0 and abs(critic_load / actor_load - moves.critic_params_bytes / moves.params_bytes) < 1e-9
    assert abs(split["critic"] - critic_load * (1 + moves.critic_update_bytes / moves.critic_params_bytes)) < 1e-9
    assert abs(split["update"] - actor_load * (1 + moves.update_bytes / moves.params_bytes)) < 1e-9


def test_nemo_rl_per_phase_rows_put_the_gap_in_the_rollout() -> None:
    # h-nemorl4: the Megatron runs NeMo-RL's timers split by phase (the v0.3 announcement's table, NVIDIA-NeMo/RL
    # discussion #1161, and SB Intuitions' rerun of it, issue #959), read through NEMO_RL_LOGGED_PHASES: refit +
    # generation / get logprobs / policy training. The dense runs' Megatron passes are within 10% and their rollout is
    # 23-33% short; the MoE's update is the other short phase (-56%). h-a2await: Hopper's GEMMs at half their rate
    # beside NCCL's collectives (engine/timing/contention.py) put the 70B on 64 H100 at scoring +7.2% -> +9.8%,
    # update +2.6% -> +4.4% (the 8B's -4.0% / -6.3% unchanged)
    rows = {r["id"]: r for r in ptt.read_rows() if r["source_name"] in ("nemo-rl-v0.3-announcement",
                                                                         "nemo-rl-issue-959-rerun")}
    assert len(rows) == 5
    # the 8B blog line: 5 s refit + 58 s generation, 18 s get logprobs, 28 s policy training, of a 112 s step
    assert ptt.measured_phases(rows["nemo-rl-v03-blog-grpo-llama3.1-8b-8xh100"]) == {
        "step": 112, "generation": 63, "scoring": 18, "update": 28}
    compared = {c.id: c for c in ptt.compare() if c.id in rows}
    # h-nemorlroll: the worker's batch and the driver's decode after generate() (worker_output.py) and a dense decode
    # from CUDA graphs draining along the spread (length_spread.py, its KV read's second moment): generation 8B -27.5 /
    # -28.0% -> -16.0 / -16.7%, 70B -22.9 / -33.2% -> -20.8 / -31.3%, 30B-A3B -17.1% -> -5.0% (its 3,251-token mean
    # completions: 128 x 3,251 tokens an engine)
    for rid, c in compared.items():
        assert (-0.35 if "a3b" not in rid else -0.20) < c.error("generation") < (-0.15 if "a3b" not in rid else 0.0), \
            (rid, c.error("generation"))
        if "a3b" in rid:
            assert c.error("update") < -0.45, (rid, c.error("update"))
        else:
            assert abs(c.error("update")) < 0.10 and abs(c.error("scoring")) < 0.10, rid
