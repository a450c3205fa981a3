"""A scenario of an FSDP-only framework (torchtitan, fms-fsdp) that states its sharding as zero_stage 3 without the
fsdp key, as the shipped examples/qwen3-30b-a3b-8x-h100.json does: the engine shards it and warns of nothing, so the
sharding list shows it as it is, unmarked (gui/parallel_limits.py _zero_runs), where it read "this framework cannot
run it"; a new choice still offers that framework's ZeRO-3 by the name FSDP only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from window_helpers import window_from

from engine import estimate, scenario_from_dict

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "qwen3-30b-a3b-8x-h100.json"


@pytest.mark.parametrize("framework", ["torchtitan", "fms-fsdp"])
def test_zero3_of_an_fsdp_only_framework_is_not_marked(qtbot, tmp_path, framework):
    data = {**json.loads(EXAMPLE.read_text()), "framework": framework}
    if framework == "fms-fsdp":
        data.update(model="llama-3.1-8b", ep=1)
    win = window_from(qtbot, tmp_path, data)
    assert not estimate(scenario_from_dict(data)).warnings  # the engine runs it as it is
    combo = win.setup_panel.zero
    assert combo.currentData() == 3
    assert "cannot run" not in combo.currentText() and "cannot run" not in combo.toolTip()
    # the other choices: FSDP by its name, no second ZeRO-3 entry
    values = [combo.itemData(i) for i in range(combo.count())]
    assert values.count(3) == 1 and "fsdp" in values
    win.state.edit({"fsdp": True, "zero_stage": 0})
    assert 3 not in [combo.itemData(i) for i in range(combo.count())]


def test_the_fp8_choice_names_torchao_beside_transformer_engine(qtbot, tmp_path):
    """torchtitan trains fp8 with torchao's float8 linears (its fp8_recipe rowwise / rowwise_with_gw_hp are torchao's
    names, engine/scenario/format.py), so the precision list no longer names Transformer Engine alone."""
    data = {**json.loads(EXAMPLE.read_text()), "model": "llama-3.1-8b", "ep": 1, "precision": "fp8",
            "fp8_recipe": "rowwise"}
    win = window_from(qtbot, tmp_path, data)
    assert "torchao" in win.setup_panel.precision.currentText()


def test_a_recipe_megatron_has_no_code_for_is_greyed_and_the_chosen_one_marked(qtbot, tmp_path):
    """Megatron's fp8 recipes are Transformer Engine's (Fp8Recipe at d98e8a64 megatron/core/enums.py lines 12-19):
    torchao's rowwise chosen under Megatron says so in the estimate and on the row, the other torchao recipe is greyed,
    and the row has its own help where it had none."""
    data = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron",
            "precision": "fp8", "fp8_recipe": "rowwise", "tp": 2}
    warnings = [str(w) for w in estimate(scenario_from_dict(data)).warnings]
    assert any('no fp8 recipe "rowwise"' in w for w in warnings)
    win = window_from(qtbot, tmp_path, data)
    combo = win.setup_panel.framework_options.megatron.fp8_recipe
    assert 'no fp8 recipe "rowwise"' in combo.toolTip()
    model = combo.model()
    enabled = {combo.itemData(i): model.item(i).isEnabled() for i in range(combo.count())}
    assert enabled["rowwise"] and not enabled["rowwise_with_gw_hp"] and enabled["delayed"] and enabled["auto"]
    win.state.edit({"fp8_recipe": "tensorwise"})
    assert "no fp8 recipe" not in combo.toolTip() and "Transformer Engine" in combo.toolTip()
    assert not any("fp8 recipe" in str(w) for w in win.state.estimate.warnings)


def test_a_plan_back_to_the_framework_recipe_reads_in_words():
    """Make it fit's plan for torchao's recipe under Megatron sets fp8_recipe auto: named as the list names it."""
    from gui.words import describe_changes

    assert describe_changes({"fp8_recipe": "auto"}) == "FP8 scaling recipe: as the framework does it"
