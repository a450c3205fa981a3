"""The eager RMSNorm's measured rate (engine/timing/eager_norm.py): the tables of presets/efficiency.json
eager_rms_norm_fraction_of_peak, the framework profiles that state eager_rms_norm and the bytes their rows count."""

import math
from dataclasses import replace

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.eager_norm import eager_norm_extra_bytes, eager_norm_rate, eager_norm_table
from engine.timing.gemm import Rates

BYTES_PER_ELEMENT = 38 + 114  # the benchmark's LlamaRMSNorm counted op by op (efficiency.json's _source)
ROWS = 2048  # the benchmark's M
# linkedin/Liger-Kernel rms_norm, provider huggingface, mode full, y_value_50 in ms, by H; the part's peak in B/s
# (presets/gpus.json, the vendors' datasheets): benchmark/data/all_benchmark_data.csv (A100-SXM4-80GB, 2024-09-03;
# MI300X at a054fafd; RTX 3090 at 3c53a80b), h100_all_benchmark_data.csv at 3534d446 (H100 NVL)
LIGER_FULL_MS = {
    "a100-80gb": (2.039e12, {4096: 1.011423945426941, 8192: 1.8621759414672852, 16384: 3.5439999103546143,
                             32768: 6.910431861877441}),
    "h100-nvl-94gb": (3.9e12, {4096: 0.6227520108222961, 8192: 1.13155198097229, 16384: 2.214111804962158,
                               32768: 4.254096031188965}),
    "mi300x": (5.3e12, {8192: 0.9989489912986755, 16384: 1.927377462387085, 32768: 3.9152119159698486}),
    "rtx-3090": (0.936e12, {4096: 1.5523840188980103, 8192: 3.018752098083496, 16384: 5.935103893280029,
                            32768: 11.782511711120605, 65536: 23.446529388427734}),
}


def _rates(stream_fraction: float, gpu: str = "a100-80gb") -> Rates:
    """Rates whose only figures read here are the GPU's element-wise fraction and its measured norm table."""
    return Rates(gemm=1.0, linear=1.0, attention=1.0, memory=1.0, elem_bytes=2, memory_fraction=stream_fraction,
                 eager_norm=eager_norm_table({"eager_rms_norm": True}, gpu))


def _llama(hidden: int, norm_style: str = "llama"):
    """A model spec with the hidden width and norm style the byte count reads."""
    spec = resolve_model(scenario_from_dict({"model": "llama-2-13b", "gpu": "a100-80gb"}))
    return replace(spec, hidden=hidden, norm_style=norm_style)


@pytest.mark.parametrize("gpu", sorted(LIGER_FULL_MS))
def test_tables_recompute_from_liger_times(gpu):
    peak, times = LIGER_FULL_MS[gpu]
    table = dict(efficiency()["eager_rms_norm_fraction_of_peak"]["_gpu"][gpu])
    assert sorted(table) == sorted(ROWS * h for h in times)
    for h, ms in times.items():
        fraction = BYTES_PER_ELEMENT * ROWS * h / (ms * 1e-3) / peak
        assert table[ROWS * h] == pytest.approx(fraction, abs=5e-4)


def test_the_profiles_that_run_an_eager_rmsnorm():
    # huggingface (transformers' LlamaRMSNorm), deepspeed (the same transformers model), torchtune's and torchtitan's
    # RMSNorm, Aleph Alpha's torch path: each framework row's _eager_rms_norm_source names the code
    stated = {name for name, p in efficiency()["frameworks"].items() if isinstance(p, dict) and p.get("eager_rms_norm")}
    assert stated == {"huggingface", "deepspeed", "torchtune", "torchtitan", "aleph-alpha-scaling"}
    # post-trainers take their base's profile; Megatron-DeepSpeed (apex's fused norm), Megatron, plain PyTorch and
    # the Transformer Engine stacks do not state it
    assert framework_profile("trl").get("eager_rms_norm") and framework_profile("ms-swift").get("eager_rms_norm")
    for name in ("deepspeed-2022", "megatron", "pytorch", "nemo-automodel-te", "litgpt", "unsloth"):
        assert not framework_profile(name).get("eager_rms_norm")


def test_only_measured_gpus_have_a_table():
    prof = {"eager_rms_norm": True}
    assert eager_norm_table(prof, "a100-80gb")[0] == (8388608.0, 0.6183)
    for gpu in ("a100-40gb", "h100-sxm-80gb", "h200", "b200", ""):  # no measurement: the element-wise rate
        assert eager_norm_table(prof, gpu) == ()
    assert eager_norm_table({}, "a100-80gb") == ()  # a profile that does not state an eager norm


def test_norm_bytes_are_the_two_norms_of_hidden():
    rows = efficiency()["elementwise_bytes_per_token"]
    # two RMSNorms of 36 bytes per hidden unit (each row's own count); the residual adds are 12 more (torchtune: and
    # the attention output's transpose, 4)
    for name, rest in (("eager", 12), ("torchtune", 16), ("aleph-alpha-scaling", 12)):
        assert rows[name]["hidden_norm"] == 2 * 36
        assert rows[name]["hidden"] - rows[name]["hidden_norm"] == rest
    for name in ("fused", "liger", "te-modules", "internevo", "eager-amp"):  # fused norms, or counted apart
        assert "hidden_norm" not in rows[name]


def test_rate_interpolates_in_log_elements_and_holds_at_the_ends():
    table = eager_norm_table({"eager_rms_norm": True}, "a100-80gb")
    stream = efficiency()["memory_bandwidth_fraction"]["_gpu"]["a100-80gb"]
    assert eager_norm_rate(table, 8388608, stream) == pytest.approx(0.6183 / stream)
    assert eager_norm_rate(table, 1e6, stream) == pytest.approx(0.6183 / stream)  # below the table: its first point
    assert eager_norm_rate(table, 1e9, stream) == pytest.approx(0.7239 / stream)  # above: its last
    # Llama 13B, micro-batch 1 at 2,048 tokens: 10,485,760 values per call, between H 4,096 and 8,192
    x = (math.log2(2048 * 5120) - 23.0)
    assert eager_norm_rate(table, 2048 * 5120, stream) == pytest.approx((0.6183 + (0.6716 - 0.6183) * x) / stream)
    assert eager_norm_rate(table, 1e9, 0.5) == 1.0  # never faster than the element-wise kernels
    assert eager_norm_rate((), 1e9, 0.834) == 1.0  # no measurement: the element-wise rate


def test_extra_bytes_count_the_norms_at_their_rate():
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    stream = 0.834  # efficiency.json memory_bandwidth_fraction a100-80gb
    rates = _rates(stream)
    rate = eager_norm_rate(rates.eager_norm, 2048 * 5120, stream)
    extra = eager_norm_extra_bytes(per, _llama(5120), 1, False, 2048, rates)
    assert extra == pytest.approx(72 * 5120 * (1 / rate - 1))
    assert 20 * 5120 < extra < 30 * 5120  # about 25 more bytes per hidden unit at this shape
    # under sequence parallelism the norm sees 1/tp of the hidden state per token
    sp = eager_norm_extra_bytes(per, _llama(5120), 4, True, 2048, rates)
    assert sp == pytest.approx(72 * 1280 * (1 / eager_norm_rate(rates.eager_norm, 2048 * 1280, stream) - 1))


def test_nothing_added_where_the_norm_is_not_an_eager_rmsnorm():
    rates = _rates(0.834)
    rows = efficiency()["elementwise_bytes_per_token"]
    assert eager_norm_extra_bytes(rows["eager"], _llama(4096, "layernorm"), 1, False, 4096, rates) == 0.0  # one kernel
    assert eager_norm_extra_bytes(rows["fused"], _llama(4096), 1, False, 4096, rates) == 0.0  # compiled
    assert eager_norm_extra_bytes(rows["liger"], _llama(4096), 1, False, 4096, rates) == 0.0  # Liger's kernel
    assert eager_norm_extra_bytes(rows["eager"], _llama(4096), 1, False, 4096, _rates(0.887, "h100-sxm-80gb")) == 0.0

