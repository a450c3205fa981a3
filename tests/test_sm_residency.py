"""Which communication kernels make a Hopper GEMM wait (engine/timing/sm_residency.py). Expected values are worked out
by hand from the per-CTA figures presets/efficiency.json gemm_tile_scheduler reads from each kernel's code: CUTLASS's
SM90 GEMM CTA holds 64,512 of an SM's 65,536 registers and 196,672 of its 233,472 bytes of shared memory, leaving 1,024
registers (4 warps at 256 each) and 36,800 bytes."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.layer_gemms import layer_gemms
from engine.timing.sm_residency import (
    co_resides,
    gemms_wait_beside,
    makes_gemm_wait,
    static_persistent_gemms,
    tail_share,
    tail_share_of_gemms,
)


def test_only_hopper_schedules_its_gemms_statically():
    # CUTLASS's TileSchedulerSelector: SM90 PersistentTileSchedulerSm90 (static), SM100 PersistentTileSchedulerSm100
    # (cluster launch control); Ampere's GEMMs are not persistent
    assert static_persistent_gemms("hopper")
    assert not static_persistent_gemms("blackwell")
    assert not static_persistent_gemms("default")


@pytest.mark.parametrize("kernel", ["nccl", "deepep_intranode", "deepep_internode", "hybridep"])
def test_no_communication_cta_fits_beside_a_gemm_cta(kernel):
    # NCCL: 16 warps need 4,096 registers > 1,024 and 82,240 bytes > 36,800; DeepEP: 24 / 16 warps, 196,608 / 131,072
    # bytes; HybridEP: its 4 warps fit the registers only at 8 a thread, but 10 stages x 2,048 x 2 = 40,960 bytes > 36,800
    assert not co_resides(kernel)
    assert makes_gemm_wait(kernel)


def test_userbuffers_leave_the_gemm_its_sms():
    # Transformer Engine's pipeline / bulk overlap: 16 CTAs on the 16 SMs the GEMM is told to leave (set_sm_margin);
    # the ring exchange copies on the copy engines and holds no SM
    assert not makes_gemm_wait("te_userbuffers_pipeline_bulk")
    assert not makes_gemm_wait("te_userbuffers_copy_engine")


@pytest.mark.parametrize("dispatcher", ["alltoall", "allgather", "flex"])
def test_every_dispatcher_makes_hopper_gemms_wait_and_no_other_family(dispatcher):
    assert gemms_wait_beside(dispatcher, "hopper")
    assert not gemms_wait_beside(dispatcher, "blackwell")
    assert not gemms_wait_beside(dispatcher, "ampere")


def test_a_persistent_gemm_beside_held_sms_runs_its_missing_ctas_as_another_wave():
    # 132 CTAs, 16 or 24 SMs held: 116 / 108 run first, the rest once those end: 2 waves, half the rate
    assert tail_share(16, 132) == pytest.approx(1 / 2)
    assert tail_share(24, 132) == pytest.approx(1 / 2)
    # 70 held: 62 SMs left, ceil(132 / 62) = 3 waves
    assert tail_share(70, 132) == pytest.approx(2 / 3)
    assert tail_share(0, 132) == 0.0
    assert tail_share(132, 132) == 1.0


def test_a_gemm_that_fits_the_sms_left_loses_nothing_beside_nccl():
    # h-review21b's finding (a): a Qwen2.5-0.5B (hidden 896) q_proj weight gradient, 896 x 4,096 tokens @ 4,096 x 896,
    # is ceil(896 / 128) x ceil(896 / 256) = 7 x 4 = 28 tiles of CUTLASS SM90's 128 x 256, split along k into
    # min(132 // 28, 4,096 / 64) = 4 slices (gemm.py's split-K): 112 CTAs. Beside NCCL's 16 CTAs across nodes the
    # 116 SMs left hold them all (no second wave: 0); beside its 24 inside a node 108 do not (1/2)
    wgrad = ((896.0, 4096.0, 896.0),)
    assert tail_share_of_gemms(wgrad, 16, 132) == 0.0
    assert tail_share_of_gemms(wgrad, 24, 132) == pytest.approx(1 / 2)
    # its forward, 4,096 tokens x 896 @ 896 x 896: 32 x 4 = 128 CTAs, beyond 116: a second wave
    forward = ((4096.0, 896.0, 896.0),)
    assert tail_share_of_gemms(forward, 16, 132) == pytest.approx(1 / 2)
    # the two together, of equal FLOPs: half the window's GEMM work loses its tail wave
    assert tail_share_of_gemms(wgrad + forward, 16, 132) == pytest.approx(1 / 4)
    # no shapes known: the whole tail share
    assert tail_share_of_gemms((), 16, 132) == pytest.approx(1 / 2)


def test_a_layers_gemms_are_its_linears_forward_and_gradients():
    # Qwen2.5-0.5B's config (Qwen/Qwen2.5-0.5B config.json: hidden 896, 14 heads, 2 KV heads of 128, intermediate
    # 4,864): q_proj 896 -> 896, k_proj 896 -> 128; each linear's forward, input gradient and weight gradient
    s = scenario_from_dict({"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "micro_batch": 2, "seq_len": 2048})
    gemms = layer_gemms(s, resolve_model(s))
    assert gemms[:6] == ((4096, 896, 896), (4096, 896, 896), (896, 4096, 896),
                         (4096, 896, 128), (4096, 128, 896), (128, 4096, 896))
    assert len(gemms) == 3 * 7  # q, k, v, o, gate, up, down
    assert len(layer_gemms(s, resolve_model(s), backward=False)) == 7
