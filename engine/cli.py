"""Command line: estimate, fit, serve-fit, presets, kv-cache, schema, import, export-config. No Qt is imported here."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import PlannerError
from .memory.breakdown import Estimate
from .memory.estimate import kv_cache_bytes
from .messages import QT_TRANSLATE_NOOP, one_line
from .models.presets import get_model_preset, gpu_presets, model_presets
from .posttraining import rl_time_to_json, rl_to_json
from .scenario import (
    DEFAULTS,
    SCENARIO_MAXIMA,
    CustomGpu,
    CustomModel,
    Scenario,
    resolve_model,
)
from .scenario.docs import schema_markdown
from .scenario.file import load_scenario
from .timing import StepTime
from .timing.bounds import check_finite
from .units import format_bytes, format_cost, format_count, format_seconds
from .workloads import estimate, step_time


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


def _identity(text: str) -> str:
    return text


def display_width(text: str) -> int:
    """Terminal columns: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * (width - display_width(text))
    return fill + text if right else text + fill


def render_table(est: Estimate, unit: str, tr: Callable[[str], str] = _identity,
                 tr_engine: Callable[[str], str] = _identity) -> str:
    """The readable table; `tr` translates the table's own words, `tr_engine` the engine's."""
    rows = [(tr_engine(c.name), format_bytes(b, unit), f"{b / est.peak_allocated_bytes:6.1%}", tr_engine(c.phase))
            for c, b in est.busiest.at_peak()]
    rows += [(tr_engine(c.name), format_bytes(c.peak_bytes, unit), "", tr(QT_TRANSLATE_NOOP("cli", "overhead")))
             for c in est.busiest.overheads if c.peak_bytes]
    header = (tr(QT_TRANSLATE_NOOP("cli", "Component")), tr(QT_TRANSLATE_NOOP("cli", "Memory ({unit})")).format(unit=unit),
              tr(QT_TRANSLATE_NOOP("cli", " Share")), tr(QT_TRANSLATE_NOOP("cli", "Lives in")))
    widths = [max(display_width(r[i]) for r in [header, *rows]) for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    out = [tr(QT_TRANSLATE_NOOP("cli", "{name}: {model} on {n} x {gpu} ({estimator})")).format(
        name=est.scenario_name, model=est.model_name, n=est.world_size, gpu=est.gpu_name, estimator=est.estimator), ""]
    for r in (header, None, *rows, None):
        out.append(line if r is None else "  ".join(_pad(v, w, i in (1, 2)) for i, (v, w) in enumerate(zip(r, widths,
                                                                                                             strict=True))))
    peak_mark = tr(QT_TRANSLATE_NOOP("cli", " <- peak"))
    names = {"forward": tr(QT_TRANSLATE_NOOP("cli", "forward")), "backward": tr(QT_TRANSLATE_NOOP("cli", "backward")),
             "optimizer": tr(QT_TRANSLATE_NOOP("cli", "optimizer"))}
    phases = ", ".join(f"{names[p]} {format_bytes(v, unit)}" + (peak_mark if p == est.peak_phase else "")
                       for p, v in est.phases.items())
    out.append(tr(QT_TRANSLATE_NOOP("cli", "Phase peaks: {phases}")).format(phases=phases))
    if est.rl is not None:  # post-training: the table above is the step's largest phase
        steps = ", ".join(f"{tr_engine(p.name)} {format_bytes(p.peak_bytes, unit)}"
                          + (peak_mark if p.key == est.rl.peak_phase else "") for p in est.rl.phases)
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Post-training step ({objective}), allocated per phase: {phases}")).format(
            objective=est.rl.objective, phases=steps))
    if len(est.stages) > 1:
        stages = ", ".join(tr(QT_TRANSLATE_NOOP("cli", "stage {n}: {total}")).format(
            n=st.stage, total=format_bytes(st.total_bytes, unit)) for st in est.stages)
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Per pipeline stage: {stages}")).format(stages=stages))
    for other in est.other_ranks:
        out.append(tr(QT_TRANSLATE_NOOP("cli", "GPUs that hold less: {ranks} {total} (peak allocated {peak}).")).format(
            ranks=tr_engine(other.ranks), total=format_bytes(other.estimate.total_bytes, unit),
            peak=format_bytes(other.estimate.peak_allocated_bytes, unit)))
    out.append(tr(QT_TRANSLATE_NOOP("cli", "Reserved by PyTorch {reserved}; process (as nvidia-smi shows it) {process}; "
                                           "loading the model {load}; host memory per node {host}.")).format(
        reserved=format_bytes(est.peak_reserved_bytes, unit), process=format_bytes(est.process_bytes, unit),
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
        out.append(tr(QT_TRANSLATE_NOOP("cli", "Verdict: {verdict} ({room})")).format(
            verdict=verdict, room=est.room(unit).format_with(tr_engine)))
    if (note := est.host_note(unit)) is not None:  # on the verdict's own line: the verdict covers the GPUs only
        out[-1] += " — " + note.format_with(tr_engine)
    out += [tr(QT_TRANSLATE_NOOP("cli", "Warning: {text}")).format(text=w.format_with(tr_engine)) for w in est.warnings]
    return "\n".join(out)


def terminal_text(text: str) -> str:
    """Whole output: every line made terminal-safe (our own line breaks kept)."""
    return "\n".join(one_line(line) for line in text.split("\n"))


def displayable(scenario: Scenario) -> Scenario:
    """The scenario with its user-given names made terminal-safe (the estimate shows them)."""
    changes: dict[str, Any] = {"name": one_line(scenario.name)}
    if isinstance(scenario.gpu, CustomGpu):
        # the whole card, speed figures included: a copy of name and memory alone was timed as an H100
        changes["gpu"] = dataclasses.replace(scenario.gpu, name=one_line(scenario.gpu.name))
    if isinstance(scenario.model, CustomModel) and not scenario.model.name.isprintable():
        changes["model"] = CustomModel(one_line(scenario.model.name), scenario.model.hf_config_json)
    return scenario.with_unchecked(**changes)


def json_text(data: Any) -> str:
    """`--json` output: strict JSON, never a bare NaN or Infinity (which JSON does not have and parsers refuse)."""
    try:
        return json.dumps(data, indent=2, allow_nan=False)
    except ValueError as exc:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This scenario gives a figure that is not a finite number, "
                                                       "so no JSON is printed; please report it.")) from exc


def _cmd_estimate(args: argparse.Namespace) -> int:
    scenario = displayable(load_scenario(args.scenario))
    est = estimate(scenario)
    if scenario.workload == "inference":
        from .serving.report import render_serving, serving_to_json
        from .serving.speed import serving_speed

        speed = serving_speed(scenario, est.serving)
        print(json_text({**estimate_to_json(est), "serving": serving_to_json(est.serving, speed)}) if args.json else
              terminal_text(render_serving(est.serving, speed, args.unit, args.tr, args.tr_engine, title=args.tr(
                  QT_TRANSLATE_NOOP("cli", "{name}: {model} on {n} x {gpu} ({engine}, {fmt})")).format(
                  name=est.scenario_name, model=est.model_name, n=est.world_size, gpu=est.gpu_name,
                  engine=scenario.serving_engine, fmt=scenario.weight_format))))
        return 0
    time = check_finite(step_time(scenario))  # step_time checks too; this guards what any change to it lets through
    print(json_text(estimate_to_json(est, time)) if args.json else
          terminal_text(render_table(est, args.unit, args.tr, args.tr_engine) + "\n"
                        + render_time(time, args.tr, args.tr_engine, est.fits, scenario.currency)))
    return 0


def render_time(t: StepTime, tr: Callable[[str], str] = _identity, tr_engine: Callable[[str], str] = _identity,
                fits: bool = True, currency: str = "") -> str:
    """The time lines under the memory table; a plan that does not fit says its time is for reference only."""
    out = [] if fits else [tr(QT_TRANSLATE_NOOP("cli", "This plan does not fit: time shown for reference only."))]
    out += [tr(QT_TRANSLATE_NOOP("cli", "Time: {step} per step, {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}")).format(
        step=format_seconds(t.step_seconds), tps=format_count(t.tokens_per_second),
        per_gpu=format_count(t.tokens_per_second_per_gpu), mfu=t.mfu)]
    parts = ", ".join(f"{tr_engine(term.name)} {format_seconds(term.seconds)}" for term in t.terms if term.seconds > 0)
    out.append(tr(QT_TRANSLATE_NOOP("cli", "Where the time goes: {parts}")).format(parts=parts))
    if t.time_to_train_seconds is not None:
        line = tr(QT_TRANSLATE_NOOP("cli", "Time to train: {time}, {hours} GPU-hours")).format(
            time=format_seconds(t.time_to_train_seconds), hours=format_count(t.gpu_hours or 0))
        if t.cost is not None:
            line += tr(QT_TRANSLATE_NOOP("cli", ", cost {cost}")).format(cost=format_cost(t.cost, currency)) \
                if currency else tr(QT_TRANSLATE_NOOP("cli", ", cost {cost} (in the price's currency)")).format(
                    cost=format_count(t.cost))
        out.append(line)
    out += [tr(QT_TRANSLATE_NOOP("cli", "Note: {text}")).format(text=n.format_with(tr_engine)) for n in t.notes]
    return "\n".join(out)


def _cmd_fit(args: argparse.Namespace) -> int:
    from .planning.fit_report import fit_report, render_fit

    scenario = displayable(load_scenario(args.scenario))
    if args.objective == "throughput":
        from .planning.speed_report import render_speed, speed_report

        report = speed_report(scenario)
        print(json_text(report) if args.json else terminal_text(
            render_speed(report, args.unit, args.tr, args.tr_engine)))
        return 0
    report = fit_report(scenario)
    print(json_text(report) if args.json else
          terminal_text(render_fit(report, args.unit, args.tr, args.tr_engine)))
    return 0


def _cmd_serve_fit(args: argparse.Namespace) -> int:
    from .planning.serve_fit import render_serve_fit, serve_fit

    report = serve_fit(load_scenario(args.scenario), tuple(args.question or ("context", "users", "gpus")))
    print(json_text(report) if args.json else terminal_text(render_serve_fit(report, args.tr)))
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    if args.kind == "models":
        items = []
        for p in model_presets().values():
            spec = p.spec
            items.append({"id": p.id, "name": p.name, "family": p.family, "total_params": spec.total_params,
                          "active_params": spec.active_params, "layers": spec.layers, "hidden": spec.hidden,
                          "context": spec.max_position, "source": p.source})
        text = [f"{i['id']:<20} {i['name']:<28} {format_count(i['total_params']):>7}  {i['layers']:>3} layers"
                for i in items]
    else:
        items = [{"id": g.id, "name": g.name, "vendor": g.vendor, "class": g.gpu_class,
                  "memory_bytes": g.memory_bytes, "usable_bytes": g.usable_bytes, "source": g.source}
                 for g in gpu_presets().values()]
        text = [f"{i['id']:<22} {i['name']:<34} {format_bytes(i['usable_bytes'], args.unit):>12}" for i in items]
    print(json.dumps(items, indent=2) if args.json else "\n".join(text))
    return 0


def _cmd_kv(args: argparse.Namespace) -> int:
    spec = get_model_preset(args.model).spec
    n = kv_cache_bytes(spec, args.batch, args.seq_len, args.bytes)
    print(json.dumps({"kv_cache_bytes": n}) if args.json else
          f"KV cache of {spec.name}, batch {args.batch}, {args.seq_len} tokens: {format_bytes(n, args.unit)}")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    if args.markdown:
        print(schema_markdown())
        return 0
    for key, (default, meaning) in DEFAULTS.items():
        print(f"{key:<20} default {json.dumps(default):<22} {meaning}")
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    from .configs import import_files
    from .configs.review import render_import

    result = import_files(args.files)
    # every string here came from the files (keys, values, model names): escapes, BEL and bidi overrides are shown
    # as \x.. text, so a config can neither retitle the terminal nor print a fake "Verdict:" line (JSON escapes)
    print(json.dumps(result.to_json(), indent=2) if args.json
          else terminal_text(render_import(result, args.tr, args.tr_engine, one_line)))
    return 0


def _cmd_export_config(args: argparse.Namespace) -> int:
    from .configs import export_config
    from .safe_write import write_output_file

    text = export_config(load_scenario(args.scenario), args.to)
    if args.output is not None:  # "" too: an empty name is refused, not taken as "print it"
        write_output_file(args.output, text.encode("utf-8"), replace_existing=args.force, keep=(args.scenario,))
    else:
        print(text, end="")
    return 0


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low:,} to {high:,}, not {one_line(text)[:40]}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    # prog: the command the user ran (llm-memory-planner, llm-memory-planner-cli or main.py), as argparse finds it
    parser = argparse.ArgumentParser(prog=Path(sys.argv[0]).name or "llm-memory-planner",
                                     description="LLM Memory Planner: will this run fit?")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("estimate", help="per-GPU memory breakdown of a scenario file")
    p.add_argument("scenario")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB")
    p.set_defaults(func=_cmd_estimate)
    p = sub.add_parser("fit", help="limits and ranked plans that make a scenario fit")
    p.add_argument("scenario")
    p.add_argument("--json", action="store_true")
    p.add_argument("--objective", choices=("fit", "throughput"), default="fit",
                   help="fit: least disruptive plans (default); throughput: fastest layouts of the same GPUs")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB")
    p.set_defaults(func=_cmd_fit)
    p = sub.add_parser("serve-fit", help="inference scenarios: the largest context, most users, fewest GPUs")
    p.add_argument("scenario")
    p.add_argument("--question", action="append", choices=("context", "users", "gpus"),
                   help="ask only this (repeatable; default: all three)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_serve_fit)
    p = sub.add_parser("presets", help="list model or GPU preset ids")
    p.add_argument("kind", choices=("models", "gpus"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB")
    p.set_defaults(func=_cmd_presets)
    p = sub.add_parser("kv-cache", help="inference KV cache size (GQA-aware)")
    p.add_argument("model")
    p.add_argument("--batch", type=_whole_number(1, SCENARIO_MAXIMA["micro_batch"]), default=1)
    p.add_argument("--seq-len", type=_whole_number(1, SCENARIO_MAXIMA["seq_len"]), default=4096)
    p.add_argument("--bytes", type=_whole_number(1, 8), default=2, help="bytes per element (2 for bf16, 1 for fp8)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB")
    p.set_defaults(func=_cmd_kv)
    p = sub.add_parser("import", help="a scenario from training config files of one job (DeepSpeed, accelerate, "
                                      "TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan, "
                                      "Megatron-LM script)")
    p.add_argument("files", nargs="+")
    p.add_argument("--json", action="store_true", help="print one JSON object: scenario, mapped, unmapped, assumed")
    p.set_defaults(func=_cmd_import)
    p = sub.add_parser("export-config", help="the launch settings of a scenario for a framework")
    p.add_argument("scenario")
    p.add_argument("--to", required=True, choices=("deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory",
                                                   "torchtitan", "megatron"))
    p.add_argument("-o", "--output", help="write to this file instead of printing (a new file; see --force)")
    p.add_argument("--force", action="store_true", help="replace the --output file if it exists")
    p.set_defaults(func=_cmd_export_config)
    p = sub.add_parser("schema", help="scenario keys and their defaults")
    p.add_argument("--markdown", action="store_true", help="print docs/scenario-format.md")
    p.set_defaults(func=_cmd_schema)
    return parser


def main(argv: list[str] | None = None, tr: Callable[[str], str] = _identity,
         tr_engine: Callable[[str], str] = _identity) -> int:
    """Run a command; a front end may pass translators (main.py does for --lang)."""
    args = build_parser().parse_args(argv)
    args.tr, args.tr_engine = tr, tr_engine
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader (head, less) stopped reading: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes at exit
        return 0
    except PlannerError as exc:
        message = one_line(exc.message.format_with(tr_engine))
        print(tr(QT_TRANSLATE_NOOP("cli", "error: {message}")).format(message=message), file=sys.stderr)
        return 2
    except (ArithmeticError, RecursionError, MemoryError) as exc:  # a value the checks missed: a sentence, not a trace
        print(tr(QT_TRANSLATE_NOOP("cli", "error: this scenario cannot be estimated ({message}); please report it."))
              .format(message=one_line(f"{type(exc).__name__}: {exc}")[:200]), file=sys.stderr)
        return 70


__all__ = ["build_parser", "estimate_to_json", "main", "one_line", "render_table", "resolve_model"]
