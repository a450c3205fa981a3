"""Which estimator runs: one interface, one implementation per `estimator` name of the scenario.

`estimate()` asks the chosen estimator for each pipeline stage's components and for the load phase; it never
branches on the estimator's name. The `detailed` estimator counts every tensor of a real PyTorch step (checked
against traces and real GPUs); the seed estimators reproduce the seed articles' formulas for comparison.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..messages import QT_TRANSLATE_NOOP
from ..scenario.behaviour import Behaviour
from ..scenario.memo import LastScenarioMemo
from ..scenario.pipeline_ends import holds_head
from .breakdown import Component
from .detailed import act_context, stage_components, with_in_flight
from .loading import LoadAndHost, LoadParts, with_offloaded_activations
from .seeds import seed_components
from .states import Dtypes, LayerGroup, StageParams, stage_params

if TYPE_CHECKING:
    from ..models.architecture import ModelSpec
    from ..scenario import Scenario


LAST_CP_RANK = QT_TRANSLATE_NOOP("engine", "the last context-parallel rank of each group")
# The last scenario's stage parts (by identity): an estimate repeated on the same scenario object reuses them. Keyed
# on its memory keys instead (a ScenarioMemo), every new scenario paid ~6 us for the key and 10,000 varied
# scenarios took 23% longer (benchmarks/engine_speed.py: 1.00 -> 1.23 s CPU), the hits being rare.
STAGE_PARTS_MEMO = LastScenarioMemo("stage parts")


@dataclass(frozen=True, slots=True)
class StageParts:
    """What an estimator computes for one pipeline stage."""

    components: list[Component]
    in_flight: float  # micro-batches of the stage's layers alive at its peak
    params: StageParams
    load: LoadParts | None = None  # the detailed estimator's load peak and host memory, before offloaded activations


class StageEstimator(Protocol):
    """The interface `estimate()` calls. Built once per scenario (shared per-scenario context goes in __init__)."""

    # Whether the caching allocator's gaps and the CUDA context are charged on top of the components: the per-tensor
    # model needs them; the seeds fold their own margins and a 1 GB context into their components.
    charges_allocator_overheads: bool

    def stage(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> StageParts:
        """Components of one pipeline stage holding `layers`."""
        ...

    def moved(self, parts: StageParts, in_flight: float) -> StageParts | None:
        """The same stage with another number of micro-batches in flight, or None when it must be recomputed."""
        ...

    def load(self, parts: StageParts, components: tuple[Component, ...]) -> LoadAndHost | None:
        """The load phase and host memory of the busiest stage, or None when the estimator does not model them."""
        ...

    def other_ranks(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> list[tuple[str, StageParts]]:
        """(which ranks, their parts) for the ranks of a stage that hold less than its busiest ones."""
        ...


class DetailedEstimator:
    """Per-tensor model of one steady-state step (engine/memory/detailed.py)."""

    charges_allocator_overheads = True

    def __init__(self, s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour) -> None:
        self._s, self._spec, self._dt, self._fw = s, spec, dt, fw
        self._ctx = act_context(s, spec, dt, fw)

    def stage(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> StageParts:
        """The stage's parts; `groups` are those of its layers in the scenario (not keyed). Shared: never changed."""
        key = STAGE_PARTS_MEMO.key(self._s, index, layers.start, layers.stop)
        parts = STAGE_PARTS_MEMO.get(key)
        if parts is None:
            comps, in_flight, states = stage_components(self._s, self._spec, self._dt, index, layers, self._ctx,
                                                        groups, self._fw)
            parts = STAGE_PARTS_MEMO.put(key, StageParts(comps, in_flight, states.params, states.load))
        return parts

    def moved(self, parts: StageParts, in_flight: float) -> StageParts:
        comps = with_in_flight(parts.components, parts.in_flight, in_flight, self._s.grad_accum)
        return StageParts(comps, in_flight, parts.params, parts.load)

    def other_ranks(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> list[tuple[str, StageParts]]:
        if not self._ctx.ring_output_copied:
            return []
        # The last context-parallel rank's ring merges its output without torch.cat: o_proj saves SDPA's output
        # itself, one b·s/cp·h tensor per layer less (engine/memory/parallelism/context_parallel.py).
        ctx = dataclasses.replace(self._ctx, ring_output_copied=False)
        comps, in_flight, states = stage_components(self._s, self._spec, self._dt, index, layers, ctx, groups,
                                                    self._fw)
        return [(LAST_CP_RANK, StageParts(comps, in_flight, states.params, states.load))]

    def load(self, parts: StageParts, components: tuple[Component, ...]) -> LoadAndHost:
        # only the decoder activations are offloaded (torchtune OffloadActivations / Unsloth)
        offloaded = sum([dict(c.inputs).get("offloaded_bytes", 0) for c in components if c.key == "activations"])
        return with_offloaded_activations(parts.load, offloaded)


class SeedEstimator:
    """The seed articles' arithmetic (engine/memory/seeds.py): seed-per-op, seed-k-factor or seed-alpha."""

    charges_allocator_overheads = False

    def __init__(self, s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour) -> None:
        self._s, self._spec, self._dt, self._fw = s, spec, dt, fw

    def stage(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> StageParts:
        s, spec = self._s, self._spec
        comps = seed_components(s, spec, self._dt, index, layers, self._fw)
        params = stage_params(s, spec, layers, index == 0, holds_head(s, index), groups)
        return StageParts(comps, 1, params)  # the seeds have no pipeline schedule: one micro-batch

    def moved(self, parts: StageParts, in_flight: float) -> None:
        return None

    def load(self, parts: StageParts, components: tuple[Component, ...]) -> None:
        return None

    def other_ranks(self, index: int, layers: range, groups: tuple[LayerGroup, ...]) -> list[tuple[str, StageParts]]:
        return []  # the seeds model one GPU of each stage


ESTIMATOR_CLASSES: dict[str, type[DetailedEstimator] | type[SeedEstimator]] = {
    "detailed": DetailedEstimator,
    "seed-per-op": SeedEstimator,
    "seed-k-factor": SeedEstimator,
    "seed-alpha": SeedEstimator,
}


def estimator_for(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour) -> StageEstimator:
    return ESTIMATOR_CLASSES[s.estimator](s, spec, dt, fw)
