"""The copies around attention that a sequence-first activation layout costs above micro-batch 1
(engine/timing/attention_layout_copies.py): the counts are the rearranges of Aleph-Alpha/scaling at 78489292be
(presets/efficiency.json frameworks aleph-alpha-scaling sequence_first_attention_copies and its _source)."""
import dataclasses

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.scenario.memo import memo_tables
from engine.timing import model
from engine.timing.attention_layout_copies import attention_layout_copy_bytes
from engine.timing.data import framework_profile
from engine.timing.model import step_time

SCENARIO = {"model": "llama-2-13b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 8, "framework": "aleph-alpha-scaling",
            "precision": "mixed-bf16", "micro_batch": 2, "grad_accum": 32, "seq_len": 2048, "tp": 2, "pp": 2,
            "zero_stage": 1, "attention": "flash", "attention_kernel": "flash2"}


def test_counts_are_the_rearranges_of_the_source():
    copies = framework_profile("aleph-alpha-scaling")["sequence_first_attention_copies"]
    # flash: the output's two rearranges forward and backward; backward also the fused projection's q, k, v gradient
    assert copies["flash"] == {"forward_q": 2, "forward_kv": 0, "backward_q": 2 + 1, "backward_kv": 2}
    # eager: q, k and v into (b n) forward; the output's gradient and the projection's q, k, v gradient backward
    assert copies["eager"] == {"forward_q": 1, "forward_kv": 2, "backward_q": 1 + 1, "backward_kv": 2}


def test_bytes_are_copies_of_the_rank_widths_above_micro_batch_one():
    s = scenario_from_dict(SCENARIO)
    spec, prof = resolve_model(s), framework_profile("aleph-alpha-scaling")
    q, kv = spec.q_dim / s.tp, spec.kv_dim / s.tp
    # each copy reads and writes every bf16 element once (2 + 2 bytes)
    assert attention_layout_copy_bytes(s, spec, prof, 2) == pytest.approx((4 * 2 * q, 4 * (3 * q + 2 * kv)))
    eager = dataclasses.replace(s, attention="eager")
    assert attention_layout_copy_bytes(eager, spec, prof, 2) == pytest.approx((4 * (q + 2 * kv), 4 * (2 * q + 2 * kv)))
    # micro-batch 1 moves a dimension of size 1 (views); a profile that states none copies nothing
    assert attention_layout_copy_bytes(dataclasses.replace(s, micro_batch=1), spec, prof, 2) == (0.0, 0.0)
    assert attention_layout_copy_bytes(s, spec, framework_profile("megatron"), 2) == (0.0, 0.0)


def test_the_copies_lengthen_the_step_as_element_wise_work(monkeypatch):
    s = scenario_from_dict(SCENARIO)
    with_copies = step_time(s)
    for table in memo_tables():
        table.clear()
    monkeypatch.setattr(model, "attention_layout_copy_bytes", lambda *_args: (0.0, 0.0))
    without = step_time(s)
    for table in memo_tables():  # the tables hold the step without the copies: not for the next test
        table.clear()
    grown = {k: a - b for k, a, b in zip(model.BREAKDOWN_KEYS, with_copies.seconds, without.seconds, strict=True)
             if abs(a - b) > 1e-12}
    # the stage's element-wise work, and with it the pipeline's fill and drain (pp 2), and nothing else
    assert set(grown) == {"memory_bound", "bubble"} and min(grown.values()) > 0
