"""llama.cpp's gated DeltaNet layers at one token: the kernels a June-2026 llama-server runs on CUDA in the
attention's place, which the estimate's fixed time (kernel_fixed_time.gguf_decode_fixed_seconds, counted in a dense
layer of the January-2024 graph) does not hold, and what the measured single-stream rows would read had they been
counted. A diagnostic: nothing here changes an estimate (h-servehost did not take it, docs/serving-model.md: the
serving figures got worse).

Counted in ggml-org/llama.cpp's graph of Qwen3.5's linear-attention layer at one token: src/models/qwen35.cpp
build_layer_attn_linear (@06e514f6) with src/models/delta-net-base.cpp build_conv_state, build_recurrent_attn and
build_delta_net (@156ce1c1), the fused GGML_OP_GATED_DELTA_NET that llama-context.cpp turns on by default
(cparams.fused_gdn_ar = true; the CUDA op from PR #19504, merged 2026-02-11; ggml-cuda/gated_delta_net.cu @0196e69c,
one warp a state column). Weight mat-vecs: in_proj_qkv, the gate z, beta, alpha and out_proj (5, where the counted
attention has wq, wk, wv, wo: 4); small kernels: the input norm (rms_norm, mul), sigmoid of beta, alpha + dt_bias,
softplus, x A, the conv state's get_rows, concat and copy back, the recurrent state's get_rows, ssm_conv, SiLU,
l2_norm of q and of k, the new state's copy back, the gated norm (rms_norm, mul, SiLU of z, mul) and the residual add
(20, where the counted attention has 9: its norm (2), 2 rope, 2 cache copies, soft_max, the heads' cont and the
residual add, and 2 mat-vecs over the cache); build_rs's zero-fill and extra-state copy are empty views at one
sequence, which ggml-cuda skips. Each is priced at kernel_fixed_time's t0 (a quantized mat-vec's input quantization
to q8_1 too), the delta-rule kernel at about 3 us: NVIDIA's ORippler, who rewrote it (PR #20391), measured the
kernel at around 3 us with Nsight Compute in review of PR #22587 (2026-05-03), and gave the delta net 2-3% of a
token's time; that PR's own microbenchmark, 28.3 us at Qwen3.5-9B's shape on an RTX 5090, holds its copies as well.
Builds before the fused op ran build_delta_net_autoregressive's decomposed graph, 12 nodes more a layer (PR #20091's
count); the fusions later CUDA builds apply to any layer (rms_norm + mul, ...) are not counted, as for the dense
layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..scenario import resolve_model, scenario_from_dict
from ..serving.cublas_scratch import gguf_weights_quantized
from ..serving.kernel_fixed_time import GEMM_FIXED_SECONDS, GGUF_CACHE_MATVECS_PER_LAYER, SMALL_KERNEL_FIXED_SECONDS
from .gguf_decode_rate import GGUF_ROW_ENGINES
from .serving_speed import estimate_row

ATTENTION_MATVECS, ATTENTION_SMALL = 4, 9  # the counted attention part of a layer (module docstring)
DELTANET_MATVECS, DELTANET_SMALL = 5, 20  # a gated DeltaNet layer's (module docstring)
DELTA_RULE_KERNEL_SECONDS = 3.0e-6  # Nsight Compute's ~3 us for GATED_DELTA_NET at one token (PR #22587 review)


def deltanet_extra_seconds(quantized: bool) -> float:
    """Fixed GPU seconds a gated DeltaNet layer takes at one token beyond the counted attention layer's: one more
    weight mat-vec (and its q8_1 quantization for a quantized type), no mat-vecs over a cache, 11 more small kernels
    and the delta-rule kernel."""
    matvecs = DELTANET_MATVECS - ATTENTION_MATVECS
    small = DELTANET_SMALL - ATTENTION_SMALL - GGUF_CACHE_MATVECS_PER_LAYER + (matvecs if quantized else 0)
    return matvecs * GEMM_FIXED_SECONDS + small * SMALL_KERNEL_FIXED_SECONDS + DELTA_RULE_KERNEL_SECONDS


@dataclass(frozen=True, slots=True)
class DeltaNetRow:
    id: str
    gpu: str
    linear_layers: int
    extra_seconds: float  # the DeltaNet layers' uncounted kernel time a token
    measured_tokens_per_second: float
    estimated_tokens_per_second: float
    with_kernels_tokens_per_second: float  # 1 / (1 / estimated + extra_seconds)

    @property
    def error(self) -> float:
        return self.estimated_tokens_per_second / self.measured_tokens_per_second - 1

    @property
    def error_with_kernels(self) -> float:
        return self.with_kernels_tokens_per_second / self.measured_tokens_per_second - 1


def deltanet_rows(rows: list[dict[str, Any]]) -> list[DeltaNetRow]:
    """The single-stream llama.cpp / ollama decode rows of a model with gated DeltaNet layers."""
    out = []
    for row in rows:
        measured, work = row.get("measured", {}).get("tokens_per_second"), row.get("workload", {})
        if (row.get("engine") not in GGUF_ROW_ENGINES or not measured or work.get("concurrency") != 1
                or work.get("rate_over", "decode") != "decode"):
            continue
        s = scenario_from_dict(row["scenario"])
        layers = resolve_model(s).linear_layers
        if not layers:
            continue
        extra = layers * deltanet_extra_seconds(gguf_weights_quantized(s.weight_format))
        estimated = estimate_row(row)["tokens_per_second"]
        out.append(DeltaNetRow(id=row["id"], gpu=str(s.gpu), linear_layers=layers, extra_seconds=extra,
                               measured_tokens_per_second=measured, estimated_tokens_per_second=estimated,
                               with_kernels_tokens_per_second=1 / (1 / estimated + extra)))
    return out


__all__ = ["DELTA_RULE_KERNEL_SECONDS", "DeltaNetRow", "deltanet_extra_seconds", "deltanet_rows"]
