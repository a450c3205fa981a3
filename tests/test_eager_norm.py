"""The eager RMSNorm's measured rate (engine/timing/eager_norm.py) and the figures it takes from
presets/efficiency.json elementwise_bytes_per_token aleph-alpha-scaling."""

import math

import pytest

from engine.timing.data import efficiency
from engine.timing.eager_norm import eager_norm_extra_bytes, eager_norm_rate
from engine.timing.gemm import Rates

# linkedin/Liger-Kernel benchmark/data/a100_all_benchmark_data.csv at bdbfeadf (NVIDIA A100 80GB PCIe, rms_norm,
# provider huggingface, mode full, y_value_50 in ms) at M 2,048 rows of H bf16 values
LIGER_FULL_MS = {4096: 1.031167984008789, 8192: 1.8954240083694458, 16384: 3.6085760593414307,
                 32768: 7.044095993041992}
BYTES_PER_ELEMENT = 38 + 114  # the benchmark's LlamaRMSNorm counted op by op (efficiency.json _eager_norm_source)
A100_PCIE_PEAK = 1.935e12  # NVIDIA A100 datasheet, A100 80GB PCIe


def _rates(stream_fraction: float) -> Rates:
    """Rates whose only figure read here is the GPU's element-wise fraction."""
    return Rates(gemm=1.0, linear=1.0, attention=1.0, memory=1.0, elem_bytes=2, memory_fraction=stream_fraction)


def _profile() -> dict:
    return efficiency()["elementwise_bytes_per_token"]["aleph-alpha-scaling"]


def test_table_recomputes_from_liger_times():
    table = dict((int(e), f) for e, f in _profile()["eager_norm_fraction_of_peak"])
    for h, ms in LIGER_FULL_MS.items():
        elements = 2048 * h
        fraction = BYTES_PER_ELEMENT * elements / (ms * 1e-3) / A100_PCIE_PEAK
        assert table[elements] == pytest.approx(fraction, abs=5e-4)


def test_norm_bytes_are_the_two_norms_of_hidden():
    per = _profile()
    # two RMSNorms of 36 bytes per hidden unit (the profile's own count); the residual adds are the other 12 of 84
    assert per["hidden_norm"] == 2 * 36
    assert per["hidden"] - per["hidden_norm"] == 12


def test_rate_interpolates_in_log_elements_and_holds_at_the_ends():
    per = _profile()
    stream = efficiency()["memory_bandwidth_fraction"]["_gpu"]["a100-80gb"]
    assert eager_norm_rate(per, 8388608, stream) == pytest.approx(0.639 / stream)
    assert eager_norm_rate(per, 1e6, stream) == pytest.approx(0.639 / stream)  # below the table: its first point
    assert eager_norm_rate(per, 1e9, stream) == pytest.approx(0.7484 / stream)  # above: its last
    # Llama 13B, micro-batch 1 at 2,048 tokens: 10,485,760 values per call, between H 4,096 and 8,192
    x = (math.log2(2048 * 5120) - 23.0)
    assert eager_norm_rate(per, 2048 * 5120, stream) == pytest.approx((0.639 + (0.6953 - 0.639) * x) / stream)
    assert eager_norm_rate(per, 1e9, 0.5) == 1.0  # never faster than the element-wise kernels


def test_extra_bytes_count_the_norms_at_their_rate():
    per = _profile()
    stream = 0.834
    rate = eager_norm_rate(per, 2048 * 5120, stream)
    extra = eager_norm_extra_bytes(per, 5120, 2048, _rates(stream))
    assert extra == pytest.approx(72 * 5120 * (1 / rate - 1))
    assert 15 * 5120 < extra < 25 * 5120  # about 19 more bytes per hidden unit at this shape


def test_profiles_without_a_measured_norm_are_unchanged():
    rows = efficiency()["elementwise_bytes_per_token"]
    for name, per in rows.items():
        if not isinstance(per, dict) or name == "aleph-alpha-scaling":
            continue
        assert eager_norm_extra_bytes(per, 4096, 4096, _rates(0.834)) == 0.0
