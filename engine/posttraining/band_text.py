"""The post-training regime's band in words (issue 23 item 8), for `estimate`'s text and the Time tab's hover: what
the range was checked against (the measured post-training runs, their sources named) and each phase's range with the
kind of figure that decides it (measured / derived / assumed, engine/timing/provenance.py). No Qt: the sentences are
marked for translation in the "engine" context."""

from __future__ import annotations

from collections.abc import Callable

from ..messages import QT_TRANSLATE_NOOP
from ..range_words import band_multiples, likely_range_sentence, likely_range_words, sources_words
from ..timing import StepTime
from ..timing.provenance import KIND_WORDS, Provenance
from ..units import format_seconds
from .time_band import BAND_PHASES, POSTTRAINING_REGIME, posttraining_band_basis
from .timing import RLStepTime

PHASE_NAMES = {
    "generation": QT_TRANSLATE_NOOP("engine", "generation (with the weight sync)"),
    "scoring": QT_TRANSLATE_NOOP("engine", "scoring"),
    "update": QT_TRANSLATE_NOOP("engine", "update (the training step)"),
}
# the comma between the phases, in the reader's language: "生成 … ， 打分 …" (an ASCII ", " inside Chinese text, user
# audits 6 and 7)
LIST_COMMA = QT_TRANSLATE_NOOP("engine", ", ")
# the semicolon before a phase's kinds of figure ("…; derived"), likewise the reader's: "…；推导"
KINDS_SEMICOLON = QT_TRANSLATE_NOOP("engine", "; ")
# one of a phase's several kinds of figure: "partly calculated from specs, partly a rough guess"
PARTLY = QT_TRANSLATE_NOOP("engine", "partly {kind}")
# the step's terms that make each phase (RLStepTime.phase_seconds); the update is every other term
PHASE_TERMS = {"generation": ("generation", "weight_sync"), "scoring": ("scoring",)}


def phase_kinds(t: RLStepTime, provenance: dict[str, Provenance]) -> dict[str, list[str]]:
    """Per phase the kinds of figure (English) that decide its terms with time, in the order measured, derived,
    assumed."""
    phase_of = {term: phase for phase, terms in PHASE_TERMS.items() for term in terms}
    kinds: dict[str, set[str]] = {phase: set() for phase in BAND_PHASES}
    for term in t.terms:
        if term.seconds > 0 and term.key in provenance:
            kinds[phase_of.get(term.key, "update")].add(provenance[term.key].kind)
    order = ("measured", "derived", "assumed")
    return {phase: sorted(found, key=lambda k: order.index(k) if k in order else len(order))
            for phase, found in kinds.items()}


def posttraining_band_lines(t: StepTime, tr_engine: Callable[[str], str],
                            provenance: dict[str, Provenance] | None = None) -> list[str]:
    """The step's likely range and what it was checked against, then each phase's range (with the kinds of its
    figures where `provenance` is given); [] for a step without the post-training band."""
    if not isinstance(t, RLStepTime) or t.band is None or t.band.regime != POSTTRAINING_REGIME:
        return []
    basis = posttraining_band_basis()
    low, high = t.seconds_range
    sources = sources_words(basis["sources"], tr_engine)
    lines = [tr_engine(QT_TRANSLATE_NOOP(
        "engine", "Range: {likely} per step; checked against {runs} measured {frameworks} post-training runs "
        "({objectives}) of {sources} ({names}), 8 in 10 of which came within these multiples of their estimate; "
        "the training runs' band does not apply to a post-training step.")).format(
        likely=likely_range_sentence(format_seconds(low), format_seconds(high), *band_multiples(t.band.low, t.band.high),
                                     tr_engine), runs=basis["runs"],
        frameworks=", ".join(basis["frameworks"]), objectives=", ".join(basis["objectives"]).upper(),
        sources=sources, names=", ".join(basis["source_names"]))]
    kinds = phase_kinds(t, provenance) if provenance else {}
    parts = []
    for phase, (phase_low, phase_high) in t.phase_seconds_ranges.items():
        if phase_high <= 0:  # a phase the step does not run
            continue
        band = dict(t.phase_bands)[phase]
        words = likely_range_words(format_seconds(phase_low), format_seconds(phase_high),
                                   *band_multiples(band.low, band.high), tr_engine)
        if kinds.get(phase):
            # in the time bar's plain words ("calculated from specs", not "derived": user audit 9); a phase of two kinds
            # read "calculated from specs/a rough guess" (user audit 11): "partly ..., partly ..."
            said = [tr_engine(KIND_WORDS.get(k, k)) for k in kinds[phase]]
            words += tr_engine(KINDS_SEMICOLON) + (said[0] if len(said) == 1 else tr_engine(LIST_COMMA).join(
                tr_engine(PARTLY).format(kind=kind) for kind in said))
        # the model's own figure first: the ranges alone left "update likely 8.8 s to 18.1 s" with no update time
        # anywhere to read the multiples against, the step's terms not being split by phase (user audit 6)
        parts.append(tr_engine(QT_TRANSLATE_NOOP("engine", "{phase} {seconds} ({words})")).format(
            phase=tr_engine(PHASE_NAMES[phase]), seconds=format_seconds(t.phase_seconds[phase]), words=words))
    if parts:
        # the phases' bands come from the fewer runs that timed each phase (9 of the step's 32): their ranges summed
        # (23.5 s to 36.9 s for a verl GRPO step) are not the step's (28.6 s to 56.3 s), which a reader adds up and
        # takes for a contradiction (user audit 7), so the line says where they come from
        runs = min(band.runs for _phase, band in t.phase_bands)
        lines.append(tr_engine(QT_TRANSLATE_NOOP("engine", "By phase, the model's time and what measured runs like "
                                                               "this one came to (from the {runs} runs that timed "
                                                               "each phase, so the phases' ranges need not add up to "
                                                               "the step's): {parts}"))
                     .format(parts=tr_engine(LIST_COMMA).join(parts), runs=runs))
    return lines


__all__ = ["PHASE_NAMES", "phase_kinds", "posttraining_band_lines"]
