"""A stand-in for the busiest stage's work that the data-parallel exchange reads (engine/timing/data_parallel.py
StageWork, which model.py fills from the model): round figures, so a test can state its expected seconds by hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StageStub:
    trainable: float = 2e9  # parameters per rank that train
    trainable_expert: float = 0.0  # of which routed experts'
    params: float = 2e9
    memory: float = 0.05  # seconds per micro-batch of memory-bound kernels
    fwd: float = 0.5  # seconds per micro-batch
    bwd: float = 1.0
    layers: int = 8
