"""verl's weight sync of a LoRA policy and vLLM's level-1 sleep in time (engine/posttraining/adapter_sync.py), each
expected value worked out here from the mechanism's source and the scenario's own figures, not from the estimate:

- verl 9466d371e verl/workers/sharding_manager/fsdp_vllm.py __enter__ (timer "reshard"): summon_full_params over the
  policy (layered or whole), which FSDP1 gathers in full precision (torch/distributed/fsdp/_flat_param.py
  `_full_prec_full_param_padded`), verl's actor keeping fp32 parameters (fsdp_workers.py line 210); `.cpu()` of every
  adapter tensor (a synchronous copy each); add_lora with the adapters alone;
- vLLM's level-1 sleep (vllm/device_allocator/cumem.py CuMemAllocator.sleep / wake_up): the engine's weights to a
  pinned CPU backup after generating and back before the next generation.
"""

import json
from pathlib import Path

import pytest

from engine.posttraining.adapter_summon import adapter_summon_seconds
from engine.posttraining.adapter_sync import adapter_tensors, serves_adapters
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import hardware_for
from engine.timing.host_table import host_figures
from engine.workloads import step_time

ROWS = json.loads((Path(__file__).parent / "data" / "published" / "posttraining_time.json").read_text())["rows"]
# the verl-data Qwen2.5-7B GRPO-LoRA row: 8 H100s, FSDP over 8, vLLM TP 2 colocated, sleep level 1, amp-bf16 (fp32
# parameters), LoRA rank 32 on all seven linears of 28 layers
VERL_7B = next(r for r in ROWS if r["id"] == "verl-data-time-grpo-lora-qwen2.5-7b-8gpu")["scenario"]


def _sync(keys: dict) -> float:
    return dict(step_time(scenario_from_dict(keys)).rl_seconds)["weight_sync"]


def test_the_lora_rows_sync_is_the_full_precision_gather_the_adapters_copies_and_the_sleep_copies():
    s = scenario_from_dict(VERL_7B)
    spec, hw, p = resolve_model(s), hardware_for(s), step_parts(s)
    assert serves_adapters(s)
    # every parameter gathered once in fp32 (4 bytes) over the node's link: each GPU receives the 7 shards of 8 it lacks
    gather = spec.total_params * 4 * 7 / 8 / hw.intra_bytes_per_s
    # A and B of q, k, v, o, gate, up, down in each of the 28 layers, each .cpu() a host round trip
    assert adapter_tensors(s, spec) == 2 * 7 * 28
    copies = 392 * host_figures()["sync_seconds"]["value"]
    # level 1: everything the engine allocated under its "weights" tag on one engine GPU (the bf16 weights over vLLM
    # TP 2, its LoRA stacks and the allocator's rounding: the memory model's engine weight figure) out to pinned
    # memory and back
    assert p.engine.weight_bytes >= spec.total_params * 2 / 2
    sleep = 2 * p.engine.weight_bytes / hw.host_bytes_per_s
    # and the adapters' collection per FSDP unit, tensor and byte (adapter_summon.py, its own test:
    # tests/test_verl_adapter_summon.py)
    summon = adapter_summon_seconds(p, s, hw)
    assert summon > 0
    assert _sync(VERL_7B) == pytest.approx(gather + copies + sleep + summon, rel=1e-9)
    # the merged-weights sync it replaces: the policy's bf16 bytes over the node's link, smaller than the fp32 gather
    assert gather > spec.total_params * 2 / hw.intra_bytes_per_s


def test_level_two_sleep_copies_nothing_back_and_a_full_fine_tune_syncs_its_weights():
    s = scenario_from_dict(VERL_7B)
    spec, hw = resolve_model(s), hardware_for(s)
    sleep = 2 * step_parts(s).engine.weight_bytes / hw.host_bytes_per_s
    # level 2 discards the weights (the sync rewrites them): the sleep's copies go, the adapters' sync stays
    assert _sync({**VERL_7B, "rollout_sleep": "level-2"}) == pytest.approx(_sync(VERL_7B) - sleep, rel=1e-9)
    # a full fine-tune sends the merged bf16 policy over the node's link (FSDP gathers it), plus level 1's copies
    full = {k: v for k, v in VERL_7B.items() if not k.startswith("lora_")} | {"method": "full",
                                                                               "reference_model": "separate"}
    assert not serves_adapters(scenario_from_dict(full))
    full_sleep = 2 * step_parts(scenario_from_dict(full)).engine.weight_bytes / hw.host_bytes_per_s
    assert _sync(full) == pytest.approx(spec.total_params * 2 / hw.intra_bytes_per_s + full_sleep, rel=1e-9)


def test_only_the_adapted_layers_adapters_are_copied_to_the_host():
    """lora_layers N (PEFT layers_to_transform): get_peft_model_state_dict holds the adapters that exist, those of the
    top N layers, so N x 7 x 2 tensors are .cpu()'d, not 28 x 7 x 2."""
    s = scenario_from_dict({**VERL_7B, "lora_layers": 10})
    assert adapter_tensors(s, resolve_model(s)) == 2 * 7 * 10
