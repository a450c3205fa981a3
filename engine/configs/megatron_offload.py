"""Megatron-Core's optimizer CPU offload in a launch script: read into offload "optimizer" with
optimizer_offload_fraction, and written back by export-config.

The flags are those of NVIDIA/Megatron-LM megatron/training/arguments.py at d98e8a64 (lines 2918-2927):
--optimizer-cpu-offload (store_true), --optimizer-offload-fraction (float, default 1.0) and
--overlap-cpu-optimizer-d2h-h2d (store_true); validate_args (line 1884) requires --use-precision-aware-optimizer
with --optimizer-cpu-offload, as the hybrid device optimizer reuses that flag's code path. Megatron-Bridge sets the
same fields of Megatron-Core's OptimizerConfig by override (optimizer.optimizer_cpu_offload=true,
optimizer.optimizer_offload_fraction=F, optimizer.overlap_cpu_optimizer_d2h_h2d=true: NVIDIA-NeMo/Megatron-Bridge
skills/nemo-mbridge-perf-cpu-offloading/SKILL.md at 067f987d), where the fraction's default is OptimizerConfig's 0.0
(megatron/core/optimizer/optimizer_config.py line 350 at d98e8a64), not the command line's 1.0.
"""

from __future__ import annotations

import math
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario import Scenario
from .common import as_bool, shown_value
from .result import Collector

OFFLOAD_FLAG = "--optimizer-cpu-offload"
FRACTION_FLAG = "--optimizer-offload-fraction"
OVERLAP_FLAG = "--overlap-cpu-optimizer-d2h-h2d"
PRECISION_AWARE_FLAG = "--use-precision-aware-optimizer"
# Megatron-Bridge override -> the command-line flag it stands for
BRIDGE_OVERRIDES = {
    "optimizer.optimizer_cpu_offload": OFFLOAD_FLAG,
    "optimizer.optimizer_offload_fraction": FRACTION_FLAG,
    "optimizer.overlap_cpu_optimizer_d2h_h2d": OVERLAP_FLAG,
    "optimizer.use_precision_aware_optimizer": PRECISION_AWARE_FLAG,
}
# the fraction when the switch is on and no fraction is given: arguments.py's default, OptimizerConfig's default
CLI_DEFAULT_FRACTION = 1.0
BRIDGE_DEFAULT_FRACTION = 0.0
SHOWN_CHARS = 40  # a value from the file in a review sentence, quoted and cut short (never echoed raw)


def _fraction(value: Any) -> float | None:
    """A share from 0 to 1, or None."""
    try:
        f = float(str(value).strip())
    except ValueError:
        return None
    return f if math.isfinite(f) and 0.0 <= f <= 1.0 else None


def bridge_flags(overrides: dict[str, str]) -> dict[str, Any]:
    """The offload overrides of a Megatron-Bridge command as the flags they stand for (a switch that reads as off
    is left out; one that reads as neither is kept as written, for the reader to reject)."""
    out: dict[str, Any] = {}
    for key, flag in BRIDGE_OVERRIDES.items():
        if key not in overrides:
            continue
        value = overrides[key]
        if flag == FRACTION_FLAG:
            out[flag] = value
        elif as_bool(value) is not False:
            out[flag] = True if as_bool(value) else value
    return out


def read_optimizer_offload(c: Collector, a: dict[str, Any], bridge: bool = False) -> None:
    """--optimizer-cpu-offload with --optimizer-offload-fraction (or the Bridge overrides, `bridge`) into offload
    "optimizer" and optimizer_offload_fraction; a bad value is one sentence in the review, never an error."""
    src = next((k for k, f in BRIDGE_OVERRIDES.items() if f == OFFLOAD_FLAG), OFFLOAD_FLAG) if bridge else OFFLOAD_FLAG
    frac_src = "optimizer.optimizer_offload_fraction" if bridge else FRACTION_FLAG
    overlap_src = "optimizer.overlap_cpu_optimizer_d2h_h2d" if bridge else OVERLAP_FLAG
    if OVERLAP_FLAG in a:
        c.skip(overlap_src, message(QT_TRANSLATE_NOOP(
            "engine", "not modelled: the planner times the CPU step and the copies one after the other, Megatron's "
            "default, which is the slower case")))
    if OFFLOAD_FLAG not in a:
        if FRACTION_FLAG in a:
            c.skip(frac_src, message(QT_TRANSLATE_NOOP(
                "engine", "without the optimizer CPU offload switch Megatron keeps the whole optimizer on the GPU")))
        return
    if a[OFFLOAD_FLAG] is not True:
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "expected true or false, found {value}"),
                            value=shown_value(a[OFFLOAD_FLAG], SHOWN_CHARS)))
        return
    # validate_args requires it with the offload; it moves the offloaded share's fp32 master weights to the CPU
    # (engine/memory/hybrid_offload.py); Megatron-Bridge's recipes leave OptimizerConfig's False
    aware_src = "optimizer.use_precision_aware_optimizer" if bridge else PRECISION_AWARE_FLAG
    if a.get(PRECISION_AWARE_FLAG) is True:
        c.set("precision_aware_optimizer", True, aware_src)
    else:
        c.use(PRECISION_AWARE_FLAG)
    raw = a.get(FRACTION_FLAG, BRIDGE_DEFAULT_FRACTION if bridge else CLI_DEFAULT_FRACTION)
    fraction = _fraction(raw)
    if fraction is None:
        c.skip(frac_src, message(QT_TRANSLATE_NOOP(
            "engine", "expected a share from 0 to 1, found {value}, so the optimizer offload is left out"),
            value=shown_value(raw, SHOWN_CHARS)))
        c.use(src)
        return
    if fraction == 0.0:
        c.skip(frac_src if FRACTION_FLAG in a else src, message(QT_TRANSLATE_NOOP(
            "engine", "an offload fraction of 0 moves nothing: the optimizer stays on the GPU")))
        c.use(src)
        return
    c.set("offload", "optimizer", src)
    if FRACTION_FLAG in a:
        c.set("optimizer_offload_fraction", fraction, frac_src)
    else:
        c.assume("optimizer_offload_fraction", fraction, message(QT_TRANSLATE_NOOP(
            "engine", "no --optimizer-offload-fraction: Megatron's default is 1.0, all of the Adam moments on the "
            "CPU")))


def offload_flags(s: Scenario) -> list[str]:
    """The export's flags for Megatron's hybrid optimizer offload (none without a fraction: the planner's
    whole-optimizer offload is DeepSpeed's ZeRO-Offload, which Megatron does not have)."""
    if s.offload != "optimizer" or not s.optimizer_offload_fraction:
        return []
    # the precision-aware optimizer runs only under the distributed optimizer (megatron/core/optimizer/__init__.py
    # line 1057), which a ZeRO-1 scenario without distributed_optimizer means here
    sharding = [] if s.distributed_optimizer else ["--use-distributed-optimizer"]
    return sharding + [PRECISION_AWARE_FLAG, OFFLOAD_FLAG, f"{FRACTION_FLAG} {s.optimizer_offload_fraction:g}"]
