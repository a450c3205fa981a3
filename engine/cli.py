"""Command line: estimate, fit, serve-fit, presets, kv-cache, schema, import, export-config, diagnose, calibrate
(no Qt here)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from .cli_flags import ignored_export_flags, ignored_fit_flags, ignored_text
from .errors import PlannerError, ScenarioError
from .estimate_output import (  # noqa: F401 - re-exported: the command line's output
    display_width,
    estimate_to_json,
    identity_text,
    json_text,
    render_table,
    render_time,
    terminal_text,
)
from .memory.estimate import kv_cache_bytes
from .memory.gpu_precision import precision_cannot_run
from .memory.timeline import step_timeline, timeline_to_json
from .messages import QT_TRANSLATE_NOOP, one_line, shown
from .models.presets import damaged_gpu_presets, damaged_model_presets, get_model_preset, gpu_presets, model_presets
from .plan_card import change_sentence
from .scenario import DEFAULTS, SCENARIO_MAXIMA, CustomGpu, CustomModel, Scenario, resolve_model
from .scenario.docs import schema_markdown
from .scenario.file import load_scenario
from .timing.bounds import check_finite
from .timing.near_capacity import with_memory_notes
from .units import format_bytes, format_count, format_gpu_count
from .workloads import estimate, step_time


def displayable(scenario: Scenario) -> Scenario:
    """The scenario with its user-given names made terminal-safe (the estimate shows them)."""
    changes: dict[str, Any] = {"name": one_line(scenario.name)}
    if isinstance(scenario.gpu, CustomGpu):
        # the whole card, speed figures included: a copy of name and memory alone was timed as an H100
        changes["gpu"] = dataclasses.replace(scenario.gpu, name=one_line(scenario.gpu.name))
    if isinstance(scenario.model, CustomModel) and not scenario.model.name.isprintable():
        changes["model"] = CustomModel(one_line(scenario.model.name), scenario.model.hf_config_json)
    return scenario.with_unchecked(**changes)


def _cmd_estimate(args: argparse.Namespace) -> int:
    scenario = displayable(load_scenario(args.scenario))
    est = estimate(scenario)
    if scenario.workload == "inference":
        from .serving.report import render_serving, serving_to_json
        from .serving.speed import serving_speed

        speed = serving_speed(scenario, est.serving)
        if args.json:
            print(json_text({**estimate_to_json(est), "serving": serving_to_json(est.serving, speed, scenario)}))
            return 0
        text = render_serving(est.serving, speed, args.unit, args.tr, args.tr_engine, scenario=scenario, title=args.tr(
            QT_TRANSLATE_NOOP("cli", "{name}: {model} on {n} x {gpu} ({engine}, {fmt})")).format(
            name=est.scenario_name, model=est.model_name, n=format_gpu_count(est.world_size), gpu=est.gpu_name,
            engine=scenario.serving_engine, fmt=scenario.weight_format))
        # the estimate's warnings, as the training text gives them (a Mac's shared pool: serving_estimate)
        text += "".join("\n" + args.tr(QT_TRANSLATE_NOOP("cli", "Warning: {text}")).format(
            text=w.format_with(args.tr_engine)) for w in est.warnings)
        print(terminal_text(text))
        return 0
    time = check_finite(step_time(scenario))  # step_time checks too; this guards what any change to it lets through
    time = with_memory_notes(time, est, args.unit)  # a step near the memory limit says it may run slower (notes only)
    if args.json:
        data = estimate_to_json(est, time)
        data["timeline"] = timeline_to_json(step_timeline(est, scenario.grad_accum, scenario.pp))
        print(json_text(data))
    else:
        runs = precision_cannot_run(scenario) is None  # the GPU has the plan's tensor cores
        print(terminal_text(render_table(est, args.unit, args.tr, args.tr_engine, runs) + "\n"
                            + render_time(time, args.tr, args.tr_engine, est.verdict != "does not fit", scenario.currency,
                                          runs)))
        if (change := change_sentence(scenario, est, args.unit)) is not None:  # it does not fit: what to change
            print(terminal_text(change.format_with(args.tr_engine) + " " + args.tr(QT_TRANSLATE_NOOP(
                "cli", "More plans and the limits: python main.py fit {file}")).format(file=one_line(args.scenario))))
    return 0


def _cmd_fit(args: argparse.Namespace) -> int:
    from .planning.fit_report import fit_report, render_fit

    scenario = displayable(load_scenario(args.scenario))
    args.ignored = ignored_fit_flags(args, scenario.workload == "inference")  # said after the output (main)
    if args.objective == "cost" and scenario.workload == "inference":
        return _serve_rent(args, scenario)
    if args.objective == "cost":
        from .planning.rent_report import load_prices, render_rent, rent_report

        prices, currency = load_prices(args.prices) if args.prices is not None else ({}, None)
        report = rent_report(scenario, prices, currency, unit=args.unit, budget=args.budget,
                             deadline_seconds=None if args.deadline_days is None else args.deadline_days * 86400.0)
        print(json_text(report) if args.json else terminal_text(
            render_rent(report, args.unit, args.tr, args.tr_engine, args.tr_fields)))
        return 0
    if args.objective == "throughput":
        from .planning.speed_report import render_speed, speed_report

        report = speed_report(scenario)
        print(json_text(report) if args.json else terminal_text(
            render_speed(report, args.unit, args.tr, args.tr_engine, args.tr_fields)))
        return 0
    report = fit_report(scenario)
    print(json_text(report) if args.json else
          terminal_text(render_fit(report, args.unit, args.tr, args.tr_engine)))
    return 0


def _serve_rent(args: argparse.Namespace, scenario: Scenario) -> int:
    """`fit --objective cost` of a served model: GPU types x counts for --users at once (engine/planning/serve_rent.py);
    --budget is a budget per hour here (a served model runs on, it has no total)."""
    from .planning.rent_report import load_prices
    from .planning.serve_rent import ServeLimits, request_lengths, serve_rent_search
    from .planning.serve_rent_report import render_serve_rent, serve_rent_to_json

    prices, currency = load_prices(args.prices) if args.prices is not None else ({}, None)
    prompt, output = request_lengths(scenario, args.prompt_tokens, args.output_tokens)
    limits = ServeLimits(args.users or 1, prompt, output, args.max_tpot_ms, args.max_ttft_s,
                         args.budget_per_hour if args.budget_per_hour is not None else args.budget,
                         args.budget_per_million)
    found = serve_rent_search(scenario, prices, limits, currency=currency)
    report = serve_rent_to_json(found)
    reasons = [o.dropped for o in found.dropped if o.dropped is not None]  # translated inside, as the window does
    print(json_text(report) if args.json else terminal_text(render_serve_rent(report, args.tr, args.tr_engine,
                                                                              reasons)))
    return 0


def _cmd_serve_fit(args: argparse.Namespace) -> int:
    from .planning.serve_fit import render_serve_fit, serve_fit

    report = serve_fit(load_scenario(args.scenario), tuple(args.question or ("context", "users", "gpus")))
    print(json_text(report) if args.json else terminal_text(render_serve_fit(report, args.tr, args.tr_engine)))
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    if args.kind == "models":
        items = []
        for p in model_presets().values():
            spec = p.spec
            items.append({"id": p.id, "name": p.name, "family": p.family, "total_params": spec.total_params,
                          "active_params": spec.active_params, "layers": spec.layers, "hidden": spec.hidden,
                          "context": spec.max_position, "source": p.source})
        width = max(len(i["id"]) for i in items), max(len(i["name"]) for i in items)  # the longest id aligns too
        text = [f"{i['id']:<{width[0]}} {i['name']:<{width[1]}} {format_count(i['total_params']):>7}  "
                f"{i['layers']:>3} layers" for i in items]
    else:
        items = [{"id": g.id, "name": g.name, "vendor": g.vendor, "class": g.gpu_class,
                  "memory_bytes": g.memory_bytes, "usable_bytes": g.usable_bytes, "source": g.source}
                 for g in gpu_presets().values()]
        width = max(len(i["id"]) for i in items), max(len(i["name"]) for i in items)
        text = [f"{i['id']:<{width[0]}} {i['name']:<{width[1]}} {format_bytes(i['usable_bytes'], args.unit):>12}"
                for i in items]
    for damaged in damaged_model_presets() if args.kind == "models" else damaged_gpu_presets():
        # left out of the list: say which file, on stderr (the list stays JSON)
        print(terminal_text("note: " + one_line(error_text(damaged, args.tr_engine))), file=sys.stderr)
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
    # the scenario with the GPU counts it assumed, so that the file saved from it runs (result.standalone_scenario)
    print(json.dumps(result.to_json(standalone=True), indent=2) if args.json
          else terminal_text(render_import(result, args.tr, args.tr_engine, one_line)))
    return 0


def _cmd_export_config(args: argparse.Namespace) -> int:
    from .configs import export_config
    from .configs.export_left_out import left_out_sentence
    from .safe_write import write_output_file
    from .workloads import require_training_launch

    scenario = load_scenario(args.scenario)
    require_training_launch(scenario)
    text = export_config(scenario, args.to)
    if args.output is not None:  # "" too: an empty name is refused, not taken as "print it"
        write_output_file(args.output, text.encode("utf-8"), replace_existing=args.force, keep=(args.scenario,))
    else:
        print(text, end="")
    args.ignored = ignored_export_flags(args)  # --force without --output, said after the output (main)
    lost = left_out_sentence(scenario, args.to, args.tr_fields)
    if lost is not None:  # on stderr: the printed config stays a file that runs
        print(terminal_text(lost.format_with(args.tr_engine)), file=sys.stderr)
    return 0


def _cmd_diagnose(args: argparse.Namespace) -> int:
    from .diagnosis.command import diagnose_file

    scenario = displayable(load_scenario(args.scenario)) if args.scenario else None
    data, text = diagnose_file(args.file, scenario, args.unit, args.tr, args.tr_engine)
    print(json_text(data) if args.json else terminal_text(text))
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from .diagnosis.command import calibrate_command

    data, text = calibrate_command(displayable(load_scenario(args.scenario)), args.figure, args.measured,
                                   tuple(displayable(load_scenario(p)) for p in args.others), args.unit, args.tr_engine)
    print(json_text(data) if args.json else terminal_text(text))
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


def _positive_number(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(f"must be a number from {low:g} to {high:g}, not {one_line(text)[:40]}")
        return value

    return parse


SCENARIO_HELP = "a scenario JSON file (the window's File > Save; keys: `schema`; examples/ holds some)"
# The window's options (gui/launch.py parses them) and the --lang prefix, which `--help` otherwise never names
WINDOW_HELP = ("Without a command the window opens: [SCENARIO.json] [--lang en|zh_CN] [--theme light|dark], "
               "--screenshot OUT.png [--size WxH] [--tab TAB] renders it headless, --version prints the version; "
               "--lang zh_CN before a command prints its output in Chinese.")
DIAGNOSE_FILE_HELP = ("the out-of-memory message as printed (a text file), a torch.cuda.memory._dump_snapshot pickle, "
                      "an export_memory_timeline JSON, or an nvidia-smi / W&B CSV")
UNIT_HELP = "GiB (powers of 1,024, as nvidia-smi and PyTorch count; default) or GB (powers of 1,000)"


def _add_cost_flags(p: argparse.ArgumentParser) -> None:
    """`fit --objective cost`'s limits and prices; for an inference scenario (engine/planning/serve_rent.py) also its
    users, lengths and latency target."""
    p.add_argument("--deadline-days", type=_positive_number(1e-3, 1e5), help="cost: days to finish in (or deadline_days)")
    p.add_argument("--budget", type=_positive_number(1e-6, 1e15), help="cost: spend at most this much (the "
                   "price list's currency; an inference scenario: per hour; default: the scenario's budget)")
    p.add_argument("--prices", help='cost: a price list, {"currency": "USD", "prices": {"GPU id": price per '
                   'GPU-hour}} (default: none; the scenario\'s gpu_hour_price for its own GPU)')
    p.add_argument("--users", type=_whole_number(1, 1_000_000), help="cost, inference scenarios: "
                   "requests served at once (default 1)")
    p.add_argument("--prompt-tokens", type=_whole_number(1, 100_000_000), help="cost, inference: prompt tokens of "
                   "each request (default: half the scenario's max_model_len)")
    p.add_argument("--output-tokens", type=_whole_number(1, 100_000_000), help="cost, inference: output tokens of "
                   "each request (default: the rest of max_model_len)")
    p.add_argument("--max-tpot-ms", type=_positive_number(1e-3, 1e6), help="cost, inference: time per output "
                   "token at most this many milliseconds")
    p.add_argument("--max-ttft-s", type=_positive_number(1e-4, 1e6), help="cost, inference: time to first token "
                   "at most this many seconds")
    p.add_argument("--budget-per-hour", type=_positive_number(1e-6, 1e12), help="cost, inference: spend at most "
                   "this much an hour on GPUs (--budget reads the same for an inference scenario)")
    p.add_argument("--budget-per-million", type=_positive_number(1e-9, 1e12), help="cost, inference: a million "
                   "output tokens cost at most this much")


class _Parser(argparse.ArgumentParser):
    """argparse's refusals quote what was typed whole (a 10 MB --unit): each word shown() (escaped, cut at 120)."""

    def error(self, message: str) -> NoReturn:
        super().error(" ".join(shown(word) for word in message.split(" ")))


def build_parser() -> argparse.ArgumentParser:
    # prog: the command the user ran (llm-memory-planner, llm-memory-planner-cli or main.py), as argparse finds it
    parser = _Parser(prog=Path(sys.argv[0]).name or "llm-memory-planner",
                                     description="LLM Memory Planner: will this run fit?", epilog=WINDOW_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("estimate", help="per-GPU memory breakdown of a scenario file")
    p.add_argument("scenario", help=SCENARIO_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_estimate)
    p = sub.add_parser("fit", help="limits and ranked plans that make a scenario fit")
    p.add_argument("scenario", help=SCENARIO_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--objective", choices=("fit", "throughput", "cost"), default="fit",
                   help="fit: least disruptive plans (default); throughput: fastest layouts of the same GPUs; cost: "
                        "what to rent (GPU types x counts x layouts) for tokens_to_train, cheapest first")
    _add_cost_flags(p)
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_fit)
    p = sub.add_parser("serve-fit", help="inference scenarios: the largest context, most users, fewest GPUs")
    p.add_argument("scenario", help=SCENARIO_HELP)
    p.add_argument("--question", action="append", choices=("context", "users", "gpus"),
                   help="ask only this (repeatable; default: all three)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_serve_fit)
    p = sub.add_parser("presets", help="list model or GPU preset ids")
    p.add_argument("kind", choices=("models", "gpus"), help="which presets to list")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_presets)
    p = sub.add_parser("kv-cache", help="inference KV cache size (GQA-aware)")
    p.add_argument("model", help="a model preset id (see `presets models`)")
    p.add_argument("--batch", type=_whole_number(1, SCENARIO_MAXIMA["micro_batch"]), default=1,
                   help="sequences at once (default 1)")
    p.add_argument("--seq-len", type=_whole_number(1, SCENARIO_MAXIMA["seq_len"]), default=4096,
                   help="tokens per sequence (default 4096)")
    p.add_argument("--bytes", type=_whole_number(1, 8), default=2, help="bytes per element (2 for bf16, 1 for fp8)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_kv)
    p = sub.add_parser("import", help="a scenario from training config files of one job (DeepSpeed, accelerate, "
                                      "TrainingArguments/TRL, torchtune, axolotl, LLaMA-Factory, ms-swift, torchtitan, "
                                      "Megatron-LM script, verl, OpenRLHF, mlx-lm; post-training ones too)")
    p.add_argument("files", nargs="+", help="the config files of one job (JSON, YAML, TOML or a launch script)")
    p.add_argument("--json", action="store_true", help="print one JSON object: scenario, mapped, unmapped, assumed")
    p.set_defaults(func=_cmd_import)
    p = sub.add_parser("export-config", help="the launch settings of a scenario for a framework")
    p.add_argument("scenario", help=SCENARIO_HELP)
    p.add_argument("--to", required=True, choices=("deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory",
                   "torchtitan", "megatron", "trl", "verl", "ms-swift-megatron", "mlx-lm"),
                   help="the framework whose config to write")
    p.add_argument("-o", "--output", help="write to this file instead of printing (a new file; see --force)")
    p.add_argument("--force", action="store_true", help="replace the --output file if it exists")
    p.set_defaults(func=_cmd_export_config)
    p = sub.add_parser("diagnose", help="read an out-of-memory message, a memory snapshot or timeline, "
                                        "or an nvidia-smi / W&B log beside a scenario's plan")
    p.add_argument("file", help=DIAGNOSE_FILE_HELP)
    p.add_argument("scenario", nargs="?", help="the run's scenario file: the message is read beside its plan, "
                   "with priced fixes (optional)")
    p.add_argument("--json", action="store_true", help="print one JSON object: oom figures and findings")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_diagnose)
    p = sub.add_parser("calibrate", help="fit this machine's memory overheads to one measured figure")
    p.add_argument("scenario", help=SCENARIO_HELP)
    p.add_argument("figure", choices=("peak_reserved", "nvidia_smi", "peak_allocated"),
                   help="what was measured: torch.cuda.max_memory_reserved, nvidia-smi's figure for the process, or "
                   "torch.cuda.max_memory_allocated")
    p.add_argument("measured", help="bytes, or a number with GiB/MiB/GB/MB")
    p.add_argument("others", nargs="*", default=[], help="saved scenarios to judge again with this calibration")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--unit", choices=("GB", "GiB"), default="GiB", help=UNIT_HELP)
    p.set_defaults(func=_cmd_calibrate)
    p = sub.add_parser("schema", help="scenario keys and their defaults")
    p.add_argument("--markdown", action="store_true", help="print docs/scenario-format.md")
    p.set_defaults(func=_cmd_schema)
    return parser


def error_text(exc: PlannerError, tr_engine: Callable[[str], str]) -> str:
    """The error's sentence in the chosen language: a ScenarioError's "{key}: {detail}" holds its detail as English
    text, and a scenario file's error wraps the key's error ("{p}", engine/scenario/file.py), so each is translated
    from its own template, as the window does (gui/i18n.py tr_error)."""
    if not isinstance(exc, ScenarioError):
        return exc.message.format_with(tr_engine)
    inner = exc.__cause__
    if exc.detail.template == "{p}" and isinstance(inner, ScenarioError):
        return f"{exc.key}: {error_text(inner, tr_engine)}"
    return f"{exc.key}: {exc.detail.format_with(tr_engine)}"


def main(argv: list[str] | None = None, tr: Callable[[str], str] = identity_text,
         tr_engine: Callable[[str], str] = identity_text, tr_fields: Callable[[str], str] = identity_text) -> int:
    """Run a command; a front end may pass translators (main.py does for --lang): the command line's own words, the
    engine's, and the set-up's words of the scenario keys (engine/scenario/key_words.py, "Fields")."""
    args = build_parser().parse_args(argv)
    args.tr, args.tr_engine, args.tr_fields = tr, tr_engine, tr_fields
    try:
        code = args.func(args)
        sys.stderr.write(ignored_text(getattr(args, "ignored", []), tr))  # only where the command ran (cli_flags.py)
        return code
    except BrokenPipeError:  # the reader (head, less) stopped reading: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes at exit
        return 0
    except PlannerError as exc:
        message = one_line(error_text(exc, tr_engine))
        print(tr(QT_TRANSLATE_NOOP("cli", "error: {message}")).format(message=message), file=sys.stderr)
        return 2
    except (ArithmeticError, RecursionError, MemoryError) as exc:  # a value the checks missed: a sentence, not a trace
        print(tr(QT_TRANSLATE_NOOP("cli", "error: this scenario cannot be estimated ({message}); please report it."))
              .format(message=one_line(f"{type(exc).__name__}: {exc}")[:200]), file=sys.stderr)
        return 70


__all__ = ["build_parser", "estimate_to_json", "main", "one_line", "render_table", "resolve_model"]
