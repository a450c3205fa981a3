"""A GPU with no GPU-to-GPU link (presets/gpus.json interconnect "none": Apple's unified-memory chips) is one GPU a
machine, so Make it fit and the limits grow it by machines, never by tensor parallelism within a node (user audit 7:
a LoRA on one Mac was offered "2 GPUs (1 x 2) with tp=2 ... TP needs fast NVLink inside the node"); and Liger's
Triton kernels are offered only where Triton runs."""

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


def test_liger_kernels_are_not_offered_where_triton_does_not_run() -> None:
    # Liger-Kernel is Triton kernels; Triton supports NVIDIA and AMD GPUs (triton-lang/triton README.md at 0112e82a,
    # 'Compatibility'): a LoRA on a Mac was told "use Liger kernels (pip install liger-kernel)" in Make it fit and the
    # Suggestions (user audit 7); an RTX 4090's same set-up still is
    from engine.planning.suggest import suggestions

    mac = scenario_from_dict({"model": "qwen2.5-7b", "gpu": "apple-m4-max-64gb", "method": "lora",
                              "precision": "bf16", "lora_targets": "all-linear", "micro_batch": 2, "seq_len": 2048})
    assert not any(p.scenario.liger_kernels for p in plans(mac, max_plans=8))
    assert not any(sug.changes.get("liger_kernels") for sug in suggestions(mac))
    nvidia = mac.replace(gpu="rtx-4090", seq_len=4096)
    assert any(sug.changes.get("liger_kernels") for sug in suggestions(nvidia))
