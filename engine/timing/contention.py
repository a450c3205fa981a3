"""What hidden communication still costs the compute it hides behind. NCCL's kernels hold streaming
multiprocessors while they run, so the GEMMs and attention beside them run on the SMs left; and they move every
byte through HBM more than once, so the memory-bound kernels beside them stream at the bandwidth left.

NCCL runs one CTA per channel and a CTA holds its SM whole ("NCCL CTAs won't share an SM with compute kernels",
NVIDIA/nccl issue #689, sjeaugey; "on DGX with 8 NICs ... it would use 16 SMs", same thread). Its traffic costs
"at least 2x" its link bytes in memory bandwidth, 3x with the user buffers (NVIDIA/nccl issue #1428, sjeaugey).
A collective hidden for `hidden` seconds behind a window whose share m is memory-bound displaces
(1 - m) x k / S of the compute-bound work (k of S SMs held) and m x min(1, 3 x link / HBM) of the memory-bound
work; that work runs after it, at full width (figures in presets/efficiency.json nccl_contention).

Where the GEMMs are persistent kernels with a static tile schedule (Hopper: sm_residency.py), a GEMM beside the
collective does not run on the SMs left: its CTAs beyond them run as a second wave of the GEMM's own length once its
first wave frees the SMs (an H100 cuBLAS GEMM of 132 CTAs beside a 24-CTA ncclAllGather takes nearly twice as long,
its tail beside the still-running all-gather: NVIDIA developer forum thread 337991, 'Compute-Communication Overlap
Causes Severe GEMM Performance Degradation because of Tail Effect'), so while the collective runs the GEMMs beside
it move at half their rate (sm_residency.tail_share), those of no more CTAs than the SMs left excepted (no second
wave: a small model's weight gradients; tail_share_of_gemms over the layer's GEMMs, layer_gemms.py), data
parallel's and TP's alike (a collective that ends inside one GEMM delays that GEMM's tail by all its seconds, not
half: not taken, docs/time-model-notes.md h-a2await). The collective gets its SMs before the GEMM because the
launcher orders them: Megatron-Bridge sets CUDA_DEVICE_MAX_CONNECTIONS=1 on Hopper 'to schedule a
communication kernel before the overlapping persistent GEMM kernel' (scripts/performance/perf_plugins.py at v0.4.2),
and a collective off the critical path (data parallel) that a GEMM pushes behind it still runs beside the next ones."""

from __future__ import annotations

from functools import cache

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .data import efficiency
from .hardware import Hardware
from .layer_gemms import layer_tail_share
from .links import exposed
from .sm_residency import makes_gemm_wait, static_persistent_gemms, tail_share

Layer = tuple[Scenario, ModelSpec, bool]  # the layer whose GEMMs a collective runs beside (nccl_sm_share)


def nccl_sm_share(hw: Hardware, one_node: bool = False, layer: Layer | None = None) -> float:
    """Share of the GEMMs' compute a running NCCL collective displaces: the share of the GPU's SMs it holds, NCCL's
    CTAs / SMs (0 where either is not known), or on a family whose GEMMs it makes wait (sm_residency) their tail
    wave's share, over the GEMMs of `layer` (scenario, model, backward: layer_gemms) where given: those of no more
    CTAs than the SMs left lose nothing (sm_residency.tail_share_of_gemms). `one_node`: the group stays on one node's
    NVLink, where NCCL's rings have as many channels as the NVLink bandwidth allows (ctas_inside_node), not the two
    per NIC of a group that crosses nodes (ctas)."""
    share, waits, held, sms = _gpu_share(hw.arch, hw.gpu_id or "", one_node)
    if layer is None or not share or not waits:
        return share
    return layer_tail_share(*layer[:2], held, sms, layer[2])


def nccl_held_sms(hw: Hardware, one_node: bool = False) -> int:
    """SMs a running NCCL collective holds, one CTA per channel (0 where not known); `one_node` as in nccl_sm_share."""
    return _held_sms(hw.arch, hw.gpu_id or "", one_node)


@cache
def _held_sms(arch: str, gpu_id: str, one_node: bool) -> int:
    table = efficiency()["nccl_contention"]
    inside = table["ctas_inside_node"].get(gpu_id, 0) if one_node else 0
    return int(inside or table["ctas"].get(arch, 0))


@cache
def _gpu_share(arch: str, gpu_id: str, one_node: bool) -> tuple[float, bool, int, int]:
    """(_sm_share, whether the family's GEMMs wait for NCCL's end, SMs NCCL holds, the GPU's SMs): preset facts of
    the GPU, the same for every step time on it (looked up, not recomputed: every step time asks)."""
    waits = static_persistent_gemms(arch) and makes_gemm_wait("nccl")
    sms = efficiency()["gemm_waves"]["sms"].get(gpu_id, 0)
    return _sm_share(arch, gpu_id, one_node), waits, _held_sms(arch, gpu_id, one_node), sms


@cache
def _sm_share(arch: str, gpu_id: str, one_node: bool) -> float:
    ctas = _held_sms(arch, gpu_id, one_node)
    sms = efficiency()["gemm_waves"]["sms"].get(gpu_id, 0)
    if not (ctas and sms):
        return 0.0
    if static_persistent_gemms(arch) and makes_gemm_wait("nccl"):
        return tail_share(ctas, sms)
    return ctas / sms


def hidden_share(hw: Hardware, link_bytes_per_s: float, memory_bytes_per_s: float, memory_bound: float,
                 one_node: bool = False, layer: Layer | None = None) -> float:
    """Seconds of compute displaced per second a collective over `link_bytes_per_s` hides behind a window whose
    share `memory_bound` is memory-bound kernels (streaming at `memory_bytes_per_s`); `one_node` and `layer` (whose
    GEMMs the window runs) as in nccl_sm_share."""
    hbm = _hbm_bytes_per_bus_byte() * link_bytes_per_s / memory_bytes_per_s
    return (1 - memory_bound) * nccl_sm_share(hw, one_node, layer) + memory_bound * min(1.0, hbm)


def contended(comm: float, window: float, overlap: float, share: float) -> float:
    """Seconds a collective adds to the step: the compute it displaces while it runs (comm x share, hidden_share),
    or what the compute window does not hide (links.exposed), whichever is more. The displaced compute runs later,
    beside the collective's own rest, so a collective longer than its window (overlap x window) slows the whole
    window and is exposed only where it outlasts the slowed window: with compute at 1 - share of its rate while
    the collective runs, the window ends at max(comm, window + comm x share) (the window part that cannot overlap,
    (1 - overlap) x window, at full rate). Adding the exposed part and the hidden part's displacement would count
    the displaced compute twice, once as its own seconds and once as the exposed seconds it runs beside."""
    left = exposed(comm, window, overlap)
    return max(left, comm * share)


@cache
def _hbm_bytes_per_bus_byte() -> float:  # read once from the presets
    return float(efficiency()["nccl_contention"]["hbm_bytes_per_bus_byte"])
