"""FSDP1's weight gathers in verl's scoring passes (engine/posttraining/scoring_gathers.py), the separate reference's
CPU-offloaded units in the scoring phase (engine/accuracy/posttraining_time.py estimated_phases) and the batch's round
trip through ray for each scoring call (engine/posttraining/dataproto_dispatch.py). Expected values come
from the model's config (Qwen2.5-0.5B's config.json: hidden 896, 14 heads of 64, 2 KV heads, intermediate 4864, q/k/v
biases), from FSDP1's order (torch/distributed/fsdp/_runtime_utils.py: a unit gathers in its pre-forward, the root
once until verl reshards it at the end of compute_log_prob, volcengine/verl 9466d371e fsdp_workers.py lines 710-713)
and from verl's timers (ray_trainer.py lines 1013, 1050: compute_ref_log_prob under `ref`)."""

import json
from pathlib import Path

import pytest

from engine.accuracy import posttraining_time as ptt
from engine.posttraining.dataproto_dispatch import (
    DRIVER_RECEIVE_VIEW_CALLS_PER_MB,
    DRIVER_SEND_VIEW_CALLS_PER_MB,
    WORKER_RECEIVE_VIEW_CALLS_PER_MB,
    batch_bytes_per_sequence,
    scoring_dispatch_seconds,
)
from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.scoring_gathers import after_sync_share, scoring_gather_seconds
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.host import host_call_seconds
from engine.timing.model import rates_for

ROWS = {r["id"]: r for r in json.loads(
    (Path(__file__).parent / "data" / "published" / "posttraining_time.json").read_text())["rows"]}
VERL_05B = ROWS["verl-data-time-grpo-lora-qwen2.5-0.5b-2gpu"]["scenario"]
MI300X_GRPO = ROWS["verl-mi300x-grpo-deepseek-llm-7b-chat-8gpu"]


def _train(keys: dict):
    s = scenario_from_dict(keys)
    return training_scenario(s.with_unchecked(offload="none"), step_parts(s).rs)


def test_the_work_after_the_attentions_syncs_is_the_layer_less_its_qkv_projections():
    # Qwen2.5-0.5B: q 896 x 896 + 896, k and v 896 x 128 + 128 each; o 896 x 896; gate, up, down 896 x 4864 each
    qkv = 896 * 896 + 896 + 2 * (896 * 128 + 128)
    total = qkv + 896 * 896 + 3 * 896 * 4864
    assert after_sync_share(_train(VERL_05B)) == pytest.approx(1 - qkv / total)


def test_no_gathers_without_fsdp1_full_shard_over_ranks():
    # FSDP2 or no sharding: not FSDP1's path (FSDP2's units are another module's; no shards, nothing gathered)
    assert scoring_gather_seconds(_train({**VERL_05B, "fsdp_version": 2})) == 0.0
    assert scoring_gather_seconds(_train({**VERL_05B, "fsdp": False, "offload": "none"})) == 0.0
    assert scoring_gather_seconds(_train(VERL_05B)) > 0.0


def test_every_micro_batch_gathers_its_layers_and_the_root_once_a_pass():
    # a pass of a micro-batches costs a x (per micro-batch) + the root's gather: doubling the micro-batches (same
    # micro-batch) adds the per-micro-batch part once more, the root not again
    one = _train(VERL_05B)
    two = one.with_unchecked(grad_accum=2 * one.grad_accum)
    per_micro_batch = (scoring_gather_seconds(two) - scoring_gather_seconds(one)) / one.grad_accum
    root = scoring_gather_seconds(one) - one.grad_accum * per_micro_batch
    assert per_micro_batch > 0.0 and root > 0.0


def test_a_longer_forward_hides_more_of_the_layers_gathers():
    # each layer's gather runs beside the previous layer's queued work: a forward the host issues slower (a longer
    # micro-batch forward) hides more, down to the first layer's exposed gather and the hidden gathers' SM share
    train = _train(VERL_05B)
    short = scoring_gather_seconds(train)
    longer = scoring_gather_seconds(train, 1e3)
    assert longer <= short
    assert longer == pytest.approx(scoring_gather_seconds(train, 1e4))  # every gather but the first hidden


def test_the_separate_references_offloaded_units_count_in_the_scoring_phase():
    # MI300X GRPO: the reference is verl's own FSDP1 model with CPUOffload(offload_params=True) (fsdp_workers.py
    # line 313), its units copied in for each forward (timing.py streamed_frozen_bytes) inside compute_ref_log_prob,
    # which the `ref` timer holds; the actor's own parameters stay on the GPU (param_offload False), so nothing else moves
    phases, parts = ptt.estimated_phases(MI300X_GRPO["scenario"])
    assert parts["frozen_streaming"] > 0.0
    assert phases["scoring"] == pytest.approx(parts["scoring"] + parts["frozen_streaming"])


def test_each_scoring_call_sends_the_batch_and_gets_per_token_results_back():
    # verl's driver sends the whole batch to each scoring call (ray_trainer.py lines 1013-1054): six int64 tensors a
    # sequence (prompts, responses, response_mask; input_ids, attention_mask, position_ids over both), priced at the
    # view calls per MB benchmarks/verl_dataproto_dispatch.py measured; old_log_prob returns log-probs and entropies,
    # ref its log-probs (fsdp_workers.py lines 701-705, 727-729)
    s = scenario_from_dict(MI300X_GRPO["scenario"])  # 80 x 8 sequences a GPU on 8 GPUs, prompt 82, completions to 1024
    rs = step_parts(s).rs
    assert batch_bytes_per_sequence(s) == 8 * (82 + 2 * 1024 + 3 * (82 + 1024))
    sequences = 80 * 8 * 8
    sent_mb = sequences * batch_bytes_per_sequence(s) / 1e6
    view = host_call_seconds(s)[1]
    def call(results: int) -> float:
        return view * (sent_mb * DRIVER_SEND_VIEW_CALLS_PER_MB + sent_mb / 8 * WORKER_RECEIVE_VIEW_CALLS_PER_MB
                       + sequences * results * 4 * 1024 / 1e6 * DRIVER_RECEIVE_VIEW_CALLS_PER_MB)
    assert scoring_dispatch_seconds(s, rs) == pytest.approx(call(2) + call(1))
    # a framework whose trainer holds its batch in-process sends nothing
    trl = scenario_from_dict({**MI300X_GRPO["scenario"], "framework": "trl"})
    assert scoring_dispatch_seconds(trl, step_parts(trl).rs) == 0.0


def test_a_ulysses_group_shares_its_sequences_in_the_dispatched_batch():
    # verl's device mesh (dp, sp) splits the step's batch over dp alone (estimate.step_sequences): with Ulysses 2 on
    # the MI300X row's 8 GPUs, 4 data-parallel groups of 80 x 8 sequences, 2,560 in the batch the driver sends, where
    # counting the micro-batches once per GPU gave 5,120; each call's bytes (and so its seconds) are the sequences'
    s = scenario_from_dict(MI300X_GRPO["scenario"])
    sp2 = scenario_from_dict({**MI300X_GRPO["scenario"], "ulysses_sequence_parallel_size": 2})
    assert sp2.dp == s.dp == 8
    assert scoring_dispatch_seconds(sp2, step_parts(sp2).rs) == pytest.approx(
        scoring_dispatch_seconds(s, step_parts(s).rs) * 2560 / 5120)


def _root_part(train) -> float:
    """The part of a scoring pass's gathers that does not grow with its micro-batches."""
    two = train.with_unchecked(grad_accum=2 * train.grad_accum)
    return 2 * scoring_gather_seconds(train) - scoring_gather_seconds(two)


def test_the_roots_shard_is_cast_once_a_pass_like_its_gather():
    # FSDP1 casts a unit's fp32 shard to its bf16 copy in the unshard (_use_low_precision_shard), which the root runs
    # once a pass (_post_forward keeps it gathered until verl reshards it at the end of compute_log_prob): amp-bf16's
    # fp32 shards add to the once-a-pass part exactly the root's cast, 4 bytes read + 2 written per root parameter
    # over the 2 ranks at the memory rate; bf16 shards (nothing to cast) gather the same bf16 bytes
    amp = _train({**VERL_05B, "precision": "amp-bf16"})
    pure = _train({**VERL_05B, "precision": "bf16"})
    spec = resolve_model(amp)
    rates = rates_for(amp, hardware_for(amp), framework_profile(amp.framework))
    root_cast = (4 + 2) * (spec.embedding_params + spec.head_params) / 2 / rates.memory
    assert amp.dp == 2 and root_cast > 0.0
    assert _root_part(amp) - _root_part(pure) == pytest.approx(root_cast)


def test_the_formulas_name_the_terms_the_step_adds():
    # the scoring part adds scoring_gather_seconds and scoring_dispatch_seconds (timing.py rl_step_time), the
    # generation part V1's measured sample_tokens (engine_step_host.py) and one tail per generate() call
    # (generate_calls.py): the formulas the GUI shows must say so
    from engine.posttraining.timing import RL_FORMULAS
    assert "FSDP1 over ranks: each policy pass's weight gathers" in RL_FORMULAS["scoring"]
    assert "the batch sent to the workers and the per-token results back" in RL_FORMULAS["scoring"]
    assert "vLLM V1's scheduling, input preparation, sampling and output update" in RL_FORMULAS["generation"]
    assert "per generate() call" in RL_FORMULAS["generation"]
