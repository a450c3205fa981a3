"""A PPO user's critic layout and real prompt lengths in the set-up (user audit 8): critic_packing, critic_offload
and prompt_len_mean were scenario keys only (h-rlrows3), so a verl PPO user could not set a padding-free critic or
the prompts' mean from the window. Driven through the rows' own controls; the expected figures are the engine's own
for the same scenario (engine/workloads estimate / step_time), whose mechanisms engine/posttraining/settings.py
critic_layout and longest_completion.engine_prompt_len read: a padded critic runs every sequence at the batch's width
(verl critic.model.use_remove_padding False), so packing it lowers its update's memory and time; the engine prefills
the real prompt, not the padded one."""

from __future__ import annotations

from engine.workloads import estimate, step_time
from tests.window_helpers import window_from

PPO = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
       "checkpointing": "full", "framework": "verl", "fsdp": True, "micro_batch": 2, "grad_accum": 4,
       "training_objective": "ppo", "critic_model": "same", "prompt_len": 1024, "completion_len": 512,
       "max_completion_len": 1024, "num_generations": 1, "rollout_engine": "vllm", "packing": "padding-free"}


def test_padding_free_critic_is_one_undo_step_that_lowers_its_update(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**PPO, "critic_packing": "none"})
    rl, state = win.setup_panel.rl, win.state
    combo = rl.critic_packing
    assert combo.isVisibleTo(win) and rl.critic_offload.isVisibleTo(win) and combo.currentData() == "none"
    before_s = state.step_time.step_seconds
    depth = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData("padding-free"))
    s = state.scenario
    assert s.critic_packing == "padding-free" and state.undo_stack.count() == depth + 1
    # the undo entry names the row and the choice in the combo's words
    assert state.undo_stack.undoText() == ("Critic's sequences (critic_packing): each sequence at its own length "
                                           "(padding-free)")
    # the critic no longer pads every sequence to 1,024 + 1,024 tokens: a shorter step, the engine's own figure
    assert state.step_time.step_seconds == step_time(s).step_seconds < before_s
    state.undo_stack.undo()
    assert state.scenario.critic_packing == "none" and combo.currentData() == "none"
    assert state.step_time.step_seconds == before_s


def test_critic_offload_row_moves_the_critic_memory(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, PPO)
    rl, state = win.setup_panel.rl, win.state
    combo = rl.critic_offload
    combo.setCurrentIndex(combo.findData("optimizer"))
    s = state.scenario
    assert s.critic_offload == "optimizer"
    assert state.undo_stack.undoText() == "Critic offloaded to CPU memory (critic_offload): optimizer states"
    # the critic's optimizer states wait in CPU memory while the engine generates (verl offloads them between its
    # uses): the generation phase holds less, the figure the window's Memory by phase chart draws
    assert _phase_bytes(s, "generation") < _phase_bytes(s.replace(critic_offload="auto"), "generation")
    assert next(p.peak_bytes for p in state.estimate.rl.phases if p.key == "generation") == _phase_bytes(s, "generation")


def _phase_bytes(s, key: str) -> float:
    return next(p.peak_bytes for p in estimate(s).rl.phases if p.key == key)


def test_prompt_mean_row_caps_at_the_prompt_length_and_shortens_generation(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, PPO)
    rl, state = win.setup_panel.rl, win.state
    spin = rl.prompt_len_mean
    assert spin.isVisibleTo(win) and spin.value() == 0 and "1,024" in spin.specialValueText()
    assert spin.maximum() == 1024  # a mean above the cap is refused (engine/scenario/posttraining_checks.py)
    before_s = state.step_time.step_seconds
    spin.setValue(300)
    s = state.scenario
    assert s.prompt_len_mean == 300
    assert state.step_time.step_seconds == step_time(s).step_seconds < before_s  # less prefill and shorter context
    spin.setValue(0)
    assert state.scenario.prompt_len_mean is None


def test_critic_rows_hide_without_a_critic_and_prompt_mean_for_offline_objectives(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**PPO, "training_objective": "grpo", "critic_model": None, "num_generations": 8})
    rl, state = win.setup_panel.rl, win.state
    assert not rl.critic_packing.isVisibleTo(win) and not rl.critic_offload.isVisibleTo(win)
    assert rl.prompt_len_mean.isVisibleTo(win)
    state.load(state.scenario.replace(training_objective="dpo", rollout_engine="auto"))
    assert not rl.prompt_len_mean.isVisibleTo(win)
