"""How much longer a GEMM runs when userbuffers splits it into chunks to overlap a collective beside it, and while the
collective's copies share its HBM.

Transformer Engine's overlapped linears do not run one GEMM: split_overlap_ag (ring exchange, the QKV / fc1 forward
and the proj / fc2 output-gradient dgrad) runs tp GEMMs, one per received chunk of tokens / tp rows, each against the
whole weight; split_overlap_rs (pipeline, the proj / fc2 forward) runs num_splits of them (NVIDIA/TransformerEngine
transformer_engine/common/comm_gemm_overlap/comm_gemm_overlap.cpp at d0067d0: the loops over _tp_size and _num_splits
calling nvte_cublas_gemm on input_a_chunk / output_chunk). Each chunk is a GEMM of its own and reads the whole weight
again (gemm.py's roofline: compute, or the operands' traffic over HBM). Its waves are not counted: cuBLAS picks each
chunk's tile by its own heuristics, which the one tile of gemm_waves (128 x 256) does not follow, and at chunk size
that tile's wave count swings the ratio from 0.91 to 1.78 with the shape (Nemotron-4 340B's fc1 at TP 8 on H100: 144
tiles a chunk, two waves of 132 SMs, one of 152 on GB200); tried with the waves, all rows' median went 6.70% -> 6.97%
and H100 bf16's signed -4.2% -> -5.9%, GB200 bf16 unchanged. The chunks beside a hop run while the copy engines move
that hop (use_ce True in initialize_ub's default config, module/base.py get_default_config): a copy reads each byte
from the sender's HBM and writes it into the receiver's, and every rank of the ring sends and receives at once, so 2
bytes of HBM per byte on the link (NVIDIA/nccl issue #1428, sjeaugey: 'needs to be multiplied by at least 2x for
memory bandwidth'), taken from the bandwidth the chunk streams its operands at. The chunk GEMMs' seconds over the
whole GEMM's, as the model times it, is the stretch tp_overlap.py charges to the GEMM beside each ring-exchange and
pipeline collective.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.layer_shapes import Linear
from .gemm import Rates, gemm_seconds

CE_HBM_BYTES_PER_LINK_BYTE = 2.0  # a copy engine's read at the sender and write at the receiver (docstring)
MIN_HBM_LEFT = 0.1  # of the HBM bandwidth a chunk keeps whatever the link moves (a guard: links are far slower)


def _chunked(m: float, k: float, n: float, chunks: int, contended: int, rates: Rates, operand_bytes: int,
             hbm_left: float, best_k: float) -> float:
    """Seconds of `chunks` GEMMs of m / chunks rows, `contended` of them beside a copy that leaves `hbm_left` of the
    HBM bandwidth."""
    rows = m / chunks  # roofline only: no waves (module docstring)
    alone = gemm_seconds(rows, k, n, rates.linear, rates.memory, operand_bytes, 0, best_k)
    beside = gemm_seconds(rows, k, n, rates.linear, rates.memory * hbm_left, operand_bytes, 0, best_k)
    return (chunks - contended) * alone + contended * beside


def tp_linear_part(lin: Linear) -> str:
    """Which of a layer's tensor-parallel GEMMs a linear is: qkv and fc1 (column-parallel, after an all-gather),
    proj and fc2 (row-parallel, before a reduce-scatter), or other (the router, replicated)."""
    mlp = lin.group in ("mlp", "shared")
    if lin.group == "router":
        return "other"
    if lin.row_parallel:
        return "fc2" if mlp else "proj"
    return "fc1" if mlp else "qkv"


@lru_cache(maxsize=512)
def ub_stretch(spec: ModelSpec, moe: bool, tp: int, tokens: float, rates: Rates, operand_bytes: int,
               link_bytes_per_s: float, splits: int, linear_attn: bool = False,
               block: str = "") -> tuple[float, float, float, float, float, float]:
    """Chunked over whole GEMM seconds of the forward's QKV, proj, fc1 and fc2 (QKV and fc1 in tp chunks by ring
    exchange, proj and fc2 in `splits` by the pipeline), then of the proj and fc2 dgrad GEMMs beside their
    output-gradient ring exchange (tp chunks): tp_overlap.TpLayer.stretch's order. tokens: rows of the gathered
    GEMM; operand_bytes: 1 in fp8; linear_attn, block: the layer kind whose own linears are chunked."""
    hbm_left = max(MIN_HBM_LEFT, 1.0 - CE_HBM_BYTES_PER_LINK_BYTE * link_bytes_per_s / rates.memory)
    best_k = rates.epilogue_k[1]
    sums = {key: [0.0, 0.0] for key in ("qkv", "proj", "fc1", "fc2", "proj_d", "fc2_d")}
    for lin in spec.layer_linears(moe, linear_attn, block):
        part = tp_linear_part(lin)
        if part == "other" or (moe and lin.group == "mlp"):
            continue
        d_in, d_out = lin.split(tp)
        whole = gemm_seconds(tokens, d_in, d_out, rates.linear, rates.memory, operand_bytes, 0, best_k)
        if lin.row_parallel:  # pipeline reduce-scatter forward (splits chunks, all but the last beside a copy)
            fwd = _chunked(tokens, d_in, d_out, splits, splits - 1, rates, operand_bytes, hbm_left, best_k)
            d_whole = gemm_seconds(tokens, d_out, d_in, rates.linear, rates.memory, operand_bytes, 0, best_k)
            dgrad = _chunked(tokens, d_out, d_in, tp, tp - 1, rates, operand_bytes, hbm_left, best_k)
            for key, num, den in ((part, fwd, whole), (part + "_d", dgrad, d_whole)):
                sums[key][0] += num
                sums[key][1] += den
        else:  # ring-exchange all-gather forward: tp chunks, the first local, each of the others after its hop
            sums[part][0] += _chunked(tokens, d_in, d_out, tp, tp - 1, rates, operand_bytes, hbm_left, best_k)
            sums[part][1] += whole
    ratio = {key: (num / den if den > 0 else 1.0) for key, (num, den) in sums.items()}
    return ratio["qkv"], ratio["proj"], ratio["fc1"], ratio["fc2"], ratio["proj_d"], ratio["fc2_d"]
