"""Per-op selective activation checkpointing (torchtitan SelectiveAC, torchtune ac_option 'op').

torchtitan/distributed/activation_checkpoint.py wraps each transformer block with a policy that saves the outputs of
matmuls, attention kernels and collectives, except every second matmul of the block (counted in forward order), and
recomputes everything else. In a Llama block the matmuls run wq, wk, wv, (attention), wo, w1, w3, w2: the 1st, 3rd,
5th and 7th are saved (wq, wv, w1, w2), wk, wo and w3 are recomputed. The block's input is kept by the checkpoint.
"""

from __future__ import annotations

from ..models.architecture import ModelSpec
from .activations import ActContext


def op_selective_terms(ctx: ActContext, spec: ModelSpec, moe: bool, saves_attention: bool = True
                       ) -> list[tuple[str, float]]:
    """Bytes one block keeps for backward under the per-op policy, for one micro-batch. saves_attention false: the
    policy does not name the attention kernel that runs (torchtitan's op_sac_save_list before pull request #2095 named
    SDPA's flash and memory-efficient ops, not cuDNN's), so its output is recomputed in the backward, not kept."""
    c, t, tp = ctx.compute, ctx.t, ctx.tp
    q, kv = spec.q_dim / tp, spec.kv_dim / tp
    out = [("block input kept by the checkpoint", ctx.residual * ctx.t_norm * spec.hidden),
           ("wq output (1st matmul, saved)", c * t * q),
           ("wv output (3rd matmul, saved)", c * t * kv)]
    if saves_attention:
        out.append(("attention output and log-sum-exp (saved)", c * t * q + 4 * t * spec.heads / tp))
    if moe:
        routed = t * spec.top_k
        fm = spec.expert_ffn / tp
        out.append(("expert w1 and w2 outputs (saved)", c * routed * (fm + spec.hidden)))
        if spec.shared_ffn:
            out.append(("shared expert w1 and w2 outputs (saved)", c * t * (spec.shared_ffn / tp + spec.hidden)))
    else:
        out.append(("w1 output (5th matmul, saved)", c * t * spec.ffn / tp))
        out.append(("w2 output (7th matmul, saved)", c * t * spec.hidden))
    return out


def op_selective_bytes(ctx: ActContext, spec: ModelSpec, moe: bool, saves_attention: bool = True) -> float:
    return sum(b for _, b in op_selective_terms(ctx, spec, moe, saves_attention))
