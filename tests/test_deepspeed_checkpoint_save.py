"""The CPU memory DeepSpeed's save_checkpoint holds (engine/memory/checkpoint_save.py "deepspeed-torch-save").

Sources (deepspeedai/DeepSpeed at edaa7221267243c7be7fb49c5d5f5c4fb97b4641): runtime/engine.py save_checkpoint /
_save_checkpoint / _save_zero_checkpoint (lines 4749-4830, 5239-5266, 5409-5424); the writer of the model states is
data-parallel rank 0 (checkpoint_engine/checkpoint_engine.py line 48); frozen_param_fragments under ZeRO-2/3 (line 5245,
5293-5306); the flat 16-bit buffer whose views the trainable weights are (zero/stage_1_and_2.py lines 795-803); the
fp32 master partition (lines 492-509). torch.save copies one storage at a time (pytorch/pytorch at 000a1a54cb9c
torch/serialization.py _save)."""

import pytest

from engine.memory.checkpoint_save import SUB_GROUP_VALUES, DeepSpeedSaveInputs, deepspeed_save_checkpoint
from engine.memory.estimate import estimate
from engine.memory.loading import PROCESS_HOST_BYTES
from engine.scenario import resolve_model
from engine.scenario.file import load_scenario

EXAMPLE = "examples/7b-zero3-8x-a100-40g.json"  # Llama 2 7B, mixed-bf16, AdamW, ZeRO-3 over 8 GPUs in one node


def _ds(**changes: object):
    return load_scenario(EXAMPLE).with_unchecked(framework="deepspeed", **changes)


def test_zero3_full_training_every_rank_stages_its_fp32_partition():
    # ZeRO-3: the module's parameters are empty placeholders; each of the 8 ranks copies its fp32 master partition
    # (4 B x params / 8, under the 1e9-value sub-group) one storage at a time: the node stages 4 B a parameter
    s = _ds()
    params = resolve_model(s).total_params
    assert params / 8 < SUB_GROUP_VALUES
    assert estimate(s).host_bytes == pytest.approx(8 * PROCESS_HOST_BYTES + 4 * params, rel=1e-12)
    assert "save_checkpoint" in estimate(s).host_formula


def test_zero2_writer_copies_the_flat_16_bit_buffer():
    # the writer (rank 0) copies the whole flat bf16 buffer (2 B x params), the other 7 their fp32 partition (4 B / 8)
    hold = deepspeed_save_checkpoint(8, 1, DeepSpeedSaveInputs(2, 7e9, 2, 8, False, False, 0.0, 0.0))
    assert hold.node_bytes == pytest.approx(2 * 7e9 + 7 * 4 * 7e9 / 8)


def test_zero2_lora_every_rank_copies_the_frozen_base():
    # engine.py line 5293: param.detach().cpu() of every frozen weight on every rank (ZeRO-2 keeps them whole): 8 x the
    # 14 GB base, + the writer's largest module storage (the 0.5 GB embedding, larger than the adapters' flat buffer)
    hold = deepspeed_save_checkpoint(8, 1, DeepSpeedSaveInputs(2, 20e6, 2, 8, False, False, 14e9, 0.5e9))
    assert hold.node_bytes == pytest.approx(8 * 14e9 + 0.5e9)


def test_zero3_lora_fragments_are_partitions_and_offloaded_ones_are_not_copied():
    hold = deepspeed_save_checkpoint(8, 8, DeepSpeedSaveInputs(3, 20e6, 2, 8, False, False, 14e9, 0.5e9))
    assert hold.node_bytes == pytest.approx(8 * 14e9 / 8)  # each rank its ds_tensor partition
    # offload_param: ds_tensor is a CPU tensor, .cpu() returns it; offload_optimizer: the partitions are CPU tensors
    assert deepspeed_save_checkpoint(8, 8, DeepSpeedSaveInputs(3, 20e6, 2, 8, True, True, 14e9, 0.5e9)).node_bytes == 0


def test_not_modelled_where_not_read():
    # pipeline parallelism (PipelineEngine's per-layer files) and stage 0 without BF16_Optimizer (fp32 training):
    # the save adds nothing, as before this was read
    assert "save_checkpoint" not in estimate(_ds(zero_stage=0, precision="fp32")).host_formula
    assert "save_checkpoint" not in estimate(_ds(zero_stage=1, pp=2)).host_formula
    # the rows built on DeepSpeed's (InternEvo, OpenRLHF, the 2021 and 2022 releases) keep no save term
    for fw in ("internevo", "openrlhf", "deepspeed-2022"):
        assert "save_checkpoint" not in estimate(load_scenario(EXAMPLE).with_unchecked(
            framework=fw, zero_stage=1)).host_formula
