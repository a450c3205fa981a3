"""How sure a serving speed is (issue 23 item 8): the measured serving runs' spread around the estimate.

presets/serving_speed_bands.json holds, per engine and measured metric (and over all engines), the 10th and 90th
percentiles of measured / estimated - 1 over the rows of tests/data/published/serving_speed.json (the training and
post-training bands' sign: the measured figure is the estimate x (1 + error), for a time and for a rate alike),
written by benchmarks/serving_speed_accuracy.py (engine/accuracy/serving_speed_band.py;
tests/test_serving_speed_band.py checks it is current). Nothing of the serving estimate is fitted to those rows, so a
band is their error as it stands, in-sample. An engine without rows of a metric takes all engines' band of it, and
the words say so. No Qt: the sentences are marked for translation in the "engine" context."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..models.presets import PRESETS_DIR, checked_table, preset_number, preset_texts, read_preset_json
from ..range_words import likely_range_words, sources_words
from ..units import format_count, format_seconds
from .result import engine_name
from .speed import ServingSpeed
from .speed_regime import REGIME_WORDS, speed_regime

SERVING_BANDS_FILE = PRESETS_DIR / "serving_speed_bands.json"
ALL_ENGINES = "all"
# ServingSpeed's figure -> the measured set's metric that checks it (engine/accuracy/serving_speed.py METRICS)
SHOWN_METRICS = {"ttft_seconds": "ttft_ms", "tpot_seconds": "tpot_ms", "tokens_per_second": "tokens_per_second"}
# an engine that runs another's code (ollama: llama.cpp's, engine/serving/llama_cpp.py, GGUF_ENGINES in speed.py)
# takes that engine's band of a metric it has fewer than MIN_OWN_RUNS own rows of (Ollama's rows state only a decode
# rate, so its first token takes llama.cpp's)
ENGINE_FAMILY = {"ollama": "llama.cpp"}
MIN_OWN_RUNS = 2  # a 10th-90th percentile of one run is a point: an engine with fewer takes all engines' band


@dataclass(frozen=True, slots=True)
class SpeedRange:
    """One figure's likely range, in the figure's own unit, and the measured rows it comes from."""

    figure: str  # a ServingSpeed field (SHOWN_METRICS)
    low: float
    high: float
    runs: tuple[str, ...]  # the measured rows' ids
    sources: tuple[str, ...]
    engine: str  # the engine family whose rows gave the band, or ALL_ENGINES
    regime: str = ""  # the regime (speed_regime.py) whose rows gave it; "" for all of the engine's rows
    wanted_regime: str = ""  # the speed's own regime ("" for an engine without one)


@cache
def _file() -> dict[str, Any]:
    return checked_table(SERVING_BANDS_FILE.name, read_preset_json(SERVING_BANDS_FILE), _checked_bands)


def _checked_bands(data: dict[str, Any]) -> dict[str, Any]:
    """The file with the fields the ranges read, each of its type (a KeyError / TypeError otherwise, which
    checked_table turns into one sentence naming the file)."""
    if not isinstance(data["measured_set"], str):
        raise TypeError("measured_set")
    kinds = {"engine": str, "metric": str, "runs": int, "run_ids": list, "source_urls": list, "low": int | float,
             "high": int | float}
    for b in data["bands"]:
        wrong = [k for k, kind in kinds.items() if not isinstance(b[k], kind) or isinstance(b[k], bool)]
        if wrong or not isinstance(b.get("regime", ""), str):
            raise TypeError(f"bands: {', '.join(wrong) or 'regime'}")
        for bound in ("low", "high"):  # finite shares: a range is the figure x (1 + them)
            preset_number(b[bound], -1, 10)
        preset_texts(b["run_ids"]), preset_texts(b["source_urls"])  # shown in --json
    return data


def speed_bands() -> dict[tuple[str, str], dict[str, Any]]:
    """(engine family or ALL_ENGINES, metric) -> its band entry (low, high, runs, source_urls), over all regimes."""
    return {(b["engine"], b["metric"]): b for b in _file()["bands"] if not b.get("regime")}


def regime_bands() -> dict[tuple[str, str, str], dict[str, Any]]:
    """(engine family, regime, metric) -> the band of that engine's rows in that regime (speed_regime.py)."""
    return {(b["engine"], b["regime"], b["metric"]): b for b in _file()["bands"] if b.get("regime")}


def speed_ranges(engine: str, speed: ServingSpeed) -> dict[str, SpeedRange]:
    """The shown figures' ranges: the engine's own band where it has MIN_OWN_RUNS rows of the metric, else its
    family's (ENGINE_FAMILY), else all engines'; tokens/s is users / TPOT in speed.py, so its range is users / the
    TPOT range (the file's tokens/s bands stay for the report: a row's decode rate is the same measurement as its
    TPOT)."""
    family = ENGINE_FAMILY.get(engine, engine)
    regime = speed_regime(engine, speed)  # vLLM / SGLang: with or without CUDA graphs, each its own rows
    bands, by_regime, out = speed_bands(), regime_bands(), {}
    for figure, metric in SHOWN_METRICS.items():
        band = by_regime.get((family, regime, metric))
        for engine_rows in (engine, family):  # too few rows of its regime: its own rows, then its family's
            if band is None or band["runs"] < MIN_OWN_RUNS:
                band = bands.get((engine_rows, metric))
        if band is None or band["runs"] < MIN_OWN_RUNS:
            band = bands.get((ALL_ENGINES, metric))
        if band is None:
            continue
        value = float(getattr(speed, figure))
        out[figure] = SpeedRange(figure, value * (1 + band["low"]), value * (1 + band["high"]), tuple(band["run_ids"]),
                                 tuple(band["source_urls"]), band["engine"], band.get("regime", ""), regime)
    tpot = out.get("tpot_seconds")
    if tpot is not None and tpot.low > 0:  # speed.py's tokens/s is users / TPOT: one figure, one range
        out["tokens_per_second"] = dataclasses.replace(tpot, figure="tokens_per_second",
                                                       low=speed.concurrency / tpot.high,
                                                       high=speed.concurrency / tpot.low)
    return out


def speed_range_basis(ranges: dict[str, SpeedRange]) -> dict[str, Any]:
    """What the ranges were checked against, for --json: the measured set, runs and sources in all, and per figure
    the band's engine (ALL_ENGINES where the engine has no rows of it), runs and sources."""
    return {"measured_set": _file()["measured_set"],
            "statistic": "10th to 90th percentile of measured / estimated - 1",
            "figures": {f: {"engine": r.engine, "regime": r.regime or None, "speed_regime": r.wanted_regime or None,
                            "runs": len(r.runs), "sources": len(r.sources),
                            "source_urls": list(r.sources)} for f, r in ranges.items()}}


def speed_range_text(engine: str, speed: ServingSpeed, tr_engine: Callable[[str], str]) -> str:
    """"Measured runs like this one came to: first token 0.9-1.6x the model: likely A to B; per output token ...;
    tokens/s ...; checked against N measured runs of M sources (...)" (engine/range_words.py); "" without bands."""
    ranges = speed_ranges(engine, speed)
    if len(ranges) < len(SHOWN_METRICS):
        return ""
    def words(r: SpeedRange, show: Callable[[float], str]) -> str:
        value = float(getattr(speed, r.figure))  # the model's figure: the multiples are the range over it
        factors = (r.low / value, r.high / value) if value > 0 else (1.0, 1.0)
        return likely_range_words(show(r.low), show(r.high), *factors, tr_engine)

    ttft, tpot, rate = (ranges[f] for f in SHOWN_METRICS)
    text = tr_engine(QT_TRANSLATE_NOOP(
        "engine", "Measured runs like this one came to: first token {ttft}; per output token {tpot}; tokens/s {rate}; "
        "checked against {runs} measured runs of {sources}")).format(
        ttft=words(ttft, format_seconds), tpot=words(tpot, format_seconds), rate=words(rate, format_count),
        runs=len({i for r in ranges.values() for i in r.runs}),
        sources=sources_words(len({u for r in ranges.values() for u in r.sources}), tr_engine))
    return text + basis_words(engine, ranges, tr_engine)


FIGURE_NAMES = {"ttft_seconds": QT_TRANSLATE_NOOP("engine", "time to first token"),
                "tpot_seconds": QT_TRANSLATE_NOOP("engine", "time per output token"),
                "tokens_per_second": QT_TRANSLATE_NOOP("engine", "tokens/s")}


def basis_words(engine: str, ranges: dict[str, SpeedRange], tr_engine: Callable[[str], str]) -> str:
    """Whose rows gave the ranges: " (vLLM's own runs without CUDA graphs).", or per group of figures the engine's
    rows of its regime, all of the engine's rows (fewer than MIN_OWN_RUNS of its regime) or all engines' rows."""
    family = engine_name(ENGINE_FAMILY.get(engine, engine))
    wanted = next(iter(ranges.values())).wanted_regime
    def figures(group: list[SpeedRange]) -> str:
        return ", ".join(tr_engine(FIGURE_NAMES[r.figure]) for r in group)

    borrowed = [r for r in ranges.values() if r.engine == ALL_ENGINES]
    engine_wide = [r for r in ranges.values() if r.engine != ALL_ENGINES and r.regime != wanted]
    kin = [r for r in ranges.values() if r.engine not in (engine, ALL_ENGINES)]  # its family's rows (Ollama's)
    if kin:  # an engine running another's code, with too few rows of its own of some figures
        own = [r for r in ranges.values() if r.engine == engine]
        parts = [tr_engine(QT_TRANSLATE_NOOP("engine", "{engine}'s own: {figures}")).format(
            engine=engine_name(engine), figures=figures(own))] if own else []
        parts.append(tr_engine(QT_TRANSLATE_NOOP(
            "engine", "{engine} has fewer than 2 measured runs of {figures}: the runs of {family}, whose code it "
            "runs, there")).format(engine=engine_name(engine), figures=figures(kin), family=family))
        if borrowed:
            parts.append(tr_engine(QT_TRANSLATE_NOOP(
                "engine", "{engine} has fewer than 2 measured runs of {figures}: all engines' runs there")).format(
                engine=engine_name(engine), figures=figures(borrowed)))
        return " (" + "; ".join(parts) + ")."
    family = engine_name(engine)  # its own rows and all engines' from here on
    if not wanted:  # an engine without CUDA graphs to switch: its own rows, or all engines' where it has too few
        if not borrowed:
            return tr_engine(QT_TRANSLATE_NOOP("engine", " ({engine}'s own).")).format(engine=family)
        return tr_engine(QT_TRANSLATE_NOOP(
            "engine", " ({engine} has fewer than 2 measured runs of {figures}: all engines' runs there).")).format(
            engine=family, figures=figures(borrowed))
    regime = tr_engine(REGIME_WORDS[wanted])
    own = [r for r in ranges.values() if r.engine != ALL_ENGINES and r.regime == wanted]
    if not borrowed and not engine_wide:
        return tr_engine(QT_TRANSLATE_NOOP("engine", " ({engine}'s own runs {regime}).")).format(
            engine=family, regime=regime)
    parts = []
    if own:
        parts.append(tr_engine(QT_TRANSLATE_NOOP("engine", "{engine}'s own runs {regime}: {figures}")).format(
            engine=family, regime=regime, figures=figures(own)))
    if engine_wide:
        parts.append(tr_engine(QT_TRANSLATE_NOOP(
            "engine", "{engine} has fewer than 2 measured runs {regime} of {figures}: all of {engine}'s runs "
            "there")).format(engine=family, regime=regime, figures=figures(engine_wide)))
    if borrowed:
        parts.append(tr_engine(QT_TRANSLATE_NOOP(
            "engine", "{engine} has fewer than 2 measured runs of {figures}: all engines' runs there")).format(
            engine=family, figures=figures(borrowed)))
    return " (" + "; ".join(parts) + ")."

__all__ = ["ALL_ENGINES", "ENGINE_FAMILY", "FIGURE_NAMES", "SERVING_BANDS_FILE", "SHOWN_METRICS", "SpeedRange",
           "basis_words", "regime_bands", "speed_bands",
           "speed_range_basis", "speed_range_text", "speed_ranges"]
