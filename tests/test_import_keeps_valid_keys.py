"""An imported file whose keys the scenario refuses for a key the file does not set (a generation engine on GPUs of its
own without their count: the sentence names rollout_gpus) lost its keys one by one in the file's order until the
error went: a TRL server-mode config lost 11 of them, micro_batch first (user audit 13). Only the key whose removal
answers the error is dropped now, named in one sentence; every valid key is kept."""

from __future__ import annotations

from engine.configs.importing import validated

GRPO_SERVER = {"framework": "trl", "micro_batch": 4, "grad_accum": 4, "checkpointing": "full",
               "training_objective": "grpo", "completion_len": 512, "num_generations": 8, "rollout_engine": "vllm",
               "rollout_placement": "separate", "model": "qwen2.5-7b"}


def test_only_the_key_that_answers_the_error_is_dropped():
    kept, dropped = validated(GRPO_SERVER)
    assert [key for key, _ in dropped] == ["rollout_placement"]
    assert kept == {k: v for k, v in GRPO_SERVER.items() if k != "rollout_placement"}
    # one sentence: the key, its value, and the planner's own reason naming the missing count
    (_, why), = dropped
    assert str(why) == ("rollout_placement = 'separate' rejected: A generation engine on GPUs of its own needs the number "
                        "of those GPUs (rollout GPUs).")


def test_a_key_the_error_names_is_still_the_one_dropped():
    kept, dropped = validated({"model": "qwen2.5-7b", "offload": "optimizer", "micro_batch": 2})
    assert [key for key, _ in dropped] == ["offload"] and kept == {"model": "qwen2.5-7b", "micro_batch": 2}
