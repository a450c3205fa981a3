"""The routed experts' grouped kernel against cuBLAS (engine/timing/grouped_mm_rate.py, presets/efficiency.json
grouped_mm_rate_of_dense): torchtitan's torch._grouped_mm and torchao's MXFP8 _scaled_grouped_mm as torchao timed
them on a B200 (pytorch/ao torchao/prototype/moe_training/README.md at ff163084e, pull request #3174: forward +
backward of one grouped GEMM, M 128,000, N 8,192, K 5,120, G 1 / 2 / 4 / 8, through
benchmarks/prototype/moe_training/benchmark_scaled_grouped_mm_dq.py --compile)."""

from __future__ import annotations

import math
import statistics

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.expert_costs import expert_seconds
from engine.timing.gemm import Rates, gemm_shape_facts, grouped_gemm_seconds
from engine.timing.grouped_mm_rate import grouped_mm_rate
from engine.timing.hardware import hardware_for

M, N, K = 128_000, 8_192, 5_120
# the README's table at ff163084e, microseconds by G
BF16_US = {1: 43140.2, 2: 39487.6, 4: 39189.2, 8: 37700.7}
MXFP8_US = {1: 23867.0, 2: 23359.0, 4: 23945.5, 8: 22170.6}


def _scenario(**kw):
    base = {"model": "llama-4-scout", "gpu": "b200", "gpus_per_node": 4, "framework": "torchtitan", "ep": 4,
            "fsdp": True, "seq_len": 8192, "micro_batch": 1}
    return scenario_from_dict({**base, **kw})


def _ratio_from_readme(table: dict[int, float], mxfp8: bool) -> float:
    """The engine's three GEMMs (output, input gradient, weight gradient) at the B200's MAMF over the measured time
    less the benchmark's loss and gradient accumulation (F.mse_loss forward and backward: 5 passes over the bf16
    output; A.grad and B.grad accumulated: 3 passes each, benchmarks/utils.py has no zero_grad) and, for MXFP8, its
    quantize kernels as the engine counts them (fp8_cast_bytes te-mxfp8 on the input and the output gradient)."""
    eff = efficiency()
    hw = hardware_for(_scenario())
    rate = hw.peak("bf16") * hw.matmul_fraction
    cast = eff["fp8_cast_bytes"]["te-mxfp8"]
    if mxfp8:
        rate = hw.peak("fp8") * hw.fp8_matmul_fraction * eff["fp8_gemm_rate_of_tensorwise"]["te-mxfp8"]
    mem, sms = hw.memory_bytes_per_s, gemm_shape_facts("b200", "bf16", "bf16")[0]
    ratios = []
    for g, us in table.items():
        m = M / g
        engine = sum(grouped_gemm_seconds(g, *shape, rate, mem, 2, sms) for shape in ((m, K, N), (m, N, K), (K, m, N)))
        rest = us * 1e-6 - (5 * M * N * 2 + 3 * (M * K + g * N * K) * 2) / mem
        if mxfp8:
            slower = hw.memory_fraction / cast["bandwidth_fraction"]  # the kernel's 0.651 of peak, as costs.py
            rest -= (cast["forward_input"] * M * K + cast["backward_grad_output"] * M * N) * slower / mem
            rest -= (cast["weight_forward"] + cast["weight_backward"]) * g * N * K / mem
        ratios.append(engine / rest)
    return statistics.median(ratios)


def test_preset_ratios_are_the_readme_medians():
    """The preset's 0.503 (bf16) and 0.508 (MXFP8) are the medians over G of the derivation above, to 3 places
    (MXFP8 was 0.509 when B200's element-wise rate was the generic 0.85 of peak; its measured 0.855 moved it)."""
    table = efficiency()["grouped_mm_rate_of_dense"]["torch-grouped-mm"]
    assert math.isclose(table["bf16"]["b200"], _ratio_from_readme(BF16_US, False), abs_tol=6e-4)
    assert math.isclose(table["mxfp8"]["b200"], _ratio_from_readme(MXFP8_US, True), abs_tol=6e-4)
    # the 750 W part and GB200 carry the same die (sm_100): B200's ratio
    for fmt in ("bf16", "mxfp8"):
        assert table[fmt]["b200-750w"] == table[fmt]["gb200"] == table[fmt]["b200"]


def test_only_torchtitans_grouped_kernel_on_measured_gpus_slows():
    """torchtitan (expert_kernel torch-grouped-mm) on B200: the measured ratio; its fp8 only under the recipe that
    was measured (MXFP8); Megatron (Transformer Engine's per-expert cuBLAS GEMMs, no expert_kernel) and GPUs
    without a measurement (H100) keep the dense rate."""
    titan = framework_profile("torchtitan")
    assert titan["expert_kernel"] == "torch-grouped-mm"
    assert grouped_mm_rate(_scenario(), titan) == 0.503
    assert grouped_mm_rate(_scenario(precision="fp8", fp8_recipe="mxfp8"), titan) == 0.508  # the preset, derived above
    assert grouped_mm_rate(_scenario(precision="fp8", fp8_recipe="tensorwise"), titan) == 1.0
    assert grouped_mm_rate(_scenario(gpu="h100-sxm-80gb"), titan) == 1.0
    assert grouped_mm_rate(_scenario(framework="megatron"), framework_profile("megatron")) == 1.0


def test_expert_seconds_divide_by_the_ratio_when_compute_bound():
    """Scout's experts at 8,192 tokens, EP 4 (4 local experts of 2,048 rows): compute-bound with no memory limit,
    so every kernel takes 1 / 0.503 of its dense time; the dense linears are not touched (layer_cost's gemm minus
    the experts)."""
    spec = resolve_model(_scenario())
    rates = Rates(1.5e15, 1.5e15, 1.5e15, 1e30, 2, 148)
    dense = expert_seconds(spec, 8192.0, 1, 4, rates, 0, 0.0)
    slow = expert_seconds(spec, 8192.0, 1, 4, rates, 0, 0.0, 0.503)
    for a, b in zip(dense, slow, strict=True):
        assert math.isclose(b, a / 0.503, rel_tol=1e-9)
