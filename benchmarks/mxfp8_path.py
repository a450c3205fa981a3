"""The MXFP8 path of one MoE layer against what the step lacks (issue 23: Megatron-Bridge's MXFP8 MoE rows on
Blackwell predicted fast; Megatron-Bridge pull request #1760 measured MXFP8 at 0.95x BF16's speed for Qwen3-235B-A22B
on 64 B200s, issue #2842 'still mostly mxfp8 cast bound').

For every published Megatron-Bridge MXFP8 MoE row without a full-iteration CUDA graph, per MoE layer and
micro-batch on the busiest pipeline stage, in ms:
- missing: measured step minus predicted step (every source's MFU ceilings, as benchmarks/moe_step_gap.py), over
  the stage's micro-batches x MoE layers;
- casts: the MXFP8 quantize kernels the layer runs on the GPU (activations before every fp8 GEMM, each expert's
  routed rows after the dispatch, the output gradients in the backward; rowwise and columnwise copies with a 1-per-32
  E8M0 scale each way: presets/efficiency.json fp8_cast_bytes te-mxfp8, at the kernel's measured 0.651 of peak);
- swizzle: the weights' scales swizzled into cuBLASLt's layout at every fprop and dgrad GEMM call (the same entry's
  weight_forward / weight_backward);
- x slower: how many times slower the casts would have to run to be what is missing;
- fp8 GEMM gain: the GEMM time the model saves against the same layer in bf16 (GEMMs at the bf16 rate);
- host: Transformer Engine's GroupedLinear host work per local expert (engine/timing/host.py expert_host_seconds,
  forward + backward), MXFP8 and bf16; how much of it shows is the host term's business, not listed here.

Run: .venv/bin/python benchmarks/mxfp8_path.py [ID-SUBSTRING ...]
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import rows_matching  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.costs import layer_cost, weight_cast_seconds  # noqa: E402
from engine.timing.data import efficiency, framework_profile  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.host import expert_host_seconds  # noqa: E402
from engine.timing.layer_settings import expert_gemms, fp8_casts, moe_dispatch  # noqa: E402
from engine.timing.links import nvlink_domain  # noqa: E402
from engine.timing.model import rates_for, step_time  # noqa: E402


def _layer(s, fp8: str):
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    tokens = s.micro_batch * s.seq_len / s.cp
    disp = moe_dispatch(s, prof, nvlink_domain(s, hw))
    return rates, layer_cost(spec, True, tokens, s.seq_len, s.tp, s.ep, s.cp, s.sequence_parallel, rates, "fused",
                             "fused", fp8, (), 0, None, **expert_gemms(s, prof), **disp)


def _gemm(cost) -> float:
    return cost.gemm_fwd + cost.gemm_dgrad + cost.gemm_wgrad


def path(row: dict) -> dict[str, float] | None:
    """Milliseconds per MoE layer and micro-batch of one row's MXFP8 path (None for rows it does not apply to)."""
    s = scenario_from_dict(row["scenario"])
    spec = resolve_model(s)
    if not spec.is_moe or s.precision != "fp8" or s.fp8_recipe != "mxfp8" or s.cuda_graphs == "full-iteration":
        return None
    fp8 = fp8_casts(s, framework_profile(s.framework))
    rates, mx = _layer(s, fp8)
    _, plain = _layer(s, "")  # the same layer without fp8 casts (same GEMM rates)
    bf16 = dataclasses.replace(s, precision="bf16", fp8_recipe="auto", fp8_param_gather=False)
    _, in_bf16 = _layer(bf16, "")
    entry = efficiency()["fp8_cast_bytes"][fp8]
    local = spec.n_experts // s.ep
    swizzle = sum(weight_cast_seconds(spec, True, s.tp, s.ep, entry, rates.memory))
    added = (mx.elem_fwd + mx.elem_bwd) - (plain.elem_fwd + plain.elem_bwd)
    gpus = s.world_size
    tokens = s.micro_batch * s.grad_accum * gpus // (s.tp * s.pp * s.cp) * s.seq_len
    measured = tokens / (row["measured"] * gpus)
    predicted = tokens / (step_time(s).tokens_per_second_per_gpu * gpus)
    layers = -(-spec.layers // s.pp)
    missing = (measured - predicted) / (s.grad_accum * layers)
    return {"local": local, "missing": 1e3 * missing, "casts": 1e3 * (added - swizzle), "swizzle": 1e3 * swizzle,
            "gain": 1e3 * (_gemm(in_bf16) - _gemm(mx)), "host_mx": 1e3 * sum(expert_host_seconds(s, fp8)),
            "host_bf16": 1e3 * sum(expert_host_seconds(bf16, ""))}


def main() -> None:
    filters = sys.argv[1:]
    print(f"{'row':72s} {'local':>5s} {'missing':>8s} {'casts':>6s} {'swizzle':>7s} {'x slower':>8s} "
          f"{'fp8 gain':>8s} {'host mx':>7s} {'host bf16':>9s}")
    for row in rows_matching(filters):
        if not row["id"].startswith("megatron-bridge"):
            continue
        p = path(row)
        if p is None:
            continue
        # only where the step lacks time: where the model is slow already no cast rate would close it
        slower = f"{1 + p['missing'] / p['casts']:8.1f}" if p["casts"] > 0 and p["missing"] > 0 else f"{'-':>8s}"
        print(f"{row['id']:72s} {p['local']:5d} {p['missing']:+8.2f} {p['casts']:6.2f} {p['swizzle']:7.3f} "
              f"{slower} {p['gain']:8.2f} {p['host_mx']:7.2f} {p['host_bf16']:9.2f}")


if __name__ == "__main__":
    main()
