"""The post-training TIME against measured runs (issue 23; tests/data/published/posttraining_time.json, report
benchmarks/posttraining_time_accuracy.py). The measured figures are the logged timing_s of verl's GRPO-LoRA baseline
logs (eric-haibin-lin/verl-data, each row's source and url); the expected values below are recomputed from the stored
rows, never typed in, and the held error bounds are the report's own figures at this commit (stated per test), so a
change of the model that moves them must move these bounds and say so."""

from __future__ import annotations

import statistics

from engine.accuracy import posttraining_time as ptt
from engine.accuracy.posttraining import error_stats


def test_every_row_is_complete_and_sourced() -> None:
    rows = ptt.read_rows()
    assert len(rows) >= 7
    for row in rows:
        assert ptt.integrity_problems(row) == [], row["id"]
        assert row["id"].startswith("verl-data-time-") and "verl-data" in row["url"]


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
    # every row ran 64 prompts x rollout.n 5 = 320 sequences a step; the logged perf/total_num_tokens over the mean
    # lengths says so within rounding, and the scenario holds them as micro_batch x grad_accum x GPUs
    for row in ptt.read_rows():
        s = row["scenario"]
        for step in row["steps"]:
            per_sequence = step["prompt_length_mean"] + step["response_length_mean"]
            assert abs(step["perf_total_num_tokens"] / per_sequence - 320) < 1.0, row["id"]
        assert s["micro_batch"] * s["grad_accum"] * s["gpus_per_node"] == 320, row["id"]


def test_summary_matches_the_rows_and_holds_the_reported_gap() -> None:
    compared = ptt.compare()
    summary = ptt.summary(compared)
    for phase in ptt.PHASES:
        expected = error_stats(c.error(phase) for c in compared)
        assert summary["all"][phase] == expected
    # held as reported at this commit (benchmarks/posttraining_time_accuracy.py, 7 rows, the offload copies in the
    # phase whose timer holds them): every phase estimated short, generation the most (median signed -95.8%: vLLM's
    # eager decode iteration measures 49-183 ms where the roofline and the host's eager launches give 4.1-13.8 ms),
    # then update (-63.3%) and scoring (-54.9%; -70.5% when it counted matmul FLOPs alone); the whole step -86.6%
    assert all(c.error("step") < 0 for c in compared)
    assert ptt.signed_median(compared, "generation") < ptt.signed_median(compared, "update") < 0
    assert -0.60 < ptt.signed_median(compared, "scoring") < -0.50
    assert -0.90 < ptt.signed_median(compared, "step") < -0.84


def test_decode_iteration_measured_far_above_the_roofline() -> None:
    # gen / response_length max: the 7B row's 26.8 s over 554 and 537 iterations, about 49 ms each
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    expected = statistics.median(s["timing_s"]["gen"] / s["response_length_max"] for s in row["steps"])
    assert ptt.measured_decode_iteration_seconds(row) == expected
    assert 0.045 < expected < 0.055


def test_policy_scoring_is_the_training_forward_of_the_step() -> None:
    # engine/posttraining/scoring_time.py: verl's compute_log_prob runs the update's _forward_micro_batch under no_grad
    # (verl b178a3cd5 dp_actor.py lines 418-472), so each of GRPO's two policy passes (old policy, adapter-off
    # reference) is the training model's forward of the step's micro-batches: the scoring term is exactly two of them
    from engine import scenario_from_dict
    from engine.posttraining.estimate import step_parts, training_scenario
    from engine.posttraining.scoring_time import policy_forward_seconds
    from engine.workloads import step_time

    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"])
    rs = step_parts(s).rs
    train = training_scenario(s.with_unchecked(offload="none"), rs)  # verl loads the states for its passes
    one = policy_forward_seconds(train)
    t = step_time(s)
    assert rs.online and rs.reference_forward
    assert abs(dict(t.rl_seconds)["scoring"] - 2 * one * t.calibration_factor) < 1e-9
    # under full checkpointing the update's recompute term is the decoder layers' forward of the same micro-batches
    # (engine/timing/model.py _recompute_seconds); a scoring pass is that and the head with its log-softmax
    assert t.breakdown_seconds["recompute"] < one < 1.2 * t.breakdown_seconds["recompute"]


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
    from engine.timing.host import host_figures
    from engine.workloads import step_time

    fig = host_figures()
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-7b-8gpu"))
    s = scenario_from_dict(row["scenario"])
    per_layer = (12 * fig["launch_seconds"]["value"] + 12 * fig["module_call_seconds"]["value"]
                 + 3 * fig["view_seconds"]["value"])
    assert abs(eager_decode_host_seconds(s, 28, 2) - 28 * per_layer) < 1e-12  # Qwen2.5-7B: 28 layers, TP 2
    eager = dict(step_time(s).generation)
    graphs = dict(step_time(s.with_unchecked(rollout_enforce_eager=False)).generation)
    assert eager["decode_step_seconds"] == eager["eager_host_seconds_per_step"] > graphs["decode_step_seconds"]
    assert graphs["eager_host_seconds_per_step"] == 0.0
