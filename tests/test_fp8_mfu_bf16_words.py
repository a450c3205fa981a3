"""An fp8 plan's MFU is of the fp8 peak (engine/timing/mfu.py mfu_format), while published tables often divide fp8
runs by the bf16 peak (MFU_BF16_DEFINITION); `estimate --json` carried both, the window and the text only the
first, so an MI300X fp8 user read "MFU 16%" against tables in the bf16 convention (user audit 8). The expected
figure is the engine's own mfu_bf16_peak: the same FLOPs over the dense bf16 peak (presets/gpus.json)."""

from __future__ import annotations

from engine.estimate_output import render_time
from engine.models.presets import get_gpu
from engine.scenario import scenario_from_dict
from engine.workloads import step_time
from tests.window_helpers import window_from

FP8 = {"model": "llama-3.1-8b", "gpu": "mi300x", "gpus_per_node": 8, "method": "full", "precision": "fp8",
       "framework": "megatron", "micro_batch": 2, "grad_accum": 8, "seq_len": 4096, "distributed_optimizer": True,
       "checkpointing": "selective"}


def test_text_gives_the_bf16_peak_mfu_beside_the_fp8_one():
    t = step_time(scenario_from_dict(FP8))
    peaks = dict(get_gpu("mi300x").dense_peak_tflops)
    assert abs(t.mfu_bf16_peak - t.mfu * peaks["fp8"] / peaks["bf16"]) < 1e-9  # the same FLOPs, the bf16 peak
    line = next(x for x in render_time(t).splitlines() if x.startswith("Time:"))
    # the bf16-peak figure first, then the count with attention whole (h-mfucausal), in one parenthesis
    assert f"MFU {t.mfu:.0%} ({t.mfu_bf16_peak:.0%} of the bf16 peak; " in line
    bf16 = step_time(scenario_from_dict({**FP8, "precision": "mixed-bf16"}))
    assert "bf16 peak" not in render_time(bf16)  # one peak, one figure


def test_the_time_tab_says_it_too(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, FP8)
    t = win.state.step_time
    assert f"({t.mfu_bf16_peak:.0%} of the bf16 peak" in win.time_panel.summary.text()


def test_a_post_training_step_scales_both_mfus_by_its_whole_step():
    """A post-training step's MFU is the update's FLOPs over the whole step (generation included); the bf16-peak
    figure was left at the update's alone (a bf16 PPO read 'MFU 2% (26% of the bf16 peak)')."""
    from tests.test_gui_critic_prompt_rows import PPO

    bf16 = step_time(scenario_from_dict(PPO))
    assert bf16.mfu_bf16_peak == bf16.mfu and "bf16 peak" not in render_time(bf16)
    fp8 = step_time(scenario_from_dict({**PPO, "precision": "fp8", "framework": "verl"}))
    peaks = dict(get_gpu("h100-sxm-80gb").dense_peak_tflops)
    assert abs(fp8.mfu_bf16_peak - fp8.mfu * peaks["fp8"] / peaks["bf16"]) < 1e-9
