"""verl's FSDP actor builds bitsandbytes' 8-bit AdamW: build_optimizer imports `optim.optimizer_impl` and takes the
class `optim.optimizer` from it, its docstring's own example being "bitsandbytes.optim" / "AdamW8bit"
(volcengine/verl@f9c855f7 (v0.7.0) verl/workers/config/optimizer.py:146-198; fsdp_workers.py:569 builds the actor's
optimizer with it). So a GRPO plan proposing the 8-bit AdamW for verl is one verl runs, and its export says so."""

import dataclasses

from engine.configs import export_config
from engine.configs.importing import import_texts
from engine.planning.solver import plans as fit_plans
from engine.scenario import scenario_from_dict

# a 32B GRPO on 8 H100 under verl (h-useraudit7's scenario): does not fit, and plan 1 is the 8-bit AdamW
GRPO_32B = {"schema_version": 1, "name": "GRPO Qwen2.5-32B on 8 x H100 (verl)", "model": "qwen2.5-32b",
            "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1, "method": "full", "precision": "mixed-bf16",
            "framework": "verl", "training_objective": "grpo", "prompt_len": 1024, "completion_len": 1024,
            "max_completion_len": 3072, "num_generations": 8, "micro_batch": 4, "grad_accum": 8, "fsdp": True,
            "checkpointing": "full", "rollout_engine": "vllm", "rollout_tp": 2}


def _overrides(text: str) -> dict[str, str]:
    words = [w.rstrip(" \\") for w in text.split() if "=" in w and not w.startswith("#")]
    return dict(w.split("=", 1) for w in words)


def test_the_8bit_adamw_is_exported_as_the_class_verl_imports_and_read_back():
    s = dataclasses.replace(scenario_from_dict(GRPO_32B), optimizer="adamw-8bit")
    text = export_config(s, "verl")
    args = _overrides(text)
    assert args["actor_rollout_ref.actor.optim.optimizer_impl"] == "bitsandbytes.optim"
    assert args["actor_rollout_ref.actor.optim.optimizer"] == "AdamW8bit"
    back = import_texts([("run_grpo.sh", text)])
    assert back.scenario["optimizer"] == "adamw-8bit"
    paged = export_config(dataclasses.replace(s, optimizer="adamw-8bit-paged"), "verl")
    assert _overrides(paged)["actor_rollout_ref.actor.optim.optimizer"] == "PagedAdamW8bit"
    assert import_texts([("run_grpo.sh", paged)]).scenario["optimizer"] == "adamw-8bit-paged"


def test_plain_adamw_writes_no_optimizer_and_is_assumed_from_verls_default():
    text = export_config(scenario_from_dict(GRPO_32B), "verl")
    assert "optim.optimizer" not in text  # verl's default: torch.optim.AdamW (FSDPOptimizerConfig)
    back = import_texts([("run_grpo.sh", text)])
    assert back.scenario["optimizer"] == "adamw"
    assert "optimizer" in [a.key for a in back.assumed]


def test_an_unknown_optimizer_class_is_not_read_as_adamw():
    text = export_config(scenario_from_dict(GRPO_32B), "verl").replace(
        "trainer.nnodes=1", "trainer.nnodes=1 actor_rollout_ref.actor.optim.optimizer_impl=torchao.optim "
                            "actor_rollout_ref.actor.optim.optimizer=_AdamW")
    back = import_texts([("run_grpo.sh", text)])
    assert "optimizer" not in back.scenario


def test_the_32b_grpos_first_plan_is_the_8bit_adamw_and_exports_for_verl():
    plans = fit_plans(scenario_from_dict(GRPO_32B))
    first = plans[0].scenario
    assert first.optimizer == "adamw-8bit"
    assert _overrides(export_config(first, "verl"))["actor_rollout_ref.actor.optim.optimizer"] == "AdamW8bit"
