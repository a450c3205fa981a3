"""The generation engine's tensor-parallel all-reduces in the rollout (engine/posttraining/rollout_collectives.py) and
the Megatron export's pipeline broadcast across NVLink domains (engine/posttraining/bridge_export.py), on the
NeMo-RL performance rows whose layouts the recipes state (tests/data/published/posttraining_time.json)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.bridge_export import export_gather_bytes, export_gather_seconds, pipeline_peers_across_nodes
from engine.posttraining.estimate import step_parts
from engine.posttraining.rollout_collectives import all_reduce_seconds, custom_all_reduce, forward_all_reduce_seconds
from engine.scenario import resolve_model
from engine.timing import hardware_for
from engine.timing.collectives import all_reduce_link
from engine.timing.data import framework_profile
from engine.timing.links import collective_link, link
from engine.workloads import step_time


def _scenario(row_id: str):
    return scenario_from_dict(next(r for r in ptt.read_rows() if r["id"] == row_id)["scenario"])


def test_inside_a_node_vllm_custom_all_reduce_takes_servings_figure() -> None:
    # grpo-qwen3-32b-4n8g: vLLM TP 4 on one 8-GPU H100 node (vLLM's CustomAllreduce: 2, 4, 6 or 8 GPUs of one node);
    # serving's figure (engine/serving/speed.py): the intra-node latency + the ring's 2 (n - 1) / n bytes over NVLink
    s = _scenario("nemo-rl-perf-grpo-qwen3-32b-32xh100")
    hw, spec = hardware_for(s), resolve_model(s)
    assert s.rollout_tp == 4 and custom_all_reduce(s, 4)
    message = 146 * spec.hidden * 2
    expected = hw.latency_intra_s + 2 * 3 / 4 * message / hw.intra_bytes_per_s
    assert all_reduce_seconds(s, hw, 4, message) == pytest.approx(expected)
    assert forward_all_reduce_seconds(s, hw, spec, 4, 146) == pytest.approx(2 * spec.layers * expected)
    assert forward_all_reduce_seconds(s, hw, spec, 1, 146) == 0.0  # one GPU: nothing to sum


def test_an_engine_over_four_nodes_runs_nccls_all_reduce() -> None:
    # grpo-deepseek-v3-32n8g: vLLM TP 32 over four H100 nodes (expert_parallel_size 1 in grpo_math_1B.yaml: the
    # experts are TP-sharded, no all-to-all); the custom all-reduce is off across nodes, so NCCL's pick for the
    # message over the link the 32 GPUs cross, NVLS off as the framework's time profile says (NCCL_NVLS_ENABLE=0)
    s = _scenario("nemo-rl-perf-grpo-deepseek-v3-256xh100")
    hw, spec = hardware_for(s), resolve_model(s)
    assert s.rollout_tp == 32 and not custom_all_reduce(s, 32)
    message = 64 * spec.hidden * 2
    bus, latency = all_reduce_link(hw, 32, 32, 8, 1, collective_link(hw, 32, 8)[0],
                                   framework_profile(s.framework), message)
    one = 2 * 31 / 32 * message / bus + latency
    assert all_reduce_seconds(s, hw, 32, message) == pytest.approx(one)
    # across nodes it is several times the inside-a-node figure: latency-bound at 0.9 MB
    assert one > 3 * (hw.latency_intra_s + 2 * 31 / 32 * message / hw.intra_bytes_per_s)
    # in the decode step: 2 x 61 layers of them, reported beside the step
    gen = dict(step_time(s).generation)
    assert gen["tp_all_reduce_seconds_per_step"] == pytest.approx(
        forward_all_reduce_seconds(s, hw, spec, 32, gen["concurrent_sequences"]))
    # (a fifth of the step since h-fusedmoe: the experts' 2,048 / 32 = 64-wide down GEMM reads at the fused_moe's
    # tile share, engine/serving/fused_moe_rate.py; a quarter before)
    assert gen["decode_step_seconds"] > gen["tp_all_reduce_seconds_per_step"] > 0.2 * gen["decode_step_seconds"]


def test_a_gb200_engine_over_two_trays_is_not_the_custom_all_reduce() -> None:
    # grpo-qwen3-235b-32n4g: vLLM TP 8 over two 4-GPU GB200 trays (one NVL72 domain): not one node, so NCCL inside
    # the domain
    s = _scenario("nemo-rl-perf-v06-grpo-qwen3-235b-a22b-128xgb200")
    hw = hardware_for(s)
    assert s.rollout_tp == 8 and s.gpus_per_node == 4 and not custom_all_reduce(s, 8)
    message = 32 * resolve_model(s).hidden * 2
    bus, latency = all_reduce_link(hw, 8, 8, 72, 1, hw.intra_bytes_per_s, framework_profile(s.framework), message)
    assert all_reduce_seconds(s, hw, 8, message) == pytest.approx(2 * 7 / 8 * message / bus + latency)


def test_the_exports_pipeline_broadcast_crosses_racks_on_128_gb200() -> None:
    # grpo-deepseek-v3-32n4g: PP 8 over 128 GB200 (32 trays, more than one 72-GPU NVL72 rack); a pipeline group's 8
    # ranks lie 16 apart and span 113 GPUs, so the broadcast of the other stages' weights crosses the network, at the
    # training model's bus bandwidth for that group (links.py link: its members in one domain each drive a NIC)
    s = _scenario("nemo-rl-perf-grpo-deepseek-v3-128xgb200")
    hw = hardware_for(s)
    assert s.pp == 8 and s.world_size == 128 and pipeline_peers_across_nodes(s, hw)
    p = step_parts(s)
    inside, stages = export_gather_bytes(p, s)
    expected = inside / hw.intra_bytes_per_s + stages / link(hw, 7 * 16 + 1, 72, 16)[0]
    assert export_gather_seconds(p, s, hw) == pytest.approx(expected)
    assert link(hw, 113, 72, 16)[0] < hw.intra_bytes_per_s
    # 16 GB200 (one rack) keep it on NVLink; 256 H100 with PP 16 (ranks 16 apart) cross nodes as before
    assert not pipeline_peers_across_nodes(_scenario("nemo-rl-perf-grpo-qwen3-30b-a3b-16xgb200"), hw)
    h100 = _scenario("nemo-rl-perf-grpo-deepseek-v3-256xh100")
    assert pipeline_peers_across_nodes(h100, hardware_for(h100))


def test_the_intra_node_all_reduce_is_one_rule_for_serving_and_the_rollout() -> None:
    # review h-revd: the rollout's custom all-reduce and the serving step's all-reduces each wrote the latency + ring
    # formula; both call engine/serving/speed.py intra_node_all_reduce_seconds now. The serving step's
    # decode_allreduce term is 2 a layer of it over the running sequences' hidden states (2 bytes each)
    from engine.serving.scenario_estimate import serving_memory
    from engine.serving.speed import intra_node_all_reduce_seconds, serving_speed
    s = _scenario("nemo-rl-perf-grpo-qwen3-32b-32xh100")
    hw, spec = hardware_for(s), resolve_model(s)
    message = 146 * spec.hidden * 2
    assert all_reduce_seconds(s, hw, 4, message) == intra_node_all_reduce_seconds(hw, 4, message)
    served = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference",
                                 "max_model_len": 8192, "tp": 2, "gpus_per_node": 2})
    speed = serving_speed(served, serving_memory(served), concurrency=8, context=1024)
    comm = next(t.seconds for t in speed.decode_terms if t.key == "decode_allreduce")
    served_spec = resolve_model(served)
    assert comm == pytest.approx(2 * served_spec.layers * intra_node_all_reduce_seconds(
        hardware_for(served), 2, 8 * served_spec.hidden * 2))
