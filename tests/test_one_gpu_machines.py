"""A GPU with no GPU-to-GPU link (presets/gpus.json interconnect "none": Apple's unified-memory chips) is one GPU a
machine, so Make it fit and the limits grow it by machines, never by tensor parallelism within a node (user audit 7:
a LoRA on one Mac was offered "2 GPUs (1 x 2) with tp=2 ... TP needs fast NVLink inside the node")."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.limits import limits, node_size
from engine.planning.solver import plans


def test_a_mac_grows_by_machines_not_by_gpus_in_a_node() -> None:
    s = scenario_from_dict({"model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb", "method": "lora", "precision": "bf16",
                            "lora_targets": "all-linear", "micro_batch": 2, "seq_len": 2048})
    assert not estimate(s).fits
    assert node_size(s) == 1
    assert limits(s).min_gpus["tp_pp"] is None  # no tensor parallelism within a one-GPU machine
    for p in plans(s, max_plans=8):
        assert p.scenario.tp == 1 and p.scenario.gpus_per_node == 1
    # a data-centre card still grows within an 8-GPU server
    assert node_size(s.replace(gpu="h100-sxm-80gb")) == 8
