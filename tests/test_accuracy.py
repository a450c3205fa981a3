"""Hold the detailed estimator to measured peaks (tests/data/ground_truth, recorded by validation/).

Target (issue 3): median |error| <= 3%, no configuration worse than 10% on peak_allocated_bytes,
each phase peak within 10%, and the phase that holds the peak named correctly.
"""

import pytest

from engine.accuracy.traced import load_rows, markdown_table, summary

ROWS = load_rows()


def test_peak_error_targets():
    # (A test that only counted the rows, and one that read a committed file's own all_ok flag, could not fail
    # on a wrong estimate; they are gone. The checks here recompute every figure from the engine.)
    assert ROWS, "no ground truth found: the targets below would hold vacuously"
    print("\n" + markdown_table(ROWS))
    stats = summary(ROWS)
    print(f"median |error| {stats['median_abs_error']:.2%}, worst {stats['worst_abs_error']:.2%}")
    assert stats["median_abs_error"] <= 0.03
    assert stats["worst_abs_error"] <= 0.10


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_each_configuration(row):
    assert abs(row.error) <= 0.10
    for phase in ("forward", "backward", "optimizer"):
        assert abs(row.phase_error(phase)) <= 0.10, phase
    measured = sorted(row.measured_phases.values())
    if measured[-1] > 1.03 * measured[-2]:  # a clear winner: the estimate must name the same phase
        assert row.estimated_phase == row.measured_phase


def test_readme_headline_is_generated_from_the_same_data():
    """The README states the traced and the real-GPU figures; they are regenerated, never typed (run
    benchmarks/accuracy_report.py after the data changes)."""
    from conftest import REPO

    from engine.accuracy.headline import readme_with_headline

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme_with_headline(readme) == readme


ISSUE_12_FAMILIES = ("deepseek_v2", "gemma3_text", "glm4_moe", "gpt_oss", "llama4_text", "olmo2", "phi3", "qwen3_next",
                     "smollm3", "qwen2_5_vl")


def test_each_new_family_is_traced_and_within_targets():
    """Issue 12: every new architecture family has traced configurations, median <= 3% and worst <= 10% each."""
    from engine.accuracy.traced import family_summaries

    families = family_summaries(ROWS)
    for family in ISSUE_12_FAMILIES:
        assert family in families, family
        assert families[family]["median_abs_error"] <= 0.03, family
        assert families[family]["worst_abs_error"] <= 0.10, family


def test_vision_towers_are_traced_frozen_and_trained():
    """Issue 12: the vision tower and image tokens of Gemma 3 (SigLIP), Qwen2.5-VL, Llama 4 and Mistral 3 (Pixtral) are
    traced (validation/
    vision_inputs.py: real transformers towers on fake tensors), with the tower frozen and trained, and the detailed
    estimator meets the single-GPU targets on them, phase by phase."""
    import json

    from engine.accuracy.traced import GROUND_TRUTH_DIR, summary

    for model in ("gemma-3-4b", "qwen2.5-vl-7b", "llama-4-scout", "mistral-small-3.1-24b"):
        rows = [r for r in ROWS if r.id.startswith(model) and "_img" in r.id]
        towers = {json.loads((GROUND_TRUTH_DIR / f"{r.id}.json").read_text())["scenario"]["vision_tower"]
                  for r in rows}
        assert towers == {"frozen", "trained"}, model
        stats = summary(rows)
        assert stats["median_abs_error"] <= 0.03 and stats["worst_abs_error"] <= 0.10, model
        for row in rows:
            for phase in ("forward", "backward", "optimizer"):
                assert abs(row.phase_error(phase)) <= 0.10, (row.id, phase)


def test_mla_traces_follow_the_gpu_attention_kernel():
    """Issue 24 item 8: MLA without query compression (DeepSeek-V2-Lite: q_lora_rank null, 64 experts top-6, greedy
    routing). Its Q/K heads (192) are wider than its V heads (128); on a GPU SDPA runs the memory-efficient kernel
    (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp: flash needs equal widths, check_head_dim_size_mem_efficient
    does not), so the traces run that op (validation/tracker.py) and nothing of the step grows with s² at a fixed
    token count. Counting the CPU's math kernel instead put these rows up to 58% high (LoRA at s=2048: 14.7%)."""
    from engine import estimate, scenario_from_dict

    rows = [r for r in ROWS if r.id.startswith("deepseek-v2-lite")]
    assert len(rows) >= 10
    for row in rows:
        for phase in ("forward", "backward"):
            assert abs(row.phase_error(phase)) <= 0.035, (row.id, phase)
    base = {"model": "deepseek-v2-lite", "precision": "bf16", "optimizer": "adamw-fused", "attention": "sdpa"}
    acts = [next(c for c in estimate(scenario_from_dict({**base, "micro_batch": b, "seq_len": s})).components
                 if c.key == "activations").moments.forward for b, s in ((4, 2048), (1, 8192))]
    assert abs(acts[1] / acts[0] - 1) < 0.01  # same 8,192 tokens: no b·a·s² term
