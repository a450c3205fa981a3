"""ZeRO-1's per-step passes over a stage's whole gradients (engine/timing/step_gradient_passes.py): the profiles' bytes
per parameter as counted from the code the runs used (presets/efficiency.json frameworks
zero1_step_gradient_bytes_per_param and its _source: Aleph-Alpha/scaling at 78489292be, microsoft/DeepSpeed at
2151c787a)."""
import dataclasses

import pytest

from engine.scenario import scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.step_gradient_passes import step_gradient_pass_seconds

SCENARIO = {"model": "llama-2-13b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 8, "framework": "aleph-alpha-scaling",
            "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 64, "seq_len": 2048, "tp": 1, "pp": 2,
            "zero_stage": 1}


def test_aleph_alpha_bytes_are_the_counted_ops():
    # allreduce.py: flatten (2 + 2), div_ (2 + 2), .to(float32) (2 + 4), copy_ back (4 + 2), buf.copy_ (2 + 2);
    # parameter_group.py scale_grads_and_get_grad_norm_squared: mul_ (2 + 2) and norm (2), over the whole bf16 grads
    all_reduce_bucket = (2 + 2) + (2 + 2) + (2 + 4) + (4 + 2) + (2 + 2)
    grad_norm = (2 + 2) + 2
    assert framework_profile("aleph-alpha-scaling")["zero1_step_gradient_bytes_per_param"] == all_reduce_bucket + grad_norm


def test_deepspeed_2022_bytes_are_the_counted_ops():
    # stage_1_and_2.py allreduce_bucket / allreduce_and_copy in fp16: flatten (2 + 2), div_ (2 + 2), buf.copy_ (2 + 2)
    assert framework_profile("deepspeed-2022")["zero1_step_gradient_bytes_per_param"] == (2 + 2) * 3


class _Stage:
    trainable = 7e9


class _Rates:
    memory = 1.7e12


def test_seconds_are_bytes_over_the_memory_rate_under_zero1_only():
    s = scenario_from_dict(SCENARIO)
    prof = framework_profile("aleph-alpha-scaling")
    assert step_gradient_pass_seconds(s, prof, _Rates(), _Stage()) == pytest.approx(30 * 7e9 / 1.7e12)
    # a profile that states none, and scenarios that run another path (ZeRO 0, sharded gradients), add nothing
    assert step_gradient_pass_seconds(s, framework_profile("megatron"), _Rates(), _Stage()) == 0.0
    for stage in (0, 2):
        assert step_gradient_pass_seconds(dataclasses.replace(s, zero_stage=stage), prof, _Rates(), _Stage()) == 0.0
