"""Issue 25 items 1, 7 and 9: the verdict covers the whole machine (CPU memory too), the first start fits and its
limits agree with Make it fit, and time and cost are never shown as if a run that cannot run could."""

from __future__ import annotations

import json

import pytest

from engine import estimate, scenario_from_dict
from engine.cli import estimate_to_json, render_table, render_time
from engine.planning import solver
from engine.planning.family import largest_model_that_fits
from engine.planning.fit_options import option_axes
from engine.planning.limits import limits, min_gpus
from engine.timing import step_time
from engine.units import format_bytes
from tests.conftest import REPO

TIB = 2**40
# 405B full fine-tune, everything offloaded, on one 8 x H100 node: the GPUs hold 41 GiB each, the node needs 7.4 TiB
OFFLOADED_405B = {"name": "405B offloaded", "model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                  "method": "full", "zero_stage": 3, "offload": "optimizer+params", "micro_batch": 1,
                  "seq_len": 2048, "checkpointing": "full", "host_memory_bytes": 2 * TIB}


def offloaded_405b(**changes: object):
    return scenario_from_dict({**OFFLOADED_405B, **changes})


# --- item 1: CPU memory is part of the verdict


def test_host_memory_short_makes_the_verdict_does_not_fit():
    est = estimate(offloaded_405b())
    assert est.gpu_fits and est.host_verdict == "does not fit"  # the GPUs alone would hold it
    assert est.verdict == "does not fit" and not est.fits
    assert "CPU memory" in str(est.room())


def test_cli_text_and_json_say_does_not_fit_because_of_cpu_memory():
    s = offloaded_405b()
    data = estimate_to_json(estimate(s))
    assert data["verdict"] == "does not fit" and data["fits"] is False and data["host_verdict"] == "does not fit"
    text = render_table(estimate(s), "GiB")
    verdict_line = next(line for line in text.splitlines() if line.startswith("Verdict:"))
    assert "DOES NOT FIT" in verdict_line and "CPU memory" in verdict_line


def test_family_list_does_not_call_a_host_overflow_fitting():
    fit = largest_model_that_fits(offloaded_405b())
    biggest = next(c for c in fit.candidates if c.model == "llama-3.1-405b")
    assert biggest.verdict == "does not fit" and fit.model != "llama-3.1-405b"


def test_make_it_fit_plans_all_fit_in_host_memory():
    found = solver.plans(offloaded_405b(), max_plans=4)
    assert all(p.estimate.host_verdict != "does not fit" and p.fits for p in found)


def test_host_memory_not_set_is_said_in_the_verdict_line_with_what_it_needs():
    est = estimate(offloaded_405b(host_memory_bytes=None))
    assert est.verdict == "fits"
    note = str(est.host_note("GiB"))
    assert "CPU memory not checked" in note and f"needs {format_bytes(est.host_bytes, 'GiB')} per node" in note
    verdict_line = next(line for line in render_table(est, "GiB").splitlines() if line.startswith("Verdict:"))
    assert "CPU memory not checked" in verdict_line


def test_window_banner_says_cpu_memory(qtbot):
    from gui.results import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.show_estimate(estimate(offloaded_405b()), "GiB")
    assert banner.verdict == "does not fit" and "DOES NOT FIT" in banner.text() and "CPU memory" in banner.text()
    banner.show_estimate(estimate(offloaded_405b(host_memory_bytes=None)), "GiB")
    assert "CPU memory not checked" in banner.text()


# --- item 7: the first start fits; limits and Make it fit count GPUs alike


def test_first_start_scenario_is_the_example_and_fits():
    from gui.file_actions import DEFAULT_SCENARIO

    example = json.loads((REPO / "examples" / "llama3-8b-lora-4090.json").read_text())
    example.pop("schema_version")
    assert DEFAULT_SCENARIO == example
    assert estimate(scenario_from_dict(DEFAULT_SCENARIO)).verdict == "fits"


@pytest.mark.parametrize("precision,grad_accum,micro_batch", [("bf16", 4, 1), ("auto", 8, 1), ("bf16", 2, 1),
                                                               ("auto", 1, 2)])
def test_fewest_gpus_of_limits_is_what_make_it_fit_offers(precision, grad_accum, micro_batch):
    # Full fine-tune of 8B on a 24 GB card: more GPUs with ZeRO-3 change the gradient accumulation (global batch
    # kept), which changes the memory (gradients alive in the forward pass); both must count with the same layout.
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "full", "grad_accum": grad_accum,
                            "micro_batch": micro_batch, "seq_len": 2048, "checkpointing": "full", "attention": "flash",
                            **({} if precision == "auto" else {"precision": precision})})
    option = [o for axis in option_axes(s) for o in axis if o.kind == "zero3"]
    offered, _ = solver._resolve(solver.Evaluator(), s, option)
    assert offered is not None and min_gpus(s, "zero3") == offered.world_size


# --- item 9: time and cost of a run that cannot run; the micro-batch control; no "?" in the limits line


def test_time_panel_greys_time_and_cost_when_the_plan_does_not_fit(qtbot):
    from gui.app import build_window

    win, _ = build_window()
    qtbot.addWidget(win)
    win.state.edit({"micro_batch": 999, "tokens_to_train": 15 * 10**12, "gpu_hour_price": 2.0}, "test")
    assert win.state.estimate.verdict == "does not fit"
    text = win.time_panel.summary.text()
    assert "does not fit: time shown for reference only" in text
    assert "cost" in text and "in the price's currency" in text


def test_cli_time_says_reference_only_when_it_does_not_fit():
    s = offloaded_405b(tokens_to_train=10**9, gpu_hour_price=2.0)
    text = render_time(step_time(s), fits=estimate(s).fits)
    assert "does not fit: time shown for reference only" in text and "in the price's currency" in text


def test_micro_batch_control_takes_what_the_engine_takes(qtbot):
    from gui.app import build_window

    win, _ = build_window()
    qtbot.addWidget(win)
    win.setup_panel.micro_batch.spin.setValue(99_999_999)  # typed: the spin box clamps to its maximum
    assert win.state.scenario.micro_batch == 1_000_000


def test_limits_line_never_shows_a_question_mark(qtbot):
    from gui.app import build_window

    win, _ = build_window()
    qtbot.addWidget(win)
    win.state.edit({"micro_batch": 999}, "test")
    win.limits.refresh()
    assert "?" not in win.limits.text()
    assert limits(win.state.scenario).max_seq_len is None  # the case that printed "?"
