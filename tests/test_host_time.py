"""Issue 23 item 2: a per-kernel launch and host cost per layer and micro-batch, with CUDA graphs on or off.

Expected values come from presets/host_overhead.json's sources: 9.02 us per eager kernel launch and 26.11 us per
device-to-host round trip (jingyaogong/minimind pull request #837, bare-metal Linux); one host synchronisation per MoE
layer forward in Megatron's token dispatchers (NVIDIA/Megatron-LM megatron/core/transformer/moe/token_dispatcher.py
at d98e8a64: cuda_sync_point 'before_ep_alltoall'); the launches per layer part counted from Megatron-Core's and
Hugging Face's layer code (the preset's stacks); a captured CUDA graph costs one launch (Megatron's cuda_graph_scope,
NVIDIA/Megatron-LM pull request #1917: attn captures the attention, moe_router the MoE layer up to the router)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.timing import step_time
from engine.timing.host import LayerWork, exposed_host_seconds, host_figures, launches, syncs_per_forward
from engine.timing.provenance import ASSUMED, time_provenance

LAUNCH = 9.02e-6  # minimind PR #837: 'kernel launch (no sync) : 9.02 us'
SYNC = 26.11e-6  # minimind PR #837: 'device->host round trip : 26.11 us'
QWEN3_MOE = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "framework": "megatron",
             "micro_batch": 1, "grad_accum": 64, "seq_len": 4096, "ep": 16, "zero_stage": 1}


def _s(**keys: object):
    return scenario_from_dict({**QWEN3_MOE, **keys})


def test_the_figures_are_the_sources():
    fig = host_figures()
    assert fig["launch_seconds"]["value"] == pytest.approx(LAUNCH)
    assert fig["sync_seconds"]["value"] == pytest.approx(SYNC)
    assert "minimind" in fig["launch_seconds"]["_source"] and "token_dispatcher.py" in fig["syncs"]["_source"]


def test_cuda_graphs_replace_the_launches_they_capture():
    stack = host_figures()["stacks"]["fused"]
    eager = sum(stack[p][0] for p in ("attention", "moe_router", "moe_experts"))
    assert launches(_s(), True, True)[0] == eager
    # attn + moe_router captured: their launches become one graph launch; dispatch, experts and combine stay eager
    assert launches(_s(cuda_graphs="attention"), True, True)[0] == stack["moe_experts"][0] + 1
    assert launches(_s(cuda_graphs="layers"), True, True) == (1, 1)
    assert launches(_s(cuda_graphs="full-iteration"), True, True) == (0, 0)


def test_fp8_gemms_add_their_casts():
    """Transformer Engine casts each fp8 GEMM's input (forward) and output gradient (backward) in one kernel, two with
    current scaling (amax, then cast); a MoE layer has 4 fp8 GEMMs (QKV, projection, grouped fc1 and fc2)."""
    plain = launches(_s(), True, True)
    assert launches(_s(), True, True, "te-delayed") == (plain[0] + 4, plain[1] + 4)
    assert launches(_s(), True, True, "te-tensorwise") == (plain[0] + 8, plain[1] + 8)


def test_one_dispatcher_sync_per_moe_layer_forward_unless_captured():
    assert syncs_per_forward(_s(), moe=True) == 1
    assert syncs_per_forward(_s(), moe=False) == 0
    assert syncs_per_forward(_s(cuda_graphs="attention"), moe=True) == 1  # the dispatcher still reads its counts
    assert syncs_per_forward(_s(cuda_graphs="layers"), moe=True) == 0  # a captured MoE layer has static shapes


def test_after_a_sync_the_gpu_waits_the_round_trip_and_the_first_launch():
    # the GPU work of the layer outlasts the host's launches: only the sync's round trip and first launch show
    work = (LayerWork(1, True, forward=1.0, backward=2.0, recompute=False),)
    assert exposed_host_seconds(_s(), True, work, 0.0) == pytest.approx(SYNC + LAUNCH)
    # full recompute runs the forward (and its sync) again in the backward
    work = (LayerWork(1, True, forward=1.0, backward=2.0, recompute=True),)
    assert exposed_host_seconds(_s(), True, work, 0.0) == pytest.approx(2 * (SYNC + LAUNCH))


def test_without_a_sync_the_host_shows_only_where_it_outlasts_the_gpu():
    stack = host_figures()["stacks"]["eager"]
    launched = sum(stack[p][0] + stack[p][1] for p in ("attention", "mlp"))
    idle = (LayerWork(1, False, forward=0.0, backward=1e-12, recompute=False),)  # a layer that trains, GPU idle
    assert exposed_host_seconds(_s(), False, idle, 0.0) == pytest.approx(launched * LAUNCH)
    busy = (LayerWork(1, False, forward=1e-3, backward=2e-3, recompute=False),)
    assert exposed_host_seconds(_s(), False, busy, 0.0) == 0.0


def test_the_host_term_is_a_cost_per_micro_batch():
    """A fixed cost per micro-batch weighs more at micro-batch 1 than at 4 (the regime of issue 23's MoE rows)."""
    one, four = step_time(_s()), step_time(_s(micro_batch=4, grad_accum=16))
    assert one.breakdown_seconds["host"] == pytest.approx(4 * four.breakdown_seconds["host"], rel=0.05)
    assert one.breakdown_seconds["host"] / one.step_seconds > four.breakdown_seconds["host"] / four.step_seconds
    assert step_time(_s(cuda_graphs="full-iteration")).breakdown_seconds["host"] == 0.0
    graphed = step_time(_s(cuda_graphs="attention")).breakdown_seconds["host"]
    assert 0 < graphed <= one.breakdown_seconds["host"]


def test_a_dense_gpu_bound_step_waits_for_nothing():
    t = step_time(scenario_from_dict({"model": "llama-3-8b"}))
    assert t.breakdown_seconds["host"] == 0.0


def test_the_host_term_says_it_rests_on_another_machines_figures():
    p = time_provenance(_s())["host"]
    assert p.kind == ASSUMED and "another machine" in p.basis


def test_graphing_attention_and_router_is_neutral_where_the_host_runs_ahead():
    """NVIDIA-NeMo/Megatron-Bridge docs/training/cuda-graphs.md at 067f987d ('Representative Validation Patterns'):
    Qwen3 30B A3B, H100 BF16, 16 GPUs, EP 16, MBS 1, all-to-all dispatcher: Transformer Engine graphs of attn,
    moe_router and moe_preprocess replayed at 42.00 s per iteration against 41.36 s eager (1.5% apart, the graphed
    run not faster). The host's launches hide behind the GPU there, so capturing them moves the step by under 2%."""
    bf16 = {"precision": "bf16", "moe_token_dispatcher_type": "alltoall", "grad_accum": 64}
    eager, graphed = step_time(_s(**bf16)), step_time(_s(cuda_graphs="attention", **bf16))
    assert abs(graphed.step_seconds / eager.step_seconds - 1) < abs(42.00 / 41.36 - 1) + 0.005


def test_internevo_synchronises_in_every_layers_rotary():
    """InternEvo at c18bec9 reads seqlen = indexes.max().item() + 1 in every layer's RotaryEmbedding
    (InternLM/InternEvo internlm/model/embedding.py line 154; the indexes reach the GPU with the batch): one host
    synchronisation per dense layer forward, so each of them costs the round trip and the first launch."""
    internevo = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "framework": "internevo"})
    assert syncs_per_forward(internevo, moe=False) == 1
    work = (LayerWork(32, False, forward=1e-2, backward=2e-2, recompute=False),)
    assert exposed_host_seconds(internevo, False, work, 0.0) == pytest.approx(32 * (SYNC + LAUNCH))
    assert step_time(internevo).breakdown_seconds["host"] > 0.0
