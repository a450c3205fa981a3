"""LoRA over a quantised release: frozen base weights kept in the checkpoint's own storage (scenario key
`base_storage`), MXFP4 experts (gpt-oss) or block-scaled FP8 (DeepSeek-V3/R1, Kimi-K2).

Bytes per stored value:
- MXFP4, OCP Microscaling Formats (MX) Specification v1.0 (Open Compute Project, 2023), section 5 and table 1:
  FP4 E2M1 elements (4 bits) in blocks of 32 sharing one E8M0 scale (8 bits): (32 x 4 + 8) / 32 = 4.25 bits. gpt-oss
  stores exactly that: `*_blocks` (uint8, two values per byte) and `*_scales` (uint8, one per 32 values) per expert
  matrix; attention, router, embeddings and lm_head stay bf16 (its quantization_config's modules_to_not_convert).
- FP8 E4M3 (1 byte) with one fp32 `weight_scale_inv` per 128 x 128 block (`weight_block_size: [128, 128]` in the
  quantization_config of DeepSeek-V3/R1 and Kimi-K2; DeepSeek-V3 technical report, section 3.3): 1 + 4/16384 bytes.
  Every decoder linear weight is FP8 except the MoE router; embeddings, lm_head and norms stay bf16.
The matmul kernels read these formats directly, so no dequantised copy of a whole layer is counted.
"""

from __future__ import annotations

from typing import Any

# (Scenario and ModelSpec are typed Any: engine.scenario imports this module for its choices.)

BASE_STORAGES = ("compute", "released", "mxfp4", "fp8")
MXFP4_BLOCK_VALUES = 32
MXFP4_BYTES_PER_VALUE = (4 * MXFP4_BLOCK_VALUES + 8) / MXFP4_BLOCK_VALUES / 8  # 4.25 bits = 0.53125 bytes
FP8_BLOCK_VALUES = 128 * 128
FP8_BYTES_PER_VALUE = 1 + 4 / FP8_BLOCK_VALUES
BASE_STORAGE_MEANING = (
    " | ".join(BASE_STORAGES) + " (lora: how the frozen base weights are stored. compute: in the weight dtype; "
    "released: as the checkpoint ships them, MXFP4 experts for gpt-oss (4.25 bits per value) and block-scaled FP8 for "
    "DeepSeek-V3/R1 and Kimi-K2 (1 byte + an fp32 scale per 128x128 block), 16-bit checkpoints unchanged; "
    "mxfp4 / fp8: that storage whatever the release says, mxfp4 on the routed experts of a mixture-of-experts model)"
)


def storage_format(s: Any, spec: Any) -> str:
    """"mxfp4", "fp8" or "" (frozen weights in the weight dtype). Only LoRA keeps a frozen released base."""
    if s.method != "lora" or s.base_storage == "compute":
        return ""
    if s.base_storage == "released":
        if spec.released_quant.startswith("mxfp4"):
            return "mxfp4"
        return "fp8" if spec.released_quant == "fp8" else ""
    return s.base_storage


def bytes_per_value(fmt: str) -> float:
    return MXFP4_BYTES_PER_VALUE if fmt == "mxfp4" else FP8_BYTES_PER_VALUE


def stored_values(spec: Any, moe: bool, linear_attn: bool, fmt: str, block: str = "") -> tuple[float, float]:
    """(dense, expert) weight-matrix values of one layer kept in `fmt` (biases, norms and the router stay 16-bit).

    MXFP4 on a mixture-of-experts model: the routed experts only (the gpt-oss release); on a dense model every linear
    weight. FP8: every linear weight and the experts.
    """
    matrices = spec.expert_matrices  # gate, up, down; a plain expert (Nemotron-H): up, down
    experts = float(spec.n_experts * matrices * spec.hidden * spec.expert_ffn) if moe else 0.0
    linears = spec.layer_linears(moe, linear_attn, block)
    dense = float(sum(lin.d_in * lin.d_out for lin in linears if lin.group != "router"))
    if fmt == "mxfp4" and spec.n_experts:
        return 0.0, experts
    return dense, experts
