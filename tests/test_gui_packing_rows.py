"""The set-up's packing rows (user audit 15): an RL engineer planning verl GRPO with dynamic batch sizes sets the token
budget per micro-batch and the length spread in the window, each one undo step, each row shown where its declared
applies_to holds, its range the declaration's, its hover on the field and its label. Driven through the widgets' own
methods."""

from __future__ import annotations

from engine.posttraining.rank_imbalance import completion_spread_tokens
from engine.scenario import KEY_SPECS
from engine.workloads import step_time
from gui.words import field_label
from tests.window_helpers import window_from

# The engineer's run: verl GRPO of Qwen2.5-7B on one node of 8 x H100 under FSDP (ZeRO-3), colocated vLLM at TP 2,
# completions of 1,500 tokens on average and up to 4,096 (verl data.max_response_length)
VERL_GRPO = {"schema_version": 1, "name": "GRPO Qwen2.5-7B, verl", "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb",
             "gpus_per_node": 8, "method": "full", "precision": "bf16", "checkpointing": "full", "framework": "verl",
             "zero_stage": 3, "fsdp": True, "micro_batch": 16, "grad_accum": 4, "training_objective": "grpo",
             "prompt_len": 1024, "completion_len": 1500, "max_completion_len": 4096, "num_generations": 8,
             "rollout_engine": "vllm", "rollout_tp": 2, "rollout_gpu_memory_utilization": 0.6}


def _shown(win, widget) -> bool:
    return widget.isVisibleTo(win)


def _term_seconds(s, key: str) -> float:
    return dict(step_time(s).rl_seconds).get(key, 0.0)


def test_padding_free_shows_the_token_budget_which_cuts_the_update_as_one_undo_step(qtbot, tmp_path):
    """Padded micro-batches have no budget (the key applies to "packing padding-free, packed"); padding-free, a budget
    below a mini-batch's tokens cuts it into ceil(tokens / budget) micro-batches (verl's rearrange_micro_batches,
    engine/posttraining/estimate.py _token_budget), so the training step holds fewer tokens at once and its peak
    falls."""
    win = window_from(qtbot, tmp_path, VERL_GRPO)
    rows, state = win.setup_panel.packing, win.state
    assert _shown(win, rows.packing) and not _shown(win, rows.token_budget) and not _shown(win, rows.spread)
    check = KEY_SPECS["max_tokens_per_micro_batch"].check
    assert (rows.token_budget.minimum(), rows.token_budget.maximum()) == (check.minimum, check.maximum)
    depth = state.undo_stack.count()
    rows.packing.set_value("padding-free")
    rows.packing.valueChosen.emit("padding-free")  # what choosing it in the popup emits
    assert state.scenario.packing == "padding-free" and state.undo_stack.count() == depth + 1
    assert _shown(win, rows.token_budget) and _shown(win, rows.spread)
    assert rows.token_budget.text() == rows.token_budget.specialValueText()  # 0: no budget
    no_budget = state.estimate.rl.phases
    training_peak = next(p.peak_bytes for p in no_budget if p.key == "training")
    rows.token_budget.setValue(8192)
    assert state.scenario.max_tokens_per_micro_batch == 8192 and state.undo_stack.count() == depth + 2
    assert state.undo_stack.undoText() == f"{field_label('max_tokens_per_micro_batch')}: 8,192"
    assert next(p.peak_bytes for p in state.estimate.rl.phases if p.key == "training") < training_peak
    state.undo_stack.undo()
    assert state.scenario.max_tokens_per_micro_batch == 0 and rows.token_budget.value() == 0
    state.undo_stack.undo()
    assert state.scenario.packing == "none" and not _shown(win, rows.token_budget)


def test_the_spread_row_says_the_assumed_spread_and_a_stated_one_sets_the_update_wait(qtbot, tmp_path):
    """Unset, the spread is the completions' assumed one (rank_imbalance.py completion_spread_tokens), which the row's
    unset end names; a larger stated spread makes the update's micro-batches wait longer for the rank with the most
    tokens (the wait grows with sigma: 1 + e_n sigma sqrt(1 - 1/k) / (mu sqrt(m)))."""
    win = window_from(qtbot, tmp_path, {**VERL_GRPO, "packing": "padding-free"})
    rows, state = win.setup_panel.packing, win.state
    spread = rows.spread
    check = KEY_SPECS["sequence_len_std"].check
    assert _shown(win, spread) and spread.value() == 0 and spread.maximum() == check.maximum
    assert f"{round(completion_spread_tokens(state.scenario)):,}" in spread.text()
    assumed_wait = _term_seconds(state.scenario, "rank_imbalance")
    assert assumed_wait > 0
    depth = state.undo_stack.count()
    spread.setValue(3000)
    assert state.scenario.sequence_len_std == 3000 and state.undo_stack.count() == depth + 1
    assert _term_seconds(state.scenario, "rank_imbalance") > assumed_wait
    spread.setValue(0)  # the unset end: null, the assumed spread again
    assert state.scenario.sequence_len_std is None and _term_seconds(state.scenario, "rank_imbalance") == assumed_wait
    state.undo_stack.undo()
    assert spread.value() == 3000


def test_the_rows_follow_their_declarations_and_carry_their_hovers(qtbot, tmp_path):
    """The spread counts for online objectives (applies_to) with padding-free micro-batches (the one layout
    rank_imbalance.py reads it in); a value set elsewhere stays visible so it can be reset; each row's field and label
    carry its hover."""
    win = window_from(qtbot, tmp_path, {**VERL_GRPO, "packing": "padding-free"})
    rows, state, form = win.setup_panel.packing, win.state, win.setup_panel.packing._form
    for widget in (rows.packing, rows.token_budget, rows.spread):
        assert widget.toolTip() and form.labelForField(widget).toolTip() == widget.toolTip()
    state.edit({"training_objective": "dpo"})  # offline: no rollout, no spread
    assert not _shown(win, rows.spread) and _shown(win, rows.token_budget)
    state.edit({"training_objective": "grpo", "sequence_len_std": 500, "packing": "none"})
    assert _shown(win, rows.spread) and not _shown(win, rows.token_budget)  # set: shown, so it can be reset
    state.edit({"training_objective": "sft", "sequence_len_std": None})
    assert not _shown(win, rows.spread) and _shown(win, rows.packing)
    # TRL cuts no micro-batches itself (its fact micro_batches_by_count): no rank waits, the spread reads nothing
    state.edit({"training_objective": "grpo", "packing": "padding-free", "framework": "trl"})
    assert not _shown(win, rows.spread) and _shown(win, rows.token_budget)
    state.edit({"framework": "verl"})
    assert _shown(win, rows.spread)


def test_the_spread_row_shows_only_where_the_rank_wait_reads_it(qtbot, tmp_path):
    """verl under DDP or ZeRO-1/2: no gather ties the ranks, the longest-rank factor is 1 whatever the spread
    (rank_imbalance.py), so the row is hidden; it shows again under FSDP (ZeRO-3), where a stated spread moves the
    update's wait. The row's condition is the engine's own (ranks_tied_padding_free), not a copy."""
    from engine.memory.states import dtypes_for
    from engine.posttraining import rl_settings, training_scenario
    from engine.posttraining.rank_imbalance import longest_rank_factor

    def factor(s) -> float:  # the update's longest-rank factor, as the step time reads it (posttraining/timing.py)
        return longest_rank_factor(training_scenario(s, rl_settings(s, dtypes_for(s).compute)))

    win = window_from(qtbot, tmp_path, {**VERL_GRPO, "packing": "padding-free"})
    rows, state = win.setup_panel.packing, win.state
    for sharding in ({"fsdp": False, "zero_stage": 0}, {"fsdp": False, "zero_stage": 1}, {"fsdp": False, "zero_stage": 2}):
        state.edit(sharding)
        assert not _shown(win, rows.spread), sharding
        for spread in (None, 3000):  # the factor the spread would feed does not move: nothing to set
            assert factor(state.scenario.replace(sequence_len_std=spread)) == 1.0
    state.edit({"fsdp": True, "zero_stage": 3})
    assert _shown(win, rows.spread)
    assert factor(state.scenario.replace(sequence_len_std=3000)) > factor(state.scenario.replace(sequence_len_std=100)) > 1.0


def test_the_time_tabs_rank_wait_hover_gives_the_figures_its_formula_reads(qtbot, tmp_path):
    """The wait's hover gave its formula without its figures (user audit 15): now n, e_n, sigma and where it comes from,
    k, m, the tokens a sequence and the factor, whose excess over 1 times the update's per-token work is the term
    (rank_imbalance.py update_rank_wait_seconds)."""
    from gui.app import show_tab

    win = window_from(qtbot, tmp_path, {**VERL_GRPO, "packing": "padding-free", "sequence_len_std": 900})
    show_tab(win, "time")
    win.time_panel.refresh()
    tip = win.time_panel.bar.legend.toolTip()
    for figure in ("n = 8", "sigma = 900", "sigma_from = sequence_len_std", "m = 16", "tokens_a_sequence = 2,524"):
        assert figure in tip, figure
    factor = float(tip.split("factor = ")[1].split("<")[0].split(",")[0])
    t = step_time(win.state.scenario)
    work = sum(t.breakdown_seconds[k] for k in ("compute", "memory_bound", "recompute"))
    assert abs((factor - 1) * work - dict(t.rl_seconds)["rank_imbalance"]) < 0.01 * work  # 3 significant digits
