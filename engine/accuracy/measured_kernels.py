"""The time model's inputs against kernels measured on a real GPU (validation/gpu_kernels.py; issue 23 item 9).

Each measured figure is set beside what the time model assumes for the same shape on the same GPU preset, through
the time model's own functions: a GEMM through engine/timing/gemm.py `gemm_seconds` at the scenario's rate (the
decoder linears' rate at its rows' alignment, unaligned_gemm.py `aligned_rate`, tiles and waves over the SMs and
Hopper's epilogue, as costs.layer_cost charges a linear; the backward's dgrad and wgrad are charged the forward's
time there, so a measured dgrad or wgrad is set beside its forward shape's figure); a grouped expert GEMM through costs.py
`expert_gemm_seconds` (one grouped kernel); attention through attention.py `attention_core`
(causal, the kernel the backend runs: PyTorch SDPA's flash backend is FlashAttention-2, its cuDNN backend cuDNN's
fused attention); a call without a mask at the rate attention_core gives the context-parallel ring's unmasked
steps; bandwidth against the element-wise rate (Hardware.memory_bytes_per_s); host costs against
presets/host_overhead.json. The model's rates include the share a GPU sustains over a training step
(sustained_compute_fraction), which a short benchmark does not lose: the row's `sustained` says how much.

A file written with --dry-run ran on the CPU with tiny shapes: it checks the code path, never the GPU's figures, and
the report leaves it out.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from ..scenario import resolve_model, scenario_from_dict
from ..timing.attention import FLASH_BACKWARD_FACTOR, attention_core, head_dim_rate, work_rate
from ..timing.data import framework_profile
from ..timing.expert_costs import expert_gemm_seconds
from ..timing.gemm import Rates, gemm_seconds, rate_tile
from ..timing.hardware import hardware_for
from ..timing.host import host_figures
from ..timing.model import rates_for
from ..timing.unaligned_gemm import aligned_rate
from .measured_gpu import GPU_MEASURED_DIR, PRESET_BY_DEVICE

KERNELS_DIR = GPU_MEASURED_DIR / "kernels"
FORMAT = "gpu-kernels/1"
# PyTorch SDPA's backends as the time model's attention kernels (efficiency.json attention_fraction_of_bf16_peak)
KERNEL_OF_BACKEND = {"flash": "flash2", "cudnn": "cudnn"}
_SECTIONS = ("gemm", "attention", "bandwidth", "host")


class KernelFileError(ValueError):
    """A kernel file that cannot be read as validation/gpu_kernels.py writes it (one sentence, no traceback)."""


@dataclass(frozen=True)
class KernelRow:
    kind: str  # gemm | attention-forward | attention-backward | bandwidth | host
    group: str
    name: str
    measured_seconds: float
    predicted_seconds: float | None  # None: the time model has no figure for it
    note: str = ""

    @property
    def error(self) -> float | None:
        """predicted / measured - 1 (negative: the model assumes it faster than it ran)."""
        if self.predicted_seconds is None or self.measured_seconds <= 0:
            return None
        return self.predicted_seconds / self.measured_seconds - 1


@dataclass(frozen=True)
class KernelFile:
    path: Path
    dry_run: bool
    environment: tuple[tuple[str, str], ...]
    gpu_preset: str
    rows: tuple[KernelRow, ...]
    groups_not_done: tuple[str, ...]


def read_kernel_doc(path: Path) -> dict[str, Any]:
    """The JSON object of a kernel file, checked for the sections the loader reads."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise KernelFileError(f"{path.name} cannot be read as JSON ({type(exc).__name__}).") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise KernelFileError(f"{path.name} is not a kernel file of format {FORMAT} (validation/gpu_kernels.py).")
    if not all(isinstance(doc.get(k), list) for k in _SECTIONS) or not isinstance(doc.get("environment"), dict):
        raise KernelFileError(f"{path.name} lacks one of the sections environment, {', '.join(_SECTIONS)}.")
    return doc


def gpu_preset_of(environment: dict[str, Any], gpu: str | None = None) -> str:
    """The GPU preset the figures are compared against: `gpu` where given (a dry run has no GPU), else the preset of
    the device name the file records (measured_gpu.PRESET_BY_DEVICE)."""
    if gpu:
        return gpu
    name = environment.get("gpu")
    if name not in PRESET_BY_DEVICE:
        raise KernelFileError(f"no GPU preset is mapped to the device {str(name)[:60]!r}: add it to "
                              "engine/accuracy/measured_gpu.py PRESET_BY_DEVICE.")
    return PRESET_BY_DEVICE[name]


def load_kernel_file(path: Path, gpu: str | None = None) -> KernelFile:
    """Every measured figure of one file beside the time model's figure for it."""
    doc = read_kernel_doc(path)
    preset = gpu_preset_of(doc["environment"], gpu)
    try:
        rows = (*(gemm_row(r, preset) for r in _ok(doc["gemm"])), *attention_rows(doc["attention"], preset),
                *(bandwidth_row(r, preset) for r in _ok(doc["bandwidth"])), *host_rows(doc["host"]))
    except (KeyError, TypeError, ValueError, ScenarioError) as exc:
        raise KernelFileError(f"{path.name} has a row the loader cannot read ({type(exc).__name__}: "
                              f"{str(exc)[:80]}).") from None
    env = tuple(sorted((str(k), str(v)) for k, v in doc["environment"].items()))
    not_done = tuple(g["name"] for g in doc.get("groups", []) if g.get("status") != "done")
    return KernelFile(path, bool(doc.get("dry_run")), env, preset, rows, not_done)


def load_kernel_files(directory: Path = KERNELS_DIR) -> list[KernelFile]:
    """The GPU kernel files in the directory (dry runs left out: they are no GPU's figures)."""
    paths = sorted(directory.glob("*.json")) if directory.is_dir() else []
    return [load_kernel_file(p) for p in paths if not read_kernel_doc(p).get("dry_run")]


def _ok(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if "error" not in r]


@lru_cache(maxsize=64)
def model_rates(gpu: str, precision: str = "bf16", attention_kernel: str = "auto") -> Rates:
    """The time model's rates for a plain scenario on this GPU (its other keys do not change them)."""
    keys = {"model": "llama-3.1-8b", "gpu": gpu, "precision": precision, "attention_kernel": attention_kernel}
    if precision == "fp8":
        keys["fp8_recipe"] = "tensorwise"  # torch._scaled_mm with one scale per tensor
    s = scenario_from_dict(keys)
    return rates_for(s, hardware_for(s), framework_profile(s.framework))


def sustained_share(gpu: str) -> float:
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": gpu})
    return hardware_for(s).sustained_fraction


def forward_shape(row: dict[str, Any]) -> tuple[int, int, int]:
    """(m, k, n) of the forward GEMM whose time the model charges for this row: dgrad (m x n) @ (n x k) and wgrad
    (k x m) @ (m x n) of a forward (m x k) @ (k x n) are charged the forward's time (costs.layer_cost)."""
    m, k, n = int(row["m"]), int(row["k"]), int(row["n"])
    if row["name"].endswith(" dgrad"):
        return m, n, k
    if row["name"].endswith(" wgrad"):
        return k, m, n
    return m, k, n


def gemm_row(row: dict[str, Any], gpu: str) -> KernelRow:
    fp8 = row["dtype"] == "fp8"
    rates = model_rates(gpu, "fp8" if fp8 else "bf16")
    m, k, n = forward_shape(row)
    rate = aligned_rate(rates, rates.linear if fp8 else rates.gemm, k, n)  # as costs.layer_cost charges a linear
    if row.get("groups"):  # every expert in one grouped kernel: expert_costs.py expert_gemm_seconds with no streams
        predicted = expert_gemm_seconds(int(row["groups"]), m, k, n, rates, 0)
    else:
        predicted = gemm_seconds(m, k, n, rate, rates.memory, rates.elem_bytes, rates.sms, rates.epilogue_k[1],
                                 rate_tile(rates, fp8))
    note = "charged as its forward shape" if row["name"].endswith((" dgrad", " wgrad")) else ""
    return KernelRow("gemm", row["group"], f"{row['dtype']} {row['name']}", float(row["seconds"]), predicted, note)


def attention_rows(rows: list[dict[str, Any]], gpu: str) -> list[KernelRow]:
    out: list[KernelRow] = []
    spec0 = resolve_model(scenario_from_dict({"model": "llama-3.1-8b", "gpu": gpu}))
    for r in _ok(rows):
        kernel = KERNEL_OF_BACKEND[r["backend"]]
        rates = model_rates(gpu, "bf16", kernel)
        spec = replace(spec0, heads=int(r["heads"]), kv_heads=int(r["kv_heads"]), head_dim=int(r["head_dim"]),
                       sliding_window=0, layer_types=())
        tokens, seq = float(r["batch"]) * r["seq"], int(r["seq"])
        if r["causal"]:
            _flops, fwd, bwd = attention_core(spec, tokens, seq, 1, rates, "fused")
        else:
            fwd = unmasked_forward_seconds(4.0 * tokens * seq * spec.q_dim, r["head_dim"], rates)
            bwd = FLASH_BACKWARD_FACTOR * fwd
        name = (f"{r['backend']} ({kernel}) {'causal' if r['causal'] else 'no mask'} d{r['head_dim']} s{r['seq']} "
                f"b{r['batch']} h{r['heads']}/kv{r['kv_heads']}")
        out.append(KernelRow("attention-forward", r["group"], name, float(r["forward_seconds"]), fwd))
        out.append(KernelRow("attention-backward", r["group"], name, float(r["backward_seconds"]), bwd))
    return out


def unmasked_forward_seconds(flops: float, head_dim: int, rates: Rates) -> float:
    """A call without a mask as attention_core prices the context-parallel ring's unmasked steps (attention.py: the
    causal rate, times the no-mask curve where the GPU's table has one)."""
    rate = rates.attention * (head_dim_rate(head_dim) if rates.head_dim_scaled else 1.0)
    if rates.no_mask_by_work:
        return flops / (rate * work_rate(rates.no_mask_by_work, flops, relative=False))
    return flops / (rate * work_rate(rates.attention_by_work, flops))


def bandwidth_row(row: dict[str, Any], gpu: str) -> KernelRow:
    predicted = float(row["bytes"]) / model_rates(gpu).memory
    name = f"{row['kind']} {row['bytes'] / 2**20:.0f} MiB"
    return KernelRow("bandwidth", row["group"], name, float(row["seconds"]), predicted)


def host_rows(rows: list[dict[str, Any]]) -> list[KernelRow]:
    """One row per host figure: gpu_kernels.py repeats each three times; the median of the repeats."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for r in _ok(rows):
        by_name.setdefault(r["kind"] + (f" x{r['tensors']}" if "tensors" in r else ""), []).append(r)
    out = []
    for repeats in by_name.values():
        merged = {**repeats[0], "seconds": statistics.median(float(r["seconds"]) for r in repeats)}
        if "gpu_seconds" in merged:
            merged["gpu_seconds"] = statistics.median(float(r["gpu_seconds"]) for r in repeats)
        out.append(host_row(merged))
    return out


def host_row(row: dict[str, Any]) -> KernelRow:
    """Host seconds of one call against presets/host_overhead.json: an eager op (a 1-element add_) against
    launch_seconds, what engine/timing/host.py charges per kernel of an eager layer; an nn.Linear call as one launch
    and one Python call (host_overhead.json host_speed); a round trip as sync_seconds plus the launch before it. An
    empty kernel (no dispatcher) and the optimizer's per-tensor host time have no model figure: those rows stand
    alone."""
    fig = host_figures()
    launch, call, sync = (fig[k]["value"] for k in ("launch_seconds", "view_seconds", "sync_seconds"))
    predicted = {"tiny-op": launch, "linear-call": launch + call, "sync-round-trip": sync + launch}
    name = row["kind"] + (f" x{row['tensors']}" if "tensors" in row else "")
    note = f"GPU {row['gpu_seconds'] * 1e6:.1f} us" if "gpu_seconds" in row else ""
    return KernelRow("host", row["group"], name, float(row["seconds"]), predicted.get(row["kind"]), note)


def kernel_summary(rows: tuple[KernelRow, ...] | list[KernelRow]) -> dict[str, dict[str, float]]:
    """Per kind: rows with a model figure, median |error|, median signed error, and the range of signed errors."""
    out: dict[str, dict[str, float]] = {}
    for kind in dict.fromkeys(r.kind for r in rows):
        errors = [e for r in rows if r.kind == kind and (e := r.error) is not None]
        if errors:
            out[kind] = {"rows": len(errors), "median_abs_error": statistics.median(abs(e) for e in errors),
                         "median_signed_error": statistics.median(errors), "min_error": min(errors),
                         "max_error": max(errors)}
    return out


def _fmt_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-4 else f"{seconds * 1e6:.2f} us"


def _fmt_error(error: float | None) -> str:
    return "-" if error is None else f"{error:+.1%}"


def kernel_markdown(kf: KernelFile) -> str:
    """One kernel file's report: the summary per kind, GEMMs per group, then every row."""
    env = dict(kf.environment)
    lines = [f"### {kf.path.name}: {env.get('gpu', '?')} against the preset `{kf.gpu_preset}`", "",
             f"torch {env.get('torch', '?')}, CUDA {env.get('cuda', '?')}, cuDNN {env.get('cudnn', '?')}; host CPU "
             f"{env.get('cpu_model', '?')} ({env.get('cpu_count', '?')} logical), kernel {env.get('kernel_release', '?')} "
             f"({env.get('sandbox', '?')}). The model's rates include a sustained share of "
             f"{sustained_share(kf.gpu_preset):.3f} of the short-run rate (efficiency.json sustained_compute_fraction)."
             + (f" Groups not run: {', '.join(kf.groups_not_done)}." if kf.groups_not_done else ""), "",
             "| kind | rows | median \\|error\\| | median signed | range |", "|---|---:|---:|---:|---|"]
    for kind, s in kernel_summary(kf.rows).items():
        lines.append(f"| {kind} | {s['rows']:.0f} | {s['median_abs_error']:.1%} | {s['median_signed_error']:+.1%} "
                     f"| {s['min_error']:+.1%} to {s['max_error']:+.1%} |")
    gemm = [r for r in kf.rows if r.kind == "gemm"]
    lines += ["", "| GEMM group | rows | median signed error | range |", "|---|---:|---:|---|"]
    for group in dict.fromkeys(r.group for r in gemm):
        errors = [e for r in gemm if r.group == group and (e := r.error) is not None]
        lines.append(f"| {group} | {len(errors)} | {statistics.median(errors):+.1%} | {min(errors):+.1%} to "
                     f"{max(errors):+.1%} |")
    lines += ["", "| kind | measured | model | error | what |", "|---|---:|---:|---:|---|"]
    lines += [f"| {r.kind} | {_fmt_seconds(r.measured_seconds)} | {_fmt_seconds(r.predicted_seconds)} "
              f"| {_fmt_error(r.error)} | {r.name}{' (' + r.note + ')' if r.note else ''} |" for r in kf.rows]
    return "\n".join(lines)
