"""Published measured throughput against the time model: per-row error and per-framework summaries."""

from __future__ import annotations

import contextlib
import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..scenario import resolve_model, scenario_from_dict
from ..timing.ceiling import DENSE, FROZEN, FULL, MOE, frozen_weights, leave_out, without_ceilings
from ..timing.hardware import hardware_for
from ..timing.mfu import mfu_figures, mfu_format
from ..timing.model import step_time
from ..timing.step_result import StepTime
from .source_tables import table_of

THROUGHPUT_FILE = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "published" / "throughput.json"
# More published runs, one file per source or table family ({"_about", "rows", "not_expressible"} like the main file),
# so that sets gathered separately never edit one file.
THROUGHPUT_PARTS_DIR = THROUGHPUT_FILE.parent / "throughput"


@dataclass(frozen=True)
class Compared:
    id: str
    framework: str
    gpu: str
    measured: float  # tokens/s per GPU
    predicted: float
    measured_mfu: float = 0.0  # of the measured throughput, against the dense peak of the run's compute format
    measured_mfu_bf16: float = 0.0  # the same against the bf16 peak (the convention of fp8 tables)
    source: str = ""  # the row's source, up to " at " (the repository or paper it comes from)
    arch: str = ""  # the GPU family (presets/gpus.json architecture: ampere, hopper, blackwell, cdna3, ...)

    @property
    def error(self) -> float:
        """Signed relative error of the prediction."""
        return self.predicted / self.measured - 1


def source_of(row: dict[str, Any]) -> str:
    """The independent source a row comes from: the repository (owner/name) or paper its source text starts with;
    one repository's several benchmark files are one source (its team, its stack)."""
    return str(row["source"]).split(" at ")[0].split(",")[0].split()[0]


def throughput_files() -> list[Path]:
    """The main throughput file, then every part file in tests/data/published/throughput/ by name."""
    return [THROUGHPUT_FILE, *sorted(THROUGHPUT_PARTS_DIR.glob("*.json"))]


def load_rows(path: Path | None = None) -> list[dict[str, Any]]:
    """The published runs of one file, or (no path) of the main file and every part file."""
    paths = [path] if path is not None else throughput_files()
    return [row for p in paths for row in json.loads(p.read_text(encoding="utf-8"))["rows"]]


def rows_matching(parts: list[str]) -> list[dict[str, Any]]:
    """The published runs whose id contains any of `parts` (every run where none is given): the benchmarks' row
    filter from the command line."""
    return [row for row in load_rows() if not parts or any(p in row["id"] for p in parts)]


def load_not_expressible() -> list[dict[str, Any]]:
    """Runs of the same tables that the scenario format cannot state, each with its reason, from every file."""
    return [e for p in throughput_files() for e in json.loads(p.read_text(encoding="utf-8")).get("not_expressible", [])]


def compare(rows: list[dict[str, Any]], cross_validated: bool = True) -> list[Compared]:
    """Each row's prediction; cross-validated (the default): with every figure taken from the published set (the
    MFU ceilings, engine/timing/ceiling.py) computed without the row's own source (leave-one-source-out)."""
    out = []
    for row in rows:
        s = scenario_from_dict(row["scenario"])
        mfu, mfu_bf16 = mfu_figures(s, resolve_model(s), float(row["measured"]))
        with leave_out(source_of(row)) if cross_validated else contextlib.nullcontext():
            predicted = timed_window_rate(row, step_time(s), s.grad_accum)
        out.append(Compared(row["id"], row["framework"], s.gpu if isinstance(s.gpu, str) else "custom",
                            float(row["measured"]), predicted, mfu, mfu_bf16, source_of(row), hardware_for(s).arch))
    return out


# A row's "measured_window" when its figure times one micro-batch that also runs the step's optimizer, not the step
# over its micro-batches: SemiAnalysis's reproduction scripts in ROCm/TransformerEngine issues #76 and #78 (the
# rows' notes) time each loader iteration with CUDA events and print the last one's rate, and their last iteration
# (step_idx 127 of bsz x 1,024 samples over 8 ranks, bsz per iteration: 128 a rank) is the one where
# (step_idx + 1) % grad_acc_steps == 0, which runs clip_grad_norm_ and optimizer.step() after its backward
MICRO_BATCH_WITH_STEP = "micro-batch with the optimizer step"


def missed_ms_per_micro_batch(row: dict[str, Any]) -> tuple[float, float]:
    """(measured - predicted step, measured step) per micro-batch of a row in ms, the prediction without any MFU
    ceiling (engine/timing/ceiling.py): where a row's time goes missing, before another source's ceiling hides it."""
    with without_ceilings():
        t = step_time(scenario_from_dict(row["scenario"]))
    measured_step = t.step_seconds * t.tokens_per_second_per_gpu / float(row["measured"])
    micro_batches = max(int(row["scenario"].get("grad_accum", 1)), 1)  # a row without it: the scenario's default, 1
    return (measured_step - t.step_seconds) / micro_batches * 1e3, measured_step / micro_batches * 1e3


def timed_window_rate(row: dict[str, Any], t: StepTime, grad_accum: int) -> float:
    """Tokens/s per GPU over the span the row's figure timed: the step (its tokens over its seconds), or, for a
    MICRO_BATCH_WITH_STEP row, one micro-batch's tokens over the step's work but the optimizer averaged over its
    micro-batches, plus the whole optimizer step (the gradient clip's passes with it)."""
    if row.get("measured_window") != MICRO_BATCH_WITH_STEP:
        return t.tokens_per_second_per_gpu
    optimizer = t.breakdown_seconds["optimizer"]
    window = (t.step_seconds - optimizer) / grad_accum + optimizer
    return t.tokens_per_step / t.world_size / grad_accum / window


# Runs that measure less than what their GPU does at full power on a whole model, in their sources' own words: they
# set no ceiling (a ceiling taken from them would cap other sources' full runs below what those reached)
NOT_FULL_RATE = (
    ("torchao-mx-llama3-8b-8xb200pl-", "power-limited: pytorch/ao torchao/prototype/mx_formats/README.md at d8bb51f, "
     "'8xB200 GPUs limited to 750W' (gpu b200-750w), batch size 1 on 8 GPUs: the only runs on that preset"),
    ("torchao-moe-llama4-scout-2l-", "a cut-down model: pytorch/ao torchao/prototype/moe_training/README.md at "
     "36027d8, 'Llama4 16e with 2 layers'"),
    ("mlperf5.1-", "time-to-train runs: MLPerf Training's closed division fixes the global batch for convergence "
     "(mlcommons/training_results_v5.1 NVIDIA llama31_8b configs: 36 sequences on 72 GPUs, each split over CP 2; "
     "grad_accum 1), so their MFU says what that batch reached, not what the GPU sustains"),
)


def sets_ceiling(row: dict[str, Any]) -> bool:
    """Whether a run's MFU may bound other runs' (NOT_FULL_RATE names the ones that may not)."""
    return not any(row["id"].startswith(prefix) for prefix, _ in NOT_FULL_RATE)


def best_mfu_by_source(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per GPU, compute format, model kind (dense or moe), training kind (full, or frozen: some weights frozen) and
    source, the run with the highest measured MFU: presets/mfu_ceilings.json's entries (the time model claims at most
    (1 + margin) x the best of them for a plan of the same kinds; engine/timing/ceiling.py)."""
    best: dict[tuple[str, str, str, str, str], dict[str, Any]] = {}
    for row in rows:
        s = scenario_from_dict(row["scenario"])
        if not isinstance(s.gpu, str) or not sets_ceiling(row):
            continue
        spec = resolve_model(s)
        # attention counted whole (mfu.py's second figure): the count the published runs print (torchtitan, NeMo's
        # 2024 tables, PaLM's appendix B) and the one the cap compares (timing/model.py)
        mfu = mfu_figures(s, spec, float(row["measured"]), causal=False)[0]
        key = (s.gpu, mfu_format(s), MOE if spec.is_moe else DENSE, FROZEN if frozen_weights(s, spec) else FULL,
               source_of(row))
        if key not in best or mfu > best[key]["mfu"]:
            best[key] = {"gpu": s.gpu, "arch": hardware_for(s).arch, "format": key[1], "kind": key[2],
                         "training": key[3], "source": key[4], "row": row["id"], "mfu": round(mfu, 4)}
    return [best[k] for k in sorted(best)]


def quantile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (the p90 of 10 values is the 9th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def summary(compared: list[Compared], by: str = "framework") -> dict[str, dict[str, float]]:
    """{framework (or source, gpu, arch: `by`) or "all": {rows, median, p90, mean_signed, median_signed}}: median and
    p90 of |error|, mean and median of the signed error (issue 23 bounds the median signed error per framework and
    GPU family)."""
    groups: dict[str, list[Compared]] = {"all": compared}
    for c in compared:
        groups.setdefault(getattr(c, by), []).append(c)
    return {name: {"rows": len(items), "median": statistics.median(abs(c.error) for c in items),
                   "p90": quantile([abs(c.error) for c in items], 0.9),
                   "mean_signed": statistics.fmean(c.error for c in items),
                   "median_signed": statistics.median(c.error for c in items)} for name, items in groups.items()}


def memory_verdicts(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per framework, how many of these runs (all of which ran) the memory model judges fits / tight / does not
    fit: a "does not fit" is a memory bug to find (issue 13)."""
    from ..memory.estimate import estimate  # the memory model, only for this check

    out: dict[str, dict[str, int]] = {}
    for row in rows:
        counts = out.setdefault(row["framework"], {"fits": 0, "tight": 0, "does not fit": 0})
        counts[estimate(scenario_from_dict(row["scenario"])).verdict] += 1
    return out


@dataclass(frozen=True)
class LayoutOrder:
    """Issue 23 item 5: pairs of published runs of one model on the same GPUs (same source, GPU, GPU count, sequence
    length and number format) whose settings differ; `agree` of them are ordered by the prediction as measured."""

    pairs: int
    agree: int
    by_source: dict[str, tuple[int, int]]  # source: (agree, pairs)
    ties: int = 0  # pairs the prediction cannot tell apart (equal predicted throughput)

    @property
    def share(self) -> float:
        """Ordered as measured, a pair predicted equal counting half: the prediction does not order it, and
        leaving it out would credit the model with the pairs it cannot tell apart."""
        counted = self.pairs + self.ties
        return (self.agree + self.ties / 2) / counted if counted else 1.0


def layout_groups(rows: list[dict[str, Any]]) -> dict[tuple, list[dict[str, Any]]]:
    """Runs of one model on the same GPUs, the groups whose pairs layout_order compares: keyed by (source, model,
    GPU, GPU count, sequence length, precision, fp8 recipe); a model given inline is keyed by its whole config."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        s = r["scenario"]
        model = s["model"] if isinstance(s["model"], str) else json.dumps(s["model"], sort_keys=True)
        key = (source_of(r), model, str(s.get("gpu")), s.get("gpus_per_node", 1) * s.get("nodes", 1),
               s.get("seq_len"), s.get("precision"), s.get("fp8_recipe"))
        groups.setdefault(key, []).append(r)
    return groups


def layout_order(rows: list[dict[str, Any]], compared: list[Compared], min_gap: float = 0.0,
                 same_table: bool = False) -> LayoutOrder:
    """Layout comparisons ordered as measured; pairs whose measured tokens/s differ by `min_gap` or less are left out
    (a tie in the table says nothing about the order), and so are pairs predicted equal: they differ only in settings
    the time model does not read (main_grads_fp32; cuda_graphs "auto" against "none", the same under Megatron), so
    neither order is the prediction's; counted in `ties` (half each in `share`) instead of by the order the rows
    happen to have in the file. `same_table`: only pairs of one table of their source (source_tables.table_of)."""
    by_id = {c.id: c for c in compared}
    # each run's settings without its name, once: two runs with the same settings are no layout comparison
    settings = {r["id"]: {k: v for k, v in r["scenario"].items() if k != "name"} for r in rows}
    agree = pairs = ties = 0
    by_source: dict[str, tuple[int, int]] = {}
    for (source, *_rest), group in layout_groups(rows).items():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                same = settings[a["id"]] == settings[b["id"]]
                ca, cb = by_id[a["id"]], by_id[b["id"]]
                if same or abs(ca.measured / cb.measured - 1) <= min_gap:
                    continue  # the same run in two releases, or a tie
                if same_table and table_of(a) != table_of(b):
                    continue
                if ca.predicted == cb.predicted:
                    ties += 1
                    continue
                ok = (ca.measured > cb.measured) == (ca.predicted > cb.predicted)
                pairs, agree = pairs + 1, agree + ok
                n_ok, n = by_source.get(source, (0, 0))
                by_source[source] = (n_ok + ok, n + 1)
    return LayoutOrder(pairs, agree, by_source, ties)
