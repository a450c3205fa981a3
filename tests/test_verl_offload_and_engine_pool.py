"""Two verl facts behind the published rows of verl's own GRPO-LoRA baselines (eric-haibin-lin/verl-data, linked from
verl docs/algo/baseline.md), each from its source:

- verl's param_offload / optimizer_offload hold between phases only: update_actor loads the actor's parameters and
  optimizer states back (load_fsdp_model_to_gpu, load_fsdp_optimizer), compute_log_prob and rollout_mode load the
  parameters (verl/workers/fsdp_workers.py at f50e5c2e8 and b178a3c); the actor's FSDP has no CPUOffload. The actor
  is built in fp32 (fsdp_workers.py: torch_dtype = torch.float32 for the actor), so the loaded parameters are
  4 bytes each over the FSDP ranks.
- verl's hybrid engine in sync mode keeps vLLM in the trainer's process, and vLLM's sleep mode allocates the
  engine's weights and KV cache in a torch MemPool whose tensors survive sleep (vllm issue #17117:
  memory_allocated() unchanged by sleep), so perf/max_memory_allocated_gb (torch.cuda.max_memory_allocated(),
  fsdp_workers.py update_actor) counts the engine's pool beside every phase.
"""

import pytest

from engine.frameworks.defaults import defaults_for
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

# eric-haibin-lin/verl-data gsm8k/Qwen2.5-7B-bsz64_8-prompt512-resp1024-lorarank32-score0.934.log (cc499463): the
# script and the step-1 lengths
VERL_7B_LORA = {
    "name": "verl-7b-lora", "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl",
    "training_objective": "grpo", "method": "lora", "lora_rank": 32, "lora_alpha": 32, "lora_targets": "all-linear",
    "precision": "amp-bf16", "fsdp": True, "offload": "optimizer+params", "checkpointing": "full",
    "attention": "flash", "reference_model": "adapter-off", "prompt_len": 159, "completion_len": 480,
    "num_generations": 5, "micro_batch": 8, "rollout_engine": "vllm", "rollout_placement": "colocate",
    "rollout_tp": 2, "rollout_gpu_memory_utilization": 0.2, "rollout_max_num_seqs": 512,
    "rollout_max_num_batched_tokens": 1536}


def _phases(**keys):
    est = estimate(scenario_from_dict({**VERL_7B_LORA, **keys}))
    return est, {p.key: {c.key: c.peak_bytes for c in p.components} for p in est.rl.phases}


def test_verl_loads_offloaded_states_for_its_compute_phases():
    assert defaults_for("verl").posttraining.offload_between_phases
    est, phases = _phases()
    loaded = est.total_params * 4 / 8  # the base (total_params, adapters apart): fp32 actor over 8 FSDP ranks
    assert phases["training"]["frozen_weights"] == pytest.approx(loaded, rel=1e-3)
    assert phases["scoring"]["policy_frozen_weights"] == pytest.approx(loaded, rel=1e-3)
    assert phases["weight_sync"]["policy_frozen_weights"] == pytest.approx(loaded, rel=1e-3)
    assert "policy_frozen_weights" not in phases["generation"]  # offloaded while the engine generates
    # the training phase is the step without offload: the same components as an estimate with offload "none"
    _, plain = _phases(offload="none")
    assert phases["training"] == plain["training"]


def test_offload_through_the_compute_where_the_framework_streams_it():
    """TRL (DeepSpeed/FSDP offload) keeps the parameters off the GPU through the compute: unchanged."""
    assert not defaults_for("trl").posttraining.offload_between_phases
    _, phases = _phases(framework="trl", offload="optimizer+params")
    assert phases["training"].get("frozen_weights", 0.0) == 0.0
    assert "policy_frozen_weights" not in phases["scoring"]


def test_allocated_with_the_engine_pool_counts_the_pool_in_every_phase():
    from engine.accuracy.published_memory import estimated_metric

    est, phases = _phases()
    pool = phases["generation"]["rollout_weights"] + phases["generation"]["rollout_kv_cache"]
    training = next(p for p in est.rl.phases if p.key == "training")
    generation = next(p for p in est.rl.phases if p.key == "generation")
    counted = est.rl.allocated_with_engine_pool()
    assert counted == pytest.approx(max(training.peak_bytes + pool, generation.peak_bytes))
    assert counted > est.peak_allocated_bytes  # the pool on top of the update, where it is asleep
    assert estimated_metric(est, "allocated-engine-pool") == counted


def test_enforce_eager_engine_captures_no_cuda_graphs():
    """verl's rollout.enforce_eager (ppo_trainer.yaml: True at c62e7ac7b, fa23b696d and 49b08e950, 'Default True to
    allow cache freeing'; rollout.yaml: False at b178a3c, since ff6978c14) reaches vLLM's LLM(enforce_eager=...): no
    CUDA graphs are captured, so the engine's overhead beside its budget is its non-torch memory alone
    (engine/serving/generation.py fixed_components). The framework's default is the newest release's."""
    from engine.posttraining import step_parts
    from engine.serving.generation import NON_TORCH_BYTES, NON_TORCH_TP_BYTES

    assert not defaults_for("verl").posttraining.rollout_enforce_eager
    eager = step_parts(scenario_from_dict({**VERL_7B_LORA, "rollout_enforce_eager": True})).engine
    graphs = step_parts(scenario_from_dict(VERL_7B_LORA)).engine
    assert eager.overhead_bytes == pytest.approx(NON_TORCH_BYTES + NON_TORCH_TP_BYTES)  # rollout_tp 2
    assert graphs.overhead_bytes > eager.overhead_bytes
    # the graphs are captured after the KV cache is sized: the budget's split does not move
    assert eager.kv_pool_bytes == graphs.kv_pool_bytes


def test_verl_shards_its_adapters_over_the_fsdp_ranks():
    """verl wraps each LoRA leaf (a leaf module whose weight requires grad) as an FSDP unit of its own
    (verl/utils/fsdp_utils.py get_fsdp_wrap_policy(is_lora=True) at 49b08e950 and b178a3c, FULL_SHARD over the FSDP
    mesh): every GPU holds 1/shards of the adapters, like the frozen base; the supervised estimator (and TRL here)
    keeps them whole."""
    assert defaults_for("verl").posttraining.adapters_sharded
    assert not defaults_for("trl").posttraining.adapters_sharded
    est, phases = _phases()
    gpus = VERL_7B_LORA["gpus_per_node"]
    training = next(p for p in est.rl.phases if p.key == "training")
    lora = next(c for c in training.components if c.key == "lora_weights")
    inputs = dict(lora.inputs)
    assert inputs["fsdp_shards"] == gpus
    assert lora.peak_bytes == pytest.approx(inputs["params"] * inputs["bytes_per_param"] / gpus)
    # param_offload moves every FSDP unit's flat parameter, the adapters' too (verl/utils/fsdp_utils.py b178a3c
    # offload_fsdp_model_to_cpu lines 143-168): off the GPU during generation, loaded with the base for scoring
    assert "policy_lora_weights" not in phases["generation"]
    assert phases["scoring"]["policy_lora_weights"] == pytest.approx(lora.peak_bytes)
    _, optimizer_only = _phases(offload="optimizer")  # the parameters stay: so do the adapters
    assert optimizer_only["generation"]["policy_lora_weights"] == pytest.approx(lora.peak_bytes)
