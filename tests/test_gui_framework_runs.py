"""The set-up's checkpointing and method lists follow what the scenario's framework runs (gui/parallel_limits.py
reading engine/frameworks/runs.py): a mode or method it lacks stays listed, greyed, with the estimate's sentence as the
item's tooltip; a loaded value it cannot run stays chosen, enabled and marked; a framework with one pipeline schedule
shows it fixed. Widgets are driven through their own methods, as a person would.

The facts are the rows' (engine/frameworks/runs.py): transformers' gradient checkpointing wraps whole decoder layers
(huggingface/transformers 00029cfa0ed7 src/transformers/modeling_layers.py GradientCheckpointingLayer.__call__);
Megatron-Bridge at 067f987df03b has no QLoRA (src/megatron/bridge/peft); DeepSpeed's PipelineEngine runs only its
1F1B TrainSchedule (deepspeed/runtime/pipe/engine.py at edaa7221, engine/frameworks/parallelism.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from gui.theme import text_colour
from tests.window_helpers import window_from

HF = {"schema_version": 1, "model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 1,
      "framework": "huggingface", "precision": "amp-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096}
HF_LABEL = "Hugging Face (Trainer / TRL / accelerate)"  # engine/frameworks/defaults.py, the row's label


def _item(combo, value):
    i = combo.findData(value)
    return combo.model().item(i), combo.itemData(i, Qt.ItemDataRole.ToolTipRole)


def test_hugging_face_greys_selective_checkpointing_with_the_reason(qtbot, tmp_path):
    panel = window_from(qtbot, tmp_path, HF).setup_panel
    box = panel.checkpointing
    assert [box.itemData(i) for i in range(box.count())] == ["none", "selective", "op-selective", "full"]
    for mode in ("selective", "op-selective"):  # transformers recomputes whole layers only
        item, tip = _item(box, mode)
        assert not item.isEnabled() and tip.startswith(HF_LABEL) and "whole layers only" in tip
    for mode in ("none", "full"):
        item, tip = _item(box, mode)
        assert item.isEnabled() and not tip
    assert box.isEnabled() and box.value() == "none"


def test_a_loaded_selective_under_hugging_face_stays_chosen_and_marked(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "checkpointing": "selective"})
    box = win.setup_panel.checkpointing
    assert win.state.scenario.checkpointing == "selective" and box.value() == "selective"  # never replaced
    item, _tip = _item(box, "selective")
    assert item.isEnabled() and box.currentText().startswith("⚠")
    assert "whole layers only" in box.toolTip() and text_colour("tight") in box.styleSheet()
    box.setCurrentIndex(box.findData("full"))  # set back to what it runs: the mark goes
    assert win.state.scenario.checkpointing == "full" and not box.currentText().startswith("⚠")
    assert text_colour("tight") not in box.styleSheet()


def test_megatron_greys_qlora_and_keeps_lora(qtbot, tmp_path):
    panel = window_from(qtbot, tmp_path, {**HF, "framework": "megatron", "precision": "mixed-bf16"}).setup_panel
    item, tip = _item(panel.method, "qlora")
    assert not item.isEnabled() and tip == "Megatron-LM / NeMo has no QLoRA."
    assert _item(panel.method, "lora")[0].isEnabled()
    # Megatron's selective (--recompute-granularity selective) runs; it has no per-op policy
    assert _item(panel.checkpointing, "selective")[0].isEnabled()
    assert not _item(panel.checkpointing, "op-selective")[0].isEnabled()


def test_a_single_pipeline_schedule_is_shown_fixed_with_the_reason(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**HF, "framework": "deepspeed", "precision": "mixed-bf16", "pp": 2})
    box = win.setup_panel.pp_schedule
    assert [box.itemData(i) for i in range(box.count())] == ["1f1b"]
    assert not box.isEnabled() and box.toolTip().startswith("DeepSpeed runs only this pipeline schedule")
    # Megatron runs 1F1B and interleaved 1F1B: choosable again; the Zero Bubble fork adds the zero-bubble schedules
    win.state.edit({"framework": "megatron"})
    assert [box.itemData(i) for i in range(box.count())] == ["1f1b", "interleaved-1f1b"]
    assert box.isEnabled()
    win.state.edit({"framework": "megatron-zb"})
    assert [box.itemData(i) for i in range(box.count())] == ["1f1b", "interleaved-1f1b", "zb-h1", "zb-2p", "zbv"]


def test_torchtitan_greys_optimizer_only_offload_and_lists_no_zero1_or_zero2(qtbot, tmp_path):
    """torchtitan b5bcd76c66d0 config/configs.py line 69 enable_cpu_offload offloads 'parameters, gradients, and
    optimizer states in FSDP' together, and FSDP2 is its only sharding (models/llama3/parallelize.py line 63):
    engine/frameworks/parallelism.py TORCHTITAN."""
    panel = window_from(qtbot, tmp_path, {**HF, "framework": "torchtitan", "fsdp": True}).setup_panel
    item, tip = _item(panel.offload, "optimizer")
    assert not item.isEnabled() and tip.startswith("torchtitan has no optimizer offload")
    assert _item(panel.offload, "optimizer+params")[0].isEnabled()
    assert [panel.zero.itemData(i) for i in range(panel.zero.count())] == [0, "fsdp"]


def test_fsdp_with_an_optimizer_only_offload_marks_both_lists(qtbot, tmp_path):
    """FSDP's CPU offload moves the weights and gradients with the optimizer (torch FSDP1 CPUOffload(offload_params),
    FSDP2 CPUOffloadPolicy; engine/frameworks/parallelism_row.py fsdp_offloads): with FSDP over 8 ranks the offload
    list keeps "optimizer" chosen and marked, and the sharding list carries the same sentence."""
    win = window_from(qtbot, tmp_path, {**HF, "fsdp": True, "offload": "optimizer"})
    panel = win.setup_panel
    assert panel.offload.value() == "optimizer" and panel.offload.currentText().startswith("⚠")
    assert "no optimizer-only offload with FSDP" in panel.offload.toolTip()
    assert "no optimizer-only offload with FSDP" in panel.zero.toolTip()
    item, tip = _item(panel.offload, "optimizer+params")  # FSDP's own offload runs: offered as it is
    assert item.isEnabled() and not tip
