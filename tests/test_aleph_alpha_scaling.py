"""Aleph Alpha's training codebase as its own framework profile (aleph-alpha-scaling), counted from the earliest public
commit of Aleph-Alpha/scaling (78489292be1277b3f8a4132d31228e2b80d27bb1, 2024-08-27; the 2023 code of arXiv:2311.05610's
layout sweep is not public): presets/efficiency.json frameworks, elementwise_bytes_per_token and
loss_bytes_per_token_per_vocab 'aleph-alpha-scaling'."""
import json
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.frameworks.defaults import FRAMEWORKS, TABLE
from engine.models.presets import model_spec_for
from engine.timing.costs import head_cost
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates

ROWS = Path(__file__).resolve().parent / "data" / "published" / "throughput" / "hagemann-2023-layouts.json"


def test_the_sweep_runs_on_its_own_profile():
    rows = json.loads(ROWS.read_text(encoding="utf-8"))["rows"]
    # 240 runs, and 161 more since the fused RMSNorm and softmax kernels are scenario keys (tests/test_hagemann_rows.py)
    assert len(rows) == 401 and all(r["scenario"]["framework"] == "aleph-alpha-scaling" for r in rows)
    assert "aleph-alpha-scaling" in FRAMEWORKS and TABLE["aleph-alpha-scaling"].profile == "aleph-alpha-scaling"
    assert any("Aleph-Alpha/scaling at 78489292be" in where for _, where in TABLE["aleph-alpha-scaling"].sources)


def test_profile_columns_are_the_codes():
    prof = framework_profile("aleph-alpha-scaling")
    # optimizer.py: the gradients are all-reduced inside Optimizer.step(), after the whole schedule, at every PP
    assert prof["dp_overlap"] == 0.0 and prof["pipeline_reduce_after_schedule"] is True
    # allreduce.py: whole gradients, 500,000,000-element buckets, cast to fp32 before the all-reduce
    assert prof["zero1_grad_all_reduce"] is True and prof["dp_bucket_params"] == 500_000_000
    assert prof["grad_reduce_bytes"] == 4
    # communicator.py: blocking torch.distributed.send / recv of the whole activation (no split over TP)
    assert prof["pipeline_blocking_p2p"] is True and not prof.get("pipeline_p2p_split_over_tp", False)
    # torch 2.1.1's AdamW without fused=True (requirements/base.txt, optimizer.py); bf16 model, no autocast
    assert prof["fused_optimizer"] is False and prof["autocast"] is False
    # attention.py: get_max_seq_length's .item() in every flash-attention call
    assert prof["syncs_per_layer_forward"] == 1


def test_layer_bytes_are_the_op_by_op_count():
    per = efficiency()["elementwise_bytes_per_token"]["aleph-alpha-scaling"]
    # rms_norm.py: x.float(), pow, mean, * rsqrt, type_as, * the bf16 weight (read + written bytes each)
    rms_norm = (2 + 4) + (4 + 4) + 4 + (4 + 4) + (4 + 2) + (2 + 2)
    residual_adds = 2 * (2 + 2 + 2)
    assert per["hidden"] == 2 * rms_norm + residual_adds == 84
    assert per["qk"] == (2 + 2) + (1 + 1) + (2 + 2) + (2 + 2) + (2 + 2 + 2) == 20  # q*cos, neg, cat, *sin, sum
    assert per["qkv"] == 0 and per["mlp"] == 10
    # backward over forward for Llama 13B (5,120 hidden, 13,824 MLP), from the counts the entry's _source gives
    h, f = 5120, 13824
    backward = (2 * 84 + 12) * h + 30 * 2 * h + 4 * 3 * h + 18 * f
    forward = 84 * h + 20 * 2 * h + 10 * f
    assert per["backward_factor"] == pytest.approx(backward / forward, abs=0.005)


def test_loss_runs_over_the_whole_vocabulary_on_every_tp_rank():
    table = efficiency()["loss_bytes_per_token_per_vocab"]
    # ATen's upcast, multi-pass log_softmax and nll_loss (eager-aten) and the accuracy metric's argmax over fp32 logits
    assert table["aleph-alpha-scaling"] == table["eager-aten"] + 4
    assert framework_profile("aleph-alpha-scaling")["loss_vocab_gathered"] is True
    spec = model_spec_for("llama-3-8b")
    rates = Rates(1e15, 1e15, 5e14, 2e12, 2)  # any rates: the ratio is tested
    _, split = head_cost(spec, 2048, 8, rates, "aleph-alpha-scaling")
    _, whole = head_cost(spec, 2048, 8, rates, "aleph-alpha-scaling", 1)
    assert split == pytest.approx(2048 * spec.vocab / 8 * 52 / 2e12)
    assert whole == pytest.approx(8 * split)  # lm_head.py's ColumnParallelLinear gathers its logits over TP


def test_sequence_parallel_gathers_each_norms_output_once():
    """Aleph-Alpha/scaling at 78489292be: under sequence parallelism the RMSNorm all-gathers its own output over TP
    (src/scaling/core/nn/norm/rms_norm.py lines 57-61, gather_from_sequence_parallel_region) and the column-parallel
    linears read that tensor as it is (core/nn/linear/column_parallel_linear.py forward: no copy when
    sequence_parallel), so each block keeps one gathered copy for all its linears, not one per linear
    (engine/frameworks/defaults.py sp_gathers_per_block)."""
    from engine.memory.activations import layer_terms
    from engine.memory.detailed import act_context
    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model

    row = next(r for r in json.loads(ROWS.read_text(encoding="utf-8"))["rows"] if r["reported"]["trial"] == 132924)
    s = scenario_from_dict(row["scenario"])
    assert s.sequence_parallel and s.tp == 4
    spec = resolve_model(s)
    terms = dict(layer_terms(act_context(s, spec, dtypes_for(s)), spec, False, True, True, frozenset()))
    gathered = [name for name in terms if "all-gathered" in name]
    assert len(gathered) == 2 and all("gathered once for the block" in name for name in gathered)
    # each one is the micro-batch's whole sequence x hidden in bf16
    assert all(terms[name] == 2 * s.micro_batch * s.seq_len * spec.hidden for name in gathered)


def _step_without_head_recompute(s, monkeypatch):
    """The step of `s` with and without the profile's checkpoint_recomputes_head (the memo tables cleared around it,
    so that neither step is read back for the other or for a later test)."""
    from engine.scenario.memo import memo_tables
    from engine.timing.model import step_time

    for table in memo_tables():
        table.clear()
    with_head = step_time(s)
    for table in memo_tables():
        table.clear()
    with monkeypatch.context() as patched:
        patched.setitem(framework_profile("aleph-alpha-scaling"), "checkpoint_recomputes_head", False)
        without = step_time(s)
    for table in memo_tables():
        table.clear()
    return with_head, without


def test_full_checkpointing_runs_the_lm_head_forward_again(monkeypatch):
    """Aleph-Alpha/scaling at 78489292be: under every_layer checkpointing ParallelModule.forward (parallel_module.py
    lines 260-270) wraps every layer of the stage in _checkpoint_without_reentrant, and the layer specs
    (transformer/model/model.py get_transformer_layer_specs) end with the final norm and the LM head, so the stage
    holding the head runs the head's forward matmul again in its backward (presets/efficiency.json
    checkpoint_recomputes_head)."""
    from engine.scenario import resolve_model
    from engine.timing.hardware import hardware_for
    from engine.timing.model import BREAKDOWN_KEYS, rates_for

    assert framework_profile("aleph-alpha-scaling")["checkpoint_recomputes_head"] is True
    rows = json.loads(ROWS.read_text(encoding="utf-8"))["rows"]
    # the 13B sheet's TP 1, PP 1 run with FlashAttention-2, every_layer, micro-batch 1: one stage holds the head
    row = next(r for r in rows if r["id"].startswith("hagemann2023-llama13b-64gpus-s2k-fa2-full-mb1-tp1-pp1"))
    s = scenario_from_dict(row["scenario"])
    with_head, without = _step_without_head_recompute(s, monkeypatch)
    grown = {k: a - b for k, a, b in zip(BREAKDOWN_KEYS, with_head.seconds, without.seconds, strict=True)
             if abs(a - b) > 1e-12}
    spec = resolve_model(s)
    rates = rates_for(s, hardware_for(s), framework_profile("aleph-alpha-scaling"))
    matmul, _ = head_cost(spec, s.micro_batch * s.seq_len, s.tp, rates, "aleph-alpha-scaling")
    # the head's forward matmul once more per micro-batch, in the recompute term, nothing else moves
    assert set(grown) == {"recompute"}
    assert grown["recompute"] == pytest.approx(s.grad_accum * matmul)
    # without checkpointing nothing is run again
    none = scenario_from_dict({**row["scenario"], "checkpointing": "none"})
    with_head, without = _step_without_head_recompute(none, monkeypatch)
    assert with_head.seconds == without.seconds
