"""The optimizer key's "auto" choice (the AdamW the framework builds, engine/frameworks/runs.py Runs.optimizer) and
fused AdamW as a change Make it fit offers where the framework has a setting for it (Runs.fused_adamw)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

from engine import estimate, scenario_from_dict
from engine.configs import export_config
from engine.frameworks.defaults import FRAMEWORKS, defaults_for
from engine.planning.fused_adamw import fused_adamw_setting
from engine.planning.solver import plans
from engine.planning.suggest import suggestions
from engine.scenario import OPTIMIZERS, resolve_model
from engine.scenario.optimizer_used import optimizer_used
from engine.timing import step_time

NODE = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "fsdp": True}
# Llama 3.2 1B, every weight trained under transformers' Trainer on one RTX 4090: 27.6 GiB with foreach AdamW
ONE_GPU = {"model": "llama-3.2-1b", "gpu": "rtx-4090", "framework": "huggingface", "optimizer": "adamw",
           "checkpointing": "full", "attention": "flash"}


def test_auto_is_a_choice_beside_the_named_ones():
    assert "auto" in OPTIMIZERS and OPTIMIZERS[:7] == ("adamw", "adamw-fused", "adamw-8bit", "adamw-8bit-paged",
                                                       "sgd", "sgd-momentum", "adafactor")


def test_auto_resolves_to_the_frameworks_own_and_round_trips():
    auto = scenario_from_dict({**NODE, "framework": "torchtitan", "optimizer": "auto"})
    fused = scenario_from_dict({**NODE, "framework": "torchtitan", "optimizer": "adamw-fused"})
    assert (auto.optimizer, optimizer_used(auto)) == ("auto", "adamw-fused")  # torchtitan b5bcd76c66d0: 'fused'
    assert auto.to_dict()["optimizer"] == "auto" and scenario_from_dict(auto.to_dict()).optimizer == "auto"
    assert estimate(auto).total_bytes == estimate(fused).total_bytes
    assert step_time(auto).seconds == step_time(fused).seconds
    # the same scenario under a framework whose own AdamW is foreach's
    hf = auto.replace(framework="huggingface")
    assert optimizer_used(hf) == "adamw"
    assert estimate(hf).total_bytes == estimate(hf.replace(optimizer="adamw")).total_bytes


def test_every_framework_resolves_auto_to_a_named_optimizer():
    for fw in FRAMEWORKS:
        used = optimizer_used(scenario_from_dict({**NODE, "framework": fw, "optimizer": "auto"}))
        assert used == defaults_for(fw).runs.optimizer and used in OPTIMIZERS and used != "auto"


def test_a_file_that_names_its_optimizer_keeps_it():
    named = scenario_from_dict({**NODE, "framework": "torchtitan", "optimizer": "adamw"})
    assert optimizer_used(named) == "adamw"


def test_exports_write_the_resolved_optimizer():
    torchtune = scenario_from_dict({**NODE, "framework": "torchtitan", "optimizer": "auto", "fsdp": False})
    assert "fused: true" in export_config(torchtune, "torchtune")  # torch.optim.AdamW(fused=True)
    hf = scenario_from_dict({**NODE, "framework": "huggingface", "optimizer": "auto", "fsdp": False})
    assert "optimizer: adamw_torch\n" in export_config(hf, "axolotl") + "\n"


def test_fused_adamw_frees_foreach_adamws_step_temporary():
    """PyTorch >= 2.1's foreach AdamW keeps one state-sized fp32 tensor list at the step (pytorch/pytorch PR #104898;
    engine/memory/stage_states.py): total params x 4 bytes on one GPU; fused AdamW updates in place."""
    s = scenario_from_dict(ONE_GPU)

    def temp(scenario):
        return sum(c.moments.optimizer for st in estimate(scenario).stages for c in st.components
                   if c.key == "optimizer_temp")
    assert temp(s) == resolve_model(s).total_params * 4
    assert temp(s.replace(optimizer="adamw-fused")) == 0


def test_make_it_fit_offers_fused_adamw_first_where_it_is_enough():
    s = scenario_from_dict(ONE_GPU)
    assert not estimate(s).fits
    first = plans(s)[0]
    assert first.changes == {"optimizer": "adamw-fused"} and first.fits
    assert first.assumptions_changed == ()  # the same AdamW: method and numerics kept
    assert 'optim="adamw_torch_fused"' in first.summary
    titles = [str(sug.title) for sug in suggestions(s)]
    fused = titles.index('Use fused AdamW (optim="adamw_torch_fused")')
    assert fused < titles.index("Use an 8-bit optimizer (AdamW 8-bit)")


def test_fused_adamw_is_offered_only_where_the_framework_has_it_and_it_frees_memory():
    base = scenario_from_dict(ONE_GPU)
    # DeepSpeed: a config optimizer AdamW builds FusedAdam (edaa72212 deepspeed/runtime/engine.py lines 2095-2139)
    assert "AdamW" in fused_adamw_setting(base.replace(framework="deepspeed"))
    # DeepSpeed of 2021-2022 (Megatron-DeepSpeed's own FusedAdam): fused already (FrameworkDefaults.adam_fused)
    assert fused_adamw_setting(base.replace(framework="deepspeed-2022")) == ""
    assert fused_adamw_setting(base.replace(framework="torchtitan")) == 'optimizer.implementation = "fused"'
    # Megatron's Adam is fused already (FrameworkDefaults.adam_fused): nothing to free
    assert fused_adamw_setting(base.replace(framework="megatron")) == ""
    assert fused_adamw_setting(base.replace(framework="litgpt")) == ""  # not read
    assert fused_adamw_setting(base.replace(optimizer="adamw-8bit")) == ""
    assert fused_adamw_setting(base.replace(optimizer="adamw-fused")) == ""
    # each setting carries its source
    for fw in FRAMEWORKS:
        runs = defaults_for(fw).runs
        if runs.fused_adamw:
            assert any(what == "fused AdamW" for what, _ in runs.sources), fw


def test_cli_fit_offers_fused_adamw(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**ONE_GPU, "optimizer": "auto"}))
    out = subprocess.run([sys.executable, "main.py", "fit", str(path)], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    assert 'fused AdamW (optim="adamw_torch_fused")' in out

