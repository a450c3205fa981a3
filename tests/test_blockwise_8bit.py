"""bitsandbytes' 8-bit blockwise AdamW kernel costed by its serial loads (engine/timing/blockwise_8bit.py).

Expected values come from the sources presets/efficiency.json blockwise_8bit_kernel names: the kernel's structure
(bitsandbytes 0.44.1 csrc/kernels.cu kOptimizerStatic8bit2StateBlockwise: 256 threads, one parameter a thread, four
loads one after the other), its resident blocks (the 0.44.1 wheel's sm_80 cubin: 48 registers, 5 blocks of 256 on an
A100 SM) and the A100 80GB one-shot read table of te42kyfo/gpu-benches cuda-stream/a100_80.txt at cdcc732 (two blocks
per SM, one double a thread: block size 64 -> 167 GB/s, 96 -> 244 GB/s, 160 -> 392 GB/s).
"""

from __future__ import annotations

import pytest

from engine.scenario import scenario_from_dict
from engine.timing.blockwise_8bit import blockwise_8bit_seconds
from engine.timing.model import step_time

A100_SMS = 108
RESIDENT_THREADS = 5 * 256  # the sm_80 cubin's 48 registers: 65,536 / (48 x 256) = 5 blocks


def _trip(block_size: int, bytes_per_s: float) -> float:
    """A row of the read table as one trip's seconds: its bytes in flight (2 blocks x block size x 8 bytes per SM,
    over every SM) over its bandwidth."""
    return 2 * block_size * 8 * A100_SMS / bytes_per_s


def test_bf16_kernel_on_a100_from_the_read_table():
    # a bf16 gradient or weight load: 1,280 threads x 2 bytes = 2,560 bytes per SM, the block-size-160 row;
    # a state load: 1,280 bytes, halfway between the rows of 64 (1,024) and 96 (1,536)
    weight_trip = _trip(160, 392e9)
    state_trip = (_trip(64, 167e9) + _trip(96, 244e9)) / 2
    parameters = 3.21e9  # Llama 3.2 3B
    expected = parameters / (A100_SMS * RESIDENT_THREADS) * (2 * weight_trip + 2 * state_trip)
    assert blockwise_8bit_seconds("a100-80gb", parameters, 2) == pytest.approx(expected, rel=1e-9)


def test_kernel_is_slower_than_its_bytes_at_bandwidth():
    # 10 bytes a bf16 parameter (gradient, weight read and written, two one-byte states read and written)
    parameters = 3.21e9
    at_bandwidth = parameters * 10 / 2.039e12
    assert blockwise_8bit_seconds("a100-80gb", parameters, 2) > 3 * at_bandwidth


def test_unmeasured_gpu_keeps_the_bytes():
    assert blockwise_8bit_seconds("b200", 1e9, 2) is None
    assert blockwise_8bit_seconds(None, 1e9, 2) is None


def test_torchtune_8bit_row_slower_than_the_adamw_row_before_it():
    # pytorch/torchtune README.md at 1814feb, 'Optimization flags' (Llama 3.2 3B, one A100): '+ Activation
    # Checkpointing' 7,210 tokens/s with torch.optim.AdamW, '+ 8-bit AdamW' 6,960 on the same layout
    base = {"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune", "precision": "bf16",
            "micro_batch": 2, "seq_len": 4096, "attention": "flash", "compile": True, "checkpointing": "full"}
    adamw = step_time(scenario_from_dict(base)).step_seconds
    eight_bit = step_time(scenario_from_dict({**base, "optimizer": "adamw-8bit"})).step_seconds
    assert eight_bit > adamw
