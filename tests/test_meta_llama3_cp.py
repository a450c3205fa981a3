"""Meta's Llama 3 context parallelism (arXiv:2407.21783 section 3.3.2): 'our CP implementation adopts an all-gather
based method where we first all-gather the key (K) and value (V) tensors ... the all-gather communication latency is
exposed in the critical path', not Transformer Engine's K/V ring, which hides behind the attention steps."""

from __future__ import annotations

import math

from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import defaults_for
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.collectives import ALL_GATHER, REDUCE_SCATTER, collective_latency
from engine.timing.context_parallel import cp_ring_seconds, kv_all_gather_seconds
from engine.timing.hardware import hardware_for

ROW_128K = "meta-llama3-405b-16384gpu-seq131072"  # Table 4: TP 8, CP 16, PP 16, DP 8, sequence 131,072


def _row_scenario(row_id: str):
    return scenario_from_dict(next(r for r in load_rows() if r["id"] == row_id)["scenario"])


def test_only_metas_stack_gathers_k_and_v():
    assert defaults_for("meta-llama3").cp_kv_all_gather
    assert not defaults_for("megatron").cp_kv_all_gather  # Transformer Engine's ring (AttnFuncWithCPAndKVP2P)
    assert not defaults_for("torchtitan").cp_kv_all_gather  # PyTorch's ring (its own K/V rotater)


def test_gather_and_scatter_of_a_128k_layer_worked_by_hand():
    """Llama 3.1 405B has 8 KV heads of 128 (GQA); TP 8 leaves each rank one head, 128 wide. At 131,072 tokens over
    CP 16 a rank holds 8,192 tokens: K and V are 2 x 8,192 x 128 x 2 bytes = 4 MiB, and it gathers the other 15
    ranks' (60 MiB: the paper's 'K and V tensors are much smaller than Q tensor due to the use of GQA'). The CP
    group is 16 ranks 8 apart, one per node, so its ring crosses the network at one NIC a GPU: the h100-sxm-80gb
    preset's 45 GB/s. Forward: that gather; backward: the reduce-scatter of dK and dV, the same bytes; each with
    NCCL's latency for 16 ranks over 16 nodes."""
    s = _row_scenario(ROW_128K)
    hw, spec = hardware_for(s), model_spec_for("llama-3.1-405b")
    assert (spec.kv_heads, spec.head_dim, s.tp, s.cp) == (8, 128, 8, 16)
    block = 2 * 8192 * 128 * 2
    assert hw.inter_bytes_per_s == 45e9
    gather = 15 * block / 45e9 + collective_latency(hw, ALL_GATHER, 16, 128, 8, 8)
    scatter = 15 * block / 45e9 + collective_latency(hw, REDUCE_SCATTER, 16, 128, 8, 8)
    tokens = s.micro_batch * s.seq_len / s.cp
    assert math.isclose(kv_all_gather_seconds(s, spec, hw, tokens, 2, True, False), gather + scatter)
    # full recomputation runs the forward's gather again; a layer without backward (frozen) has no scatter
    assert math.isclose(kv_all_gather_seconds(s, spec, hw, tokens, 2, True, True), 2 * gather + scatter)
    assert math.isclose(kv_all_gather_seconds(s, spec, hw, tokens, 2, False, False), gather)
    # cp_ring_seconds routes Meta's stack to it, whatever attention there is to hide behind
    meta = defaults_for("meta-llama3")
    assert math.isclose(cp_ring_seconds(s, spec, hw, meta, tokens, 2, 1.0, 2.0, False), gather + scatter)


def test_128k_step_pays_the_exposed_gathers_the_ring_would_hide():
    """The same run costed with Transformer Engine's ring (Megatron's framework row) hides its K/V transfers
    behind 128K attention; Meta's all-gather leaves them on the step (communication_cp)."""
    s = _row_scenario(ROW_128K)
    ring = step_time(scenario_from_dict({**next(r for r in load_rows() if r["id"] == ROW_128K)["scenario"],
                                         "framework": "megatron", "zero_stage": 1}))
    gathered = step_time(s)
    assert ring.breakdown_seconds["communication_cp"] == 0.0
    assert gathered.breakdown_seconds["communication_cp"] > 0.0


def test_time_tab_says_gather_for_metas_stack_and_ring_for_megatron():
    from engine.timing.provenance import time_provenance

    row = next(r for r in load_rows() if r["id"] == ROW_128K)["scenario"]
    gathered = time_provenance(scenario_from_dict(row))["communication_cp"]
    ring = time_provenance(scenario_from_dict({**row, "framework": "megatron", "zero_stage": 1}))["communication_cp"]
    assert "all-gather of the other cp - 1 ranks' K and V" in gathered.formula
    assert "ring" in ring.basis and not ring.formula
