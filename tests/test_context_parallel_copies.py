"""Transformer Engine's context-parallel attention: the copies and merges around its ring steps, counted from the
code, are element-wise work in Megatron's layers and not in frameworks whose ring attention is PyTorch's."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict


def test_te_ring_copies_at_cp_2_as_counted_in_transformer_engine_v1_13():
    """transformer_engine/pytorch/attention.py at v1.13, AttnFuncWithCPAndKVP2P with cp = 2, causal, sbhd, averaged
    over ranks 0 and 1. Forward: torch.cat(k, v) 4 KV; out zero-filled 1 Q; step 0 merged on both ranks 3 Q; step 1
    on rank 0 takes q[1].contiguous() 1 Q and merges half 1.5 Q, on rank 1 k/v[0].contiguous() 2 KV and merges 3 Q:
    6.75 Q + 5 KV. Backward: kv copied into the send buffer 4 KV; rank 0: q/out/dout[1].contiguous() 3 Q, dq[1].copy_
    1 Q, then dq[0].copy_ + dq[1].add_ 2.5 Q, torch.cat(dk, dv) 4 + 4 KV, dkv.copy_ 4 KV, half add + half copy 5 KV;
    rank 1: kv[0].contiguous() 2 KV, dq.copy_ 2 Q, dq.add_ 3 Q, cat 2 + 4 KV, dkv[0].copy_ 2 KV, dkv.add_ 6 KV:
    5.75 Q + 20.5 KV. Llama 3.1 70B at TP 4: Q = 8,192 / 4 x 2 bytes, KV = 1,024 / 4 x 2 bytes per token."""
    from engine.models.presets import model_spec_for
    from engine.timing.context_parallel import te_ring_copy_bytes

    q, kv = 8192 / 4 * 2, 1024 / 4 * 2
    fwd, bwd = te_ring_copy_bytes(model_spec_for("llama-3.1-70b"), 4, 2, 2)
    assert math.isclose(fwd, 6.75 * q + 5 * kv) and math.isclose(bwd, 5.75 * q + 20.5 * kv)


def test_megatron_context_parallel_layers_carry_the_copies_and_torchtitan_ones_do_not():
    """A layer at CP 2 with the copies costs tokens x te_ring_copy_bytes / memory bandwidth more element-wise time,
    forward and backward; Megatron's CP runs in Transformer Engine's attention (frameworks cp_ring_attention False,
    which the time model passes as copy_bytes_per_token through context_parallel.ring_copy_bytes), torchtitan's in PyTorch's
    ring attention (True), whose copies are counted apart (torch_ring_copy_bytes)."""
    from engine.frameworks.defaults import defaults_for
    from engine.models.presets import model_spec_for
    from engine.timing.context_parallel import ring_copy_bytes, te_ring_copy_bytes, torch_ring_copy_bytes
    from engine.timing.costs import layer_cost
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "cp": 2,
                            "gpus_per_node": 2, "seq_len": 8192})
    rates, spec, tokens = rates_for(s, hardware_for(s), framework_profile("megatron")), model_spec_for("llama-3.1-8b"), 4096
    args = (spec, False, tokens, 8192, 1, 1, 2, False, rates, "fused", "fused", "", (), 0, 0)
    fwd, bwd = te_ring_copy_bytes(spec, 1, 2, rates.elem_bytes)
    assert ring_copy_bytes(s, spec, defaults_for("megatron"), rates.elem_bytes) == (fwd, bwd)
    plain, copies = layer_cost(*args), layer_cost(*args, copy_bytes_per_token=(fwd, bwd))
    assert math.isclose(copies.elem_fwd - plain.elem_fwd, tokens * fwd / rates.memory)
    assert math.isclose(copies.elem_bwd - plain.elem_bwd, tokens * bwd / rates.memory)
    assert not defaults_for("megatron").cp_ring_attention and defaults_for("torchtitan").cp_ring_attention
    titan = scenario_from_dict({**s.to_dict(), "framework": "torchtitan"})
    assert ring_copy_bytes(titan, spec, defaults_for("torchtitan"), rates.elem_bytes) == torch_ring_copy_bytes(
        spec, defaults_for("torchtitan"), 1, 2, rates.elem_bytes, titan.compile)


def test_context_parallel_ranks_reduce_gradients_and_shard_the_optimizer_with_the_data_parallel_ones():
    """Megatron-Core core_r0.9.0 distributed/distributed_data_parallel.py reduces gradients over
    get_data_parallel_group(with_context_parallel=True) and its distributed optimizer shards over the same group,
    as the memory model does (memory/model_states.py dp_shards = dp x cp): CP 2 with a single data-parallel replica
    still reduces gradients between the two CP ranks, and each rank steps half the parameters (its passes over its
    whole gradient buffer, zero_grad_buffer and the norm check, stay whole: engine/timing/offload.py
    grad_buffer_step_bytes)."""
    from engine.memory.states import dtypes_for
    from engine.scenario import resolve_model
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import step_time
    from engine.timing.offload import grad_buffer_step_bytes

    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "gpus_per_node": 2,
            "seq_len": 8192, "zero_stage": 1, "distributed_optimizer": True}
    one = step_time(scenario_from_dict({**base, "cp": 2})).breakdown_seconds
    two = step_time(scenario_from_dict({**base, "gpus_per_node": 4, "cp": 4})).breakdown_seconds
    plain = step_time(scenario_from_dict({**base, "gpus_per_node": 1})).breakdown_seconds
    assert one["communication_dp"] > 0.0 and plain["communication_dp"] == 0.0
    s = scenario_from_dict({**base, "gpus_per_node": 1})
    whole = grad_buffer_step_bytes(s, framework_profile("megatron"), dtypes_for(s), 0.0,
                                   resolve_model(s).total_params) / hardware_for(s).memory_bytes_per_s
    assert whole > 0.0
    assert math.isclose(one["optimizer"] - whole, (plain["optimizer"] - whole) / 2)
    assert math.isclose(two["optimizer"] - whole, (plain["optimizer"] - whole) / 4)
