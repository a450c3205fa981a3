"""`trl vllm-serve` builds vLLM's LLM class with no max_num_batched_tokens (huggingface/trl@f2cd577
trl/scripts/vllm_serve.py:343-363), where TRL's colocated engine gets 4096 (trl/generation/vllm_generation.py). vLLM
V1 then takes its LLM-class default: 16384 on GPUs of at least 70 GiB that are not an A100, else 8192, at most
max_num_seqs x max_model_len (vLLM v0.11.2 vllm/engine/arg_utils.py:1892-1911 get_batch_defaults, :2000-2025
_set_default_args). The planner's engine apart had kept the colocated 4096 (user audit 13, found and left)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.posttraining import step_parts
from tests.test_trl_server_share import SPLIT  # the student's split: the engine's max_model_len is 256 + 512 = 768


def _batched_tokens(data: dict) -> int:
    return step_parts(scenario_from_dict(data)).engine.batched_tokens


def test_the_server_runs_vllms_llm_class_default():
    assert _batched_tokens(SPLIT) == 8192  # a 24 GiB GPU: get_batch_defaults' else branch
    assert _batched_tokens({**SPLIT, "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "rollout_gpus": 4}) == 16384
    assert _batched_tokens({**SPLIT, "gpu": "a100-80gb"}) == 8192  # "a100" in the device name: the smaller default
    # capped at max_num_seqs x max_model_len (_set_default_args): 4 x 768
    assert _batched_tokens({**SPLIT, "rollout_max_num_seqs": 4}) == 4 * 768


def test_the_colocated_engine_and_a_value_set_keep_theirs():
    colocated = {**SPLIT, "rollout_placement": "colocate", "rollout_gpus": None, "gpus_per_node": 2,
                 "rollout_gpu_memory_utilization": 0.3}
    assert _batched_tokens(colocated) == 4096  # TRL's LLM(max_num_batched_tokens=4096) in colocate mode
    assert _batched_tokens({**SPLIT, "rollout_max_num_batched_tokens": 2048}) == 2048
