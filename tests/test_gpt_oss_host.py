"""GPT-OSS's eager kernels in the host term (engine/timing/gpt_oss_host.py; presets/host_overhead.json gpt_oss_eager).

The expected counts are the ones the preset derives from Megatron-LM at core_v0.16.1, operation by operation: YaRN's
eager rotation (rope_utils.py _apply_rotary_pos_emb_bshd: 12 kernels for q and for k against the fused stack's 1 each;
backward 7 against 1) and the unfused attention output bias (+1 each way) give 23 / 13; the clamped GLU's clamps, cat
and offset copy plus _apply_bias's cat give 5 forward launches after the dispatcher's synchronisation, and 2 per local
expert (b x p, t + b x p); backward the clamps' masks, the chunk's and the splits' concatenations (7), 4 per local
expert (two products and two sums), and Megatron's backward hook adding each bias's gradient into main_grad (fc1's
and fc2's of each local expert, and the QKV, projection and router biases: 3)."""

from __future__ import annotations

import pytest

import engine.timing.host as host
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.gpt_oss_host import NONE, fc1_bias_grad, glu_tail_gpu, glu_tail_host, gpt_oss_eager
from engine.timing.host import LayerHost, LayerWork, captured_parts, exposed_host_seconds, host_call_seconds, layer_host


def _scenario(**keys):
    """Megatron-Bridge's gpt-oss-120b H100 preset (scripts/performance/configs/gpt_oss at v0.4.0: PP 4, EP 8, MBS 1)."""
    return scenario_from_dict({"model": "gpt-oss-120b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8,
                               "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 80,
                               "seq_len": 4096, "tp": 1, "pp": 4, "ep": 8, **keys})


def _eager(s):
    return gpt_oss_eager(s, True, True, captured_parts(s))


def test_counts_per_layer_follow_the_local_experts():
    """EP 8 of 128 experts leaves 16 local experts: 5 + 2 x 16 = 37 launches after the sync; backward 13 + 3 + 7 +
    (4 + 2) x 16 = 119; EP 64 leaves 2: 9 and 35. One extra synchronisation per forward (the GLU's offset copy)."""
    assert _eager(_scenario()) == (23, 119, 37, 1, 33, 0)
    assert _eager(_scenario(ep=64, pp=1, micro_batch=4, grad_accum=5, nodes=16, gpus_per_node=4, gpu="gb200")) == (
        23, 35, 9, 1, 5, 0)


def test_recomputed_activation_runs_the_clamps_again():
    """recompute_modules moe_act reruns bias_act_func (experts.py CheckpointWithoutOutput): its 4 launches again."""
    plain = _eager(_scenario())
    recomputed = _eager(_scenario(checkpointing="selective", recompute_modules=["layernorm", "moe_act"]))
    assert recomputed.backward - plain.backward == 4
    assert (plain.backward_syncs, recomputed.backward_syncs) == (0, 1)  # the offset copy synchronises again


def test_captured_or_fused_parts_launch_nothing_of_their_own():
    """TE-scoped graphs of the attention replay the rotation and the bias add (the bias hooks still run after the
    graphed backward: 3); Transformer Engine's fused grouped MLP clamps and adds the experts' biases inside."""
    graphed = _eager(_scenario(cuda_graphs="attention"))
    assert (graphed.forward, graphed.experts) == (0, 37)
    fused = _eager(_scenario(fused_expert_mlp=True))
    assert fused == (23, 13 + 3, 0, 0, 0, 0)


def test_only_a_model_with_expert_biases_under_megatron_gets_them():
    assert _eager(_scenario(model="qwen3-30b-a3b")) == NONE
    assert _eager(_scenario(framework="huggingface")) == NONE
    assert gpt_oss_eager(_scenario(), True, False, frozenset()) == NONE  # a dense layer


def test_the_launches_reach_the_layer_host_at_the_launch_price():
    """layer_host's forward grows by the extra launches at launch_seconds, its experts' block by theirs, and the
    layer synchronises twice per forward; a model without expert biases is unchanged by construction."""
    s = _scenario()
    launch = host_call_seconds(s)[0]
    with_oss = layer_host(s, True, (True, False, ""))
    extra = _eager(s)
    assert with_oss.syncs == 2
    qwen = layer_host(_scenario(model="qwen3-30b-a3b"), True, (True, False, ""))
    assert qwen.syncs == 1
    assert with_oss.block >= (extra.experts) * launch
    assert with_oss.forward - with_oss.block >= extra.forward * launch - 1e-12
    assert with_oss.backward >= extra.backward * launch
    assert extra.forward * launch == pytest.approx(23 * 9.02e-6)


def test_the_glu_synchronisation_splits_the_experts_block():
    """After the GLU's offset copy the host issues the activation, fc2, unsort, combine, unpermute and residual (6
    stack launches), fc2's bias per local expert and its cat (2 x 16 + 1), fc2's half of the GroupedLinear per-expert
    work and 5 of the 9 moe_experts module calls; the GPU work it can hide behind is the activation and fc2's GEMMs,
    a third of a gated expert's GEMM time (fc2 is f x h against fc1's 2f x h)."""
    s = _scenario()
    launch = host_call_seconds(s)[0]
    oss = _eager(s)
    assert oss.tail == 2 * 16 + 1
    assert glu_tail_host(oss, launch, 0.0, 0.0) == pytest.approx((6 + 33) * launch)
    assert glu_tail_host(oss, launch, 2e-3, 9e-4) == pytest.approx((6 + 33) * launch + 1e-3 + 5e-4)
    assert glu_tail_host(NONE, launch, 2e-3, 9e-4) == 0.0
    assert glu_tail_gpu(resolve_model(s), 3e-3, 1e-4) == pytest.approx(1e-3 + 1e-4)
    assert glu_tail_gpu(resolve_model(_scenario(model="qwen3-30b-a3b")), 3e-3, 1e-4) == 0.0
    assert layer_host(s, True, (True, False, "")).tail > (6 + 33) * launch


def test_a_host_bound_tail_is_exposed_even_where_the_whole_block_hides(monkeypatch):
    """exposed_host_seconds: with the block's host (1.8 ms) under its GPU (1.9 ms) nothing of the block waited; the
    tail's host (1.1 ms) over its GPU (0.8 ms) now waits 0.3 ms, the part before (0.7 against 1.1 ms) none."""
    s = _scenario()
    work = (LayerWork(1, True, 3.5e-3, 0.0, False, 1.9e-3, (True, False, ""), 0.8e-3),)
    monkeypatch.setattr(host, "layer_host", lambda *a, **k: LayerHost(3.0e-3, 0.0, 0.0, 2, 1.8e-3, 1.1e-3))
    split = exposed_host_seconds(s, True, work, 0.0)
    monkeypatch.setattr(host, "layer_host", lambda *a, **k: LayerHost(3.0e-3, 0.0, 0.0, 2, 1.8e-3, 0.0))
    whole = exposed_host_seconds(s, True, work, 0.0)
    assert split - whole == pytest.approx(0.3e-3)


def test_a_backward_synchronisation_costs_its_round_trip_and_launch(monkeypatch):
    """The recomputed GLU's synchronisation in the backward: sync_seconds + launch_seconds per layer that runs a
    backward (presets/host_overhead.json: 26.11 us + 9.02 us on the DGX H100 host), none in a forward-only pass."""
    s = _scenario()
    fig = host.host_figures()
    monkeypatch.setattr(host, "layer_host", lambda *a, **k: LayerHost(0.0, 0.0, 0.0, 0, 0.0, 0.0, 1))
    with_backward = exposed_host_seconds(s, True, (LayerWork(3, True, 1e-3, 2e-3, False),), 0.0)
    forward_only = exposed_host_seconds(s, True, (LayerWork(3, True, 1e-3, 0.0, False),), 0.0)
    assert with_backward == pytest.approx(3 * (fig["sync_seconds"]["value"] + fig["launch_seconds"]["value"]))
    assert forward_only == 0.0


def test_fc1_bias_gradient_per_local_expert():
    """fc1's bias is applied by Transformer Engine (Megatron-LM core_v0.16.1 experts.py: linear_fc1 skip_bias_add False,
    linear_fc2 True): in bf16 its gradient is cuBLASLt's BGRADB epilogue inside each expert's wgrad GEMM
    (TransformerEngine v2.14 cublaslt_gemm.cu lines 665-672: no launch) after general_grouped_gemm allocates it
    (cpp_extensions/gemm.py lines 220-224: one call); in MXFP8 tex.bgrad_quantize per expert (grouped_linear.py at
    v2.16 lines 387-396) runs the cast with dbias partials and reduce_dbias (quantize_mxfp8.cuh line 842: one launch
    beyond split_quantize's one) and allocates the gradient and the workspace (bias.cpp: two calls)."""
    s = _scenario()
    spec = resolve_model(s)
    assert fc1_bias_grad(s, spec, "") == (0, 1)
    assert fc1_bias_grad(s, spec, "mxfp8") == (1, 2)
    qwen = _scenario(model="qwen3-30b-a3b")
    assert fc1_bias_grad(qwen, resolve_model(qwen), "") == (0, 0)  # no expert biases
    hf = _scenario(framework="huggingface")
    assert fc1_bias_grad(hf, spec, "") == (0, 0)


def test_fc1_bias_gradient_reaches_the_expert_backward(monkeypatch):
    """expert_host_seconds' backward carries the 16 local experts' bias-gradient work once (fc1 only), at the
    launch and Python-call prices (bf16: one allocation an expert; MXFP8: a launch and two allocations); the forward
    is untouched."""
    s = _scenario()
    launch, call = host_call_seconds(s)
    bf16, mxfp8 = host.expert_host_seconds(s, "", True), host.expert_host_seconds(s, "te-mxfp8", True)
    monkeypatch.setattr(host, "fc1_bias_grad", lambda *_: (0, 0))
    bf16_without, mxfp8_without = host.expert_host_seconds(s, "", True), host.expert_host_seconds(s, "te-mxfp8", True)
    assert (bf16[0], mxfp8[0]) == (bf16_without[0], mxfp8_without[0])
    assert bf16[1] - bf16_without[1] == pytest.approx(16 * call)
    assert mxfp8[1] - mxfp8_without[1] == pytest.approx(16 * (launch + 2 * call))
