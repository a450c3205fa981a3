"""serve-fit's largest context and `estimate`'s "the longest context at the estimated KV cache" are one figure (user
audit 16, finding e)."""

from engine.planning.serve_fit import render_serve_fit, serve_fit
from engine.scenario import scenario_from_dict
from engine.workloads import estimate


def test_serve_fit_gives_the_longest_context_the_estimate_names():
    """Llama 3.1 70B bf16 on 2 x H100 under vLLM: `estimate` refuses max_model_len 131,072 and says "the longest that
    fits is 528 tokens" (its 82.9 MiB KV cache, 33 blocks of 16 at 160 KiB a token), where serve-fit said "Largest
    context: 0 tokens": serve-fit's answer was the context that clears the start-up band's low edge (1.95 GiB, wider
    than the whole pool), the estimate's the pool's point figure. serve-fit now leads with the point figure, found by
    the same estimate, and keeps both band edges."""
    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "workload": "inference",
                            "gpus_per_node": 2, "tp": 2})
    memory = estimate(s).serving
    named = int(str(memory.reason).split("the longest context at the estimated KV cache is ")[1].split(" tokens")[0]
                .replace(",", ""))
    # setting it gives TIGHT (checked below), so the refusal no longer calls it "the longest that fits" (h-polish17)
    assert "the longest that fits" not in str(memory.reason)
    assert str(memory.reason).endswith(f"{named:,} tokens (tight: vLLM may or may not start with it).")
    report = serve_fit(s)
    assert report["context_at_estimate"] == named == memory.longest_context
    assert report["context"] == 0 < named < report["context_may_start"]
    at = estimate(s.replace(max_model_len=named)).serving  # the engine's pool holds it at the point estimate
    assert at.verdict == "tight" and at.longest_context >= named
    assert estimate(s.replace(max_model_len=named + 1)).serving.longest_context < named + 1
    line = render_serve_fit(report).splitlines()[1]
    assert line.startswith(f"Largest context: {named:,} tokens at the estimated KV cache (as `estimate` gives it), "
                           "none for sure; up to 13,280 tokens vLLM may or may not start")


def test_a_context_that_surely_fits_reads_as_before():
    """Where the pool holds the model's whole context beyond the band (Llama 3.1 70B fp8, 2 x H100), the three figures
    are one and the line is the plain one."""
    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "workload": "inference",
                            "gpus_per_node": 2, "tp": 2, "weight_format": "fp8", "max_model_len": 8192})
    report = serve_fit(s)
    assert report["context"] == report["context_at_estimate"] == 131072  # config.json max_position_embeddings
    assert render_serve_fit(report).splitlines()[1] == "Largest context: 131,072 tokens"
