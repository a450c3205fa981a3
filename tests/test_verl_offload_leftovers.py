"""verl's offload in post-training time and memory, three leftovers of h-verloffload (issue 23 leftovers4 item 4),
each from volcengine/verl at b178a3c:

- the LoRA adapters: offload_fsdp_model_to_cpu moves every FSDP unit's flat parameter (verl/utils/fsdp_utils.py lines
  143-168, FSDP2's model.cpu() likewise), and verl wraps each adapter as a unit of its own, so param_offload takes the
  adapters off the GPU with the base: memory no longer keeps them resident, and the copies count them;
- PPO's critic offloads apart from the actor (critic.model.fsdp_config param_offload / optimizer_offload,
  fsdp_workers.py lines 1540-1588: compute_values loads its parameters, update_critic its parameters and optimizer):
  set without the actor's offload it is loaded for its own phases and its copies are counted;
- the separate reference (and reward) model is built with FSDP1 CPUOffload(offload_params=True): every forward
  copies each unit's shard in from pinned CPU memory (torch/distributed/fsdp/_flat_param.py
  init_flat_param_attributes pins _local_shard "for faster H2D transfer"); memory counted one unit
  (models.offloaded_units_bytes), time now counts the copies."""

import pytest

from engine.posttraining.estimate import step_parts
from engine.posttraining.models import weight_shards
from engine.posttraining.timing import streamed_frozen_bytes
from engine.scenario import scenario_from_dict
from engine.timing import hardware_for
from engine.workloads import estimate, step_time
from tests.test_verl_phase_offload_time import VERL_7B_FULL


def _s(**keys):
    return scenario_from_dict({**VERL_7B_FULL, **keys})


def test_lora_adapters_move_with_the_parameters_in_memory_and_time():
    s = _s(method="lora", lora_rank=64, reference_model="adapter-off")
    p = step_parts(s)
    assert "policy_lora_weights" not in {c.key for c in p.resident}  # off the GPU between phases
    adapters = sum(c.peak_bytes for c in p.loaded if c.key == "policy_lora_weights")
    assert adapters > 0
    assert p.moves.params_bytes == pytest.approx(sum(c.peak_bytes for c in p.loaded))  # one account
    kept = step_parts(_s(method="lora", lora_rank=64, reference_model="adapter-off", offload="optimizer"))
    assert "policy_lora_weights" in {c.key for c in kept.resident} and kept.moves.params_bytes == 0.0


def test_critic_offload_alone_is_loaded_for_its_phases_and_its_copies_count():
    keys = {"training_objective": "ppo", "critic_model": "same", "offload": "none"}
    s = _s(**keys, critic_offload="optimizer+params")
    p, t = step_parts(s), step_time(s)
    assert p.moves.params_bytes == 0.0 and p.moves.update_bytes == 0.0  # the actor keeps its states
    assert p.moves.critic_params_bytes > 0 and p.moves.critic_update_bytes > 0
    host = hardware_for(s).host_bytes_per_s
    expected = 2 * (2 * p.moves.critic_params_bytes + p.moves.critic_update_bytes) / host
    assert t.breakdown_seconds["phase_offload"] == pytest.approx(expected)
    # the critic's update and its memory are those of its loaded states, as without any offload
    plain = step_time(_s(**keys))
    assert t.breakdown_seconds["critic"] == pytest.approx(plain.breakdown_seconds["critic"])
    critic_phase = {c.key: c.peak_bytes for ph in estimate(s).rl.phases if ph.key == "critic_training"
                    for c in ph.components}
    plain_phase = {c.key: c.peak_bytes for ph in estimate(_s(**keys)).rl.phases if ph.key == "critic_training"
                   for c in ph.components}
    assert critic_phase["critic_optimizer_states"] == pytest.approx(plain_phase["critic_optimizer_states"])
    generation = {c.key for ph in estimate(s).rl.phases if ph.key == "generation" for c in ph.components}
    assert "critic_optimizer_states" not in generation and "critic_weights" not in generation  # on the CPU


def test_the_separate_reference_streams_its_shard_in_every_forward():
    s = _s()  # the reference a model of its own, built with CPUOffload
    p = step_parts(s)
    assert p.rs.reference_params_offloaded
    forwards = s.grad_accum  # one scoring forward per training micro-batch (train_sequences each)
    expected = p.spec.total_params * p.dt.compute / weight_shards(s) * forwards
    assert streamed_frozen_bytes(p, s) == pytest.approx(expected)
    t = step_time(s)
    assert t.breakdown_seconds["frozen_streaming"] == pytest.approx(expected / hardware_for(s).host_bytes_per_s)
    # the actor as its own reference (adapters off) streams nothing; TRL keeps its reference on the GPU
    assert "frozen_streaming" not in step_time(_s(method="lora", reference_model="adapter-off")).breakdown_seconds
    trl = _s(framework="trl", rollout_engine="none", rollout_placement="colocate")
    assert "frozen_streaming" not in step_time(trl).breakdown_seconds
