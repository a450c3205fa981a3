"""The SSD chunked scan's work per token in a Mamba-2 block: its FLOPs and bytes (the block's GEMMs are its linears,
engine/models/hybrid_blocks.py block_linears, timed with any layer's; Megatron-Bridge's FLOP count for MFU is
hybrid_flops.py).

SSD (arXiv:2405.21060 section 6, the four steps of its chunked algorithm, 'ssd_minimal_discrete' in Listing 1), with
chunk length Q, state N, head width P, H heads and G groups of B and C, per token:
1. the diagonal blocks: C B^T inside a chunk (Q dot products of length N, once per group: 2 Q N G) and that masked
   matrix times X (2 Q P per head);
2. the chunk states B^T X (2 N P per head);
3. the states passed from chunk to chunk (N P per head per chunk: 1/Q of step 2, left out);
4. the states' contribution to the outputs, C times the state (2 N P per head).
The Triton kernels compute whole Q x Q blocks (mamba_ssm/ops/triton/ssd_bmm.py _bmm_chunk_fwd), so the causal
half of step 1 is counted too. The backward differentiates each product twice and first recomputes C B^T and the
chunk states (ssd_combined.py _mamba_chunk_scan_combined_bwd, state-spaces/mamba stored version 01b717ae), so it is
counted as twice the forward plus those two recomputed steps. No measured SSD kernel rate was found in a text that states one
(the Mamba-2 paper's SSD against FlashAttention-2 comparison is a plot), so nothing here turns FLOPs into seconds.
"""

from __future__ import annotations

from ..models.mamba2 import Mamba2Mixer


def ssd_forward_flops_per_token(mixer: Mamba2Mixer) -> float:
    """FLOPs of the SSD scan's forward for one token of one Mamba-2 block (whole model width, before TP)."""
    q, n, p, g, h = mixer.chunk, mixer.state, mixer.head_dim, mixer.groups, mixer.heads
    return 2.0 * q * n * g + 2.0 * q * p * h + 4.0 * n * p * h


def ssd_backward_flops_per_token(mixer: Mamba2Mixer) -> float:
    """The scan's backward: each product's two gradients, and C B^T and the chunk states recomputed first."""
    q, n, p, g, h = mixer.chunk, mixer.state, mixer.head_dim, mixer.groups, mixer.heads
    return 2.0 * ssd_forward_flops_per_token(mixer) + 2.0 * q * n * g + 2.0 * n * p * h


def scan_forward_bytes_per_token(mixer: Mamba2Mixer, element_bytes: int = 2) -> float:
    """Memory traffic of the forward's element-wise kernels per token: the causal conv1d reads and writes x, B, C
    (mamba_split_conv1d_scan_combined runs causal_conv1d_fwd first); the scan reads x, B, C, dt and z and writes the
    gated output and out_x; the chunk states (fp32, N P per head per chunk) are written and read once."""
    conv = 2 * mixer.conv_dim * element_bytes
    scan = (mixer.conv_dim + mixer.heads + mixer.d_inner + 2 * mixer.d_inner) * element_bytes
    states = 2 * 4 * mixer.state * mixer.head_dim * mixer.heads / mixer.chunk
    return float(conv + scan + states)
