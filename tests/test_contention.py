"""Hidden collectives still take SMs and HBM bandwidth from the compute they overlap (engine/timing/contention.py).

Expected values come from the sources in presets/efficiency.json nccl_contention: NCCL holds 16 SMs on a
DGX-class system (NVIDIA/nccl issue #689, maintainer's answer; 16 coll channels in the H800 node log of
NVIDIA/nccl issue #892), one CTA per SM, none shared with compute kernels; its traffic costs 3 bytes of HBM per
byte on the link (NVIDIA/nccl issue #1428, maintainer's answer: store, read back, user buffer); SMs per GPU from the
A100 and H100 architecture whitepapers (108 and 132) as listed in gemm_waves.sms. On Hopper the GEMMs beside it are
persistent with a static tile schedule (engine/timing/sm_residency.py): their CTAs beyond the SMs left run as a second
wave, so they move at half their rate while 16 or 24 of the 132 SMs are held (ceil(132 / 116) = ceil(132 / 108) = 2
waves)."""

import pytest

from engine import scenario_from_dict
from engine.timing import step_time
from engine.timing.contention import contended, hidden_share, nccl_held_sms, nccl_sm_share
from engine.timing.hardware import hardware_for
from engine.timing.links import link


def _s(**kw):
    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "attention": "flash", "precision": "mixed-bf16",
            "gpus_per_node": 8, "fsdp": True, "micro_batch": 2, "seq_len": 8192, "framework": "torchtitan"}
    return scenario_from_dict({**base, **kw})


def test_nccl_share_of_the_sms_by_gpu():
    # Ampere's GEMMs (one CTA per tile) take the SMs left: NCCL's share of them
    assert nccl_sm_share(hardware_for(_s(gpu="a100-80gb"))) == pytest.approx(16 / 108)
    # Hopper's persistent GEMMs run their 16 CTAs beyond the 116 SMs left as a second wave: half their rate
    assert nccl_held_sms(hardware_for(_s())) == 16
    assert nccl_sm_share(hardware_for(_s())) == pytest.approx(1 / 2)
    # across nodes RCCL's channel count on MI300X has no source in the presets: not counted (inside one node:
    # tests/test_cdna3_mechanisms.py)
    assert nccl_sm_share(hardware_for(_s(gpu="mi300x"))) == 0.0


def test_a_group_inside_one_hgx_h100_node_holds_every_ring_channel():
    """Inside one NVSwitch node of 8 H100 / H200 SXM, ring all-gather / reduce-scatter run on 24 channels:
    NVIDIA/nccl issue #1259 (8 x H100 80GB HBM3) prints ring 'Channel 22/0', so at least 23, and NCCL's
    ncclTopoDupChannels (src/graph/search.cc, tag v2.21.5-1) doubles the searched count, so even: 24. Across
    nodes, two per NIC: '16 coll channels' on three 8 x H100 nodes (NVIDIA/nccl issue #1453)."""
    assert nccl_held_sms(hardware_for(_s()), one_node=True) == 24
    assert nccl_held_sms(hardware_for(_s(gpu="h200")), one_node=True) == 24
    assert nccl_held_sms(hardware_for(_s()), one_node=False) == 16
    # 24 of 132 still leave one tail wave: half the GEMMs' rate, as 16 do
    assert nccl_sm_share(hardware_for(_s()), one_node=True) == pytest.approx(1 / 2)
    # Ampere: no one-node count is sourced apart from the DGX-wide 16 (kept)
    assert nccl_sm_share(hardware_for(_s(gpu="a100-80gb")), one_node=True) == pytest.approx(16 / 108)


def test_memory_bound_kernels_lose_three_bytes_of_hbm_per_link_byte():
    hw = hardware_for(_s())
    bus = link(hw, 8, 8)[0]
    assert hidden_share(hw, bus, hw.memory_bytes_per_s, 0.0) == pytest.approx(1 / 2)  # Hopper's tail wave
    assert hidden_share(hw, bus, hw.memory_bytes_per_s, 1.0) == pytest.approx(3 * bus / hw.memory_bytes_per_s)
    # a quarter memory-bound: the weighted mean of the two
    assert hidden_share(hw, bus, hw.memory_bytes_per_s, 0.25) == pytest.approx(
        0.75 * 1 / 2 + 0.25 * 3 * bus / hw.memory_bytes_per_s)
    # never more than the whole of the memory-bound work
    assert hidden_share(hw, 10 * hw.memory_bytes_per_s, hw.memory_bytes_per_s, 1.0) == 1.0


def test_hidden_part_costs_its_share_and_exposed_part_costs_whole():
    share = 16 / 132
    # 1 s of communication under a 10 s window hidden at 90%: all hidden, 1 x share left on the step
    assert contended(1.0, 10.0, 0.9, share) == pytest.approx(share)
    # 10 s under a 1 s window at 90%: the 0.9 s of window that can overlap slows to 0.9 / (1 - share) = 1.02 s,
    # still inside the 10 s collective, so the step waits for the collective alone: 9.1 s exposed, nothing more
    assert contended(10.0, 1.0, 0.9, share) == pytest.approx(9.1)
    assert contended(10.0, 1.0, 0.9, 0.0) == pytest.approx(9.1)
    # 1.2 s under a 1 s window at 90% with Hopper's half rate: the slowed window part (0.9 s of work at half rate
    # while the collective runs) ends after it: 1.2 s of collective take 0.6 s of work, 0.3 s are left at full
    # rate, so 0.9 s of work take 1.5 s: 0.6 s more (1.2 x 1/2), where exposed + displaced would say 0.3 + 0.45
    assert contended(1.2, 1.0, 0.9, 0.5) == pytest.approx(0.6)


def test_fsdp_step_pays_for_what_its_hidden_gathers_hold(monkeypatch):
    """torchtitan FSDP2 on one 8-GPU H100 node hides its gathers and reduce-scatters but those of a micro-batch's
    ends (the embedding's and the first block's, which no compute hides: tests/test_fsdp_time.py), so without
    contention communication_dp is those ends alone; with it, the rest is the hidden seconds x a share between the
    GEMMs' (1/2 on Hopper, their tail wave: compute-bound kernels) and the HBM's (3 x link / memory bandwidth,
    memory-bound kernels). The hidden seconds are read with the share set to 1 (every hidden second charged whole)."""
    import engine.timing.data_parallel as dp_module

    def dp_seconds(share):
        monkeypatch.setattr(dp_module, "hidden_share", lambda *args, **kwargs: share)
        return step_time(_s()).breakdown_seconds["communication_dp"]

    hidden, ends = dp_seconds(1.0), dp_seconds(0.0)
    monkeypatch.undo()
    real = step_time(_s()).breakdown_seconds["communication_dp"]
    hw = hardware_for(_s())
    assert 0.0 < ends < hidden
    shares = sorted((1 / 2, 3 * link(hw, 8, 8)[0] / hw.memory_bytes_per_s))
    assert shares[0] < (real - ends) / (hidden - ends) < shares[1]
