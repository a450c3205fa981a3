"""The users-vs-context curve and the serving suggestions (issue 26), checked against the serving estimate itself:
each point and each suggestion is what `estimate` says for the scenario with that one change."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.suggest import suggestions
from engine.serving import serving_memory
from engine.serving.users_curve import context_lengths, users_at, users_vs_context

QWEN_2X4090 = {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
               "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 32768}
LLAMA_CPP = {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
             "weight_format": "Q4_K_M", "n_ctx": 32768}
# 70.6B parameters x 2 bytes of bf16 = 141 GB: no single 24 GB card holds the weights
SEVENTY_B = {"model": "llama-3.1-70b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "vllm",
             "weight_format": "bf16"}


def test_vllm_points_are_the_estimates_maximum_concurrency_at_each_length():
    s = scenario_from_dict(QWEN_2X4090)
    curve = users_vs_context(s)
    assert [p.context for p in curve.points] == list(context_lengths(40_960, 32_768))  # Qwen3-32B: 40,960 positions
    for point in curve.points:
        memory = serving_memory(s.replace(max_model_len=point.context))
        assert point.users == (int(memory.max_concurrent_sequences) if memory.verdict != "does not fit" else 0)
    users = [p.users for p in curve.points]
    assert users == sorted(users, reverse=True) and users[0] > users[-1]  # longer contexts, fewer users
    assert curve.current.context == 32_768 and curve.scheduler_cap == 256  # vLLM's default below 70 GiB


def test_replicas_multiply_users():
    one = users_at(scenario_from_dict(QWEN_2X4090), 8192)
    two = users_at(scenario_from_dict({**QWEN_2X4090, "gpus_per_node": 4}), 8192)  # two tp=2 instances
    assert two == 2 * one > 0


def test_llama_cpp_slots_are_the_most_that_start():
    s = scenario_from_dict(LLAMA_CPP)
    for point in users_vs_context(s).points:
        fits = estimate(s.replace(n_ctx=point.context * point.users, n_parallel=point.users))
        assert fits.verdict != "does not fit"
        more = point.users + 1
        refused = estimate(s.replace(n_ctx=point.context * more, n_parallel=more))
        assert refused.verdict == "does not fit"


def test_seventy_b_on_one_card_gets_a_suggestion_that_starts_it():
    s = scenario_from_dict(SEVENTY_B)
    assert estimate(s).verdict == "does not fit"
    found = suggestions(s)
    assert any(sug.fits for sug in found)
    for sug in found:  # each priced by the engine with exactly its changes
        assert sug.estimate.total_bytes == estimate(s.replace(**sug.changes)).total_bytes


def test_fp8_kv_cache_doubles_users_when_it_already_fits():
    s = scenario_from_dict(QWEN_2X4090)
    fp8 = next(sug for sug in suggestions(s) if sug.changes == {"kv_cache_dtype": "fp8"})
    assert fp8.fits and "users at once" in str(fp8.effect)
    before = users_at(s, 32768)
    after = users_at(s.replace(kv_cache_dtype="fp8"), 32768)
    assert after >= 2 * before  # one byte per element instead of two, and the pool grows as nothing else does
