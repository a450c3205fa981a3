"""What should I rent: a rented GPU type's node is the server it is rented in, not the user's machine
(engine/planning/rent.py node_gpus)."""

from engine import scenario_from_dict
from engine.planning.rent import rent_search
from engine.planning.rent_counts import node_gpus


def _desktop(**extra):
    return scenario_from_dict({"model": "llama-3.1-8b", "gpu": "rtx-4090", "method": "qlora", "precision": "bf16",
                               "lora_rank": 16, "lora_targets": "all-linear", "micro_batch": 4, "seq_len": 4096,
                               "attention": "flash", "checkpointing": "full", "tokens_to_train": 10**8, **extra})


def test_rented_nodes_are_the_gpu_types_servers():
    s = _desktop()  # one RTX 4090 a node: the user's desktop
    assert node_gpus(s, "rtx-4090") == 1  # the scenario's own GPU keeps the node it states
    # 8 GPUs a system: the DGX-1 (V100), DGX A100, DGX H100 and DGX B200 datasheets cited in presets/gpus.json
    assert node_gpus(s, "h100-sxm-80gb") == node_gpus(s, "b200") == node_gpus(s, "a100-80gb") == 8
    assert node_gpus(s, "gb200") == 4  # an NVL72 compute tray holds 4 GPUs
    # PCIe cards, NVLink-bridge pairs and a Grace Hopper superchip keep the scenario's count
    assert node_gpus(s, "l40s") == node_gpus(s, "rtx-a6000") == node_gpus(s, "gh200") == 1


def test_a_desktop_set_up_rents_b200s_eight_to_a_node():
    """Llama 3.1 8B QLoRA on one RTX 4090 had '2 x NVIDIA B200 (2 node(s))' among the options."""
    result = rent_search(_desktop(), {"b200": 5.0}, max_gpus=8)
    rows = list(result.ranked) + list(result.dropped)
    assert rows and all(r.nodes == 1 for r in rows if r.gpus and r.gpus <= 8)


def test_one_sxm_gpu_of_the_set_ups_own_type_rents_more_in_its_server():
    """A set-up of one H100 SXM is a slice of its 8-GPU server (the DGX H100 datasheet presets/gpus.json cites), so 4 of
    them are rented in one node: the CLI had offered '4 x NVIDIA H100 SXM 80GB (4 node(s))', ZeRO over the network."""
    one = _desktop(gpu="h100-sxm-80gb")
    assert node_gpus(one, "h100-sxm-80gb") == 8
    assert node_gpus(_desktop(gpu="h100-sxm-80gb", gpus_per_node=4), "h100-sxm-80gb") == 4  # a stated node is kept
    result = rent_search(one, {"h100-sxm-80gb": 3.0}, max_gpus=8)
    rows = list(result.ranked) + list(result.dropped)
    assert rows and all(r.nodes == 1 for r in rows if r.gpus and r.gpus <= 8)
