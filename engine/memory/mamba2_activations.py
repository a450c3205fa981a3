"""What a Mamba-2 block keeps for its backward pass, per token, as Megatron-Core trains it.

Megatron-Core's hybrid stack builds the mixer with in_proj a TELayerNormColumnParallelLinear (the block's input norm
fused in) and out_proj a TERowParallelLinear (megatron/core/models/hybrid/hybrid_layer_specs.py at NVIDIA/Megatron-LM
d98e8a64, lines 110-117), and trains through mamba_ssm's mamba_split_conv1d_scan_combined (megatron/core/ssm/
mamba_mixer.py _ssm_training, lines 679-735), then the gated RMSNorm (self.norm) and out_proj. What each keeps:

- in_proj (Transformer Engine LayerNormLinear): the norm's input and output (hidden wide) and the norm's rstd (fp32,
  one per token);
- MambaSplitConv1dScanCombinedFn (state-spaces/mamba, stored version 01b717ae, mamba_ssm/ops/triton/
  ssd_combined.py, forward's ctx.save_for_backward): zxbcdt, in_proj's whole output (2 d_inner + 2 G N + H), and
  out_x, the scan's output before the z gate (d_inner). The conv1d output, dt and the chunk states are not kept: the
  backward recomputes them. Megatron passes no rmsnorm_weight, so the kernel saves no rstd of its own;
- the gated RMSNorm (mamba_ssm/ops/triton/layernorm_gated.py LayerNormFn: x, weight, bias, mean, rstd, z): its input
  (d_inner) and rstd (fp32, one per token and group); z is None here (the gate was applied inside the kernel);
- out_proj: its input, the norm's output (d_inner).

Tensor parallelism splits heads and groups (mamba_mixer.py lines 262-271), so every d_inner-, G- and H-wide tensor is
1/tp on a rank; with sequence parallelism the hidden-wide tensors and the norm's rstd are 1/tp as well.
"""

from __future__ import annotations

from ..models.mamba2 import Mamba2Mixer

FP32_BYTES = 4


def mamba_block_saved_terms(mixer: Mamba2Mixer, tp: int = 1, sequence_parallel: bool = False,
                            element_bytes: int = 2) -> dict[str, float]:
    """Bytes one token leaves saved in one Mamba-2 block until the backward, per tensor (one rank's share)."""
    mixer.check_tp(tp)
    h = mixer.hidden / (tp if sequence_parallel else 1)
    row = 1.0 / (tp if sequence_parallel else 1)
    d_inner = mixer.d_inner / tp
    return {
        "in_proj norm input": h * element_bytes,
        "in_proj norm output": h * element_bytes,
        "in_proj norm rstd": row * FP32_BYTES,
        "zxbcdt": mixer.in_proj_width / tp * element_bytes,
        "scan output before the gate (out_x)": d_inner * element_bytes,
        "gated norm input": d_inner * element_bytes,
        "gated norm rstd": mixer.groups / tp * FP32_BYTES,
        "out_proj input": d_inner * element_bytes,
    }
