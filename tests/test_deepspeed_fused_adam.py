"""DeepSpeed's config optimizer Adam / AdamW is its FusedAdam (deepspeedai/DeepSpeed deepspeed/runtime/engine.py
_configure_basic_optimizer at edaa72212 lines 2095-2139, 2151c787a lines 1175-1208, 112ebff6e86a lines 653-678; torch's
AdamW only with torch_adam true, DeepSpeedCPUAdam under ZeRO offload), whose step (deepspeed/ops/adam/fused_adam.py
multi_tensor_applier over [g, p, m, v]) updates in place: the DeepSpeed rows' "adamw" keeps no foreach temporary."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import defaults_for

ONE_NODE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096, "micro_batch": 1,
            "precision": "mixed-bf16", "zero_stage": 2, "optimizer": "adamw"}


def _optimizer_temp(s) -> float:
    return sum(c.moments.optimizer for st in estimate(s).stages for c in st.components if c.key == "optimizer_temp")


@pytest.mark.parametrize("framework", ["deepspeed", "deepspeed-2022", "deepspeed-2021"])
def test_deepspeeds_adamw_is_fusedadam_at_the_commit_its_row_cites(framework):
    source = next(where for what, where in defaults_for(framework).runs.sources if what == "optimizer")
    assert "FusedAdam" in source and "torch_adam" in source
    ds = scenario_from_dict({**ONE_NODE, "framework": framework})
    # the same scenario asking for fused AdamW by name: the step is the same one
    assert _optimizer_temp(ds) == _optimizer_temp(ds.replace(optimizer="adamw-fused"))


def test_deepspeeds_step_frees_the_foreach_temporary_hf_trainer_keeps():
    """The Trainer's torch AdamW (foreach) keeps sqrt(v), one state-sized fp32 list over the rank's ZeRO-2 shard
    (engine/memory/stage_states.py, pytorch/pytorch PR #104898): DeepSpeed's FusedAdam keeps none of it."""
    hf = scenario_from_dict({**ONE_NODE, "framework": "huggingface"})
    ds = scenario_from_dict({**ONE_NODE, "framework": "deepspeed"})
    assert _optimizer_temp(hf) - _optimizer_temp(ds) > 0
    assert _optimizer_temp(hf.replace(optimizer="adamw-fused")) == _optimizer_temp(ds)


def test_the_deepspeed_based_rows_not_read_keep_foreach():
    # InternEvo builds torch.optim.AdamW itself (presets/efficiency.json internevo fused_optimizer false); OpenRLHF and
    # Aleph Alpha Scaling: their optimizers not read
    assert not any(defaults_for(fw).adam_fused for fw in ("internevo", "openrlhf", "aleph-alpha-scaling"))
