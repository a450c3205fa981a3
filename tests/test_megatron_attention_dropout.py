"""Megatron's unfused attention with attention dropout (2021 Megatron-LM's CoreAttention, TE's
UnfusedDotProductAttention): the dropout's mask and output are kept besides the softmax probabilities. Expected
values: arXiv:2205.05198 (Korthikanti et al., 'Reducing Activation Recomputation in Large Transformer Models'),
section 4.1, equation (2): activations per layer with tensor parallelism t and no sequence parallelism are s·b·h·(10
+ 24/t + 5·a·s/(h·t)) bytes in fp16, whose attention part 5·a·s²·b/t is the softmax output (2), the dropout mask (1)
and the dropout output (2). The planner counts one tensor more than that equation: the query reshaped out of the
fused QKV output (a copy, 2·s·b·h/t; engine/frameworks/megatron_layer.py), so the per-layer figure is the paper's
plus that copy and the norms' fp32 per-token statistics. The model is GPT-3 175B as the SC21 paper runs it
(arXiv:2104.04473 Table 2: hidden 12,288, 96 heads, sequence 2,048; GPT-2 config defaults: attention dropout 0.1)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows

S, B, H, A = 2048, 1, 12288, 96
ROW = "megatron-sc21-table2-ptdp-gpt-174.6b-384xa100"


def _scenario(**over) -> dict:
    row = next(r for r in load_rows() if r["id"] == ROW)
    return {**row["scenario"], **over}


def _per_layer(**over) -> float:
    e = estimate(scenario_from_dict(_scenario(**over)))
    return dict(next(c for c in e.components if c.key == "activations").inputs)["per_layer_bytes"]


@pytest.mark.parametrize("tp", [1, 2, 4, 8])
def test_unfused_attention_with_dropout_keeps_five_bytes_a_score(tp: int):
    nodes = tp * 96 * 4 // 8
    got = _per_layer(checkpointing="none", tp=tp, pp=96, gpus_per_node=8, nodes=nodes)
    paper = S * B * H * (10 + 24 / tp + 5 * A * S / (H * tp))
    query_copy = 2 * S * B * H / tp
    norm_statistics = 2 * 4 * S * B  # the two norms' fp32 per-token statistics, which the paper leaves out
    assert got == pytest.approx(paper + query_copy + norm_statistics, rel=1e-9)


def test_without_dropout_only_the_probabilities_stay():
    """attention dropout 0 returns its input (TE's UnfusedDotProductAttention): 2 bytes a score, 3 fewer."""
    row = _scenario(checkpointing="none")
    cfg = dict(row["model"]["hf_config"], attn_pdrop=0.0)
    without = _per_layer(checkpointing="none", model={**row["model"], "hf_config": cfg})
    assert _per_layer(checkpointing="none") - without == pytest.approx(3 * A * S * S * B / 8)


def test_gpt3_175b_without_recomputation_does_not_fit_at_tp8_pp12():
    """SC21's 175B layout (TP 8, PP 12) keeps 12 micro-batches of 8 layers in the first stage: 96 x 585 MB of
    activations besides 30 GB of weights, gradients and Adam states; the paper recomputed every layer."""
    e = estimate(scenario_from_dict(_scenario(checkpointing="none")))
    assert not e.fits
    assert estimate(scenario_from_dict(_scenario())).fits
