"""The fuzz class of issue 21 item 4 (one place computes, views only show): random and hostile edits, undo, redo,
loads, comparisons and unit switches on one shown window, with 4 comparison panes (one live) and the library.

    .venv/bin/python tests/fuzz_appstate.py [--count 1500] [--seed 21]

(tests/fuzz_hostile.py runs it too, so `make fuzz` does; tests/test_fuzz.py runs a few hundred steps.) The hostile
edits are tests/fuzz_hostile.py's scenario mutations. After every step the state and the views are checked against
the engine run afresh. Outcome of one step:
  applied / refused / undone / loaded / compared / unit   what the step did, and every check held
  traceback    an exception escaped the step, or a slot raised while it ran
  hang         no answer within CASE_SECONDS
  stale        the state's estimate or step time, the time panel or a comparison pane differs from the engine's
               result for the scenario it shows, or a live pane does not hold the editor's scenario
  absurd       one step computed the same scenario twice, an edit computed more than one estimate or step time,
               or the results cache grew past its bound
  lost         a refused edit changed the scenario or the undo history
  injected     the sentence of a refused edit carried a raw control character
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, time_limit  # noqa: E402

CASE_SECONDS = 20  # one step is an edit and a repaint: milliseconds
CACHE_LIMIT = 24  # small, so evictions happen within a run
FAIR_EDITS = [("micro_batch", [1, 2, 3, 4, 8]), ("seq_len", [512, 1024, 2048, 4096]), ("grad_accum", [1, 2, 8]),
              ("checkpointing", ["none", "full"]), ("tokens_to_train", [None, 10**9, 15 * 10**12]),
              ("gpu_hour_price", [None, 0.5, 2.0]), ("gpu", ["rtx-4090", "h200", "a100-80gb", "t4"])]


DETAILS: list[str] = []  # the first bad steps, printed by main()
SAID: list[str] = []  # the sentences of the last refused edit


def _note(outcome: str, detail: object) -> str:
    if len(DETAILS) < 20:
        DETAILS.append(f"{outcome}: {ascii(str(detail))[:300]}")
    return outcome


class Watch:
    """Counts the engine calls the state layer makes, and the exceptions raised inside Qt slots."""

    def __init__(self) -> None:
        import gui.estimates as estimates

        self.module = estimates
        self.originals = {"estimate": estimates.estimate, "step_time": estimates.step_time}
        self.calls: list[tuple[str, object]] = []
        self.slot_errors: list[BaseException] = []

    def __enter__(self) -> Watch:
        for name, original in self.originals.items():
            setattr(self.module, name, self._counting(name, original))
        self._hook = sys.excepthook
        sys.excepthook = lambda _t, exc, _tb: self.slot_errors.append(exc)
        return self

    def __exit__(self, *_exc: object) -> None:
        for name, original in self.originals.items():
            setattr(self.module, name, original)
        sys.excepthook = self._hook

    def _counting(self, name: str, original: Callable) -> Callable:
        def wrapper(s):  # noqa: ANN001, ANN202
            self.calls.append((name, s))
            return original(s)
        return wrapper


def _same_step_time(shown: object, scenario: object, step_time: Callable) -> bool:
    try:
        fresh = step_time(scenario)
    except Exception:  # noqa: BLE001 - the engine's refusal: the view must show none
        return shown is None
    return shown is not None and shown.step_seconds == fresh.step_seconds  # type: ignore[attr-defined]


def stale(win, estimate: Callable, step_time: Callable) -> str:  # noqa: ANN001 - the main window
    """'' or which view disagrees with the engine run afresh."""
    state = win.state
    fresh = estimate(state.scenario)
    if (state.estimate.total_bytes, state.estimate.verdict) != (fresh.total_bytes, fresh.verdict):
        return "state estimate"
    # a post-training step whose generation engine would not start shows no step time, by design (issue 23 audit 5
    # item 2, engine/posttraining/refused_step.py): the panel holds None for it, the state its reference figures
    from engine.posttraining.refused_step import refused_generation_seconds

    refused = state.step_time is not None and refused_generation_seconds(state.step_time) is not None
    if not _same_step_time(state.step_time, state.scenario, step_time) or \
            win.time_panel.time is not (None if refused else state.step_time):
        return "step time"
    # a sentence says why a training scenario has no step time; a served model has none and needs none (its speed is
    # the serving speed)
    if bool(state.time_error) != (state.scenario.workload != "inference" and state.step_time is None):
        return "time sentence"
    for item, est in zip(win.compare.items, win.compare.estimates, strict=True):
        if item.live and item.scenario != state.scenario:
            return "live pane"
        if est is not None and est.total_bytes != estimate(item.scenario).total_bytes:
            return "compare pane"
    return ""


def absurd(watch: Watch, kind: str, limit: int, size: int) -> str:
    """'' or what the step computed more than once (or more than an edit needs)."""
    counts = Counter(watch.calls)
    if any(n > 1 for n in counts.values()):
        return "a scenario computed twice in one step"
    kinds = Counter(name for name, _ in watch.calls)
    if kind in ("applied", "undone", "refused") and (kinds["estimate"] > 1 or kinds["step_time"] > 1):
        return f"an edit computed {dict(kinds)}"
    return "cache past its bound" if size > limit else ""


def _step(win, rng: random.Random, mutations, examples: list) -> str:  # noqa: ANN001, C901 - a dispatcher
    """Run one random step; return what it did (an outcome name)."""
    from gui.compare_view import Compared

    state = win.state
    kind = rng.random()
    if kind < 0.35:
        _label, data = next(mutations)
        changes = {k: v for k, v in data.items() if k != "schema_version" or rng.random() < 0.2}
    elif kind < 0.6:
        key, values = rng.choice(FAIR_EDITS)
        changes = {key: rng.choice(values)}
    elif kind < 0.7:
        state.undo_stack.undo()
        return "undone"
    elif kind < 0.75:
        state.undo_stack.redo()
        return "undone"
    elif kind < 0.82:
        state.load(rng.choice(examples))
        return "loaded"
    elif kind < 0.94:
        picks = rng.sample(examples, rng.randint(1, 3))
        win.compare.set_items([Compared("live", state.scenario, True)] + [Compared(s.name, s) for s in picks])
        return "compared"
    else:
        state.set_unit(rng.choice(["GiB", "GB"]))
        return "unit"
    return _edit(state, changes)


def _edit(state, changes: dict) -> str:  # noqa: ANN001 - the AppState
    before, depth = state.scenario, state.undo_stack.count()
    said: list[str] = []
    state.errorChanged.connect(said.append)
    try:
        applied = state.edit(changes)
    finally:
        state.errorChanged.disconnect(said.append)
    SAID[:] = said
    if applied:
        return "applied"
    if state.scenario != before or state.undo_stack.count() != depth:
        return "lost"
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for text in said for c in text):
        return "injected"
    return "refused"


def fuzz_appstate(count: int, seed: int) -> Counter:
    """`count` random steps on one window with 4 comparison panes; counts per outcome."""
    import fuzz_hostile
    from PySide6.QtWidgets import QApplication

    from engine import estimate, scenario_from_dict
    from engine.workloads import step_time  # the entry the window calls, whatever the workload
    from gui.app import build_window
    from gui.compare_view import Compared
    from gui.estimates import ScenarioResults

    rng = random.Random(seed)
    app = QApplication.instance() or QApplication([])
    examples = [scenario_from_dict(d) for d in fuzz_hostile.VALID]
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as home:
        saved_home = os.environ.get("LLM_MEMORY_PLANNER_HOME")
        os.environ["LLM_MEMORY_PLANNER_HOME"] = home
        win, _ = build_window(None)
        try:
            win.state.results = ScenarioResults(CACHE_LIMIT)
            win.library_panel.model.results = win.state.results
            win.show()
            win.tabs.setCurrentWidget(win.library_panel)
            app.processEvents()
            win.compare.set_items([Compared("live", win.state.scenario, True)]
                                  + [Compared(s.name, s) for s in examples[:3]])
            win.tabs.setCurrentWidget(win.compare)
            app.processEvents()
            mutations = fuzz_hostile.scenario_mutations(rng)
            for _ in range(count):
                counts[_checked_step(win, app, rng, mutations, examples, (estimate, step_time))] += 1
        finally:
            win.state.undo_stack.setClean()  # closing must not ask to keep the fuzzed edits
            win.close()
            win.deleteLater()
            app.processEvents()
            if saved_home is None:
                os.environ.pop("LLM_MEMORY_PLANNER_HOME", None)
            else:
                os.environ["LLM_MEMORY_PLANNER_HOME"] = saved_home
    return counts


def _checked_step(win, app, rng: random.Random, mutations, examples: list, engine: tuple) -> str:  # noqa: ANN001
    try:
        with time_limit(CASE_SECONDS), Watch() as watch:
            kind = _step(win, rng, mutations, examples)
            app.processEvents()
        if watch.slot_errors:
            return _note("traceback", repr(watch.slot_errors[0]))
        if kind in ("lost", "injected"):
            return _note(kind, SAID if kind == "injected" else win.state.scenario.name)
        if found := stale(win, *engine):
            return _note("stale", found)
        if found := absurd(watch, kind, CACHE_LIMIT, len(win.state.results)):
            return _note("absurd", found)
        return kind
    except Hang:
        return _note("hang", "")
    except Exception as exc:  # noqa: BLE001 - any escape is the outcome being counted
        return _note("traceback", repr(exc))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    counts = fuzz_appstate(args.count, args.seed)
    print("app state: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for line in DETAILS:
        print(line)
    bad = ("traceback", "hang", "stale", "absurd", "lost", "injected")
    return 1 if any(counts[k] for k in bad) else 0


if __name__ == "__main__":
    sys.exit(main())
