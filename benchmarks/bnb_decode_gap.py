"""Decode steps measured on the cards of the TRL (RTX 4090) and Unsloth (Colab T4) post-training rows, beside the
serving model's estimate of the same step: where the estimate is short, and whether by the GPU or the host (issue 23,
post-training time; h-trlpost). A diagnosis: the time model is not changed by it, and nothing is fitted.

Measured:
- bitsandbytes-foundation/bitsandbytes benchmarking/README.md (at 1b7b9bb4, 'Results (as of v0.45.0)'): optimum-
  benchmark decode through transformers 4.46.3 generate(), torch 2.5.1, bitsandbytes 0.45.0.dev, 'Mean Latency (s)'
  per decode step (its throughput = batch / latency): NVIDIA T4 16GB Qwen 2.5 3B Instruct, RTX 4090 Llama 3.1 8B and
  Qwen 2.5 14B Instruct, H100 80GB SXM Llama 3.1 8B; FP16 / BF16 and NF4+DQ (double quantisation, as the rows' QLoRA).
- unslothai/notebooks at bdda2efc: the inference cells after training of nb/Llama3.1_(8B)-GRPO.ipynb,
  nb/Qwen2.5_(3B)-GRPO.ipynb and nb/Phi_4_(14B)-GRPO.ipynb print vLLM's progress bar ('Processed prompts: 100% ...
  est. speed input: ... toks/s, output: 17.01 toks/s'): one request decoded alone by the same vLLM 0.8.5 V0 engine
  (bitsandbytes 4-bit weights, CUDA graphs) on the same Colab T4 as the rows' rollouts; the first cell without the
  trained adapters, the second with them (vLLM's LoRA). Output tokens over the whole request, so the prompt's prefill
  (a few dozen tokens) is in it: a per-token time from above.

What it shows (printed): on the RTX 4090 and H100 the transformers engine is host-bound and the 16-bit step is
estimated long, while NF4+DQ at batch 8-32 is estimated short by the bitsandbytes calls (bitsandbytes 0.45's ctypes
path: about 139 us a Linear4bit forward on the H100 host where presets/bnb_4bit.json counts 0.50's path, ~70 us); on
the T4 the 16-bit batch-32 step and every 4-bit step are short, the batch-32 step by more than the host can explain
(its batch-1 and batch-8 steps are within 16%), and the vLLM batch-1 4-bit steps 2.6-3.6x: the T4's own decode
kernels (bitsandbytes' gemv_4bit, the dequantise-and-GEMM path, the 16-bit GEMMs at a power-capped clock) run well
below the 0.749 of its datasheet bandwidth the model reads weights at, as h-unsloth3 found from the rows themselves.

Run: .venv/bin/python benchmarks/bnb_decode_gap.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine import scenario_from_dict  # noqa: E402
from engine.serving.scenario_estimate import serving_memory  # noqa: E402
from engine.serving.speed import serving_speed  # noqa: E402

README = "bitsandbytes README v0.45"
# (source, engine, model, gpu, weight format, batch, measured seconds a decode step)
MEASURED = (
    (README, "transformers", "qwen2.5-3b", "t4", "checkpoint", 1, 0.0390),
    (README, "transformers", "qwen2.5-3b", "t4", "checkpoint", 8, 0.0422),
    (README, "transformers", "qwen2.5-3b", "t4", "checkpoint", 32, 0.0601),
    (README, "transformers", "qwen2.5-3b", "t4", "bnb-nf4", 1, 0.0736),
    (README, "transformers", "qwen2.5-3b", "t4", "bnb-nf4", 8, 0.1042),
    (README, "transformers", "qwen2.5-3b", "t4", "bnb-nf4", 32, 0.1215),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "checkpoint", 1, 0.0211),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "checkpoint", 8, 0.0239),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "checkpoint", 32, 0.0304),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "bnb-nf4", 1, 0.0175),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "bnb-nf4", 8, 0.0443),
    (README, "transformers", "llama-3.1-8b", "rtx-4090", "bnb-nf4", 32, 0.0471),
    (README, "transformers", "qwen2.5-14b", "rtx-4090", "bnb-nf4", 1, 0.0256),
    (README, "transformers", "qwen2.5-14b", "rtx-4090", "bnb-nf4", 8, 0.0719),
    (README, "transformers", "llama-3.1-8b", "h100-sxm-80gb", "checkpoint", 8, 0.0255),
    (README, "transformers", "llama-3.1-8b", "h100-sxm-80gb", "bnb-nf4", 8, 0.0566),
    # output tokens per second of the notebooks' vLLM progress bars: without / with the trained adapters
    ("Unsloth Llama3.1_(8B)-GRPO", "vllm", "llama-3.1-8b", "t4", "bnb-nf4", 1, 1 / 17.01),
    ("Unsloth Llama3.1_(8B)-GRPO", "vllm", "llama-3.1-8b", "t4", "bnb-nf4", 1, 1 / 15.80),
    ("Unsloth Qwen2.5_(3B)-GRPO", "vllm", "qwen2.5-3b", "t4", "bnb-nf4", 1, 1 / 25.69),
    ("Unsloth Qwen2.5_(3B)-GRPO", "vllm", "qwen2.5-3b", "t4", "bnb-nf4", 1, 1 / 29.09),
    ("Unsloth Phi_4_(14B)-GRPO", "vllm", "phi-4", "t4", "bnb-nf4", 1, 1 / 9.89),
    ("Unsloth Phi_4_(14B)-GRPO", "vllm", "phi-4", "t4", "bnb-nf4", 1, 1 / 10.03),
)
CONTEXT = 300  # tokens in the cache at a middle decode step: optimum-benchmark's short prompts, the notebooks' answers


def estimated_step_seconds(engine: str, model: str, gpu: str, weight_format: str, batch: int) -> float:
    """The serving model's seconds a decode step (tpot) of `batch` sequences at CONTEXT tokens."""
    s = scenario_from_dict({"model": model, "gpu": gpu, "workload": "inference", "serving_engine": engine,
                            "weight_format": weight_format, "max_model_len": 2048, "gpu_memory_utilization": 0.6})
    return serving_speed(s, serving_memory(s), concurrency=batch, context=CONTEXT, prompt_tokens=64).tpot_seconds


def rows() -> list[tuple[str, str, str, str, str, int, float, float]]:
    """Each measured step with its estimate: (source, engine, model, gpu, format, batch, measured s, estimated s)."""
    return [(*m, estimated_step_seconds(*m[1:6])) for m in MEASURED]


def main() -> int:
    print("| source | engine | model | GPU | weights | batch | measured ms | estimated ms | estimated / measured - 1 |")
    print("|---|---|---|---|---|---:|---:|---:|---:|")
    for source, engine, model, gpu, fmt, batch, measured, estimated in rows():
        print(f"| {source} | {engine} | {model} | {gpu} | {fmt} | {batch} | {measured * 1e3:.1f} | "
              f"{estimated * 1e3:.1f} | {estimated / measured - 1:+.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
