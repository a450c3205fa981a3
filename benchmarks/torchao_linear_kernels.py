"""What one torchao Float8Linear costs per call in the time model, kernel by kernel, at the published runs' shapes,
against torchao's own per-linear measurements (issue 23 item 4; h-fp8rate).

Part 1, the runs' shapes: for torchao's Llama3-8b tables (pytorch/ao torchao/float8/README.md: 8 x H100 at 500 W and
8 x MI300X; torchao/prototype/mx_formats/README.md: 8 x B200 at 750 W; torchtitan, FSDP2, batch 1 x 8,192 tokens,
so every linear runs at M = 8,192 on every rank) it prints, per linear of a decoder layer (wq, wk, wv, wo, w1, w3,
w2), the seconds the engine charges one call, forward and backward together: the bf16 linear (three GEMMs at the
16-bit rate) and the row's fp8 linear (forward, input-gradient and weight-gradient GEMMs at the fp8 linear rate,
rowwise_with_gw_hp's weight gradient at the 16-bit one; the recipe's casts of the input, the output gradient and
the weight at the element-wise rate, bytes per element from presets/efficiency.json fp8_cast_bytes), and the
speed-up; then the layer's total against the speed-up the row's twin implies.

Part 2, the kernel-level check: torchao timed its compiled Float8Linear (rowwise recipe, with the tensorwise cuBLAS
GEMM plus rescale in the backward that float8_ops.py runs) against the compiled bf16 linear on an H100, forward and
backward, at four Llama 3 70B shapes under TP 8 (pytorch/ao pull request #2185, 2025-05-08, danielvegamyhre,
benchmarks/float8/bench_linear_float8.py, table 'tensorwise w/ rescale', use_fast_accum True): ref_time_sec /
pt_fp8_time_sec = 1.112 (M 16384, K 8192, N 1280), 1.426 (16384, 1024, 8192), 1.730 (16384, 8192, 7168), 1.711
(16384, 3584, 8192). The engine's speed-up at the same shapes is printed beside them for the two H100 presets (the
pull request does not name the part; Meta's devgpus of the same team ran the 95 GiB, 500 W one for the README's
table). Its loss is y.sum() (bench_linear_float8.py at d3701963, lines 171-174, the whole loop compiled): the
output gradient is a broadcast of ones, whose amax and cast Inductor need not read from memory, so the engine's
speed-up is printed with and without the output-gradient casts (8 bytes per output element for rowwise). Both
columns stay below the measured ones on h100-sxm-80gb (x1.03/1.40/1.50/1.49 without them): per call the engine
does not overstate what a torchao fp8 linear saves on an H100; the measured bf16 linear ran at 485-585 TFLOPS
forward and backward, below the engine's bf16 rate. Nothing here is fitted: the figures are the engine's own
per-kernel terms (engine/timing/gemm.py gemm_seconds, the rates engine.timing.model.rates_for gives the row's
scenario).

Part 2b, torchao's rowwise speed-up table (pytorch/ao docs/static/fp8-rowwise-perf.png, added by pull request #2312,
fdddb2cf, 2025-06-06, to torchao/float8/README.md 'Rowwise scaling' for NVIDIA H100: 'Speedup observed vs bfloat16
for LayerNorm -> Linear -> Sigmoid fwd + bwd by forward M, K, N, dynamic row-wise scaling, PyTorch version
2.8.0a0+git48807d5'; an image, its cells read by eye): here the output gradient is the sigmoid's, a real one. The
layer norm and the sigmoid run in both and are counted as element-wise passes of 10 bytes per element each (forward
read and write 2 + 2, backward read 2 + 2 and write 2) over M x K and M x N; the table's cells at the runs' M (8,192,
Llama 3 8B's K and N, 14,336 read at 16,384) and at the largest shape: per call the engine's rowwise speed-up is above
the measured one at the runs' shapes (x1.17 against 1.00 at 8192 x 4096 x 4096 on h100-sxm-80gb, x0.90 against 0.52
at N 1,024) and meets it at 16384^3 (x1.51 against 1.42): the rowwise linear carries a cost per call the engine
does not count, which no per-kernel figure here splits.

Part 3, recipe against recipe: each row's step against its twins' on the same GPU, measured and predicted without
MFU ceilings; the kernels two recipes do not share take the whole difference.

Run: .venv/bin/python benchmarks/torchao_linear_kernels.py
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.data import efficiency, framework_profile  # noqa: E402
from engine.timing.gemm import Rates, gemm_seconds, rate_tile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.layer_settings import fp8_casts  # noqa: E402
from engine.timing.model import rates_for  # noqa: E402

# Llama 3 8B's decoder linears (hidden 4,096, 32 query and 8 key/value heads of 128, FFN 14,336): (name, K, N)
LLAMA3_8B_LINEARS = (("wq", 4096, 4096), ("wk", 4096, 1024), ("wv", 4096, 1024), ("wo", 4096, 4096),
                     ("w1", 4096, 14336), ("w3", 4096, 14336), ("w2", 14336, 4096))
TOKENS_PER_RANK = 8192  # batch 1 x sequence 8,192 under FSDP2: the whole sequence on every rank

# pytorch/ao pull request #2185 (H100, compiled Float8Linear, rowwise recipe as float8_ops.py runs it): (M, K, N) and
# the measured speed-up ref_time_sec / pt_fp8_time_sec, use_fast_accum True
PR2185_ROWWISE_H100 = (((16384, 8192, 1280), 1.111733), ((16384, 1024, 8192), 1.426141),
                       ((16384, 8192, 7168), 1.729502), ((16384, 3584, 8192), 1.711090))


def linear_seconds(m: float, k: float, n: float, rates: Rates, recipe: str) -> dict[str, float]:
    """Seconds of one linear's call, forward and backward, by kernel: the three GEMMs (the fp8 recipe's at the fp8
    linear rate, a 16-bit weight gradient where the recipe keeps it; recipe '' = bf16) and the recipe's casts."""
    def gemm(rate: float, linear: bool) -> float:
        return gemm_seconds(m, k, n, rate, rates.memory, rates.elem_bytes, rates.sms, rates.epilogue_k[linear],
                            rate_tile(rates, linear))
    if not recipe:
        bf16 = gemm(rates.gemm, False)
        return {"fwd": bf16, "dgrad": bf16, "wgrad": bf16, "casts": 0.0}
    cast = efficiency()["fp8_cast_bytes"][recipe]
    fp8 = gemm(rates.linear, True)
    wgrad = gemm(rates.gemm, False) if cast.get("weight_gradient_gemm") == "bf16" else fp8
    operands = (cast["forward_input"] + cast["backward_input"]) * m * k + cast["backward_grad_output"] * m * n
    if "bandwidth_fraction" in cast:  # a quantize kernel measured below the element-wise rate, as costs._fp8_casts
        stream = rates.memory_fraction or efficiency()["memory_bandwidth_fraction"]["value"]
        operands *= stream / cast["bandwidth_fraction"]
    elif "rate_of_elementwise" in cast:
        operands /= cast["rate_of_elementwise"]
    weights = (cast.get("weight_forward", 0) + cast.get("weight_backward", 0)) * k * n
    return {"fwd": fp8, "dgrad": fp8, "wgrad": wgrad, "casts": (operands + weights) / rates.memory}


def row_rates(row: dict[str, Any], gpu: str = "") -> tuple[Rates, str]:
    """(rates, fp8 cast recipe key) of a published row's scenario, on another GPU preset where one is named."""
    s = scenario_from_dict(row["scenario"])
    if gpu:
        s = dataclasses.replace(s, gpu=gpu)
    prof = framework_profile(s.framework)
    return rates_for(s, hardware_for(s), prof), (fp8_casts(s, prof) if s.precision == "fp8" else "")


def _total(parts: dict[str, float]) -> float:
    return sum(parts.values())


def print_runs(rows: dict[str, dict[str, Any]]) -> None:
    """Part 1: per linear and per layer at the rows' shapes, each fp8 row against its bf16 twin."""
    for prefix in ("torchao-float8-llama3-8b-8xh100", "torchao-float8-llama3-8b-8xmi300x", "torchao-mx-llama3-8b-8xb200pl"):
        twins = {rid: row for rid, row in rows.items() if rid.startswith(prefix)}
        base_id = next(rid for rid in twins if rid.endswith(("-none", "-bf16")))
        bf16_rates, _ = row_rates(twins[base_id])
        bf16 = {name: _total(linear_seconds(TOKENS_PER_RANK, k, n, bf16_rates, "")) for name, k, n in LLAMA3_8B_LINEARS}
        print(f"{prefix} ({twins[base_id]['scenario']['gpu']}): bf16 linear ms per call (fwd+bwd) "
              + "  ".join(f"{name} {1e3 * sec:.3f}" for name, sec in bf16.items()))
        for rid, row in twins.items():
            if rid == base_id:
                continue
            rates, recipe = row_rates(row)
            if recipe not in efficiency()["fp8_cast_bytes"]:
                continue  # MXFP8's recipes: block scales, not this benchmark's casts
            parts = {name: linear_seconds(TOKENS_PER_RANK, k, n, rates, recipe) for name, k, n in LLAMA3_8B_LINEARS}
            layer_fp8 = sum(_total(p) for p in parts.values())
            layer_casts = sum(p["casts"] for p in parts.values())
            measured = float(row["measured"]) / float(twins[base_id]["measured"])  # tokens/s over the bf16 twin's
            print(f"  {rid.removeprefix(prefix + '-')} ({recipe}): fp8 GEMM rate x{rates.linear / bf16_rates.gemm:.2f}"
                  f" bf16's; per call " + "  ".join(f"{name} x{bf16[name] / _total(p):.2f}" for name, p in parts.items())
                  + f"; layer {1e3 * sum(bf16.values()):.2f} -> {1e3 * layer_fp8:.2f} ms (casts {1e3 * layer_casts:.2f})"
                  f" x{sum(bf16.values()) / layer_fp8:.2f}; twins measured x{measured:.3f}")


# docs/static/fp8-rowwise-perf.png (pytorch/ao fdddb2cf): (M, K, N) -> measured speed-up of compiled LayerNorm ->
# Float8Linear (rowwise) -> Sigmoid, forward and backward, over bf16, on H100; Llama 3 8B's shapes at M 8,192 and 16384^3
ROWWISE_TABLE_H100 = (((8192, 4096, 4096), 1.00), ((8192, 4096, 1024), 0.52), ((8192, 4096, 16384), 1.17),
                      ((8192, 16384, 4096), 1.03), ((16384, 16384, 16384), 1.42))
NORM_AND_SIGMOID_BYTES = 10  # per element, forward and backward, of the layer norm (M x K) and the sigmoid (M x N)


def print_table_check(rows: dict[str, dict[str, Any]]) -> None:
    """Part 2b: the engine's LayerNorm -> rowwise Float8Linear -> Sigmoid speed-up against torchao's H100 table."""
    for gpu in ("h100-sxm-80gb", "h100-sxm-96gb-hbm2e-500w"):
        bf16_rates, _ = row_rates(rows["torchao-float8-llama3-8b-8xh100-none"], gpu)
        rates, recipe = row_rates(rows["torchao-float8-llama3-8b-8xh100-rowwise"], gpu)
        cells = []
        for (m, k, n), measured in ROWWISE_TABLE_H100:
            around = NORM_AND_SIGMOID_BYTES * m * (k + n) / bf16_rates.memory
            bf16 = _total(linear_seconds(m, k, n, bf16_rates, "")) + around
            fp8 = _total(linear_seconds(m, k, n, rates, recipe)) + around
            cells.append(f"({m},{k},{n}) model x{bf16 / fp8:.2f} measured x{measured:.2f}")
        print(f"torchao rowwise table (LN -> Linear -> Sigmoid, H100), engine on {gpu}: " + "; ".join(cells))


def print_kernel_check(rows: dict[str, dict[str, Any]]) -> None:
    """Part 2: the engine's rowwise Float8Linear speed-up against pull request #2185's measured one on H100."""
    row = rows["torchao-float8-llama3-8b-8xh100-rowwise"]
    for gpu in ("h100-sxm-80gb", "h100-sxm-96gb-hbm2e-500w"):
        bf16_rates, _ = row_rates(rows["torchao-float8-llama3-8b-8xh100-none"], gpu)
        rates, recipe = row_rates(row, gpu)
        grad_cast = efficiency()["fp8_cast_bytes"][recipe]["backward_grad_output"]
        cells = []
        for (m, k, n), measured in PR2185_ROWWISE_H100:
            bf16, fp8 = _total(linear_seconds(m, k, n, bf16_rates, "")), _total(linear_seconds(m, k, n, rates, recipe))
            broadcast = fp8 - grad_cast * m * n / rates.memory  # the benchmark's ones gradient: no cast read
            cells.append(f"({m},{k},{n}) model x{bf16 / fp8:.3f} (x{bf16 / broadcast:.3f} without the output-gradient "
                         f"casts) measured x{measured:.3f}")
        print(f"pytorch/ao #2185 rowwise Float8Linear on H100, engine on {gpu}: " + "; ".join(cells))


def step_seconds(row: dict[str, Any]) -> tuple[float, float]:
    """(measured, predicted without MFU ceilings) seconds of the row's step on one rank."""
    with without_ceilings():
        t = step_time(scenario_from_dict(row["scenario"]))
    return t.step_seconds * t.tokens_per_second_per_gpu / float(row["measured"]), t.step_seconds


def print_recipe_pairs(rows: dict[str, dict[str, Any]]) -> None:
    """Part 3: what each recipe costs over another on the same GPU, measured and in the model (no ceilings): the
    kernels two recipes do not share (a 16-bit or fp8 weight-gradient GEMM, the rowwise path's GEMMs and casts, the
    float8 or bf16 all-gather) take the whole difference."""
    for prefix in ("torchao-float8-llama3-8b-8xh100", "torchao-float8-llama3-8b-8xmi300x", "torchao-mx-llama3-8b-8xb200pl"):
        steps = {rid.removeprefix(prefix + "-"): step_seconds(row) for rid, row in rows.items() if rid.startswith(prefix)}
        names = list(steps)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        print(f"{prefix}: step s measured / predicted " + "  ".join(f"{n} {m:.3f}/{p:.3f}" for n, (m, p) in steps.items()))
        print("  " + "  ".join(f"{b} - {a}: {steps[b][0] - steps[a][0]:+.3f} / {steps[b][1] - steps[a][1]:+.3f}"
                             for a, b in pairs))


def main() -> None:
    rows = {row["id"]: row for row in load_rows()}
    print_runs(rows)
    print_kernel_check(rows)
    print_table_check(rows)
    print_recipe_pairs(rows)


if __name__ == "__main__":
    main()
