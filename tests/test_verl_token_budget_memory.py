"""verl's token budget caps the memory of one micro-batch (user audit 15): with use_dynamic_bsz a rank's mini-batch of
micro_batch sequences runs as ceil(tokens / budget) micro-batches, each forward and backward before the next
(volcengine/verl@9e4074b7 verl/utils/seqlen_balancing.py rearrange_micro_batches, dp_actor.py update_policy), and the
log-prob passes take the actor's budget (ppo_trainer.yaml ref.log_prob_max_token_len_per_gpu interpolates
actor.ppo_max_token_len_per_gpu). The logits, loss tensors and scoring forwards alive at once are one micro-batch's:
the estimate left them at the whole mini-batch's, so Qwen2.5-7B's training step read 59.20 GiB at micro_batch 16 and
'does not fit' (125.36 GiB) at 32, the same 20,192 tokens a forward."""

from __future__ import annotations

import math

from engine import scenario_from_dict
from engine.posttraining.estimate import per_forward, step_parts
from engine.workloads import estimate, step_time

BUDGET = 24_000
# The audit's RL engineer: verl GRPO, Qwen2.5-7B on 8 x H100, FSDP, colocated vLLM at TP 2, padding-free with a budget
RUN = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "bf16",
       "checkpointing": "full", "framework": "verl", "zero_stage": 3, "fsdp": True, "micro_batch": 16, "grad_accum": 4,
       "training_objective": "grpo", "prompt_len": 1024, "completion_len": 1500, "num_generations": 8,
       "rollout_engine": "vllm", "rollout_tp": 2, "rollout_gpu_memory_utilization": 0.6, "packing": "padding-free",
       "max_tokens_per_micro_batch": BUDGET}
TOKENS = 1024 + 1500  # a sequence's tokens (prompt + completion)


def _phases(data: dict) -> dict[str, float]:
    return {p.key: p.peak_bytes for p in estimate(scenario_from_dict(data)).rl.phases}


def test_a_budgeted_mini_batch_holds_one_micro_batchs_tensors_as_the_same_micro_batch_unbudgeted():
    """16 sequences of 2,524 tokens over a 24,000-token budget: ceil(40,384 / 24,000) = 2 micro-batches of 8; the
    scoring and training phases hold what 8 sequences a forward hold without a budget."""
    parts = math.ceil(16 * TOKENS / BUDGET)
    s = scenario_from_dict(RUN)
    assert per_forward(s, step_parts(s).rs).train_sequences == 16 // parts == 8
    budgeted = _phases(RUN)
    same_forward = _phases({**RUN, "micro_batch": 8, "grad_accum": 4 * parts, "max_tokens_per_micro_batch": 0})
    for phase in ("scoring", "training"):
        assert abs(budgeted[phase] - same_forward[phase]) < 1e6, phase


def test_a_larger_mini_batch_at_the_same_micro_batch_tokens_fits_and_keeps_its_time_model():
    """micro_batch 32 splits into 4 micro-batches of the same 8 sequences: the same peak (it read 'does not fit'),
    while the time still runs every micro-batch (twice the update's work of micro_batch 16)."""
    small, large = estimate(scenario_from_dict(RUN)), estimate(scenario_from_dict({**RUN, "micro_batch": 32}))
    assert large.verdict == small.verdict == "fits"
    assert abs(large.total_bytes - small.total_bytes) < 1e6
    update = {mb: step_time(scenario_from_dict({**RUN, "micro_batch": mb})).phase_seconds["update"]
              for mb in (16, 32)}
    assert update[32] > 1.9 * update[16]


def test_without_packing_or_a_budget_the_settings_are_the_mini_batchs():
    for change in ({"packing": "none"}, {"max_tokens_per_micro_batch": 0}, {"framework": "trl"}):
        s = scenario_from_dict({**RUN, **change})
        rs = step_parts(s).rs
        assert per_forward(s, rs) is rs


def test_the_budget_must_hold_the_prompt_and_the_longest_completion_not_the_unused_seq_len():
    """verl asserts max_token_len >= the attention mask's width, the prompt cap plus the longest response
    (volcengine/verl@9e4074b7 verl/utils/seqlen_balancing.py lines 221-222): 1,024 + 4,096 = 5,120 here. The check
    read seq_len, which post-training does not use (its default 2,048 refused a 1,500 budget for a sequence the run
    does not have, and passed one shorter than the run's 5,120)."""
    import pytest

    from engine import ScenarioError

    run = {**RUN, "max_completion_len": 4096}
    assert scenario_from_dict({**run, "max_tokens_per_micro_batch": 5120}).max_tokens_per_micro_batch == 5120
    with pytest.raises(ScenarioError) as refused:
        scenario_from_dict({**run, "max_tokens_per_micro_batch": 5119})
    assert refused.value.key == "max_tokens_per_micro_batch" and "5120 tokens" in str(refused.value)
    short = {**RUN, "prompt_len": 256, "completion_len": 512, "max_tokens_per_micro_batch": 1500}
    assert scenario_from_dict(short).seq_len == 2048  # the unused default no longer refuses it


def test_the_limits_say_the_micro_batch_reached_the_searchs_top_not_a_limit(qtbot, tmp_path):
    """Under the budget no micro-batch holds more (per_forward), so the largest that fits is the search's top
    (limits.MAX_MICRO_BATCH): `fit` and the window's limits line read "4096" / "micro-batch ≤ 4096" as if it were a
    limit (user audit 15); they now say it is the most searched."""
    from engine.planning.fit_report import fit_report, render_fit
    from engine.planning.limits import MAX_MICRO_BATCH, limits
    from tests.window_helpers import window_from

    s = scenario_from_dict(RUN)
    assert limits(s).max_micro_batch == MAX_MICRO_BATCH
    text = render_fit(fit_report(s))
    assert f"largest micro-batch that fits: {MAX_MICRO_BATCH:,} or more (the most searched)" in text
    win = window_from(qtbot, tmp_path, RUN)
    win.limits.refresh()
    assert f"micro-batch {MAX_MICRO_BATCH:,} or more (the most searched)" in win.limits.text()


def test_the_step_and_one_forward_cut_the_mini_batch_by_one_rule():
    """h-review22: per_forward (the tensors one forward holds) and the training scenario's micro-batches
    (estimate.py _token_budget) read one rule (_budget_parts): the same parts wherever a budget cuts, none where the
    sequences are padded, no budget is set or the framework does not cut its passes itself (TRL's GRPO)."""
    from engine.posttraining.estimate import training_scenario

    def cut(data: dict) -> tuple[int, int]:
        """(micro-batches the step runs a mini-batch as, sequences one forward holds)"""
        s = scenario_from_dict(data)
        rs = step_parts(s).rs
        return training_scenario(s, rs).grad_accum // s.grad_accum, per_forward(s, rs).train_sequences

    # 16 sequences of 2,524 tokens: 7, 2 and 2 micro-batches, the largest holding 3, 8 and 8 whole sequences
    for budget in (6_000, BUDGET, 40_000):
        k = math.ceil(16 * TOKENS / budget)
        assert cut({**RUN, "max_tokens_per_micro_batch": budget}) == (k, math.ceil(16 / k))
    assert cut({**RUN, "max_tokens_per_micro_batch": 0}) == (1, 16)
    assert cut({**RUN, "packing": "none"}) == (1, 16)
    trl = scenario_from_dict({**RUN, "framework": "trl", "rollout_tp": 1})  # cuts nothing by tokens
    rs = step_parts(trl).rs
    assert training_scenario(trl, rs).grad_accum == trl.grad_accum and per_forward(trl, rs) is rs
