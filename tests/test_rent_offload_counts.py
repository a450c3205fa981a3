"""What should I rent? looks past an offloading option (issue 23 item 6). The search stopped a GPU type once the cost
rose with more GPUs, or once no fitting layout beat the cheapest so far; an option that offloads its optimizer runs
several times slower per GPU, so the count above it can look dearer while four times the GPUs hold every state on
the GPUs (16 bytes per parameter sharded, 12 of them the optimizer's) and run far cheaper. Found on Mixtral 8x7B,
Hugging Face with FSDP (h-twin's rent comparison): the answer was 4 x A100 80GB with optimizer offload, while 16 x
H100 without offload costs less."""

import pytest

from engine import scenario_from_dict
from engine.planning.rent import OFFLOAD_GPU_FACTOR, rent_search

PRICES = {"h100-sxm-80gb": 2.0, "a100-80gb": 1.0, "a100-40gb": 0.8}  # benchmark inputs, not provider prices
MIXTRAL = {"model": "mixtral-8x7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "micro_batch": 1, "grad_accum": 16,
           "seq_len": 4096, "attention": "flash", "precision": "mixed-bf16", "checkpointing": "full",
           "tokens_to_train": 2 * 10**9, "currency": "USD", "framework": "huggingface", "fsdp": True}


@pytest.fixture(scope="module")
def mixtral():
    return rent_search(scenario_from_dict(MIXTRAL), PRICES, max_gpus=64)


def test_counts_above_an_offloading_option_are_searched(mixtral):
    for gpu in PRICES:
        rows = sorted((o for o in mixtral.ranked + mixtral.dropped if o.gpu == gpu), key=lambda o: o.gpus)
        offloading = [o.gpus for o in rows if o.plan is not None and o.plan.scenario.offload != "none"]
        assert offloading, gpu  # each type first fits with an offload (47B of states on 4-8 GPUs)
        searched = {o.gpus for o in rows}
        assert OFFLOAD_GPU_FACTOR * min(offloading) in searched, (gpu, sorted(searched))


def test_the_cheapest_answer_needs_no_offload(mixtral):
    first = mixtral.ranked[0]
    assert first.plan.scenario.offload == "none"
    offloading = [o.cost for o in mixtral.ranked if o.plan.scenario.offload != "none"]
    assert offloading and first.cost < min(offloading)


def test_an_applied_option_carries_what_its_plan_runs_with():
    """Apply sets the option's changes (RentOption.changes): a Megatron plan that offloads writes Megatron's own share
    (optimizer_offload_fraction 1.0, Megatron-LM d98e8a64 arguments.py --optimizer-offload-fraction default; the speed
    search writes it, h-twin2), and a Megatron-LM 2021 scenario asking for a distributed optimizer it lacks (de7dc40f88:
    no --use-distributed-optimizer) is searched, and applied, without it."""
    megatron = rent_search(scenario_from_dict({**MIXTRAL, "framework": "megatron", "fsdp": False}), PRICES,
                           max_gpus=64)
    offloading = [o for o in megatron.ranked + megatron.dropped if o.plan is not None
                  and o.plan.scenario.offload != "none"]
    assert offloading and all(dict(o.changes).get("optimizer_offload_fraction") == 1.0 for o in offloading)
    old = scenario_from_dict({"model": "llama-2-13b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 2,
                              "precision": "mixed-bf16", "seq_len": 4096, "grad_accum": 8, "attention": "flash",
                              "framework": "megatron-2021", "tp": 4, "distributed_optimizer": True,
                              "tokens_to_train": 10**9})
    ranked = rent_search(old, {"a100-80gb": 1.0}, max_gpus=32).ranked
    assert ranked and all(dict(o.changes).get("distributed_optimizer") is False for o in ranked)
