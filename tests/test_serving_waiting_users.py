"""A startup CTO serving Llama-3.1-70B in bf16 on 4 x H100 with vLLM to 200 users at 8,192 tokens each (user audit
11): the window said FITS with "maximum concurrency at 8,192 tokens per request: 58.68x" beside it, and only the plan
card's main risk said that 142 of the 200 wait; a warning said it then. A startup comparing 8 x H100 / H200 / MI300X
for 500 users read "fits" in all three Compare panes beside 165, 340 and 490 held (user audit 13): the verdict is now
"tight" wherever it is said (window, Compare, `estimate` and its JSON, Markdown, plan card), with the held count in
its words. The held count is the engine's own (vLLM's KV pool / one request at max_model_len, est.serving)."""

from __future__ import annotations

import json

from engine.estimate_output import estimate_to_json
from engine.plan_card import main_risk, memory_sentence
from engine.report import to_markdown
from engine.scenario import scenario_from_dict
from engine.serving.report import render_serving, serving_to_json
from engine.workloads import estimate

SERVE_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "tp": 4, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192, "max_num_seqs": 200}


def _said(held: int, asked: int) -> str:
    return (f"at 8,192 tokens each the KV cache holds {held} of the {asked} users the engine is set to decode at once "
            "(max_num_seqs); the others wait.")


def test_more_users_than_the_cache_holds_read_tight_everywhere():
    s = scenario_from_dict(SERVE_70B)
    est = estimate(s)
    held = int(est.serving.max_concurrent_sequences)
    assert est.serving.verdict == "fits" and 2 <= held < 200  # the engine starts: its KV pool holds `held` of them
    assert est.verdict == "tight" and not est.fits and not est.engine_may_refuse
    said = _said(held, 200)
    assert str(est.room()) == said
    assert f"Verdict: TIGHT - {said}" in render_serving(est.serving, None)  # `estimate`'s serving lines
    data = json.loads(json.dumps(estimate_to_json(est), default=str))
    assert data["verdict"] == "tight" and data["fits"] is False
    assert serving_to_json(est.serving)["users_asked"] == 200
    assert f"({said[:-1]})" in to_markdown(s, est) and "**TIGHT" in to_markdown(s, est)
    assert str(memory_sentence(est, "GiB")) == f"Starts on 4 × NVIDIA H100 SXM 80GB, but not for every user at once: {said}"
    assert str(main_risk(s, est)) == (f"Main risk: at 8,192 tokens each the KV cache holds {held} users at once, not "
                                      "the 200 the engine is set to decode (max_num_seqs); the others wait.")


def test_it_fits_where_the_cache_holds_them_all():
    for data in ({**SERVE_70B, "max_num_seqs": None}, {**SERVE_70B, "max_num_seqs": 32}):  # the engine's default; 32
        est = estimate(scenario_from_dict(data))
        assert est.verdict == "fits" and not est.serving.users_wait
    # llama.cpp does not read max_num_seqs (its own warning says so)
    est = estimate(scenario_from_dict({"model": "llama-3.1-8b", "gpu": "apple-m4-pro-48gb", "workload": "inference",
                                       "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "max_num_seqs": 64}))
    assert not est.serving.users_wait
