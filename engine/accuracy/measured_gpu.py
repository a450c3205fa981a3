"""Compare the estimate with training steps measured on a real GPU (tests/data/gpu_measured/*.json).

The files are written by `validation/gpu_measure.py`: each case holds its scenario, the mechanisms it used that a
scenario states with other keys (chunked or fused loss, optimizer in backward, expandable segments), and per step
and phase what `torch.cuda.max_memory_allocated` / `max_memory_reserved` reported and the device's used memory
(`torch.cuda.mem_get_info`, what nvidia-smi shows when one process holds the GPU). Out-of-memory runs are kept as
such: the verdict must say "does not fit" for them, and never for a run that ran.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..memory.estimate import estimate
from ..scenario import Scenario, scenario_from_dict

GPU_MEASURED_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "gpu_measured"

# The measured machine's card, as a preset id (the files record the device name and its total bytes). The lender's
# H100 reports 'NVIDIA H100 80GB HBM3' (/work/.library/device/KINDS.md, 81,559 MiB): the SXM part (HBM3; the PCIe
# card is 'NVIDIA H100 PCIe' with HBM2e).
PRESET_BY_DEVICE = {"NVIDIA H200": "h200", "NVIDIA H100 80GB HBM3": "h100-sxm-80gb"}
# The host that ran them, a named host of presets/host_overhead.json (scenario key host_cpu): the H200 files were
# recorded on the lent H200 machine by validation/gpu_measure.py, whose loop synchronises after each phase. A file from
# another machine needs its own host (benchmarks/lent_host_factor.py derives one from its most host-bound rows).
HOST_BY_DEVICE = {"NVIDIA H200": "lent-h200"}

# How a case's mechanisms are said in scenario keys.
_LOSS_KEYS = {"hf": {}, "chunked8": {"cross_entropy": "chunked"}, "liger-flce": {"cross_entropy": "fused-linear"}}


@dataclass(frozen=True)
class GpuRow:
    id: str
    description: str
    load_path: str  # "direct" (tensors allocated once in their final dtype) or "fp32-then-cast"
    ran: bool
    measured_allocated_bytes: int  # 0 for a run that ran out of memory
    measured_reserved_bytes: int
    measured_device_used_bytes: int
    estimated_allocated_bytes: float
    estimated_reserved_bytes: float
    estimated_process_bytes: float
    verdict: str

    @property
    def allocated_error(self) -> float:
        return self.estimated_allocated_bytes / self.measured_allocated_bytes - 1

    @property
    def reserved_error(self) -> float:
        return self.estimated_reserved_bytes / self.measured_reserved_bytes - 1

    @property
    def process_error(self) -> float:
        return self.estimated_process_bytes / self.measured_device_used_bytes - 1

    @property
    def reserved_comparable(self) -> bool:
        """Reserved memory keeps the segments of loading: an fp32 build cast to 16 bits afterwards (the traces'
        way of building, not what from_pretrained does) leaves reserved memory that no training set-up explains."""
        return self.ran and self.load_path == "direct"


# The kernel PyTorch's scaled_dot_product_attention runs for bf16 causal attention on the measured card, by the torch
# build the file records: torch 2.11.0+cu130 puts cuDNN first on compute capability 9.x and 10.x when the cuDNN it loads
# is newer than 9.15.0 (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_prefer_cudnn_attention, CUDA 13
# branch: `cudnn_version > 91500 && (major == 9 || major == 10)`; the wheel's libtorch_cuda.so carries its
# TORCH_CUDNN_SDPA_DEPRIORITIZED switch), and the cu130 wheel requires nvidia-cudnn-cu13==9.19.0.56 (its METADATA
# Requires-Dist); can_use_cudnn_attention takes these calls (bf16, head dim 64 and 128, is_causal, grouped-query heads).
# Hugging Face's own default on Hopper (presets/efficiency.json frameworks attention_hopper: FlashAttention-2) stands
# for the older builds the published rows ran.
SDPA_KERNEL_BY_TORCH = {"2.11.0+cu130": "cudnn"}


def scenario_of(case: dict[str, Any], gpu: str, environment: dict[str, Any] | None = None) -> dict[str, Any]:
    """The scenario that states what the measured case did (`environment`: the file's, for the torch build)."""
    sc = dict(case["scenario"])
    sc["gpu"] = gpu
    sc["host_cpu"] = next((h for d, h in HOST_BY_DEVICE.items() if PRESET_BY_DEVICE[d] == gpu), "auto")
    kernel = SDPA_KERNEL_BY_TORCH.get((environment or {}).get("torch", ""))
    if kernel and sc.get("attention", "sdpa") == "sdpa":
        sc["attention_kernel"] = kernel
    sc.update(_LOSS_KEYS[case.get("loss", "hf")])
    if case.get("optimizer_in_backward"):
        sc["optimizer_in_backward"] = True
    if "expandable_segments:True" in case.get("alloc_conf", ""):
        sc["expandable_segments"] = True
    return sc


def _peak(case: dict[str, Any], key: str) -> int:
    return max(phase[key] for step in case["steps"] for phase in step["phases"].values())


def load_gpu_rows(directory: Path = GPU_MEASURED_DIR) -> list[GpuRow]:
    return [row for path in sorted(directory.glob("*.json")) for row in load_gpu_file(path)]


def measured_cases(path: Path, gpu: str | None = None) -> Iterator[tuple[dict[str, Any], Scenario]]:
    """Each case of one file with the scenario that states what it did (scenario_of, with the file's environment);
    gpu: the preset to compare against (a CPU dry run records no GPU), else the recorded device's preset."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    gpu = gpu or PRESET_BY_DEVICE[doc["environment"]["gpu"]]
    for case in doc["cases"]:
        yield case, scenario_from_dict(scenario_of(case, gpu, doc["environment"]))


def load_gpu_file(path: Path, gpu: str | None = None) -> list[GpuRow]:
    """One file's cases beside the estimate (measured_cases says which preset)."""
    rows: list[GpuRow] = []
    for case, scenario in measured_cases(path, gpu):
        if "skipped" in case or ("error" in case and not case.get("oom")):
            continue
        est = estimate(scenario)
        ran = "error" not in case
        rows.append(GpuRow(
            id=case["id"], description=case.get("description", ""), load_path=case.get("load_path", "fp32-then-cast"),
            ran=ran,
            measured_allocated_bytes=_peak(case, "max_allocated") if ran else 0,
            measured_reserved_bytes=_peak(case, "max_reserved") if ran else 0,
            measured_device_used_bytes=max(s["device_used"] for s in case["steps"]) if ran else 0,
            estimated_allocated_bytes=est.peak_allocated_bytes, estimated_reserved_bytes=est.peak_reserved_bytes,
            estimated_process_bytes=est.process_bytes, verdict=est.verdict))
    return rows


def gpu_summary(rows: list[GpuRow]) -> dict[str, Any]:
    ran = [r for r in rows if r.ran]
    comparable = [r for r in ran if r.reserved_comparable]

    def stats(errors: list[float]) -> dict[str, float]:
        return {"median_abs_error": statistics.median(errors) if errors else 0.0,
                "worst_abs_error": max(errors, default=0.0)}

    return {
        "runs": len(rows), "ran": len(ran), "out_of_memory": len(rows) - len(ran),
        "allocated": stats([abs(r.allocated_error) for r in ran]),
        "reserved": {"runs": len(comparable), **stats([abs(r.reserved_error) for r in comparable])},
        "process": {"runs": len(comparable), **stats([abs(r.process_error) for r in comparable])},
        "ran_judged_not_fitting": sum(r.verdict == "does not fit" for r in ran),
        "oom_judged_not_fitting": sum(r.verdict == "does not fit" for r in rows if not r.ran),
    }


def gpu_markdown_table(rows: list[GpuRow]) -> str:
    gib = 2**30
    lines = ["| run | load | measured allocated (GiB) | error | reserved (GiB) | error | device used (GiB) | error "
             "| verdict |", "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        if not r.ran:
            lines.append(f"| {r.id} | {r.load_path} | out of memory | | | | | | {r.verdict} "
                         f"(estimated {r.estimated_allocated_bytes / gib:.2f} GiB allocated) |")
            continue
        note = "" if r.reserved_comparable else " (fp32 load)"
        lines.append(f"| {r.id} | {r.load_path} | {r.measured_allocated_bytes / gib:.2f} | {r.allocated_error:+.1%} "
                     f"| {r.measured_reserved_bytes / gib:.2f} | {r.reserved_error:+.1%}{note} "
                     f"| {r.measured_device_used_bytes / gib:.2f} | {r.process_error:+.1%}{note} | {r.verdict} |")
    return "\n".join(lines)


@dataclass(frozen=True)
class TraceCheck:
    """A real-GPU run whose set-up was also traced on the CPU (tests/data/ground_truth): the tracing method's check."""

    id: str
    trace_id: str
    gpu_allocated_bytes: int
    traced_allocated_bytes: int

    @property
    def difference(self) -> float:
        return self.gpu_allocated_bytes / self.traced_allocated_bytes - 1


def trace_checks(directory: Path = GPU_MEASURED_DIR, traces: Path | None = None) -> list[TraceCheck]:
    from .traced import GROUND_TRUTH_DIR

    traces = traces or GROUND_TRUTH_DIR
    checks: list[TraceCheck] = []
    for path in sorted(directory.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            trace_id = case["scenario"]["name"]
            # a case's id is its traced set-up's id, plus a tag for what the trace does not do
            for candidate in (trace_id, trace_id.rsplit("_", 1)[0]):
                trace = traces / f"{candidate}.json"
                if trace.is_file() and "steps" in case and case.get("loss", "hf") == "hf" and not case.get("qlora"):
                    measured = json.loads(trace.read_text(encoding="utf-8"))["measured"]["peak_allocated_bytes"]
                    checks.append(TraceCheck(case["id"], candidate, _peak(case, "max_allocated"), measured))
                    break
    return checks
