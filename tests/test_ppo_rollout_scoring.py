"""TRL's PPO rollout scoring, as ms-swift's PPO examples ran it (trl v0.17.0 trl/trainer/ppo_trainer.py:425-475;
ms-swift ae43d1bfb swift/trainers/rlhf_trainer/ppo_trainer.py overrides only __init__, train and saving):

- the loop scores the generated batch in chunks of local_rollout_forward_batch_size (64: trl/trainer/utils.py:1064;
  ms-swift swift/llm/argument/rlhf_args.py:35 at ae43d1bfb);
- trl/trainer/utils.py `forward` (:1241-1246) and `get_reward` (:1202) call the model with output_hidden_states=True:
  layers + 1 hidden states of b·s·h alive at the end of the pass; `forward` returns the whole sequence's logits;
- the stacked sampling scores `logitss` (fp32, b·r·V) stay referenced through the loop (`del logits` drops a view).
"""

import pytest

from engine.posttraining import rl_settings
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

# ms-swift examples/train/rlhf/ppo/lora.sh (tests/data/published/posttraining.json swift-ppo-lora-llama3.1-8b)
PPO_LORA = {"gpu": "a100-80gb", "gpus_per_node": 4, "framework": "ms-swift", "training_objective": "ppo",
            "precision": "mixed-bf16", "model": "llama-3.1-8b", "method": "lora", "lora_rank": 8, "lora_alpha": 32,
            "lora_targets": "all-linear", "zero_stage": 2, "micro_batch": 1, "grad_accum": 4,
            "reference_model": "adapter-off", "reward_model": "llama-3.1-8b", "critic_model": "llama-3.1-8b",
            "prompt_len": 1536, "completion_len": 512, "num_generations": 1, "rollout_engine": "none",
            "checkpointing": "full"}
LAYERS, HIDDEN, VOCAB = 32, 4096, 128256  # Llama-3.1-8B config.json


def _scoring(**keys):
    est = estimate(scenario_from_dict({**PPO_LORA, **keys}))
    return est, next(p for p in est.rl.phases if p.key == "scoring")


def test_reference_pass_holds_every_hidden_state_whole_logits_and_the_scores():
    est, scoring = _scoring()
    ref = next(c for c in scoring.components if c.key == "score_reference")
    sequences, tokens = 4, 4 * 2048  # the rollout batch: 1 x 4 accumulation steps, below the chunk of 64
    hidden_states = (LAYERS + 1) * tokens * HIDDEN * 2
    scores = 4 * sequences * 512 * VOCAB
    head = 2 * tokens * VOCAB + 2 * 2 * 512 * VOCAB  # bf16 logits + two response rows' log-softmax
    assert ref.peak_bytes == pytest.approx(hidden_states + scores + head, rel=1e-6)
    assert est.rl.peak_phase == "scoring"  # above generate()'s cache and scores (48.1 GiB)


def test_only_without_an_engine_and_only_for_ppo():
    assert rl_settings(scenario_from_dict(PPO_LORA), 2).rollout_chunk == 64
    for keys in ({"rollout_engine": "vllm"}, {"framework": "verl"}):
        assert rl_settings(scenario_from_dict({**PPO_LORA, **keys}), 2).rollout_chunk == 0
