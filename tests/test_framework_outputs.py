"""New outputs of issue 11: reserved memory, process memory, the load phase and host memory.

Expected values follow from the mechanisms stated in engine/frameworks/ (allocator rules from
c10/cuda/CUDACachingAllocator.cpp, loaders from the frameworks' source) and from config.json sizes.
"""

from __future__ import annotations

import json

import pytest

from engine import estimate, scenario_from_dict
from engine.cli import estimate_to_json, main
from engine.frameworks.allocator import segment_bytes

MIB, GIB = 2**20, 2**30


def _s(**kw):
    base = {"model": "llama-3-8b", "precision": "bf16", "micro_batch": 1, "seq_len": 2048}
    base.update(kw)
    return scenario_from_dict(base)


def test_caching_allocator_segment_rules():
    assert segment_bytes(100) == 2 * MIB  # small pool
    assert segment_bytes(3 * MIB) == 20 * MIB  # 1-10 MiB requests share 20 MiB segments
    assert segment_bytes(11 * MIB + 1) == 12 * MIB  # large requests round up to 2 MiB


def test_reserved_process_and_total_are_nested():
    est = estimate(_s(method="lora"))
    assert est.peak_allocated_bytes < est.peak_reserved_bytes < est.process_bytes < est.total_bytes
    # the CUDA context measured on the H200 runs of tests/data/gpu_measured (device used - reserved = 0.75 GiB)
    assert est.process_bytes == pytest.approx(est.peak_reserved_bytes + 0.75 * GIB)


def test_expandable_segments_leave_fewer_gaps():
    plain = estimate(_s(method="lora"))
    expandable = estimate(_s(method="lora", expandable_segments=True))
    assert expandable.peak_allocated_bytes == plain.peak_allocated_bytes
    assert expandable.peak_reserved_bytes < plain.peak_reserved_bytes
    # torchtitan's launcher sets expandable_segments:True
    assert estimate(_s(framework="torchtitan", method="lora")).peak_reserved_bytes == pytest.approx(
        expandable.peak_reserved_bytes)


def test_litgpt_fsdp_loads_the_full_16bit_checkpoint_next_to_the_shard():
    # Llama-2-13B on 2 x A100 40GB with FSDP: 13.0e9 params x 2 bytes on each GPU while loading, + the half shard.
    s = scenario_from_dict({"model": "llama-2-13b", "gpu": "a100-40gb", "precision": "bf16", "fsdp": True,
                            "gpus_per_node": 2, "framework": "litgpt", "method": "lora", "lora_targets": "all-linear",
                            "seq_len": 512})
    est = estimate(s)
    params = est.total_params
    assert est.load_gpu_bytes == pytest.approx(params * 2 * 1.5, rel=0.01)
    assert est.load_is_peak and est.verdict in ("tight", "does not fit")  # it failed at load on real GPUs
    assert est.reported_allocated_bytes == est.load_gpu_bytes  # litgpt never resets the peak statistics
    sharded = estimate(s.replace(framework="torchtitan"))
    assert sharded.load_gpu_bytes < est.load_gpu_bytes / 2


def test_host_memory_verdict():
    s = _s(zero_stage=2, gpus_per_node=8, offload="optimizer")
    est = estimate(s)
    assert est.host_verdict == "not checked"
    # DeepSpeed CPU offload: 16 bytes per trainable parameter (fp32 master, 2 Adam states, fp32 grad) per node
    assert est.host_bytes >= 16 * est.trainable_params
    assert estimate(s.replace(host_memory_bytes=64 * GIB)).host_verdict == "does not fit"
    assert estimate(s.replace(host_memory_bytes=2048 * GIB)).host_verdict == "fits"


def test_estimate_json_has_the_new_outputs(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "llama-3-8b", "framework": "torchtune", "method": "lora"}))
    assert main(["estimate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("peak_reserved_bytes", "process_bytes", "host_bytes", "host_verdict", "load"):
        assert key in out
    assert out["peak_allocated_bytes"] <= out["peak_reserved_bytes"] <= out["process_bytes"] <= out["total_bytes"]
    assert estimate_to_json(estimate(_s()))["load"]["gpu_bytes"] > 0
