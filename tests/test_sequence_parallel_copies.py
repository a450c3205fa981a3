"""The copies DTensor's sequence parallelism makes on batch-first activations (torchtitan's Shard(1) plan,
torchtitan/models/llama3/parallelize_llama.py apply_tp at 820504e): torch/distributed/_functional_collectives.py
all-gathers and reduce-scatters on dim 0 and reorders dim 1 with torch.cat, one read and one write of the gathered
(b, s, h) tensor per collective (engine/timing/sequence_parallel.py)."""

from __future__ import annotations

import math

from engine.frameworks.defaults import defaults_for
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.context_parallel import ring_copy_bytes
from engine.timing.sequence_parallel import layer_copy_bytes, sp_copy_bytes

# torchtitan's async TP report (benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md at b5bcd76): Llama 3.1 8B on
# 64 H100s, FSDP 8 x TP 8, torch.compile, per-op SAC, local batch 12 (the vanilla TP column)
TITAN_TP = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", "gpus_per_node": 8,
            "nodes": 8, "tp": 8, "sequence_parallel": True, "micro_batch": 12, "seq_len": 8192, "fsdp": True,
            "checkpointing": "op-selective", "compile": True}


def _copies(**changes: object) -> tuple[float, float]:
    s = scenario_from_dict({**TITAN_TP, **changes})
    return sp_copy_bytes(s, model_spec_for(s.model), defaults_for(s.framework), 2)


def test_ten_copies_a_layer_under_per_op_checkpointing():
    """Per layer: forward 2 all-gathers (before wq/wk/wv and w1/w3) and 2 reduce-scatters (wo, w2), backward the
    same four the other way, and the per-op policy runs the 2 all-gathers again (it saves reduce_scatter_tensor's
    output, parallelize_llama.py _save_list): 10 copies of 2 x 4,096 elements x 2 bytes per token. The recompute
    repeats the forward element-wise bytes, so the forward carries the gathers' 2 and the backward the rest, 6."""
    fwd, bwd = _copies()
    copy = 2 * 4096 * 2
    assert math.isclose(fwd, 2 * copy) and math.isclose(bwd, 6 * copy)
    assert math.isclose(2 * fwd + bwd, 10 * copy)  # forward, its recompute and the backward


def test_full_checkpointing_repeats_all_four_forward_copies():
    """With full checkpointing the whole forward runs again, so all four forward copies sit in the forward."""
    fwd, bwd = _copies(checkpointing="full")
    copy = 2 * 4096 * 2
    assert math.isclose(fwd, 4 * copy) and math.isclose(bwd, 4 * copy)


def test_compiled_micro_batch_1_gathers_into_place_and_fp8_gathers_in_one_byte():
    """At micro-batch 1 the gathered chunks in order are the (1, s, h) tensor itself: Inductor takes a view after
    the all-gather (torch 2.13 output code), while the reduce-scatter's torch.cat stays; eager torch.cat always
    copies. Float8 tensorwise TP casts the input to float8 before the all-gather (torchao/float8/
    float8_tensor_parallel.py PrepareFloat8ModuleInput at 6243040), so the forward gathers' copies move 1 byte an
    element and the gradients' 2."""
    copy = 2 * 4096 * 2
    fwd, bwd = _copies(micro_batch=1)
    assert fwd == 0.0 and math.isclose(bwd, 4 * copy)
    eager = _copies(micro_batch=1, compile=False)
    assert math.isclose(eager[0], 2 * copy) and math.isclose(eager[1], 6 * copy)
    fp8 = _copies(precision="fp8")
    assert math.isclose(fp8[0], copy) and math.isclose(fp8[1], 6 * copy)


def test_no_copies_without_dtensor_batch_first_sp():
    """Megatron keeps activations sequence-first ([s, b, h]) and gathers dim 0 in place; no SP, no TP: nothing."""
    assert _copies(framework="megatron") == (0.0, 0.0)
    assert _copies(sequence_parallel=False) == (0.0, 0.0)
    assert _copies(tp=1, nodes=1) == (0.0, 0.0)
    s = scenario_from_dict({**TITAN_TP, "cp": 2, "tp": 4})
    spec, titan = model_spec_for(s.model), defaults_for(s.framework)
    ring, sp = ring_copy_bytes(s, spec, titan, 2), sp_copy_bytes(s, spec, titan, 2)
    together = layer_copy_bytes(s, spec, titan, 2)
    assert math.isclose(together[0], ring[0] + sp[0]) and math.isclose(together[1], ring[1] + sp[1])
