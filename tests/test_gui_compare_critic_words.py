"""Compare names a post-training objective, a critic and the new critic keys in the set-up's words (user audit 8: a
PPO plan beside a GRPO one read "ppo | grpo" and a critic "same"). The expected words are the set-up rows' own
(gui/rl_rows.py: "Reinforcement learning: PPO (with a critic)", "a copy of the policy (same)"), shortened as
Compare's cells are (engine/scenario/key_words.py VALUE_WORDS)."""

from engine import scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared
from tests.test_gui_compare_inputs import table_rows

PPO = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
       "framework": "verl", "fsdp": True, "training_objective": "ppo", "critic_model": "same", "micro_batch": 2,
       "grad_accum": 4, "checkpointing": "full", "rollout_engine": "vllm", "num_generations": 1,
       "packing": "padding-free", "critic_packing": "none", "critic_offload": "optimizer"}


def test_objective_critic_and_its_layout_in_words(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    ppo = scenario_from_dict({**PPO, "name": "ppo"})
    packed = ppo.replace(critic_packing="padding-free", name="packed")
    grpo = ppo.replace(training_objective="grpo", critic_model=None, critic_packing="auto", critic_offload="auto",
                       num_generations=4, name="grpo")
    window.compare.set_items([Compared(s.name, s) for s in (ppo, packed, grpo)])
    rows = table_rows(window.compare)
    assert rows["Objective (training objective)"] == ["PPO (with a critic)", "PPO (with a critic)", "GRPO"]
    assert rows["Critic (value model)"][:2] == ["a copy of the policy"] * 2
    assert rows["Critic's sequences (critic_packing)"][:2] == ["padded", "padding-free"]
    assert rows["Critic offloaded to CPU memory (critic_offload)"][:2] == ["optimizer states"] * 2
