"""What the fuzz suites of sessions 19 and 20 share. The window suites (tests/fuzz_window8.py, fuzz_window9.py,
fuzz_window10.py): steps driven on one window after another, each step timed, its escaped exceptions and raising slots
counted, then a check that the window agrees with its state; windows started on a damaged presets file; and the
throwaway data folder they run in. The command-line suites (tests/fuzz_surfaces8.py, 9, 10): one command run and
classified, and the cases of each family counted. Each suite keeps its own bases, cases, checks and seeds; this module
only runs them.

Outcomes (the suites' docstrings say what each means for them): ok / refused / named, traceback, hang, stale, lost,
unnamed, absurd."""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from fuzz_cli import Hang, run_cli, time_limit
from fuzz_newest import classify

MOST_DETAILS = 20  # lines of detail a run prints about its bad outcomes


def close(win) -> None:  # noqa: ANN001 - the main window
    win.state.undo_stack.setClean()  # closing must not ask to keep the fuzzed edits
    win.close()
    win.deleteLater()


def said_on_start(plan_path: str | None, damage: Callable[[], tuple[object, AbstractContextManager]], seconds: float,
                  walk_tabs: bool = False) -> tuple[object, str]:
    """(what `damage` reports, what the window said) of one start on a damaged data folder or presets copy: `damage`
    damages and returns its report and the context the window starts in (a presets copy, or nullcontext). Modal boxes
    are counted and closed (offscreen one would wait for ever); a traceback or a hang (time_limit) escapes.
    `walk_tabs`: each tab drawn once, its refresh reading presets too (tests/fuzz_window11.py, fuzz_window12.py)."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from gui.app import build_window
    from gui.settings_store import Settings

    errors: list[BaseException] = []
    dialogs: list[str] = []
    saved = {k: getattr(QMessageBox, k) for k in ("warning", "information", "critical", "question")}
    for k in saved:
        setattr(QMessageBox, k, staticmethod(lambda *a, **_k: dialogs.append(" ".join(str(x) for x in a[1:3])) or
                                             QMessageBox.StandardButton.Cancel))
    hook, sys.excepthook = sys.excepthook, lambda _t, exc, _tb: errors.append(exc)
    try:
        report, context = damage()
        with time_limit(seconds), context:
            win, error = build_window(plan_path, restore=True, settings=Settings())
            win.show()
            QApplication.processEvents()
            for tab in range(win.tabs.count()) if walk_tabs else ():
                win.tabs.setCurrentIndex(tab)
                QApplication.processEvents()
            said = " ".join(filter(None, [error, win.state.time_error, win.status.currentMessage(), *dialogs]))
            close(win)
            QApplication.processEvents()
    finally:
        sys.excepthook = hook
        for k, v in saved.items():
            setattr(QMessageBox, k, v)
    if errors:
        raise errors[0]
    return report, said


def undo_or_redo(state, rng: random.Random) -> str:  # noqa: ANN001 - the window's AppState
    (state.undo_stack.undo if rng.random() < 0.5 else state.undo_stack.redo)()
    return "ok"


def edit_step(state, rng: random.Random, edits: list[tuple[str, list]]) -> str:  # noqa: ANN001 - the AppState
    """One key of `edits` set to one of its values through the state: "ok", "refused" (turned down with its
    sentence), or "lost" where a refused edit changed the scenario or the undo history."""
    key, values = rng.choice(edits)
    before, depth = state.scenario, state.undo_stack.count()
    if state.edit({key: rng.choice(values)}):
        return "ok"
    return "lost" if state.scenario != before or state.undo_stack.count() != depth else "refused"


def window_steps(count: int, seed: int, details: list[str], *, bases: list[dict], step: Callable, stale: Callable,
                 bad: tuple[str, ...], case_seconds: float, every: int = 25, opened: Callable | None = None,
                 label: str = "step") -> Counter:
    """`count` steps (step(win, rng) -> outcome), each followed by stale(win) -> why the window disagrees with its
    state ("" when it agrees), on a fresh window opened on one of `bases` every `every` steps (opened(win) after it
    is shown); counts per outcome, the first bad ones' lines added to `details`."""
    from PySide6.QtWidgets import QApplication

    from gui.app import build_window

    rng = random.Random(seed)
    counts: Counter = Counter()
    win = None
    errors: list[BaseException] = []  # what Qt's slots raised during a step
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            if i % every == 0:
                if win is not None:
                    close(win)
                path = Path(tmp) / "s.json"
                path.write_text(json.dumps(rng.choice(bases)))
                win, _error = build_window(str(path))
                win.show()
                if opened is not None:
                    opened(win)
            errors.clear()
            hook, sys.excepthook = sys.excepthook, lambda _t, exc, _tb: errors.append(exc)
            why = ""
            try:
                with time_limit(case_seconds):
                    outcome = step(win, rng)
                    QApplication.processEvents()
                    outcome = "stale" if (why := stale(win)) else outcome
            except Hang:
                outcome, why = "hang", ""
            except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
                outcome, why = "traceback", f"{type(exc).__name__}: {exc}"
            finally:
                sys.excepthook = hook
            if errors and outcome != "hang":
                outcome, why = "traceback", repr(errors[0])
            counts[outcome] += 1
            if outcome in bad and len(details) < MOST_DETAILS:
                details.append(f"{outcome}: {label} {i}: {why}"[:300])
        if win is not None:
            close(win)
    return counts


def damaged_starts(count: int, seed: int, details: list[str], *, damage: Callable,
                   presets: Callable[[str, object], AbstractContextManager], bad: tuple[str, ...], case_seconds: float,
                   case: str, said_right: str = "named", read_status: bool = True) -> Counter:
    """`count` window starts on a damaged presets file: damage(rng, folder) -> (file name, what presets(name, it)
    puts in place of the shipped presets, plans that read it); the window started on one of the plans (or on none)
    must start, and what it says be one line naming the file (`said_right`), or nothing ("ok"). read_status: the
    status bar's message counts among what it says."""
    from gui.app import build_window

    rng = random.Random(seed)
    counts: Counter = Counter()
    for i in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            name, damaged, plans = damage(rng, Path(tmp))
            path = Path(tmp) / "plan.json"
            path.write_text(json.dumps(rng.choice(plans)))
            try:
                with time_limit(case_seconds), presets(name, damaged):
                    win, error = build_window(str(path) if rng.random() < 0.8 else None)
                    win.show()
                    status = [win.status.currentMessage()] if read_status else []
                    said = " ".join(filter(None, [error, win.state.time_error, *status]))
                    close(win)
                outcome = "ok" if not said else said_right if name in said and "\n" not in said else "unnamed"
                why = said
            except Hang:
                outcome, why = "hang", ""
            except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
                outcome, why = "traceback", f"{type(exc).__name__}: {exc}"
            counts[outcome] += 1
            counts[f"cases: {case}"] += 1
            if outcome in bad and len(details) < MOST_DETAILS:
                details.append(f"{outcome}: {name} start {i}: {why}"[:300])
    return counts


def in_throwaway_home(run: Callable[[list[str]], Counter]) -> Counter:
    """run(details) -> counts, in a QApplication and a throwaway data folder (the library and settings); the details'
    lines printed after it."""
    from PySide6.QtWidgets import QApplication

    QApplication.instance() or QApplication([])
    details: list[str] = []
    with tempfile.TemporaryDirectory() as home:
        saved = os.environ.get("LLM_MEMORY_PLANNER_HOME")
        os.environ["LLM_MEMORY_PLANNER_HOME"] = home
        try:
            counts = run(details)
        finally:
            os.environ.pop("LLM_MEMORY_PLANNER_HOME") if saved is None else os.environ.__setitem__(
                "LLM_MEMORY_PLANNER_HOME", saved)
    for line in details:
        print(ascii(line))
    return counts


def run_command(argv: list[str], case_seconds: float, check: Callable[[str], str | None],
                named: str = "") -> tuple[str, str]:
    """(outcome, detail) of one command run in this process and classified as tests/fuzz_newest.py does; an answer
    check(its stdout) finds a problem in is "absurd"; a refusal must name the file `named` where one is given (a
    damaged presets file), else it is "unnamed"."""
    try:
        code, out, err = run_cli(argv, case_seconds)
        outcome, detail = classify(code, out, err, "--json" in argv)
        if outcome == "ok" and (problem := check(out)):
            outcome, detail = "absurd", problem
        if outcome == "refused" and named and named not in err:
            outcome, detail = "unnamed", err.strip()[:300]
    except Hang:
        outcome, detail = "hang", ""
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        outcome, detail = "traceback", f"{type(exc).__name__}: {exc}"[:300]
    return outcome, detail


def count_cases(count: int, seed: int, families: tuple[str, ...], one_case: Callable, bad: tuple[str, ...],
                most_details: int) -> Counter:
    """Counts per outcome over `count` cases, the families in turn, plus "cases: FAMILY" and "FAMILY OUTCOME":
    one_case(family, rng, a fresh folder) -> (outcome, detail, argv, data); prints the first bad ones."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    details: list[str] = []
    for i in range(count):
        family = families[i % len(families)]
        with tempfile.TemporaryDirectory() as tmp:
            outcome, detail, argv, data = one_case(family, rng, Path(tmp))
        counts[outcome] += 1
        counts[f"cases: {family}"] += 1
        counts[f"{family} {outcome}"] += 1
        if outcome in bad:
            details.append(f"{outcome}: {family}: {' '.join(a[:60] for a in argv)} "
                           f"{json.dumps(data, default=str)[:300] if data else ''}: {detail}"[:900])
    for line in details[:most_details]:
        print(ascii(line))
    return counts


def import_case(rng: random.Random, folder: Path, import_text: Callable, local_cache: Callable,
                run: Callable) -> tuple[str, str, list[str], str]:
    """`import` of a hostile training config (import_text(rng) -> (file name, text)), half the time beside a hostile
    HF hub cache (local_cache(rng, folder)): (outcome, detail, argv, the file's text) as run(argv, None, folder, rng)
    classifies it."""
    name, text = import_text(rng)
    (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = ["import", *(["--json"] if rng.random() < 0.5 else []), str(folder / name)]
    with local_cache(rng, folder) if rng.random() < 0.5 else nullcontext():
        return (*run(argv, None, folder, rng), argv, text)


def damaged_presets_case(rng: random.Random, folder: Path, damage: Callable,
                         presets: Callable[[str, Path], AbstractContextManager], run: Callable) -> tuple:
    """estimate / serve-fit / fit of a plan that reads a damaged presets file (damage(rng, folder) -> (file name, the
    damaged copy, plans), put in place by presets(name, copy)): (outcome, detail, argv, plan) as run(argv, plan,
    folder, rng, named=name) classifies it (a refusal must name the file)."""
    name, path, plans = damage(rng, folder)
    data = dict(rng.choice(plans))  # a plan every command below takes: a refusal is the file's
    command = rng.choice(["estimate", "estimate", "serve-fit" if "serving_engine" in data else "fit"])
    argv = [command, *(["--json"] if rng.random() < 0.5 else []), "{file}"]
    with presets(name, path):
        return (*run(argv, data, folder, rng, named=name), argv, data)


@contextmanager
def hub_cache(folder: Path, repo: str, config: dict) -> Iterator[None]:
    """HF_HUB_CACHE (in `folder`) holding models--`repo` (owner--name) with `config` as its config.json, while
    inside."""
    snapshot = folder / "hub" / f"models--{repo}" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps(config, allow_nan=True), errors="surrogatepass")
    old = os.environ.get("HF_HUB_CACHE")
    os.environ["HF_HUB_CACHE"] = str(folder / "hub")
    try:
        yield
    finally:
        os.environ.pop("HF_HUB_CACHE") if old is None else os.environ.__setitem__("HF_HUB_CACHE", old)
