"""The note of a plan held to its MFU ceiling names the GPU the bounding run was on when that is another GPU of the
plan's family (user audit 8): a Qwen2.5-7B LoRA on an M4 Max read "the best published run on this GPU in this
format" of mlx-tune's Qwen3-0.6B run on an M4 Pro 48GB (ARahim3/mlx-tune@6a22a508 docs/performance.html, the only
bf16 Apple LoRA run in tests/data/published/throughput.json), carried at the two chips' rate shares."""

from __future__ import annotations

import json
from pathlib import Path

from engine.scenario import scenario_from_dict
from engine.timing.ceiling import Ceiling, ceiling_note
from engine.workloads import step_time

M4_MAX_LORA = json.loads((Path(__file__).parent.parent / "examples" / "qwen2.5-7b-lora-m4-max.json").read_text())


def test_an_m4_max_plan_held_by_an_m4_pro_run_says_so():
    notes = [str(n) for n in step_time(scenario_from_dict(M4_MAX_LORA)).notes]
    held = [n for n in notes if n.startswith("Speed capped: ")]
    assert len(held) == 1
    assert "the best published run on this GPU" not in held[0]
    assert "with no published run on this GPU in this format, the best on a GPU of its family" in held[0]
    assert "mlx-tune-qwen3-0.6b-lora-4096-m4-pro-48gb on Apple M4 Pro 48GB" in held[0]


def test_a_run_on_the_plans_own_gpu_keeps_the_short_words():
    ceiling = Ceiling(mfu=0.55, measured=0.5, row="some-row", source="src", gpu="h100-sxm-80gb")
    text = str(ceiling_note(ceiling, "h100-sxm-80gb", own=0.6, held=0.52))
    assert "the best published run on this GPU in this format, 50% in some-row, + 10%" in text


def test_the_note_says_what_was_capped_why_and_by_how_much_in_one_sentence():
    """User audit 9: "MFU 65%, close to or above 71% (...): the step is stretched to MFU 63%" was hard to follow. The
    note is one sentence naming the capped figure in words, the run and margin that bound it, and the figure before
    and after; the figures are the Ceiling's and the step's (a ceiling of 1.1 x 0.5 measured, own 0.6, held 0.52).
    The model's own MFU may be above the ceiling (56% against 51% for a Megatron run on a GPU of the family), so the
    sentence says "near or above", not "too close to"."""
    ceiling = Ceiling(mfu=0.55, measured=0.5, row="some-row", source="src", gpu="h100-sxm-80gb")
    text = str(ceiling_note(ceiling, "h100-sxm-80gb", own=0.6, held=0.52))
    assert text.startswith("Speed capped: ") and text.count(". ") == 0 and text.endswith(".")
    assert "share of the GPU's peak" in text and "stretched" not in text and "close to or above" not in text
    # the MFU it compares is named: attention counted whole, the count the ceilings' runs were measured in (the
    # step's mfu_attention_whole), not the causal MFU the time line shows first (h-mfucap)
    assert ("MFU (the share of the GPU's peak put to use), with attention counted whole as the published runs' ceiling "
            "was measured, of 60%") in text
    assert "near or above the most a plan may claim here (55%: " in text and "lowers it to 52%" in text
