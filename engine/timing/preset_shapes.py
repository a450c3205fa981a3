"""The shapes of the presets tables the time model reads deep inside an estimate, checked once when their file is read:
presets/efficiency.json attention_fraction_of_bf16_peak and attention_rate_by_work (the A100 curves, 'triton') and
presets/host_overhead.json hf_eager_layers (Qwen3's counts). A damaged or hand-edited entry is one sentence naming the
file and the entry (PresetError), where it raised TypeError or KeyError in the middle of an estimate and the window
could only name the error's kind (h-fuzz8). Only the shapes the readers index are checked; the figures' sources stay in
the files. No Qt."""

from __future__ import annotations

import math
from typing import Any

from ..errors import PresetError
from ..messages import QT_TRANSLATE_NOOP
from ..scenario.time_keys import ATTENTION_KERNELS

DAMAGED = QT_TRANSLATE_NOOP("engine", "Preset file {name} is damaged: {entry} is missing or is not what the estimate "
                                      "reads there ({found}).")
EAGER_KEYS = ("bf16-sdpa", "amp-sdpa", "bf16-eager", "amp-eager")  # engine/timing/hf_host.py _eager_counts


class _Damaged(Exception):
    def __init__(self, entry: str, found: Any) -> None:
        super().__init__(entry)
        self.entry, self.found = entry, found


def _get(node: Any, key: str, where: str) -> Any:
    """node[key], where node is the table at `where`; the table named where it is not one, the key where it is missing."""
    if not isinstance(node, dict):
        raise _Damaged(where or "the file", node)
    if key not in node:
        raise _Damaged(f"{where}.{key}", "no such entry")
    return node[key]


def _number(value: Any, where: str, most: float = math.inf, zero: bool = False) -> None:
    """A finite number above 0 (at least 0 where zero) and at most `most`; a bool is not one."""
    good = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if not good or not (value >= 0 if zero else value > 0) or value > most:
        raise _Damaged(where, value)


def _points(value: Any, where: str) -> None:
    """[[tokens, forward TFLOP/s, backward TFLOP/s], ...], at least one."""
    if not isinstance(value, list) or not value:
        raise _Damaged(where, value)
    for i, point in enumerate(value):
        if not isinstance(point, list) or len(point) != 3:
            raise _Damaged(f"{where}[{i}]", point)
        for part in point:
            _number(part, f"{where}[{i}]")


def _fractions(data: dict[str, Any]) -> None:
    table = _get(data, "attention_fraction_of_bf16_peak", "")
    for kernel in (k for k in ATTENTION_KERNELS if k != "auto"):
        rows = _get(table, kernel, "attention_fraction_of_bf16_peak")
        where = f"attention_fraction_of_bf16_peak.{kernel}"
        if not isinstance(rows, dict):
            raise _Damaged(where, rows)
        _number(_get(rows, "default", where), f"{where}.default", most=1.0)
        for family, value in rows.items():
            if family == "_gpu":
                if not isinstance(value, dict):
                    raise _Damaged(f"{where}._gpu", value)
                for gpu, fraction in value.items():
                    _number(fraction, f"{where}._gpu.{gpu}", most=1.0)
            elif not family.startswith("_"):
                _number(value, f"{where}.{family}", most=1.0)


def _rates_by_work(data: dict[str, Any]) -> None:
    where = "attention_rate_by_work"
    table = _get(data, where, "")
    reference = _get(table, "reference_seq", where)
    _number(reference, f"{where}.reference_seq")
    _number(_get(table, "benchmark_flops_per_seq_squared", where), f"{where}.benchmark_flops_per_seq_squared")
    for kernel, gpus in table.items():
        if kernel.startswith("_") or kernel in ("reference_seq", "benchmark_flops_per_seq_squared"):
            continue
        if not isinstance(gpus, dict):
            raise _Damaged(f"{where}.{kernel}", gpus)
        for gpu, entry in gpus.items():
            if not gpu.startswith("_"):
                _rate_entry(entry, f"{where}.{kernel}.{gpu}", reference, no_mask=kernel == "no_mask")


def _rate_entry(entry: Any, where: str, reference: Any, no_mask: bool) -> None:
    if no_mask:  # no_mask.<kernel>.<gpu>: a table measured without a mask, over its own causal reference call
        if not isinstance(entry, dict):
            raise _Damaged(where, entry)
        for gpu, own in entry.items():
            _points([_get(own, "causal_reference", f"{where}.{gpu}")], f"{where}.{gpu}.causal_reference")
            _number(_get(own, "batch_heads", f"{where}.{gpu}"), f"{where}.{gpu}.batch_heads")
            _points(_get(own, "points", f"{where}.{gpu}"), f"{where}.{gpu}.points")
        return
    if isinstance(entry, list):  # the benchmark's own heads: its reference length among the points
        _points(entry, where)
        if not any(point[0] == reference for point in entry):
            raise _Damaged(where, f"no point at reference_seq {reference}")
        return
    for key in ("query_heads", "reference_flops"):
        _number(_get(entry, key, where), f"{where}.{key}")
    if "batch_tokens" in entry:
        _number(entry["batch_tokens"], f"{where}.batch_tokens")
    _points(_get(entry, "points", where), f"{where}.points")
    if "no_mask_points" in entry:
        _points(entry["no_mask_points"], f"{where}.no_mask_points")


def _eager_layers(data: dict[str, Any]) -> None:
    where = "hf_eager_layers"
    table = _get(data, where, "")
    fields = _get(table, "fields", where)
    if not isinstance(fields, list) or not fields or not all(isinstance(f, str) for f in fields):
        raise _Damaged(f"{where}.fields", fields)
    by_type = _get(table, "by_model_type", where)
    _get(by_type, _get(table, "fallback", where), f"{where}.by_model_type")
    for model_type, entries in by_type.items():
        for key in EAGER_KEYS:
            entry = _get(entries, key, f"{where}.by_model_type.{model_type}")
            at = f"{where}.by_model_type.{model_type}.{key}"
            for part in ("per_layer", "per_step"):
                counts = _get(entry, part, at)
                if not isinstance(counts, list) or len(counts) != len(fields):
                    raise _Damaged(f"{at}.{part}", counts)
                for i, count in enumerate(counts):
                    _number(count, f"{at}.{part}[{i}]", zero=True)
            decode = entry.get("decode_per_layer", [0.0] * 4)  # the forward fields only (python calls .. modules)
            if not isinstance(decode, list) or len(decode) != 4:
                raise _Damaged(f"{at}.decode_per_layer", decode)
            for i, count in enumerate(decode):
                _number(count, f"{at}.decode_per_layer[{i}]", zero=True)
            _pairs(entry, at)


def _pairs(entry: dict[str, Any], at: str) -> None:
    """in_op_launches (forward, backward) per part and frozen_backward's three counts, where the entry has them."""
    launches = entry.get("in_op_launches", {})
    if not isinstance(launches, dict):
        raise _Damaged(f"{at}.in_op_launches", launches)
    for part, pair in launches.items():
        if not isinstance(pair, list) or len(pair) != 2:
            raise _Damaged(f"{at}.in_op_launches.{part}", pair)
        for value in pair:
            _number(value, f"{at}.in_op_launches.{part}", zero=True)
    frozen = entry.get("frozen_backward", [0, 0, 0])
    if not isinstance(frozen, list) or len(frozen) != 3:
        raise _Damaged(f"{at}.frozen_backward", frozen)
    for value in frozen:
        _number(value, f"{at}.frozen_backward", zero=True)


def _checked(data: Any, name: str, *checks: Any) -> Any:
    try:
        if not isinstance(data, dict):
            raise _Damaged("the file", type(data).__name__)
        for check in checks:
            check(data)
    except _Damaged as exc:
        found = repr(exc.found) if not isinstance(exc.found, str) else exc.found
        raise PresetError(DAMAGED, name=name, entry=exc.entry.lstrip("."), found=found[:60]) from None
    return data


def checked_efficiency(data: Any, name: str = "efficiency.json") -> Any:
    """presets/efficiency.json with its attention tables' shapes checked (PresetError naming the entry)."""
    return _checked(data, name, _fractions, _rates_by_work)


def checked_host(data: Any, name: str = "host_overhead.json") -> Any:
    """presets/host_overhead.json with hf_eager_layers' shapes checked (PresetError naming the entry)."""
    return _checked(data, name, _eager_layers)
