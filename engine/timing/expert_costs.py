"""Seconds and bytes of one layer's routed experts on one rank (engine/timing/costs.py layer_cost adds them up):
their matmuls, kernel by kernel as the framework issues them (expert_gemm_seconds, expert_seconds), the dispatcher's
token permutation (permutation_bytes) and the fp8 padding around the experts (fp8_padding_bytes).
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from .data import efficiency
from .gemm import Rates, grouped_gemm_seconds, rate_tile
from .links import experts_missed
from .sequential_experts import SEQUENTIAL, sequential_loop_bytes


def expert_gemm_seconds(local: int, m: float, k: float, n: float, rates: Rates, streams: int,
                        out_bytes: float = 0.0) -> float:
    """The (m x k) @ (k x n) matmul of each of `local` experts. streams 0: one grouped kernel, waves over all the
    experts' tiles. streams > 0: Transformer Engine's GroupedLinear, one cuBLAS GEMM per expert issued round-robin
    on its compute streams (transformer_engine/common/gemm/cublaslt_gemm.cu multi_stream_cublas_gemm; 4 streams,
    common/util/multi_stream.cpp; presets/efficiency.json expert_gemms): at most `streams` GEMMs run at once, so
    waves form over the tiles of the GEMMs in flight together, not over all experts' tiles."""
    mem, eb, sms, best = rates.memory, rates.elem_bytes, rates.sms, rates.epilogue_k[1]
    tile = rate_tile(rates, True)
    if streams <= 0 or streams >= local:
        return grouped_gemm_seconds(local, m, k, n, rates.linear, mem, eb, sms, out_bytes, best, tile)
    full, rest = divmod(local, streams)
    seconds = full * grouped_gemm_seconds(streams, m, k, n, rates.linear, mem, eb, sms, out_bytes, best, tile)
    if not rest:
        return seconds
    return seconds + grouped_gemm_seconds(rest, m, k, n, rates.linear, mem, eb, sms, out_bytes, best, tile)


def expert_seconds(spec: ModelSpec, tokens: float, tp: int, ep: int, rates: Rates, streams: int,
                   wgrad_out_bytes: float, expert_rate: float = 1.0) -> tuple[float, float, float]:
    """(forward, input-gradient, weight-gradient) seconds of a layer's routed experts on one rank, per kernel:
    fc1 (hidden -> gate and up) and fc2 (-> hidden) on the tokens x top_k x EP / experts rows each local expert
    receives; the backward's dgrad multiplies the output gradient by the weight (k and n swap), its wgrad the
    input by the output gradient over the expert's rows (k = rows), its output the whole weight gradient, added
    into main_grad in place where the framework fuses the accumulation (wgrad_out_bytes: read + write bytes per
    element). expert_rate: the share of the linears' rate the framework's grouped kernel reaches
    (grouped_mm_rate.py; 1: the dense rate)."""
    if expert_rate != 1.0:
        rates = rates._replace(linear=rates.linear * expert_rate)
    local = max(spec.n_experts // ep, 1)
    rows = tokens * spec.top_k * ep / spec.n_experts
    width = spec.expert_ffn / tp
    fwd = dgrad = wgrad = 0.0
    fc1 = spec.fc1_factor * width  # gate and up; a plain expert (Nemotron-H, squared ReLU): up only
    for k, n in ((spec.hidden, fc1), (width, spec.hidden)):  # fc1, fc2
        fwd += expert_gemm_seconds(local, rows, k, n, rates, streams)
        dgrad += expert_gemm_seconds(local, rows, n, k, rates, streams)
        wgrad += expert_gemm_seconds(local, k, rows, n, rates, streams, wgrad_out_bytes)
    return fwd, dgrad, wgrad


@lru_cache(maxsize=1024)
def permutation_bytes(spec: ModelSpec, ep: int, permutation: str, dispatcher: str, ep_domains: int,
                      elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes per token that the MoE dispatcher's permutation kernels read and write, kernel by
    kernel (presets/efficiency.json moe_token_permutation: megatron, transformers): rows of hidden width counted per
    token, per routed copy (top_k), per EP rank receiving the token and, where the group spans NVLink domains, per
    staging copy; transformers' experts also mask their gate-and-up output (rows of 2 x expert_ffn per copy).
    A copy's backward is a copy of the same rows (permute and unpermute swap), so no backward factor applies.
    "sequential": Megatron-Core's allgather dispatcher and SequentialMLP, kernel by kernel (sequential_experts.py)."""
    if permutation == SEQUENTIAL:
        return sequential_loop_bytes(spec, ep, elem_bytes)
    table = efficiency()["moe_token_permutation"][permutation]
    k = spec.top_k
    if ep > 1 and dispatcher == "flex":
        name = "flex"
    elif ep > 1:
        name = "alltoall" if spec.n_experts > ep else "alltoall_one_local_expert"
    else:
        name = "no_expert_parallel"
    entry = table.get(name, table["no_expert_parallel"])  # transformers' experts run the same kernels on each rank
    miss = experts_missed(spec, ep)  # the chance that none of a token's top_k experts sits on a given rank
    counts = {"tokens": 1.0, "copies": float(k), "ranks": ep * (1.0 - miss), "staging": 1.0 if ep_domains > 1 else 0.0,
              "gate_up_copies": k * 2.0 * spec.expert_ffn / spec.hidden}  # rows of the fused gate-and-up width
    row = spec.hidden * elem_bytes
    return tuple(sum(n * counts[what] for what, n in entry[way].items()) * row for way in ("forward", "backward"))


def fp8_padding_bytes(spec: ModelSpec, elem_bytes: int) -> float:
    """Bytes per token, forward (the backward moves the same), of Megatron-Core's fp8 padding around the experts
    where the dispatcher hands them unaligned rows: TEGroupedMLP.forward pads each local expert's rows to the fp8
    GEMM alignment (Transformer Engine's Fp8Padding: every routed copy read and written into the padded buffer) and
    Fp8Unpadding copies the fc2 output back (read and written); the backward runs the same copies on the gradients.
    Megatron-LM megatron/core/transformer/moe/experts.py at 2edffadb (the commit Megatron-Bridge v0.4.2 pins):
    quantization_padding / quantization_unpadding whenever config.fp8, a no-op where HybridEP or DeepEP already padded
    the rows (Transformer Engine fp8_padding.py at v2.14 returns its input when m_splits == padded_m_splits); at
    d98e8a64 the call is skipped there (skip_routed_expert_padding: 'Regular AllToAll normally reaches this branch').
    With random or learned routing an expert's count is almost never a multiple of 16 (32 for MXFP8), so the copies
    run; the few padding rows are left out."""
    return 2 * 2 * spec.top_k * spec.hidden * elem_bytes
