"""The footer's "process (as ... shows it)" names the vendor's own tool (user audit 8: an MI300X user read
"process (as nvidia-smi shows it)"): AMD's rocm-smi (ROCm SMI, `rocm-smi --showmeminfo vram`), Intel Gaudi's hl-smi,
nvidia-smi on NVIDIA cards, Activity Monitor on Apple's chips (tests/test_apple_runtime_words.py). The vendor is the
preset's (presets/gpus.json)."""

from __future__ import annotations

from engine.estimate_output import render_table
from engine.models.presets import get_gpu, gpu_presets, memory_tool_named
from engine.scenario import scenario_from_dict
from engine.workloads import estimate
from gui.app import build_window

BASE = {"model": "llama-3.1-8b", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
        "framework": "megatron", "micro_batch": 1, "seq_len": 4096, "distributed_optimizer": True}


def test_each_vendor_names_its_tool():
    tools = {g.vendor: g.memory_tool for g in gpu_presets().values()}
    assert tools["AMD"] == "rocm-smi" and tools["NVIDIA"] == "nvidia-smi" and tools["Intel"] == "hl-smi"
    assert memory_tool_named(get_gpu("mi300x").name) == "rocm-smi"
    assert memory_tool_named("My own card") == "nvidia-smi"  # a custom GPU: no vendor to go by


def test_text_and_window_say_rocm_smi_on_an_mi300x(qtbot):
    s = scenario_from_dict({**BASE, "gpu": "mi300x"})
    assert "process (as rocm-smi shows it)" in render_table(estimate(s), "GiB")
    window, _ = build_window(None)
    qtbot.addWidget(window)
    window.state.load(s)
    assert "process (as rocm-smi shows it)" in window.table.phases.text()
