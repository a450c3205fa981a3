"""New requests' prefills inside a request's decode (engine/serving/arrivals.py): the closed form against a replay of
the client and scheduler it describes, and its place in the serving estimate and the measured-row comparison."""

from __future__ import annotations

import random
import statistics

import pytest

from engine.accuracy import serving_speed as ss
from engine.scenario import scenario_from_dict
from engine.serving.arrivals import interleaved_prefill_seconds, mixed_prefill_seconds
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed


def _replayed_mean_tpot(concurrency: int, step_s: float, prefill_s: float, prompts: int, seed: int = 1) -> float:
    """Mean TPOT of a replay: a client keeps `concurrency` requests in flight and sends the next prompt when one
    finishes (InferenceX's benchmark_serving.py --max-concurrency, outputs drawn from 819..1,024 by
    --random-range-ratio 0.8, its first 2 x concurrency requests its warm-ups); the engine runs every waiting prompt's
    prefill before the next decode step (SGLang's get_next_batch_to_run), a step giving each running request a token.
    TPOT as the client computes it: (finish - first token) / (outputs - 1)."""
    draw = random.Random(seed)
    outputs = [draw.randint(819, 1024) for _ in range(prompts)]
    now, sent, waiting, running, tpots = 0.0, concurrency, list(range(concurrency)), {}, []
    while waiting or running:
        if waiting:  # prefills first, one prompt's time each
            now += prefill_s * len(waiting)
            running.update({i: [now, outputs[i] - 1] for i in waiting})
            waiting = []
            continue
        now += step_s
        for i in list(running):
            running[i][1] -= 1
            if running[i][1] == 0:
                tpots.append((now - running.pop(i)[0]) / (outputs[i] - 1))
                if sent < prompts:
                    waiting.append(sent)
                    sent += 1
    return statistics.mean(tpots[2 * concurrency:])


@pytest.mark.parametrize("concurrency", [16, 64])
def test_the_closed_form_matches_a_replay_of_the_client_and_scheduler(concurrency: int) -> None:
    # a 10 ms step and a 30 ms prefill (the DeepSeek-R1 rows' estimate: 30.2 ms for a 1,024-token prompt)
    step, prefill = 0.010, 0.030
    replayed = _replayed_mean_tpot(concurrency, step, prefill, 12 * concurrency)
    closed = step + interleaved_prefill_seconds("sglang", concurrency, 922, prefill)
    # the stall part within 10% of the replay's: arrivals batched into one prefill and the warm-up edge differ
    assert closed - step == pytest.approx(replayed - step, rel=0.10)


def test_only_an_engine_that_prefills_ahead_of_decode_and_more_than_one_request_pay_it() -> None:
    assert interleaved_prefill_seconds("sglang", 64, 922, 0.030) == pytest.approx(63 * 0.030 / 921)
    assert interleaved_prefill_seconds("vllm", 64, 922, 0.030) == 0.0  # its chunks' added time is given apart
    assert interleaved_prefill_seconds("vllm", 64, 922, 0.030, 0.012) == pytest.approx(63 * 0.012 / 921)
    assert interleaved_prefill_seconds("llama.cpp", 64, 922, 0.030, 0.012) == 0.0
    assert interleaved_prefill_seconds("sglang", 1, 922, 0.030) == 0.0  # nobody else arrives
    assert interleaved_prefill_seconds("sglang", 64, 1, 0.030) == 0.0


def _row(concurrency: int) -> dict:
    return next(r for r in ss.read_rows() if r["id"] == f"sglang-inferencex-870-h200-dsr1-fp8-tp8-c{concurrency}")


def test_the_serving_step_adds_the_term_only_when_given_outputs_and_ttft_keeps_one_step() -> None:
    row = _row(64)
    s = scenario_from_dict(row["scenario"])
    memory = serving_memory(s)
    alone = serving_speed(s, memory, concurrency=64, context=1383, prompt_tokens=922)
    loaded = serving_speed(s, memory, concurrency=64, context=1383, prompt_tokens=922, output_tokens=922)
    terms = {t.key: t.seconds for t in loaded.decode_terms}
    prefill = sum(t.seconds for t in loaded.prefill_terms)
    assert terms["decode_prefill_arrivals"] == pytest.approx(63 * prefill / 921)
    assert loaded.tpot_seconds == pytest.approx(alone.tpot_seconds + terms["decode_prefill_arrivals"])
    assert loaded.ttft_seconds == pytest.approx(alone.ttft_seconds)  # its own prefill and one step, as before
    assert "decode_prefill_arrivals" not in {t.key for t in alone.decode_terms}  # the Serve tab's estimate


def test_the_rows_client_replaces_finished_requests() -> None:
    """The InferenceX issue-870 runs send 10 x concurrency prompts at --max-concurrency concurrency
    (benchmarks/single_node/experimental/dsr1_fp8_h200_gpu_monitor.sh at 8c145e005a9c): the comparison passes the
    outputs, so the row's TPOT holds the arrivals' prefills; without num_prompts it would not."""
    row = _row(32)
    assert row["workload"]["num_prompts"] == 10 * row["workload"]["concurrency"]
    with_arrivals = ss.estimate_row(row)["tpot_ms"]
    without = ss.estimate_row({**row, "workload": {k: v for k, v in row["workload"].items() if k != "num_prompts"}})
    s = scenario_from_dict(row["scenario"])
    prefill = sum(t.seconds for t in serving_speed(s, serving_memory(s), concurrency=32, context=1383,
                                                   prompt_tokens=922).prefill_terms)
    assert with_arrivals - without["tpot_ms"] == pytest.approx(31 * prefill / 921 * 1e3)


def _replayed_mixed_mean_tpot(concurrency: int, decode_compute_s: float, memory_s: float, prompt_compute_s: float,
                              prompt: int, budget: int, prompts: int, seed: int = 1) -> float:
    """Mean TPOT of a replay of vLLM V1's scheduler (v1/core/sched/scheduler.py schedule: the running requests' one
    token each first, then the waiting prompts in order within what is left of max_num_batched_tokens, cut to it):
    a step takes the longer of its compute (the decode's + its prompt tokens' at the prompt's per-token rate) and
    its memory time; a prompt whose last chunk ran joins the decode with its first token. Client as
    _replayed_mean_tpot."""
    draw = random.Random(seed)
    outputs = [draw.randint(819, 1024) for _ in range(prompts)]
    now, sent, tpots = 0.0, concurrency, []
    waiting = [[i, prompt] for i in range(concurrency)]  # [request, prompt tokens left]
    running: dict[int, list] = {}
    while waiting or running:
        room, chunk_tokens, done = budget - len(running), 0, []
        for w in waiting:
            take = min(w[1], room - chunk_tokens)
            w[1] -= take
            chunk_tokens += take
            if w[1] == 0:
                done.append(w[0])
        now += max(decode_compute_s + chunk_tokens * prompt_compute_s / prompt, memory_s)
        for i in list(running):
            running[i][1] -= 1
            if running[i][1] == 0:
                tpots.append((now - running.pop(i)[0]) / (outputs[i] - 1))
                if sent < prompts:
                    waiting.append([sent, prompt])
                    sent += 1
        waiting = [w for w in waiting if w[1] > 0]
        running.update({i: [now, outputs[i] - 1] for i in done})
    return statistics.mean(tpots[2 * concurrency:])


@pytest.mark.parametrize("concurrency", [16, 64])
def test_vllm_v1s_mixed_chunks_match_a_replay_of_its_scheduler(concurrency: int) -> None:
    # a memory-bound 10 ms step with 4 ms of compute, a 1,024-token prompt of 30 ms compute, budget 512 tokens: the
    # prompt rides 3 steps (2 full chunks of 512 - concurrency tokens and the rest)
    decode_compute, memory, prompt_compute, prompt, budget = 0.004, 0.010, 0.030, 1024, 512
    replayed = _replayed_mixed_mean_tpot(concurrency, decode_compute, memory, prompt_compute, prompt, budget,
                                         12 * concurrency)
    added = mixed_prefill_seconds(prompt_compute, decode_compute, memory, prompt, budget, concurrency)
    closed = memory + interleaved_prefill_seconds("vllm", concurrency, 922, 0.0, added)
    # the added part within 10% of the replay's (two prompts sharing a step and the warm-up edge differ)
    assert closed - memory == pytest.approx(replayed - memory, rel=0.10)
    # less than a separate prefill would add: the chunks' weight reads are the decode steps'
    assert added < prompt_compute


def test_vllm_v1s_serving_step_adds_its_mixed_chunks() -> None:
    """A vLLM scenario (serving_engine vllm: V1) given outputs now pays the other requests' prompt chunks beyond its
    memory-bound steps' idle compute; its TTFT keeps its own prefill and one step."""
    s = scenario_from_dict({**_row(64)["scenario"], "serving_engine": "vllm"})
    memory = serving_memory(s)
    alone = serving_speed(s, memory, concurrency=64, context=1383, prompt_tokens=922)
    loaded = serving_speed(s, memory, concurrency=64, context=1383, prompt_tokens=922, output_tokens=922)
    terms = {t.key: t.seconds for t in loaded.decode_terms}
    prefill = sum(t.seconds for t in loaded.prefill_terms)
    assert 0 < terms["decode_prefill_arrivals"] < 63 * prefill / 921  # below SGLang's whole prefills
    assert loaded.tpot_seconds == pytest.approx(alone.tpot_seconds + terms["decode_prefill_arrivals"])
    assert loaded.ttft_seconds == pytest.approx(alone.ttft_seconds)
