"""TRL's own trainers cast a quantised model's LoRA adapters to bf16 (huggingface/trl@f2cd57710ae3
sft_trainer.py lines 1127-1130, grpo_trainer.py 495-503), and fp16 mixed precision's GradScaler cannot unscale bf16
gradients: torch's _amp_foreach_non_finite_check_and_unscale_ CUDA kernel dispatches on
AT_DISPATCH_FLOATING_TYPES_AND_HALF (aten/src/ATen/native/cuda/AmpKernels.cu), so the first optimizer step raises
NotImplementedError (reported on T4s: MakazhanAlpamys/Soup issue #425). The estimate warns where that combination is
planned, and only there."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.scenario.behaviour import adapter_dtype_bytes, casts_adapters_to_bf16

_WORDS = "cannot unscale bf16 gradients"
_BASE = {"model": "llama-3-8b", "gpu": "t4", "method": "qlora", "lora_rank": 16, "framework": "trl",
         "micro_batch": 1, "seq_len": 512, "checkpointing": "full"}


def _warned(**kw) -> bool:
    return any(_WORDS in str(w) for w in estimate(scenario_from_dict({**_BASE, **kw})).warnings)


@pytest.mark.parametrize("precision", ["amp-fp16", "mixed-fp16"])
def test_fp16_mixed_precision_with_trls_bf16_adapters_is_warned(precision):
    assert _warned(precision=precision)


def test_no_warning_where_no_gradient_scaler_meets_bf16_adapters():
    assert not _warned(precision="fp16")  # the model in fp16 without amp (export: torch_dtype float16, no fp16 flag)
    assert not _warned(precision="bf16")
    assert not _warned(precision="amp-fp16", framework="trl-2025")  # TRL up to 0.25: peft's fp32 adapters
    assert not _warned(precision="amp-fp16", lora_adapter_dtype="fp32")  # adapters kept fp32 by hand
    assert not _warned(precision="amp-fp16", method="lora")  # no quantised model: TRL does not cast


def test_the_warning_and_the_adapter_bytes_read_one_fact():
    # the same condition sizes the adapters at 2 bytes (scenario/behaviour.py adapter_dtype_bytes)
    s = scenario_from_dict({**_BASE, "precision": "amp-fp16"})
    assert casts_adapters_to_bf16(s) and adapter_dtype_bytes(s, 2) == 2
