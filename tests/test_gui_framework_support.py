"""The window shows which settings the scenario's framework cannot run (engine/scenario/framework_support.py): the
estimate's warnings line under the results (gui/main_window.py)."""

from __future__ import annotations

from tests.window_helpers import window_from

# DeepSpeed with a pipeline and ZeRO-3: deepspeed/runtime/pipe/engine.py at edaa7221 lines 76-77 refuses it
DS_PP_ZERO3 = {"schema_version": 1, "model": "llama-3-70b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 8,
               "framework": "deepspeed", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 64, "seq_len": 4096,
               "zero_stage": 3, "pp": 8}
SENTENCE = ("DeepSpeed cannot run ZeRO-3 together with pipeline parallelism (pp 8): with a pipeline it shards at most "
            "as ZeRO-1.")


def test_the_window_says_deepspeed_cannot_run_a_pipeline_with_zero3(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, DS_PP_ZERO3, name="ds-pp-zero3.json")
    assert win.state.scenario.pp == 8 and win.state.scenario.zero_stage == 3  # loaded as typed
    qtbot.waitUntil(lambda: SENTENCE in win.warnings.text())
    assert win.warnings.isVisible()
