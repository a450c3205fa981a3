"""verl's separate reference (and reward) model waits in CPU memory: verl/workers/fsdp_workers.py
_build_model_optimizer (b4aa2dce8 and b178a3c) "We force reference policy to use CPUOffload to save memory":
cpu_offload = None if role == "actor" else CPUOffload(offload_params=True) under FSDP1 (CPUOffloadPolicy under FSDP2);
RewardModelWorker likewise. FSDP1 copies each unit's shard in and all-gathers it for its forward; a decoder layer is
freed by its post-forward, the root unit is not (torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard:
free_unsharded_flat_param = not state._is_root and ...), which is why verl calls
ref_policy.actor_module._handle.reshard(True) after compute_ref_log_prob."""

import pytest

from engine.frameworks.defaults import defaults_for
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

FULL = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
        "training_objective": "grpo", "precision": "amp-bf16", "fsdp": True, "checkpointing": "full",
        "reference_model": "separate", "prompt_len": 512, "completion_len": 1024, "num_generations": 5,
        "micro_batch": 8, "rollout_engine": "vllm", "rollout_tp": 2, "rollout_gpu_memory_utilization": 0.4}


def _phases(**keys):
    est = estimate(scenario_from_dict({**FULL, **keys}))
    return {p.key: {c.key: c for c in p.components} for p in est.rl.phases}


def test_the_reference_is_not_resident_and_streams_root_and_one_layer():
    assert defaults_for("verl").posttraining.reference_params_offloaded
    phases = _phases()
    assert all("reference_weights" not in comps for comps in phases.values())
    spec = model_spec_for("qwen2.5-7b")
    root = spec.vocab * spec.hidden * 2 + spec.hidden  # untied embedding + lm_head + final norm (Qwen2.5-7B config)
    layer = (spec.text_params - root) / spec.layers  # one of the identical decoder layers
    from engine.posttraining import phases as ph
    from engine.posttraining.estimate import step_parts

    ref = dict(ph._reference_forward(step_parts(scenario_from_dict(FULL))).inputs)
    assert ref["offloaded_units_bytes"] == pytest.approx((root + layer) * 2, rel=1e-6)  # bf16, gathered whole
    assert "gathered_units_bytes" not in ref  # the policy's root is not gathered during the reference's pass
    policy = dict(phases["scoring"]["score_policy"].inputs)  # the actor's own pass: its root and one layer
    assert policy["gathered_units_bytes"] == pytest.approx((root + layer) * 2, rel=1e-6)


def test_a_framework_keeping_its_reference_on_the_gpu_is_unchanged():
    assert not defaults_for("trl").posttraining.reference_params_offloaded
    phases = _phases(framework="trl")
    spec = model_spec_for("qwen2.5-7b")
    ref = phases["training"]["reference_weights"]
    assert ref.peak_bytes == pytest.approx(spec.total_params * 2 / 8)  # ZeRO-3/FSDP shards of the frozen copy
    assert all("offloaded_units_bytes" not in dict(c.inputs) for c in phases["scoring"].values())
