"""The post-training "By phase" line in Chinese separates its phases with the full-width comma, not ASCII ", " inside
Chinese text (user audits 6 and 7). Run as a user would: `--lang zh_CN estimate` of the GRPO example."""

import subprocess
import sys

from conftest import REPO

EXAMPLE = REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json"


def test_the_chinese_phase_line_uses_the_chinese_comma() -> None:
    out = subprocess.run([sys.executable, "main.py", "--lang", "zh_CN", "estimate", str(EXAMPLE)], cwd=REPO,
                         capture_output=True, text=True, timeout=120).stdout
    line = next(text for text in out.splitlines() if text.startswith("按阶段"))
    assert "），打分" in line
    assert "）, " not in line


def test_the_phase_kinds_follow_a_translated_semicolon() -> None:
    # the Time tab's line adds each phase's kinds of figure after "; ", which is a message of its own so that the
    # Chinese line reads "…；推导", not an ASCII "; " inside Chinese text (lead, session 18; the zh_CN file maps it)
    import json

    from engine import scenario_from_dict
    from engine.posttraining.band_text import KINDS_SEMICOLON, posttraining_band_lines
    from engine.posttraining.timing import step_provenance
    from engine.workloads import step_time

    s = scenario_from_dict(json.loads(EXAMPLE.read_text()))
    line = posttraining_band_lines(step_time(s), lambda text: "；" if text == KINDS_SEMICOLON else text,
                                   step_provenance(s))[-1]
    assert "；calculated from specs" in line  # derived, in plain words (engine/timing/provenance.py KIND_WORDS)
    assert not any(f"; {kind}" in line for kind in ("measured", "derived", "assumed"))


def test_a_phase_of_two_kinds_says_partly_each() -> None:
    """GRPO on Qwen3-8B QLoRA over 2 x RTX 4090 (user audit 11): the update's matmuls are a rough guess on a GPU
    without its own matmul measurement (engine/timing/provenance.py), its other terms calculated from specs; the line
    read "calculated from specs/a rough guess"."""
    from engine import scenario_from_dict
    from engine.posttraining.band_text import posttraining_band_lines
    from engine.posttraining.timing import step_provenance
    from engine.workloads import step_time

    s = scenario_from_dict({"model": "qwen3-8b", "gpu": "rtx-4090", "gpus_per_node": 2, "method": "qlora",
                            "precision": "bf16", "checkpointing": "full", "framework": "trl", "micro_batch": 4,
                            "grad_accum": 4, "training_objective": "grpo", "prompt_len": 512, "completion_len": 1024,
                            "num_generations": 8, "rollout_engine": "vllm", "rollout_placement": "colocate",
                            "liger_kernels": True, "cross_entropy": "fused-linear", "rollout_tp": 2})
    line = posttraining_band_lines(step_time(s), lambda text: text, step_provenance(s))[-1]
    assert "; partly calculated from specs, partly a rough guess)" in line
    assert "/" not in line.split("update (the training step)")[1]
