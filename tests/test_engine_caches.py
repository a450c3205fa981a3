"""Engine caches are bounded and clearable; the solver leaves the garbage collector alone (it runs on a worker
thread in the window, and the collector's switch is process-wide)."""

from __future__ import annotations

import gc

import pytest

from engine import estimate, scenario_from_dict
from engine.caches import cached_functions, clear_caches
from engine.planning.solver import plan_search
from engine.scenario.memo import memo_tables
from engine.timing import step_time

# keyed by shipped preset ids / no argument: bounded by the files
PRESET_KEYED = {"model_spec_for", "efficiency", "host_figures"}


def test_every_engine_cache_is_bounded_and_clearable():
    functions = cached_functions()
    assert len(functions) >= 10  # the finder sees the caches (else this test would pass vacuously)
    unbounded = {f.__name__ for f in functions if f.cache_info().maxsize is None}
    assert unbounded <= PRESET_KEYED
    for i in range(40):  # many distinct imported models: the caches stay within their bounds
        cfg = {"model_type": "llama", "hidden_size": 64 * (i + 1), "num_hidden_layers": 2, "num_attention_heads": 4,
               "intermediate_size": 128, "vocab_size": 1000}
        s = scenario_from_dict({"model": {"name": f"m{i}", "hf_config": cfg}})
        estimate(s)
        step_time(s)
    # a layout over GPUs: its estimate counts the whole model's parameters apart (the "whole model parameters" table)
    estimate(scenario_from_dict({"model": "llama-3-8b", "gpus_per_node": 2, "tp": 2}))
    # a framework whose host time is its launch stacks, not Hugging Face's counted eager layers ("layer host" table)
    step_time(scenario_from_dict({"model": "llama-3-8b", "framework": "megatron"}))
    assert all(f.cache_info().currsize <= (f.cache_info().maxsize or 10**9) for f in functions)
    assert all(len(table) for table in memo_tables())  # the estimates above filled the memo tables too
    assert clear_caches() == len(functions)
    assert all(f.cache_info().currsize == 0 for f in functions)
    assert all(len(table) == 0 for table in memo_tables())


def test_a_memo_table_stays_within_its_limit():
    from engine.scenario.memo import ScenarioMemo

    table = ScenarioMemo("test table", frozenset({"name"}), limit=3)
    try:
        s = scenario_from_dict({"model": "llama-3-8b"})
        for i in range(10):
            table.put(table.key(s, i), i)
            assert len(table) <= 3
        assert table.get(table.key(s, 9)) == 9
        assert table.get(table.key(s.with_unchecked(name="another name"), 9)) == 9  # an ignored key: the same entry
        assert table.get(table.key(s.with_unchecked(seq_len=4096), 9)) is None
    finally:
        table.forget()


def test_the_solver_never_switches_the_garbage_collector(monkeypatch):
    def refuse():
        raise AssertionError("gc.disable() is process-wide")

    monkeypatch.setattr(gc, "disable", refuse)
    stats = plan_search(scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090"}), max_estimates=300)
    assert gc.isenabled() and stats is not None


@pytest.mark.parametrize("edits", [12])
def test_an_imported_config_is_parsed_once_and_shared_by_every_edit_and_undo_entry(qtbot, edits):
    """One parsed model per import: each edit's before/after and each undo entry point at the same config object
    (source of the complaint: 12 edits of an 8 MB config kept 12 copies, 3.7 GB)."""
    from gui.app import build_window

    window, _ = build_window(None)
    qtbot.addWidget(window)
    cfg = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
           "intermediate_size": 1024, "vocab_size": 1000, "padding": list(range(50_000))}
    assert window.state.edit({"model": {"name": "big", "hf_config": cfg}})
    shared = window.state.scenario.model.hf_config
    for i in range(edits):
        assert window.state.edit({"micro_batch": 1 + i % 3 + (i > 5)}) or True
    stack = window.state.undo_stack
    configs = {id(stack.command(i).after["model"]["hf_config"]) for i in range(1, stack.count())}
    configs |= {id(stack.command(i).before["model"]["hf_config"]) for i in range(1, stack.count())}
    assert configs == {id(shared)}
