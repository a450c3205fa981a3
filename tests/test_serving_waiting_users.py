"""A startup CTO serving Llama-3.1-70B in bf16 on 4 x H100 with vLLM to 200 users at 8,192 tokens each (user audit
11): the window said FITS with "maximum concurrency at 8,192 tokens per request: 58.68x" beside it, and only the plan
card's main risk said that 142 of the 200 wait. The estimate now warns (window, `estimate`, Markdown), in the card's
words; the held count is the engine's own (vLLM's KV pool / one request at max_model_len, est.serving)."""

from __future__ import annotations

from engine.plan_card import main_risk
from engine.report import to_markdown
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

SERVE_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "tp": 4, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192, "max_num_seqs": 200}


def _waiting(data: dict) -> list[str]:
    return [str(w) for w in estimate(scenario_from_dict(data)).warnings if "the others wait" in str(w)]


def test_more_users_than_the_cache_holds_are_said_beside_fits():
    s = scenario_from_dict(SERVE_70B)
    est = estimate(s)
    held = int(est.serving.max_concurrent_sequences)
    assert est.verdict == "fits" and 2 <= held < 200
    said = f"At 8,192 tokens each the KV cache holds {held} users at once, not the 200 the engine is set to decode " \
           "(max_num_seqs); the others wait."
    assert _waiting(SERVE_70B) == [said]
    assert str(main_risk(s, est)) == "Main risk: a" + said[1:]  # the card's sentence, the same figures
    assert said in to_markdown(s, est)


def test_nothing_is_said_where_the_cache_holds_them_all():
    assert _waiting({**SERVE_70B, "max_num_seqs": None}) == []  # the engine's default
    assert _waiting({**SERVE_70B, "max_num_seqs": 32}) == []
    # llama.cpp does not read max_num_seqs (its own warning says so)
    assert _waiting({"model": "llama-3.1-8b", "gpu": "apple-m4-pro-48gb", "workload": "inference",
                     "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "max_num_seqs": 64}) == []
