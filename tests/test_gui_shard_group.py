"""The set-up row of the ZeRO / FSDP shard group (scenario key dp_shard, gui/shard_group_row.py): shown where the layout
shards over more than one data-parallel x context-parallel GPU, offering every rank ("all", 0) and the divisors of
dp x cp from 2 (what engine/scenario/shard_group.py check_shard_group takes); one undo step per choice; a tp / GPU
count change that leaves the group dividing no more lowers it in the same step (gui/conflicts.py), saying so.

Expected values are the engine's own for the same scenario (estimate, step_time) or the divisors of the GPU counts."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.timing import step_time
from gui.shard_group_row import shard_groups
from gui.words import describe_changes
from tests.window_helpers import window_from

# Llama 3 8B, FSDP over 2 nodes of 8 H100s: 16 data-parallel ranks
FSDP_16 = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "micro_batch": 1,
           "grad_accum": 2, "seq_len": 4096, "attention": "flash", "fsdp": True, "framework": "torchtitan"}


def test_row_shows_where_the_layout_shards_and_offers_only_groups_that_divide(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**FSDP_16, "fsdp": False, "zero_stage": 0, "framework": "pytorch"})
    combo, state = win.setup_panel.shard_group_row.combo, win.state
    assert not combo.isVisibleTo(win)  # plain data parallelism: nothing sharded
    state.edit({"fsdp": True})
    assert combo.isVisibleTo(win)
    values = [combo.itemData(i) for i in range(combo.count())]
    assert values == [0, *(d for d in range(2, 16) if 16 % d == 0)] == [0, 2, 4, 8]
    assert combo.currentData() == 0 and "16" in combo.itemText(0)
    for text in ("HSDP", "memory", "NVLink"):
        assert text in combo.toolTip()
    state.edit({"nodes": 1, "gpus_per_node": 1})  # one GPU: no data-parallel ranks to group
    assert not combo.isVisibleTo(win)


def test_choosing_a_group_moves_the_estimate_as_the_engine_does_in_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, FSDP_16)
    combo, state = win.setup_panel.shard_group_row.combo, win.state
    before = state.estimate.total_bytes
    count = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData(8))
    assert state.scenario.dp_shard == 8 and state.undo_stack.count() == count + 1
    same = scenario_from_dict({**FSDP_16, "dp_shard": 8})
    assert state.estimate.total_bytes == estimate(same).total_bytes > before  # the states over 8 GPUs, not 16
    assert state.step_time.step_seconds == step_time(same).step_seconds
    assert state.undo_stack.undoText() == describe_changes({"dp_shard": 8}) == "HSDP: shard within 8 GPUs"
    win.undo_action.trigger()
    assert state.scenario.dp_shard == 0 and combo.currentData() == 0 and state.estimate.total_bytes == before


def test_a_layout_change_that_leaves_the_group_dividing_no_more_lowers_it_in_the_same_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**FSDP_16, "nodes": 3, "dp_shard": 8})  # 24 ranks, groups of 8
    state, notices = win.state, []
    state.noticeChanged.connect(notices.append)
    count = state.undo_stack.count()
    state.edit({"nodes": 2, "gpus_per_node": 6})  # 12 ranks: 8 divides them no more
    # the nearest smaller group that divides 12 (gui/conflicts.py _candidates)
    assert max(g for g in shard_groups(12) if g < 8) == 6 == state.scenario.dp_shard
    assert state.undo_stack.count() == count + 1 and notices and "Shard group" in notices[-1]
    state.edit({"tp": 4})  # 3 ranks, fewer than the group of 6: one group of all of them
    assert state.scenario.dp_shard == 0
    win.undo_action.trigger()
    win.undo_action.trigger()
    assert (state.scenario.dp_shard, state.scenario.world_size) == (8, 24)


def test_a_group_where_nothing_is_sharded_stays_shown_and_says_it_has_no_effect(qtbot, tmp_path):
    """dp_shard 4 with plain data parallelism changes no figure (the engine's own estimate and step time equal the
    scenario's without it), so the estimate says it has no effect, and the row stays shown with that sentence, in the
    warning colour, to be reset in one undo step; sharding again hides the mark."""
    plain = {**FSDP_16, "fsdp": False, "zero_stage": 0, "framework": "pytorch"}
    s, without = scenario_from_dict({**plain, "dp_shard": 4}), scenario_from_dict(plain)
    assert estimate(s).total_bytes == estimate(without).total_bytes
    assert step_time(s).step_seconds == step_time(without).step_seconds
    assert any("dp_shard 4 has no effect" in str(w) for w in estimate(s).warnings)
    assert not any("dp_shard" in str(w) for w in estimate(without).warnings)
    win = window_from(qtbot, tmp_path, {**plain, "dp_shard": 4})
    combo, state = win.setup_panel.shard_group_row.combo, win.state
    assert combo.isVisibleTo(win) and "no effect" in combo.toolTip()
    combo.setCurrentIndex(combo.findData(0))
    assert state.scenario.dp_shard == 0 and not combo.isVisibleTo(win)
    win.undo_action.trigger()
    assert state.scenario.dp_shard == 4 and combo.isVisibleTo(win)
