"""The MFU numerator counts the attention the step runs: the causal mask's half of the scores and, on the layers that
slide, the window's share (engine/timing/mfu.py attention_keys_per_token); the count with every key (PaLM's
appendix B, torchtitan, nanoGPT) is a second, labelled figure (issue 23 item 7; h-fuzz9 found MFU 101-103%)."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.mfu import attention_keys_per_token, model_flops_per_token


def test_causal_attention_counts_half_the_keys_as_megatron_lm_does():
    """NVIDIA/Megatron-LM at d98e8a64 megatron/training/training.py lines 1164-1169 (since 8873b55d, March 2025):
    standard_self_attn_core_term = 3 x 2 x query_projection_size / 2 ("causal mask (only half of the mask is
    non-zero)") x 2 (QK^T and (QK^T)V), times seq_length per token: 6 d s a layer, where PaLM's appendix B
    (arXiv:2204.02311) and nanoGPT (karpathy/nanoGPT@3adf61e model.py:296, 12*L*H*Q*T) count 12 d s."""
    spec = model_spec_for("llama-3.1-8b")  # 32 layers, 32 heads x 128, no sliding window
    seq = 8192
    megatron_core = 3 * 2 * spec.q_dim / 2 * 2 * seq * spec.layers
    whole = model_flops_per_token(spec, seq, causal=False)
    causal = model_flops_per_token(spec, seq)
    assert whole - causal == pytest.approx(megatron_core)  # the masked half, removed
    assert attention_keys_per_token(spec, seq) == spec.layers * seq / 2


def _mask_keys(seq: int, window: int) -> float:
    """Keys a sliding-window causal mask keeps, mean over the queries: query i (1-based) sees min(i, window)."""
    return sum(min(i, window) for i in range(1, seq + 1)) / seq


@pytest.mark.parametrize(("model", "seq", "sliding_layers"), [
    ("gpt-oss-20b", 4096, 12),  # openai/gpt-oss-20b config.json: 24 layers alternating sliding (128) and full
    ("gemma-3-12b", 8192, 40),  # google/gemma-3-12b config: 48 layers, five sliding (1,024) to one full
    ("mistral-7b", 8192, 32),   # mistralai/Mistral-7B-v0.1 config.json: sliding_window 4,096 on all 32 layers
])
def test_a_sliding_window_counts_the_keys_its_mask_keeps(model, seq, sliding_layers):
    """Over a window w < s the mask keeps min(i, w) keys of query i: w - w^2 / 2s on average (the same s/2
    convention as the full layers, so a window as long as the sequence counts s/2), on the layers that slide only;
    the mask counted key by key differs by under one key a query (the diagonal's half, as s/2 against (s+1)/2)."""
    spec = model_spec_for(model)
    w = spec.sliding_window
    full = spec.softmax_attention_layers - sliding_layers
    expected = full * seq / 2 + sliding_layers * (w - w * w / (2 * seq))
    assert attention_keys_per_token(spec, seq) == pytest.approx(expected)
    by_mask = full * _mask_keys(seq, seq) + sliding_layers * _mask_keys(seq, w)
    assert abs(attention_keys_per_token(spec, seq) - by_mask) < spec.softmax_attention_layers
    # a window no shorter than the sequence is the causal half
    assert attention_keys_per_token(spec, w) == spec.softmax_attention_layers * w / 2


@pytest.mark.parametrize("seq_len", [1_000_000, 100_000_000])
def test_mfu_stays_at_most_100_percent_at_the_lengths_fuzz9_found(seq_len):
    """h-fuzz9 (/work/notes/s20/kg-fuzz9.md): Qwen3-8B QLoRA on an RTX 4090 showed an MFU of 101% at 1M tokens and
    103% at 10^8, the numerator counting every key while the time model computes the causal half. Now at most 100%;
    the whole count stays as the labelled second figure, above the first (it may pass 100%, as its words say)."""
    t = step_time(scenario_from_dict({"model": "qwen3-8b", "gpu": "rtx-4090", "method": "qlora",
                                      "seq_len": seq_len, "micro_batch": 1}))
    assert 0.0 < t.mfu <= 1.0
    assert t.mfu_attention_whole > t.mfu


def test_estimate_json_carries_the_whole_attention_figure_with_its_definition(tmp_path, capsys):
    """`estimate --json`: `mfu` keeps its key (now the causal count, its definition says so) and the count with
    every key comes as `mfu_attention_whole` with `mfu_attention_whole_definition`."""
    scenario = tmp_path / "llama.json"
    scenario.write_text(json.dumps({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "seq_len": 8192}))
    assert main(["estimate", str(scenario), "--json"]) == 0
    time = json.loads(capsys.readouterr().out)["time"]
    assert "causal mask" in time["mfu_definition"]
    assert time["mfu_attention_whole"] > time["mfu"] > 0
    assert "torchtitan" in time["mfu_attention_whole_definition"]
    spec = model_spec_for("llama-3.1-8b")  # the ratio of the two figures is the ratio of the two counts
    assert time["mfu_attention_whole"] / time["mfu"] == pytest.approx(
        model_flops_per_token(spec, 8192, causal=False) / model_flops_per_token(spec, 8192), rel=1e-9)
