"""Random edits through the set-up panel's own widgets: never an exception, views always agree with the engine."""

import random

from engine import estimate
from gui.app import build_window


def test_two_hundred_random_edits(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    panel = win.setup_panel
    panel.advanced.set_expanded(True)
    rng = random.Random(1234)
    combos = [panel.method, panel.precision, panel.optimizer, panel.checkpointing, panel.attention, panel.zero,
              panel.offload, panel.lora_targets, panel.freeze_from, panel.qlora_bits]
    spins = [(panel.tp, [1, 2, 4, 8]), (panel.pp, [1, 2, 4]), (panel.ep, [1, 2, 8]), (panel.cp, [1, 2]),
             (panel.grad_accum, [1, 2, 8]), (panel.lora_rank, [4, 16, 64]), (panel.frozen_layers, [0, 4, 16]),
             (panel.micro_batch.spin, [1, 2, 8]), (panel.seq_len.spin, [512, 2048, 8192]),
             (win.hardware_picker.gpus_per_node, [1, 2, 8])]
    models = ["llama-3-8b", "mixtral-8x7b", "qwen3-30b-a3b", "gemma-2-2b", "phi-3-mini", "qwen2.5-0.5b"]
    for step in range(200):
        kind = rng.random()
        if kind < 0.45:
            combo = rng.choice(combos)
            if combo.count():
                combo.setCurrentIndex(rng.randrange(combo.count()))
        elif kind < 0.9:
            spin, values = rng.choice(spins)
            spin.setValue(rng.choice(values))
        elif kind < 0.95:
            win.model_picker.tree.chosen.emit(rng.choice(models))
        else:
            win.undo_action.trigger()
        est = win.state.estimate
        assert est.peak_allocated_bytes == estimate(win.state.scenario).peak_allocated_bytes
        assert win.verdict.verdict == est.verdict, step
    assert win.state.undo_stack.count() > 20
