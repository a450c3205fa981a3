"""The output of a post-training estimate: one RL (or preference) step as phases, each a list of named components.

`RLEstimate` rides on the ordinary `Estimate` (its `rl` field); the estimate's own components, phases and verdict
are those of the peak phase, so the table, the window and every caller that reads an `Estimate` keep working.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..memory.breakdown import Component
from ..messages import QT_TRANSLATE_NOOP, Message

# the engine's tensors held in vLLM's sleep-mode memory pool (its weights and KV cache; the profile run's activations
# and CUDA graphs are not in it)
ENGINE_POOL_KEYS = ("rollout_weights", "rollout_kv_cache")
PHASE_KEYS = ("generation", "scoring", "training", "critic_training", "weight_sync")
PHASE_NAMES = {
    "generation": QT_TRANSLATE_NOOP("engine", "Generation"),
    "scoring": QT_TRANSLATE_NOOP("engine", "Scoring (reference, reward, old log-probs)"),
    "training": QT_TRANSLATE_NOOP("engine", "Training step"),
    "critic_training": QT_TRANSLATE_NOOP("engine", "Critic training step"),
    "weight_sync": QT_TRANSLATE_NOOP("engine", "Weight sync to the engine"),
}


@dataclass(frozen=True, slots=True)
class RLPhase:
    """One phase of the step on one kind of GPU: what is allocated at its peak, component by component."""

    key: str  # one of PHASE_KEYS
    gpus: str  # "training" | "rollout" (the engine's own GPUs when placed apart)
    components: tuple[Component, ...]
    peak_bytes: float  # allocated at the phase's peak (the components' peaks, summed by moment)

    @property
    def name(self) -> str:
        return PHASE_NAMES[self.key]


@dataclass(frozen=True, slots=True)
class RLEstimate:
    """Post-training figures beside the peak phase's estimate."""

    objective: str
    phases: tuple[RLPhase, ...]
    peak_phase: str
    per_model_bytes: tuple[tuple[str, float], ...]  # (model, bytes one GPU holds of it)
    rollout_engine: str
    rollout_kv_bytes: float  # the engine's KV pool on one engine GPU
    rollout_kv_tokens: int
    max_concurrent_sequences: int
    generated_sequences: int  # completions one engine instance generates per optimizer step
    settings: tuple[tuple[str, Any], ...]  # the resolved settings, for the explanation
    refusal: Message | None = None  # the generation engine's own sentence when it would not start (verdict: does
    # not fit)
    caution: Message | None = None  # its sentence when it may refuse or start short (verdict at best: tight)
    engine_start_margin_bytes: float | None = None  # vLLM: its KV pool - one request at max_model_len
    engine_start_band_bytes: float = 0.0  # "tight" within +- this (engine/serving/startup_band.py)
    # the training GPUs' overheads (CUDA context, the allocator's gap, the safety reserve) at their peak phase; an
    # engine on GPUs of its own has none beyond its own components (estimate.py _engine_stage)
    training_overheads: tuple[Component, ...] = ()
    # an engine on GPUs of its own: what each training GPU holds with its overheads and reserve (the load's peak
    # counted as Estimate.total_bytes counts it) and what each engine GPU holds; the estimate is the larger
    training_gpu_bytes: float = 0.0
    engine_gpu_bytes: float = 0.0

    def overhead_bytes(self, phase: RLPhase) -> float:
        """What the phase's GPUs hold beyond its components: the training GPUs' overheads, none on the engine's own."""
        return 0.0 if phase.gpus == "rollout" else sum(c.peak_bytes for c in self.training_overheads)

    def phase(self, key: str) -> RLPhase | None:
        return next((p for p in self.phases if p.key == key), None)

    def allocated_with_engine_pool(self) -> float:
        """What torch.cuda.max_memory_allocated() reports in a trainer process that holds its colocated engine:
        vLLM's sleep mode allocates the engine's weights and KV cache through its CuMemAllocator pool, a torch
        MemPool, and sleep unmaps that memory without freeing the tensors, so torch's counters keep the pool through
        every phase (vllm issue #17117: memory_allocated() unchanged by sleep and wake_up; #33625). Each phase on the
        training GPUs counts the engine's whole pool beside its own tensors."""
        phases = [p for p in self.phases if p.gpus == "training"]
        if not phases:
            return 0.0
        pools = [sum(c.peak_bytes for c in p.components if c.key in ENGINE_POOL_KEYS) for p in phases]
        return max(p.peak_bytes - own + max(pools) for p, own in zip(phases, pools, strict=True))


def rl_to_json(rl: RLEstimate) -> dict[str, Any]:
    """The `rl` object of `estimate --json`: each phase lists its components' bytes; what each component is (name,
    category, formula, inputs) is said once, under `components`, since most live through several phases."""
    described: dict[str, dict[str, Any]] = {}
    phases = []
    for p in rl.phases:
        rows = []
        for c in p.components:
            rows.append({"key": c.key, "bytes": round(c.peak_bytes)})
            if c.key not in described:
                described[c.key] = {"name": c.name, "category": c.category, "formula": c.formula,
                                    "inputs": dict(c.inputs)}
        phases.append({"phase": p.key, "name": p.name, "gpus": p.gpus, "peak_bytes": round(p.peak_bytes),
                       "components": rows})
    # an engine on GPUs of its own: each set's figure (the estimate's total is the larger), absent otherwise
    apart = {"training_gpu_bytes": round(rl.training_gpu_bytes),
             "engine_gpu_bytes": round(rl.engine_gpu_bytes)} if rl.engine_gpu_bytes else {}
    return {
        "objective": rl.objective,
        "peak_phase": rl.peak_phase,
        **apart,
        "phases": phases,
        "components": described,
        "per_model_bytes": {name: round(b) for name, b in rl.per_model_bytes},
        "rollout_engine": rl.rollout_engine,
        "rollout_kv_bytes": round(rl.rollout_kv_bytes),
        "rollout_kv_tokens": rl.rollout_kv_tokens,
        "max_concurrent_sequences": rl.max_concurrent_sequences,
        "generated_sequences": rl.generated_sequences,
        "settings": dict(rl.settings),
        "engine_refusal": None if rl.refusal is None else str(rl.refusal),
        "engine_caution": None if rl.caution is None else str(rl.caution),
        "engine_start_margin_bytes": None if rl.engine_start_margin_bytes is None
        else round(rl.engine_start_margin_bytes),
        "engine_start_band_bytes": round(rl.engine_start_band_bytes),
    }
