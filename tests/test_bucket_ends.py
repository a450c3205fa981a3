"""Megatron-Core's end buckets (engine/timing/bucket_ends.py): the gradient bucket ready last and the parameter
bucket gathered first hold the embedding and run with no compute beside them (NVIDIA/Megatron-LM core_r0.8.0
param_and_grad_buffer.py: buckets filled over params[::-1]; distrib_optimizer.py: the first bucket's all-gather
dispatched in zero_grad, the next one only when the previous is waited on)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.bucket_ends import end_bucket_share, ends_contended
from engine.timing.contention import contended
from engine.timing.data import framework_profile

WEAK_1_7B = "megatron-lm-weak-scaling-gpt-1.7b-48"  # NVIDIA/Megatron-LM README weak scaling, TP 1 x DP 48


def _scenario(row_id: str):
    return scenario_from_dict(next(r for r in load_rows() if r["id"] == row_id)["scenario"])


def test_no_end_bucket_is_contention_as_before():
    # end_share 0 (a framework without dp_bucket_ends) must give contention.contended's seconds unchanged
    assert ends_contended(0.2, 0.1, 0.95, 0.12, 0.0) == pytest.approx(contended(0.2, 0.1, 0.95, 0.12))


def test_end_bucket_is_exposed_even_when_the_window_hides_the_rest():
    # 10 ms of reduce behind 100 ms of backward: contended hides all of it (share 0); with a tenth in the end bucket
    # that tenth, 1 ms, runs after the backward
    assert contended(0.010, 0.100, 0.95, 0.0) == 0.0
    assert ends_contended(0.010, 0.100, 0.95, 0.0, 0.1) == pytest.approx(0.001)


def test_end_bucket_holds_the_embedding_where_the_stage_trains_it():
    s = _scenario(WEAK_1_7B)
    spec = resolve_model(s)
    prof = framework_profile(s.framework)
    # the README's GPT 1.7B: vocabulary 131,072 x hidden 2,048 + 4,096 learned positions x 2,048 (hf_config of the row)
    embedding = 131072 * 2048 + 4096 * 2048
    assert spec.embedding_params == embedding
    assert end_bucket_share(s, prof, spec, 1.5e9, 31) == pytest.approx(embedding / 1.5e9)
    # an average bucket when the embedding is smaller than one (1 / buckets), nothing without the profile flag,
    # the average bucket under LoRA (the embedding is frozen and in no bucket)
    assert end_bucket_share(s, prof, spec, 1.5e9, 2) == pytest.approx(0.5)
    assert end_bucket_share(s, {}, spec, 1.5e9, 31) == 0.0
    assert end_bucket_share(dataclasses.replace(s, method="lora"), prof, spec, 1.5e9, 31) == pytest.approx(1 / 31)


def test_weak_scaling_row_exposes_its_embedding_bucket():
    # TP 1, DP 48, 4 micro-batches: the gather and reduce of the rest hide behind one micro-batch's forward and
    # backward, so the data-parallel term is at least the embedding bucket's reduce-scatter and all-gather, which
    # the model without end buckets hid (4.97 ms before this module: docs/speed-accuracy.md breakdown)
    t = step_time(_scenario(WEAK_1_7B))
    assert t.breakdown_seconds["communication_dp"] > 0.00497
