"""Lowering the prompt length below the prompts' mean (prompt_len_mean, the cap every prompt is padded to) was
refused with an error (user audit 8), so a PPO user shortening the cap had to clear the mean first. The edit now
wins, the mean is unset in the same undo step (every prompt as long as the new cap, the most the mean can be:
engine/scenario/posttraining_checks.py) and the window says so, as it does for other left-over options
(gui/conflicts.py)."""

from tests.test_gui_critic_prompt_rows import PPO
from tests.window_helpers import window_from


def test_a_shorter_cap_unsets_the_mean_in_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**PPO, "prompt_len_mean": 300})
    rl, state = win.setup_panel.rl, win.state
    notices: list[str] = []
    state.noticeChanged.connect(notices.append)
    depth = state.undo_stack.count()
    rl.prompt_len.setValue(200)
    s = state.scenario
    assert s.prompt_len == 200 and s.prompt_len_mean is None and state.undo_stack.count() == depth + 1
    assert rl.prompt_len_mean.value() == 0 and "200" in rl.prompt_len_mean.specialValueText()
    assert notices and "Mean prompt without padding (prompt_len_mean)" in notices[-1]
    state.undo_stack.undo()
    assert state.scenario.prompt_len == 1024 and state.scenario.prompt_len_mean == 300
