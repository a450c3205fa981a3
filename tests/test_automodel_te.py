"""NeMo AutoModel's own model code with Transformer Engine modules (framework nemo-automodel-te): its element-wise
work and attention kernel, each from NVIDIA-NeMo/Automodel at 36044ad3d139363fb6c73c24af2e7c6b65ec52f6."""

import pytest

from engine import estimate, scenario_from_dict
from engine.models.presets import model_spec_for
from engine.timing import step_time
from engine.timing.costs import elementwise_bytes_per_token
from engine.timing.data import efficiency, framework_profile


def _s(framework: str):
    # the layout of examples/llm_benchmark/qwen/qwen3_moe_30b_te_deepep.yaml at 36044ad3 (EP 8 over FSDP 8)
    return scenario_from_dict({
        "model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": framework,
        "precision": "bf16", "micro_batch": 4, "grad_accum": 16, "seq_len": 4096, "attention": "flash", "fsdp": True,
        "ep": 8, "checkpointing": "full", "reshard_after_forward": False})


def test_te_modules_bytes_per_token_as_counted_from_the_layer_code():
    """components/models/qwen3_moe/model.py Block.forward and layers.py: two TE RMSNorms (4 bytes per hidden unit
    each) and two eager residual adds (6 each): 20 per hidden unit; q, k, v reach DotProductAttention as views
    (no transposes for attn te): 0 per qkv unit; TE's fused RoPE on q and k: 4 per unit of the query and key
    widths; TE RMSNorm q_norm / k_norm: 4 per unit; the experts' weighted_bias_swiglu_impl: 6 per routed MLP unit.
    Qwen3-30B-A3B: hidden 2,048, 32 query heads and 4 key/value heads of 128, top 8 of experts of width 768."""
    spec = model_spec_for("qwen3-30b-a3b")
    per = efficiency()["elementwise_bytes_per_token"]["te-modules"]
    expected = 20 * 2048 + 0 * (4096 + 2 * 512) + 6 * 8 * 768 + 4 * (4096 + 512) + 4 * (4096 + 512)
    assert elementwise_bytes_per_token(spec, True, 1, False, per) == pytest.approx(expected)


def test_profile_runs_cudnn_attention_and_plain_pytorch_memory():
    """backend attn te: Transformer Engine's get_attention_backend prefers cuDNN's fused attention over FlashAttention
    on Hopper (presets/efficiency.json frameworks nemo-automodel-te _source); everything else is the pytorch
    profile's (the same FSDP2 loop), so the memory estimate does not move and the step is shorter by the
    element-wise bytes and the attention kernel alone."""
    prof, plain = framework_profile("nemo-automodel-te"), framework_profile("pytorch")
    assert (prof["elementwise"], prof["attention_hopper"]) == ("te-modules", "cudnn")
    own = ("_source", "elementwise", "attention_hopper")
    assert {k: v for k, v in prof.items() if k not in own} == {k: v for k, v in plain.items() if k not in own}
    te, eager = _s("nemo-automodel-te"), _s("pytorch")
    assert estimate(te).total_bytes == estimate(eager).total_bytes
    fast, slow = step_time(te).breakdown_seconds, step_time(eager).breakdown_seconds
    assert fast["memory_bound"] < slow["memory_bound"] and fast["communication_ep"] == slow["communication_ep"]
