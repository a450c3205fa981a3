"""PyTorch's context-parallel ring attention (torch.distributed.tensor.experimental._attention at v2.6.0, git
2236df17, the release nearest the torch commit 1963fc83 of torchtitan's CP report), costed apart from Transformer
Engine's: its copies and fp32 merges, its K/V all-gather and fp32 dK/dV sends, and what torch.compile leaves
exposed."""

from __future__ import annotations

import math

from engine.frameworks.defaults import defaults_for
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.context_parallel import (
    FP32_BYTES,
    cp_ring_seconds,
    ring_copy_bytes,
    torch_ring_copy_bytes,
    torch_ring_exposed_seconds,
)
from engine.timing.hardware import hardware_for
from engine.timing.links import link, p2p_link, ring_exposed_seconds

TITAN_8B = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", "gpus_per_node": 8,
            "cp": 2, "seq_len": 65536, "fsdp": True, "checkpointing": "full", "compile": True}


def test_eager_ring_copies_at_cp_2_as_counted_rank_by_rank():
    """torch 2.6.0 _templated_ring_attention at cp = 2, load-balanced: rank 0's second step is partial (i > rank:
    the second half of the queries), rank 1's is not. Forward on both: key/value .contiguous() 4 KV, torch.cat of
    K and V at step 0 4 KV, step 0's output cast to fp32 3 Q, the final cast to bf16 3 Q; step 1 on rank 0: half
    cast 1.5 Q, the three-pass merge on half 8 Q, _partial_update's torch.cat 4 Q; on rank 1: cast 3 Q, merge 16 Q.
    Averaged: 8 KV + 22.25 Q. Backward: zeros 2 Q + 4 KV, contiguous 4 KV, cat at step 0 4 KV, step 0's dK, dV
    added 10 KV and dQ 5 Q, step 1's dK, dV (rank 1 partial add and cat 13 KV, rank 0 whole add 10 KV) and dQ
    (rank 0 partial 6.5 Q, rank 1 5 Q), the fp32 dK/dV concatenated for the send at both steps 16 KV, final casts
    3 Q + 6 KV: 15.75 Q + 55.5 KV. Llama 3.1 8B at TP 1 with torchtitan's K/V repeated to the 32 query heads
    (repeat_kv, torchtitan/models/llama/model.py at 9dec370): Q = KV = 4,096 x 2 bytes per token."""
    spec, titan = model_spec_for("llama-3.1-8b"), defaults_for("torchtitan")
    q = kv = 4096 * 2
    fwd, bwd = torch_ring_copy_bytes(spec, titan, 1, 2, 2, compiled=False)
    assert math.isclose(fwd, 8 * kv + 22.25 * q) and math.isclose(bwd, 15.75 * q + 55.5 * kv)


def test_compiled_ring_copies_are_fused_and_carry_kv_heads_unless_the_model_repeats_them():
    """Compiled, Inductor fuses each step's merge (5 Q, 4.5 Q partial) and drops the all-gather rotater's unused send
    buffers: 8 KV + 4.75 (cp - 1) Q forward, 20 KV + 10 (cp - 1) KV + 3 Q + 5 (cp - 1) Q backward, fewer bytes than
    eager. A framework that passes the 8 K/V heads (attention_kv_expanded False) moves a quarter of the K/V bytes
    of one that repeats them to 32 (Llama 3.1 8B: kv_dim 1,024, q_dim 4,096)."""
    spec = model_spec_for("llama-3.1-8b")
    titan, plain = defaults_for("torchtitan"), defaults_for("huggingface")
    assert titan.attention_kv_expanded and not plain.attention_kv_expanded
    q, kv = 4096 * 2, 4096 * 2
    fwd, bwd = torch_ring_copy_bytes(spec, titan, 1, 8, 2, compiled=True)
    assert math.isclose(fwd, 8 * kv + 7 * 4.75 * q) and math.isclose(bwd, 90 * kv + 38 * q)
    eager = torch_ring_copy_bytes(spec, titan, 1, 8, 2, compiled=False)
    assert eager[0] > fwd and eager[1] > bwd
    narrow = torch_ring_copy_bytes(spec, plain, 1, 8, 2, compiled=True)
    assert math.isclose(fwd - narrow[0], 8 * (kv - kv / 4)) and math.isclose(bwd - narrow[1], 90 * (kv - kv / 4))


def test_compiled_ring_waits_for_every_collective_at_once():
    """Under torch.compile the ring's functional collectives are traced with their wait right after them
    (torch/distributed/_functional_collectives.py _maybe_wrap_tensor at v2.6.0), so a layer's exposed ring time is
    the K/V all-gather ((cp - 1) shards of K and V over the group's link) of the forward, of its recompute under
    full checkpointing and of the backward, plus cp fp32 dK/dV sends over one ring hop, whatever the attention
    time; eager, the all-gathers hide behind the first step's kernel and only the last send is left."""
    s = scenario_from_dict({**TITAN_8B, "cp": 8, "seq_len": 262144})
    spec, hw, titan = model_spec_for("llama-3.1-8b"), hardware_for(s), defaults_for("torchtitan")
    tokens, block = 32768, 2 * 32768 * 4096
    gather_bw, p2p = link(hw, 8, 8)[0], p2p_link(hw, 8, 8)
    compiled = torch_ring_exposed_seconds(s, spec, hw, titan, tokens, 2, 1.0, 2.5, recomputed=True)
    gather, send = 7 * block * 2 / gather_bw, block * FP32_BYTES / p2p[0] + p2p[1]
    assert math.isclose(compiled, 3 * gather + 8 * send, rel_tol=0.01)  # the all-gather latency is microseconds
    assert compiled == torch_ring_exposed_seconds(s, spec, hw, titan, tokens, 2, 0.001, 0.0025, recomputed=True)
    eager = scenario_from_dict({**TITAN_8B, "cp": 8, "seq_len": 262144, "compile": False})
    assert math.isclose(torch_ring_exposed_seconds(eager, spec, hw, titan, tokens, 2, 1.0, 2.5, recomputed=True), send)


def test_megatron_keeps_transformer_engines_ring_and_copies():
    """Frameworks whose CP runs in Transformer Engine's attention (cp_ring_attention False) keep its K/V send/recv
    ring (links.ring_exposed_seconds) and its copies (te_ring_copy_bytes); torchtitan's go through PyTorch's."""
    from engine.timing.context_parallel import te_ring_copy_bytes

    s = scenario_from_dict({**TITAN_8B, "framework": "megatron", "compile": False})
    spec, hw, mega = model_spec_for("llama-3.1-8b"), hardware_for(s), defaults_for("megatron")
    bw, lat = p2p_link(hw, 2, 8)
    expected = ring_exposed_seconds(2 * 32768 * spec.kv_dim * 2, 2, bw, lat, 0.01, 0.025)
    assert cp_ring_seconds(s, spec, hw, mega, 32768, 2, 0.01, 0.025, recomputed=True) == expected
    assert ring_copy_bytes(s, spec, mega, 2) == te_ring_copy_bytes(spec, 1, 2, 2)
    titan = scenario_from_dict(TITAN_8B)
    assert ring_copy_bytes(titan, spec, defaults_for("torchtitan"), 2) == torch_ring_copy_bytes(
        spec, defaults_for("torchtitan"), 1, 2, 2, compiled=True)


def test_torchtitan_cp_step_slows_with_the_ring_it_runs():
    """The torchtitan CP report's 405B layout (TP 8 x PP 8 x CP 8 across nodes, benchmarks/llama3_h100_202412_
    torchtitan.md Table 6): its ring's all-gathers and fp32 dK/dV sends cross the network, exposed under compile,
    so the step carries a context-parallel communication term; eager (compile false), the all-gather still outlasts
    the first step's kernel over the network, but the sends hide."""
    from engine.timing.model import step_time

    base = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", "gpus_per_node": 8,
            "nodes": 64, "tp": 8, "pp": 8, "cp": 8, "seq_len": 262144, "grad_accum": 8, "fsdp": True,
            "checkpointing": "full", "sequence_parallel": True, "precision": "fp8"}
    compiled = step_time(scenario_from_dict({**base, "compile": True})).breakdown_seconds["communication_cp"]
    eager = step_time(scenario_from_dict({**base, "compile": False})).breakdown_seconds["communication_cp"]
    assert compiled > 2 * eager > 0.0
