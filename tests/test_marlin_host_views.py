"""vLLM's Marlin int4 linears in the eager decode's host term (engine/serving/host_iteration.py marlin_views_seconds):
vLLM 0.9.1 quantization/utils/marlin_utils.py apply_awq_marlin_linear reshapes its input to 2-D and its output back
(two views) where the unquantized linear calls F.linear alone (layers/linear.py UnquantizedLinearMethod.apply), in each
of a dense layer's four GEMMs (qkv_proj, o_proj, gate_up_proj, down_proj)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.host_iteration import decode_host_seconds, marlin_views_seconds
from engine.serving.scenario_estimate import serving_memory
from engine.timing.host import host_call_seconds


def _scenario(weight_format: str, engine: str = "vllm"):
    return scenario_from_dict({"model": "qwen3-14b", "gpu": "a100-80gb", "workload": "inference",
                               "serving_engine": engine, "weight_format": weight_format, "enforce_eager": True})


def test_eight_views_a_dense_layer() -> None:
    s = _scenario("awq-int4")
    assert marlin_views_seconds(s, resolve_model(s)) == pytest.approx(4 * 2 * host_call_seconds(s)[1])


def test_they_add_to_the_eager_decode_over_every_layer() -> None:
    awq, bf16 = _scenario("awq-int4"), _scenario("bf16")
    spec = resolve_model(awq)
    added = decode_host_seconds(awq, spec, serving_memory(awq), 1) - decode_host_seconds(bf16, spec, serving_memory(bf16), 1)
    assert added == pytest.approx(spec.layers * 8 * host_call_seconds(awq)[1])


def test_only_vllm_marlin_formats() -> None:
    for s in (_scenario("bf16"), _scenario("fp8"), _scenario("awq-int4", "sglang")):
        assert marlin_views_seconds(s, resolve_model(s)) == 0.0
