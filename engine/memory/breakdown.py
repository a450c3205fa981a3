"""The estimate's output: frozen dataclasses that explain every byte.

A component records its bytes at each moment of a steady-state training step
(end of forward, start of backward, end of backward, optimizer step). Phase peaks
are sums over components, so the table, the pie and the verdict agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..frameworks.allocator import GAP_STATIC
from ..messages import QT_TRANSLATE_NOOP, Message
from .verdict_words import VerdictWords


class Moments(NamedTuple):
    """Bytes alive at the four moments of a steady-state step: end of forward, start of backward (the loss's
    backward), end of backward, optimizer step. Phase peaks are sums of these over components."""

    forward: float
    backward_start: float
    backward_end: float
    optimizer: float

    @classmethod
    def whole_step(cls, value: float) -> Moments:
        """Alive from the first forward to the optimizer step (weights, optimizer states)."""
        return cls(value, value, value, value)

    @classmethod
    def only_at(cls, moment: str, value: float) -> Moments:
        """Alive at one moment only (overheads charged at the peak)."""
        if moment == "forward":
            return cls(value, 0.0, 0.0, 0.0)
        if moment == "backward_start":
            return cls(0.0, value, 0.0, 0.0)
        if moment == "backward_end":
            return cls(0.0, 0.0, value, 0.0)
        if moment == "optimizer":
            return cls(0.0, 0.0, 0.0, value)
        raise ValueError(f"not a moment of a step: {moment!r}")

    def scaled(self, factor: float) -> Moments:
        return Moments(self[0] * factor, self[1] * factor, self[2] * factor, self[3] * factor)


NO_BYTES = Moments(0.0, 0.0, 0.0, 0.0)
MOMENTS: tuple[str, ...] = Moments._fields
PHASES = ("forward", "backward", "optimizer")
CATEGORIES = ("model states", "activations", "transient", "overhead")
VERDICTS = (QT_TRANSLATE_NOOP("engine", "fits"), QT_TRANSLATE_NOOP("engine", "tight"),
            QT_TRANSLATE_NOOP("engine", "does not fit"))
HOST_VERDICTS = (QT_TRANSLATE_NOOP("engine", "fits"), QT_TRANSLATE_NOOP("engine", "does not fit"),
                 QT_TRANSLATE_NOOP("engine", "not checked"))


_set_field = object.__setattr__


@dataclass(frozen=True, slots=True, init=False)
class Component:
    key: str
    name: str
    category: str
    moments: Moments
    formula: str
    inputs: tuple[tuple[str, Any], ...] = ()

    def __init__(self, key: str, name: str, category: str, moments: Moments, formula: str,
                 inputs: tuple[tuple[str, Any], ...] = ()) -> None:
        # Written out because the generated __init__ of a frozen dataclass costs twice as much, and every estimate
        # builds about 16 components (benchmarks/engine_speed.py and time_speed.py measure it).
        _set_field(self, "key", key)
        _set_field(self, "name", name)
        _set_field(self, "category", category)
        _set_field(self, "moments", moments)
        _set_field(self, "formula", formula)
        _set_field(self, "inputs", inputs)

    @property
    def peak_bytes(self) -> float:
        return max(self.moments)

    @property
    def phase(self) -> str:
        """Where the component lives, in words."""
        alive = [m > 0 for m in self.moments]
        if all(alive):
            return QT_TRANSLATE_NOOP("engine", "whole step")
        if alive == [True, True, True, False]:
            return QT_TRANSLATE_NOOP("engine", "forward + backward")
        if alive == [True, True, False, False]:
            return QT_TRANSLATE_NOOP("engine", "forward + backward")
        if alive == [False, False, False, True]:
            return QT_TRANSLATE_NOOP("engine", "optimizer")
        if alive == [True, False, False, False]:
            return QT_TRANSLATE_NOOP("engine", "forward")
        if not alive[0] and not alive[3]:
            return QT_TRANSLATE_NOOP("engine", "backward")
        if alive == [False, False, True, True] or alive == [False, True, True, True]:
            return QT_TRANSLATE_NOOP("engine", "backward + optimizer")
        return QT_TRANSLATE_NOOP("engine", "varies")


def phase_totals(components: tuple[Component, ...]) -> Moments:
    """Bytes allocated at each moment: the sum over components."""
    f = bs = be = o = 0.0
    for c in components:
        m = c.moments
        f += m[0]
        bs += m[1]
        be += m[2]
        o += m[3]
    return Moments(f, bs, be, o)


def phase_peak(components: tuple[Component, ...]) -> tuple[dict[str, float], str, str]:
    """(each phase's bytes, the peak phase, its moment): the backward at the larger of its start and end (its start
    where equal), the peak the first of the largest of forward, backward, optimizer, as max() over the dict would."""
    forward, backward_start, backward_end, optimizer = phase_totals(components)
    backward_moment, backward = (("backward_start", backward_start) if backward_start >= backward_end
                                 else ("backward_end", backward_end))
    peak = "forward" if forward >= backward and forward >= optimizer else (
        "backward" if backward >= optimizer else "optimizer")
    phases = {"forward": forward, "backward": backward, "optimizer": optimizer}
    return phases, peak, backward_moment if peak == "backward" else peak


@dataclass(frozen=True)
class OtherRank:
    """GPUs of a pipeline stage that differ from the stage's busiest GPUs; `ranks` says which, in words."""

    ranks: str
    estimate: StageEstimate


@dataclass(frozen=True, init=False)
class StageEstimate:
    """One pipeline stage; every GPU of a stage holds the same amount (TP/DP/EP are symmetric)."""

    stage: int
    layers: int
    microbatches_in_flight: float  # fractional with interleaved chunks (a chunk is 1/vpp of the stage)
    components: tuple[Component, ...]
    overheads: tuple[Component, ...]
    peak_moment: str
    phases: dict[str, float]

    def __init__(self, stage: int, layers: int, microbatches_in_flight: float, components: tuple[Component, ...],
                 overheads: tuple[Component, ...], peak_moment: str, phases: dict[str, float]) -> None:
        # Written out, one dict update (as Estimate's): an estimate of the speed search makes ~7 stages
        self.__dict__.update(stage=stage, layers=layers, microbatches_in_flight=microbatches_in_flight,
                             components=components, overheads=overheads, peak_moment=peak_moment, phases=phases)

    @property
    def peak_phase(self) -> str:
        return QT_TRANSLATE_NOOP("engine", "backward") if self.peak_moment.startswith("backward") else self.peak_moment

    @property
    def peak_allocated_bytes(self) -> float:
        return self.phases[self.peak_phase]

    @property
    def overhead_bytes(self) -> float:
        return sum(c.peak_bytes for c in self.overheads)

    @property
    def reserve_bytes(self) -> float:
        return sum(c.peak_bytes for c in self.overheads if c.key == "reserve")

    @property
    def total_bytes(self) -> float:
        # frozen: computed once (an estimate picks its busiest stage by it, the search asks again); kept beside the
        # fields, not by functools.cached_property, whose lock cost more than the sum (Python 3.11)
        total = self.__dict__.get("_total_bytes")
        if total is None:
            total = self.__dict__["_total_bytes"] = self.peak_allocated_bytes + self.overhead_bytes
        return total

    def at_peak(self) -> list[tuple[Component, float]]:
        """(component, bytes at the peak moment), largest first, zeros left out."""
        i = MOMENTS.index(self.peak_moment)
        rows = [(c, c.moments[i]) for c in self.components if c.moments[i] > 0]
        return sorted(rows, key=lambda r: -r[1])


@dataclass(frozen=True, init=False)
class Estimate(VerdictWords):
    scenario_name: str
    estimator: str
    model_name: str
    gpu_name: str
    capacity_bytes: int
    world_size: int
    stages: tuple[StageEstimate, ...]
    busiest_stage: int
    trainable_params: int
    total_params: int
    warnings: tuple[Message, ...] = ()  # str(w) is the English sentence
    active_params: int = 0  # parameters one token uses (total minus the routed experts it skips)
    notes: tuple[str, ...] = field(default=())
    load_gpu_bytes: float = 0.0  # allocated on one GPU at the peak of loading/sharding the model
    load_formula: str = ""
    host_bytes: float = 0.0  # CPU memory of one node at its peak
    host_formula: str = ""
    host_capacity_bytes: int | None = None
    peak_includes_load: bool = False  # the framework never resets the peak statistics after loading
    # Ranks of the busiest stage that hold less than it for a reason other than their pipeline stage (the last
    # context-parallel rank); each with what it holds, for the report and the window's GPU picker.
    other_ranks: tuple[OtherRank, ...] = ()
    # An inference scenario's engine accounting (engine/serving/result.py ServingMemory, typed loosely because serving
    # sits above memory): when set, the verdict is the engine's, whether it starts. Left out of repr, so a training
    # estimate prints as before (benchmarks/output_fingerprint.py compares reprs).
    serving: Any = field(default=None, repr=False)
    # Post-training objectives (engine/posttraining): every phase of the step, the estimate itself being its peak
    # phase; None for supervised training (left out of the repr, so a supervised estimate prints as before).
    rl: Any = field(default=None, repr=False)
    # an allocator that is not PyTorch's (MLX's Metal cache): its cache's name, said instead of "reserved by PyTorch",
    # whose figure (peak_reserved_bytes) models PyTorch's caching allocator; left out of the repr as serving is
    allocator_cache: str = field(default="", repr=False)

    def __init__(self, scenario_name: str, estimator: str, model_name: str, gpu_name: str, capacity_bytes: int,
                 world_size: int, stages: tuple[StageEstimate, ...], busiest_stage: int, trainable_params: int,
                 total_params: int, warnings: tuple[Message, ...] = (), active_params: int = 0,
                 notes: tuple[str, ...] = (), load_gpu_bytes: float = 0.0, load_formula: str = "",
                 host_bytes: float = 0.0, host_formula: str = "", host_capacity_bytes: int | None = None,
                 peak_includes_load: bool = False, other_ranks: tuple[OtherRank, ...] = (), serving: Any = None,
                 rl: Any = None, allocator_cache: str = "") -> None:
        # Written out, one dict update, because the generated __init__ of a frozen dataclass sets its 22 fields one
        # object.__setattr__ at a time: ~2.8 us of every estimate (benchmarks/time_speed.py).
        self.__dict__.update(
            scenario_name=scenario_name, estimator=estimator, model_name=model_name, gpu_name=gpu_name,
            capacity_bytes=capacity_bytes, world_size=world_size, stages=stages, busiest_stage=busiest_stage,
            trainable_params=trainable_params, total_params=total_params, warnings=warnings,
            active_params=active_params, notes=notes, load_gpu_bytes=load_gpu_bytes, load_formula=load_formula,
            host_bytes=host_bytes, host_formula=host_formula, host_capacity_bytes=host_capacity_bytes,
            peak_includes_load=peak_includes_load, other_ranks=other_ranks, serving=serving, rl=rl,
            allocator_cache=allocator_cache)

    def _overhead(self, key: str) -> float:
        return sum(c.peak_bytes for c in self.busiest.overheads if c.key == key)

    @property
    def context_bytes(self) -> float:
        """CUDA context, library workspaces and communicator buffers: outside PyTorch's allocator."""
        return self._overhead("cuda_context")

    @property
    def step_reserved_bytes(self) -> float:
        return self.busiest.peak_allocated_bytes + self._overhead("fragmentation")

    @property
    def peak_reserved_bytes(self) -> float:
        """What torch.cuda.max_memory_reserved() reports: segments cached while loading stay reserved."""
        return max(self.step_reserved_bytes, self.load_gpu_bytes * (1 + GAP_STATIC))

    @property
    def reported_allocated_bytes(self) -> float:
        """What torch.cuda.max_memory_allocated() reports at the end of training with this framework's habits: the
        larger of the step's peak and the load's peak where the framework never resets the statistics after
        loading (litgpt/finetune/*.py print it at the end; its FSDP runs load the whole 16-bit checkpoint)."""
        return max(self.peak_allocated_bytes, self.load_gpu_bytes) if self.peak_includes_load else (
            self.peak_allocated_bytes)

    @property
    def reported_reserved_bytes(self) -> float:
        """The reserved twin of reported_allocated_bytes, torch.cuda.max_memory_reserved(): segments cached while
        loading stay reserved whether or not the statistics were reset, so it is peak_reserved_bytes."""
        return self.peak_reserved_bytes

    @property
    def process_bytes(self) -> float:
        """What nvidia-smi shows for the process: reserved + CUDA context + workspaces + communicator buffers."""
        return self.peak_reserved_bytes + self.context_bytes

    @property
    def reserve_fraction(self) -> float:
        peak = self.busiest.peak_allocated_bytes
        return self.busiest.reserve_bytes / peak if peak else 0.0

    @property
    def load_total_bytes(self) -> float:
        return self.load_gpu_bytes * (1 + GAP_STATIC + self.reserve_fraction) + self.context_bytes

    @property
    def load_is_peak(self) -> bool:
        return self.load_total_bytes > self.busiest.total_bytes

    @property
    def host_verdict(self) -> str:
        if self.host_capacity_bytes is None:
            return "not checked"
        return "fits" if self.host_bytes <= self.host_capacity_bytes else "does not fit"

    @property
    def busiest(self) -> StageEstimate:
        return self.stages[self.busiest_stage]

    @property
    def components(self) -> tuple[Component, ...]:
        return self.busiest.components

    @property
    def peak_allocated_bytes(self) -> float:
        return self.busiest.peak_allocated_bytes

    @property
    def peak_phase(self) -> str:
        return self.busiest.peak_phase

    @property
    def phases(self) -> dict[str, float]:
        return {p: self.busiest.phases[p] for p in PHASES}

    @property
    def total_bytes(self) -> float:
        """Process memory + safety reserve at the larger of the training step and loading: drives the verdict."""
        total = self.__dict__.get("_total_bytes")  # frozen: computed once (StageEstimate.total_bytes says how)
        if total is None:
            total = self.__dict__["_total_bytes"] = max(self.busiest.total_bytes, self.load_total_bytes)
        return total

    @property
    def headroom_bytes(self) -> float:
        return self.capacity_bytes - self.total_bytes

    @property
    def gpu_fits(self) -> bool:
        """The GPUs alone hold the run, safety reserve kept (CPU memory aside)."""
        return self.total_bytes <= self.capacity_bytes

    @property
    def host_short(self) -> bool:
        """CPU memory of a node was given and the run needs more of it (offload, loading)."""
        return self.host_capacity_bytes is not None and self.host_bytes > self.host_capacity_bytes

    @property
    def fits(self) -> bool:
        """The whole machine holds the run: the GPUs and, where it was given, the CPU memory of each node."""
        if self.serving is not None:
            return self.serving.verdict == "fits" and not self.serving.users_wait and not self.host_short
        if self.rl is not None and (self.rl.refusal or self.rl.caution) is not None:  # its engine may not start
            return False
        return self.gpu_fits and not self.host_short

    @property
    def engine_may_refuse(self) -> bool:
        """The generation engine (a post-training step's, or the served one) may refuse or start short: "tight"
        comes from the engine's start-up verdict, not from the safety reserve."""
        if self.serving is not None:
            return self.serving.verdict == "tight"
        return self.rl is not None and self.rl.refusal is None and self.rl.caution is not None

    @property
    def verdict_reserve_bytes(self) -> float:
        """The safety reserve inside total_bytes (the load's when loading is the peak)."""
        return self.load_gpu_bytes * self.reserve_fraction if self.load_is_peak else self.busiest.reserve_bytes

    @property
    def verdict(self) -> str:
        if self.host_short:  # a run the node cannot hold does not start, however much GPU memory is left
            return "does not fit"
        if self.serving is not None:  # it starts, but holds fewer users at once than asked: not "fits"
            return "tight" if self.serving.verdict == "fits" and self.serving.users_wait else self.serving.verdict
        if self.rl is not None and self.rl.refusal is not None:
            return "does not fit"
        if self.engine_may_refuse:  # the engine's verdict is within its accounting's uncertainty: at best tight
            return "tight" if self.total_bytes - self.verdict_reserve_bytes <= self.capacity_bytes else "does not fit"
        if self.fits:
            return "fits"
        if self.total_bytes - self.verdict_reserve_bytes <= self.capacity_bytes:
            return "tight"
        return "does not fit"
