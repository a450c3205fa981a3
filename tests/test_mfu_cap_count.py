"""The speed cap compares the MFU with attention counted whole (h-mfucap): the count the published runs print and
the ceilings were measured in (presets/mfu_ceilings.json, benchmarks/speed_accuracy_report.py), while the MFU shown
first counts the causal half (engine/timing/mfu.py, h-mfucausal). A capped step is then the one main computed before
the shown MFU changed count (main at fd99da1c held the ceilings, the cap and the shown MFU all in the every-key count;
benchmarks/output_fingerprint.py --n 300 recorded there: all 233 timed steps identical here, 28 capped in both)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import best_mfu_by_source, load_rows, sets_ceiling
from engine.models.presets import PRESETS_DIR, read_preset_json
from engine.plan_card import card_facts
from engine.planning.rent import rent_search
from engine.planning.rent_reasons import LATE_EVEN_AT_CEILING
from engine.scenario import resolve_model
from engine.timing.ceiling import frozen_weights, held_mfu, mfu_ceiling, without_ceilings
from engine.timing.hardware import hardware_for
from engine.timing.mfu import mfu_figures, mfu_format, step_flops_per_token
from engine.timing.model import step_time
from engine.units import format_seconds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# Llama 3.1 8B on 8 H100s at 16K tokens: its attention is a large share of the FLOPs, so the two counts differ by
# a fifth (shown MFU 55% against 67% with every key, uncapped) and the cap binds in the every-key count
LONG_H100 = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 16384, "micro_batch": 1,
             "grad_accum": 4, "framework": "megatron"}


def _ceiling(s):
    hw, spec = hardware_for(s), resolve_model(s)
    return mfu_ceiling(hw.gpu_id, hw.arch, mfu_format(s), spec.is_moe, frozen_weights(s, spec))


def test_the_cap_holds_the_every_key_mfu_and_stretches_the_step_by_it():
    """The step is stretched by own / held of the every-key MFU (engine/timing/model.py), not of the causal one; its
    7.44 s is main's (fd99da1c: 7.424964427218589 s, computed there for this scenario; 7.437601541500932 s since
    Megatron-Core's step passes, h-mcoreopt: 10 + 2 x 4 bytes a parameter in place of the generic clip passes' 2 x 4
    here (amp-bf16 without the distributed optimizer: every rank steps all 8B), 27 ms more before the cap, 12.6 ms
    after it; 7.459586375240481 s since a Hopper GEMM beside an NCCL collective loses its last wave, h-a2await's
    nccl_sm_share 1/2) where a cap on the causal MFU would give 6.96 s."""
    s = scenario_from_dict(LONG_H100)
    ceiling = _ceiling(s)
    with without_ceilings():
        free = step_time(s)
    capped = step_time(s)
    assert ceiling is not None and free.mfu < free.mfu_attention_whole
    held = held_mfu(free.mfu_attention_whole, ceiling.mfu)
    assert held < free.mfu_attention_whole  # the cap binds
    assert capped.mfu_attention_whole == pytest.approx(held, rel=1e-9)
    assert capped.step_seconds == pytest.approx(free.step_seconds * free.mfu_attention_whole / held, rel=1e-12)
    assert capped.step_seconds == pytest.approx(7.459586375240481, rel=1e-9)
    on_causal = free.step_seconds * free.mfu / held_mfu(free.mfu, ceiling.mfu)
    assert abs(capped.step_seconds / on_causal - 1) > 0.05  # the count matters here: 7.42 s against 6.96 s
    assert any("with attention counted whole as the published runs' ceiling was measured" in str(n)
               for n in capped.notes)


def test_the_ceilings_are_the_runs_every_key_mfu():
    """Each entry of presets/mfu_ceilings.json is its run's measured MFU with attention counted whole (4 digits, as
    the file keeps them), the count the cap compares; the causal count of a long-sequence run is lower."""
    entries = read_preset_json(PRESETS_DIR / "mfu_ceilings.json")["best_by_source"]
    assert entries == best_mfu_by_source(load_rows())
    rows = {r["id"]: r for r in load_rows() if sets_ceiling(r)}
    lower = 0
    for e in entries:
        row = rows[e["row"]]
        s = scenario_from_dict(row["scenario"])
        whole, _ = mfu_figures(s, resolve_model(s), float(row["measured"]), causal=False)
        causal, _ = mfu_figures(s, resolve_model(s), float(row["measured"]))
        assert e["mfu"] == round(whole, 4), e["row"]
        lower += causal < whole - 1e-4
    assert lower > len(entries) / 2  # most runs' attention has a masked half to discount


def test_the_plan_card_says_which_mfu_the_cap_compares():
    """The card's rows give the shown (causal) MFU, the every-key one, and for a capped step the cap in the every-key
    count, from the step's own note (its figures: the model's MFU, the held one, the ceiling). The example Qwen2.5-7B
    LoRA on an M4 Max fits and is capped by mlx-tune's M4 Pro run (tests/test_apple_training.py)."""
    s = scenario_from_dict(json.loads((EXAMPLES / "qwen2.5-7b-lora-m4-max.json").read_text(encoding="utf-8")))
    t = step_time(s)
    with without_ceilings():
        own = step_time(s).mfu_attention_whole
    rows = {str(label): str(value) for label, value in card_facts(s, estimate(s), t).time_rows}
    assert rows["MFU"] == f"{t.mfu:.0%}"
    assert rows["MFU with attention counted whole (as torchtitan prints it)"] == f"{t.mfu_attention_whole:.0%}"
    capped = rows["Speed capped (MFU with attention counted whole, as the published runs' ceiling was measured)"]
    assert capped == f"{own:.0%} lowered to {t.mfu_attention_whole:.0%} (at most {_ceiling(s).mfu:.0%})"


def test_the_hover_gives_both_mfu_definitions_and_says_the_cap_compares_the_whole_one(qtbot, tmp_path):
    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, LONG_H100)
    tip = win.time_panel.summary.toolTip()
    assert "half the sequence length under the causal mask" in tip  # MFU_DEFINITION (the shown figure)
    assert "The speed cap" in tip and "compares this figure" in tip  # MFU_WHOLE_ATTENTION_DEFINITION
    assert "The likely range" in tip  # the band's words stay first


def test_rents_floor_divides_the_every_key_flops_by_the_ceiling():
    """"What should I rent?" drops a GPU count that misses the deadline even at the ceiling's MFU (engine/planning/
    rent.py): the time is the FLOPs to train over (GPUs x peak x ceiling), the FLOPs in the ceiling's own count,
    attention whole. Llama 3.1 8B at 32K tokens: the two counts differ by a third, so the wrong one shows in the words."""
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "micro_batch": 1,
                            "grad_accum": 16, "seq_len": 32768, "attention": "flash", "precision": "mixed-bf16",
                            "checkpointing": "full", "zero_stage": 3, "tokens_to_train": 10**11})
    deadline_s = 3600.0
    dropped = [r for r in rent_search(s, {"h100-sxm-80gb": 2.0}, deadline_seconds=deadline_s, max_gpus=16).dropped
               if r.dropped is not None and r.dropped.template == LATE_EVEN_AT_CEILING]
    ceiling, spec, peak = _ceiling(s), resolve_model(s), hardware_for(s).peak("bf16")
    assert dropped and ceiling is not None
    for r in dropped:
        params = dict(r.dropped.params)
        assert params["mfu"] == ceiling.mfu
        late = {causal: step_flops_per_token(s, spec, causal) * s.tokens_to_train / (r.gpus * peak * ceiling.mfu)
                - deadline_s for causal in (False, True)}
        assert params["late"] == format_seconds(late[False]) != format_seconds(late[True]), r.gpus
