"""The rollout's generate() calls an optimizer step makes (engine/posttraining/generate_calls.py): one per
gradient-accumulation micro-batch where the framework's trainer generates in _prepare_inputs (TRL <= 0.15.2, the
version Unsloth's 2025.2-2025.5 releases pin), one per step otherwise."""
from __future__ import annotations

import dataclasses

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks import defaults_for
from engine.posttraining.estimate import step_parts
from engine.posttraining.generate_calls import decode_passes, rollout_waves
from engine.posttraining.timing import rl_step_time
from engine.scenario import Scenario


def _row_scenario(row_id: str) -> Scenario:
    row = next(r for r in ptt.read_rows() if r["id"] == row_id)
    return scenario_from_dict(row["scenario"])


def test_calls_split_the_sequences_and_each_decodes_in_its_own_waves() -> None:
    # 16 sequences in 4 calls of 4, an engine admitting 160 (the notebook's max_num_seqs): 4 sequences at a time,
    # one wave a call; 1 call of 16 is one wave of 16 (the count before); a call of 8 beside room for 3: 3 waves
    assert rollout_waves(4, 16, 160) == (4, 4, 4)
    assert rollout_waves(1, 16, 160) == (16, 1, 1)
    assert rollout_waves(1, 8, 3) == (3, 3, 1)
    assert rollout_waves(2, 8, 3) == (3, 4, 2)  # 4 a call: 2 waves each
    assert rollout_waves(8, 2, 160) == (1, 2, 2)  # never more calls than sequences


def test_unsloth_generates_per_micro_batch_and_trl_per_step() -> None:
    # unsloth b22e654e pyproject.toml line 51 (trl<=0.15.2); trl v0.15.2 grpo_trainer.py 520-544 (one llm.generate per
    # _prepare_inputs, per micro-batch); TRL's own row is read at f2cd577 (steps_per_generation: one per step)
    assert defaults_for("unsloth").posttraining.rollout_generates_per_micro_batch
    assert not defaults_for("trl").posttraining.rollout_generates_per_micro_batch
    s = _row_scenario("unsloth-nb-grpo-llama-3.2-3b-t4")
    assert s.grad_accum == 4 and step_parts(s).rs.generate_calls == 4
    assert step_parts(dataclasses.replace(s, framework="trl")).rs.generate_calls == 1


def test_the_llama_row_decodes_its_four_micro_batches_one_after_the_other() -> None:
    # Advanced_Llama3_2_(3B)_GRPO_LoRA: 4 completions a micro-batch, 4 micro-batches a step; each call decodes the
    # mean completion (202 tokens, the row's completion_len), so 4 x 202 iterations of 4 sequences
    s = _row_scenario("unsloth-nb-grpo-llama-3.2-3b-t4")
    detail = dict(rl_step_time(s).generation)
    assert detail["concurrent_sequences"] == 4 and detail["waves"] == 4
    assert detail["decode_iterations"] == 4 * s.completion_len
    one_call = dict(rl_step_time(dataclasses.replace(s, grad_accum=1, micro_batch=16)).generation)
    assert one_call["waves"] == 1 and one_call["decode_iterations"] == s.completion_len
    # prefill is of the same 16 prompts either way
    assert abs(detail["prefill_seconds"] - one_call["prefill_seconds"]) < 1e-9 * one_call["prefill_seconds"] + 1e-12


def test_a_call_beyond_what_the_engine_holds_decodes_as_a_continuous_batch() -> None:
    # vLLM's scheduler admits a waiting sequence as soon as a running one ends and frees its blocks (0.11.2
    # v1/core/sched/scheduler.py lines 218-333 and 395-402; 0.7.3 core/scheduler.py _schedule_default lines
    # 1204-1240): the engine stays at its concurrency until the call's sequences x mean completion are decoded, so a
    # call of 8 beside room for 3 runs 8 / 3 passes of the mean completion where whole waves gave 3; a call the engine
    # holds whole is one pass (the count before)
    assert decode_passes(1, 8, 3) == 8 / 3 and rollout_waves(1, 8, 3)[1] == 3
    assert decode_passes(1, 16, 160) == 1.0 and decode_passes(4, 16, 160) == 4.0
    assert decode_passes(2, 8, 3) == 2 * 4 / 3  # 4 a call, 3 at once
    # verl's MI300X GRPO row (verl-training-log-mi300x): 1,280 sequences on an engine running 1,024 at once decode
    # 1.25 x the mean completion, then the longest completion's tail (longest_completion.py)
    s = _row_scenario("verl-mi300x-grpo-deepseek-llm-7b-chat-8gpu")
    detail = dict(rl_step_time(s).generation)
    assert (detail["sequences"], detail["concurrent_sequences"]) == (1280, 1024)
    tail = detail["decode_iterations"] - round(1.25 * s.completion_len)
    assert detail["waves"] == 1.25 and 0 < tail == s.max_completion_len - s.completion_len
    # the window's hover labels the figure as the passes it counts, not whole waves ("waves = 1.25" read as a
    # contradiction); the key stays, a contract of estimate --json (gui/time_bar.py GENERATION_FIGURE_LABELS)
    from gui.time_bar import GENERATION_FIGURE_LABELS
    assert GENERATION_FIGURE_LABELS["waves"] == "decode passes (sequences / sequences at once)"
