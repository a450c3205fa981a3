"""After Make it fit's split (the generation engine on GPUs of its own) the verdict banner named the trainer's GPUs only,
"on each of 1 × NVIDIA GeForce RTX 4090", though the step's peak was the engine's GPU (user audit 13): it names both
sets, the trainer's (world_size) and the engine's (rollout_gpus)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.units import format_bytes
from gui.results import VerdictBanner

SPLIT = {"schema_version": 1, "model": "qwen2.5-7b", "gpu": "rtx-4090", "gpus_per_node": 1, "method": "lora",
         "precision": "bf16", "checkpointing": "full", "framework": "trl", "micro_batch": 4, "grad_accum": 8,
         "training_objective": "grpo", "prompt_len": 256, "completion_len": 512, "num_generations": 8,
         "rollout_engine": "vllm", "rollout_placement": "separate", "rollout_gpus": 1,
         "rollout_gpu_memory_utilization": 0.8}


def test_a_split_names_the_trainers_gpus_and_the_engines(qtbot):
    banner = VerdictBanner()
    qtbot.addWidget(banner)
    s = scenario_from_dict(SPLIT)
    est = estimate(s)
    banner.show_estimate(est, "GiB", s)
    # each set with its own figure (h-polish13): the trainer's with its reserve, the engine's as its start-up judges it
    trainer, engine = format_bytes(est.rl.training_gpu_bytes), format_bytes(est.rl.engine_gpu_bytes)
    assert trainer != engine and est.total_bytes == max(est.rl.training_gpu_bytes, est.rl.engine_gpu_bytes)
    assert (f"{trainer} of {format_bytes(est.capacity_bytes)} on each of 1 × NVIDIA GeForce RTX 4090 training and "
            f"{engine} on each of 1 × "
            "NVIDIA GeForce RTX 4090 running the generation engine") in banner.text()
    colocated = scenario_from_dict({**SPLIT, "rollout_placement": "colocate", "rollout_gpus": None, "gpus_per_node": 2,
                                    "rollout_gpu_memory_utilization": 0.3})
    banner.show_estimate(estimate(colocated), "GiB", colocated)
    assert "on each of 2 × NVIDIA GeForce RTX 4090 — " in banner.text() and "generation engine —" not in banner.text()


def test_the_plan_card_and_its_markdown_name_both_sets_after_a_split(qtbot, tmp_path):
    # the card said "Fits on 1 × NVIDIA GeForce RTX 4090 with 1.03 GiB spare per GPU" of the trainer's GPUs alone
    # (h-polish13's left (a)); world_size is the trainer's, rollout_gpus the engine's (SPLIT: 1 and 1)
    from window_helpers import window_from

    from engine.report import to_markdown
    from gui.plan_card import card_parts

    win = window_from(qtbot, tmp_path, SPLIT)
    s, est = win.state.scenario, win.state.estimate
    top, _ = card_parts(win)
    assert ("Fits on 1 × NVIDIA GeForce RTX 4090 training and 1 × NVIDIA GeForce RTX 4090 running the generation "
            "engine") in top
    trainer, engine = format_bytes(est.rl.training_gpu_bytes), format_bytes(est.rl.engine_gpu_bytes)
    assert f"{trainer} of {format_bytes(est.capacity_bytes)} on each training GPU, {engine} on each generation " \
           "engine GPU" in top
    assert (f"{trainer} of {format_bytes(est.capacity_bytes)} per GPU on 1 x NVIDIA GeForce RTX 4090 training and "
            f"{engine} per GPU on 1 x NVIDIA GeForce RTX 4090 running the generation engine") in to_markdown(s, est)
    # colocated: one set, as before (at 0.3 of a 4090 the engine does not start: the sentence says so of both GPUs)
    colocated = {**SPLIT, "rollout_placement": "colocate", "rollout_gpus": None, "gpus_per_node": 2,
                 "rollout_gpu_memory_utilization": 0.3}
    top, _ = card_parts(window_from(qtbot, tmp_path, colocated))
    assert "on 2 × NVIDIA GeForce RTX 4090" in top and "running the generation engine" not in top
