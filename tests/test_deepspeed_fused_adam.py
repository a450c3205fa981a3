"""DeepSpeed's config optimizer Adam / AdamW is its FusedAdam (deepspeedai/DeepSpeed deepspeed/runtime/engine.py
_configure_basic_optimizer at edaa72212 lines 2095-2139, 2151c787a lines 1175-1208, 112ebff6e86a lines 653-678; torch's
AdamW only with torch_adam true, DeepSpeedCPUAdam under ZeRO offload), whose step (deepspeed/ops/adam/fused_adam.py
multi_tensor_applier over [g, p, m, v]) updates in place: no foreach temporary. A config with no optimizer section
trains the client's optimizer (transformers' Trainer: torch's AdamW), the scenario's "adamw"."""

from __future__ import annotations

import json

import pytest

from engine import estimate, scenario_from_dict
from engine.configs import import_files
from engine.configs.exporting import export_config
from engine.frameworks.defaults import defaults_for
from engine.scenario.optimizer_used import optimizer_used

ONE_NODE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096, "micro_batch": 1,
            "precision": "mixed-bf16", "zero_stage": 2}


def _optimizer_temp(s) -> float:
    return sum(c.moments.optimizer for st in estimate(s).stages for c in st.components if c.key == "optimizer_temp")


def test_deepspeeds_own_adamw_is_fusedadam_and_keeps_no_foreach_temporary():
    source = next(where for what, where in defaults_for("deepspeed").runs.sources if what == "optimizer")
    assert "edaa72212" in source and "FusedAdam" in source and "torch_adam" in source
    own = scenario_from_dict({**ONE_NODE, "framework": "deepspeed"})  # no optimizer named: DeepSpeed's own
    assert own.optimizer == "adamw-fused"
    # the client's torch AdamW (foreach) keeps sqrt(v), one state-sized fp32 list over the rank's ZeRO-2 shard
    # (engine/memory/stage_states.py, pytorch/pytorch PR #104898); FusedAdam none of it
    client = own.replace(optimizer="adamw")
    assert _optimizer_temp(client) - _optimizer_temp(own) > 0


@pytest.mark.parametrize("framework", ["deepspeed-2022", "deepspeed-2021"])
def test_deepspeed_2021_2022_adam_is_fused_at_the_commit_its_row_cites(framework):
    """Megatron-DeepSpeed builds apex's (or DeepSpeed's) FusedAdam itself; DeepSpeed's config AdamW was FusedAdam
    then too: the row's "adamw" keeps no foreach temporary (FrameworkDefaults.adam_fused)."""
    source = next(where for what, where in defaults_for(framework).runs.sources if what == "optimizer")
    assert "FusedAdam" in source and "torch_adam" in source
    s = scenario_from_dict({**ONE_NODE, "framework": framework, "optimizer": "adamw"})
    assert _optimizer_temp(s) == _optimizer_temp(s.replace(optimizer="adamw-fused"))


@pytest.mark.parametrize(("params", "zero", "expected"), [
    ({"lr": "auto"}, {"stage": 2}, "adamw-fused"),  # FusedAdam
    ({"lr": "auto", "torch_adam": True}, {"stage": 2}, "adamw"),  # torch.optim.AdamW
    ({"lr": "auto"}, {"stage": 2, "offload_optimizer": {"device": "cpu"}}, "adamw"),  # DeepSpeedCPUAdam
])
def test_a_deepspeed_config_reads_as_the_adam_deepspeed_builds(tmp_path, params, zero, expected):
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_micro_batch_size_per_gpu": 1, "zero_optimization": zero,
                                "optimizer": {"type": "AdamW", "params": params}}))
    assert import_files([path]).scenario["optimizer"] == expected


def test_a_deepspeed_config_without_optimizer_trains_the_trainers_torch_adamw(tmp_path):
    """No optimizer section: the client's optimizer, transformers' Trainer's own torch AdamW (integrations/deepspeed.py
    deepspeed_optim_sched), not the framework's FusedAdam."""
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}))
    assert import_files([path]).scenario["optimizer"] == "adamw"


def test_the_deepspeed_based_rows_not_read_keep_foreach():
    # InternEvo builds torch.optim.AdamW itself (presets/efficiency.json internevo fused_optimizer false); Aleph Alpha
    # Scaling: its optimizer not read; OpenRLHF builds FusedAdam, which its importer and its "auto" say as adamw-fused
    # (engine/configs/openrlhf_optimizer.py), so a scenario's explicit "adamw" stays torch's
    assert not any(defaults_for(fw).adam_fused for fw in ("deepspeed", "internevo", "openrlhf", "aleph-alpha-scaling"))


@pytest.mark.parametrize("optimizer", ["auto", "adamw", "adamw-fused"])
def test_the_deepspeed_export_reads_back_as_the_same_adamw(tmp_path, optimizer):
    """DeepSpeed's own AdamW exports as a config optimizer AdamW ("auto" params, which transformers fills); the client's
    torch AdamW as no optimizer section."""
    s = scenario_from_dict({**ONE_NODE, "framework": "deepspeed", "optimizer": optimizer})
    path = tmp_path / "ds.json"
    path.write_text(export_config(s, "deepspeed"))
    assert import_files([path]).scenario["optimizer"] == optimizer_used(s)


def _optimizer_step_seconds(s) -> float:
    from engine.timing import step_time
    from engine.timing.step_result import BREAKDOWN_KEYS
    return step_time(s).seconds[BREAKDOWN_KEYS.index("optimizer")]


def test_the_time_model_steps_the_adamw_memory_counts():
    """Every row's "adamw" is timed as the AdamW its memory counts: fused (one pass over weight, grad, m, v) where
    FrameworkDefaults.adam_fused, else PyTorch's foreach AdamW (presets/efficiency.json frameworks fused_optimizer)."""
    from engine.frameworks.defaults import TABLE
    from engine.timing.data import framework_profile
    assert all(framework_profile(fw)["fused_optimizer"] == row.adam_fused for fw, row in TABLE.items())


def test_deepspeed_without_an_optimizer_section_times_torch_adamw_not_fusedadam():
    """A DeepSpeed config without an optimizer section trains the Trainer's torch AdamW (the scenario's "adamw"):
    its step moves presets/efficiency.json optimizer_bytes_per_param adamw (18 passes) where DeepSpeed's FusedAdam
    (adamw-fused) moves 7, plus the same clipping passes; so the torch step is the slower one, by 11 state passes."""
    from engine.timing.data import efficiency
    torch_adamw = scenario_from_dict({**ONE_NODE, "framework": "deepspeed", "optimizer": "adamw"})
    fused = torch_adamw.replace(optimizer="adamw-fused")
    passes = efficiency()["optimizer_bytes_per_param"]
    clip = passes["clip_passes"] * 2 / 4  # clipping reads the bf16 gradients (2 bytes) where Adam moves fp32 states
    ratio = (passes["adamw"] + clip) / (passes["adamw-fused"] + clip)
    assert _optimizer_step_seconds(torch_adamw) / _optimizer_step_seconds(fused) == pytest.approx(ratio, rel=1e-6)
