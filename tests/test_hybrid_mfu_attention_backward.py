"""A hybrid stack's MFU numerator counts its core attention's backward as twice its forward wherever a gradient
flows, as the dense count's 4 + 8 per key does: the core attention (QK^T, PV) has no weights, so a LoRA run, which
computes no base weight gradients, still runs both of its backward matmuls. The hybrid count scaled it by
(1 + backward share + weight-gradient share), and the whole-attention addition likewise: equal for full training,
low for LoRA on a Nemotron-H (h-review21 found, not fixed, item f). Megatron-Bridge's core attention is 2 h p s a
token and layer forward (flop_utils.py at 067f987d attn_layer_flops), the causal half of the whole 4 h p s."""

import pytest

from engine.models.presets import get_model_preset
from engine.timing.hybrid_flops import (
    bridge_training_flops_per_token,
    core_attention_forward_flops,
    hybrid_model_of,
    hybrid_step_flops_per_token,
)
from engine.timing.mfu import model_flops_per_token

SEQ = 8192


@pytest.fixture(scope="module")
def spec():
    return get_model_preset("nemotron-3-nano-30b-a3b").spec


def test_full_training_keeps_megatron_bridges_count(spec):
    # forward x 3 (flop_utils.py hybrid_flops): the split changes nothing where every gradient runs
    model = hybrid_model_of(spec)
    assert hybrid_step_flops_per_token(spec, SEQ) == pytest.approx(bridge_training_flops_per_token(model, SEQ))
    assert core_attention_forward_flops(model, SEQ) == pytest.approx(
        model.count("attention") * 2 * spec.q_dim * SEQ)


@pytest.mark.parametrize(("backward_share", "weight_grad_share"), [(1.0, 0.0), (0.5, 0.0), (1.0, 0.5)])
def test_the_core_attention_backward_does_not_follow_the_weight_gradients(spec, backward_share, weight_grad_share):
    model = hybrid_model_of(spec)
    forward = bridge_training_flops_per_token(model, SEQ) / 3
    core = core_attention_forward_flops(model, SEQ)
    causal = model_flops_per_token(spec, SEQ, backward_share, weight_grad_share)
    assert causal == pytest.approx((forward - core) * (1 + backward_share + weight_grad_share)
                                   + core * (1 + 2 * backward_share))
    # every key: the whole adds as much again as the causal half, forward and backward alike
    whole = model_flops_per_token(spec, SEQ, backward_share, weight_grad_share, causal=False)
    assert whole - causal == pytest.approx(core * (1 + 2 * backward_share))
