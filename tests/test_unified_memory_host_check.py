"""On unified memory the CPU and the GPU share one pool, so the run's CPU memory is checked, not 'not checked' (user
audit 7: a 7B LoRA on an M4 Max read "CPU memory not checked: needs 2.50 GiB per node"). The GPU may take up to its
usable share (Metal's recommendedMaxWorkingSetSize, about 75%: presets/gpus.json usable_fraction and its sources), and
what it holds is not there for the CPU side: the host need is checked against the pool less the GPU's total
(engine/memory/host_pool.py), so the two checks are one sum."""

from engine import estimate, scenario_from_dict
from engine.models.presets import get_gpu

MAC_LORA = {"schema_version": 1, "name": "Qwen2.5 7B LoRA on a Mac", "model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb",
            "method": "lora", "precision": "bf16", "lora_rank": 16, "lora_targets": "all-linear", "micro_batch": 1,
            "seq_len": 2048, "checkpointing": "full"}
GIB = 2**30


def test_the_cpu_side_is_what_the_gpu_leaves_of_the_pool():
    mac = get_gpu("apple-m4-max-64gb")
    assert mac.shares_host_memory and mac.memory_bytes == 64 * GIB  # the preset's sourced pool
    est = estimate(scenario_from_dict(MAC_LORA))
    assert est.host_capacity_bytes == int(64 * GIB - est.total_bytes)
    assert est.host_verdict == "fits" and est.host_bytes + est.total_bytes <= 64 * GIB
    assert any("share one pool of 64.00 GiB" in str(w) for w in est.warnings)


def test_an_offload_to_cpu_memory_counts_in_the_same_pool():
    # the optimizer's fp32 states moved to "CPU memory" stay in the pool: with a full fine-tune of a 7B they and the
    # GPU's share do not fit 64 GiB together, though each side alone would
    est = estimate(scenario_from_dict({**MAC_LORA, "method": "full", "precision": "mixed-bf16", "zero_stage": 2,
                                       "offload": "optimizer"}))
    assert est.host_bytes > est.host_capacity_bytes == int(max(0, 64 * GIB - est.total_bytes))
    assert est.host_verdict == "does not fit" and not est.fits


def test_a_host_memory_given_by_hand_is_kept():
    est = estimate(scenario_from_dict({**MAC_LORA, "host_memory_bytes": 1 * GIB}))
    assert est.host_capacity_bytes == 1 * GIB and est.host_verdict == "does not fit"
    assert not any("share one pool" in str(w) for w in est.warnings)


def test_a_served_model_and_an_nvidia_plan():
    served = estimate(scenario_from_dict({"model": "llama-3.1-8b", "gpu": "apple-m4-max-64gb", "workload": "inference",
                                          "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_ctx": 32768}))
    assert served.host_capacity_bytes == int(64 * GIB - served.total_bytes) and served.host_verdict == "fits"
    nvidia = estimate(scenario_from_dict({**MAC_LORA, "gpu": "h100-sxm-80gb"}))
    assert nvidia.host_capacity_bytes is None and nvidia.host_verdict == "not checked"
