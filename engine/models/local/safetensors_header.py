"""Read the header of a .safetensors file, and only the header: never tensor data, never pickle.

Format (https://huggingface.co/docs/safetensors, "Format"): an 8-byte little-endian unsigned length N, then N bytes
of UTF-8 JSON: {"__metadata__": {str: str}, "<tensor name>": {"dtype": "BF16", "shape": [..], "data_offsets":
[begin, end]}, ...}, then the tensor bytes. The header is untrusted: its length is capped (the format's own 100 MB
limit, and the file's size), it must be a JSON object of the documented shape, offsets must lie inside the file and
match dtype x shape. Anything else is refused with one sentence.
"""

from __future__ import annotations

import json
import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from ...errors import PlannerError
from ...messages import QT_TRANSLATE_NOOP
from .hf_cache import shown_name

MAX_HEADER_BYTES = 100_000_000  # safetensors refuses larger headers (HeaderTooLarge)
# Tensors in one file. Released checkpoints hold hundreds to tens of thousands per file (a single-file GPTQ MoE
# of 128 experts x 48 layers: ~74,000); a 66 MB header of 1,000,000 froze the window 33 s at 900 MB, so more than
# this is refused before the JSON is parsed (each tensor's entry is a JSON object: one "{" each, counted in C).
MAX_TENSORS = 200_000
# dtype -> bits per element (safetensors Dtype enum)
DTYPE_BITS = {"BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "F4": 4, "F6_E2M3": 6,
              "F6_E3M2": 6, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
              "I64": 64, "U64": 64, "F64": 64}


class SafetensorsError(PlannerError):
    """A .safetensors file whose header cannot be trusted or read; str() says why in one sentence."""


@dataclass(frozen=True, slots=True)
class TensorInfo:
    name: str
    dtype: str
    shape: tuple[int, ...]

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self) -> int:
        return (self.numel * DTYPE_BITS[self.dtype] + 7) // 8


@dataclass(frozen=True)
class SafetensorsHeader:
    path: Path
    tensors: tuple[TensorInfo, ...]
    metadata: dict[str, str]


def _refuse(template: str, **params: object) -> SafetensorsError:
    return SafetensorsError(template, **params)


def read_header(path: str | os.PathLike[str], max_header_bytes: int = MAX_HEADER_BYTES) -> SafetensorsHeader:
    """Parse and check the header of one .safetensors file (reads 8 + N bytes at most)."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} cannot be opened: {why}."), name=p.name,
                      why=exc.strerror or exc) from exc
    info = os.fstat(fd)  # checked on the open descriptor: a file swapped in after a check is still caught
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} is not a regular file."), name=p.name)
    with os.fdopen(fd, "rb") as f:
        size = info.st_size
        head = f.read(8)
        if len(head) < 8:
            raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} is too short to be a safetensors file."), name=p.name)
        (n,) = struct.unpack("<Q", head)
        if n > max_header_bytes:
            raise _refuse(QT_TRANSLATE_NOOP(
                "engine", "{name} declares a {n}-byte header, more than the {limit} bytes safetensors allows."),
                name=p.name, n=n, limit=max_header_bytes)
        if n > size - 8:
            raise _refuse(QT_TRANSLATE_NOOP(
                "engine", "{name} declares a header longer than the file: it is truncated or not safetensors."),
                name=p.name)
        raw = f.read(n)
    if raw.count(b"{") - 1 > MAX_TENSORS:  # the braces bound the entries from above; the header's own is not one
        raise _refuse(QT_TRANSLATE_NOOP(
            "engine", "{name} lists more than {limit} tensors, more than any released checkpoint file holds."),
            name=p.name, limit=f"{MAX_TENSORS:,}")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} has a header that is not JSON text."), name=p.name) from exc
    return _check(p, doc, size - 8 - n)


def _well_formed(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in DTYPE_BITS or not isinstance(shape, list) or not isinstance(offsets, list) or len(offsets) != 2:
        return False
    if len(shape) > 16 or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 2**48 for d in shape):
        return False
    return all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)


def _check(p: Path, doc: object, data_bytes: int) -> SafetensorsHeader:
    if not isinstance(doc, dict):
        raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} has a header that is not a JSON object."), name=p.name)
    if len(doc) > MAX_TENSORS + 1:  # entries that are not objects escape the count of braces
        raise _refuse(QT_TRANSLATE_NOOP(
            "engine", "{name} lists more than {limit} tensors, more than any released checkpoint file holds."),
            name=p.name, limit=f"{MAX_TENSORS:,}")
    meta = doc.get("__metadata__", {})
    if not isinstance(meta, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} has __metadata__ that is not text keys and values."),
                      name=p.name)
    tensors = []
    spans = []
    for name, entry in doc.items():
        if name == "__metadata__":
            continue
        if not _well_formed(entry):  # the error is made only when needed: not one object per tensor
            raise _refuse(QT_TRANSLATE_NOOP("engine", "{name}: the entry of tensor '{tensor}' is malformed."),
                          name=p.name, tensor=shown_name(str(name)))
        dtype, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        t = TensorInfo(str(name), dtype, tuple(shape))
        if not 0 <= begin <= end <= data_bytes or end - begin != t.nbytes:
            raise _refuse(QT_TRANSLATE_NOOP(
                "engine", "{name}: tensor '{tensor}' points outside the file or does not match its dtype and shape."),
                name=p.name, tensor=shown_name(str(name)))
        tensors.append(t)
        spans.append((begin, end))
    spans.sort()
    for (_, a_end), (b_begin, _) in zip(spans, spans[1:], strict=False):
        if b_begin < a_end:
            raise _refuse(QT_TRANSLATE_NOOP("engine", "{name} has tensors that overlap: it is not a valid file."),
                          name=p.name)
    return SafetensorsHeader(p, tuple(tensors), dict(meta))
