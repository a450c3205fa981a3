"""The streaming rates of eager (unfused) PyTorch ops, on the GPUs where they were measured.

Some of a layer's element-wise work runs as a chain of small ATen kernels that stream below the rate the element-wise
kernels are given (memory_bandwidth_fraction, a stream figure): PyTorch's unfused RMSNorm (x.float(), pow, mean, x *
rsqrt, the cast back, the weight's product, and their autograd backward; two row reductions among them) and
transformers' rotary embedding (q * cos + rotate_half(q) * sin: a negation, a concatenation, two products and a sum
per tensor, and a backward of zero-filled slice gradients and their sums), and the SwiGLU activation F.silu(gate) * up
(its two kernels and their three backward kernels), in a dense MLP or over an MoE layer's routed experts. A framework
profile that runs such an op says so (presets/efficiency.json frameworks, EAGER_OPS' flag); its row of
elementwise_bytes_per_token states which of its bytes are that op (EAGER_OPS' part keys, per unit of the width the row
counts them over). Those bytes are then counted 1 / rate times, the rate being the fraction of peak bandwidth measured
for the op on this GPU (its ..._fraction_of_peak table, by elements per call) over this GPU's element-wise fraction
(at most 1). A GPU without a measurement keeps the element-wise rate; a compiled or Liger run takes the fused or liger
row, which states no part. The sources are in presets/efficiency.json beside the figures.
"""

from __future__ import annotations

import math
from typing import Any

from ..models.architecture import ModelSpec
from .data import efficiency
from .gemm import Rates

RMS_STYLES = ("llama", "gemma", "fp32")  # ModelSpec.norm_style of an RMSNorm (a LayerNorm is one ATen kernel)
# op: (the framework profile's flag, the table of measured fractions of peak bandwidth)
EAGER_OPS = {"rms_norm": ("eager_rms_norm", "eager_rms_norm_fraction_of_peak"),
             "rope": ("eager_rope", "eager_rope_fraction_of_peak"),
             "swiglu": ("eager_swiglu", "eager_swiglu_fraction_of_peak"),
             "expert_swiglu": ("eager_expert_swiglu", "eager_swiglu_fraction_of_peak")}

Table = tuple[tuple[float, float], ...]


def eager_op_table(prof: dict[str, Any], gpu_id: str, op: str) -> Table:
    """The (elements per call, fraction of peak bandwidth) points measured for an eager op on this GPU, where the
    framework profile runs it (EAGER_OPS); () where it does not or the GPU has no measurement (the element-wise
    rate)."""
    flag, table = EAGER_OPS[op]
    if not prof.get(flag) or not gpu_id:
        return ()
    points = efficiency()[table]["_gpu"].get(gpu_id, ())
    return tuple(sorted((float(e), float(f)) for e, f in points))


def eager_op_tables(prof: dict[str, Any], gpu_id: str) -> tuple[tuple[str, Table], ...]:
    """(op, table) for each eager op the profile runs that was measured on this GPU (Rates.eager_ops)."""
    tables = ((op, eager_op_table(prof, gpu_id, op)) for op in EAGER_OPS)
    return tuple((op, table) for op, table in tables if table)


def eager_op_rate(table: Table, elements: float, stream_fraction: float) -> float:
    """The eager op's rate over the element-wise kernels' rate for one call over `elements` values, interpolated in
    log2(elements) between the measured points and held at the ends; 1 where there are none."""
    if not table or stream_fraction <= 0.0 or elements <= 0.0:
        return 1.0
    x = math.log2(elements)
    if x <= math.log2(table[0][0]):
        fraction = table[0][1]
    elif x >= math.log2(table[-1][0]):
        fraction = table[-1][1]
    else:
        fraction = table[-1][1]
        for (e0, f0), (e1, f1) in zip(table, table[1:], strict=False):
            x0, x1 = math.log2(e0), math.log2(e1)
            if x0 <= x <= x1:
                fraction = f0 + (f1 - f0) * (x - x0) / (x1 - x0)
                break
    return min(1.0, fraction / stream_fraction)


def rotated_share(spec: ModelSpec, per: dict[str, Any]) -> float:
    """The share of each query and key head the row's rotary ops run over: rotary_fraction where the row counts a
    partial-rotary model's slice and concatenation (qk_pass: transformers' PhiAttention / GPTNeoXAttention rotate the
    leading rot_dim channels and torch.cat the rest back on, huggingface/transformers at 5dd4a635), else 1 (a row
    whose rotary code rotates, or copies, whole heads)."""
    return spec.rotary_fraction if spec.rope and "qk_pass" in per and spec.rotary_fraction < 1.0 else 1.0


def _parts(per: dict[str, Any], spec: ModelSpec, moe: bool, tp: int, sp: bool) -> dict[str, tuple[float, float]]:
    """op: (forward bytes per token the row counts for it, elements per token of one call) on this rank. The norms:
    hidden_norm per unit of the hidden state they see (1/tp of it under sequence parallelism), an RMSNorm only. The
    rotary embedding, where the model has one: qk_rope per unit of the q and k widths (inside qk); one call rotates
    q and k (their widths / tp), a partial-rotary model's rotated share of them (rotated_share: the measured op is
    apply_rotary_pos_emb on q_rot and k_rot; the concatenation after it keeps the element-wise rate).
    The SwiGLU activation of a dense gated MLP: mlp_swiglu per unit of its width / tp, one call over all of it. An
    MoE layer's routed experts: expert_swiglu per unit of top_k x expert width / tp, one call over all the routed
    copies (transformers' grouped experts gate every sorted token-expert pair at once); its shared experts keep the
    element-wise rate."""
    units = spec.hidden / tp if sp else spec.hidden
    qk = (spec.q_dim + spec.kv_dim) / tp * rotated_share(spec, per)
    norm = float(per.get("hidden_norm", 0.0)) * units if spec.norm_style in RMS_STYLES else 0.0
    rope = float(per.get("qk_rope", 0.0)) * qk if spec.rope else 0.0
    width = spec.ffn / tp
    swiglu = float(per.get("mlp_swiglu", 0.0)) * width if spec.mlp_gated and not moe else 0.0
    routed = spec.top_k * spec.expert_ffn / tp
    experts = float(per.get("expert_swiglu", 0.0)) * routed if moe else 0.0
    return {"rms_norm": (norm, units), "rope": (rope, qk), "swiglu": (swiglu, width), "expert_swiglu": (experts, routed)}


def eager_ops_extra_bytes(per: dict[str, Any], spec: ModelSpec, moe: bool, tp: int, sp: bool, tokens: float,
                          rates: Rates) -> float:
    """Bytes per token to add to the layer's element-wise forward bytes so that the bytes of its measured eager ops
    take their measured time: op bytes x (1 / rate - 1), the rate at tokens x the op's elements per token. The
    backward scales it with the profile's backward_factor, as the measured rates are of the forward and backward
    together. The GPU's element-wise fraction is rates.memory_fraction (the generic one where it states none); the
    measured points are rates.eager_ops (eager_op_tables)."""
    if not rates.eager_ops:
        return 0.0
    stream = rates.memory_fraction or efficiency()["memory_bandwidth_fraction"]["value"]
    parts = _parts(per, spec, moe, tp, sp)
    extra = 0.0
    for op, table in rates.eager_ops:
        op_bytes, elements = parts[op]
        if op_bytes > 0.0:
            extra += op_bytes * (1.0 / eager_op_rate(table, tokens * elements, stream) - 1.0)
    return extra
