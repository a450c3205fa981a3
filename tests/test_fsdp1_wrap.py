"""FSDP1 vs FSDP2 at load (issue 24.6): FSDP1's wrap flattens each unit into a FlatParameter and leaves one unit more
in the load peak, and so in the reserved figure where the load is the peak."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import ScenarioError
from engine.frameworks.allocator import GAP_STATIC
from engine.frameworks.defaults import TABLE
from engine.memory.loading import load_parts
from engine.memory.states import Dtypes, StageParams
from engine.scenario.behaviour import behaviour, fsdp1_wrap

BF16 = Dtypes(weight=2, grad=2, state=4, compute=2, master=4, amp=False, fp8=False)


def _s(**kw):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "precision": "bf16", "micro_batch": 1,
                               "seq_len": 512, "gpus_per_node": 8, "fsdp": True, **kw})


def _params(total: float, unit: float) -> StageParams:
    return StageParams(trainable_dense=total, trainable_expert=0.0, frozen=0.0, quantized=0.0, lora=0.0,
                       factored_state=0.0, largest_unit=unit, largest_param=unit / 4)


def test_fsdp1_wrap_holds_the_unit_its_flat_copy_and_the_shards_so_far():
    # torch/distributed/fsdp/_flat_param.py FlatParamHandle: flatten_tensors torch.cat-s the unit's parameters (on
    # the GPU) into the FlatParameter while they still exist, then _get_shard clones this rank's 1/N. Wrapping the
    # last unit of 8e9 bf16 parameters in units of 1e9 over N = 8 ranks therefore holds:
    total, unit, n = 8e9, 1e9, 8
    shards_before = (total - unit) * 2 / n  # the 7 units wrapped before, this rank's shards
    expected = shards_before + unit * 2 + unit * 2 + unit * 2 / n  # + the unit + its flat copy + its shard clone
    fsdp1 = _s(fsdp_version=1)
    fsdp2 = _s(fsdp_version=2)
    assert fsdp1.dp == n
    got1 = load_parts(fsdp1, BF16, _params(total, unit), behaviour(fsdp1), 4).load_gpu_bytes
    got2 = load_parts(fsdp2, BF16, _params(total, unit), behaviour(fsdp2), 4).load_gpu_bytes
    assert got1 == pytest.approx(expected)
    # FSDP2 (fully_shard) shards each parameter as it comes: this rank's shard + the one unit being broadcast
    assert got2 == pytest.approx(total * 2 / n + unit * 2)


def test_the_version_follows_the_framework_unless_the_scenario_says():
    # accelerate's FullyShardedDataParallelPlugin defaults to fsdp_version 1 and litgpt's Fabric FSDPStrategy wraps
    # in FullyShardedDataParallel; torchtune and torchtitan shard with fully_shard (sources in the framework table)
    assert fsdp1_wrap(_s(framework="huggingface")) and fsdp1_wrap(_s(framework="litgpt"))
    assert not fsdp1_wrap(_s(framework="torchtune")) and not fsdp1_wrap(_s(framework="torchtitan"))
    assert not fsdp1_wrap(_s(framework="huggingface", fsdp_version=2))
    assert fsdp1_wrap(_s(framework="torchtune", fsdp_version=1))
    assert not fsdp1_wrap(_s(framework="huggingface", fsdp=False, zero_stage=3))  # DeepSpeed ZeRO-3, no FSDP
    assert {TABLE[f].fsdp_version for f in TABLE} == {1, 2}


def test_fsdp1_load_residue_reaches_the_reserved_figure_when_the_load_is_the_peak():
    one, two = estimate(_s(fsdp_version=1)), estimate(_s(fsdp_version=2))
    unit = one.load_gpu_bytes - two.load_gpu_bytes
    assert unit > 0 and "FSDP1 wrap" in one.load_formula and "FSDP1" not in two.load_formula
    # the step differs only in the gathered parameters (FSDP1's root stays gathered: tests/test_fsdp1_root.py)
    others = [[c for c in est.components if c.key != "zero3_gather"] for est in (one, two)]
    assert others[0] == others[1]
    for est in (one, two):  # the reserved figure is the larger of the step's and the load's segments
        assert est.peak_reserved_bytes == max(est.step_reserved_bytes, est.load_gpu_bytes * (1 + GAP_STATIC))


@pytest.mark.parametrize("bad", [3, 0, "1", True, 1.5, "fsdp2"])
def test_fsdp_version_refuses_other_values_in_one_sentence(bad):
    with pytest.raises(ScenarioError) as e:
        _s(fsdp_version=bad)
    assert "fsdp_version" in str(e.value) and "\n" not in str(e.value)
