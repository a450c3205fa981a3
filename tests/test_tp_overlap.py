"""Issue 23 item 1: what a layer's tensor-parallel collectives leave exposed, collective by collective
(engine/timing/tp_overlap.py). Expected values from the code the module cites:
- Megatron-Core's LinearWithGradAccumulationAndAsyncCommunication.backward (megatron/core/tensor_parallel/layers.py)
  and Transformer Engine's LayerNormLinear / Linear backward start a column-parallel linear's input all-gather
  before its dgrad GEMM and its input gradient's reduce-scatter before its wgrad GEMM, async_op=True; the forward's
  collectives and a row-parallel linear's output-gradient all-gather are waited for before the GEMM that reads them;
- Transformer Engine's userbuffers (initialize_ub's default config, base.py at d0067d0) run the all-gathers by ring
  exchange (the first of tp chunks local), the forward reduce-scatters pipelined in 4 splits and the backward's pairs
  in bulk, the pipeline and bulk kernels on 16 SMs taken from the GEMM (comm_gemm_overlap.cpp _math_sms)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import TABLE
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.costs import LayerCost
from engine.timing.hardware import hardware_for
from engine.timing.links import link, nvlink_domain
from engine.timing.tp_overlap import UB_COMM_SMS, TpLayer, flop_shares, tp_exposed_seconds, userbuffers_on

DENSE = {"model": "llama-3-8b", "nodes": 1, "gpus_per_node": 8, "tp": 8, "sequence_parallel": True,
         "framework": "megatron", "micro_batch": 1, "seq_len": 8192}
UNIT = 1e-3  # one all-reduce unit (an all-gather + a reduce-scatter), seconds


def _cost(gemm: float) -> LayerCost:
    """A dense layer whose forward, dgrad and wgrad GEMMs take `gemm` seconds each."""
    return LayerCost(gemm, 0, 0, 0, 0, 0, 0, 0, 0, 0, gemm, gemm)


def _layer(**over: object) -> TpLayer:
    # 10 collectives of a dense sequence-parallel layer with Transformer Engine's regather: 4 forward, 4 backward and
    # 2 regathers, in all-reduce units 2 + 2 + 1 (layer_settings.tp_collectives)
    base = TpLayer(5.0, UNIT, False, True, False, 2, True, 132, (0.25, 0.25, 0.25, 0.25))
    return dataclasses.replace(base, **over)


def test_without_userbuffers_the_backward_hides_the_column_parallel_pairs():
    s = scenario_from_dict({**DENSE, "tp_comm_overlap": False})
    # GEMMs far longer than any collective: the 2 regathers (1 unit) and the 2 input-gradient reduce-scatters
    # (1 unit) hide; the forward's 2 units and the 2 output-gradient all-gathers (1 unit) stay
    assert tp_exposed_seconds(s, _cost(1.0), _layer()) == pytest.approx(3 * UNIT)
    # no GEMM time at all: nothing hides
    assert tp_exposed_seconds(s, _cost(0.0), _layer()) == pytest.approx(5 * UNIT)


def test_userbuffers_hide_what_their_chunks_leave():
    s = scenario_from_dict(DENSE)
    assert userbuffers_on(s)
    gemm = 1.0  # 4 linears, each 1/4 of the dense GEMMs: 0.25 s, far above half a unit
    lost = 0.25 * UB_COMM_SMS / (132 - UB_COMM_SMS)  # each pipeline or bulk GEMM on 116 of 132 SMs
    # ring exchange hides every all-gather; each of the 2 pipelined reduce-scatters leaves its last split (1/4 of half
    # a unit) and its GEMM's lost SMs; the 4 bulk pairs leave their GEMMs' lost SMs
    expected = 2 * (UNIT / 2 / 4 + lost) + 4 * lost
    assert tp_exposed_seconds(s, _cost(gemm), _layer()) == pytest.approx(expected)
    # with no GEMM to hide behind, every chunk and split waits: all 5 units exposed, as without userbuffers
    assert tp_exposed_seconds(s, _cost(0.0), _layer()) == pytest.approx(5 * UNIT)


def test_frameworks_that_hide_nothing_expose_every_collective():
    s = scenario_from_dict({**DENSE, "framework": "megatron-2021"})  # SC21's code: no asynchronous backward
    assert tp_exposed_seconds(s, _cost(1.0), _layer()) == pytest.approx(5 * UNIT)
    hf = scenario_from_dict({**DENSE, "framework": "huggingface"})
    assert not userbuffers_on(hf) and not TABLE["huggingface"].tp_async_backward
    assert tp_exposed_seconds(hf, _cost(1.0), _layer()) == pytest.approx(5 * UNIT)


def test_flop_shares_follow_the_rank_s_weights():
    # Llama 3 8B: q 4,096 + k, v 1,024 each (GQA 8 of 32 heads), o 4,096; gate and up 14,336 each, down 14,336
    # (its config.json); every linear split by tp alike, so the shares are of the whole layer's weights
    qkv, proj, fc1, fc2 = flop_shares(resolve_model(scenario_from_dict(DENSE)), False, 8)
    total = 4096 * (6144 + 4096 + 2 * 14336 + 14336)
    assert (qkv, proj, fc1, fc2) == pytest.approx((4096 * 6144 / total, 4096 * 4096 / total,
                                                   4096 * 28672 / total, 14336 * 4096 / total))


def test_userbuffers_take_tp_time_off_a_megatron_step():
    s = scenario_from_dict(DENSE)
    on, off = (step_time(dataclasses.replace(s, tp_comm_overlap=v)).breakdown_seconds["communication_tp"]
               for v in (True, False))
    assert 0 < on < off


def test_rows_that_ran_without_userbuffers_say_so():
    rows = {r["id"]: r for r in load_rows()}
    # ms-swift's MegatronArguments default tp_comm_overlap to False (megatron_args.py line 607 at 3602360a)
    assert rows["ms-swift-megatron-qwen2.5-14b-8xa800-tp4"]["scenario"]["tp_comm_overlap"] is False
    # Megatron-LM's README benchmark configuration names --tp-comm-overlap: its rows keep the framework's default
    assert "tp_comm_overlap" not in rows["megatron-lm-weak-scaling-gpt-70b-768"]["scenario"]
    assert TABLE["megatron"].tp_comm_overlap


def test_tp_8_over_two_nvl72_trays_runs_userbuffers_on_nvlink():
    # Nemotron-4 340B at TP 8 on GB200 (4-GPU trays): NeMo b4148d2 / v2.3.0's recipe sets tp_comm_overlap=True and
    # Transformer Engine bee4649c has 'Add support for UB MNNVL (#1470)', so userbuffers span the two trays (the rows'
    # notes); NCCL fuses an MNNVL clique's topologies into one node (v2.25.1-1 src/graph/topo.cc), so the TP group's
    # collectives and userbuffers' copies cost what they would inside one 8-GPU NVSwitch node: the NVLink link
    rows = [r for r in load_rows() if r["id"].startswith(("dgxc-25.05.05-nemotron-340b", "nemo-25.04-nemotron-340b"))]
    assert len(rows) == 13  # 12 dgxc 25.05.05 rows (weak and strong scaling, bf16 and fp8) and NeMo 25.04's
    for row in rows:
        s = scenario_from_dict(row["scenario"])
        assert (s.tp, s.gpus_per_node, row["scenario"]["tp_comm_overlap"]) == (8, 4, True)
        assert userbuffers_on(s)
        hw = hardware_for(s)
        assert nvlink_domain(s, hw) == 72  # presets/gpus.json gb200 nvlink_domain_gpus
        assert link(hw, s.tp, nvlink_domain(s, hw)) == (hw.intra_bytes_per_s, hw.latency_intra_s)


def test_nccl_holds_its_sms_beside_the_async_backward_gemms():
    # contention.nccl_sm_share: NCCL's 24 ring channels inside an H100 node (presets/efficiency.json nccl_contention
    # ctas_inside_node, from NVIDIA/nccl issue #1259) of 132 SMs: the GEMM loses that share for the seconds it hides
    s = scenario_from_dict({**DENSE, "tp_comm_overlap": False})
    share = 24 / 132
    assert tp_exposed_seconds(s, _cost(1.0), _layer(nccl_sm_share=share)) == pytest.approx(3 * UNIT + 2 * UNIT * share)


def test_userbuffers_chunks_stretch_the_gemm_beside_the_ring_exchange():
    # ub_chunks.py: the QKV forward GEMM runs 1.5x as long in its chunks: its ring exchange then leaves the extra
    # 0.5 x 0.25 s of the GEMM, and hides the all-gather still (0.25 x 1.5 x 7/8 far above half a unit)
    s = scenario_from_dict(DENSE)
    plain = tp_exposed_seconds(s, _cost(1.0), _layer())
    stretched = tp_exposed_seconds(s, _cost(1.0), _layer(stretch=(1.5, 1.0, 1.0, 1.0, 1.0, 1.0)))
    assert stretched - plain == pytest.approx(0.25 * 0.5)


def test_chunks_reread_the_weight_and_lose_hbm_to_the_copies():
    from engine.timing.gemm import Rates
    from engine.timing.ub_chunks import CE_HBM_BYTES_PER_LINK_BYTE, ub_stretch

    spec = resolve_model(scenario_from_dict(DENSE))
    # compute far faster than memory: every GEMM is bound by its operands' traffic, and a chunk of tokens / tp rows
    # reads the whole weight again, so tp chunks move tp weights where the whole GEMM moves one
    rates = Rates(gemm=1e18, linear=1e18, attention=1e18, memory=1e12, elem_bytes=2, sms=132)
    qkv, proj, fc1, fc2 = ub_stretch(spec, False, 8, 0.08, rates, 2, 0.0, 4)[:4]  # few rows: the weight dominates
    assert qkv == pytest.approx(8, rel=0.01) and proj == pytest.approx(4, rel=0.01)  # tp chunks; 4 pipeline splits
    # a link moving 0.25 of the HBM rate takes CE_HBM_BYTES_PER_LINK_BYTE x 0.25 of it from the 7 chunks beside a hop
    left = 1 - CE_HBM_BYTES_PER_LINK_BYTE * 0.25
    contended = ub_stretch(spec, False, 8, 0.08, rates, 2, 0.25e12, 4)[0]
    assert contended == pytest.approx((1 + 7 / left), rel=0.01)
    assert ub_stretch(spec, False, 8, 0.08, rates, 2, 0.0, 4)[4:] == pytest.approx((8, 8), rel=0.01)
    # compute-bound (memory far faster): chunking changes nothing the roofline sees
    fast = rates._replace(linear=1e12, memory=1e18)
    assert ub_stretch(spec, False, 8, 8192.0, fast, 2, 0.0, 4)[:4] == pytest.approx((1, 1, 1, 1))
