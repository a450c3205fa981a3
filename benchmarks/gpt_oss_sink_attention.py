"""GPT-OSS's attention with its learnable sinks: cuDNN's measured forward against what the time model charges
(issue 23, the GPT-OSS regime: is the sink kernel the gap?).

The rows run cuDNN's fused SDPA with set_sink_token / set_dsink_token (Transformer Engine's FusedAttention,
F16_arbitrary_seqlen; docs/time-model-notes.md). The only published timing of that kernel with sinks is cuDNN's own
inference benchmark: NVIDIA/cudnn-frontend benchmark/attention_inference/configs/gpt_oss.py (has_sink=True on both
layer kinds, 64 query / 8 KV heads, head dim 64, sliding window 128 or full causal), context phase (one forward over
q_tokens = kv_len, a bf16 KV cache in pages of 16), cuDNN 9.27.0:
results/gpt_oss/h200/gpt_oss_20260928_135723.csv at 104a33b0 and results/gpt_oss/gb200/gpt_oss_20260928_123038.csv at
f4f19cbe (backend 'cudnn', TP 1 rows, time_ms). No backward is timed there, and the training benchmark
(benchmark/sdpa_benchmark_training, configs/gpt_oss.py) builds no sink, so the backward with dsink has no published
timing. The rows ran cuDNN 9.13-9.21 (docs/releases/software-versions.md), not 9.27.

The model's side: one layer's forward at batch 1, each kind on its own (engine/timing/attention.py: the full layer's
causal tiles at attention_fraction_of_bf16_peak x head_dim_rate and work_rate; the window's measured rate,
window_attention.py), with the rates of the named rows' GPUs (the H100 SXM takes H200's attention figures: the same
GH100 die and clock, presets/efficiency.json).

Run: .venv/bin/python benchmarks/gpt_oss_sink_attention.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.attention import causal_keys_per_query, head_dim_rate, work_rate  # noqa: E402
from engine.timing.data import framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.model import rates_for  # noqa: E402
from engine.timing.window_attention import measured_window_seconds  # noqa: E402

# {row whose GPU's rates are used: (measured GPU, {tokens: (full causal ms, 128-token window ms)})}, cuDNN 9.27.0
MEASURED_MS = {
    "megatron-bridge-gpt_oss_120b-dgx-h100-bf16-64": (
        "H200", {2048: (0.098687, 0.03664), 8192: (1.201782, 0.135487), 32768: (18.220574, 0.517145)}),
    "megatron-bridge-gpt_oss_120b-dgx-gb200-bf16-64": (
        "GB200", {2048: (0.051459, 0.033569), 8192: (0.552673, 0.106461), 32768: (8.099202, 0.401882)}),
}


def model_forward_ms(row: dict, tokens: int) -> tuple[float, float]:
    """(full causal, windowed) forward ms of one gpt-oss layer at batch 1 as the time model charges them."""
    s = scenario_from_dict(row["scenario"])
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    rate = rates.attention * (head_dim_rate(spec.head_dim) if rates.head_dim_scaled else 1.0)
    full_flops = 4.0 * tokens * causal_keys_per_query(tokens, tokens) * spec.q_dim
    full = full_flops / (rate * work_rate(rates.attention_by_work, full_flops))
    window = measured_window_seconds(rates.window_rates, spec.sliding_window, spec.head_dim, tokens, tokens,
                                     spec.q_dim) if rates.window_rates else None
    if window is None:
        window_flops = 4.0 * tokens * causal_keys_per_query(tokens, spec.sliding_window) * spec.q_dim
        window = (window_flops / (rate * work_rate(rates.attention_by_work, window_flops)), 0.0)
    return 1e3 * full, 1e3 * window[0]


def main() -> None:
    rows = {r["id"]: r for r in load_rows()}
    print(f"{'GPU (rates of)':32s} {'tokens':>7s} {'full: model':>12s} {'measured':>9s} {'ratio':>6s}"
          f" {'window: model':>14s} {'measured':>9s} {'ratio':>6s}")
    for row_id, (gpu, points) in MEASURED_MS.items():
        row = rows[row_id]
        for tokens, (full_ms, window_ms) in points.items():
            model_full, model_window = model_forward_ms(row, tokens)
            label = f"{gpu} ({row['scenario']['gpu']})"
            print(f"{label:32s} {tokens:7d} {model_full:12.3f} {full_ms:9.3f} {model_full / full_ms:6.2f}"
                  f" {model_window:14.3f} {window_ms:9.3f} {model_window / window_ms:6.2f}")
    print("ratio > 1: the model charges more than cuDNN 9.27's forward with sinks takes (forward only; the backward "
          "with dsink is not timed anywhere)")


if __name__ == "__main__":
    main()
