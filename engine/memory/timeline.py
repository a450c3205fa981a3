"""Memory over one training step, from the components' moments (breakdown.Moments): the curve PyTorch's memory
visualiser draws, at the planner's resolution.

Each component records its bytes at four moments (end of forward, start of backward, end of backward, optimizer
step). Between them the step is drawn as PyTorch runs it: loading the model; each micro-batch's forward adding its
layers' activations one layer at a time (what is held at the end of forward less what is held before it, spread
evenly over the stage's layers); the loss (start of backward); the backward pass freeing them layer by layer while
the gradients fill in; the optimizer step; and back to what stays between steps. With gradient accumulation the
later micro-batches start with the gradients already held; with a pipeline the busiest stage ramps up to its
micro-batches in flight and down again. The points are bounded (MAX_POINTS), so the curve costs nothing to draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from .breakdown import Estimate

MAX_LAYER_POINTS = 16  # points per forward or backward pass (layers are grouped beyond that)
MAX_MICRO_BATCHES_SHOWN = 4  # accumulation: the first micro-batches, then the last
MAX_POINTS = 256


@dataclass(frozen=True, slots=True)
class TimelinePoint:
    phase: str  # load, step_start, forward, loss, backward, optimizer, step_end
    micro_batch: int  # 1-based; 0 outside a micro-batch (load, optimizer, step ends)
    layer: int  # layers done in this pass (0 at its start)
    allocated_bytes: float
    reserved_bytes: float  # allocated + the allocator's gap (its fragmentation overhead)


def _resting(est: Estimate) -> float:
    """Held between steps: what every moment holds (weights, optimizer states; the gradients only if kept)."""
    return sum(min(c.moments) for c in est.components)


def _gradients_in_forward(est: Estimate) -> float:
    """Gradients the moments hold at the end of forward: with accumulation the moments are a later micro-batch's
    (engine/memory/model_states.py keeps the gradients of earlier micro-batches in its forward); the first
    micro-batch and the time between steps have none (zero_grad frees them)."""
    return sum(c.moments[0] for c in est.components if c.key == "gradients")


def _ramp(start: float, end: float, steps: int) -> list[float]:
    return [start + (end - start) * k / steps for k in range(1, steps + 1)]


def step_timeline(est: Estimate, grad_accum: int = 1, pipeline_stages: int = 1) -> tuple[TimelinePoint, ...]:
    """The step of the busiest GPU as at most MAX_POINTS points."""
    stage = est.busiest
    f, bs, be, opt = (sum(c.moments[i] for c in stage.components) for i in range(4))
    gap = stage.overhead_bytes - stage.reserve_bytes - est.context_bytes
    held_grads = _gradients_in_forward(est)
    rest = _resting(est) - held_grads
    layers = max(1, min(stage.layers, MAX_LAYER_POINTS))
    points: list[TimelinePoint] = []

    def add(phase: str, mb: int, layer: int, allocated: float) -> None:
        points.append(TimelinePoint(phase, mb, layer, allocated, allocated + max(gap, 0.0)))

    add("load", 0, 0, est.load_gpu_bytes)
    add("step_start", 0, 0, rest)
    shown = _micro_batches(grad_accum)
    ramp_in = max(1, min(round(stage.microbatches_in_flight), MAX_LAYER_POINTS)) if pipeline_stages > 1 else 1
    for mb in shown:
        extra = 0.0 if mb > 1 else -held_grads  # later micro-batches start with the gradients of the earlier ones
        start = rest + held_grads + extra
        steps = layers * ramp_in if ramp_in > 1 else layers
        for k, value in enumerate(_ramp(start, f + extra, min(steps, MAX_LAYER_POINTS)), 1):
            add("forward", mb, k, value)
        add("loss", mb, layers, bs + extra)
        for k, value in enumerate(_ramp(bs + extra, be, min(steps, MAX_LAYER_POINTS)), 1):
            add("backward", mb, k, value)
    add("optimizer", 0, 0, opt)
    add("step_end", 0, 0, rest)
    return tuple(points[:MAX_POINTS])


def _micro_batches(grad_accum: int) -> list[int]:
    """Which micro-batches are drawn: all up to MAX_MICRO_BATCHES_SHOWN, else the first ones and the last."""
    if grad_accum <= MAX_MICRO_BATCHES_SHOWN:
        return list(range(1, grad_accum + 1))
    return [*range(1, MAX_MICRO_BATCHES_SHOWN), grad_accum]


def timeline_to_json(points: tuple[TimelinePoint, ...]) -> list[dict[str, object]]:
    return [{"phase": p.phase, "micro_batch": p.micro_batch, "layer": p.layer,
             "allocated_bytes": round(p.allocated_bytes), "reserved_bytes": round(p.reserved_bytes)} for p in points]
