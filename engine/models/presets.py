"""Preset catalogues (real models, real GPUs) read from the data files under presets/."""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from ..errors import PlannerError, PresetError
from ..messages import QT_TRANSLATE_NOOP, shown
from ..paths import data_dir
from .architecture import ModelSpec
from .hf_config import model_from_hf_config

PRESETS_DIR = data_dir("presets")
_Table = TypeVar("_Table")


@dataclass(frozen=True)
class ModelPreset:
    id: str
    name: str
    family: str
    source: str
    hf_config: dict[str, Any] = field(repr=False, compare=False)
    published_params: int | None = None
    published_active_params: int | None = None
    published_params_source: str = ""
    # all | without-embedding | text-model: what the publisher's active count leaves out (tests/test_presets.py
    # counts the spec's on that basis)
    published_active_basis: str = "all"
    transformers_params: int | None = None  # what transformers builds from hf_config (validation/count_params.py)
    file: str = field(default="", compare=False)  # the presets/models file it was read from (named when damaged)

    @property
    def spec(self) -> ModelSpec:
        return model_spec_for(self.id)


# What a process holds on the device outside the framework's allocator (name, formula), in the vendor runtime's words.
# The figure is CUDA's measured 0.75 GiB on every GPU (engine/memory/estimate.py CUDA_CONTEXT_BYTES): no HIP or Metal
# figure is measured, so the formula says whose figure it is. Apple: MLX opens the Metal device with its residency
# sets, a command queue per stream and its kernel library mlx.metallib (ml-explore/mlx@846d1762
# mlx/backend/metal/device.cpp lines 109, 315, 586); PyTorch's MPS backend runs on the same Metal objects. AMD: PyTorch
# on ROCm runs HIP's context and hipBLAS/hipBLASLt workspaces where CUDA runs CUDA's and cuBLAS's.
CUDA_CONTEXT_WORDS = (QT_TRANSLATE_NOOP("engine", "CUDA context and library workspaces"),
                      QT_TRANSLATE_NOOP("engine", "0.75 GiB per process (+0.25 GiB NCCL buffers when world size > 1)"))
_CONTEXT_WORDS = {
    "AMD": (QT_TRANSLATE_NOOP("engine", "HIP context and library workspaces"),
            QT_TRANSLATE_NOOP("engine", "0.75 GiB per process, CUDA's measured figure (+0.25 GiB RCCL buffers when "
                                        "world size > 1)")),
    "Apple": (QT_TRANSLATE_NOOP("engine", "Metal device, command queues and kernel library"),
              QT_TRANSLATE_NOOP("engine", "0.75 GiB per process, CUDA's measured figure: no Metal figure is measured")),
}


@dataclass(frozen=True)
class GpuPreset:
    id: str
    name: str
    vendor: str
    gpu_class: str
    memory_bytes: int
    memory_label: str = ""
    memory_basis: str = ""
    bf16: bool = True
    fp8: bool = False
    usable_fraction: float = 1.0
    source: str = ""
    notes: str = ""
    # Speed figures (issue 13); None where the preset does not carry them yet (the time model then says so).
    dense_peak_tflops: tuple[tuple[str, float], ...] = ()  # number format -> dense tensor TFLOP/s
    memory_bandwidth_bytes_per_s: float | None = None
    interconnect: str = ""
    interconnect_bandwidth_bytes_per_s: float | None = None  # one direction, per GPU; None: PCIe only
    pcie_generation: int | None = None
    host_link_bandwidth_bytes_per_s: float | None = None  # CPU<->GPU when it is not PCIe (NVLink-C2C, unified)
    network_bandwidth_bytes_per_s: float | None = None  # usual cluster network per GPU, one direction
    speed_source: str = ""
    nvlink_domain_gpus: int | None = None  # GPUs on one NVLink switch fabric when it spans several nodes (NVL72)
    # What CUDA reports as the device's total (cudaMemGetInfo / torch.cuda.mem_get_info, get_device_properties),
    # below nvidia-smi's figure; None where no published measurement is at hand.
    cuda_total_bytes: int | None = None
    cuda_total_source: str = ""
    cuda_capability: str = ""  # "10.0" (SM100): given where an engine picks kernels by it (vLLM's MXFP4 backend)
    # GPU seconds a Metal dispatch of a small kernel takes on this chip generation, measured (kernel_fixed_time.py
    # prices llama.cpp's decode graph with it); None where no source measured the generation
    metal_dispatch_seconds: float | None = None
    metal_dispatch_source: str = ""

    @property
    def missing_speed_fields(self) -> tuple[str, ...]:
        """Speed fields the time model needs that this preset lacks."""
        need = {"dense_peak_tflops": self.dense_peak_tflops, "memory_bandwidth_bytes_per_s":
                self.memory_bandwidth_bytes_per_s, "network_bandwidth_bytes_per_s": self.network_bandwidth_bytes_per_s,
                "speed_source": self.speed_source}
        return tuple(k for k, v in need.items() if not v)

    @property
    def nvfp4(self) -> bool:
        """Whether Transformer Engine's NVFP4 recipe runs here: NVIDIA FP4 tensor cores (a dense fp4 peak), which its
        check_nvfp4_support asks of compute capability 10.0 and up (transformer_engine/pytorch/quantization.py at v2.14
        lines 72-76). AMD's CDNA4 FP4 is MXFP4, not NVFP4."""
        return self.vendor == "NVIDIA" and any(fmt == "fp4" and v for fmt, v in self.dense_peak_tflops)

    @property
    def runs_triton(self) -> bool:
        """Whether Triton kernels (Liger-Kernel's) run here: Triton supports NVIDIA and AMD GPUs, on Linux
        (triton-lang/triton README.md at 0112e82a, 'Compatibility'); Apple's and Intel Gaudi's chips have no backend."""
        return self.vendor in ("NVIDIA", "AMD")

    @property
    def runs_mlx(self) -> bool:
        """Whether MLX's Metal backend runs here (the framework rows with metal_only: engine/frameworks/mlx.py): Apple
        silicon GPUs (ml-explore/mlx at 846d176227a0 README.md: 'MLX is an array framework for machine learning on
        Apple silicon'; its Linux packages mlx[cuda] and mlx[cpu] are not offered: no measured training run on them)."""
        return self.vendor == "Apple"

    @property
    def runs_bnb_8bit_optimizers(self) -> bool:
        """Whether bitsandbytes' 8-bit optimizers (AdamW8bit) run here: its accelerator table at release 0.50.1
        (bitsandbytes-foundation/bitsandbytes@37d2a938 README.md 'Accelerator support') has them on NVIDIA and AMD
        GPUs, not on Intel Gaudi (hpu, not supported) nor Apple's Metal (mps, planned). Its 4-bit QLoRA runs on all
        of these (Gaudi partly), so QLoRA is offered everywhere."""
        return self.vendor in ("NVIDIA", "AMD")

    @property
    def memory_tool(self) -> str:
        """The vendor's tool that shows a process's GPU memory (the footer's "process (as ... shows it)"): AMD's
        rocm-smi (--showmeminfo vram), Intel Gaudi's hl-smi, nvidia-smi on NVIDIA; on Apple's chips, whose GPU
        memory is the process's own unified memory, Activity Monitor's Memory column (there is no nvidia-smi)."""
        apple = QT_TRANSLATE_NOOP("engine", "Activity Monitor")  # macOS's own name for it in each language
        return {"AMD": "rocm-smi", "Intel": "hl-smi", "Apple": apple}.get(self.vendor, "nvidia-smi")

    @property
    def context_words(self) -> tuple[str, str]:
        """(name, formula) of what a process holds on the device outside the framework's allocator, in the vendor
        runtime's words (see _CONTEXT_WORDS)."""
        return _CONTEXT_WORDS.get(self.vendor, CUDA_CONTEXT_WORDS)

    @property
    def usable_bytes(self) -> int:
        """What training can use: the whole card, or the GPU's share of unified memory."""
        return int(self.memory_bytes * self.usable_fraction)

    @property
    def shares_host_memory(self) -> bool:
        """Unified memory (Apple's chips, the MI300A APU): the CPU and the GPU draw on one pool of memory_bytes, the GPU
        at most usable_fraction of it (Metal's recommendedMaxWorkingSetSize, see the preset's source)."""
        return self.gpu_class == "unified memory"

    @property
    def cuda_visible_bytes(self) -> int:
        """The total an engine that asks CUDA sees (vLLM and SGLang take their budget from torch.cuda.mem_get_info):
        the measured CUDA total where the preset has one, else the usable bytes."""
        return self.cuda_total_bytes if self.cuda_total_bytes else self.usable_bytes


def read_preset_json(path: Path) -> Any:
    """A preset data file's JSON; an unreadable or malformed file is one sentence naming it (PresetError)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        # ValueError: malformed JSON, and bytes that are not UTF-8 (UnicodeDecodeError, a traceback of every command
        # before); RecursionError: arrays nested past Python's limit ("[" x 100,000 named the scenario, not the file)
        raise PresetError(
            QT_TRANSLATE_NOOP("engine", "Preset file {name} cannot be read: {exc}"), name=path.name,
            exc=shown(str(exc))) from exc


def preset_number(value: Any, low: float = -math.inf, high: float = math.inf) -> float:
    """A presets file's figure as a float in [low, high]; ValueError for text, true, NaN, inf or out of range (inside
    checked_table: one sentence naming the file; an infinite band was an OverflowError of the estimate)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high or not math.isfinite(
            value):
        raise ValueError(f"{shown(repr(value))[:30]} is not a number from {low:g} to {high:g}")
    return float(value)


def preset_texts(value: Any) -> list[str]:
    """A presets file's list of texts (run ids, sources, names); TypeError otherwise (a NaN in it reached --json)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{shown(repr(value))[:30]} is not a list of texts")
    return value


def checked_table(name: str, data: Any, build: Callable[[Any], _Table]) -> _Table:
    """build(data): the table a preset file's JSON is read into. A field it reads that is missing or of another type
    (the file a list, null or a number, an entry without its key) is one sentence naming the file (DAMAGED), not a
    KeyError / TypeError of every estimate, nor a "could not be read" naming the scenario."""
    try:
        return build(data)
    except PresetError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError) as exc:  # int(inf) too
        entry = shown(str(exc.args[0]))[:60] if isinstance(exc, KeyError) and exc.args else "the file"
        raise PresetError(DAMAGED, name=name, entry=entry, found=shown(f"{type(exc).__name__}: {exc}")[:60]) from exc


DAMAGED = QT_TRANSLATE_NOOP("engine", "Preset file {name} is damaged: {entry} is missing or is not what the estimate "
                                      "reads there ({found}).")
_MODEL_FIELDS = {"id": str, "name": str, "family": str, "source": str, "hf_config": dict, "published_params": int,
                 "published_active_params": int, "published_params_source": str, "published_active_basis": str,
                 "transformers_params": int}


def _checked_model_preset(raw: Any, name: str) -> dict[str, Any]:
    """A model preset file's object with the types its reader and the catalogue take (an id, a config.json object,
    whole-number counts), or one sentence naming the file and the entry (a KeyError or TypeError before)."""
    if not isinstance(raw, dict):
        raise PresetError(DAMAGED, name=name, entry="the file", found=shown(repr(raw))[:60])
    for key, kind in _MODEL_FIELDS.items():
        value = raw.get(key)
        required = key in ("id", "hf_config")
        if (value is None and required) or (value is not None and (not isinstance(value, kind) or isinstance(
                value, bool) or (kind is str and required and not value.strip()))):
            raise PresetError(DAMAGED, name=name, entry=key, found=shown(repr(value))[:60])
    if raw["id"] != Path(name).stem:  # plans name the preset by its id, which is its file's name
        raise PresetError(DAMAGED, name=name, entry="id", found=shown(repr(raw["id"]))[:60])
    return raw


@cache
def _model_catalog() -> tuple[dict[str, ModelPreset], dict[str, PresetError]]:
    """The model presets whose files read as presets (an id, a config.json that describes a model), and per file stem
    of the others the sentence that names the file: one damaged file leaves the other presets, and the window that
    lists them, as they were; a plan naming the damaged one is refused with that sentence."""
    presets: dict[str, ModelPreset] = {}
    damaged: dict[str, PresetError] = {}
    for path in sorted((PRESETS_DIR / "models").glob("*.json")):
        try:
            raw = _checked_model_preset(read_preset_json(path), path.name)
            preset = ModelPreset(
                id=raw["id"],
                name=raw.get("name", raw["id"]),
                family=raw.get("family", "Other"),
                source=raw.get("source", ""),
                hf_config=raw["hf_config"],
                published_params=raw.get("published_params"),
                published_active_params=raw.get("published_active_params"),
                published_params_source=raw.get("published_params_source", ""),
                published_active_basis=raw.get("published_active_basis", "all"),
                transformers_params=raw.get("transformers_params"),
                file=path.name,
            )
            _preset_spec(preset)  # 81 presets build in ~4 ms; a config.json that does not describe a model is damage
        except PresetError as exc:
            damaged[path.stem] = exc
            continue
        presets[preset.id] = preset
    return presets, damaged


def model_presets() -> dict[str, ModelPreset]:
    return _model_catalog()[0]


def damaged_model_presets() -> tuple[PresetError, ...]:
    """One sentence per presets/models file that could not be read as a preset (the window says them at start)."""
    return tuple(_model_catalog()[1].values())


@cache
def gpu_presets() -> dict[str, GpuPreset]:
    return _gpu_catalog()[0]


def damaged_gpu_presets() -> tuple[PresetError, ...]:
    """One sentence per gpus.json entry left out for a damaged field it has (the window says them at start)."""
    return tuple(_gpu_catalog()[1].values())


@cache
def _gpu_catalog() -> tuple[dict[str, GpuPreset], dict[str, PresetError]]:
    """The GPU presets, and per id of an entry whose checked field is damaged (metal_dispatch_seconds) the sentence
    naming the file: that GPU is left out and a plan naming it refused with the sentence; the others, and the window
    (its default plan checks its GPU against the list), start as they were."""
    return checked_table("gpus.json", read_preset_json(PRESETS_DIR / "gpus.json"), _gpu_entries)


def _gpu_entries(entries: list[dict[str, Any]]) -> tuple[dict[str, GpuPreset], dict[str, PresetError]]:
    presets: dict[str, GpuPreset] = {}
    damaged: dict[str, PresetError] = {}
    if not isinstance(entries, list) or not entries:  # a dict would iterate its keys, text its characters; [] is no GPU
        raise TypeError(f"a list of GPUs, not {shown(repr(entries))[:20]}")
    for raw in entries:
        if not isinstance(raw["id"], str) or not raw["id"].isprintable() or not raw["id"]:  # plans name GPUs by it
            raise TypeError(f"id {shown(repr(raw['id']))[:30]}")
        try:
            dispatch = _dispatch_seconds(raw)
        except PresetError as exc:
            damaged[raw["id"]] = exc
            continue
        presets[raw["id"]] = GpuPreset(
            id=raw["id"],
            name=raw["name"],
            vendor=raw.get("vendor", ""),
            gpu_class=raw.get("class", ""),
            memory_bytes=int(raw["memory_bytes"]),
            memory_label=raw.get("memory_label", ""),
            memory_basis=raw.get("memory_basis", ""),
            bf16=bool(raw.get("bf16", True)),
            fp8=bool(raw.get("fp8", False)),
            usable_fraction=float(raw.get("usable_fraction", 1.0)),
            source=raw.get("source", ""),
            notes=raw.get("notes", ""),
            dense_peak_tflops=tuple((k, float(v)) for k, v in (raw.get("dense_peak_tflops") or {}).items()
                                    if v is not None),
            memory_bandwidth_bytes_per_s=_opt_float(raw.get("memory_bandwidth_bytes_per_s")),
            interconnect=raw.get("interconnect", ""),
            interconnect_bandwidth_bytes_per_s=_opt_float(raw.get("interconnect_bandwidth_bytes_per_s")),
            pcie_generation=raw.get("pcie_generation"),
            host_link_bandwidth_bytes_per_s=_opt_float(raw.get("host_link_bandwidth_bytes_per_s")),
            network_bandwidth_bytes_per_s=_opt_float(raw.get("network_bandwidth_bytes_per_s")),
            speed_source=raw.get("speed_source", ""),
            nvlink_domain_gpus=raw.get("nvlink_domain_gpus"),
            cuda_total_bytes=raw.get("cuda_total_bytes"),
            cuda_total_source=raw.get("cuda_total_source", ""),
            cuda_capability=raw.get("cuda_capability", ""),
            metal_dispatch_seconds=dispatch,
            metal_dispatch_source=raw.get("metal_dispatch_source", ""),
        )
    return presets, damaged


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _dispatch_seconds(raw: dict[str, Any]) -> float | None:
    """An Apple GPU's measured time a Metal dispatch (microseconds: 2.75e-06 .. 5.168e-06 s in the file), or one sentence
    naming gpus.json where it is not a positive number below a second (text was a ValueError naming the scenario, NaN
    or a negative time went into the decode step)."""
    value = raw.get("metal_dispatch_seconds")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise PresetError(DAMAGED, name="gpus.json", entry=f"{raw['id']}.metal_dispatch_seconds",
                          found=shown(repr(value))[:60])
    return float(value)


# whole sentences per kind and hint, so each translates as one (a hint or a kind left as an English field did not)
UNKNOWN_PRESET = {
    ("model", True): QT_TRANSLATE_NOOP("engine", "Unknown model preset '{key}'. Did you mean: {close}?"),
    ("model", False): QT_TRANSLATE_NOOP("engine", "Unknown model preset '{key}'. Run 'python main.py presets models' "
                                                  "for the list."),
    ("gpu", True): QT_TRANSLATE_NOOP("engine", "Unknown GPU preset '{key}'. Did you mean: {close}?"),
    ("gpu", False): QT_TRANSLATE_NOOP("engine", "Unknown GPU preset '{key}'. Run 'python main.py presets gpus' for "
                                                "the list."),
}


def _unknown(kind: str, key: str, known: dict[str, Any]) -> PresetError:
    typed = key.lower().replace("_", "-")
    # the ids that contain what was typed ("h100"), else the nearest spellings ("llama-3-8bb", "llama3-8b")
    close = [k for k in known if typed in k][:5] or difflib.get_close_matches(typed, list(known), n=5, cutoff=0.75)
    # the id is user text (a file, an edit): shown on one line, so it cannot start a line of its own
    return PresetError(UNKNOWN_PRESET[kind, bool(close)], key=shown(key), close=", ".join(close))


def get_model_preset(model_id: str) -> ModelPreset:
    presets, damaged = _model_catalog()
    if model_id not in presets:
        if isinstance(model_id, str) and model_id in damaged:
            raise damaged[model_id]
        raise _unknown("model", model_id, presets)
    return presets[model_id]


def _preset_spec(preset: ModelPreset) -> ModelSpec:
    try:
        return model_from_hf_config(preset.hf_config, preset.name)
    except PlannerError as exc:  # a shipped preset's config.json that does not describe a model: its file is damaged
        raise PresetError(QT_TRANSLATE_NOOP("engine", "Preset file {name} is damaged: {why}"), name=preset.file,
                          why=exc.message) from None


@cache
def model_spec_for(model_id: str) -> ModelSpec:
    return _preset_spec(get_model_preset(model_id))


def get_gpu(gpu_id: str) -> GpuPreset:
    presets, damaged = _gpu_catalog()
    if gpu_id in damaged:
        raise damaged[gpu_id]
    if gpu_id not in presets:
        raise _unknown("gpu", gpu_id, presets)
    return presets[gpu_id]


def context_words_of(gpu_id: object) -> tuple[str, str]:
    """GpuPreset.context_words of a scenario's gpu (a preset id); CUDA's words for a custom GPU."""
    presets = gpu_presets()
    return presets[gpu_id].context_words if isinstance(gpu_id, str) and gpu_id in presets else CUDA_CONTEXT_WORDS


def memory_tool_named(gpu_name: str) -> str:
    """memory_tool of the preset of that name (an Estimate carries the GPU's name); nvidia-smi for a custom GPU."""
    preset = next((g for g in gpu_presets().values() if g.name == gpu_name), None)
    return preset.memory_tool if preset is not None else "nvidia-smi"
