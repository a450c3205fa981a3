"""One place computes, views only show (issue 21 item 4): the app state makes the memory estimate and the step time
once per edit, and once per saved or compared scenario; the panels read them."""

import ast
import sys
from collections import Counter
from pathlib import Path

import pytest

import engine
import engine.timing
import engine.workloads
from engine import scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared

REPO = Path(__file__).resolve().parent.parent
VIEWS = ("time_panel", "fit_panel", "compare_view", "library_model", "results", "charts", "speed_panel")
FULL_4090 = {"name": "8B full on a 4090", "model": "llama-3-8b", "gpu": "rtx-4090", "precision": "bf16"}


@pytest.fixture
def window(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.show()
    return win


def count_engine_calls(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Wrap the engine's estimate and step time wherever a gui module holds them, counting the calls."""
    calls: Counter = Counter()
    originals = {"estimate": engine.estimate, "step_time": engine.workloads.step_time}

    def counting(name: str):  # noqa: ANN202 - a wrapper of either function
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            calls[name] += 1
            return originals[name](*args, **kwargs)
        return wrapper

    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("gui.") and module is not None:
            for name, original in originals.items():
                if getattr(module, name, None) is original:
                    monkeypatch.setattr(module, name, counting(name))
    return calls


def test_one_estimate_and_one_step_time_per_edit_with_every_view_shown(window, qtbot, monkeypatch):
    s = window.state.scenario
    variants = [s.replace(gpu=gpu, name=gpu) for gpu in ("a100-80gb", "h200", "rtx-3060-12gb")]
    window.compare.set_items([Compared("live", s, True)] + [Compared(v.name, v) for v in variants])
    for tab in (window.time_panel, window.library_panel, window.compare):
        window.tabs.setCurrentWidget(tab)
        qtbot.wait(1)
    assert sum(not p.isHidden() for p in window.compare.panes) == 4
    calls = count_engine_calls(monkeypatch)
    window.setup_panel.micro_batch.spin.setValue(s.micro_batch + 3)
    for tab in (window.time_panel, window.library_panel, window.compare):  # every view reads the edit's result
        window.tabs.setCurrentWidget(tab)
        qtbot.wait(1)
    assert window.state.scenario.micro_batch == s.micro_batch + 3
    assert window.compare.items[0].scenario == window.state.scenario  # the live pane shows the edit
    assert calls == Counter(estimate=1, step_time=1)
    calls.clear()
    window.state.undo_stack.undo()  # a scenario seen before: its results are cached
    window.state.undo_stack.redo()
    assert calls == Counter()


def test_views_do_not_call_the_engine_themselves():
    """The views read results from the state; none calls estimate( or step_time( (the state layer does)."""
    offenders = []
    for view in VIEWS:
        tree = ast.parse((REPO / "gui" / f"{view}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                owner = node.func.value if isinstance(node.func, ast.Attribute) else None
                via_state = owner is not None and "results" in ast.unparse(owner)
                if name in ("estimate", "step_time") and not via_state:
                    offenders.append(f"gui/{view}.py:{node.lineno} {ast.unparse(node.func)}(")
    assert offenders == []


def test_compared_and_listed_scenarios_are_estimated_once(window, monkeypatch):
    scenarios = [scenario_from_dict({**FULL_4090, "gpu": gpu, "name": gpu})
                 for gpu in ("rtx-4090", "a100-80gb", "h200", "rtx-3060-12gb")]
    calls = count_engine_calls(monkeypatch)
    window.compare.set_items([Compared(x.name, x) for x in scenarios])
    window.compare.set_items([Compared(x.name, x) for x in reversed(scenarios)])
    window.state.set_unit("GB")
    assert calls == Counter(estimate=4, step_time=4)


def test_a_time_model_failure_is_a_sentence_in_the_state(window, monkeypatch):
    def broken(_s):  # noqa: ANN001, ANN202
        raise ZeroDivisionError

    monkeypatch.setattr("gui.estimates.step_time", broken)
    window.setup_panel.micro_batch.spin.setValue(window.state.scenario.micro_batch + 1)
    assert window.state.step_time is None
    assert "ZeroDivisionError" in window.state.time_error
    assert "ZeroDivisionError" in window.time_panel.summary.text()
    assert window.state.estimate.total_bytes > 0  # the memory estimate is unaffected


def test_the_result_cache_is_bounded():
    from gui.estimates import ScenarioResults

    results = ScenarioResults(limit=3)
    base = scenario_from_dict(FULL_4090)
    for mb in range(1, 8):
        results.estimate(base.replace(micro_batch=mb))
    assert len(results) == 3


def test_an_edit_redraws_only_the_live_pane_while_the_scale_holds(window, monkeypatch):
    s = window.state.scenario
    others = [s.replace(gpu="h200", name="h200"), s.replace(gpu="a100-80gb", name="a100"), s.replace(name="saved")]
    window.compare.set_items([Compared("live", s, True)] + [Compared(o.name, o) for o in others])
    x_max = window.compare.x_max
    drawn: list[str] = []
    from gui.compare_view import ComparePane

    original = ComparePane.show

    def counting(pane, item, *args):  # noqa: ANN001, ANN002, ANN202
        before = pane.drawn
        original(pane, item, *args)
        if pane.drawn is not before:
            drawn.append(item.label)

    monkeypatch.setattr(ComparePane, "show", counting)
    window.setup_panel.micro_batch.spin.setValue(s.micro_batch + 1)
    assert window.compare.x_max == x_max  # the H200's capacity sets the scale, before and after
    assert drawn == [window.compare.items[0].label]
    assert window.compare.estimates[0] == window.state.estimate  # what the live pane was given
    drawn.clear()
    window.state.set_unit("GB")  # a new unit: every pane is drawn again
    assert len(drawn) == 4
    drawn.clear()
    window.set_theme("dark" if window.theme != "dark" else "light")
    window.compare.refresh()  # the theme's colours: every pane is drawn again at the next refresh
    assert len(drawn) == 4


def test_an_unknown_key_in_a_refused_edit_is_shown_on_one_line(window):
    """Found by tests/fuzz_appstate.py: the key of a hostile edit reached the error line raw (a newline starting a
    fake "Verdict: FITS" line); it is now escaped like every other name from a file."""
    said: list[str] = []
    window.state.errorChanged.connect(said.append)
    assert not window.state.edit({"line\nVerdict: FITS\x1b[2J": 1})
    assert len(said) == 1 and "\n" not in said[0] and "\x1b" not in said[0]
    assert "line\\nVerdict: FITS\\x1b[2J" in said[0]  # the key as escaped text, so the sentence still names it


def test_tokens_per_step_past_64_bits_are_shown_not_raised(window):
    """Found by tests/fuzz_appstate.py: a scenario the checks accept (10^6 sequences of 10^6 tokens, 10^4
    accumulation steps, 800,000 GPUs) has 8e21 tokens per step, which QLocale.toString(int) cannot take: the
    time panel raised OverflowError in its slot on every edit."""
    huge = scenario_from_dict({"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "fsdp": True, "micro_batch": 10**6,
                               "seq_len": 10**6, "gpus_per_node": 8, "nodes": 100_000, "grad_accum": 10**4})
    errors: list[BaseException] = []
    hook = sys.excepthook
    sys.excepthook = lambda _t, exc, _tb: errors.append(exc)  # an exception in a slot reaches the hook only
    try:
        window.state.load(huge)
    finally:
        sys.excepthook = hook
    assert errors == []
    assert window.time_panel.time is window.state.step_time and window.state.step_time.tokens_per_step >= 2**63
    assert "tokens per step" in window.time_panel.summary.text()


def test_a_hostile_preset_id_in_a_refused_edit_is_shown_escaped(window):
    """Found by tests/fuzz_appstate.py (seed 7): an unknown GPU id holding escape codes reached the error line raw
    through the preset error's sentence; every sentence tr_error makes is now escaped, not only the key."""
    said: list[str] = []
    window.state.errorChanged.connect(said.append)
    assert not window.state.edit({"gpu": "\x1b[2J\x1b[H\u202eevil\u2028"})
    assert len(said) == 1 and not any(c in said[0] for c in "\x1b\u202e\u2028")
    assert "\\x1b[2J\\x1b[H\\u202eevil\\u2028" in said[0]  # named, as escaped text


def test_the_main_charts_hidden_by_compare_are_drawn_when_they_come_back(window, qtbot, monkeypatch):
    """Issue 21 item 4: Compare gives the main charts' room to its own, so an edit made there does not draw the
    hidden pie and bars (about 4 ms an edit); they show the edit as soon as another tab brings them back."""
    drawn: list[int] = []
    original = type(window.pie).show_estimate
    monkeypatch.setattr(type(window.pie), "show_estimate",
                        lambda self, est, unit: (drawn.append(est.peak_allocated_bytes), original(self, est, unit)))
    window.tabs.setCurrentWidget(window.compare)
    qtbot.wait(1)
    window.state.edit({"micro_batch": window.state.scenario.micro_batch + 1})
    assert drawn == []
    window.tabs.setCurrentWidget(window.time_panel)
    assert drawn == [window.state.estimate.peak_allocated_bytes]
