"""Memory passes Transformer Engine's context-parallel attention adds around its ring steps."""

from __future__ import annotations

from ..models.architecture import ModelSpec


def te_ring_copy_bytes(spec: ModelSpec, tp: int, cp: int, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes read and written per local token by the copies and merges of Transformer Engine's
    AttnFuncWithCPAndKVP2P (transformer_engine/pytorch/attention.py at v1.13, the same code from v1.10 to v2.1),
    causal, sbhd, fused attention, averaged over the cp ranks. Q is the rank's query-sized tensor (q_dim / tp per
    token), KV one of its K and V (kv_dim / tp). Forward: K and V concatenated into the send buffer (torch.cat: 4 KV),
    the output zero-filled (1 Q), each step's output merged into it by flash_attn_fwd_out_correction (torch.compile:
    read out and the step's output, write out, 3 Q; over the second half only on the steps that take half the
    queries, 1.5 Q); of the cp - 1 steps after the first, half (averaged over ranks, i <= rank) take the first half
    of the received K/V (.contiguous(): 2 KV) and half the second half of the queries (q[1].contiguous(): 1 Q):
    4 Q + 4 KV + (cp - 1) (2.75 Q + KV). Backward: K/V copied into the send buffer (4 KV); the diagonal step adds its
    dq into dq (3 Q), concatenates dK, dV (torch.cat: 4 KV) and adds them into the dK/dV buffer (6 KV); of the other
    steps, half copy q, out and dout's second halves (3 Q), add the half dq (1.5 Q), concatenate and add the whole
    dK/dV (10 KV), half copy the first half of K/V (2 KV), add the whole dq (3 Q) and concatenate and add half dK/dV
    (5 KV); the first step writes where the others add (1 Q and 2 KV less): 2 Q + 12 KV + (cp - 1) (3.75 Q + 8.5 KV).
    The softmax statistics (heads x tokens, fp32 and fp64) are 1/64 of Q at head dim 128 and left out."""
    q = spec.q_dim / tp * elem_bytes
    kv = spec.kv_dim / tp * elem_bytes
    steps = cp - 1
    return 4 * q + 4 * kv + steps * (2.75 * q + kv), 2 * q + 12 * kv + steps * (3.75 * q + 8.5 * kv)
