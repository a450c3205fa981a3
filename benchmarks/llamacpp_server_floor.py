"""What a 2026 llama-server decode token takes on each GPU beyond its weight bytes: a diagnostic of the serving rows'
Qwen3.5 cluster (llamacpp-pavlokhmel-*-qwen35-*: +27..+59% too fast on A100 / H100 / H200 / B300, close on RTX 4080 /
4090 / V100), from the source's whole table rather than its Qwen3.5 rows alone.

Run: PYTHONPATH=. .venv/bin/python benchmarks/llamacpp_server_floor.py
Data: tests/data/published/pavlokhmel_llamacpp_rates.json (pavlokhmel/llm_throughput_benchmark@03a00c53 results.md:
ten unsloth Q4_K_M GGUFs, one llama-server request each, on every GPU). For the dense models (every weight read a
token) each GPU's per-token milliseconds are fitted against the GGUF's gigabytes (least squares): the slope's inverse
is the rate the build's mat-vec reads at on that GPU, the intercept the time a token takes that no weight byte
explains (kernels' fixed time, host work, sampling). Nothing here changes an estimate; the estimate's own figures
(presets/efficiency.json gguf_quantized_matvec_fraction by memory kind, its 1.85 ms fixed kernels for a 32-layer
dense model) are printed beside them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.models.presets import get_gpu  # noqa: E402
from engine.serving.gguf_matvec import quantized_matvec_fraction  # noqa: E402

DATA = REPO / "tests" / "data" / "published" / "pavlokhmel_llamacpp_rates.json"
GPUS = ("v100-32gb", "a100-40gb", "a100-80gb", "rtx-4080", "rtx-4090", "h100-sxm-80gb", "h200", "b300")


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares intercept and slope of ys on xs."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def per_gpu_fits(models: list[dict]) -> dict[str, tuple[float, float, int]]:
    """Per GPU: (intercept ms, marginal GB/s, dense models fitted) over the dense models the GPU ran."""
    out = {}
    for gpu in GPUS:
        pts = [(m["vram_gb"], 1e3 / m["tokens_per_second"][gpu]) for m in models
               if m["all_weights_read_a_token"] and gpu in m["tokens_per_second"]]
        if len(pts) < 3:
            continue
        intercept, slope = fit_line([p[0] for p in pts], [p[1] for p in pts])
        out[gpu] = (intercept, 1e3 / slope, len(pts))
    return out


def main() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    models = data["models"]
    print(f"Source: {data['source']}\n")
    print("Milliseconds a token, and beyond the GGUF's bytes at the GPU's datasheet bandwidth (a lower figure for "
          "what no weight byte explains)")
    print("| model | GB | " + " | ".join(GPUS) + " |\n|---|---:|" + "---:|" * len(GPUS))
    for m in models:
        cells = []
        for gpu in GPUS:
            rate = m["tokens_per_second"].get(gpu)
            if rate is None:
                cells.append("—")
                continue
            ms = 1e3 / rate
            beyond = ms - m["vram_gb"] * 1e9 / get_gpu(gpu).memory_bandwidth_bytes_per_s * 1e3
            cells.append(f"{ms:.2f} ({beyond:+.2f})")
        kind = "" if m["all_weights_read_a_token"] else " (not all read)"
        print(f"| {m['model']}{kind} | {m['vram_gb']:.1f} | " + " | ".join(cells) + " |")
    print("\nPer GPU over the dense models: the mat-vec's marginal read rate (also a multiprocessor) and the per-token "
          "intercept, beside the share of the datasheet the estimate reads quantized weights at "
          "(presets/efficiency.json gguf_quantized_matvec_fraction)")
    print("| GPU | dense models | marginal GB/s | GB/s an SM | of datasheet | estimate's share | intercept ms |\n"
          "|---|---:|---:|---:|---:|---:|---:|")
    sm_count = data["sm_count"]
    for gpu, (intercept, rate, n) in per_gpu_fits(models).items():
        peak = get_gpu(gpu).memory_bandwidth_bytes_per_s
        sms = sm_count[gpu]
        print(f"| {gpu} | {n} | {rate:.0f} | {rate / sms:.1f} | {rate * 1e9 / peak:.0%} | "
              f"{quantized_matvec_fraction(gpu):.0%} | {intercept:.2f} |")


if __name__ == "__main__":
    main()
