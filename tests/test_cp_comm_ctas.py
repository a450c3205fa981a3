"""Two per-step costs of MLPerf Training v5.1's Llama 3.1 8B runs. (1) A context-parallel communicator held to a few
CTAs (scenario key cp_comm_max_ctas): Transformer Engine's K/V ring moves at that many NCCL channels' rate, NCCL's own
per-channel figure on the GPU's NVLink; the submissions hold the cp communicator to one CTA
(mlcommons/training_results_v5.1 at 4da2d1cd71eb30c855dad12712480ae5ac90dd89,
NVIDIA/benchmarks/llama31_8b/implementations/nemo/conf/nccl/custom_communicator_cta.yaml: cp min_ctas 1, max_ctas 1).
(2) Transformer Engine's current-scaling amax all-reduces over the TP group under sequence parallelism (the 512-GPU
runs' TP 2)."""

from __future__ import annotations

import math

from engine.frameworks.defaults import defaults_for
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.collectives import ALL_REDUCE, small_message_latency
from engine.timing.context_parallel import cp_channels_bytes_per_s, cp_ring_seconds
from engine.timing.data import efficiency
from engine.timing.hardware import hardware_for
from engine.timing.links import nvlink_domain, p2p_link, ring_exposed_seconds
from engine.timing.sequence_parallel import tp_amax_reduce_seconds

# MLPerf v5.1's 512-GPU Llama 3.1 8B layout (config_GB200_128x4x1xtp2pp1cp4_8b.sh)
_RUN = {"model": "llama-3.1-8b", "gpu": "gb200", "gpus_per_node": 4, "nodes": 128, "framework": "megatron",
        "precision": "fp8", "fp8_recipe": "tensorwise", "micro_batch": 1, "grad_accum": 1, "seq_len": 8192,
        "attention": "flash", "tp": 2, "cp": 4, "sequence_parallel": True, "zero_stage": 1}


def _nccl_channel_rate(link_gb_s: float, links: int, speeds: tuple[float, ...]) -> float:
    """NCCL v2.28.3-1's per-channel ring speed inside an NVLink domain, derived as its code derives it: the ring
    search starts at the array's highest speed the GPU's links carry (src/graph/search.cc ncclTopoCompute, line 93
    of the function: speeds above maxBw skipped) and keeps the graph it completes there (8 channels x 90 on NVLink 5,
    6 x 60 on NVLink 4: pass 2 only tries higher speeds); ncclTopoDupChannels (search.cc line 937) then doubles the
    channels and halves the speed when it is 50 GB/s or more."""
    total = link_gb_s * links
    best = next(v for v in speeds if v <= total)
    return best / 2 if best >= 50 else best


def test_the_preset_per_channel_rates_are_nccls_own():
    """topo.h SM100_NVLINK_BW 40.1 and SM90_NVLINK_BW 20.6 over 18 links; sm100SpeedArrayIntra and
    sm90SpeedArrayIntra as search.cc lists them at v2.28.3-1."""
    sm100 = (90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0)
    sm90 = (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0)
    table = efficiency()["nccl_channel_bytes_per_s"]
    assert table["gb200"] == table["gb300"] == _nccl_channel_rate(40.1, 18, sm100) * 1e9  # 45 GB/s
    assert table["h100-sxm-80gb"] == _nccl_channel_rate(20.6, 18, sm90) * 1e9  # 30 GB/s


def test_one_cta_caps_the_ring_at_one_channels_rate_and_the_default_keeps_the_link():
    s0 = scenario_from_dict(_RUN)
    s1 = scenario_from_dict({**_RUN, "cp_comm_max_ctas": 1})
    hw = hardware_for(s1)
    link_bw = p2p_link(hw, s1.tp * s1.cp, nvlink_domain(s1, hw))[0]
    assert cp_channels_bytes_per_s(s0, hw) == math.inf
    assert cp_channels_bytes_per_s(s1, hw) == 45e9 < link_bw
    # enough CTAs give back the link's own rate
    many = scenario_from_dict({**_RUN, "cp_comm_max_ctas": 64})
    assert min(link_bw, cp_channels_bytes_per_s(many, hw)) == link_bw


def test_the_capped_ring_is_the_same_ring_at_the_channel_rate():
    """The exposed seconds are links.ring_exposed_seconds' with the link's rate replaced by one channel's: per
    layer, each of the cp - 1 forward hops moves the rank's K and V (2 x tokens x kv_dim / tp elements), the
    backward twice that, each hidden behind one step's attention."""
    s1 = scenario_from_dict({**_RUN, "cp_comm_max_ctas": 1})
    spec, hw, behaviour = resolve_model(s1), hardware_for(s1), defaults_for(s1.framework)
    tokens, elem, fwd, bwd = 2048.0, 2, 100e-6, 250e-6
    latency = p2p_link(hw, s1.tp * s1.cp, nvlink_domain(s1, hw))[1]
    block = 2 * tokens * spec.kv_dim / s1.tp * elem
    expected = ring_exposed_seconds(block, s1.cp, 45e9, latency, fwd, bwd)
    assert cp_ring_seconds(s1, spec, hw, behaviour, tokens, elem, fwd, bwd, False) == expected
    free = cp_ring_seconds(scenario_from_dict(_RUN), spec, hw, behaviour, tokens, elem, fwd, bwd, False)
    assert expected > free


def test_current_scaling_under_sequence_parallelism_all_reduces_four_amaxes_a_dense_layer():
    """Transformer Engine v2.8 (module/linear.py, layernorm_linear.py, layernorm_mlp.py
    _customize_quantizers_float8_current_scaling): with sequence parallelism a column-parallel linear's input
    quantizer and a row-parallel one's grad-output quantizer reduce their amax over tp_group: QKV and FC1 inputs
    forward, the output projection's and FC2's output gradients backward. Each waits for one 4-byte all-reduce: the
    latency of the protocol NCCL picks for it over the TP ranks, LL's ring (collectives.small_message_latency:
    NVIDIA/nccl src/graph/tuning.cc at 5067397c lines 151 and 159, 6.6 us + 2 (tp - 1) x 0.6 us over NVLink).
    Delayed scaling, MXFP8 and TP 1 have none."""
    s = scenario_from_dict({**_RUN, "cp_comm_max_ctas": 1})
    hw = hardware_for(s)
    node = nvlink_domain(s, hw)
    latency = small_message_latency(hw, ALL_REDUCE, s.tp, s.tp, node)
    assert hw.nvlink and math.isclose(latency, (6.6 + 2 * (s.tp - 1) * 0.6) * 1e-6)
    assert tp_amax_reduce_seconds(s, "te-nontn-tensorwise", hw, node, False, True, 0.0) == 4 * latency
    assert tp_amax_reduce_seconds(s, "te-nontn-tensorwise", hw, node, True, True, 0.0) == 2 * latency  # MoE
    assert tp_amax_reduce_seconds(s, "te-nontn-tensorwise", hw, node, False, False, 0.0) == 2 * latency  # frozen
    full = scenario_from_dict({**_RUN, "checkpointing": "full"})
    assert tp_amax_reduce_seconds(full, "te-nontn-tensorwise", hw, node, False, True, 1e-3) == 6 * latency
    for recipe in ("te-delayed", "te-mxfp8", "te-blockwise", ""):
        assert tp_amax_reduce_seconds(s, recipe, hw, node, False, True, 0.0) == 0.0
    tp1 = scenario_from_dict({**_RUN, "tp": 1, "sequence_parallel": False})
    assert tp_amax_reduce_seconds(tp1, "te-nontn-tensorwise", hw, node, False, True, 0.0) == 0.0
