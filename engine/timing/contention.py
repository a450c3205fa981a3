"""What hidden communication still costs the compute it hides behind: NCCL's kernels hold streaming
multiprocessors while they run, and the GEMMs and attention that overlap them run on the SMs left.

NCCL runs one CTA per channel and a CTA holds its SM whole ("NCCL CTAs won't share an SM with compute kernels",
NVIDIA/nccl issue #689, sjeaugey, 2023-08; "on DGX with 8 NICs ... it would use 16 SMs", same thread). A
collective that hides for `hidden` seconds behind compute on S SMs leaves that compute S - k SMs, so the work
k / S x hidden is done after it, at full width: the step grows by hidden x k / S (figures in
presets/efficiency.json nccl_sms)."""

from __future__ import annotations

from .data import efficiency
from .hardware import Hardware
from .links import exposed


def nccl_sm_share(hw: Hardware) -> float:
    """Share of the GPU's SMs a running NCCL collective holds: NCCL's CTAs / SMs (0 where either is not known)."""
    table = efficiency()["nccl_sms"]
    ctas = table["ctas"].get(hw.arch, 0)
    sms = efficiency()["gemm_waves"]["sms"].get(hw.gpu_id or "", 0)
    return ctas / sms if ctas and sms else 0.0


def contended(comm: float, window: float, overlap: float, sm_share: float) -> float:
    """Seconds a collective adds to the step: what the compute window does not hide (links.exposed), plus the
    compute the hidden part displaces from the SMs NCCL holds while it runs (hidden x sm_share)."""
    left = exposed(comm, window, overlap)
    return left + (comm - left) * sm_share
