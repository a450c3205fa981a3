"""Hidden collectives still take SMs from the compute they overlap (engine/timing/contention.py).

Expected values come from the sources in presets/efficiency.json nccl_sms: NCCL holds 16 SMs on a DGX-class
system (NVIDIA/nccl issue #689, maintainer's answer; 16 coll channels in the H800 node log of NVIDIA/nccl issue
#892), one CTA per SM, none shared with compute kernels; SMs per GPU from the A100 and H100 architecture
whitepapers (108 and 132) as listed in gemm_waves.sms."""

import pytest

from engine import scenario_from_dict
from engine.timing import step_time
from engine.timing.contention import contended, nccl_sm_share
from engine.timing.hardware import hardware_for


def _s(**kw):
    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "attention": "flash", "precision": "mixed-bf16",
            "gpus_per_node": 8, "fsdp": True, "micro_batch": 2, "seq_len": 8192, "framework": "torchtitan"}
    return scenario_from_dict({**base, **kw})


def test_nccl_share_of_the_sms_by_gpu():
    assert nccl_sm_share(hardware_for(_s())) == pytest.approx(16 / 132)
    assert nccl_sm_share(hardware_for(_s(gpu="a100-80gb"))) == pytest.approx(16 / 108)
    # RCCL's channel count on MI300X has no source in the presets: not counted
    assert nccl_sm_share(hardware_for(_s(gpu="mi300x"))) == 0.0


def test_hidden_part_costs_its_share_and_exposed_part_costs_whole():
    share = 16 / 132
    # 1 s of communication under a 10 s window hidden at 90%: all hidden, 1 x share left on the step
    assert contended(1.0, 10.0, 0.9, share) == pytest.approx(share)
    # 10 s under a 1 s window at 90%: 0.9 s hidden, 9.1 s exposed
    assert contended(10.0, 1.0, 0.9, share) == pytest.approx(9.1 + 0.9 * share)
    assert contended(10.0, 1.0, 0.9, 0.0) == pytest.approx(9.1)


def test_fsdp_step_pays_the_sms_its_hidden_gathers_hold(monkeypatch):
    """torchtitan FSDP2 on one 8-GPU H100 node hides its gathers and reduce-scatters (communication_dp 0 without
    contention); with it, the term is the hidden seconds x 16 / 132. The hidden seconds are read with the share
    set to 1 (every hidden second charged whole)."""
    import engine.timing.data_parallel as dp_module

    def dp_seconds(share):
        monkeypatch.setattr(dp_module, "nccl_sm_share", lambda hw: share)
        return step_time(_s()).breakdown_seconds["communication_dp"]

    hidden, none = dp_seconds(1.0), dp_seconds(0.0)
    monkeypatch.undo()
    real = step_time(_s()).breakdown_seconds["communication_dp"]
    assert none == 0.0 and hidden > 0.0
    assert real == pytest.approx(hidden * 16 / 132)
