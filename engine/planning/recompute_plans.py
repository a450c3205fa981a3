"""Make it fit's cheapest checkpointing step: full recomputation of only as many layers as memory needs (issue 23
item 5; scenario keys recompute_num_layers and recompute_method, engine/scenario/recompute_layers.py), as experts
fit a job with Megatron's --recompute-method block --recompute-num-layers N or torchtitan's selective_ac_option N.
Fewer layers recomputed is less compute (each is one more forward), so the fewest that fit is the plan."""

from __future__ import annotations

from collections.abc import Callable

from ..frameworks.defaults import defaults_for
from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario, resolve_model
from ..scenario.recompute_layers import chunk_layer_counts
from .limits import largest_true

RECOMPUTE_SOME = "recompute"  # the solver option's kind: the fewest layers searched, as "seq" searches the length
RECOMPUTE_NOTE = QT_TRANSLATE_NOOP("engine", "each recomputed layer runs its forward again: fewer layers recomputed "
                                             "cost less compute than recomputing them all")


def largest_chunk_layers(s: Scenario, layers: int) -> int:
    """Decoder layers of a stage's largest model chunk (what recompute_num_layers counts in)."""
    stage = -(-layers // s.pp)
    return max(chunk_layer_counts(stage, s.vpp))


def offers_some_layers(s: Scenario, layers: int) -> bool:
    """Whether recomputing only some layers is a step for s: its framework runs block and a chunk has 2 layers or
    more (with one, some is all)."""
    return "block" in defaults_for(s.framework).runs.recompute_methods and largest_chunk_layers(s, layers) > 1


def fewest_recomputed_layers(cand: Scenario, layers: int, fits: Callable[[Scenario], bool]) -> Scenario | None:
    """cand (full checkpointing) with the fewest layers of each chunk recomputed (block) that fit, exact by bisection
    (memory falls as N grows); None when only recomputing every layer fits."""
    largest = largest_chunk_layers(cand, layers)

    def with_layers(n: int) -> Scenario:
        return cand.with_unchecked(checkpointing="full", recompute_num_layers=n, recompute_method="block")

    k = largest_true(lambda k: fits(with_layers(largest - k)), largest - 1)  # k layers left plain
    return None if k is None else with_layers(largest - k)


def recompute_step(base: Scenario, s: Scenario, layers: int) -> Message | None:
    """The plan's step for recomputing only some layers, or None where the plan does not."""
    if s.checkpointing != "full" or not s.recompute_num_layers or (
            base.checkpointing == "full" and base.recompute_num_layers == s.recompute_num_layers):
        return None
    if s.pp == 1:  # no pipeline: "of each pipeline stage" read as a setting the plan does not have (user audit 6)
        return message(QT_TRANSLATE_NOOP("engine", "recompute {n} of the {layers} layers (full activation "
                                                   "checkpointing of only some layers)"),
                       n=s.recompute_num_layers, layers=largest_chunk_layers(s, layers))
    return message(QT_TRANSLATE_NOOP("engine", "recompute {n} of the {layers} layers of each pipeline stage (full "
                                               "activation checkpointing of only some layers)"),
                   n=s.recompute_num_layers, layers=largest_chunk_layers(s, layers))


def partly_recomputed(plans: list[Scenario], estimate_of: Callable[[Scenario], Estimate | None]) -> list[Scenario]:
    """The throughput search's plans that recompute every layer, each with the fewest layers recomputed that fit
    instead, where fewer than all do (the same layout and micro-batch, less recomputation: faster); estimate_of: the
    search's memo (None where the consistency checks refuse)."""

    def fits(s: Scenario) -> bool:
        est = estimate_of(s)
        return est is not None and est.fits

    out = []
    for s in plans:
        layers = resolve_model(s).layers
        if s.checkpointing == "full" and not s.recompute_num_layers and offers_some_layers(s, layers):
            fewer = fewest_recomputed_layers(s, layers, fits)
            if fewer is not None:
                out.append(fewer)
    return out
