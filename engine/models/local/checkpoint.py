"""What a checkpoint's safetensors headers say: parameter count, stored dtypes and quantisation.

Quantised formats store several parameters per element and keep scales beside them; the count follows each
format's packing (the libraries that write them define it):
- bitsandbytes 4-bit (NF4/FP4): uint8 weight, 2 parameters per byte, with `.absmax`, `.quant_map`, `.quant_state.*`.
- bitsandbytes 8-bit (LLM.int8): int8 weight with `.SCB`.
- GPTQ / AWQ: int32 `.qweight` packing 8 four-bit values, with `.qzeros` and `.scales`.
- MXFP4 (gpt-oss): uint8 `*_blocks` (2 values per byte) with E8M0 `*_scales`, one per 32 values.
- FP8 (DeepSeek-V3, Kimi-K2 releases): F8_E4M3/F8_E5M2 weights, one element per parameter, with `weight_scale_inv`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .safetensors_header import SafetensorsHeader, TensorInfo, read_header

# names of tensors that are quantisation bookkeeping, not parameters of the model
_AUX_SUFFIXES = (".absmax", ".quant_map", ".nested_absmax", ".nested_quant_map", ".SCB", ".weight_format",
                 ".qzeros", ".scales", ".g_idx", "_scales", ".weight_scale_inv", ".weight_scale", ".input_scale")


@dataclass(frozen=True)
class CheckpointSummary:
    files: int
    params: int
    stored_bytes: int
    dtypes: dict[str, int] = field(default_factory=dict)  # dtype -> parameters stored in it
    quantization: str = ""  # "" | bnb-4bit | bnb-8bit | gptq/awq-4bit | mxfp4 | fp8
    files_found: int = 0  # *.safetensors files in the folder; more than `files` when the limit left some unread

    @property
    def main_dtype(self) -> str:
        stored = {k: n for k, n in self.dtypes.items() if n > 0}  # a file of empty tensors names no dtype
        return max(stored, key=lambda k: stored[k]) if stored else ""


def _is_aux(t: TensorInfo) -> bool:
    return ".quant_state." in t.name or t.name.endswith(_AUX_SUFFIXES)


def _params(t: TensorInfo, names: set[str]) -> tuple[int, str]:
    """(parameters, quantisation kind) of one stored tensor."""
    base = t.name.removesuffix(".weight")
    if t.name.endswith(".qweight") and t.dtype == "I32":
        return t.numel * 8, "gptq/awq-4bit"
    if t.name.endswith("_blocks") and t.dtype == "U8":
        return t.numel * 2, "mxfp4"
    if t.dtype == "U8" and f"{t.name}.absmax" in names:
        return t.numel * 2, "bnb-4bit"
    if t.dtype == "I8" and (f"{base}.SCB" in names or f"{t.name}.SCB" in names):
        return t.numel, "bnb-8bit"
    if t.dtype.startswith("F8_") and t.dtype != "F8_E8M0":
        return t.numel, "fp8"
    return t.numel, ""


def summarize(headers: Iterable[SafetensorsHeader]) -> CheckpointSummary:
    files = params = stored = 0
    dtypes: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for header in headers:
        files += 1
        names = {t.name for t in header.tensors}
        for t in header.tensors:
            stored += t.nbytes
            if _is_aux(t):
                continue
            n, kind = _params(t, names)
            params += n
            label = kind or t.dtype
            dtypes[label] = dtypes.get(label, 0) + n
            if kind:
                kinds[kind] = kinds.get(kind, 0) + n
    quant = max(kinds, key=lambda k: kinds[k]) if kinds else ""
    return CheckpointSummary(files, params, stored, dtypes, quant, files)


MAX_FILES = 500  # shards read per folder; released checkpoints have at most a few hundred (DeepSeek-V3: 163)
# tensors read per folder (DeepSeek-V3's 163 shards hold ~91,000): files past it are left unread, as past
# MAX_FILES, so 500 files of 200,000 tensors each cannot keep the window busy for minutes
MAX_FOLDER_TENSORS = 1_000_000


def _headers(paths: list[Path]) -> Iterable[SafetensorsHeader]:
    seen = 0
    for path in paths:
        if seen >= MAX_FOLDER_TENSORS:
            return
        header = read_header(path)
        seen += len(header.tensors)
        yield header


def summarize_folder(folder: str | Path, max_files: int = MAX_FILES) -> CheckpointSummary | None:
    """Summary of the first `max_files` *.safetensors files of a model folder by name (None when there is none);
    files_found says how many there are."""
    paths = sorted(Path(folder).glob("*.safetensors"))
    if not paths:
        return None
    summary = summarize(_headers(paths[:max_files]))
    return replace(summary, files_found=len(paths))
