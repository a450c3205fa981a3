"""The time ranges' bands (presets/time_error_bands.json) and how often they hold on sources they were not made from
(issue 23 item 8).

A band is the 10th to 90th percentile of the signed cross-validated error (predicted / measured tokens/s - 1) of a
regime's published runs: the scenario's framework, or all runs. A run's step then lies in step x (1 + low) to step x
(1 + high) (engine/timing/bands.py) exactly when low <= its error <= high. The percentiles are constants fitted on the
runs they describe, so the project's standard asks for their error on sources they were not fitted to: held_out()
gives each run the band its regime would have without its own source (the regime recomputed from the other sources,
falling back to all runs as the engine does), and coverage() says how often the run's error lies within it.

The shipped rule (RULE): no source holds more than MAX_SOURCE_SHARE of a band's weight (issue 23's bound on a set;
runs weigh by row, a source over the bound is scaled down to it and the others share the rest by row), so a
framework sets a band of its own only with at least MIN_BAND_SOURCES sources (fewer cannot keep every source at or
below the bound) and MIN_BAND_RUNS runs; one-source frameworks take the band of all runs. CANDIDATES are the rules
measured against it (docs/speed-accuracy.md): per row (as shipped before), per row from at least MIN_BAND_SOURCES
sources, equal weight per source, and each widened by the spread between sources. No Qt.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..scenario import scenario_from_dict
from .published_throughput import Compared

ALL = "all"
LOW_Q, HIGH_Q = 0.1, 0.9  # the band: 10th to 90th percentile, nominally 8 in 10 runs inside
MAX_SOURCE_SHARE = 0.3  # issue 23: no single source may dominate a set (none over 30% of the published rows)
MIN_BAND_SOURCES = math.ceil(1 / MAX_SOURCE_SHARE)  # 4: fewer sources cannot each stay at or below 30%
MIN_BAND_RUNS = 8  # fewer runs than this give no band of their own: the framework takes the band of all runs
PER_ROW, CAPPED, EQUAL = "per row", "capped", "equal"  # how a band weighs its runs (source_weights)


@dataclass(frozen=True)
class RunError:
    id: str
    regime: str  # the scenario's framework key (the band's regime)
    source: str  # as published_throughput.source_of names it
    error: float  # signed, cross-validated


@dataclass(frozen=True)
class Rule:
    """How bands are made: the weighting of runs, the sources a framework needs for a band of its own, and how
    many times the spread between sources (stdev of the sources' median errors / sqrt(sources)) widens each side."""
    name: str
    weighting: str
    min_sources: int
    widen: float = 0.0


RULE = Rule(f"capped at {MAX_SOURCE_SHARE:.0%} a source, from >= {MIN_BAND_SOURCES} sources", CAPPED,
            MIN_BAND_SOURCES)
CANDIDATES = (
    Rule("per row (as shipped before)", PER_ROW, 1),
    Rule(f"per row, from >= {MIN_BAND_SOURCES} sources", PER_ROW, MIN_BAND_SOURCES),
    Rule("equal weight per source", EQUAL, 1),
    Rule(f"equal weight per source, from >= {MIN_BAND_SOURCES} sources", EQUAL, MIN_BAND_SOURCES),
    Rule(f"capped at {MAX_SOURCE_SHARE:.0%} a source", CAPPED, 1),
    RULE,
    Rule("per row + spread between sources", PER_ROW, 1, 1.0),
    Rule(f"capped + spread between sources, from >= {MIN_BAND_SOURCES} sources", CAPPED, MIN_BAND_SOURCES, 1.0),
)


def run_errors(rows: list[dict[str, Any]], compared: list[Compared]) -> list[RunError]:
    """Each published run's regime, source and cross-validated error (`compared`: compare(rows), in order)."""
    return [RunError(c.id, scenario_from_dict(row["scenario"]).framework, c.source, c.error)
            for row, c in zip(rows, compared, strict=True)]


def source_shares(counts: dict[str, int], cap: float = MAX_SOURCE_SHARE) -> dict[str, float]:
    """Each source's share of a band's weight: by its runs, a source over `cap` held at it and the rest shared by
    runs among the others; equal shares where there are too few sources for every one to stay at or below it."""
    if len(counts) * cap < 1:
        return {s: 1 / len(counts) for s in counts}
    held: set[str] = set()
    while True:
        free_runs = sum(n for s, n in counts.items() if s not in held)
        shares = {s: cap if s in held else (1 - cap * len(held)) * n / free_runs for s, n in counts.items()}
        over = {s for s in counts if s not in held and shares[s] > cap + 1e-12}
        if not over:
            return shares
        held |= over


def source_weights(errors: Sequence[RunError], weighting: str) -> list[float]:
    """Each run's weight in a band: 1 (PER_ROW), or its source's share (source_shares, capped or EQUAL) over its
    source's runs."""
    if weighting == PER_ROW:
        return [1.0] * len(errors)
    counts: dict[str, int] = {}
    for e in errors:
        counts[e.source] = counts.get(e.source, 0) + 1
    shares = source_shares(counts) if weighting == CAPPED else {s: 1 / len(counts) for s in counts}
    return [shares[e.source] / counts[e.source] for e in errors]


def weighted_quantile(values: Sequence[float], weights: Sequence[float], q: float) -> float:
    """Nearest rank on weight: the smallest value whose cumulative weight reaches q of the total."""
    total, acc = sum(weights), 0.0
    pairs = sorted(zip(values, weights, strict=True))
    for value, weight in pairs:
        acc += weight
        if acc >= q * total - 1e-12:
            return value
    return pairs[-1][0]


def band_of(errors: Sequence[RunError], rule: Rule) -> tuple[float, float]:
    """(low, high): the weighted 10th and 90th percentiles of the runs' errors, each side widened by rule.widen x
    the spread between their sources."""
    values, weights = [e.error for e in errors], source_weights(errors, rule.weighting)
    by_source: dict[str, list[float]] = {}
    for e in errors:
        by_source.setdefault(e.source, []).append(e.error)
    medians = [statistics.median(v) for v in by_source.values()]
    spread = statistics.stdev(medians) / math.sqrt(len(medians)) if rule.widen and len(medians) > 1 else 0.0
    return (weighted_quantile(values, weights, LOW_Q) - rule.widen * spread,
            weighted_quantile(values, weights, HIGH_Q) + rule.widen * spread)


def bands(errors: Sequence[RunError], rule: Rule = RULE) -> dict[str, dict[str, Any]]:
    """{regime: {runs, sources, low, high}}: all runs, and each framework with MIN_BAND_RUNS runs from
    rule.min_sources sources."""
    groups: dict[str, list[RunError]] = {ALL: list(errors)}
    for e in errors:
        groups.setdefault(e.regime, []).append(e)
    out = {}
    for name, members in sorted(groups.items()):
        sources = {e.source for e in members}
        if name == ALL or (len(members) >= MIN_BAND_RUNS and len(sources) >= rule.min_sources):
            low, high = band_of(members, rule)
            out[name] = {"runs": len(members), "sources": len(sources), "low": low, "high": high}
    return out


def band_for(made: dict[str, dict[str, Any]], regime: str) -> dict[str, Any]:
    """The band a run of `regime` gets from `made` (the engine's lookup, engine/timing/bands.py time_band)."""
    return made.get(regime, made[ALL])


@dataclass(frozen=True)
class Held:
    run: RunError
    low: float
    high: float

    @property
    def inside(self) -> bool:
        return self.low <= self.run.error <= self.high


def held_out(errors: Sequence[RunError], rule: Rule = RULE) -> list[Held]:
    """Each run with the band its regime gets when its own source made no band (leave one source out)."""
    out = []
    for source in sorted({e.source for e in errors}):
        made = bands([e for e in errors if e.source != source], rule)
        out += [Held(e, band_for(made, e.regime)["low"], band_for(made, e.regime)["high"])
                for e in errors if e.source == source]
    return out


def in_sample(errors: Sequence[RunError], rule: Rule = RULE) -> list[Held]:
    """Each run with the band made from every run, its own included (what the engine ships)."""
    made = bands(errors, rule)
    return [Held(e, band_for(made, e.regime)["low"], band_for(made, e.regime)["high"]) for e in errors]


@dataclass(frozen=True)
class Coverage:
    runs: int
    inside: float  # share of runs whose error lies within their band
    source_mean: float  # the mean over sources of each source's share inside (every source counts once)
    width: float  # mean of high - low: the range's width as a share of the step


def coverage(held: Sequence[Held], key: Callable[[Held], str] | None = None) -> dict[str, Coverage]:
    """{"all" (or each group `key` names): Coverage}."""
    groups: dict[str, list[Held]] = {}
    for h in held:
        groups.setdefault(ALL if key is None else key(h), []).append(h)
    out = {}
    for name, members in groups.items():
        by_source: dict[str, list[bool]] = {}
        for h in members:
            by_source.setdefault(h.run.source, []).append(h.inside)
        out[name] = Coverage(len(members), sum(h.inside for h in members) / len(members),
                             statistics.fmean(sum(v) / len(v) for v in by_source.values()),
                             statistics.fmean(h.high - h.low for h in members))
    return out


def one_source_transfer(errors: Sequence[RunError]) -> tuple[int, float]:
    """(bands, share inside): a per-row band made of one source's runs (MIN_BAND_RUNS or more) of a framework that
    other sources also ran, against those other sources' runs of it, pooled: how well a one-source band carries over."""
    bands_made, inside, total = 0, 0, 0
    frameworks = {e.regime for e in errors}
    for regime in sorted(frameworks):
        members = [e for e in errors if e.regime == regime]
        for source in sorted({e.source for e in members}):
            own = [e for e in members if e.source == source]
            others = [e for e in members if e.source != source]
            if len(own) < MIN_BAND_RUNS or not others:
                continue
            low, high = band_of(own, CANDIDATES[0])
            bands_made, total = bands_made + 1, total + len(others)
            inside += sum(low <= e.error <= high for e in others)
    return bands_made, inside / total if total else 0.0


def error_bands(rows: list[dict[str, Any]], compared: list[Compared]) -> list[dict[str, Any]]:
    """presets/time_error_bands.json's bands (RULE), each with its runs and sources."""
    return [{"regime": name, "runs": b["runs"], "sources": b["sources"], "low": round(b["low"], 4),
             "high": round(b["high"], 4)} for name, b in bands(run_errors(rows, compared)).items()]
