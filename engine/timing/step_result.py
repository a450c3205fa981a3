"""What a step time is: its terms (BREAKDOWN_KEYS, their names and formulas), the StepTime result the time model
(model.py step_time) returns, and its JSON form (`estimate --json`'s `time` object)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message
from ..range_words import run_range_message
from .bands import Band, seconds_range
from .formulas import FORMULAS
from .mfu import MFU_BF16_DEFINITION, MFU_DEFINITION, MFU_WHOLE_ATTENTION_DEFINITION

BREAKDOWN_KEYS = ("compute", "memory_bound", "recompute", "communication_tp", "communication_cp", "communication_ep",
                  "communication_pp", "communication_dp", "bubble", "offload", "optimizer", "host")
TERM_NAMES = {
    "compute": QT_TRANSLATE_NOOP("engine", "Matmuls and attention"),
    "memory_bound": QT_TRANSLATE_NOOP("engine", "Memory-bound operations"),
    "recompute": QT_TRANSLATE_NOOP("engine", "Recomputation (checkpointing)"),
    "communication_tp": QT_TRANSLATE_NOOP("engine", "Tensor-parallel communication"),
    "communication_cp": QT_TRANSLATE_NOOP("engine", "Context-parallel communication"),
    "communication_ep": QT_TRANSLATE_NOOP("engine", "Expert-parallel all-to-all"),
    "communication_pp": QT_TRANSLATE_NOOP("engine", "Pipeline sends"),
    "communication_dp": QT_TRANSLATE_NOOP("engine", "Data-parallel / ZeRO communication"),
    "bubble": QT_TRANSLATE_NOOP("engine", "Pipeline bubble"),
    "offload": QT_TRANSLATE_NOOP("engine", "Offload transfers and CPU optimizer"),
    "optimizer": QT_TRANSLATE_NOOP("engine", "Optimizer step"),
    "host": QT_TRANSLATE_NOOP("engine", "Waiting for the host (kernel launches, syncs)"),
}


@dataclass(frozen=True, slots=True)
class TimeTerm:
    key: str
    name: str
    seconds: float  # per optimizer step, on the slowest rank; the terms add up to the step
    formula: str


@dataclass(frozen=True, init=False)
class StepTime:
    step_seconds: float
    tokens_per_step: int
    tokens_per_second: float
    tokens_per_second_per_gpu: float
    mfu: float
    model_flops_per_token: float
    world_size: int
    seconds: tuple[float, ...]  # per BREAKDOWN_KEYS, calibration applied
    calibration_factor: float = 1.0
    time_to_train_seconds: float | None = None
    gpu_hours: float | None = None
    cost: float | None = None
    notes: tuple[Message, ...] = ()
    mfu_bf16_peak: float = 0.0  # the same FLOPs against the bf16 peak (differs from mfu for fp8 only)
    band: Band | None = None  # the cross-validated error band of the step's regime (bands.py)
    mfu_attention_whole: float = 0.0  # the MFU with every attention key counted (PaLM, torchtitan, nanoGPT)

    def __init__(self, step_seconds: float, tokens_per_step: int, tokens_per_second: float,
                 tokens_per_second_per_gpu: float, mfu: float, model_flops_per_token: float, world_size: int,
                 seconds: tuple[float, ...], calibration_factor: float = 1.0, time_to_train_seconds: float | None = None,
                 gpu_hours: float | None = None, cost: float | None = None, notes: tuple[Message, ...] = (),
                 mfu_bf16_peak: float = 0.0, band: Band | None = None, mfu_attention_whole: float = 0.0) -> None:
        # Written out, one dict update (as breakdown.Estimate's): the generated __init__ of a frozen dataclass sets
        # its 15 fields one object.__setattr__ at a time, and the speed search makes thousands (time_speed.py)
        self.__dict__.update(
            step_seconds=step_seconds, tokens_per_step=tokens_per_step, tokens_per_second=tokens_per_second,
            tokens_per_second_per_gpu=tokens_per_second_per_gpu, mfu=mfu, model_flops_per_token=model_flops_per_token,
            world_size=world_size, seconds=seconds, calibration_factor=calibration_factor,
            time_to_train_seconds=time_to_train_seconds, gpu_hours=gpu_hours, cost=cost, notes=notes,
            mfu_bf16_peak=mfu_bf16_peak, band=band, mfu_attention_whole=mfu_attention_whole)

    @property
    def seconds_range(self) -> tuple[float, float]:
        """Where the measured step likely falls: the step stretched by its regime's error band (bands.py)."""
        return seconds_range(self.step_seconds, self.band) if self.band is not None else (0.0, 0.0)

    def run_range(self, value: float) -> tuple[float, float]:
        """A figure proportional to the step time (time to train, GPU-hours, cost: tokens / tokens per second, each
        step as long as the one timed) over the step's likely range; (0, 0) without a band, as seconds_range."""
        low, high = self.seconds_range
        return (value * low / self.step_seconds, value * high / self.step_seconds) if self.step_seconds > 0 \
            else (0.0, 0.0)

    @property
    def terms(self) -> tuple[TimeTerm, ...]:
        """Where the step's time goes, term by term (they add up to step_seconds)."""
        return tuple(TimeTerm(k, TERM_NAMES[k], v, FORMULAS[k]) for k, v in zip(BREAKDOWN_KEYS, self.seconds,
                                                                                  strict=True))

    @property
    def breakdown_seconds(self) -> dict[str, float]:
        return dict(zip(BREAKDOWN_KEYS, self.seconds, strict=True))


def run_range_words(t: StepTime, currency: str) -> Message | None:
    """The time to train, GPU-hours and cost over the step's likely range ("likely 19.4 h to 24.6 h, 310 to 395
    GPU-hours, cost 776 to 987 USD"); None without tokens to train or a band."""
    if t.band is None or t.time_to_train_seconds is None:
        return None
    return run_range_message(t.run_range(t.time_to_train_seconds), t.run_range(t.gpu_hours or 0.0),
                             t.run_range(t.cost) if t.cost is not None else None, currency)


def time_to_json(t: StepTime) -> dict[str, Any]:
    """The `time` object of `estimate --json` and of each `fit --json` plan."""
    out: dict[str, Any] = {
        "step_seconds": t.step_seconds,
        "tokens_per_step": t.tokens_per_step, "tokens_per_second": t.tokens_per_second,
        "tokens_per_second_per_gpu": t.tokens_per_second_per_gpu, "mfu": t.mfu,
        "mfu_definition": MFU_DEFINITION,
        "model_flops_per_token": t.model_flops_per_token,
        "breakdown_seconds": t.breakdown_seconds,
        "calibration_factor": t.calibration_factor,
        "notes": [str(n) for n in t.notes],
    }
    if t.band is not None:  # where the measured step likely falls, from the cross-validated error of the regime
        out["step_seconds_range"] = list(t.seconds_range)
        out["step_seconds_range_basis"] = {"regime": t.band.regime, "published_runs": t.band.runs,
                                           "published_sources": t.band.sources,
                                           "error_p10": t.band.low, "error_p90": t.band.high}
    if t.mfu_bf16_peak != t.mfu:  # fp8: the bf16-referenced convention as a second, labelled figure
        out["mfu_bf16_peak"] = t.mfu_bf16_peak
        out["mfu_bf16_peak_definition"] = MFU_BF16_DEFINITION
    if t.mfu_attention_whole and t.mfu_attention_whole != t.mfu:  # the convention torchtitan and nanoGPT print
        out["mfu_attention_whole"] = t.mfu_attention_whole
        out["mfu_attention_whole_definition"] = MFU_WHOLE_ATTENTION_DEFINITION
    if t.time_to_train_seconds is not None:
        out["time_to_train_seconds"] = t.time_to_train_seconds
        out["gpu_hours"] = t.gpu_hours
        if t.cost is not None:
            out["cost"] = t.cost
        if t.band is not None:  # the same multiples of the step's range: each is proportional to the step time
            out["time_to_train_seconds_range"] = list(t.run_range(t.time_to_train_seconds))
            out["gpu_hours_range"] = list(t.run_range(t.gpu_hours or 0.0))
            if t.cost is not None:
                out["cost_range"] = list(t.run_range(t.cost))
    return out
