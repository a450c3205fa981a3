"""Every kernel of one MoE decoder layer as Megatron-Core, Transformer Engine and HybridEP run it for Megatron-Bridge's
Qwen3-30B-A3B recipes, with the bytes each reads plus writes per token, against what the time model counts
(engine/timing/costs.py layer_cost: the element-wise terms; the GEMMs, attention and the all-to-all are costed by
their own terms and listed here only for their count).

Run: .venv/bin/python benchmarks/moe_layer_kernels.py [ROW_ID ...]   (rows of tests/data/published/throughput*.json)

Kernel list read from: NVIDIA/Megatron-LM at 2edffadb (the commit Megatron-Bridge v0.4.2 pins):
megatron/core/transformer/transformer_layer.py, attention.py (q_layernorm / k_layernorm), moe/moe_layer.py
(route -> preprocess -> dispatch -> routed_experts_compute -> combine -> postprocess), moe/router.py (gating,
apply_random_logits under moe_router_force_load_balancing, fused top-k and aux-loss scores under moe_router_fusion),
moe/token_dispatcher.py (_HybridEPManager), moe/experts.py (TEGroupedMLP: Fp8Padding, fc1, weighted_bias_swiglu_impl,
fc2, Fp8Unpadding); NVIDIA/TransformerEngine v2.14 (GroupedLinear's split_quantize: one quantize per expert,
transformer_engine/pytorch/csrc/extensions/cast.cpp; current scaling: amax, then scale, then cast-transpose);
deepseek-ai/DeepEP hybrid-ep branch docs/Hybrid-EP_Implementation.md (Executor: staging copy when the EP group spans
NVLink domains, dispatch kernel, permute kernel; unpermute kernel, combine kernel).

Rows of the full-iteration CUDA-graph MXFP8 recipes (Megatron-Bridge v0.5.0 scripts/performance/configs/qwen/
qwen3_llm_pretrain.py set_full_iter_cg_configs: moe_paged_stash, moe_expert_rank_capacity_factor 1.5; Megatron-LM
d0b3b775, the commit v0.5.0 pins) also list the paged stash (megatron/core/transformer/moe/paged_stash.py: the
saved-tensor hooks around the experts copy every tensor Transformer Engine's fused grouped MLP marks,
transformer_engine/pytorch/ops/fused/forward_grouped_mlp.py at v2.16 mark_grouped_tensor(grouped_fc1_x, swiglu_in,
scales, grouped_fc2_x), its real rows only, into paged buffers after the forward and back before the backward, on a
side stream: fc1 input column-wise fp8 and its e8m0 scales, the bf16 SwiGLU input, the fp32 probabilities, fc2 input
column-wise fp8 and its scales per routed row, each read and written twice). The rest of their list is still that of
the unfused path (their fused grouped MLP runs the SwiGLU and the casts inside its GEMMs).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.costs import layer_cost, qk_norm_units  # noqa: E402
from engine.timing.data import efficiency, framework_profile  # noqa: E402
from engine.timing.expert_costs import permutation_bytes  # noqa: E402
from engine.timing.hardware import hardware_for  # noqa: E402
from engine.timing.layer_settings import expert_gemms, fp8_casts, moe_dispatch  # noqa: E402
from engine.timing.links import nvlink_domain  # noqa: E402
from engine.timing.model import rates_for  # noqa: E402

ROWS = ("megatron-bridge-26.04-qwen3_30b_a3b-dgx-h100-fp8-16", "megatron-bridge-26.04-qwen3_30b_a3b-dgx-gb200-mxfp8-8",
        "megatron-bridge-26.06-pretraining-qwen3_30b_a3b-dgx-gb200-mxfp8-8")


def inventory(spec, s, fp8: str, eb: int = 2) -> list[tuple[str, float, float]]:
    """(kernel, forward bytes per token, backward bytes per token) on one rank, TP 1, bf16 activations."""
    h, k, f = spec.hidden, spec.top_k, spec.expert_ffn
    cast = efficiency()["fp8_cast_bytes"].get(fp8, {"forward_input": 0, "backward_grad_output": 0})
    fi, fg = cast["forward_input"], cast["backward_grad_output"]
    q, kv = spec.q_dim, spec.kv_dim
    disp = moe_dispatch(s, framework_profile(s.framework), nvlink_domain(s, hardware_for(s)))
    perm_fwd, perm_bwd = permutation_bytes(spec, s.ep, "megatron", s.moe_token_dispatcher_type, disp["ep_domains"], eb)
    return [
        # attention block
        ("input RMSNorm (TE, before the fp8 QKV GEMM)", 4 * h, 6 * h),
        ("fp8 cast of the QKV input / of the QKV output gradient", fi * h, fg * (q + 2 * kv)),
        ("q_layernorm + k_layernorm (TE RMSNorm)", 4 * qk_norm_units(spec, 1), 6 * qk_norm_units(spec, 1)),
        ("fused RoPE on q and k", 4 * (q + kv), 4 * (q + kv)),
        ("fp8 cast of the projection input / output gradient", fi * q, fg * h),
        ("bias-dropout-add (residual)", 6 * h, 4 * h),
        # MoE block
        ("pre-MLP RMSNorm (TE)", 4 * h, 6 * h),
        ("router: logits (bf16 GEMM, fp32 out), random logits, fused top-k/softmax, aux-loss scores and sums",
         4 * spec.n_experts * 6, 4 * spec.n_experts * 6),
        ("permutation: staging copy, permute, unpermute (HybridEP; alltoall: TE permute/sort/unpermute)",
         perm_fwd, perm_bwd),
        ("fp8 cast of each expert's fc1 input (per expert) / fc1 output gradient", fi * k * h, fg * k * 2 * f),
        ("weighted SwiGLU over the routed copies (probs multiplied inside) / its backward with d(probs)",
         6 * k * f, 10 * k * f),
        ("fp8 cast of each expert's fc2 input / fc2 output gradient", fi * k * f, fg * k * h),
        ("residual add after the MoE block", 6 * h, 4 * h),
    ] + ([("paged stash of the fused grouped MLP's saved tensors (side stream): copy in / reload",
           2 * k * stash_row_bytes(h, f, eb), 2 * k * stash_row_bytes(h, f, eb))] if paged_stash(s) else [])


def paged_stash(s) -> bool:
    """The recipes turn on moe_paged_stash with full-iteration CUDA graphs in MXFP8 (set_full_iter_cg_configs)."""
    return s.cuda_graphs == "full-iteration" and s.precision == "fp8" and s.fp8_recipe == "mxfp8"


def stash_row_bytes(h: int, f: int, eb: int = 2) -> float:
    """Bytes the paged stash keeps per routed row: fc1 input column-wise fp8 + e8m0 scale per 32 rows, SwiGLU input
    (2 x expert ffn, bf16), the fp32 probability, fc2 input column-wise fp8 + scales."""
    return h + h / 32 + 2 * f * eb + 4 + f + f / 32


def main() -> None:
    ids = sys.argv[1:] or list(ROWS)
    rows = {r["id"]: r for r in load_rows()}
    for row_id in ids:
        s = scenario_from_dict(rows[row_id]["scenario"])
        spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
        rates = rates_for(s, hw, prof)
        fp8 = fp8_casts(s, prof)
        tokens = s.micro_batch * s.seq_len / s.cp
        disp = moe_dispatch(s, prof, nvlink_domain(s, hw))
        cost = layer_cost(spec, True, tokens, s.seq_len, s.tp, s.ep, s.cp, s.sequence_parallel, rates, "fused",
                          "fused", fp8, (), 0, None, **expert_gemms(s, prof), **disp)
        print(f"\n{row_id}: {spec.hidden} hidden, {spec.n_experts} experts, top {spec.top_k}, expert ffn "
              f"{spec.expert_ffn}, EP {s.ep} ({disp['ep_domains']} NVLink domain(s)), {s.micro_batch} x {s.seq_len} "
              f"tokens, fp8 casts {fp8 or 'none'}")
        print(f"{'kernel':100s} {'fwd KB/token':>13s} {'bwd KB/token':>13s}")
        total_fwd = total_bwd = 0.0
        for name, fwd, bwd in inventory(spec, s, fp8):
            total_fwd, total_bwd = total_fwd + fwd, total_bwd + bwd
            print(f"{name:100s} {fwd / 1e3:13.1f} {bwd / 1e3:13.1f}")
        print(f"{'sum of the kernels above':100s} {total_fwd / 1e3:13.1f} {total_bwd / 1e3:13.1f}")
        counted_fwd, counted_bwd = cost.elem_fwd * rates.memory / tokens, cost.elem_bwd * rates.memory / tokens
        print(f"{'counted by layer_cost (element-wise terms, at ' + format(rates.memory / 1e12, '.2f') + ' TB/s)':100s}"
              f" {counted_fwd / 1e3:13.1f} {counted_bwd / 1e3:13.1f}")
        print(f"per layer and micro-batch: GEMMs {1e3 * (cost.gemm_fwd + cost.gemm_dgrad + cost.gemm_wgrad):.2f} ms, "
              f"attention {1e3 * (cost.attn_fwd + cost.attn_bwd):.2f} ms, element-wise "
              f"{1e3 * (cost.elem_fwd + cost.elem_bwd):.2f} ms; the kernels above at the same rate "
              f"{1e3 * tokens * (total_fwd + total_bwd) / rates.memory:.2f} ms")


if __name__ == "__main__":
    main()
