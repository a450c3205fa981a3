"""The reverse question: the largest model of a family that fits this hardware and set-up."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import model_presets
from ..scenario import Scenario
from ..scenario.runnable import runnable_layouts
from ..workloads import estimate  # a post-training member with its generation engine and frozen models


@dataclass(frozen=True)
class ModelCandidate:
    model: str
    name: str
    total_params: int
    verdict: str  # fits | tight | does not fit | invalid
    total_bytes: float | None
    reason: str = ""
    # why a served member that is not over the GPU does not fit: the engine's own sentence (vLLM's refusal to start,
    # no KV cache for one request), translatable where it is shown
    why: Message | None = None

    @property
    def fits(self) -> bool:
        return self.verdict == "fits"


@dataclass(frozen=True)
class FamilyFit:
    family: str | None
    model: str | None  # the largest preset of the family that fits
    candidates: tuple[ModelCandidate, ...]  # smallest first
    # the settings of the runnable layout it was computed on ("pp=1, grad_accum=4"), where s's framework cannot run
    # s's own (engine/scenario/runnable.py, as the limits and plans); "" for s's own layout
    layout_settings: str = ""


def largest_model_that_fits(s: Scenario, family: str | None = None) -> FamilyFit:
    """Each member of s's family (or of family) on s's set-up, and the largest that fits; on the first runnable
    layout nearest to s where s's framework cannot run s's own (a layout it cannot run is no answer)."""
    layouts = runnable_layouts(s)
    s = layouts[0].scenario if layouts else s
    presets = model_presets()
    if family is None and isinstance(s.model, str) and s.model in presets:
        family = presets[s.model].family
    members = sorted((p for p in presets.values() if p.family == family), key=lambda p: p.spec.total_params)
    out = []
    for p in members:
        if s.images_per_sample and p.spec.vision is None:
            # a text-only member would drop the images: not the same training, so not an answer
            reason = message(QT_TRANSLATE_NOOP("engine", "{model} has no vision tower: images_per_sample has no effect."),
                             model=p.name)
            out.append(ModelCandidate(p.id, p.name, p.spec.total_params, "invalid", None, str(reason)))
            continue
        # a dense member runs the set-up's expert-parallel ranks as plain data parallelism (the same GPUs and
        # sharding: Megatron folds EP into the data-parallel ranks), the question being whether the model fits
        try:  # validated: another model may not have this one's heads, layers for its pipeline or LoRA target names
            # (the replace checks them: Llama 3.1 405B at pp 64 stopped `fit` at Llama 3.1 8B's 32 layers, user audit 11)
            member = s.replace(model=p.id, ep=1) if s.ep > 1 and not p.spec.is_moe else s.replace(model=p.id)
            est = estimate(member)
        except ScenarioError as exc:
            out.append(ModelCandidate(p.id, p.name, p.spec.total_params, "invalid", None, str(exc)))
            continue
        why = est.room() if est.serving is not None and est.verdict != "fits" else None  # the engine's, or who waits
        out.append(ModelCandidate(p.id, p.name, p.spec.total_params, est.verdict, est.total_bytes, why=why))
    best = [c.model for c in out if c.fits]
    return FamilyFit(family, best[-1] if best else None, tuple(out), layouts[0].settings if layouts else "")
