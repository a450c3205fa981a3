"""Published measured throughput against the time model: per-row error and per-framework summaries."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..scenario import scenario_from_dict
from ..timing.model import step_time

THROUGHPUT_FILE = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "published" / "throughput.json"


@dataclass(frozen=True)
class Compared:
    id: str
    framework: str
    gpu: str
    measured: float  # tokens/s per GPU
    predicted: float

    @property
    def error(self) -> float:
        """Signed relative error of the prediction."""
        return self.predicted / self.measured - 1


def load_rows(path: Path = THROUGHPUT_FILE) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["rows"]


def compare(rows: list[dict[str, Any]]) -> list[Compared]:
    out = []
    for row in rows:
        s = scenario_from_dict(row["scenario"])
        out.append(Compared(row["id"], row["framework"], s.gpu if isinstance(s.gpu, str) else "custom",
                            float(row["measured"]), step_time(s).tokens_per_second_per_gpu))
    return out


def quantile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (the p90 of 10 values is the 9th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def summary(compared: list[Compared]) -> dict[str, dict[str, float]]:
    """{framework or "all": {rows, median, p90, mean_signed}} of |error|."""
    groups: dict[str, list[Compared]] = {"all": compared}
    for c in compared:
        groups.setdefault(c.framework, []).append(c)
    return {name: {"rows": len(items), "median": statistics.median(abs(c.error) for c in items),
                   "p90": quantile([abs(c.error) for c in items], 0.9),
                   "mean_signed": statistics.fmean(c.error for c in items)} for name, items in groups.items()}


def memory_verdicts(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per framework, how many of these runs (all of which ran) the memory model judges fits / tight / does not
    fit: a "does not fit" is a memory bug to find (issue 13)."""
    from ..memory.estimate import estimate  # the memory model, only for this check

    out: dict[str, dict[str, int]] = {}
    for row in rows:
        counts = out.setdefault(row["framework"], {"fits": 0, "tight": 0, "does not fit": 0})
        counts[estimate(scenario_from_dict(row["scenario"])).verdict] += 1
    return out
