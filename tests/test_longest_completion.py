"""The longest completion a synchronous rollout decodes until (issue 23; engine/posttraining/longest_completion.py):
the scenario key max_completion_len, read from the configs' caps and written back as them, and its default."""

from __future__ import annotations

from pathlib import Path

from engine.configs import export_config, import_files
from engine.posttraining.longest_completion import longest_completion_len, tail_context_tokens, tail_iterations
from engine.scenario import scenario_from_dict

DATA = Path(__file__).resolve().parent / "data" / "configs"
GRPO = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "framework": "verl", "training_objective": "grpo",
        "prompt_len": 512, "completion_len": 300, "num_generations": 5, "rollout_engine": "vllm"}


def test_unset_every_completion_is_completion_len_long() -> None:
    s = scenario_from_dict(GRPO)
    assert s.max_completion_len is None and longest_completion_len(s) == 300 and tail_iterations(s) == 0
    longer = scenario_from_dict({**GRPO, "max_completion_len": 1024})
    assert longest_completion_len(longer) == 1024 and tail_iterations(longer) == 1024 - 300
    assert tail_context_tokens(longer) == 512 + (300 + 1024) / 2  # the lone sequence's context, halfway to the end
    # below the mean it cannot be: the longest is at least the mean
    assert longest_completion_len(scenario_from_dict({**GRPO, "max_completion_len": 100})) == 300


def test_the_configs_cap_is_read_as_the_longest_completion() -> None:
    # verl run_qwen2-7b.sh: data.max_response_length=1024; open-r1's GRPOConfig YAML: max_completion_length: 1024;
    # OpenRLHF's PPO script: --generate_max_len 1024 (line 27)
    for path in ("verl/run_qwen2-7b.sh", "trl/open-r1_qwen2.5-1.5b_grpo_config_demo.yaml",
                 "openrlhf/train_ppo_ray_hybrid_engine_prompt_generate_len.sh"):
        scenario = import_files([DATA / path]).scenario
        assert scenario["completion_len"] == 1024 == scenario["max_completion_len"], path
    # an offline objective's completions are stored, not generated: no longest to decode until
    assert "max_completion_len" not in import_files([DATA / "trl/dpo_qwen2-0.5b_lora.sh"]).scenario


def test_an_export_writes_the_longest_as_the_cap() -> None:
    # the configs cap each completion; a mean below it is the planner's, not a config setting
    s = scenario_from_dict({**GRPO, "max_completion_len": 1024})
    assert "data.max_response_length=1024" in export_config(s, "verl")
    assert "max_completion_length: 1024" in export_config(s.with_unchecked(framework="trl"), "trl")


def test_the_engine_starts_for_the_longest_request_and_runs_sequences_by_what_they_hold() -> None:
    """verl passes max_model_len = prompt_length + response_length, the caps, so vLLM's start-up check and its logged
    maximum concurrency are for one request of the longest completion (vllm/v1/core/kv_cache_utils.py
    get_max_concurrency_for_kv_cache_config); its scheduler admits a running sequence by the blocks it holds, so the
    batch generation runs is counted at prompt + the mean completion (running_sequences)."""
    from engine import scenario_from_dict
    from engine.posttraining.estimate import engine_max_model_len, step_parts

    base = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "training_objective": "grpo", "framework": "verl",
            "rollout_engine": "vllm", "prompt_len": 512, "completion_len": 300, "rollout_max_num_seqs": 1024,
            "rollout_gpu_memory_utilization": 0.5}
    capped = scenario_from_dict({**base, "max_completion_len": 1024})
    assert engine_max_model_len(capped) == 512 + 1024
    assert engine_max_model_len(scenario_from_dict(base)) == 512 + 300  # no cap stated: the one length
    assert engine_max_model_len(scenario_from_dict({**base, "rollout_max_model_len": 4096})) == 4096
    e, e_mean = step_parts(capped).engine, step_parts(scenario_from_dict(base)).engine
    # the pool holds 755 requests of 1,536 tokens (logged) but runs every one of 1,024 sequences of 812 (max_num_seqs)
    assert e.max_concurrent_sequences < e.running_sequences == e_mean.running_sequences == \
        e_mean.max_concurrent_sequences == 1024
