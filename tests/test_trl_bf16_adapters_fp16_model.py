"""TRL's bf16 QLoRA adapters (huggingface/trl@f2cd57710ae3 sft_trainer.py 1127-1130) on a model run in fp16 without
autocast (precision fp16 / mixed-fp16): peft casts each adapted linear's input to the adapters' dtype whenever the
DTYPES differ (peft 0.21.0 tuners_utils.py _cast_input_dtype lines 2220-2235: returns x only where x.dtype == dtype;
lora/bnb.py Linear4bit.forward casts x to lora_A's dtype and the product back), so fp16 into bf16 takes a 2-byte copy
per adapted linear that lora_A keeps for its weight gradient, although both are 2 bytes; the planner compared bytes
and counted none. Expected bytes: Llama-3-8B's config (hidden 4096, intermediate 14336) and the casts' element count."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.lora_adapters import CASTS_4BIT, SAME, adapter_path, adapters_of
from engine.timing.model import rates_for

TOKENS = 1024
DENSE_LAYER = (False, False, "")  # a dense decoder layer: (moe, linear_attn, block)


def _s(**kw):
    base = {"model": "llama-3-8b", "gpu": "a100-80gb", "precision": "fp16", "micro_batch": 1, "seq_len": TOKENS,
            "method": "qlora", "lora_rank": 16, "lora_targets": "all-linear", "framework": "trl", "checkpointing": "full"}
    return scenario_from_dict({**base, **kw})


def _layer_bytes(s) -> float:
    return dict(next(c for c in estimate(s).components if c.key == "activations").inputs)["per_layer_bytes"]


@pytest.mark.parametrize("precision", ["fp16", "mixed-fp16"])
def test_fp16_inputs_into_bf16_adapters_keep_a_cast_each(precision):
    # q, k, v, o, gate, up read 4096-wide inputs, down 14336: one bf16 copy each, 2 bytes a value
    casts = 2 * TOKENS * (6 * 4096 + 14336)
    assert _layer_bytes(_s(precision=precision)) - _layer_bytes(_s(precision="bf16")) == casts


def test_no_cast_where_the_dtypes_agree():
    assert _layer_bytes(_s(precision="bf16")) == _layer_bytes(_s(precision="bf16", lora_adapter_dtype="compute"))
    assert _layer_bytes(_s(lora_adapter_dtype="compute")) == _layer_bytes(_s(precision="bf16"))  # fp16 adapters


def test_time_takes_the_cast_path_with_tensor_core_adapter_gemms():
    s = _s()
    assert adapter_path(s) == CASTS_4BIT and adapter_path(_s(precision="bf16")) == SAME
    hw = hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    a = adapters_of(s, resolve_model(s), DENSE_LAYER, hw, rates)
    # bf16 rank-r GEMMs on the tensor cores (the model's 16-bit rate), not fp32 adapters' CUDA-core SGEMM
    assert a.matmul_bytes == 2 and a.rate == rates.gemm
