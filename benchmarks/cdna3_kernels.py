"""CDNA3's published training rows kernel by kernel: what the time model gives each kind of kernel against what the
run measured, and what the gap would take from each (issue 23 item 4; h-cdna3, h-cdna3b).

For every published run on a CDNA3 GPU (MI300X, MI325X, MI300A) it prints, per micro-batch on one rank and without
MFU ceilings (the time model's own mechanisms; engine/timing/ceiling.py): the linear layers' GEMMs (forward, input
gradient, weight gradient) with the rate they run at (their FLOPs over their seconds), attention (forward and
backward, the rate with FlashAttention's 3.5 x forward FLOPs convention), the element-wise kernels (norms,
activations, residuals, fp8 casts), recomputation, the LM head's matmuls and the loss, the step's own terms (data
parallel, optimizer, host) spread over the micro-batches, the window the row's figure timed (measured and
predicted) and the gap. Then the rate each kernel kind would need to take the whole gap alone: a bound on how wrong
one rate must be before that kind alone explains the row.

For each source's bf16 / fp8 twins (same model, layout and commit, only the precision differs), the fp8 linear
GEMMs' speed-up over bf16 the measured saving implies, under the two ends of where the bf16 row's own gap lies: in
kernels both rows run alike (the fp8 row carries the same seconds), or in the bf16 GEMMs (the fp8 GEMMs then save
what remains). The time model gives its own (the fp8 linear rate over the bf16 one).

The per-kind seconds are read from the time model's own layer and head costs (engine/timing/costs.py layer_cost,
head_cost) as engine.timing.model calls them for the row: the recorder below wraps the two names model.py looks up,
so the figures are the ones the step time is made of, not a second computation.

Run: .venv/bin/python benchmarks/cdna3_kernels.py [id-part ...]  (default: every CDNA3 row)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.timing.model as time_model  # noqa: E402
from engine.accuracy.published_throughput import MICRO_BATCH_WITH_STEP, load_rows  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.scenario.memo import memo_tables  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.data import efficiency  # noqa: E402

# FlashAttention's convention: the backward does 2.5 x the forward's FLOPs (its recomputed scores included)
ATTENTION_FLOPS_PER_FORWARD = 3.5


@contextmanager
def recorded_costs() -> Iterator[dict[str, Any]]:
    """Record the last layer cost (with its model spec) and head cost engine.timing.model computes inside the block."""
    seen: dict[str, Any] = {}
    layer_cost, head_cost = time_model.layer_cost, time_model.head_cost
    for table in memo_tables():  # a stage time memoised by an earlier estimate would skip the layer costs
        table.clear()

    def layer(*args: Any, **kwargs: Any) -> Any:
        seen["layer"], seen["spec"] = layer_cost(*args, **kwargs), args[0]
        return seen["layer"]

    def head(*args: Any, **kwargs: Any) -> Any:
        seen["head"] = head_cost(*args, **kwargs)
        return seen["head"]

    time_model.layer_cost, time_model.head_cost = layer, head
    try:
        yield seen
    finally:
        time_model.layer_cost, time_model.head_cost = layer_cost, head_cost
        for table in memo_tables():  # nothing computed under the recording wrappers outlives them
            table.clear()


def cdna3_gpus() -> set[str]:
    """The GPU presets of the CDNA3 family (presets/efficiency.json's GPU-to-family map holds 'cdna3')."""
    found: set[str] = set()
    for value in efficiency().values():
        if isinstance(value, dict) and value.get("mi300x") == "cdna3":
            found |= {gpu for gpu, family in value.items() if family == "cdna3"}
    return found or {"mi300x", "mi325x", "mi300a"}


def kernels(row: dict[str, Any]) -> dict[str, float]:
    """Seconds per micro-batch on one rank by kernel kind (no MFU ceiling), the FLOPs behind the rates, the timed
    window predicted and measured (seconds per micro-batch, the optimizer step included where the row's figure
    timed it)."""
    s = scenario_from_dict(row["scenario"])
    with without_ceilings(), recorded_costs() as seen:
        t = step_time(s)
    c, spec = seen["layer"], seen["spec"]
    layers = spec.layers / max(s.pp, 1)
    terms = t.breakdown_seconds
    accum = max(s.grad_accum, 1)
    head_matmul, loss = seen.get("head", (0.0, 0.0))
    out = {
        "gemm_fwd": layers * c.gemm_fwd, "gemm_dgrad": layers * c.gemm_dgrad, "gemm_wgrad": layers * c.gemm_wgrad,
        "attn_fwd": layers * c.attn_fwd, "attn_bwd": layers * c.attn_bwd,
        "elementwise": layers * (c.elem_fwd + c.elem_bwd), "recompute": terms["recompute"] / accum,
        "head": 3 * head_matmul, "loss": loss,
        "gemm_flops": 3 * layers * c.gemm_flops_fwd, "attn_flops": ATTENTION_FLOPS_PER_FORWARD * layers * c.attn_flops_fwd,
        "dp": terms["communication_dp"] / accum, "host": terms["host"] / accum, "optimizer": terms["optimizer"],
    }
    out["other_memory"] = terms["memory_bound"] / accum - out["elementwise"] - loss  # embedding, gradient passes
    with_step = row.get("measured_window") == MICRO_BATCH_WITH_STEP
    out["predicted"] = (t.step_seconds - terms["optimizer"]) / accum + (terms["optimizer"] if with_step else
                                                                       terms["optimizer"] / accum)
    tokens = t.tokens_per_step / t.world_size / accum  # one micro-batch's tokens per GPU, as the figure counts them
    out["measured"] = tokens / float(row["measured"]) if with_step else t.step_seconds / accum * (
        t.tokens_per_second_per_gpu / float(row["measured"]))
    out["gap"] = out["measured"] - out["predicted"]
    return out


def _tflops(flops: float, seconds: float) -> float:
    return flops / seconds / 1e12 if seconds > 0 else 0.0


def print_row(row_id: str, k: dict[str, float]) -> None:
    gemm = k["gemm_fwd"] + k["gemm_dgrad"] + k["gemm_wgrad"]
    attn = k["attn_fwd"] + k["attn_bwd"]
    print(f"{row_id}\n  per micro-batch: measured {k['measured']:.3f} s, predicted {k['predicted']:.3f} s "
          f"({k['predicted'] / k['measured'] - 1:+.1%} in time, {k['measured'] / k['predicted'] - 1:+.1%} "
          f"in tokens/s), gap {k['gap']:+.3f} s")
    print(f"  linear GEMMs    {gemm:7.3f} s  (fwd {k['gemm_fwd']:.3f}, dgrad {k['gemm_dgrad']:.3f}, wgrad "
          f"{k['gemm_wgrad']:.3f})  {_tflops(k['gemm_flops'], gemm):6.0f} TFLOPS")
    print(f"  attention       {attn:7.3f} s  (fwd {k['attn_fwd']:.3f}, bwd {k['attn_bwd']:.3f})        "
          f"{_tflops(k['attn_flops'], attn):6.0f} TFLOPS (3.5 x fwd FLOPs)")
    print(f"  element-wise    {k['elementwise']:7.3f} s   recompute {k['recompute']:.3f} s   head matmuls "
          f"{k['head']:.3f} s   loss {k['loss']:.3f} s   other memory {k['other_memory']:.3f} s")
    print(f"  step terms      dp {k['dp']:.4f} s   host {k['host']:.4f} s   optimizer {k['optimizer']:.4f} s")
    if k["gap"] > 0:
        print(f"  the gap alone in the linear GEMMs: {_tflops(k['gemm_flops'], gemm + k['gap']):.0f} TFLOPS "
              f"({gemm / (gemm + k['gap']):.2f} of the model's rate); in attention: "
              f"{_tflops(k['attn_flops'], attn + k['gap']):.0f} TFLOPS ({attn / (attn + k['gap']):.2f}); in the "
              f"element-wise kernels: {k['elementwise'] / (k['elementwise'] + k['gap']):.2f} of their rate")


def twin_speedups(bf16: dict[str, float], fp8: dict[str, float]) -> tuple[float, float, float]:
    """(model's fp8 linear GEMM speed-up over bf16, the measured one if the bf16 row's gap lies in kernels both rows
    run alike, the measured one if it lies in the bf16 GEMMs): GEMM seconds include the recomputed ones."""
    g_bf16 = bf16["gemm_fwd"] + bf16["gemm_dgrad"] + bf16["gemm_wgrad"] + bf16["recompute"]
    g_fp8 = fp8["gemm_fwd"] + fp8["gemm_dgrad"] + fp8["gemm_wgrad"] + fp8["recompute"]
    rest_fp8 = fp8["predicted"] - g_fp8
    shared = g_bf16 / max(fp8["measured"] - rest_fp8 - bf16["gap"], 1e-9)
    in_gemms = (g_bf16 + bf16["gap"]) / max(fp8["measured"] - rest_fp8, 1e-9)
    return g_bf16 / g_fp8, shared, in_gemms


def main() -> None:
    parts, gpus = sys.argv[1:], cdna3_gpus()
    rows = [r for r in load_rows() if str(r["scenario"].get("gpu")) in gpus
            and (not parts or any(p in r["id"] for p in parts))]
    found = {r["id"]: kernels(r) for r in rows}
    for row_id, k in found.items():
        print_row(row_id, k)
    bf16_rows = [i for i in found if i.endswith("-none")]
    for base in bf16_rows:
        prefix = base[: -len("none")]
        for twin in (i for i in found if i.startswith(prefix) and i != base):
            model, shared, in_gemms = twin_speedups(found[base], found[twin])
            saved = found[base]["measured"] - found[twin]["measured"]
            predicted = found[base]["predicted"] - found[twin]["predicted"]
            print(f"{twin[len(prefix):]:20} vs bf16: saves {saved:.3f} s measured, {predicted:.3f} s predicted; fp8 "
                  f"linear GEMMs x{model:.2f} bf16's in the model, measured x{shared:.2f} (bf16 gap shared) to "
                  f"x{in_gemms:.2f} (bf16 gap in its GEMMs)")


if __name__ == "__main__":
    main()
