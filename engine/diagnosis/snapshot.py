"""A memory snapshot (torch.cuda.memory._dump_snapshot) attributed to the plan's categories.

The snapshot (read by plain_pickle: data only) holds "segments" (what is reserved now, with its blocks) and
"device_traces" (one list per GPU of {"action", "addr", "size", "frames", ...}: alloc, free_requested,
free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom). Each allocation's category
comes from where it was made and where it was freed, read from the Python frames recorded with it:
- made while loading (from_pretrained, load_state_dict, module._apply): weights;
- made in the optimizer (torch/optim, _init_group): optimizer state if never freed, temporaries otherwise;
- made in backward: gradients if they live until the optimizer step (or on), temporaries otherwise;
- made in forward: logits if under the loss (cross_entropy, log_softmax) or the size of whole logits rows (with the
  scenario's vocabulary), activations if freed in backward or later, else temporaries;
- reserved but not allocated at the peak: allocator cache; anything else (or made before recording began): other.
Work is bounded: at most MAX_EVENTS events, FRAMES_LOOKED_AT frames of each, and a deadline.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, message
from .measured import CATEGORIES, MeasuredMemory, downsample
from .plain_pickle import MAX_SECONDS, load_plain_pickle, too_slow

MAX_EVENTS = 2_000_000
FRAMES_LOOKED_AT = 32
LOAD, FWD, LOSS, BWD, OPT = 1, 2, 4, 8, 16
NEVER = 0  # not freed by the end of the trace
FRAME_WORDS = (
    (OPT, ("torch/optim/", "/optim/", "optimizer.py", "_init_group", "zero_grad", "_optimizer_step", "adam")),
    (BWD, ("backward", "autograd", "run_backward")),
    (LOAD, ("from_pretrained", "load_state_dict", "set_module_tensor_to_device", "_apply", "to_empty",
            "reset_parameters", "init_weights", "load_checkpoint")),
    (LOSS, ("lm_head", "logits", "cross_entropy", "log_softmax", "loss_utils")),
    (FWD, ("forward", "_call_impl", "modeling_")),
)


def _classify(filename: object, name: object) -> int:
    if not isinstance(filename, str) or not isinstance(name, str):
        return 0
    text = f"{filename[-200:]}:{name[:200]}".lower()
    return sum(bit for bit, words in FRAME_WORDS if any(w in text for w in words))


def _mask(entry: dict[str, Any], memo: dict[Any, int]) -> int:
    """The phases named by an entry's frames (OR of each frame's bits; each distinct frame classified once)."""
    frames = entry.get("frames")
    if type(frames) is not list:
        return 0
    mask = 0
    for frame in frames[:FRAMES_LOOKED_AT]:
        try:
            key = (frame["filename"], frame["name"])
            bits = memo.get(key)
        except (TypeError, KeyError, IndexError):  # not a frame dict, or an unhashable value: no phase
            continue
        if bits is None:
            bits = memo[key] = _classify(*key)
        mask |= bits
    return mask


def is_logits_size(size: int, vocab_size: int | None) -> bool:
    """A forward allocation the size of whole logits rows: a multiple of vocab x 2 or 4 bytes (bf16 or fp32) for at
    least 64 tokens, within the allocator's 512-byte rounding."""
    if not vocab_size or size < vocab_size * 2 * 64:
        return False
    return any(size % (vocab_size * width) < 512 for width in (2, 4))


def categorize(made: int, freed: int | None) -> str:
    """The category of an allocation from the phases it was made in and freed in (None: never freed)."""
    if made & OPT:
        return "optimizer state" if freed is None else "temporaries"
    if made & BWD:
        return "gradients" if freed is None or freed & OPT else "temporaries"
    if made & LOAD:
        return "weights"
    if made & LOSS:
        return "logits"
    if made & FWD:
        return "activations" if freed is None or freed & (BWD | OPT) else "temporaries"
    return "other"


def read_snapshot(data: bytes, vocab_size: int | None = None) -> MeasuredMemory:
    """The measured memory of the busiest GPU of a pickled snapshot; PlannerError in one sentence otherwise."""
    snap = load_plain_pickle(data)
    if not isinstance(snap, dict) or not isinstance(snap.get("segments"), list) or \
            not isinstance(snap.get("device_traces", []), list):
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This pickle is not a memory snapshot: it has no segments "
                                                       "and device traces."))
    traces = [t if isinstance(t, list) else [] for t in snap.get("device_traces", [])]
    if sum(len(t) for t in traces) > MAX_EVENTS:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This snapshot has more than {limit} trace events; record "
                                                       "fewer (max_entries)."), limit=f"{MAX_EVENTS:,}")
    device = max(range(len(traces)), key=lambda d: len(traces[d])) if traces else 0
    # an entry is followed by its address (torch writes an int); one whose address is a list or a dict could not be
    # matched to its free and stopped the reading with a TypeError: it is no entry of a snapshot, so it is left out
    events = [e for e in (traces[device] if traces else []) if isinstance(e, dict) and _hashable(e.get("addr"))]
    return _attribute(events, _segments_of(snap["segments"], device), device, vocab_size)


def _hashable(value: Any) -> bool:
    return value is None or type(value) in (int, float, str, bool, bytes)


def _int(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value < 1 << 50 else None


def _segments_of(segments: list[Any], device: int) -> tuple[int, int]:
    """(allocated, reserved) bytes of the device's segments at the snapshot's moment."""
    allocated = reserved = 0
    for seg in segments:
        if not isinstance(seg, dict) or seg.get("device", device) != device:
            continue
        reserved += _int(seg.get("total_size")) or 0
        for block in seg.get("blocks", []) if isinstance(seg.get("blocks"), list) else []:
            if isinstance(block, dict) and block.get("state") == "active_allocated":
                allocated += _int(block.get("size")) or 0
    return allocated, reserved


def _lifetimes(events: list[dict[str, Any]], free_action: str, deadline: float, vocab_size: int | None
               ) -> dict[int, str]:
    """Event number of each allocation -> its category."""
    memo: dict[Any, int] = {}
    open_allocs: dict[Any, tuple[int, int]] = {}
    category: dict[int, str] = {}
    for i, e in enumerate(events):
        if i % 65_536 == 0 and time.monotonic() > deadline:
            raise too_slow(MAX_SECONDS)
        action = e.get("action")
        if action == "alloc":
            made = _mask(e, memo)
            if made & FWD and not made & (BWD | OPT) and is_logits_size(_int(e.get("size")) or 0, vocab_size):
                made |= LOSS
            open_allocs[e.get("addr")] = (i, made)
        elif action == free_action and (opened := open_allocs.pop(e.get("addr"), None)) is not None:
            category[opened[0]] = categorize(opened[1], _mask(e, memo))
    for i, made in open_allocs.values():
        category[i] = categorize(made, None)
    return category


def _attribute(events: list[dict[str, Any]], at_snapshot: tuple[int, int], device: int,
               vocab_size: int | None) -> MeasuredMemory:
    deadline = time.monotonic() + MAX_SECONDS
    free_action = "free_completed" if any(e.get("action") == "free_completed" for e in events) else "free_requested"
    category = _lifetimes(events, free_action, deadline, vocab_size)
    totals = dict.fromkeys(CATEGORIES, 0)
    live: dict[Any, tuple[str, int]] = {}
    reserved = 0
    points: list[tuple[float, int, int | None]] = []
    peak, at_peak, peak_reserved = -1, dict(totals), 0
    t0 = next((e["time_us"] for e in events if _int(e.get("time_us")) is not None), None)
    for i, e in enumerate(events):
        action, size = e.get("action"), _int(e.get("size")) or 0
        if action == "alloc" and i in category:
            live[e.get("addr")] = (category[i], size)
            totals[category[i]] += size
        elif action == free_action and (held := live.pop(e.get("addr"), None)) is not None:
            totals[held[0]] -= held[1]
        elif action in ("segment_alloc", "segment_map"):
            reserved += size
        elif action in ("segment_free", "segment_unmap"):
            reserved -= size
        else:
            continue
        allocated = sum(totals.values())
        x = float(e["time_us"] - t0) if t0 is not None and _int(e.get("time_us")) is not None else float(i)
        points.append((x, allocated, reserved))
        if allocated > peak:
            peak, at_peak, peak_reserved = allocated, dict(totals), reserved
    return _measured(events, points, max(peak, 0), at_peak, peak_reserved, at_snapshot, device, t0 is not None)


def _measured(events: list[dict[str, Any]], points: list[tuple[float, int, int | None]], peak: int,
              at_peak: dict[str, int], peak_reserved: int, at_snapshot: tuple[int, int], device: int,
              timed: bool) -> MeasuredMemory:
    """Adds what was there before recording began (the snapshot's segments minus what the trace leaves alive)."""
    traced_alive = points[-1][1] if points else 0
    traced_reserved = points[-1][2] or 0 if points else 0
    before_allocated = max(0, at_snapshot[0] - traced_alive)
    before_reserved = max(0, at_snapshot[1] - traced_reserved)
    at_peak["other"] += before_allocated
    total = peak + before_allocated
    reserved = peak_reserved + before_reserved
    at_peak["allocator cache"] = max(0, reserved - total)
    notes = () if not before_allocated else (message(QT_TRANSLATE_NOOP(
        "engine", "{bytes} bytes were allocated before recording began; they count as other."),
        bytes=f"{before_allocated:,}"),)
    shifted = [(x, a + before_allocated, (r or 0) + before_reserved) for x, a, r in points]
    return MeasuredMemory("snapshot", device, total, reserved, tuple(at_peak.items()), downsample(shifted),
                          "us" if timed else "event", len(events), notes)
