"""The Time legend (and `estimate`'s "Where the time goes") listed "Data-parallel / ZeRO communication 0.0 ms (0%, a
rough guess)" for a GRPO LoRA on two RTX 4090s (user audit 11): the adapters' all-reduce is ~14 us of a ~170 s step.
A term that reads 0.0 ms is left out of both (terms of exactly 0 s were already); the hover names it and --json keeps
it, so nothing the engine computed is hidden, and the step's figures are the engine's, unchanged."""

from __future__ import annotations

from engine.estimate_output import render_time
from engine.scenario import scenario_from_dict
from engine.timing.provenance import time_provenance
from engine.timing.step_result import time_to_json
from engine.units import format_seconds
from engine.workloads import step_time
from gui.time_bar import TimeBar

GRPO_TWO_4090 = {"model": "qwen3-8b", "gpu": "rtx-4090", "gpus_per_node": 2, "method": "lora", "precision": "bf16",
                 "checkpointing": "full", "framework": "trl", "micro_batch": 2, "grad_accum": 4,
                 "training_objective": "grpo", "prompt_len": 512, "completion_len": 1024, "num_generations": 8,
                 "rollout_engine": "vllm", "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.3}


def test_a_term_reading_zero_milliseconds_is_left_out_of_the_legend_and_named_on_hover(qtbot):
    s = scenario_from_dict(GRPO_TWO_4090)
    t = step_time(s)
    dp = next(term for term in t.terms if term.key == "communication_dp")
    assert 0 < dp.seconds and format_seconds(dp.seconds) == "0.0 ms"  # the audit's case: positive, reads as zero
    bar = TimeBar()
    qtbot.addWidget(bar)
    bar.show_time(t, time_provenance(s))
    legend, tip = bar.legend.text(), bar.legend.toolTip()
    assert "Data-parallel / ZeRO communication" not in legend and " 0.0 ms " not in legend
    assert "Left out of the legend (0.0 ms a step): Data-parallel / ZeRO communication" in tip
    shown = [term for term in t.terms if format_seconds(term.seconds) != "0.0 ms"]
    assert len(bar.segments) == sum(term.seconds > 0 for term in t.terms) and len(shown) == legend.count("■")


def test_estimate_text_leaves_the_zero_reading_term_out_and_json_keeps_it():
    s = scenario_from_dict({**GRPO_TWO_4090, "model": "qwen3-1.7b"})  # its engine starts: a whole step's terms
    t = step_time(s)
    where = next(line for line in render_time(t).splitlines() if line.startswith("Where the time goes: "))
    assert "Data-parallel / ZeRO communication" not in where and "0.0 ms" not in where and "Generation" in where
    assert time_to_json(t)["breakdown_seconds"]["communication_dp"] > 0  # estimate --json keeps every term
