"""Seconds of one Mamba-2 block's conv1d and SSD scan (a Nemotron-H / Nemotron 3 'M' block) for one micro-batch on
one rank.

The step model times a Mamba block through costs.layer_cost: its in_proj and out_proj are the block's linears
(hybrid_blocks.block_linears) through the same GEMM loop as any layer's, and its scan is mamba_scan_core here
(block_mixer.mixer_core). tests/test_mamba_block_time.py checks the whole block by hand.

- in_proj (Transformer Engine LayerNormColumnParallelLinear, hidden -> 2 d_inner + 2 G N + H split over TP) and
  out_proj (TERowParallelLinear, d_inner / TP -> hidden) through the GEMM model (gemm.py gemm_seconds at the linears'
  rate, aligned_rate for the rows' alignment), as costs.layer_cost times a layer's linears: forward, and the backward
  as its input-gradient and weight-gradient GEMMs, each the forward's time at the rank's shapes (costs.layer_cost's
  rule for dense linears); Megatron-Core's hybrid spec at NVIDIA/Megatron-LM d98e8a64 megatron/core/models/hybrid/
  hybrid_layer_specs.py lines 110-117.
- the SSD scan and the causal conv1d (mamba_ssm's mamba_split_conv1d_scan_combined): FLOPs from ssd_scan.py
  (arXiv:2405.21060 section 6), forward bytes from ssd_scan.scan_forward_bytes_per_token. No measured rate of the SSD
  Triton kernels was found in text, so the scan is a roofline (ASSUMPTION, stated, as for the gated DeltaNet kernels
  in gated_delta.py): its FLOPs at the GPU's achieved GEMM rate (rates.gemm) or its bytes at the element-wise rate
  (rates.memory), whichever is longer. Backward bytes are counted as the conv recomputed (read and write its
  channels), the scan's backward reading what the forward read and writing a gradient of each (twice the forward's
  scan bytes) and the conv's backward (read x and dy, write dx): a count of the tensors each step moves, not traced.
"""

from __future__ import annotations

from ..models.mamba2 import Mamba2Mixer
from .gemm import Rates
from .ssd_scan import scan_forward_bytes_per_token, ssd_backward_flops_per_token, ssd_forward_flops_per_token


def mamba_scan_core(mixer: Mamba2Mixer, tokens: float, tp: int, rates: Rates) -> tuple[float, float, float]:
    """(forward FLOPs, forward seconds, backward seconds) of the block's conv1d and SSD scan on one of `tp` ranks
    (heads and groups split over TP: mamba_mixer.py lines 262-271, which Mamba2Mixer.check_tp enforces)."""
    mixer.check_tp(tp)
    mem, eb = rates.memory, rates.elem_bytes
    fwd_flops = ssd_forward_flops_per_token(mixer) * tokens / tp
    bwd_flops = ssd_backward_flops_per_token(mixer) * tokens / tp
    conv = mixer.conv_dim * eb
    forward_per_token = scan_forward_bytes_per_token(mixer, eb)
    fwd_bytes = forward_per_token * tokens / tp
    scan_only = forward_per_token - 2 * conv  # the forward's scan bytes, the conv's apart
    bwd_bytes = (2 * conv + 2 * scan_only + 3 * conv) * tokens / tp
    return fwd_flops, max(fwd_flops / rates.gemm, fwd_bytes / mem), max(bwd_flops / rates.gemm, bwd_bytes / mem)
