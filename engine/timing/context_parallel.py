"""Context parallelism's ring around the attention kernels: the memory passes its copies and merges add, and the
transfers it leaves exposed, as Transformer Engine (Megatron) and as PyTorch's context_parallel (torchtitan, plain
PyTorch) run them."""

from __future__ import annotations

from ..frameworks.defaults import FrameworkDefaults
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .collectives import ALL_GATHER, REDUCE_SCATTER, collective_latency
from .data import efficiency
from .hardware import Hardware
from .links import collective_link, exposed, link, nvlink_domain, p2p_link, ring_exposed_seconds

FP32_BYTES = 4  # torch's ring merges outputs and accumulates dQ, dK, dV in fp32 (_cp_options.convert_to_f32 True)


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


def ring_kv_width(spec: ModelSpec, behaviour: FrameworkDefaults) -> int:
    """Elements per token of one of K and V as the ring carries them: the query's width where the model repeats the
    K/V heads before calling SDPA (FrameworkDefaults.attention_kv_expanded), else the K/V heads'."""
    return spec.q_dim if behaviour.attention_kv_expanded else spec.kv_dim


def torch_ring_copy_bytes(spec: ModelSpec, behaviour: FrameworkDefaults, tp: int, cp: int, elem_bytes: int,
                          compiled: bool) -> tuple[float, float]:
    """(forward, backward) bytes read and written per local token around PyTorch's ring attention
    (torch/distributed/tensor/experimental/_attention.py at v2.6.0, git 2236df17, the release nearest torchtitan's
    report commit 1963fc83 of 2024-12-23: _templated_ring_attention, _SDPAMerger, _templated_ring_attention_backward),
    load-balanced (round-robin chunks r and 2cp - 1 - r), averaged over ranks: of the cp - 1 steps after the first,
    half (i > rank) take the second half of the queries and update half the output (partial). Q: the query row
    (q_dim / tp), KV: one of K and V as the ring carries them (ring_kv_width); fp32 doubles them.
    Eager: forward K and V made contiguous (4 KV) and concatenated into the send buffer at every step but the last,
    even when only the first is all-gathered (4 KV each); the merger casts each step's output to fp32 (3 Q, 1.5 Q when
    partial), then out - sigmoid(lse_b - lse) (out - out_b) in three passes (16 Q, 8 Q partial) and, when partial,
    torch.cat of the two halves back (4 Q); the first step's cast and the final cast to bf16, 3 Q each:
    4 cp KV + 6 Q + (cp - 1) 16.25 Q. Backward: zero fp32 dQ, dK, dV (2 Q + 4 KV), K/V contiguous (4 KV) and
    concatenated at every step but the last (4 KV), the first step's dK, dV added (10 KV) and dQ (5 Q), then per step
    dK, dV added into the received fp32 buffer (10 KV, or a half add and a torch.cat, 13 KV: 11.5 on average) and dQ
    (5 Q, or 6.5 Q partial), and at every step the fp32 dK, dV concatenated for the send (8 KV), and the final casts
    (3 Q + 6 KV): (10 + 5.75 (cp - 1)) Q + (24 + 8 cp + 15.5 (cp - 1)) KV.
    Compiled (torch.compile traces the ring into the block's graph; Inductor fuses each step's element-wise chain
    between the kernel and collective calls and drops the unused send buffers of the all-gather rotater): forward
    K/V contiguous and one concatenation (8 KV), a merge per step reading the fp32 output and the step's output and
    writing the fp32 output (5 Q; 4.5 Q partial, the concatenation fused): 8 KV + (cp - 1) 4.75 Q. Backward: K/V
    contiguous and concatenated (8 KV), the first step's dK, dV written (6 KV) and dQ (3 Q), each later step reading
    the received fp32 dK, dV and the step's and writing the send buffer (10 KV) and dQ (5 Q), the final cast (6 KV):
    20 KV + 10 (cp - 1) KV + 3 Q + 5 (cp - 1) Q. The softmax statistics (heads x tokens) are left out."""
    q = spec.q_dim / tp * elem_bytes
    kv = ring_kv_width(spec, behaviour) / tp * elem_bytes
    steps = cp - 1
    if compiled:
        return 8 * kv + steps * 4.75 * q, (20 + 10 * steps) * kv + (3 + 5 * steps) * q
    return 4 * cp * kv + (6 + 16.25 * steps) * q, (24 + 8 * cp + 15.5 * steps) * kv + (10 + 5.75 * steps) * q


def ring_copy_bytes(s: Scenario, spec: ModelSpec, behaviour: FrameworkDefaults, elem_bytes: int) -> tuple[float,
                                                                                                            float]:
    """(forward, backward) bytes per local token of the ring's copies for the framework's context parallelism."""
    if s.cp <= 1 or s.attention == "eager":
        return 0.0, 0.0
    if not behaviour.cp_ring_attention:
        return te_ring_copy_bytes(spec, s.tp, s.cp, elem_bytes)
    return torch_ring_copy_bytes(spec, behaviour, s.tp, s.cp, elem_bytes, s.compile)


def torch_ring_exposed_seconds(s: Scenario, spec: ModelSpec, hw: Hardware, behaviour: FrameworkDefaults,
                               tokens: float, elem_bytes: int, attn_fwd: float, attn_bwd: float,
                               recomputed: bool) -> float:
    """Exposed seconds of PyTorch's ring for one layer and micro-batch (torch 2.6.0 _attention.py). The K/V rotater
    of torchtitan's default (experimental.context_parallel_rotate_method 'allgather', torchtitan/config_manager.py at
    9dec370) all-gathers every rank's K and V once per pass, before the first step; the forward, its recompute under
    full checkpointing and the backward each run one. The backward sends the fp32 dK, dV (convert_to_f32) to the next
    rank after every step, cp times, by all_to_all_single (_AllToAllRotater, ft_c.permute_tensor), and waits for it
    after the next step's kernel (the last at the end). Eager, NCCL runs them on its own stream: the all-gather hides
    behind the first step's kernel, each dK/dV send behind one step's backward. Compiled, torch.compile traces them
    as functional collectives, and a traced collective is waited for at once (torch/distributed/
    _functional_collectives.py _maybe_wrap_tensor at v2.6.0: wait_tensor when _are_we_tracing(); pytorch/torchtitan
    #3305 shows all_gather_into_tensor followed by wait_tensor in the compiled CP graph); Inductor's comm-overlap
    passes run only under reorder_for_compute_comm_overlap (torch/_inductor/config.py: False by default), and its
    peak-memory order (torch/_inductor/memory.py topological_sort_lpmf) takes first the ready node that leaves the
    least memory, which a wait (it allocates nothing) is against a kernel that writes its output: nothing hides. The
    all-gather's group is cp ranks tp apart (link), the dK/dV send one ring hop (p2p_link)."""
    cp, node = s.cp, nvlink_domain(s, hw)
    block = 2 * tokens * ring_kv_width(spec, behaviour) / s.tp  # K and V elements of the rank's shard
    gather_bw = link(hw, s.tp * cp, node, s.tp)[0]
    gather = (cp - 1) * block * elem_bytes / gather_bw + collective_latency(hw, ALL_GATHER, cp, s.tp * cp, node, s.tp)
    p2p_bw, p2p_lat = p2p_link(hw, s.tp * cp, node)
    send = block * FP32_BYTES / p2p_bw + p2p_lat
    if s.compile:
        fwd, bwd = gather, gather + cp * send
    else:
        fwd = exposed(gather, attn_fwd / cp, 1.0)
        bwd = exposed(gather, attn_bwd / cp, 1.0) + (cp - 1) * exposed(send, attn_bwd / cp, 1.0) + send
    return fwd * (2 if recomputed else 1) + (bwd if attn_bwd else 0.0)


def cp_channels_bytes_per_s(s: Scenario, hw: Hardware) -> float:
    """The most the context-parallel communicator's CTAs move a direction when the scenario holds them to a few
    (cp_comm_max_ctas): that many NCCL channels at NCCL's own per-channel rate on the GPU's NVLink
    (presets/efficiency.json nccl_channel_bytes_per_s). Transformer Engine's ring posts each step's send and receive
    on the cp group (flash_attn_p2p_communicate, torch.distributed batch_isend_irecv), so they run on its CTAs alone.
    No cap (inf) without the key or without a figure for the GPU."""
    if s.cp_comm_max_ctas <= 0 or hw.gpu_id is None:
        return float("inf")
    per_channel = efficiency()["nccl_channel_bytes_per_s"].get(hw.gpu_id)
    return s.cp_comm_max_ctas * float(per_channel) if per_channel else float("inf")


def cp_ring_seconds(s: Scenario, spec: ModelSpec, hw: Hardware, behaviour: FrameworkDefaults, tokens: float,
                    elem_bytes: int, attn_fwd: float, attn_bwd: float, recomputed: bool) -> float:
    """Exposed seconds of the framework's context-parallel ring for one layer and micro-batch: Transformer Engine's
    K/V ring (links.ring_exposed_seconds) or PyTorch's (torch_ring_exposed_seconds)."""
    if s.cp <= 1:
        return 0.0
    if behaviour.cp_kv_all_gather:
        return kv_all_gather_seconds(s, spec, hw, tokens, elem_bytes, bool(attn_bwd), recomputed)
    if not behaviour.cp_ring_attention:
        link_bw, latency = p2p_link(hw, s.tp * s.cp, nvlink_domain(s, hw))
        link_bw = min(link_bw, cp_channels_bytes_per_s(s, hw))
        return ring_exposed_seconds(2 * tokens * spec.kv_dim / s.tp * elem_bytes, s.cp, link_bw, latency, attn_fwd,
                                    attn_bwd)
    return torch_ring_exposed_seconds(s, spec, hw, behaviour, tokens, elem_bytes, attn_fwd, attn_bwd, recomputed)


def kv_all_gather_seconds(s: Scenario, spec: ModelSpec, hw: Hardware, tokens: float, elem_bytes: int, backward: bool,
                          recomputed: bool) -> float:
    """Seconds of one layer and micro-batch of context parallelism that all-gathers K and V (FrameworkDefaults
    cp_kv_all_gather): arXiv:2407.21783 section 3.3.2, 'our CP implementation adopts an all-gather based method
    where we first all-gather the key (K) and value (V) tensors, and then compute attention output for the local
    query (Q) tensor chunk. Although the all-gather communication latency is exposed in the critical path ...'. Each
    rank gathers the other cp - 1 ranks' K and V (its TP shard of the KV heads) before the attention kernel, and the
    backward of that gather reduce-scatters their gradients back, each exposed (nothing runs beside it in the
    paper's words); the forward's again where full recomputation reruns it. K and V are taken as kept for the
    backward (the paper does not say whether its backward gathers them again, which would add one more gather). The
    group is cp ranks tp apart ([TP, CP, PP, DP] order, section 3.3.2), a collective's ring over the link it crosses
    (links.collective_link) with NCCL's latency."""
    cp, node = s.cp, nvlink_domain(s, hw)
    block = 2 * tokens * spec.kv_dim / s.tp * elem_bytes  # the rank's K and V, bytes
    bw = collective_link(hw, s.tp * cp, node, s.tp)[0]
    gather = (cp - 1) * block / bw + collective_latency(hw, ALL_GATHER, cp, s.tp * cp, node, s.tp)
    scatter = (cp - 1) * block / bw + collective_latency(hw, REDUCE_SCATTER, cp, s.tp * cp, node, s.tp)
    return gather * (2 if recomputed else 1) + (scatter if backward else 0.0)
