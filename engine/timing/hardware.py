"""The speed of the scenario's hardware: peak FLOP/s per number format, memory, link and network bandwidths.

Preset figures come from vendor datasheets (presets/gpus.json, `speed_source`); what is achieved of them from
presets/efficiency.json. A custom GPU gives its own figures; scenario keys override the link bandwidths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..models.presets import get_gpu
from ..scenario import CustomGpu, Scenario
from .data import efficiency, memory_stream_fraction, per_gpu
from .host_cpu import UNKNOWN_HOST, host_cpu_facts
from .workload_gemm import workload_shape_share

TERA = 1e12


@dataclass(frozen=True, slots=True)
class Hardware:
    """Achievable rates of one GPU and its links (FLOP/s and bytes/s; links one direction, per GPU)."""

    name: str
    gpu_id: str | None  # preset id; None for a custom GPU
    peak_flops: tuple[tuple[str, float], ...]  # number format -> dense peak FLOP/s
    matmul_fraction: float
    fp8_matmul_fraction: float
    arch: str
    memory_bytes_per_s: float  # achieved
    intra_bytes_per_s: float  # achieved bus bandwidth inside a node
    inter_bytes_per_s: float  # achieved bus bandwidth between nodes
    host_bytes_per_s: float  # achieved CPU<->GPU
    latency_intra_s: float
    latency_inter_s: float
    complete: bool  # False: some figure was missing and a stated fallback is used
    nvlink_domain: int = 0  # GPUs sharing one NVLink fabric across nodes (NVL72); 0: the node
    nvlink: bool = True  # the GPUs of a node talk over NVLink (or another GPU link), not PCIe: NCCL's per-hop latency
    sustained_fraction: float = 1.0  # of the short-run matmul/attention rates, once the power limit pulls the clock down
    fp8_sustained_fraction: float = 1.0  # the same for fp8 matmuls (the bf16 share unless a GPU has its own fp8 measurement)
    ring_inter_bytes_per_s: float = 0.0  # measured bus bandwidth of one collective ring between nodes; 0: not stated
    preset_intra: bool = False  # a preset GPU's own links inside the node (no stated intra-node bandwidth)
    memory_fraction: float = 0.0  # memory_bytes_per_s over the peak bandwidth (0: not stated, the generic figure)
    # (vendor, arch) of the host CPU, NCCL's per-step network overhead across nodes (host_cpu.py); ("", ""): unknown
    host_cpu: tuple[str, str] = UNKNOWN_HOST

    def peak(self, fmt: str) -> float:
        """Dense peak FLOP/s of a number format; formats a GPU lacks run at the next one it has."""
        return _peak(self.peak_flops, fmt)


@lru_cache(maxsize=512)
def _peak(peak_flops: tuple[tuple[str, float], ...], fmt: str) -> float:
    table = dict(peak_flops)
    for f in _FALLBACK[fmt]:
        if f in table:
            return table[f]
    return max(table.values()) if table else 0.0


_FALLBACK = {"fp4": ("fp4", "fp8", "bf16", "fp16", "fp32"),  # NVFP4 on a GPU without FP4 (warned): the fp8 rate
             "fp8": ("fp8", "bf16", "fp16", "fp32"), "bf16": ("bf16", "fp16", "fp32"), "fp16": ("fp16", "bf16", "fp32"),
             "tf32": ("tf32", "fp32"), "fp32": ("fp32", "tf32", "fp16")}


def _pcie_bytes_per_s(generation: int | None) -> float | None:
    table = efficiency()["pcie"]
    raw = table["x16_bytes_per_s"].get(str(generation)) if generation else None
    return None if raw is None else float(raw)


def gpu_link(intra: float | None, link: float | None, pcie: float) -> bool:
    """Whether the node's GPUs talk over a GPU link (NVLink, Infinity Fabric), not PCIe: NCCL's per-hop latency and
    its LL128 protocol follow (collectives.py, nccl_protocols.py). A stated rate at or below the card's PCIe x16
    (presets/efficiency.json pcie) is PCIe: no GPU link is that slow (NVLink 3 bridge 56 GB/s each way, A800's
    cut NVLink 200), and it was timed with NVLink's latencies (user audit 16: 4 x 8 A100 40GB PCIe stated 25 GB/s)."""
    if intra:
        return float(intra) > pcie
    return bool(link)


def hardware_for(s: Scenario) -> Hardware:
    return _scenario_hardware(s.gpu, s.intra_node_bandwidth_bytes_per_s, s.inter_node_bandwidth_bytes_per_s,
                              s.inter_node_ring_bandwidth_bytes_per_s, s.host_cpu)


@lru_cache(maxsize=256)  # the scenario's keys as they are: one lookup a step time (host_cpu_facts is read once per key)
def _scenario_hardware(gpu: str | CustomGpu, intra: float | None, inter: float | None, ring: float | None,
                       host_cpu: str) -> Hardware:
    return _hardware(gpu, intra, inter, ring, host_cpu_facts(gpu if isinstance(gpu, str) else None, host_cpu))


@lru_cache(maxsize=256)
def _hardware(gpu: str | CustomGpu, intra: float | None, inter: float | None, ring: float | None = None,
              host_cpu: tuple[str, str] = UNKNOWN_HOST) -> Hardware:
    eff = efficiency()
    coll, pcie_fraction = eff["collective_bandwidth_fraction"], eff["pcie"]["achieved_fraction"]
    if isinstance(gpu, CustomGpu):
        v = gpu.speed_value
        peaks = tuple((fmt, v(f"{fmt}_tflops") * TERA) for fmt in ("fp32", "bf16", "fp16", "fp8")
                      if v(f"{fmt}_tflops"))
        name, gpu_id, arch = gpu.name, None, "default"
        memory = v("memory_bandwidth_bytes_per_s")
        link = v("interconnect_bandwidth_bytes_per_s")
        pcie = _pcie_bytes_per_s(int(v("pcie_generation") or 0)) or _pcie_bytes_per_s(4)
        host, network, domain = None, None, 0
        complete = bool(peaks) and memory is not None
        if not peaks:  # stated fallback: an H100 SXM's figures (the default GPU)
            peaks = get_gpu("h100-sxm-80gb").dense_peak_tflops
            peaks = tuple((k, x * TERA) for k, x in peaks)
        memory = memory or get_gpu("h100-sxm-80gb").memory_bandwidth_bytes_per_s
    else:
        preset = get_gpu(gpu)
        name, gpu_id = preset.name, preset.id
        arch = eff["gpu_arch"].get(preset.id, "default")
        peaks = tuple((k, x * TERA) for k, x in preset.dense_peak_tflops)
        complete = not preset.missing_speed_fields
        if not peaks:
            peaks = tuple((k, x * TERA) for k, x in get_gpu("h100-sxm-80gb").dense_peak_tflops)
        memory = preset.memory_bandwidth_bytes_per_s or get_gpu("h100-sxm-80gb").memory_bandwidth_bytes_per_s
        link = preset.interconnect_bandwidth_bytes_per_s
        pcie = _pcie_bytes_per_s(preset.pcie_generation) or _pcie_bytes_per_s(4)
        host = preset.host_link_bandwidth_bytes_per_s
        network = preset.network_bandwidth_bytes_per_s
        domain = preset.nvlink_domain_gpus or 0
    assert pcie is not None
    stream_fraction = memory_stream_fraction(gpu_id)
    intra_raw = intra or link or pcie  # no NVLink: GPUs talk over PCIe
    inter_raw = inter or network or 12.5e9  # stated fallback: 100 Gb/s
    host_raw = host or pcie
    return Hardware(
        name=name, gpu_id=gpu_id, peak_flops=peaks,
        matmul_fraction=_matmul_fraction(gpu_id, "bf16"),
        fp8_matmul_fraction=_matmul_fraction(gpu_id, "fp8"),
        arch=arch,
        # a GPU whose own stream and collective figures were measured (_gpu) takes them before the defaults
        memory_bytes_per_s=float(memory) * stream_fraction, memory_fraction=stream_fraction,
        intra_bytes_per_s=float(intra_raw) * coll.get("_gpu", {}).get(gpu_id, {}).get("intra_node", coll["intra_node"]),
        inter_bytes_per_s=float(inter_raw) * coll["inter_node"],
        host_bytes_per_s=float(host_raw) * (pcie_fraction if host is None else 1.0),
        latency_intra_s=coll["latency_intra_s"], latency_inter_s=coll["latency_inter_s"],
        complete=complete, nvlink_domain=domain, nvlink=gpu_link(intra, link, pcie),
        sustained_fraction=per_gpu("sustained_compute_fraction", gpu_id),
        fp8_sustained_fraction=_fp8_sustained(gpu_id),
        # a measured busbw is what NCCL reached: no achieved fraction on top
        ring_inter_bytes_per_s=float(ring or 0.0),
        preset_intra=gpu_id is not None and intra is None,  # its measured collective sweeps apply (measured_busbw.py)
        host_cpu=host_cpu,
    )


def _matmul_fraction(gpu_id: str | None, fmt: str) -> float:
    """The best-shape matmul fraction of a format (presets/efficiency.json matmul_fraction_of_peak,
    fp8_matmul_fraction_of_peak) x what the GPU's GEMM library keeps at a workload's shapes beyond the roofline's
    tiles and waves (workload_gemm.py: measured on CDNA3, 1.0 elsewhere)."""
    table = "fp8_matmul_fraction_of_peak" if fmt == "fp8" else "matmul_fraction_of_peak"
    return per_gpu(table, gpu_id) * workload_shape_share(gpu_id, fmt)


def _fp8_sustained(gpu_id: str | None) -> float:
    """The sustained share of fp8 matmuls: the GPU's own fp8 entry where one was measured, else the bf16 one
    (presets/efficiency.json sustained_compute_fraction _fp8)."""
    measured = efficiency()["sustained_compute_fraction"].get("_fp8", {})
    return float(measured[gpu_id]) if gpu_id in measured else per_gpu("sustained_compute_fraction", gpu_id)


def rate_share(gpu_id: str, fmt: str) -> float:
    """The share of a GPU's dense peak in a format its matmuls reach over a step in the time model: the short-run
    matmul fraction (presets/efficiency.json matmul_fraction_of_peak, fp8_matmul_fraction_of_peak, at a workload's
    shapes: _matmul_fraction) times the clock its power limit leaves (sustained_compute_fraction, its _fp8 entry where
    measured): what Hardware's matmul_fraction x sustained_fraction (fp8_matmul_fraction x fp8_sustained_fraction) give
    the time model."""
    if fmt == "fp4":  # NVFP4's GEMMs keep the fp8 clock share (presets/efficiency.json fp4_matmul_fraction_of_peak)
        return per_gpu("fp4_matmul_fraction_of_peak", gpu_id) * _fp8_sustained(gpu_id)
    if fmt == "fp8":
        return _matmul_fraction(gpu_id, "fp8") * _fp8_sustained(gpu_id)
    return _matmul_fraction(gpu_id, fmt) * per_gpu("sustained_compute_fraction", gpu_id)


@dataclass(frozen=True, slots=True)
class NodeLink:
    """The link the time model gives the GPUs inside one node, as the set-up shows it (user audit 16: a cluster of
    A100 40GB PCIe cards was timed over the preset's NVLink 3 with no word of it on screen)."""

    name: str  # "NVLink 3", "PCIe 4.0 x16", "" where the scenario states only a bandwidth above the card's PCIe
    bytes_per_s: float  # one direction, per GPU, as stated (before the collectives' achieved fraction)
    basis: str  # "scenario": intra_node_bandwidth_bytes_per_s; "gpu": the card's own link; "pcie": no GPU link
    gpu_link: bool  # timed as a GPU link (gpu_link: NVLink's NCCL latencies, LL128), not PCIe


def node_link(s: Scenario) -> NodeLink:
    """Which link _hardware takes for the node: the scenario's intra_node_bandwidth_bytes_per_s, else the GPU's own
    (presets/gpus.json interconnect, interconnect_bandwidth_bytes_per_s; a custom GPU's figure), else PCIe x16 of
    the card's generation (presets/efficiency.json pcie x16_bytes_per_s; 4 where not stated), in that order. A
    stated rate at or below the card's PCIe x16 is named as that PCIe, by gpu_link's rule (h-polish17)."""
    if isinstance(s.gpu, CustomGpu):
        link, generation, name = s.gpu.speed_value("interconnect_bandwidth_bytes_per_s"), \
            int(s.gpu.speed_value("pcie_generation") or 0), ""
    else:
        preset = get_gpu(s.gpu)
        link, generation, name = preset.interconnect_bandwidth_bytes_per_s, preset.pcie_generation or 0, \
            preset.interconnect
    intra = s.intra_node_bandwidth_bytes_per_s
    if link and not intra:  # the card's own link: presets/efficiency.json is not read (a damaged copy stays unread)
        return NodeLink(name, float(link), "gpu", True)
    if _pcie_bytes_per_s(generation) is None:
        generation = 4
    pcie_name, pcie = f"PCIe {generation}.0 x16", float(_pcie_bytes_per_s(generation) or 0.0)
    if intra:
        over_gpu_link = gpu_link(intra, link, pcie)
        return NodeLink("" if over_gpu_link else pcie_name, float(intra), "scenario", over_gpu_link)
    return NodeLink(pcie_name, pcie, "pcie", False)
