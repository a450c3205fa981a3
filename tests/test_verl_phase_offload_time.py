"""verl's offload between phases in time (engine/posttraining/phase_offload.py), each mechanism from its source:

- the update steps on the GPU with the states loaded back (volcengine/verl b178a3c verl/workers/fsdp_workers.py lines
  893-932 update_actor: load_fsdp_model_to_gpu, load_fsdp_optimizer, update_policy, then offload both), so the
  training step is the one without offload: no CPU Adam, the GPU optimizer's own step;
- each load is a host-to-device copy of what the memory estimate takes off the GPU between phases, its offload the
  device-to-host copy back: the parameters for the update, the old-policy scoring pass (compute_log_prob lines
  989-1034), the adapter-off reference (compute_ref_log_prob -> compute_log_prob, lines 1041-1045) and the weight
  sync (rollout_mode lines 677-722); the optimizer states for the update only; the critic's parameters for
  compute_values and update_critic, its optimizer for update_critic (lines 1540-1588);
- FSDP1's flat parameters and the optimizer's states move with .to(non_blocking=True) into pinned memory
  (verl/utils/fsdp_utils.py lines 144-225; pytorch aten/src/ATen/native/TensorConversions.cpp _to_copy pins the CPU
  output of a non-blocking GPU copy), FSDP2's model.cpu() / model.to(device) through pageable memory (lines 171-201),
  at presets/efficiency.json pcie pageable_pinned_speedup (deepspeedai/DeepSpeed 7b5b06602: 4-5x on an 8-GPU node);
- verl's Megatron actor offloads its distributed optimizer's states (megatron_workers.py db5f055 lines 510-545,
  megatron_utils.py offload_megatron_optimizer .to("cpu", non_blocking=True)).
"""

import pytest

from engine.posttraining.estimate import step_parts
from engine.posttraining.phase_offload import parameter_loads
from engine.scenario import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import efficiency
from engine.workloads import step_time

# verl docs/perf/device_tuning.rst at b178a3c, examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh (the published
# row verl-tuning-qwen2-7b-grpo-2xh800), on eight H100s: full fine-tuning, a separate reference
VERL_7B_FULL = {
    "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
    "training_objective": "grpo", "method": "full", "precision": "amp-bf16", "fsdp": True,
    "offload": "optimizer+params", "checkpointing": "full", "attention": "flash", "packing": "padding-free",
    "reference_model": "separate", "prompt_len": 1024, "completion_len": 1024, "num_generations": 5,
    "micro_batch": 16, "rollout_engine": "vllm", "rollout_placement": "colocate", "rollout_tp": 2,
    "rollout_gpu_memory_utilization": 0.6, "entropy_coeff": 0.0, "rollout_engine_release": "vllm-0.8-v1",
    "rollout_max_num_seqs": 1024, "rollout_enforce_eager": True}


def _time(**keys):
    s = scenario_from_dict({**VERL_7B_FULL, **keys})
    return s, step_time(s)


def _states(p, key: str) -> float:
    return sum(c.peak_bytes for c in p.training.components if c.key == key)


def test_update_steps_on_the_gpu_with_the_states_loaded():
    _, loaded = _time(offload="none")
    _, offloaded = _time()
    terms, resident = offloaded.breakdown_seconds, loaded.breakdown_seconds
    assert terms.get("offload", 0.0) == 0.0  # no ZeRO-Offload CPU Adam
    assert terms["optimizer"] == pytest.approx(resident["optimizer"])  # the GPU optimizer's step, as without offload
    assert terms["compute"] == pytest.approx(resident["compute"])
    assert "phase_offload" not in resident


def test_copies_are_the_states_memory_takes_off_the_gpu():
    s, t = _time()
    p = step_parts(s)
    host = hardware_for(s).host_bytes_per_s
    params = sum(c.peak_bytes for c in p.loaded)  # the memory estimate's parameters loaded back
    assert p.moves.params_bytes == pytest.approx(params)
    assert p.moves.update_bytes == pytest.approx(_states(p, "optimizer_states"))
    # update, old-policy scoring and weight sync load the parameters (the reference is a model of its own)
    loads = parameter_loads(True, "separate", True)
    assert loads == 3
    expected = 2 * (params * loads + _states(p, "optimizer_states")) / host
    assert t.breakdown_seconds["phase_offload"] == pytest.approx(expected)


def test_optimizer_offload_alone_moves_the_optimizer_states_once():
    s, t = _time(offload="optimizer")
    p = step_parts(s)
    assert p.moves.params_bytes == 0.0
    expected = 2 * _states(p, "optimizer_states") / hardware_for(s).host_bytes_per_s
    assert t.breakdown_seconds["phase_offload"] == pytest.approx(expected)


def test_adapter_off_reference_loads_the_parameters_once_more():
    assert parameter_loads(True, "adapter-off", True) == 4  # update, old log-probs, reference, weight sync
    assert parameter_loads(False, "separate", True) == 1  # an offline objective: the update only


def test_fsdp2_moves_parameters_through_pageable_memory():
    s1, t1 = _time()
    s2, t2 = _time(fsdp_version=2)
    p = step_parts(s1)
    host, loads = hardware_for(s1).host_bytes_per_s, 3
    speedup = efficiency()["pcie"]["pageable_pinned_speedup"]["node"]  # 8 GPUs a node
    params = 2 * p.moves.params_bytes * loads / host
    states = 2 * p.moves.update_bytes / host
    assert t1.breakdown_seconds["phase_offload"] == pytest.approx(params + states)
    assert t2.breakdown_seconds["phase_offload"] == pytest.approx(params * speedup + states, rel=1e-3)


def test_ppo_critic_loads_its_parameters_twice_and_its_optimizer_once():
    s, t = _time(training_objective="ppo", critic_model="same")
    p = step_parts(s)
    assert p.moves.critic_params_bytes > 0 and p.moves.critic_update_bytes > 0
    host = hardware_for(s).host_bytes_per_s
    policy = p.moves.params_bytes * 3 + p.moves.update_bytes
    critic = p.moves.critic_params_bytes * 2 + p.moves.critic_update_bytes
    assert t.breakdown_seconds["phase_offload"] == pytest.approx(2 * (policy + critic) / host)
    assert t.breakdown_seconds["critic"] == pytest.approx(
        _time(training_objective="ppo", critic_model="same", offload="none")[1].breakdown_seconds["critic"])


def test_verl_megatron_offloads_its_optimizer_between_phases():
    s, t = _time(framework="verl-megatron", fsdp=False, offload="optimizer", distributed_optimizer=True)
    p = step_parts(s)
    assert t.breakdown_seconds.get("offload", 0.0) == 0.0  # not Megatron's HybridDeviceOptimizer
    assert p.moves.params_bytes == 0.0
    expected = 2 * p.moves.update_bytes / hardware_for(s).host_bytes_per_s
    assert p.moves.update_bytes > 0
    assert t.breakdown_seconds["phase_offload"] == pytest.approx(expected)


def test_zero_offload_frameworks_keep_the_cpu_optimizer():
    # OpenRLHF's --adam_offload is DeepSpeed's ZeRO-Offload: DeepSpeedCPUAdam steps on the CPU every step
    s = scenario_from_dict({**VERL_7B_FULL, "framework": "openrlhf", "fsdp": False, "zero_stage": 2,
                            "offload": "optimizer", "rollout_placement": "colocate"})
    terms = step_time(s).breakdown_seconds
    assert terms["offload"] > 0 and "phase_offload" not in terms
