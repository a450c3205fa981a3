"""Post-training in the window (issue 22), driven through the widgets' own methods: the objective picker shows only
the rows the objective uses, the phase chart draws the engine's phases against capacity, a suggestion makes a GRPO
run that does not fit fit as one undo step, and undo restores."""

from __future__ import annotations

import json
from pathlib import Path

from engine import scenario_from_dict
from engine.posttraining.settings import ONLINE_OBJECTIVES, REFERENCE_FREE
from engine.scenario import KEY_SPECS
from engine.units import UNITS
from engine.workloads import estimate
from gui.app import build_window, show_tab
from gui.phase_chart import phase_segments
from gui.rl_rows import rows_for
from gui.words import field_label
from tests.window_helpers import first_fitting_suggestion, window_from

REPO = Path(__file__).resolve().parent.parent
GRPO = json.loads((REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text())
# The same run with vLLM given 80% of the H100 instead of 0.3: its KV pool and the training step no longer fit in
# 80 GB (the engine's own figures: see the first assertion of the test below).
GRPO_TOO_BIG = {**GRPO, "name": "GRPO, vLLM at 0.8", "rollout_gpu_memory_utilization": 0.8}


def _shown(win, widget) -> bool:
    return widget.isVisibleTo(win)


def test_picking_grpo_shows_the_rollout_rows_and_the_phase_chart(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.show()
    rl = win.setup_panel.rl
    assert win.state.scenario.training_objective == "sft"
    assert not any(_shown(win, w) for w in rl.widgets.values())  # sft: no post-training row
    assert _shown(win, win.setup_panel.seq_len) and _shown(win, win.bars) and not _shown(win, win.phases)
    depth = win.state.undo_stack.count()
    rl.objective.set_value("grpo")
    rl.objective.valueChosen.emit("grpo")  # what choosing it in the popup emits
    s = win.state.scenario
    assert s.training_objective == "grpo" and win.state.undo_stack.count() == depth + 1
    for key in ("num_generations", "rollout_engine", "rollout_gpu_memory_utilization", "rollout_sleep",
                "prompt_len", "completion_len", "reward_model", "reference_model"):
        assert _shown(win, rl.widgets[key]), key
    assert not _shown(win, rl.widgets["critic_model"])  # PPO only
    assert not _shown(win, rl.widgets["rollout_gpus"])  # only when the engine has GPUs of its own
    assert not _shown(win, win.setup_panel.seq_len)  # prompt and completion lengths replace it
    assert _shown(win, win.phases) and not _shown(win, win.bars)
    phases = win.state.estimate.rl.phases
    assert win.phases.rows == [p.key for p in phases]
    drawn = sum(w for w, y in zip(win.phases.bar.opts["width"], win.phases.bar.opts["y"], strict=True) if y == 0)
    overheads = win.state.estimate.busiest.overhead_bytes
    assert abs(drawn * UNITS["GiB"] - (phases[0].peak_bytes + overheads)) < 1e6  # the engine's phase, as drawn
    first = phase_segments(phases[0])[0][0]
    assert first.formula in win.phases.tooltip_at(0, 0.0) or first.name in win.phases.tooltip_at(0, 0.0)
    win.state.undo_stack.undo()
    assert win.state.scenario.training_objective == "sft" and _shown(win, win.setup_panel.seq_len)
    assert not _shown(win, win.phases)


def test_rows_follow_the_objective_as_the_engine_reads_it():
    """Each objective's rows: a reference only where the engine keeps one (settings.py REFERENCE_FREE), the engine's
    rows only for online objectives, the critic only for PPO."""
    for objective in KEY_SPECS["training_objective"].check.choices():
        s = scenario_from_dict({**GRPO, "training_objective": objective,
                                "critic_model": "same" if objective == "ppo" else None})
        keys = rows_for(s)
        if objective == "sft":
            assert keys == {"seq_len"}
            continue
        assert ("reference_model" in keys) == (objective not in REFERENCE_FREE)
        assert ("rollout_gpu_memory_utilization" in keys) == (objective in ONLINE_OBJECTIVES)
        assert ("critic_model" in keys) == (objective == "ppo")


def test_a_grpo_run_that_does_not_fit_is_made_to_fit_by_one_suggestion_as_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, GRPO_TOO_BIG)
    assert win.state.estimate.verdict == "does not fit"
    before = win.state.scenario
    first, sug = first_fitting_suggestion(win)
    assert "rollout_gpu_memory_utilization" in sug.changes  # the engine's share first, as people try it
    assert sug.estimate.total_bytes == estimate(before.replace(**sug.changes)).total_bytes  # priced by the engine
    depth = win.state.undo_stack.count()
    win.suggestions.buttons[first].click()
    assert win.state.estimate.verdict in ("fits", "tight") and win.state.estimate.fits
    assert win.state.undo_stack.count() == depth + 1
    assert win.setup_panel.rl.utilization.value() == sug.changes["rollout_gpu_memory_utilization"]  # the row shows it
    win.state.undo_stack.undo()
    assert win.state.scenario == before and win.state.estimate.verdict == "does not fit"


def test_leaving_ppo_drops_its_critic_in_the_same_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**GRPO, "training_objective": "ppo", "critic_model": "same"})
    depth = win.state.undo_stack.count()
    win.setup_panel.rl.objective.valueChosen.emit("grpo")
    s = win.state.scenario
    assert (s.training_objective, s.critic_model) == ("grpo", None)  # a critic is PPO's only (posttraining_checks)
    assert win.state.undo_stack.count() == depth + 1
    win.state.undo_stack.undo()
    assert (win.state.scenario.training_objective, win.state.scenario.critic_model) == ("ppo", "same")


def test_engine_share_row_edits_and_auto(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, GRPO)
    rl = win.setup_panel.rl
    assert rl.utilization.value() == GRPO["rollout_gpu_memory_utilization"]
    rl.utilization.setValue(0.45)
    assert win.state.scenario.rollout_gpu_memory_utilization == 0.45
    rl.utilization.setValue(0.0)  # the spin box's "auto" end
    assert win.state.scenario.rollout_gpu_memory_utilization == "auto"


def test_make_it_fit_plans_change_the_engine_and_fit(qtbot, tmp_path):
    """The solver prices post-training scenarios as post-training steps (engine.workloads.estimate)."""
    from engine.planning.solver import plans

    s = scenario_from_dict(GRPO_TOO_BIG)
    found = plans(s)
    assert found and all(p.fits for p in found)
    assert any("rollout_gpu_memory_utilization" in p.changes or "rollout_sleep" in p.changes for p in found)
    for p in found[:3]:
        assert p.total_bytes == estimate(p.scenario).total_bytes


def test_compare_names_the_post_training_keys_and_the_engine_rows(qtbot, tmp_path):
    from gui.compare_view import Compared
    from gui.words import field_label

    win = window_from(qtbot, tmp_path, GRPO)
    s = win.state.scenario
    big = scenario_from_dict(GRPO_TOO_BIG)
    win.compare.set_items([Compared("0.3", s), Compared("0.8", big)])
    show_tab(win, "compare")
    table = win.compare.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in (1, 2)] for r in range(table.rowCount())}
    assert rows[field_label("rollout_gpu_memory_utilization")] == ["0.3", "0.8"]
    kv = next(c for c, _ in estimate(s).busiest.at_peak() if c.key == "rollout_kv_cache")
    assert kv.name in rows  # the engine's KV pool is a compared row like any component


def test_the_scenario_file_keeps_the_post_training_keys(tmp_path):
    s = scenario_from_dict(GRPO_TOO_BIG)
    assert scenario_from_dict(s.to_dict()) == s


def test_picking_an_online_objective_after_a_precomputed_reference_resets_it(qtbot, tmp_path):
    """Completions generated every step cannot have their reference log-probs computed before training
    (engine/scenario/posttraining_checks.py): the reference goes back to auto in the same step, and the notice says
    why."""
    dpo = json.loads((REPO / "examples" / "dpo-llama3-8b-lora-trl.json").read_text())
    win = window_from(qtbot, tmp_path, {**dpo, "reference_model": "precomputed"})
    notices = []
    win.state.noticeChanged.connect(notices.append)
    win.setup_panel.rl.objective.valueChosen.emit("grpo")
    s = win.state.scenario
    assert (s.training_objective, s.reference_model) == ("grpo", "auto")
    assert notices and "Reference" in notices[-1]
    win.state.undo_stack.undo()
    assert (win.state.scenario.training_objective, win.state.scenario.reference_model) == ("dpo", "precomputed")


def test_make_it_fit_applies_a_post_training_plan_as_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, GRPO_TOO_BIG)
    before = win.state.scenario
    show_tab(win, "fit")
    win.fit_panel.search()
    assert win.fit_panel.wait()
    qtbot.waitUntil(lambda: bool(win.fit_panel.plans), timeout=20000)
    plan = win.fit_panel.plans[0]
    assert plan.fits and plan.total_bytes == estimate(before.replace(**plan.changes)).total_bytes
    depth = win.state.undo_stack.count()
    win.fit_panel.apply(plan)
    assert win.state.estimate.fits and win.state.undo_stack.count() == depth + 1
    win.state.undo_stack.undo()
    assert win.state.scenario == before


def _kv_pool_bytes(est) -> float:
    return next(c.peak_bytes for c, _ in est.busiest.at_peak() if c.key == "rollout_kv_cache")


def test_engine_release_row_edits_the_release_as_one_undo_step(qtbot, tmp_path):
    """vLLM 0.8's V1 engine takes the colocated trainer's weights and the CUDA context out of its budget
    (engine/serving/generation.py vllm_memory, from vllm/v1/worker/gpu_worker.py at v0.8.2/v0.8.3): the row's choice
    reaches the estimate, whose KV pool is the engine's own figure for the same scenario."""
    from engine.scenario.posttraining_keys import ROLLOUT_ENGINE_RELEASES

    win = window_from(qtbot, tmp_path, GRPO)
    rl, state = win.setup_panel.rl, win.state
    combo = rl.release
    assert _shown(win, combo) and combo.currentData() == "latest"
    assert [combo.itemData(i) for i in range(combo.count())] == list(ROLLOUT_ENGINE_RELEASES)  # the declaration's
    latest = _kv_pool_bytes(state.estimate)
    depth = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData("vllm-0.8-v1"))
    s = state.scenario
    assert s.rollout_engine_release == "vllm-0.8-v1" and state.undo_stack.count() == depth + 1
    assert _kv_pool_bytes(state.estimate) == _kv_pool_bytes(estimate(s)) < latest
    assert state.undo_stack.undoText().startswith(field_label("rollout_engine_release"))
    state.undo_stack.undo()
    assert state.scenario.rollout_engine_release == "latest" and combo.currentData() == "latest"
    assert _kv_pool_bytes(state.estimate) == latest
    # the rows show a new scenario quietly: no edit of their own on the stack
    assert (state.undo_stack.count(), state.undo_stack.index()) == (depth + 1, depth)
    state.load(scenario_from_dict({**GRPO, "rollout_engine_release": "vllm-0.8-v0", "rollout_max_model_len": 4096}))
    assert combo.currentData() == "vllm-0.8-v0" and rl.max_model_len.value() == 4096
    assert state.undo_stack.count() == 0  # a fresh history, and the rows pushed nothing while showing it


def test_longest_request_row_edits_max_model_len_and_its_unset_end(qtbot, tmp_path):
    """Unset, the engine's max_model_len is prompt + completion (verl's default, engine/scenario/posttraining_keys.py);
    a longer one leaves fewer requests of that length in the KV pool (vllm/v1/core/kv_cache_utils.py
    get_max_concurrency_for_kv_cache_config, engine/serving/vllm_pool.py), and one past the model's context makes
    vLLM refuse to start (vllm/config/model.py _get_and_verify_max_len)."""
    from engine import resolve_model
    from engine.posttraining.estimate import step_parts

    win = window_from(qtbot, tmp_path, GRPO)
    rl, state = win.setup_panel.rl, win.state
    spin = rl.max_model_len
    assert _shown(win, spin) and spin.value() == 0 and state.scenario.rollout_max_model_len is None
    unset_len = GRPO["prompt_len"] + GRPO["completion_len"]
    assert spin.text() == spin.specialValueText() and f"{unset_len:,}" in spin.text()
    seqs_unset = step_parts(state.scenario).engine.max_concurrent_sequences
    depth = state.undo_stack.count()
    spin.setValue(100_000)
    s = state.scenario
    assert s.rollout_max_model_len == 100_000 and state.undo_stack.count() == depth + 1
    assert step_parts(s).engine.max_concurrent_sequences < seqs_unset
    context = resolve_model(s).max_position
    spin.setValue(context + 1)
    assert state.scenario.rollout_max_model_len == context + 1 and state.estimate.verdict == "does not fit"
    spin.setValue(0)  # the spin box's unset end
    assert state.scenario.rollout_max_model_len is None and state.undo_stack.count() == depth + 3
    state.undo_stack.undo()
    assert state.scenario.rollout_max_model_len == context + 1 and spin.value() == context + 1
    state.undo_stack.undo()
    state.undo_stack.undo()
    assert state.scenario.rollout_max_model_len is None and spin.value() == 0
    win.state.edit({"prompt_len": 256})  # the unset end names the new sum
    assert f"{256 + GRPO['completion_len']:,}" in spin.text()


def test_longest_completion_row_edits_max_completion_len_moving_the_time_not_the_memory(qtbot, tmp_path):
    """Unset, every completion is completion_len long; a longer max_completion_len makes the engine decode until it
    (engine/posttraining/longest_completion.py: one sequence runs on alone from the mean), so the generation takes
    longer while the memory, the engine's preallocated pool and the mean-length tensors, stays as it was."""
    from engine.workloads import step_time

    win = window_from(qtbot, tmp_path, GRPO)
    rl, state = win.setup_panel.rl, win.state
    spin = rl.max_completion_len
    assert _shown(win, spin) and spin.value() == 0 and state.scenario.max_completion_len is None
    assert f"{GRPO['completion_len']:,}" in spin.text()
    before = step_time(state.scenario)
    peak = state.estimate.total_bytes
    depth = state.undo_stack.count()
    spin.setValue(4 * GRPO["completion_len"])
    s = state.scenario
    assert s.max_completion_len == 4 * GRPO["completion_len"] and state.undo_stack.count() == depth + 1
    after = step_time(s)
    assert dict(after.rl_seconds)["generation"] > dict(before.rl_seconds)["generation"]
    assert state.estimate.total_bytes == peak
    spin.setValue(0)  # the spin box's unset end
    assert state.scenario.max_completion_len is None and state.undo_stack.count() == depth + 2
    state.undo_stack.undo()
    assert spin.value() == 4 * GRPO["completion_len"]
    win.state.edit({"training_objective": "dpo"})  # an offline objective generates nothing: no row
    assert not _shown(win, spin)


def test_release_and_longest_request_rows_follow_the_engine_that_runs(qtbot, tmp_path):
    """The release is vLLM's (applies_to "rollout_engine vllm"): hidden for SGLang and without an engine; auto is the
    framework's engine (engine/frameworks: verl's is vLLM, TRL's the trainer's own generate)."""
    win = window_from(qtbot, tmp_path, GRPO)
    rl, state = win.setup_panel.rl, win.state
    release, longest = rl.widgets["rollout_engine_release"], rl.widgets["rollout_max_model_len"]
    state.edit({"rollout_engine": "sglang"})
    assert _shown(win, longest) and not _shown(win, release)
    state.edit({"rollout_engine": "none"})
    assert not _shown(win, longest) and not _shown(win, release)
    state.edit({"rollout_engine": "auto", "framework": "verl"})
    assert _shown(win, longest) and _shown(win, release)
    state.edit({"framework": "trl"})  # TRL's own generate: no engine
    assert not _shown(win, longest) and not _shown(win, release)
    state.edit({"rollout_engine": "sglang", "rollout_engine_release": "vllm-0.8-v0"})
    assert _shown(win, release)  # a release set stays visible, so it can be seen and reset
    state.edit({"training_objective": "dpo"})  # offline: no engine row at all
    assert not _shown(win, longest) and not _shown(win, release)


def test_a_32b_grpo_run_is_made_to_fit_by_splitting_the_engine_as_one_undo_step(qtbot, tmp_path):
    """The RL engineer's case: the GRPO example with Qwen2.5-32B on 8 x H100 under ZeRO-3, the colocated engine at
    tensor parallelism 1 (the whole model on each GPU). Make it fit offered only QLoRA; its first plan now splits the
    engine, applies as one undo step, and the engine's row shows it."""
    win = window_from(qtbot, tmp_path, {**GRPO, "model": "qwen2.5-32b", "gpus_per_node": 8, "zero_stage": 3})
    assert win.state.estimate.verdict == "does not fit"
    before = win.state.scenario
    panel = win.fit_panel
    panel.search()
    assert panel.wait()
    qtbot.waitUntil(lambda: bool(panel.plans), timeout=60000)
    first = panel.plans[0]
    assert first.changes.get("rollout_tp", 1) > 1 and "method" not in first.changes
    depth = win.state.undo_stack.count()
    panel.apply_buttons[0].click()
    assert win.state.estimate.fits and win.state.undo_stack.count() == depth + 1
    assert win.setup_panel.rl.rollout_tp.value() == first.changes["rollout_tp"]
    win.undo_action.trigger()
    assert win.state.scenario == before
