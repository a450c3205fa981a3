"""Compare's memory rows say why a plan has no figure for a component, not 0.00 GiB (user audit 7): a GRPO step whose
peak is generation holds its update's activations in another phase ("not at its peak (Generation)"), and a full
fine-tune has no frozen weights at all (a dash). The figures are the estimates' own (est.busiest.at_peak())."""

from test_gui_compare_inputs import GRPO, table_rows

from engine import estimate, scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared

LORA_4090 = {"name": "lora", "model": "mistral-7b", "gpu": "rtx-4090", "method": "lora", "precision": "amp-bf16",
             "lora_rank": 16, "lora_targets": "all-linear", "micro_batch": 4, "seq_len": 4096}


def test_a_generation_peak_says_its_training_components_are_elsewhere(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    grpo = scenario_from_dict({**GRPO, "name": "grpo", "framework": "verl", "fsdp": True})
    lora = scenario_from_dict(LORA_4090)
    assert estimate(grpo).rl.peak_phase == "generation"  # the case audited: the engine's KV pool is the peak
    window.compare.set_items([Compared("grpo", grpo), Compared("lora", lora)])
    rows = table_rows(window.compare)
    activations = next(c.name for c, _ in estimate(lora).busiest.at_peak() if c.key == "activations")
    grpo_cell, lora_cell = rows[activations]
    assert grpo_cell == "not at its peak (Generation)"
    assert lora_cell.endswith("GiB") and "(" not in lora_cell  # no difference against a text
    frozen = next(c.name for c, _ in estimate(lora).busiest.at_peak() if c.key == "frozen_weights")
    assert rows[frozen][0] == "—"  # a full fine-tune has no frozen weights in any phase
    kv = next(c.name for c, _ in estimate(grpo).busiest.at_peak() if c.key == "rollout_kv_cache")
    assert rows[kv][1] == "—" and rows[kv][0].endswith("GiB")
    assert not any(cell.startswith("0.00 ") for cells in rows.values() for cell in cells)
