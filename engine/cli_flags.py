"""Flags a command takes but does not use in the case at hand, said in one sentence each on stderr: `fit --objective
cost` of a served model dropped --deadline-days silently, and of a training run --users and the other serving flags
(h-review21 found, not fixed, item d); the other objectives dropped every cost flag, `export-config --force` without
--output did nothing. The output and the exit code stay as they were: the sentence only says what was not used and
why, after the output and only where the command ran. (fit's JSON reports have no warnings list, so --json says it
on stderr too.)"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .estimate_output import terminal_text
from .messages import QT_TRANSLATE_NOOP

# `fit --objective cost` of an inference scenario only (engine/planning/serve_rent.py ServeLimits)
SERVING_COST_FLAGS = ("users", "prompt_tokens", "output_tokens", "max_tpot_ms", "max_ttft_s", "budget_per_hour",
                      "budget_per_million")
# of a training scenario only (engine/planning/rent.py rent_search)
TRAINING_COST_FLAGS = ("deadline_days",)
COST_FLAGS = ("budget", "prices", *TRAINING_COST_FLAGS, *SERVING_COST_FLAGS)

NOT_COST = QT_TRANSLATE_NOOP("cli", "{flag} is ignored: it applies to --objective cost only.")
NOT_SERVED = QT_TRANSLATE_NOOP("cli", "{flag} is ignored: a served model runs on and has no run to finish; its "
                                      "cost search takes --max-tpot-ms, --max-ttft-s and budgets per hour or per "
                                      "million tokens.")
NOT_TRAINING = QT_TRANSLATE_NOOP("cli", "{flag} is ignored: it applies to the cost search of an inference scenario, "
                                        "and this scenario trains.")
BUDGET_TWICE = QT_TRANSLATE_NOOP("cli", "--budget is ignored: --budget-per-hour is given, and for a served model "
                                        "both are a budget per hour.")
FORCE_ALONE = QT_TRANSLATE_NOOP("cli", "--force is ignored: it replaces an --output file, and no --output is given.")
WARNING = QT_TRANSLATE_NOOP("cli", "warning: {message}")


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def ignored_fit_flags(args: argparse.Namespace, inference: bool) -> list[tuple[str, str]]:
    """(template, flag) of each `fit` flag given that the objective and the scenario's workload do not use."""
    given = [dest for dest in COST_FLAGS if getattr(args, dest, None) is not None]
    if args.objective != "cost":
        return [(NOT_COST, _flag(d)) for d in given]
    if inference:
        out = [(NOT_SERVED, _flag(d)) for d in given if d in TRAINING_COST_FLAGS]
        return out + ([(BUDGET_TWICE, "--budget")] if "budget" in given and "budget_per_hour" in given else [])
    return [(NOT_TRAINING, _flag(d)) for d in given if d in SERVING_COST_FLAGS]


def ignored_export_flags(args: argparse.Namespace) -> list[tuple[str, str]]:
    """`export-config --force` without --output: nothing to replace."""
    return [(FORCE_ALONE, "--force")] if args.force and args.output is None else []


def ignored_text(ignored: list[tuple[str, str]], tr: Callable[[str], str]) -> str:
    """"warning: --users is ignored: ...", a line for each, in the command line's words; "" for none. Said after the
    command's output and only where it ran: a refused command keeps its one "error: ..." line (tests/fuzz_*.py)."""
    return "".join(terminal_text(tr(WARNING).format(message=tr(template).format(flag=flag))) + "\n"
                   for template, flag in ignored)


__all__ = ["COST_FLAGS", "SERVING_COST_FLAGS", "TRAINING_COST_FLAGS", "ignored_export_flags", "ignored_fit_flags",
           "ignored_text"]
