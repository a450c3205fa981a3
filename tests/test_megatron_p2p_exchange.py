"""Megatron-LM's pipeline exchanges of 2021-2023 (engine/timing/p2p_exchange.py): each a batch_isend_irecv, a wait
on every request and a torch.cuda.synchronize(), and without sequence parallelism split over the TP ranks and
all-gathered on arrival (NVIDIA/Megatron-LM megatron/p2p_communication.py _communicate and megatron/schedules.py at
de7dc40f88, bbab79f86907 and 285068c8). Each expected value is rebuilt from those sources' structure."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.host import host_call_seconds, host_figures
from engine.timing.links import link, nvlink_domain
from engine.timing.model import rates_for
from engine.timing.p2p_exchange import synced_exchange_seconds
from engine.timing.pipeline import pipeline_seconds
from engine.timing.tied_embeddings import tied_embedding_seconds


def _s(**kw):
    base = {"model": "llama-3-70b", "gpu": "a100-80gb", "precision": "bf16", "framework": "megatron-2022",
            "gpus_per_node": 8, "nodes": 4, "micro_batch": 1, "seq_len": 2048, "tp": 8, "pp": 4, "grad_accum": 16}
    return scenario_from_dict({**base, **kw})


def _pp_comm(s):
    hw, prof = hardware_for(s), framework_profile(s.framework)
    return pipeline_seconds(s, resolve_model(s), hw, rates_for(s, hw, prof), prof, 0.0)[0]


def test_megatron_of_2021_to_2023_synchronises_and_splits_its_exchanges():
    """--no-scatter-gather-tensors-in-pipeline is store_false (arguments.py at all three commits): the split is on by
    default; torch.cuda.synchronize() follows every batch_isend_irecv, in either schedule. Megatron-Core's own profile
    does not split (its p2p_communication.py has no scatter/gather since 3c92fa93b5)."""
    for name in ("megatron-2021", "megatron-2022"):
        prof = framework_profile(name)
        assert prof["pipeline_p2p_split_over_tp"] is True and prof["pipeline_p2p_synchronize"] is True
    assert not framework_profile("megatron").get("pipeline_p2p_split_over_tp")


def test_each_exchange_waits_a_round_trip_and_a_launch():
    """Without interleaving two exchanges a micro-batch (send_forward_recv_backward, send_backward_recv_forward), one
    tensor each way in each; with it one send_forward_backward_recv_forward_backward per model chunk, two tensors each
    way out of the same NIC. Either way each chunk's activation and gradient cross (2 x chunks tensors)."""
    s = _s()
    launch, _ = host_call_seconds(s)
    sync = host_figures()["sync_seconds"]["value"]
    t, lat, g = 1e-3, 5e-6, 2e-4
    assert synced_exchange_seconds(s, 1, t, lat, g) == pytest.approx(2 * (t + g) + 2 * (lat + sync + launch))
    assert synced_exchange_seconds(s, 3, t, lat, g) == pytest.approx(6 * (t + g) + 3 * (lat + sync + launch))


def _expected(s, chunks):
    """What the schedule of the scenario exchanges per step: grad_accum x synced_exchange_seconds over the 1/tp part
    (or the SP-sharded tensor), each received part all-gathered over the TP group where the send was split."""
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    part = s.micro_batch * s.seq_len * spec.hidden * rates.elem_bytes / s.tp
    pp_link, pp_lat = link(hw, s.tp * s.dp * 2, nvlink_domain(s, hw), s.tp * s.dp)
    tp_link, tp_lat = link(hw, s.tp, nvlink_domain(s, hw))
    gather = 0.0 if s.sequence_parallel else (s.tp - 1) * part / tp_link + tp_lat
    per_micro_batch = synced_exchange_seconds(s, chunks, part / pp_link, pp_lat, gather)
    return s.grad_accum * per_micro_batch + tied_embedding_seconds(s, spec, hw)


def test_the_split_send_carries_one_tp_part_and_gathers_once_per_received_tensor():
    """split_tensor_into_1d_equal_chunks sends 1/tp of the flat tensor; gather_split_1d_tensor all-gathers it over
    the TP group into one new buffer (no rebuild of the stage's own output, as DeepSpeed's PartitionedTensor does);
    under sequence parallelism (bbab79f86907 onwards) the tensor is 1/tp already and nothing is gathered."""
    assert _pp_comm(_s()) == pytest.approx(_expected(_s(), 1))
    sp = _s(sequence_parallel=True)
    assert _pp_comm(sp) == pytest.approx(_expected(sp, 1))
    assert _pp_comm(sp) < _pp_comm(_s())


def test_every_model_chunk_exchanges_its_own_tensors():
    """The interleaved schedule's exchanges end in a synchronisation too, so no chunk's transfer hides: three
    chunks move three times the tensors of one (2 x 3 against 2) in three exchanges (against two)."""
    s = _s(pp_schedule="interleaved-1f1b", vpp=3)
    assert _pp_comm(s) == pytest.approx(_expected(s, 3))
    assert 2.5 * _pp_comm(_s()) < _pp_comm(s) < 3 * _pp_comm(_s())


def test_megatron_core_synchronises_only_the_non_interleaved_schedule():
    """Megatron-Core's _communicate calls torch.cuda.synchronize() when batch_p2p_comm and batch_p2p_sync (default
    True); batch_p2p_comm = not overlap_p2p_comm, which is on with the interleaved schedule and forced off without it
    (NVIDIA/Megatron-LM megatron/training/argument_utils.py, arguments.py at d98e8a64; Megatron-Bridge comm_overlap.py
    at 067f987df). Without interleaving its transfers were exposed already: only the two round trips and launches a
    micro-batch are new; the interleaved schedule's sends overlap the other direction's chunk
    (engine/timing/overlapped_p2p.py: with no compute to hide behind, here fill 0, every steady-state slot exposes
    one transfer, and the first and last micro-batches' crossings of the pp x vpp - 1 chunk boundaries add two each),
    with no synchronisation."""
    prof = framework_profile("megatron")
    assert prof["pipeline_p2p_synchronize"] == "batch-p2p"
    s = _s(framework="megatron", sequence_parallel=True)
    spec, hw = resolve_model(s), hardware_for(s)
    launch, _ = host_call_seconds(s)
    sync = host_figures()["sync_seconds"]["value"]
    hw_rates = rates_for(s, hw, prof)
    unsynced = pipeline_seconds(s, spec, hw, hw_rates, {**prof, "pipeline_p2p_synchronize": False}, 0.0)[0]
    assert _pp_comm(s) == pytest.approx(unsynced + s.grad_accum * 2 * (sync + launch))
    inter = _s(framework="megatron", sequence_parallel=True, pp_schedule="interleaved-1f1b", vpp=2)
    unsynced_inter = pipeline_seconds(inter, spec, hw, hw_rates, {**prof, "pipeline_p2p_synchronize": False}, 0.0)[0]
    one = unsynced_inter / (2 * inter.grad_accum)  # the unsynchronised charge: 2 transfers a micro-batch
    steady_slots = inter.grad_accum * 2 - (inter.pp * 2 - 1)
    assert _pp_comm(inter) == pytest.approx(steady_slots * one)
