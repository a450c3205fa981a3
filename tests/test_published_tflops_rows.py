"""Published runs reported in TFLOP/s per GPU: their tokens/s is the reported figure over the FLOPs per token of the
script that printed it, and that count must be the script's own formula applied to the model the row states."""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model, scenario_from_dict


def _tflops_rows() -> list[dict]:
    """The rows whose tokens/s was derived from TFLOP/s with a stated FLOPs-per-token count (other rows may report
    a TFLOP/s figure next to a tokens/s one)."""
    return [r for r in load_rows() if {"tflops_per_gpu", "flops_per_token"} <= set(r.get("reported", {}))]


def test_tflops_rows_exist() -> None:
    # tests/data/published/throughput/amd-instinct-training.json: ROCm/TransformerEngine issues #76 and #78
    assert len(_tflops_rows()) >= 5


def test_flops_per_token_is_the_scripts_formula_on_the_stated_model() -> None:
    """SemiAnalysis's reproduction scripts (ROCm/TransformerEngine issues #76, #78; GPTConfig / LLaMAConfig
    estimate_flops_per_token): flops_per_token = 6 N + 12 n_layers n_heads head_dim max_seq_len, N the sum of the
    unwrapped model's parameters. The engine's parameter count of the row's model must give the same N, so the
    model the scenario states is the model the script timed."""
    for row in _tflops_rows():
        s = scenario_from_dict(row["scenario"])
        spec = resolve_model(s)
        formula = 6 * spec.total_params + 12 * spec.layers * spec.heads * spec.head_dim * s.seq_len
        assert row["reported"]["flops_per_token"] == formula, row["id"]


def test_measured_tokens_is_the_reported_tflops_over_flops_per_token() -> None:
    for row in _tflops_rows():
        reported = row["reported"]
        tokens_per_second = reported["tflops_per_gpu"] * 1e12 / reported["flops_per_token"]
        assert abs(row["measured"] - tokens_per_second) <= 0.05, row["id"]  # measured is rounded to 0.1
