"""A Mamba-2 block's time per micro-batch (engine/timing/mamba_block.py), standalone until ModelSpec has block kinds.
Expected figures by hand from Nemotron 3 Nano 30B-A3B's config (tests/data/hybrid_models/nemotron-3-nano-30b-a3b.json:
hidden 2688, 64 Mamba heads of 64, state 128, 8 groups, chunk 128) and the counts of engine/timing/ssd_scan.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ModelConfigError
from engine.models.mamba2 import hybrid_from_config
from engine.timing.gemm import Rates
from engine.timing.mamba_block import mamba_block_cost

REPO = Path(__file__).resolve().parents[1]
NANO = json.loads((REPO / "tests/data/hybrid_models/nemotron-3-nano-30b-a3b.json").read_text(encoding="utf-8"))
MIXER = hybrid_from_config(NANO.get("config", NANO)).mixer
TOKENS = 8192.0


def test_projections_and_scan_flops_by_hand() -> None:
    c = mamba_block_cost(MIXER, TOKENS, 1, Rates(7e14, 7e14, 5e14, 2.7e12, 2))
    in_proj = 2 * 4096 + 2 * 8 * 128 + 64  # z, x, B, C, dt
    assert c.gemm_flops_fwd == pytest.approx(2 * TOKENS * (2688 * in_proj + 4096 * 2688))
    # SSD forward: 2 Q N G + 2 Q P H + 4 N P H a token
    assert c.scan_flops_fwd == pytest.approx(TOKENS * (2 * 128 * 128 * 8 + 2 * 128 * 64 * 64 + 4 * 128 * 64 * 64))
    assert c.gemm_bwd == pytest.approx(2 * c.gemm_fwd)  # dgrad and wgrad, each the forward's shapes


def test_scan_is_memory_bound_at_these_rates_and_counts_its_bytes() -> None:
    mem = 2.7e12
    c = mamba_block_cost(MIXER, TOKENS, 1, Rates(7e14, 7e14, 5e14, mem, 2))
    conv = 6144 * 2  # x, B, C channels (4096 + 2 x 8 x 128) at 2 bytes
    scan = (6144 + 64 + 4096 + 2 * 4096) * 2  # reads x, B, C, dt, z; writes the gated output and out_x
    states = 2 * 4 * 128 * 64 * 64 / 128  # fp32 chunk states written and read
    forward = 2 * conv + scan + states
    assert forward == 94_336
    assert c.scan_fwd == pytest.approx(forward * TOKENS / mem)
    assert c.scan_bwd == pytest.approx((2 * conv + 2 * (scan + states) + 3 * conv) * TOKENS / mem)


def test_tensor_parallelism_splits_heads_and_refuses_more_ranks_than_groups() -> None:
    rates = Rates(7e14, 7e14, 5e14, 2.7e12, 2)
    one, two = mamba_block_cost(MIXER, TOKENS, 1, rates), mamba_block_cost(MIXER, TOKENS, 2, rates)
    assert two.scan_fwd == pytest.approx(one.scan_fwd / 2) and two.gemm_flops_fwd == pytest.approx(one.gemm_flops_fwd / 2)
    with pytest.raises(ModelConfigError):
        mamba_block_cost(MIXER, TOKENS, 16, rates)  # 8 groups
