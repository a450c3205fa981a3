"""On unified memory the CPU and the GPU share one pool, so the run's CPU memory is checked, not 'not checked' (user
audit 7: a 7B LoRA on an M4 Max read "CPU memory not checked: needs 2.50 GiB per node"). Metal gives the GPU its
recommendedMaxWorkingSetSize, about 75% of the pool (presets/gpus.json usable_fraction and its source: GPUStack's
issue 1375 and measured values); the CPU side has the rest, and the host memory is checked against that rest."""

from engine import estimate, scenario_from_dict
from engine.models.presets import get_gpu

MAC_LORA = {"schema_version": 1, "name": "Qwen2.5 7B LoRA on a Mac", "model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb",
            "method": "lora", "precision": "bf16", "lora_rank": 16, "lora_targets": "all-linear", "micro_batch": 1,
            "seq_len": 2048, "checkpointing": "full"}
GIB = 2**30


def test_the_cpu_side_is_the_pool_less_the_gpus_share():
    mac = get_gpu("apple-m4-max-64gb")
    assert mac.memory_bytes == 64 * GIB and mac.usable_fraction == 0.75  # the preset's sourced figures
    assert mac.cpu_side_bytes == 16 * GIB
    assert get_gpu("h100-sxm-80gb").cpu_side_bytes is None  # memory of its own: the node's CPU memory is apart


def test_a_mac_plan_checks_its_host_memory_against_the_cpu_side():
    est = estimate(scenario_from_dict(MAC_LORA))
    assert est.host_capacity_bytes == 16 * GIB
    assert est.host_verdict == "fits" and 0 < est.host_bytes < 16 * GIB
    assert any("share one pool of 64.00 GiB" in str(w) and "16.00 GiB" in str(w) for w in est.warnings)


def test_a_host_memory_given_by_hand_is_kept():
    est = estimate(scenario_from_dict({**MAC_LORA, "host_memory_bytes": 1 * GIB}))
    assert est.host_capacity_bytes == 1 * GIB and est.host_verdict == "does not fit"
    assert not any("share one pool" in str(w) for w in est.warnings)


def test_an_nvidia_plan_still_says_not_checked():
    est = estimate(scenario_from_dict({**MAC_LORA, "gpu": "h100-sxm-80gb"}))
    assert est.host_capacity_bytes is None and est.host_verdict == "not checked"
