"""How sure a serving speed is (issue 23 item 8): the measured serving runs' spread around the estimate.

presets/serving_speed_bands.json holds, per engine and measured metric (and over all engines), the 10th and 90th
percentiles of measured / estimated - 1 over the rows of tests/data/published/serving_speed.json (the training and
post-training bands' sign: the measured figure is the estimate x (1 + error), for a time and for a rate alike),
written by benchmarks/serving_speed_accuracy.py (engine/accuracy/serving_speed_band.py;
tests/test_serving_speed_band.py checks it is current). Nothing of the serving estimate is fitted to those rows, so a
band is their error as it stands, in-sample. An engine without rows of a metric takes all engines' band of it, and
the words say so. No Qt: the sentences are marked for translation in the "engine" context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..models.presets import PRESETS_DIR, read_preset_json
from ..range_words import likely_range_words
from ..units import format_count, format_seconds
from .result import engine_name
from .speed import ServingSpeed

SERVING_BANDS_FILE = PRESETS_DIR / "serving_speed_bands.json"
ALL_ENGINES = "all"
# ServingSpeed's figure -> the measured set's metric that checks it (engine/accuracy/serving_speed.py METRICS)
SHOWN_METRICS = {"ttft_seconds": "ttft_ms", "tpot_seconds": "tpot_ms", "tokens_per_second": "tokens_per_second"}
# engines measured as another: ollama runs llama.cpp's code (engine/serving/llama_cpp.py, GGUF_ENGINES in speed.py)
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


@cache
def _file() -> dict[str, Any]:
    return read_preset_json(SERVING_BANDS_FILE)


def speed_bands() -> dict[tuple[str, str], dict[str, Any]]:
    """(engine family or ALL_ENGINES, metric) -> its band entry (low, high, runs, source_urls)."""
    return {(b["engine"], b["metric"]): b for b in _file()["bands"]}


def speed_ranges(engine: str, speed: ServingSpeed) -> dict[str, SpeedRange]:
    """The shown figures' ranges: the engine family's band where it has MIN_OWN_RUNS rows of the metric, else all
    engines'; tokens/s is users / TPOT in speed.py, so its range is users / the TPOT range (the file's tokens/s
    bands stay for the report: a row's decode rate is the same measurement as its TPOT)."""
    family = ENGINE_FAMILY.get(engine, engine)
    bands, out = speed_bands(), {}
    for figure, metric in SHOWN_METRICS.items():
        band = bands.get((family, metric))
        if band is None or band["runs"] < MIN_OWN_RUNS:
            band = bands.get((ALL_ENGINES, metric))
        if band is None:
            continue
        value = float(getattr(speed, figure))
        out[figure] = SpeedRange(figure, value * (1 + band["low"]), value * (1 + band["high"]), tuple(band["run_ids"]),
                                 tuple(band["source_urls"]), band["engine"])
    tpot = out.get("tpot_seconds")
    if tpot is not None and tpot.low > 0:  # speed.py's tokens/s is users / TPOT: one figure, one range
        out["tokens_per_second"] = SpeedRange("tokens_per_second", speed.concurrency / tpot.high,
                                              speed.concurrency / tpot.low, tpot.runs, tpot.sources, tpot.engine)
    return out


def speed_range_basis(ranges: dict[str, SpeedRange]) -> dict[str, Any]:
    """What the ranges were checked against, for --json: the measured set, runs and sources in all, and per figure
    the band's engine (ALL_ENGINES where the engine has no rows of it), runs and sources."""
    return {"measured_set": _file()["measured_set"],
            "statistic": "10th to 90th percentile of measured / estimated - 1",
            "figures": {f: {"engine": r.engine, "runs": len(r.runs), "sources": len(r.sources),
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
        "checked against {runs} measured runs of {sources} source(s)")).format(
        ttft=words(ttft, format_seconds), tpot=words(tpot, format_seconds), rate=words(rate, format_count),
        runs=len({i for r in ranges.values() for i in r.runs}),
        sources=len({u for r in ranges.values() for u in r.sources}))
    family = ENGINE_FAMILY.get(engine, engine)
    borrowed = [r for r in ranges.values() if r.engine == ALL_ENGINES]
    if not borrowed:
        return text + tr_engine(QT_TRANSLATE_NOOP("engine", " ({engine}'s own).")).format(engine=engine_name(family))
    names = {"ttft_seconds": QT_TRANSLATE_NOOP("engine", "time to first token"),
             "tpot_seconds": QT_TRANSLATE_NOOP("engine", "time per output token"),
             "tokens_per_second": QT_TRANSLATE_NOOP("engine", "tokens/s")}
    return text + tr_engine(QT_TRANSLATE_NOOP(
        "engine", " ({engine} has fewer than 2 measured runs of {figures}: all engines' runs there).")).format(
        engine=engine_name(family), figures=", ".join(tr_engine(names[r.figure]) for r in borrowed))


__all__ = ["ALL_ENGINES", "ENGINE_FAMILY", "SERVING_BANDS_FILE", "SHOWN_METRICS", "SpeedRange", "speed_bands",
           "speed_range_basis", "speed_range_text", "speed_ranges"]
