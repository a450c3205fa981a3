"""Sizes as PyTorch's allocator prints them ("130.00 MiB", "0 bytes", "1024.00 KiB") read back into bytes.

c10's format_size (c10/cuda/CUDACachingAllocator.cpp, every release from 1.0 to today) prints "N bytes" up to 1 KiB,
then KiB, MiB and GiB with two decimals; the binary prefixes are what it means. Loggers and people also write
"14.9 GiB" or "GB", read here the way the text says them (GB as 10^9 bytes).
"""

from __future__ import annotations

import re

UNIT_BYTES: dict[str, int] = {
    "bytes": 1, "byte": 1, "b": 1,
    "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
}
# Bounded digits and no nested repetition: a match costs at most a few dozen steps wherever it starts, so a
# search over n characters is linear in n however the text is made (no catastrophic backtracking).
SIZE = r"(?<![\d.])(\d{1,15}(?:\.\d{1,9})?) ?(bytes|byte|[KMGT]iB|[KMGT]B|B)\b"
SIZE_RE = re.compile(SIZE, re.IGNORECASE)
# A figure above this is not a GPU's memory: 2^64 bytes is what NVML gives back for a process whose memory it
# cannot see (WSL, some drivers), printed as "17179869184.00 GiB" in real reports.
PLAUSIBLE_MAX_BYTES = 1 << 50


def size_bytes(number: str, unit: str) -> int | None:
    """Bytes of one printed size; None when it cannot be a GPU's memory (over a petabyte)."""
    value = float(number) * UNIT_BYTES[unit.lower()]
    return round(value) if value < PLAUSIBLE_MAX_BYTES else None


def first_size(pattern: re.Pattern[str], text: str) -> int | None:
    """Bytes of the size captured by `pattern` (groups: number, unit) in `text`, or None."""
    m = pattern.search(text)
    return size_bytes(m.group(1), m.group(2)) if m else None
