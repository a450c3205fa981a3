"""The detailed estimator against peaks measured on traced training steps.

Reference figures (issue 3): Llama-2-7B, b=1, s=2048, measured with PyTorch's MemTracker under
FakeTensorMode (second step, 512-byte rounding), transformers' LlamaForCausalLM.
"""

import pytest

from engine import estimate, scenario_from_dict

SBH = 2048 * 4096


def run(**kw):
    return estimate(scenario_from_dict({"model": "llama-2-7b", "micro_batch": 1, "seq_len": 2048, **kw}))


def per_layer(est):
    act = next(c for c in est.components if c.key == "activations")
    return dict(act.inputs)["per_layer_bytes"]


@pytest.mark.parametrize(("kw", "measured_sbh"), [
    ({"precision": "bf16", "attention": "sdpa"}, 45.5),
    ({"precision": "amp-bf16", "attention": "sdpa"}, 103.8),
    ({"precision": "amp-bf16", "attention": "eager"}, 199.8),
])
def test_per_layer_activations(kw, measured_sbh):
    assert per_layer(run(**kw)) / SBH == pytest.approx(measured_sbh, rel=0.005)


def test_full_checkpointing_keeps_layer_inputs():
    est = run(precision="bf16", checkpointing="full")
    act = next(c for c in est.components if c.key == "activations")
    assert act.moments[0] / 32 / SBH == pytest.approx(2.0, rel=0.005)


@pytest.mark.parametrize(("kw", "measured", "phase"), [
    ({"precision": "fp32", "optimizer": "adamw"}, 134_768_478_720, "optimizer"),
    ({"precision": "bf16", "optimizer": "adamw"}, 67_384_322_560, "optimizer"),
    ({"precision": "amp-bf16", "optimizer": "adamw-fused"}, 109_854_813_696, "backward"),
])
def test_step_peaks(kw, measured, phase):
    est = run(**kw)
    assert est.peak_allocated_bytes == pytest.approx(measured, rel=0.005)
    assert est.peak_phase == phase
