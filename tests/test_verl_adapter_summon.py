"""verl's collection of a LoRA policy's adapters at the reshard, per FSDP unit, adapter tensor and parameter byte
(engine/posttraining/adapter_summon.py), each expected value worked out here from the code the verl-data rows ran:

- verl 9466d371e verl/utils/fsdp_utils.py layered_summon_lora_params (lines 464-495; rollout.layered_summon=True in
  every GRPO-LoRA script of that commit): per decoder layer summon_full_params, layer.state_dict() (SHARDED_STATE_DICT
  with DTensor, the actor being built with a device mesh), `param.full_tensor().detach().cpu()` of each adapter tensor;
- pytorch FSDP1 _unshard_param_utils.py _unshard_fsdp_state_params: a device synchronize per FSDP state, in the
  summon and again in the state-dict pre-hook, which also synchronizes in _common_pre_state_dict_hook; the summon's
  unshard / reshard are a no-grad forward visit's calls without the module call (engine/timing/fsdp1_host.py);
  _shard_utils.py _create_chunk_dtensor clones every parameter; its Python and full_tensor()'s at the view calls
  benchmarks/verl_dtensor_state_dict_host.py measured running torch's code on the CPU.
"""

import json
from pathlib import Path

import pytest

from engine.posttraining.adapter_summon import (
    DTENSOR_CHUNK_PYTHON_VIEW_CALLS,
    FULL_TENSOR_PYTHON_VIEW_CALLS,
    adapter_summon_seconds,
    state_dict_tensors,
    summoned_units,
)
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import hardware_for
from engine.timing.collectives import ALL_GATHER, small_message_latency
from engine.timing.fsdp1_host import FSDP1_PYTHON_VIEW_CALLS
from engine.timing.host import host_speed_factor
from engine.timing.host_table import host_figures
from engine.timing.links import nvlink_domain

ROWS = json.loads((Path(__file__).parent / "data" / "published" / "posttraining_time.json").read_text())["rows"]
# the verl-data Qwen2.5-7B GRPO-LoRA row: 8 H100s, FSDP1 over 8, fp32 parameters, LoRA rank 32 on all seven linears of
# 28 layers; and the MATH recipe's 0.5B on 2 GPUs
VERL_7B = next(r for r in ROWS if r["id"] == "verl-data-time-grpo-lora-qwen2.5-7b-8gpu")["scenario"]
VERL_05B = next(r for r in ROWS if r["id"] == "verl-data-time-grpo-lora-math-qwen2.5-0.5b-2gpu")["scenario"]


def test_the_7b_rows_collection_is_its_units_tensors_and_bytes():
    s = scenario_from_dict(VERL_7B)
    spec, hw = resolve_model(s), hardware_for(s)
    # each decoder layer a unit (the decoder-layer wrap policy) and A and B of its 7 adapted linears units of their own
    assert summoned_units(s, spec) == (28 + 28 * 7 * 2, 28 * 7 * 2)
    fig = host_figures()
    factor = host_speed_factor(s)
    launch, view, sync = (fig["launch_seconds"]["value"] * factor, fig["view_seconds"]["value"] * factor,
                          fig["sync_seconds"]["value"])
    # a no-grad forward visit's 2 kernels and 26 PyTorch calls (fsdp1_host.py VISIT_CALLS) and FSDP1's measured Python,
    # no module call; three synchronizes (the summon's, and the sharded state-dict pre-hook's
    # _common_pre_state_dict_hook and _unshard_fsdp_state_params)
    per_unit = 2 * launch + (26 + FSDP1_PYTHON_VIEW_CALLS["forward"]) * view + 3 * sync
    # every adapter unit's flat parameter and every adapter tensor's full_tensor(): a few-byte all-gather over 8 ranks
    gathers = 2 * 392 * small_message_latency(hw, ALL_GATHER, 8, 8, nvlink_domain(s, hw))
    # every decoder-layer parameter (base and adapters, fp32) cloned: read and written once
    lora = 28 * 32 * sum(d_in + d_out for d_in, d_out in (
        (3584, 3584), (3584, 512), (3584, 512), (3584, 3584), (3584, 18944), (3584, 18944), (18944, 3584)))
    layer_params = spec.total_params - 2 * spec.vocab * spec.hidden + lora  # Qwen2.5-7B's head is untied
    clones = 2 * layer_params * 4 / hw.memory_bytes_per_s
    # the state dict's tensors: per layer q, k, v, o, gate, up, down weights, the q / k / v biases (Qwen2) and 2
    # norms, then the 392 adapter tensors; each chunked into a DTensor (its measured Python and its clone's launch),
    # each adapter tensor's full_tensor() (its measured Python)
    assert state_dict_tensors(s, spec) == 28 * (7 + 3 + 2) + 392
    dtensors = (728 * (DTENSOR_CHUNK_PYTHON_VIEW_CALLS * view + launch)
                + 392 * FULL_TENSOR_PYTHON_VIEW_CALLS * view)
    expected = 420 * per_unit + gathers + clones + dtensors
    assert adapter_summon_seconds(step_parts(s), s, hw) == pytest.approx(expected, rel=1e-6)
    # about 17 ms a layer: the 15 units' FSDP1 host work more than half of it, the DTensor state dict's most of the rest
    assert 0.3 < expected < 0.6 and 420 * per_unit > expected / 2 and dtensors > expected / 4


def test_more_fsdp_ranks_wait_longer_for_each_gather_and_no_units_no_collection():
    s7, s05 = scenario_from_dict(VERL_7B), scenario_from_dict(VERL_05B)
    hw = hardware_for(s7)
    # NCCL's few-byte all-gather over 8 ranks takes longer than over 2 (more ring steps)
    assert (small_message_latency(hw, ALL_GATHER, 8, 8, nvlink_domain(s7, hw))
            > small_message_latency(hw, ALL_GATHER, 2, 2, nvlink_domain(s05, hw)))
    assert adapter_summon_seconds(step_parts(s05), s05, hardware_for(s05)) > 0
    # a full fine-tune has no adapters to collect; one GPU runs NO_SHARD: nothing is summoned
    full = {k: v for k, v in VERL_7B.items() if not k.startswith("lora_")} | {"method": "full",
                                                                               "reference_model": "separate"}
    s_full = scenario_from_dict(full)
    assert adapter_summon_seconds(step_parts(s_full), s_full, hw) == 0.0
    one = scenario_from_dict({**VERL_05B, "gpus_per_node": 1, "rollout_tp": 1})
    assert adapter_summon_seconds(step_parts(one), one, hardware_for(one)) == 0.0
