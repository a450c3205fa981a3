"""Fastest layouts lists a change of what you train only where it gains speed or memory (issue 23 item 5: plans an
expert would weigh). Found in the 70B DeepSpeed ZeRO-3 set-up on 8 H100s: "optimizer=adamw-8bit, ..., offload=
optimizer" at the speed and memory of the same-training plan above it (5.47K tokens/s, 55.13 GiB both), and QLoRA at
LoRA's speed (within the search's TIE) with 22 GiB more per GPU."""

import pytest

from engine import scenario_from_dict
from engine.planning.listing import TIE
from engine.planning.speed_ranking import ranking_speed
from engine.planning.speed_search import speed_search

LLAMA_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
             "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 4096, "grad_accum": 8, "attention": "flash",
             "checkpointing": "full", "zero_stage": 3, "framework": "deepspeed"}
LORA_4090 = {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "micro_batch": 1, "seq_len": 2048,
             "attention": "flash", "checkpointing": "full"}


def _matches(q, p) -> bool:
    """q leaves p no gain: as fast as the search ranks them (an offloading plan OFFLOAD_MARGIN lower per level) and
    no more memory, both within TIE."""
    return (ranking_speed(q) >= ranking_speed(p) * (1 - TIE)
            and q.estimate.total_bytes <= p.estimate.total_bytes * (1 + TIE))


@pytest.mark.parametrize("scenario", [LLAMA_70B, LORA_4090], ids=["70b-deepspeed", "8b-lora-4090"])
def test_every_listed_change_gains_speed_or_memory(scenario):
    result = speed_search(scenario_from_dict(scenario))
    assert result.plans and result.changes_what_you_train  # both lists are there to compare
    for p in result.changes_what_you_train:
        assert not any(_matches(q, p) for q in result.plans), p.changes
        assert not any(_matches(q, p) and len(q.changes) <= len(p.changes)
                       for q in result.changes_what_you_train if q is not p), p.changes


def test_the_70b_offload_keeps_no_8bit_twin_and_lora_stays():
    changes = [p.changes for p in speed_search(scenario_from_dict(LLAMA_70B)).changes_what_you_train]
    assert not any(c.get("optimizer") == "adamw-8bit" and c.get("offload") == "optimizer" for c in changes)
    assert any(c.get("method") == "lora" for c in changes)


def test_an_offload_plan_does_not_hide_8bit_adamw_at_its_speed():
    """torchtune Llama 3.1 8B full fine-tune (bf16, AdamW) on one H100 fits only with the optimizer offloaded
    (7.03K tokens/s, 49 GiB); 8-bit AdamW runs at that speed (7.03K, 64 GiB) with nothing offloaded, and torchtune's
    own single-GPU config picks it (pytorch/torchtune at 02d70355 recipes/configs/llama3_1/8B_full_single_device.yaml:
    bitsandbytes.optim.PagedAdamW8bit). Offload is the time model's least sure term, so the search ranks an
    offloading plan OFFLOAD_MARGIN lower per level (speed_search.ranking_speed); it was left out beside the offload
    plan as 'no gain' by raw tokens/s."""
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 1,
                            "framework": "torchtune", "precision": "bf16", "micro_batch": 2, "grad_accum": 8,
                            "seq_len": 4096, "attention": "flash", "checkpointing": "full"})
    result = speed_search(s)
    assert result.plans and all(p.scenario.offload == "optimizer" for p in result.plans)
    eight_bit = [p for p in result.changes_what_you_train if p.changes.get("optimizer") == "adamw-8bit"]
    assert eight_bit and eight_bit[0].scenario.offload == "none"
