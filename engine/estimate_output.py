"""The estimate as the command line shows it: `--json` (estimate_to_json, json_text) and the text table and time
lines (render_table, render_time). No Qt; the window's exports and the CLI both use these."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Any

from .errors import PlannerError
from .memory.breakdown import Estimate
from .messages import QT_TRANSLATE_NOOP, one_line
from .models.presets import memory_tool_named
from .posttraining import rl_time_to_json, rl_to_json
from .posttraining.band_text import posttraining_band_lines
from .posttraining.refused_step import refused_step_text
from .posttraining.time_band import POSTTRAINING_REGIME, POSTTRAINING_REGIME_WORD
from .range_words import band_multiples, gpu_hours_message, likely_range_sentence
from .timing import StepTime
from .timing.bands import ALL, Band
from .timing.step_result import run_range_words
from .units import format_bytes, format_cost, format_count, format_gpu_count, format_seconds


def estimate_to_json(est: Estimate, time: StepTime | None = None) -> dict[str, Any]:
    busiest = est.busiest
    out = {
        "scenario": est.scenario_name,
        "estimator": est.estimator,
        "model": est.model_name,
        "gpu": est.gpu_name,
        "world_size": est.world_size,
        "verdict": est.verdict,
        "peak_allocated_bytes": round(est.peak_allocated_bytes),
        "peak_phase": est.peak_phase,
        "phases": {k: round(v) for k, v in est.phases.items()},
        "peak_reserved_bytes": round(est.peak_reserved_bytes),
        # what the framework's own memory figure reports: torch.cuda.max_memory_allocated() / max_memory_reserved()
        # at the end of training, loading included where the framework never resets the statistics (litgpt)
        "reported_allocated_bytes": round(est.reported_allocated_bytes),
        "reported_reserved_bytes": round(est.reported_reserved_bytes),
        "process_bytes": round(est.process_bytes),
        "total_bytes": round(est.total_bytes),
        "capacity_bytes": est.capacity_bytes,
        "load": {"gpu_bytes": round(est.load_gpu_bytes), "formula": est.load_formula, "is_peak": est.load_is_peak,
                 "peak_statistics_include_load": est.peak_includes_load},
        "host_bytes": round(est.host_bytes),
        "host_capacity_bytes": est.host_capacity_bytes,
        "host_verdict": est.host_verdict,
        "fits": est.fits,
        "headroom_bytes": round(est.headroom_bytes),
        "trainable_params": est.trainable_params,
        "total_params": est.total_params,
        "active_params": est.active_params,
        "components": [
            {"key": c.key, "name": c.name, "bytes": round(b), "category": c.category, "phase": c.phase,
             "formula": c.formula, "inputs": {k: v for k, v in c.inputs}}
            for c, b in busiest.at_peak()
        ],
        "overheads": [
            {"key": c.key, "name": c.name, "bytes": round(c.peak_bytes), "category": c.category,
             "formula": c.formula, "inputs": {k: v for k, v in c.inputs}}
            for c in busiest.overheads
        ],
        "per_stage": [
            {"stage": st.stage, "layers": st.layers, "microbatches_in_flight": st.microbatches_in_flight,
             "peak_allocated_bytes": round(st.peak_allocated_bytes), "peak_phase": st.peak_phase,
             "total_bytes": round(st.total_bytes), "phases": {k: round(v) for k, v in st.phases.items()}}
            for st in est.stages
        ],
        "other_ranks": [
            {"ranks": o.ranks, "stage": o.estimate.stage, "peak_allocated_bytes": round(o.estimate.peak_allocated_bytes),
             "peak_phase": o.estimate.peak_phase, "total_bytes": round(o.estimate.total_bytes),
             "phases": {k: round(v) for k, v in o.estimate.phases.items()}}
            for o in est.other_ranks
        ],
        "warnings": [str(w) for w in est.warnings],
    }
    if est.rl is not None:
        out["rl"] = rl_to_json(est.rl)
    if time is not None:
        out["time"] = rl_time_to_json(time)
    return out

def identity_text(text: str) -> str:
    return text

def display_width(text: str) -> int:
    """Terminal columns: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

def _pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * (width - display_width(text))
    return fill + text if right else text + fill

# the estimators' ids (engine/scenario/choices.py ESTIMATORS), marked so the table's header says them translated
ESTIMATOR_WORDS = (QT_TRANSLATE_NOOP("engine", "detailed"), QT_TRANSLATE_NOOP("engine", "seed-per-op"),
                   QT_TRANSLATE_NOOP("engine", "seed-k-factor"), QT_TRANSLATE_NOOP("engine", "seed-alpha"))
ALL_RUNS_WORD = QT_TRANSLATE_NOOP("engine", "all")  # the time band of every framework's runs (engine/timing/bands.py)


def regime_text(band: Band, tr_engine: Callable[[str], str]) -> str:
    """A time band's regime in words: a framework's name as it is, every framework's runs translated."""
    if band.regime == POSTTRAINING_REGIME:
        return tr_engine(POSTTRAINING_REGIME_WORD)
    return tr_engine(ALL_RUNS_WORD) if band.regime == ALL else band.regime


def render_table(est: Estimate, unit: str, tr: Callable[[str], str] = identity_text,
                 tr_engine: Callable[[str], str] = identity_text, runs: bool = True) -> str:
    """The readable table; `tr` translates the table's own words, `tr_engine` the engine's; `runs` False: the GPU
    cannot run the plan as stated (engine/memory/gpu_precision.py), said on the verdict's line."""
    rows = [(tr_engine(c.name), format_bytes(b, unit), f"{b / est.peak_allocated_bytes:6.1%}", tr_engine(c.phase))
            for c, b in est.busiest.at_peak()]
    rows += [(tr_engine(c.name), format_bytes(c.peak_bytes, unit), "", tr(QT_TRANSLATE_NOOP("cli", "overhead")))
             for c in est.busiest.overheads if c.peak_bytes]
    header = (tr(QT_TRANSLATE_NOOP("cli", "Component")), tr(QT_TRANSLATE_NOOP("cli", "Memory ({unit})")).format(unit=unit),
              tr(QT_TRANSLATE_NOOP("cli", " Share")), tr(QT_TRANSLATE_NOOP("cli", "Lives in")))
    widths = [max(display_width(r[i]) for r in [header, *rows]) for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    out = [tr(QT_TRANSLATE_NOOP("cli", "{name}: {model} on {n} x {gpu} ({estimator})")).format(
        name=est.scenario_name, model=est.model_name, n=format_gpu_count(est.world_size), gpu=est.gpu_name,
        estimator=tr_engine(est.estimator)), ""]
    for r in (header, None, *rows, None):
        out.append(line if r is None else "  ".join(_pad(v, w, i in (1, 2)) for i, (v, w) in enumerate(zip(r, widths,
                                                                                                             strict=True))))
    peak_mark = tr(QT_TRANSLATE_NOOP("cli", " <- peak"))
    names = {"forward": tr(QT_TRANSLATE_NOOP("cli", "forward")), "backward": tr(QT_TRANSLATE_NOOP("cli", "backward")),
             "optimizer": tr(QT_TRANSLATE_NOOP("cli", "optimizer"))}
    phases = ", ".join(f"{names[p]} {format_bytes(v, unit)}" + (peak_mark if p == est.peak_phase else "")
                       for p, v in est.phases.items())
    if est.rl is None or est.rl.peak_phase == "training":  # a generation or scoring peak has no such split
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Phase peaks: {phases}")).format(phases=phases))
    if est.rl is not None:  # post-training: the table above is the step's largest phase
        steps = ", ".join(f"{tr_engine(p.name)} {format_bytes(p.peak_bytes, unit)}"
                          + (peak_mark if p.key == est.rl.peak_phase else "") for p in est.rl.phases)
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Post-training step ({objective}), allocated per phase: {phases}")).format(
            objective=est.rl.objective, phases=steps))
        if est.rl.engine_gpu_bytes:  # an engine on GPUs of its own: each set's figure (the total is the larger)
            out.append(tr(QT_TRANSLATE_NOOP("cli", "Each training GPU {training} with its overheads and safety reserve; "
                                                   "each generation engine GPU {engine}, judged by the engine's start-up "
                                                   "check (no reserve on top of its share).")).format(
                training=format_bytes(est.rl.training_gpu_bytes, unit), engine=format_bytes(est.rl.engine_gpu_bytes, unit)))
    if len(est.stages) > 1:
        stages = ", ".join(tr(QT_TRANSLATE_NOOP("cli", "stage {n}: {total}")).format(
            n=st.stage, total=format_bytes(st.total_bytes, unit)) for st in est.stages)
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Per pipeline stage: {stages}")).format(stages=stages))
    for other in est.other_ranks:
        out.append(tr(QT_TRANSLATE_NOOP("cli", "GPUs that hold less: {ranks} {total} (peak allocated {peak}).")).format(
            ranks=tr_engine(other.ranks), total=format_bytes(other.estimate.total_bytes, unit),
            peak=format_bytes(other.estimate.peak_allocated_bytes, unit)))
    # an allocator that is not PyTorch's (MLX's Metal cache): named with no figure, as the window says it
    reserved = (tr(QT_TRANSLATE_NOOP("cli", "{cache}: not estimated")).format(cache=tr_engine(est.allocator_cache))
                if est.allocator_cache else tr(QT_TRANSLATE_NOOP("cli", "Reserved by PyTorch {reserved}")).format(
                    reserved=format_bytes(est.peak_reserved_bytes, unit)))
    out.append(tr(QT_TRANSLATE_NOOP("cli", "{reserved}; process (as {tool} shows it) {process}; loading the model "
                                           "{load}; host memory per node {host}.")).format(
        reserved=reserved, process=format_bytes(est.process_bytes, unit),
        tool=tr_engine(memory_tool_named(est.gpu_name)),  # rocm-smi on an MI300X (user audit 8), Activity Monitor on a Mac
        load=format_bytes(est.load_gpu_bytes, unit), host=format_bytes(est.host_bytes, unit)))
    out.append(tr(QT_TRANSLATE_NOOP("cli", "Peak allocated {peak}; with overheads and reserve {total} of {capacity} "
                                           "per GPU.")).format(peak=format_bytes(est.peak_allocated_bytes, unit),
                                                               total=format_bytes(est.total_bytes, unit),
                                                               capacity=format_bytes(est.capacity_bytes, unit)))
    verdict = tr_engine(est.verdict)
    verdict = verdict.upper() if verdict.isascii() else verdict
    if est.fits:
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Verdict: {verdict} (headroom {bytes} per GPU)")).format(
            verdict=verdict, bytes=format_bytes(est.headroom_bytes, unit)))
    else:  # the same words as the window: "tight" is never "over by"
        # the engine's sentence ends a sentence of its own ("... budget)."): inside the brackets it read ".)"
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Verdict: {verdict} ({room})")).format(
            verdict=verdict, room=est.room(unit).format_with(tr_engine).rstrip(".。")))
    if (note := est.host_note(unit)) is not None:  # on the verdict's own line: the verdict covers the GPUs only
        out[-1] += " — " + note.format_with(tr_engine)
    if not runs:  # the memory would fit, the GPU refuses the plan: the warning below says why
        out[-1] += " — " + tr(QT_TRANSLATE_NOOP("cli", "but this GPU cannot run it as stated (see the warning)"))
    out += [tr(QT_TRANSLATE_NOOP("cli", "Warning: {text}")).format(text=w.format_with(tr_engine)) for w in est.warnings]
    return "\n".join(out)

def terminal_text(text: str) -> str:
    """Whole output: every line made terminal-safe (our own line breaks kept)."""
    return "\n".join(one_line(line) for line in text.split("\n"))

def json_text(data: Any) -> str:
    """`--json` output: strict JSON, never a bare NaN or Infinity (which JSON does not have and parsers refuse)."""
    try:
        return json.dumps(data, indent=2, allow_nan=False)
    except ValueError as exc:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This scenario gives a figure that is not a finite number, "
                                                       "so no JSON is printed; please report it.")) from exc

def render_time(t: StepTime, tr: Callable[[str], str] = identity_text, tr_engine: Callable[[str], str] = identity_text,
                fits: bool = True, currency: str = "", runs: bool = True) -> str:
    """The time lines under the memory table; a plan that does not fit says its time is for reference only (`fits`:
    the verdict is "fits" or "tight", which runs inside the safety reserve), as one its GPU cannot run (`runs`)."""
    if refused := refused_step_text(t, tr_engine):  # its engine would not start: no step time (refused_step.py)
        parts = ", ".join(f"{tr_engine(term.name)} {format_seconds(term.seconds)}" for term in t.terms
                          if format_seconds(term.seconds) != format_seconds(0.0) and term.key != "generation")
        return "\n".join([refused, tr(QT_TRANSLATE_NOOP("cli", "Where the time goes: {parts}")).format(parts=parts)])
    out = [] if fits else [tr(QT_TRANSLATE_NOOP("cli", "This plan does not fit: time shown for reference only."))]
    if fits and not runs:
        out.append(tr(QT_TRANSLATE_NOOP("cli", "This GPU cannot run this plan as stated: time shown for reference "
                                               "only.")))
    out += [tr(QT_TRANSLATE_NOOP("cli", "Time: {step} per step, {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}")
               if t.world_size > 1 else  # one GPU: no "(1.51K per GPU)" repeating the plan's rate (user audit 9)
               QT_TRANSLATE_NOOP("cli", "Time: {step} per step, {tps} tokens/s, MFU {mfu:.0%}")).format(
        step=format_seconds(t.step_seconds), tps=format_count(t.tokens_per_second),
        per_gpu=format_count(t.tokens_per_second_per_gpu), mfu=t.mfu)]
    other = []  # the MFU in the conventions published tables use, in one parenthesis
    if t.mfu_bf16_peak and t.mfu_bf16_peak != t.mfu:  # fp8, NVFP4: MFU is of their peak; tables often divide by bf16's
        other.append(tr(QT_TRANSLATE_NOOP("cli", "{mfu:.0%} of the bf16 peak")).format(mfu=t.mfu_bf16_peak))
    if t.mfu_attention_whole and f"{t.mfu_attention_whole:.0%}" != f"{t.mfu:.0%}":  # torchtitan's MFU (mfu.py)
        other.append(tr(QT_TRANSLATE_NOOP("cli", "{mfu:.0%} with attention counted whole, as torchtitan prints it")
                        ).format(mfu=t.mfu_attention_whole))
    if other:
        out[-1] += tr(QT_TRANSLATE_NOOP("cli", " ({figures})")).format(figures=tr(QT_TRANSLATE_NOOP("cli", "; ")).join(
            other))
    if t.band is not None and t.band.regime == POSTTRAINING_REGIME:
        out += posttraining_band_lines(t, tr_engine)
    elif t.band is not None:
        # the band is the 10th to 90th percentile of its regime's cross-validated error (engine/timing/bands.py)
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Range: {likely} per step; 8 in 10 published runs ({regime}: {runs} "
                                               "from {sources} sources) came within these multiples of their "
                                               "estimate")).format(
            likely=likely_range_sentence(format_seconds(t.seconds_range[0]), format_seconds(t.seconds_range[1]),
                                         *band_multiples(t.band.low, t.band.high), tr_engine),
            runs=t.band.runs, sources=t.band.sources, regime=regime_text(t.band, tr_engine)))
    # a term that reads "0.0 ms" said nothing (user audit 11, as the window's legend): --json keeps every term
    parts = ", ".join(f"{tr_engine(term.name)} {format_seconds(term.seconds)}" for term in t.terms
                      if format_seconds(term.seconds) != format_seconds(0.0))
    out.append(tr(QT_TRANSLATE_NOOP("cli", "Where the time goes: {parts}")).format(parts=parts))
    if t.time_to_train_seconds is not None:
        # the steps beside the time, as the Time tab says them (user audit 11: a post-training run is planned in steps)
        line = tr(QT_TRANSLATE_NOOP("cli", "Time to train: {time} ({steps} steps), {hours}")).format(
            time=format_seconds(t.time_to_train_seconds), hours=gpu_hours_message(t.gpu_hours or 0).format_with(tr_engine),
            steps=format_count(t.time_to_train_seconds / t.step_seconds if t.step_seconds else 0))
        if t.cost is not None:
            line += tr(QT_TRANSLATE_NOOP("cli", ", cost {cost}")).format(cost=format_cost(t.cost, currency)) \
                if currency else tr(QT_TRANSLATE_NOOP("cli", ", cost {cost} (in the price's currency)")).format(
                    cost=format_cost(t.cost, ""))
        if (spread := run_range_words(t, currency)) is not None:  # the step's range carried to the whole run
            line += tr(QT_TRANSLATE_NOOP("cli", " ({likely}, as the step time's range)")).format(
                likely=spread.format_with(tr_engine))
        out.append(line)
    out += [tr(QT_TRANSLATE_NOOP("cli", "Note: {text}")).format(text=n.format_with(tr_engine)) for n in t.notes]
    return "\n".join(out)
