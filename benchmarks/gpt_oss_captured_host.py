"""What GPT-OSS and Qwen3-30B-A3B run in eager mode inside the scopes Megatron's TE-scoped CUDA graphs capture (attn,
moe_router, moe_preprocess), counted by running Megatron-Core's own functions on the CPU.

The Megatron-Bridge skills card's CUDA-graph pairs (skills/nemo-mbridge-perf-cuda-graphs/card.yaml at 067f987d;
tests/data/published/throughput/megatron-bridge-skills-offload.json) save 98.5 ms a step on GPT-OSS-20B (TP2 PP4 EP4,
6 layers x 5 pipeline slots: 3.3 ms a layer and slot) and 139 ms on Qwen3-30B-A3B (TP2 PP2 EP4, 24 x 3: 1.9 ms). This
script runs, with torch on the CPU and a TorchDispatchMode counting every ATen call, the eager code each model runs in
those scopes beyond the layer's TE modules, forward and backward:

- GPT-OSS's YaRN rotation of q and k (megatron/core/models/common/embeddings/rope_utils.py _rotate_half and
  _apply_rotary_pos_emb_bshd: mscale != 1 takes the unfused path), its attention-output bias added apart
  (bias_dropout_fusion False: fusions/fused_bias_dropout.py _bias_dropout_add_func at p = 0), its sinks' parameter
  cast (TransformerEngine dot_product_attention.py v2.14 lines 1437-1439: softmax_offset.reshape(1, -1, 1, 1)
  .to(torch.float32), the parameter in bf16 under Megatron's Float16Module), its router's gating with a bias and the
  unfused top-k then softmax (moe_router_fusion False, moe_router_pre_softmax False, moe_router_load_balancing_type
  'none': transformer/moe/moe_utils.py topk_routing_with_score_function, RouterGatingLinearFunction's torch path);
- Qwen3-30B-A3B's router, the same top-k plus its aux loss (moe_router_load_balancing_type 'aux_loss', coefficient
  1e-3: compute_routing_scores_for_aux_loss, switch_load_balancing_loss_func, MoEAuxLossAutoScaler), its q / k norms
  and fused RoPE counted as one kernel each (TE's RMSNorm and fused_apply_rotary_pos_emb).

A kernel is an ATen call that writes a new tensor or fills one (views, reshapes, detach and empty launch nothing on
a GPU). TE's GEMMs (router gating through te_general_gemm) are one kernel each: here torch.mm / addmm stand in.
The all-reduce of the aux loss's token counts over the TP x CP group (get_tokens_per_expert_and_token_count) is
not run (no process group); it is listed apart.

Run: python benchmarks/gpt_oss_captured_host.py ROPE_UTILS.py MOE_UTILS.py
(the two files from NVIDIA/Megatron-LM at the rows' commit, e.g. `git show 3758b54b:megatron/core/models/common/
embeddings/rope_utils.py > rope_utils.py`; needs torch, CPU build is enough.)
"""
# ruff: noqa
from __future__ import annotations

import ast
import sys
from collections import Counter
from typing import Optional, Tuple

# ATen calls that launch no kernel on a GPU (metadata only)
_NO_KERNEL = {"view", "_unsafe_view", "reshape", "slice", "select", "unsqueeze", "squeeze", "expand", "t", "transpose",
              "permute", "alias", "split", "split_with_sizes", "chunk", "detach", "empty", "empty_like", "as_strided",
              "_reshape_alias", "lift_fresh", "unbind", "empty_strided", "narrow"}


def load(path: str, names: set[str], namespace: dict) -> None:
    """Exec the top-level defs and classes called `names` of a Megatron source file into `namespace`."""
    tree = ast.parse(open(path).read())
    body = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    missing = names - {n.name for n in body}
    if missing:
        raise SystemExit(f"{path}: not found {sorted(missing)}")
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), namespace)


def counted(fn):
    """(kernels, calls by op) of running fn() under a dispatch mode."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class Count(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = Counter()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops[func.overloadpacket.__name__] += 1
            return func(*args, **(kwargs or {}))

    with Count() as mode:
        fn()
    # slice_backward fills a zero tensor and copies the slice's gradient into it: two kernels
    kernels = sum(n * (2 if op == "slice_backward" else 1) for op, n in mode.ops.items() if op not in _NO_KERNEL)
    return kernels, dict(mode.ops)


def backward_counted(outputs, inputs):
    """(kernels, calls by op) of the backward of `outputs` to `inputs` from gradients made beforehand: no loss ops, and
    torch.autograd.grad leaves the leaves' .grad alone (Megatron's main_grad hooks are counted apart)."""
    import torch

    grads = [torch.randn_like(o) for o in outputs]
    return counted(lambda: torch.autograd.grad(list(outputs), list(inputs), grads, allow_unused=True))


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        sys.exit("usage: gpt_oss_captured_host.py ROPE_UTILS_PY MOE_UTILS_PY (NVIDIA/Megatron-LM's "
                 "megatron/core/models/common/embeddings/rope_utils.py and megatron/core/transformer/moe/moe_utils.py "
                 "at the rows' commit, e.g. `git show 3758b54b:PATH > rope_utils.py`)")
    try:
        import torch
    except ImportError:
        sys.exit("gpt_oss_captured_host.py runs Megatron-Core's functions: it needs torch (a CPU build is enough)")
    rope_path, moe_path = argv

    ns = {"torch": torch, "Tensor": torch.Tensor, "Optional": Optional, "Tuple": Tuple, "HAVE_TE": False,
          "te_general_gemm": None, "fused_topk_with_score_function": None, "fused_moe_aux_loss": None,
          "fused_compute_score_for_moe_aux_loss": None}
    load(rope_path, {"_rotate_half", "_apply_rotary_pos_emb_bshd"}, ns)
    load(moe_path, {"topk_routing_with_score_function", "compute_routing_scores_for_aux_loss",
                    "switch_load_balancing_loss_func", "MoEAuxLossAutoScaler", "RouterGatingLinearFunction"}, ns)
    bf16, s = torch.bfloat16, 64  # tokens: the count does not depend on them
    results = {}

    # GPT-OSS-20B at TP 2: 32 query and 4 key/value heads of 64 a rank; YaRN mscale 0.1 ln 32 + 1
    mscale = 0.1 * __import__("math").log(32.0) + 1.0
    freqs = torch.randn(s, 1, 1, 64)  # fp32, as YarnRotaryEmbedding returns it (lru-cached per micro-batch)
    q = torch.randn(s, 1, 32, 64, dtype=bf16, requires_grad=True)
    k = torch.randn(s, 1, 4, 64, dtype=bf16, requires_grad=True)

    def yarn():
        out_q = ns["_apply_rotary_pos_emb_bshd"](q, freqs, rotary_interleaved=False, mscale=mscale)
        out_k = ns["_apply_rotary_pos_emb_bshd"](k, freqs, rotary_interleaved=False, mscale=mscale)
        return out_q, out_k

    results["gpt-oss YaRN q and k forward"] = counted(yarn)
    results["gpt-oss YaRN q and k backward"] = backward_counted(yarn(), (q, k))

    h = 2880
    x = torch.randn(s, 1, h, dtype=bf16, requires_grad=True)
    bias = torch.randn(h, dtype=bf16, requires_grad=True)
    residual = torch.randn(s, 1, h, dtype=bf16)

    def bda():  # _bias_dropout_add_func, training, p = 0 (hidden_dropout 0.0)
        y = torch.nn.functional.dropout(x + bias, p=0.0, training=True)
        return residual + y

    results["gpt-oss output bias-dropout-add forward"] = counted(bda)
    results["gpt-oss output bias-dropout-add backward"] = backward_counted((bda(),), (x, bias))

    offset = torch.zeros(32, dtype=bf16, requires_grad=True)  # TE's softmax_offset (heads / tp), bf16 in the module
    results["gpt-oss sinks' softmax_offset forward"] = counted(lambda: offset.reshape(1, -1, 1, 1).to(torch.float32))
    results["gpt-oss sinks' softmax_offset backward"] = backward_counted(
        (offset.reshape(1, -1, 1, 1).to(torch.float32),), (offset,))

    def router(n_experts: int, topk: int, with_bias: bool, aux: bool):
        inp = torch.randn(s, 1, h if with_bias else 2048, dtype=bf16, requires_grad=True)
        w = torch.randn(n_experts, inp.shape[-1], dtype=bf16, requires_grad=True)
        b = torch.randn(n_experts, dtype=bf16, requires_grad=True) if with_bias else None
        out = {}

        def fwd():
            logits = ns["RouterGatingLinearFunction"].apply(inp, w, b, bf16).view(-1, n_experts)
            probs, routing_map = ns["topk_routing_with_score_function"](logits, topk, use_pre_softmax=False,
                                                                         score_function="softmax")
            if aux:  # _apply_aux_loss (the token counts' all-reduce left out) and attach_and_log_load_balancing_loss
                routing_map_aux, scores = ns["compute_routing_scores_for_aux_loss"](logits, topk, "softmax")
                tokens_per_expert = routing_map_aux.sum(dim=0)
                loss = ns["switch_load_balancing_loss_func"](scores, tokens_per_expert, s, topk, n_experts, 1e-3)
                (loss / 1e-3).detach()  # save_to_aux_losses_tracker's value (its tracker add_ left out)
                probs = ns["MoEAuxLossAutoScaler"].apply(probs, loss * s)  # calculate_per_token_loss
            out["probs"] = probs

        out["fwd"] = counted(fwd)
        out["bwd"] = backward_counted((out["probs"],), [t for t in (inp, w, b) if t is not None])
        return out

    gpt = router(32, 4, True, False)
    qwen = router(128, 8, False, True)
    results["gpt-oss router forward"], results["gpt-oss router backward"] = gpt["fwd"], gpt["bwd"]
    results["qwen3 router + aux loss forward"], results["qwen3 router + aux loss backward"] = qwen["fwd"], qwen["bwd"]

    for name, (kernels, ops) in results.items():
        print(f"{name:44s} {kernels:3d} kernels   {ops}")
    print("not run: the aux loss's all-reduce of the token counts over the TP x CP group (Qwen3 only), "
          "TE's q / k RMSNorm and fused RoPE (Qwen3 only: 2 + 2 kernels forward, 2 + 2 backward)")


if __name__ == "__main__":
    main(sys.argv[1:])
