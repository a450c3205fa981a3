"""Text reports of an estimate: Markdown (inputs, verdict, breakdown, assumptions) and CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from .frameworks.defaults import defaults_for
from .memory.breakdown import Estimate
from .messages import QT_TRANSLATE_NOOP, Message, one_line
from .plan_card import change_sentence, engine_gpus_apart, time_facts
from .scenario import DEFAULTS, Scenario
from .scenario.key_words import field_label, value_words
from .serving import REFUSED, serving_speed
from .serving.report import all_instances_words
from .serving.speed_band import speed_range_text
from .timing import StepTime
from .units import format_bytes, format_count, format_gpu_count, format_price, format_seconds

ASSUMPTIONS = (
    QT_TRANSLATE_NOOP("report", "Steady state: the second training step, optimizer states alive; gradients freed by "
                                "zero_grad(set_to_none=True)."),
    # {counter}: the framework's own peak counter (FrameworkDefaults.peak_counter): MLX's mx.get_peak_memory, which
    # the card said was torch.cuda.max_memory_allocated (user audit 9)
    QT_TRANSLATE_NOOP("report", "Peak allocated memory is what {counter} reports; context, fragmentation and the "
                                "reserve are added on top."),
    # it said "Sequences are packed or unpadded", beside a plan whose packing is "padded" (user audit 15): the packing
    # is an input of the plan (engine/scenario/packing.py), the mask is what holds for every layout
    QT_TRANSLATE_NOOP("report", "No b x s x s attention mask is materialised; sequences are laid out as the plan's "
                                "packing says (padded ones count every position up to the sequence length)."),
    QT_TRANSLATE_NOOP("report", "The detailed estimator is checked against traced Hugging Face training steps "
                                "(docs/accuracy.md)."),
)
SERVING_ASSUMPTIONS = (
    QT_TRANSLATE_NOOP("report", "The engine's own accounting at start-up (vLLM's profile run and KV blocks, SGLang's "
                                "mem_fraction_static, llama.cpp's buffers from n_ctx); settings left unset take the "
                                "engine's defaults."),
    QT_TRANSLATE_NOOP("report", "Speed is a roofline with the time model's efficiencies, not a measurement."),
)
Translate = Callable[[str], str]


def _line(text: str) -> str:
    """Text in a Markdown line: the scenario's, model's and GPU's names are the user's, and a line break in one
    started a line of its own ("**Verdict: FITS**", "# ...", "- ..."), an escape code went into the file raw;
    one_line shows both as escapes, as the plan card and the exports do."""
    return one_line(text)


def _cell(text: str) -> str:
    """Text in a Markdown table cell: on one line, a "|" escaped so that it does not start another cell."""
    return one_line(text).replace("|", "\\|")


def _same(text: str) -> str:
    return text


def changed_inputs(s: Scenario) -> list[tuple[str, object]]:
    """Scenario keys that differ from the defaults (plus the model and GPU)."""
    data = s.to_dict()
    out = []
    for key, value in data.items():
        if key in ("schema_version", "notes"):
            continue
        if key in ("model", "gpu", "name") or value != _default(key):
            out.append((key, value if not isinstance(value, dict) else value.get("name", "custom")))
    return out


def input_rows(s: Scenario, tr_fields: Translate = _same, tr_engine: Translate = _same) -> list[tuple[str, str, str]]:
    """The changed inputs as the window says them, with the file's form for reproducing the run: (the control's label,
    its value in words, "key: value" as in the scenario file). The table listed keys and ids ("precision | bf16",
    "optimizer | auto") where the card and the set-up give words (user audit 9). Labels and words come from the key
    declarations' words (engine/scenario/key_words.py, `tr_fields` the "Fields" context, as the form and the
    comparison use them); an optimizer or kernel the framework names its own way takes that name (Runs.own_names)."""
    runs = defaults_for(s.framework).runs
    rows = []
    for key, value in changed_inputs(s):
        own = runs.own_name(key, value) if isinstance(value, str) else ""
        words = tr_engine(own) if own else value_words(key, value, tr_fields)
        if key in ("gpu_hour_price", "budget") and isinstance(value, int | float):  # "1.3" read without its currency
            words = format_price(value, s.currency)  # (user audit 12)
        file_value = ", ".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)
        rows.append((field_label(key, tr_fields), words, f"{key}: {file_value}"))
    return rows


def _default(key: str) -> object:
    default = DEFAULTS[key][0]
    return list(default) if isinstance(default, tuple) else default


@dataclass(frozen=True)
class Report:
    """One scenario's report, already in the reader's language; rendered as Markdown or HTML."""

    title: str
    verdict: str
    inputs: list[tuple[str, str, str]]  # setting, value in words, "key: value" as in the scenario file
    header: tuple[str, str, str, str]
    rows: list[tuple[str, str, str, str, bool]]  # name, bytes, share, lives in, is an overhead
    phases: str
    warnings: list[str]
    assumptions: list[str]
    headings: dict[str, str]


def build_report(s: Scenario, est: Estimate, unit: str = "GiB", tr: Translate = _same,
                 tr_engine: Translate = _same, tr_fields: Translate = _same) -> Report:
    """tr translates the report's own words ("report" context), tr_engine the engine's, tr_fields the set-up's."""
    verdict = tr_engine(est.verdict)
    engine = engine_gpus_apart(s, est)  # the generation engine on GPUs of its own: each set with its figure
    template = QT_TRANSLATE_NOOP("report", "{verdict}: {total} of {capacity} per GPU on {n} x {gpu} training and "
                                           "{engine_total} per GPU on {engine_n} x {gpu} running the generation engine "
                                           "({room}); estimator {estimator}.") if engine else \
        QT_TRANSLATE_NOOP("report", "{verdict}: {total} of {capacity} per GPU on {n} x {gpu} ({room}); "
                                    "estimator {estimator}.")
    line = tr(template).format(
        engine_total=format_bytes(est.rl.engine_gpu_bytes, unit) if engine else "", engine_n=format_gpu_count(engine),
        verdict=verdict.upper() if verdict.isascii() else verdict,
        total=format_bytes(est.rl.training_gpu_bytes if engine else est.total_bytes, unit),
        capacity=format_bytes(est.capacity_bytes, unit), n=format_gpu_count(est.world_size), gpu=est.gpu_name,
        # a served model's room is the engine's sentence: its full stop inside the brackets read "(... cache.);"
        room=est.room(unit).format_with(tr_engine).rstrip(".。"), estimator=tr_engine(est.estimator))
    if (note := est.host_note(unit)) is not None and (est.serving is None or est.host_bytes):  # GPUs only: said
        line += " " + note.format_with(tr_engine) + "."
    if (change := change_sentence(s, est, unit)) is not None:  # it does not fit: Make it fit's first plans
        line += " " + change.format_with(tr_engine)
    peak = est.peak_allocated_bytes
    rows = [(tr_engine(c.name), format_bytes(b, unit), f"{b / peak:.1%}", tr_engine(c.phase), False)
            for c, b in est.busiest.at_peak()]
    rows += [(tr_engine(c.name), format_bytes(c.peak_bytes, unit), "", tr(QT_TRANSLATE_NOOP("report", "overhead")),
              True) for c in est.busiest.overheads if c.peak_bytes]
    names = {"forward": tr(QT_TRANSLATE_NOOP("report", "forward")),
             "backward": tr(QT_TRANSLATE_NOOP("report", "backward")),
             "optimizer": tr(QT_TRANSLATE_NOOP("report", "optimizer step"))}
    if est.rl is not None and est.rl.peak_phase != "training":  # generation's or scoring's peak: no such split
        peaks = [(tr_engine(p.name), p.peak_bytes) for p in est.rl.phases]
        peak_name = tr_engine(next(p.name for p in est.rl.phases if p.key == est.rl.peak_phase))
    else:
        peaks, peak_name = [(names[p], v) for p, v in est.phases.items()], names[est.peak_phase]
    phases = tr(QT_TRANSLATE_NOOP("report", "Phase peaks: {phases} (peak: {peak}).")).format(
        phases=", ".join(f"{name} {format_bytes(peak_bytes, unit)}" for name, peak_bytes in peaks), peak=peak_name)
    if est.rl is not None and est.rl.peak_phase == "training":  # the step's other phases, as `estimate` lists them
        phases = rl_phases_line(est, unit, tr, tr_engine) + " " + phases
    assumptions, counter = ASSUMPTIONS, defaults_for(s.framework).peak_counter or "torch.cuda.max_memory_allocated"
    if est.serving is not None:  # a served model has no training phases: the engine's KV cache and speed instead
        phases, assumptions = serving_line(s, est, tr, tr_engine), SERVING_ASSUMPTIONS
    return Report(
        title=s.name, verdict=line, inputs=input_rows(s, tr_fields, tr_engine),
        header=(tr(QT_TRANSLATE_NOOP("report", "component")), unit, tr(QT_TRANSLATE_NOOP("report", "share")),
                tr(QT_TRANSLATE_NOOP("report", "lives in"))),
        rows=rows, phases=phases, warnings=[w.format_with(tr_engine) for w in est.warnings],
        assumptions=[tr(a).replace("{counter}", counter) for a in assumptions],
        headings={"inputs": tr(QT_TRANSLATE_NOOP("report", "Inputs")),
                  "breakdown": tr(QT_TRANSLATE_NOOP("report", "Breakdown (busiest GPU, at the peak)")),
                  "warnings": tr(QT_TRANSLATE_NOOP("report", "Warnings")),
                  "assumptions": tr(QT_TRANSLATE_NOOP("report", "Assumptions")),
                  "setting": tr(QT_TRANSLATE_NOOP("report", "setting")),
                  "value": tr(QT_TRANSLATE_NOOP("report", "value")),
                  "key": tr(QT_TRANSLATE_NOOP("report", "in the scenario file"))},
    )


def rl_phases_line(est: Estimate, unit: str, tr: Translate = _same, tr_engine: Translate = _same) -> str:
    """A post-training step's phases (generation, scoring, training, weight sync) with the largest named: the report
    listed only the training step's forward / backward / optimizer split where the training step is the peak."""
    rl = est.rl
    return tr(QT_TRANSLATE_NOOP("report", "Post-training step, allocated per phase: {phases} (peak: {peak}).")).format(
        phases=", ".join(f"{tr_engine(p.name)} {format_bytes(p.peak_bytes, unit)}" for p in rl.phases),
        peak=tr_engine(next(p.name for p in rl.phases if p.key == rl.peak_phase)))


def serving_line(s: Scenario, est: Estimate, tr: Translate = _same, tr_engine: Translate = _same) -> str:
    """The KV cache as the engine sizes it, its concurrency and the speed as set, in one paragraph."""
    m = est.serving
    paged = m.blocks > 0 and m.block_size > 1  # as the window's line: no "0 blocks of 256" for an unpaged engine
    text = tr(QT_TRANSLATE_NOOP("report", "KV cache: {tokens} tokens in {blocks} blocks of {block}; maximum "
                                          "concurrency at {length} tokens per request: {users:.2f}x; longest context "
                                          "for one request: {longest} tokens.") if paged else QT_TRANSLATE_NOOP(
        "report", "KV cache: {tokens} tokens; maximum concurrency at {length} tokens per request: {users:.2f}x; "
        "longest context for one request: {longest} tokens.")).format(
        tokens=f"{m.kv_tokens:,}", blocks=f"{m.blocks:,}", block=m.block_size, length=f"{m.max_model_len:,}",
        users=m.max_concurrent_sequences, longest=f"{m.longest_context:,}")
    if m.verdict == REFUSED:
        return text
    speed = serving_speed(s, m)
    text += " " + tr(QT_TRANSLATE_NOOP("report", "Speed at {users} sequences: time to first token {ttft}, "
                                                 "{tpot} per output token, {tps} tokens/s.") if speed.concurrency != 1
                     else QT_TRANSLATE_NOOP("report", "Speed for one sequence: time to first token {ttft}, {tpot} per "
                                                      "output token, {tps} tokens/s.")).format(
        users=speed.concurrency, ttft=format_seconds(speed.ttft_seconds), tpot=format_seconds(speed.tpot_seconds),
        tps=format_count(speed.tokens_per_second))
    if (together := all_instances_words(s, speed)) is not None:  # one instance's figures, said so (as `estimate`)
        text += " " + together.format_with(tr_engine)
    # the measured runs' spread, as `estimate` gives it under the speed (engine/serving/speed_band.py)
    likely = speed_range_text(m.engine, speed, tr_engine)
    return text + " " + likely if likely else text


def time_section(s: Scenario, est: Estimate, step: StepTime | None, tr: Translate = _same,
                 tr_engine: Translate = _same) -> list[str]:
    """The plan card's time and cost (engine/plan_card.py time_facts: the step time with its measured range, or a
    served model's speed with its range) as Markdown lines; the export gave memory alone, where the card and the
    window give both. Nothing for a training run whose time was not computed (`step` None)."""
    if est.serving is None and step is None:
        return []
    sentences, rows = time_facts(s, est, step)
    shown = lambda v: v.format_with(tr_engine) if isinstance(v, Message) else str(v)  # noqa: E731
    table = ["| | |", "|---|---:|", *(f"| {_cell(shown(label))} | {_cell(shown(value))} |" for label, value in rows),
             ""] if rows else []  # a run that does not fit has a sentence and no figures: no empty table under it
    return [f"## {tr(QT_TRANSLATE_NOOP('report', 'Time and cost'))}", "", *(_line(shown(x)) for x in sentences),
            *([""] if sentences else []), *table]


def to_markdown(s: Scenario, est: Estimate, unit: str = "GiB", tr: Translate = _same,
                tr_engine: Translate = _same, step: StepTime | None = None, tr_fields: Translate = _same) -> str:
    """`step`: the step time (engine.workloads.step_time) for the time section; a served model's speed is its own.
    `tr_fields`: the set-up's words ("Fields" context) for the inputs."""
    r = build_report(s, est, unit, tr, tr_engine, tr_fields)
    h = r.headings
    lines = [f"# {_line(r.title)}", "", f"**{_line(r.verdict)}**", "", f"## {h['inputs']}", "",
             f"| {h['setting']} | {h['value']} | {h['key']} |", "|---|---|---|",
             *(f"| {_cell(label)} | {_cell(v)} | `{_cell(k)}` |" for label, v, k in r.inputs), "",
             f"## {h['breakdown']}", "", "| " + " | ".join(r.header) + " |", "|---|---:|---:|---|",
             *(f"| {_cell(name)} | {size} | {share} | {_cell(where)} |" for name, size, share, where, _ in r.rows), "",
             _line(r.phases), ""]
    lines += time_section(s, est, step, tr, tr_engine)
    if r.warnings:
        lines += [f"## {h['warnings']}", "", *(f"- {_line(w)}" for w in r.warnings), ""]
    lines += [f"## {h['assumptions']}", "", *(f"- {a}" for a in r.assumptions)]
    return "\n".join(lines) + "\n"


def to_html(s: Scenario, est: Estimate, unit: str = "GiB", tr: Translate = _same, tr_engine: Translate = _same,
            chart: str | None = None, tr_fields: Translate = _same) -> str:
    """The PDF report's body (Qt renders it); `chart` names an image resource to show under the verdict."""
    r = build_report(s, est, unit, tr, tr_engine, tr_fields)
    h = r.headings
    table = "<table border='1' cellspacing='0' cellpadding='3'>"
    inputs = "".join(f"<tr><td>{escape(label)}</td><td>{escape(v)}</td><td><code>{escape(k)}</code></td></tr>"
                     for label, v, k in r.inputs)
    rows = "".join(f"<tr><td>{'<i>' if over else ''}{escape(name)}{'</i>' if over else ''}</td>"
                   f"<td align='right'>{size}</td><td align='right'>{share}</td><td>{escape(where)}</td></tr>"
                   for name, size, share, where, over in r.rows)
    notes = "".join(f"<li>{escape(a)}</li>" for a in (*r.warnings, *r.assumptions))
    image = f"<img src='{chart}' width='640'>" if chart else ""
    return (f"<h2>{escape(r.title)}</h2><p><b>{escape(r.verdict)}</b></p>{image}<h3>{h['inputs']}</h3>{table}{inputs}"
            f"</table><h3>{h['breakdown']}</h3>{table}<tr>{''.join(f'<th>{x}</th>' for x in r.header)}</tr>{rows}"
            f"</table><p>{escape(r.phases)}</p><h3>{h['assumptions']}</h3><ul>{notes}</ul>")


def to_csv(est: Estimate) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["key", "component", "bytes", "share_of_peak", "category", "lives_in", "formula"])
    peak = est.peak_allocated_bytes
    for comp, b in est.busiest.at_peak():
        writer.writerow([comp.key, comp.name, round(b), f"{b / peak:.4f}", comp.category, comp.phase, comp.formula])
    for comp in est.busiest.overheads:
        writer.writerow([comp.key, comp.name, round(comp.peak_bytes), "", comp.category, "overhead", comp.formula])
    return buffer.getvalue()
