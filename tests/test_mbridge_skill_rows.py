"""Megatron-Bridge's skill cards at 067f987d (tests/data/published/throughput/megatron-bridge-skills-moe.json): each
row's tokens/s per GPU is the card's step time turned into throughput, and the card's model TFLOPS/GPU must be
Megatron-Bridge's own FLOP formula applied to the model the row states, so the row times the model the card ran."""

from __future__ import annotations

from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model, scenario_from_dict

PREFIX = "mbridge-skill-qwen3_30b_a3b-h100-16-"


def _rows() -> list[dict]:
    return [r for r in load_rows() if r["id"].startswith(PREFIX)]


def test_skill_rows_exist() -> None:
    # skills/nemo-mbridge-perf-moe-comm-overlap (overlap off, on) and -moe-dispatcher-selection (tuned)
    assert len(_rows()) == 3


def test_tokens_per_second_is_the_cards_step_time() -> None:
    """tokens/s per GPU = global batch x sequence length / step seconds / GPUs (global batch = micro-batch x
    grad_accum x data-parallel ranks; the rows run no TP, PP or CP, so every GPU is a data-parallel rank)."""
    for row in _rows():
        s = row["scenario"]
        gpus = s["gpus_per_node"] * s["nodes"]
        tokens = s["micro_batch"] * s["grad_accum"] * gpus * s["seq_len"]
        expected = tokens / (row["reported"]["step_time_ms"] / 1000) / gpus
        assert abs(row["measured"] - expected) <= 0.05, row["id"]  # measured is rounded to 0.1


def test_cards_tflops_are_megatron_bridges_formula_on_the_stated_model() -> None:
    """NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/training/utils/flop_utils.py transformer_flops at 067f987d, a
    GQA MoE model without shared experts or MTP: 3 x 2 x layers x (hidden x (q + k + v) + q x hidden + q x seq / 2 x
    2) for the attention (causal), 3 x 2 x layers x top_k x 3 x hidden x expert ffn for the gated experts, 3 x 2 x
    hidden x vocab for the logits, per token. The cards print it as model TFLOPS per GPU to three decimals."""
    for row in _rows():
        s = scenario_from_dict(row["scenario"])
        m = resolve_model(s)
        q, kv = m.heads * m.head_dim, m.kv_heads * m.head_dim
        attention = 6 * m.layers * (m.hidden * (q + 2 * kv) + q * m.hidden + q * s.seq_len)
        experts = 6 * m.layers * m.top_k * 3 * m.hidden * m.expert_ffn
        flops_per_token = attention + experts + 6 * m.hidden * m.vocab
        tflops = flops_per_token * row["measured"] / 1e12  # measured: tokens/s per GPU
        assert abs(tflops / row["reported"]["model_tflops_per_gpu"] - 1) < 1e-4, row["id"]
