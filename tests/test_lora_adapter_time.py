"""The LoRA adapters' own work in the time model (engine/timing/lora_adapters.py). Expected values are counted from
peft 0.21.0's peft/tuners/lora/layer.py Linear.forward (lines 1074-1119) and tuners_utils.py (_cast_input_dtype
2220-2235, cast_adapter_dtype 2705-2750), the release the measured H200 rows ran (tests/data/gpu_measured/README.md),
and from presets/gpus.json (the H200's fp32 peak) and presets/host_overhead.json (launch and call figures)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.accuracy.measured_gpu import GPU_MEASURED_DIR, scenario_of
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.host import host_call_seconds
from engine.timing.lora_adapters import (
    AUTOCAST,
    CASTS,
    CASTS_4BIT,
    FUSED,
    SAME,
    Adapters,
    adapter_bytes_per_token,
    adapter_host_seconds,
    adapter_path,
    adapter_seconds,
    adapters_of,
)
from engine.timing.model import rates_for, step_time

DENSE_LAYER = (False, False, "")  # (moe, linear_attn, block) of a transformer's dense layer

BASE = {"model": "llama-2-7b", "gpu": "h200", "method": "lora", "precision": "bf16", "micro_batch": 1,
        "seq_len": 2048, "lora_rank": 8, "lora_targets": ["q_proj", "v_proj"]}


def _scenario(**over):
    return scenario_from_dict({**BASE, **over})


def test_peft_casts_bytes_per_token_follow_its_forward_and_autograd():
    # bf16 model (2 bytes), fp32 adapters (4): forward x.to (2 + 4 per input element), then per output element
    # * scaling (4 + 4), bf16 + fp32 -> fp32 (2 + 4 + 4), .to(bf16) (4 + 2) = 24; backward .to's backward (2 + 4),
    # the add's gradient cast to bf16 (4 + 2), the scale (4 + 4) = 20 per output element, x's cast back (4 + 2) and
    # the sum into x's gradient (2 + 2 + 2) = 12 per input element
    a = Adapters(((4096, 11008),), CASTS, 4, 2, 1.0)
    assert adapter_bytes_per_token(a, 4096, 11008, 2) == (4096 * 6 + 11008 * 24, 11008 * 20 + 4096 * 12)


def test_peft_on_a_4bit_base_clones_the_output_and_adds_in_16_bits():
    # peft/tuners/lora/bnb.py Linear4bit.forward (lines 513-565): result.clone() (2 + 2), x.to (2 + 4), * scaling
    # (4 + 4), .to(bf16) (4 + 2), bf16 + bf16 (2 + 2 + 2) = 24 per output element; backward .to's (2 + 4) and the
    # scale (4 + 4) = 14, x's cast back and the sum into x's gradient 12 per input element
    a = Adapters(((4096, 4096),), CASTS_4BIT, 4, 2, 1.0)
    assert adapter_bytes_per_token(a, 4096, 4096, 2) == (4096 * 6 + 4096 * 24, 4096 * 14 + 4096 * 12)
    assert adapter_path(_scenario(method="qlora")) == CASTS_4BIT
    assert adapter_path(_scenario(method="qlora", framework="torchtune")) == SAME  # torchao NF4, its own LoRALinear


def test_adapters_in_the_compute_dtype_keep_the_scale_add_and_accumulation():
    a = Adapters(((4096, 4096),), SAME, 2, 2, 1.0)
    assert adapter_bytes_per_token(a, 4096, 4096, 2) == (4096 * 5 * 2, 4096 * 2 * 2 + 4096 * 3 * 2)


def test_which_path_the_adapters_take():
    assert adapter_path(_scenario()) == CASTS  # peft's fp32 upcast on a bf16 model
    assert adapter_path(_scenario(lora_adapter_dtype="compute")) == SAME
    assert adapter_path(_scenario(framework="torchtune")) == SAME  # its LoRALinear builds them in the model dtype
    assert adapter_path(_scenario(precision="amp-bf16")) == AUTOCAST
    assert adapter_path(_scenario(framework="unsloth")) == FUSED


def test_fp32_adapters_run_their_matmuls_at_the_fp32_peak_share():
    s = _scenario()
    hw = hardware_for(s)
    a = adapters_of(s, resolve_model(s), DENSE_LAYER, hw, rates_for(s, hw, framework_profile(s.framework)))
    # presets/gpus.json h200 dense_peak_tflops fp32 67, at the bf16 GEMMs' share of their peak and sustained clock
    assert a.rate == pytest.approx(67e12 * hw.matmul_fraction * hw.sustained_fraction)
    assert a.widths == ((4096, 4096), (4096, 4096)) and a.matmul_bytes == 4


def test_backward_costs_more_than_forward_and_fp32_adapters_cost_more_than_bf16_ones():
    fp32 = Adapters(((4096, 4096),), CASTS, 4, 2, 60e12)
    bf16 = Adapters(((4096, 4096),), SAME, 2, 2, 700e12)
    f32, b32 = adapter_seconds(fp32, 8, 2048, 4.3e12, 2)
    f16, b16 = adapter_seconds(bf16, 8, 2048, 4.3e12, 2)
    assert b32 > f32 > f16 > 0 and b32 > b16


def test_host_launches_and_peft_module_calls_per_adapted_linear():
    s = _scenario()
    launch, call = host_call_seconds(s)
    fwd, bwd = adapter_host_seconds(s, DENSE_LAYER, launch, call)
    # two adapted linears: 6 launches and 4 module calls (the wrapper, Identity dropout, lora_A, lora_B) forward,
    # 9 launches backward
    assert fwd == pytest.approx(2 * (6 * launch + 4 * call)) and bwd == pytest.approx(2 * 9 * launch)
    assert adapter_host_seconds(_scenario(method="full"), DENSE_LAYER, launch, call) == (0.0, 0.0)
    tt_fwd, _ = adapter_host_seconds(_scenario(framework="torchtune"), DENSE_LAYER, launch, call)
    assert tt_fwd == pytest.approx(2 * 4 * launch)  # its own LoRALinear: no peft wrapper calls counted


def test_fp32_adapters_slow_the_step_of_an_all_linear_lora():
    s = _scenario(model="llama-3-8b", lora_rank=16, lora_targets="all-linear")
    casts = step_time(s).step_seconds
    same = step_time(dataclasses.replace(s, lora_adapter_dtype="compute")).step_seconds
    assert casts > same


def test_measured_peft_rows_take_the_casts_and_fp32_matmuls_peft_ran():
    # tests/data/gpu_measured: the PEFT LoRA rows on the H200 (bf16 model, peft's fp32 adapters, no 4-bit layers);
    # the same scenario with bf16 adapters leaves out the casts and fp32 matmuls peft ran
    moved = 0
    for path in sorted(GPU_MEASURED_DIR.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if "error" in case or case.get("qlora") or case["scenario"].get("method") != "lora":
                continue
            s = scenario_from_dict(scenario_of(case, "h200"))
            with_casts = step_time(s).step_seconds
            without = step_time(dataclasses.replace(s, lora_adapter_dtype="compute")).step_seconds
            assert without < with_casts, case["id"]
            moved += 1
    assert moved >= 6
