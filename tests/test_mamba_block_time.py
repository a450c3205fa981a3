"""A Mamba-2 block's time per micro-batch as the step model costs it (engine/timing/costs.layer_cost with block
"mamba": in_proj and out_proj through the GEMM loop, hybrid_blocks.block_linears; the conv1d and SSD scan,
mamba_block.mamba_scan_core through block_mixer.mixer_core). Expected figures by hand from Nemotron 3 Nano 30B-A3B's
config (tests/data/hybrid_models/nemotron-3-nano-30b-a3b.json: hidden 2688, 64 Mamba heads of 64, state 128,
8 groups, chunk 128) and the counts of engine/timing/ssd_scan.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ModelConfigError
from engine.models.hf_config import model_from_hf_config
from engine.timing.costs import layer_cost
from engine.timing.gemm import Rates, gemm_seconds
from engine.timing.unaligned_gemm import aligned_rate

REPO = Path(__file__).resolve().parents[1]
NANO = json.loads((REPO / "tests/data/hybrid_models/nemotron-3-nano-30b-a3b.json").read_text(encoding="utf-8"))
SPEC = model_from_hf_config(NANO.get("config", NANO))
TOKENS = 8192.0
# a probe GPU: 700 TFLOP/s GEMMs, 500 attention, 2.7 TB/s element-wise, 2-byte elements
RATES = Rates(7e14, 7e14, 5e14, 2.7e12, 2)


def _mamba(tp: int, rates: Rates = RATES):
    """One Mamba block of Nano on one of tp ranks, bf16, no fp8, no adapters (the step model's own call)."""
    return layer_cost(SPEC, False, TOKENS, int(TOKENS), tp, 1, 1, False, rates, "flash", "fused", "", (), 0, None,
                      block="mamba")


def test_projections_and_scan_flops_by_hand() -> None:
    c = _mamba(1)
    in_proj = 2 * 4096 + 2 * 8 * 128 + 64  # z, x, B, C, dt
    assert c.gemm_flops_fwd == pytest.approx(2 * TOKENS * (2688 * in_proj + 4096 * 2688))
    # SSD forward: 2 Q N G + 2 Q P H + 4 N P H a token
    assert c.attn_flops_fwd == pytest.approx(TOKENS * (2 * 128 * 128 * 8 + 2 * 128 * 64 * 64 + 4 * 128 * 64 * 64))
    # the two projections through the GEMM model at their own shapes (no router: the linears' rate, best epilogue)
    projections = sum(gemm_seconds(TOKENS, d_in, d_out, aligned_rate(RATES, RATES.linear, d_in, d_out), RATES.memory,
                                   RATES.elem_bytes, RATES.sms, RATES.epilogue_k[1])
                      for d_in, d_out in ((2688, in_proj), (4096, 2688)))
    assert c.gemm_fwd == pytest.approx(projections)
    assert c.gemm_dgrad == pytest.approx(c.gemm_fwd) and c.gemm_wgrad == pytest.approx(c.gemm_fwd)  # forward's shapes


def test_scan_is_memory_bound_at_these_rates_and_counts_its_bytes() -> None:
    mem = 2.7e12
    c = _mamba(1, Rates(7e14, 7e14, 5e14, mem, 2))
    conv = 6144 * 2  # x, B, C channels (4096 + 2 x 8 x 128) at 2 bytes
    scan = (6144 + 64 + 4096 + 2 * 4096) * 2  # reads x, B, C, dt, z; writes the gated output and out_x
    states = 2 * 4 * 128 * 64 * 64 / 128  # fp32 chunk states written and read
    forward = 2 * conv + scan + states
    assert forward == 94_336
    assert c.attn_fwd == pytest.approx(forward * TOKENS / mem)
    assert c.attn_bwd == pytest.approx((2 * conv + 2 * (scan + states) + 3 * conv) * TOKENS / mem)


def test_tensor_parallelism_splits_heads_and_refuses_more_ranks_than_groups() -> None:
    one, two = _mamba(1), _mamba(2)
    assert two.attn_fwd == pytest.approx(one.attn_fwd / 2) and two.gemm_flops_fwd == pytest.approx(one.gemm_flops_fwd / 2)
    with pytest.raises(ModelConfigError):
        _mamba(16)  # 8 groups
