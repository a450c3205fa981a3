"""Shard groups (scenario key dp_shard, HSDP / hybrid ZeRO) read from each framework's own file: torchtitan's
data_parallel_shard_degree x data_parallel_replicate_degree, accelerate's FSDP1 HYBRID_SHARD (a node's GPUs) and
FSDP2 parallelism_config, Megatron's --num-distributed-optimizer-instances and DeepSpeed's mics_shard_size. Each
expected group is the file's own numbers put through the framework's rule, cited in engine/configs/ where it is read;
the export round trips are in tests/test_config_export.py."""

from __future__ import annotations

import json

from engine import scenario_from_dict
from engine.configs import counts_for_import, import_texts

TORCHTITAN = """
[model]
name = "llama3"
flavor = "8B"

[training]
local_batch_size = 1
seq_len = 8192

[parallelism]
data_parallel_replicate_degree = 4
data_parallel_shard_degree = 8
tensor_parallel_degree = 1
context_parallel_degree = 2
"""


def test_torchtitan_hsdp_groups_the_shard_degree_with_the_context_parallel_ranks():
    s = import_texts([("train.toml", TORCHTITAN)]).scenario
    # fully_shard over ("dp_replicate", "dp_shard_cp"): 8 shard x 2 cp ranks a group, 4 groups of the 64 GPUs
    assert (s["fsdp"], s["dp_shard"], s["gpus_per_node"]) == (True, 8 * 2, 4 * 8 * 2)
    assert scenario_from_dict(s).dp * 2 // s["dp_shard"] == 4


def test_torchtitan_without_replicas_shards_over_every_rank():
    s = import_texts([("train.toml", TORCHTITAN.replace("replicate_degree = 4", "replicate_degree = 1"))]).scenario
    assert s.get("dp_shard", 0) == 0 and s["fsdp"]


ACCELERATE = """compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_sharding_strategy: HYBRID_SHARD
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
mixed_precision: bf16
num_machines: 2
num_processes: 16
"""


def test_accelerate_hybrid_shard_shards_within_a_node():
    s = import_texts([("accelerate.yaml", ACCELERATE)]).scenario
    assert (s["fsdp"], s["dp_shard"], s["gpus_per_node"], s["nodes"]) == (True, 16 // 2, 8, 2)
    one = import_texts([("accelerate.yaml", ACCELERATE.replace("num_machines: 2", "num_machines: 1"))]).scenario
    assert one.get("dp_shard", 0) == 0  # one node: the node is every rank
    zero2 = import_texts([("accelerate.yaml", ACCELERATE.replace("HYBRID_SHARD", "HYBRID_SHARD_ZERO2"))]).scenario
    assert (zero2["fsdp"], zero2["zero_stage"], zero2["dp_shard"]) == (False, 2, 8)


def test_accelerate_parallelism_config_replicas():
    text = ACCELERATE.replace("fsdp_sharding_strategy: HYBRID_SHARD", "fsdp_version: 2") + (
        "parallelism_config:\n  parallelism_config_dp_replicate_size: 4\n  parallelism_config_dp_shard_size: 4\n")
    s = import_texts([("accelerate.yaml", text)]).scenario
    assert s["dp_shard"] == 4 and 16 // s["dp_shard"] == 4


MEGATRON = """torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py \\
    --tensor-model-parallel-size 2 --context-parallel-size 2 --micro-batch-size 1 --global-batch-size 64 \\
    --seq-length 4096 --bf16 --use-distributed-optimizer --num-distributed-optimizer-instances 4
"""


def test_megatron_optimizer_instances_divide_the_data_and_context_parallel_ranks():
    s = import_texts([("train.sh", MEGATRON)]).scenario
    # 32 GPUs / tp 2 = 16 dp x cp ranks, 4 instances of 4 (megatron/core/parallel_state.py at d98e8a64 l. 922-929)
    assert (s["distributed_optimizer"], s["dp_shard"]) == (True, 32 // 2 // 4)
    bad = import_texts([("train.sh", MEGATRON.replace("instances 4", "instances 3"))])
    assert "dp_shard" not in bad.scenario
    assert any("optimizer-instances" in u.key for u in bad.unmapped)


def test_deepspeed_mics_shard_size_and_the_gpus_it_needs():
    ds = {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "mics_shard_size": 8}}
    result = import_texts([("ds_config.json", json.dumps(ds))])
    assert (result.scenario["zero_stage"], result.scenario["dp_shard"]) == (3, 8)
    # the file names no GPU count: a set-up of 4 GPUs is raised to one the group divides (engine/configs/hardware.py)
    counts, raised = counts_for_import(result.scenario, {"gpus_per_node": 4, "nodes": 1})
    assert raised and (counts["gpus_per_node"] * counts["nodes"]) % 8 == 0
    off = import_texts([("ds_config.json", json.dumps({**ds, "zero_optimization": {"stage": 3, "mics_shard_size": -1}}))])
    assert "dp_shard" not in off.scenario
