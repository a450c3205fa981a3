"""The reference model "auto" keeps is each framework's own default for the objective (user audit 8: a verl PPO plan
counted a frozen reference, its forward and its offloaded weights copied in, that verl never builds). Each case
names the framework source that decides it (engine/frameworks/posttraining.py rows, "kl default" and "reference"):

- verl b178a3c verl/trainer/ppo/utils.py:72-76 need_reference_policy = algorithm.use_kl_in_reward or
  actor.use_kl_loss (ray_trainer.py:285; ed498f9f main_ppo.py:158-160), config/algorithm.py:606 use_kl_in_reward
  False, config/actor/actor.yaml:95 use_kl_loss false: PPO and GRPO build no reference by default.
- TRL f2cd577 trl/experimental/ppo/ppo_trainer.py:439-444: PPO keeps a reference always (ref_model, the PEFT base with
  adapters off, or create_reference_model); trl/trainer/grpo_config.py:671-672 GRPO beta 0.0 (0.04 up to v0.18.0) and
  grpo_trainer.py:955-957 no reference at beta 0.0; rloo_config.py:494-495 RLOO beta 0.05 (a reference).
- OpenRLHF 3c3be62 train_ppo_ray.py --algo.kl.init_coef 0.01 > 0 builds the reference group (PPO and GRPO alike).
- ms-swift 3602360 swift/arguments/rlhf_args.py:291-296 a full PPO / GRPO run takes the model as its reference
  unless GRPO's beta is 0.0; line 356 GRPO beta 0.04.
- DPO's loss needs the reference's log-probs (unless precomputed); ORPO, SimPO and CPO are reference-free by their
  papers' losses."""

from __future__ import annotations

import shlex

import pytest

from engine.configs.exporting import FILE_NAMES, export_config
from engine.configs.importing import import_texts
from engine.memory.states import dtypes_for
from engine.posttraining import rl_settings
from engine.scenario import scenario_from_dict

BASE = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
        "precision": "mixed-bf16", "checkpointing": "full", "fsdp": True, "micro_batch": 2, "grad_accum": 4,
        "prompt_len": 1024, "completion_len": 512, "num_generations": 1, "rollout_engine": "vllm"}


def _reference(framework: str, objective: str, method: str = "full") -> str:
    extra = {"critic_model": "same"} if objective == "ppo" else {"num_generations": 4}
    if objective in ("dpo", "simpo", "orpo"):
        extra = {"rollout_engine": "none"}
    s = scenario_from_dict({**BASE, "framework": framework, "training_objective": objective, "method": method,
                            **extra})
    assert s.reference_model == "auto"
    return rl_settings(s, dtypes_for(s).compute).reference


@pytest.mark.parametrize("objective", ["ppo", "grpo"])
def test_verl_builds_no_reference_without_a_kl_switch(objective: str) -> None:
    # verl utils.py:72-76 need_reference_policy, both switches false by default (algorithm.py:606, actor.yaml:95)
    assert _reference("verl", objective) == "none"


def test_trl_ppo_keeps_a_reference_grpo_none_and_rloo_one() -> None:
    assert _reference("trl", "ppo") == "separate"  # ppo_trainer.py:444 create_reference_model(policy_model)
    assert _reference("trl", "ppo", "lora") == "adapter-off"  # ppo_trainer.py:441-442 is_peft_model: the base
    assert _reference("trl", "grpo") == "none"  # grpo_config.py:671-672 beta 0.0
    assert _reference("trl", "rloo") == "separate"  # rloo_config.py:494-495 beta 0.05, rloo_trainer.py:593-609


@pytest.mark.parametrize("framework", ["openrlhf", "ms-swift"])
def test_frameworks_with_a_kl_coefficient_above_zero_keep_a_reference(framework: str) -> None:
    # OpenRLHF --algo.kl.init_coef 0.01; ms-swift rlhf_args.py:291-296 and 356 (GRPO beta 0.04)
    assert _reference(framework, "grpo") == "separate"
    assert _reference(framework, "ppo") == "separate"


@pytest.mark.parametrize("framework", ["trl", "verl", "openrlhf", "ms-swift"])
def test_dpo_keeps_a_reference_and_reference_free_losses_none(framework: str) -> None:
    assert _reference(framework, "dpo") == "separate"  # the loss compares policy and reference log-probs
    assert _reference(framework, "simpo") == "none"  # SimPO and ORPO: reference-free losses
    assert _reference(framework, "orpo") == "none"


def _overrides(text: str) -> dict[str, str]:
    words = shlex.split(text.replace("\\\n", " "), comments=True)
    return dict(w.split("=", 1) for w in words if "=" in w)


def test_verls_command_turns_the_kl_loss_on_exactly_when_the_plan_scores_a_reference() -> None:
    """The command's KL switches follow the plan's resolved reference, and the verl importer reads them back to it."""
    ppo = scenario_from_dict({**BASE, "framework": "verl", "training_objective": "ppo", "critic_model": "same"})
    auto = _overrides(export_config(ppo, "verl"))
    assert auto["algorithm.use_kl_in_reward"] == "False"
    assert "actor_rollout_ref.actor.use_kl_loss" not in auto  # verl's default false: the plan's "auto", none
    for reference, switch in (("separate", "True"), ("none", "False")):
        s = ppo.replace(reference_model=reference)
        text = export_config(s, "verl")
        assert _overrides(text)["actor_rollout_ref.actor.use_kl_loss"] == switch
        back = import_texts([(FILE_NAMES["verl"], text)]).scenario
        assert back["reference_model"] == reference
    # a TRL PPO plan ("auto": TRL's reference) exported for verl asks verl for that reference
    trl = ppo.replace(framework="trl")
    assert _overrides(export_config(trl, "verl"))["actor_rollout_ref.actor.use_kl_loss"] == "True"


def test_trl_grpo_export_keeps_an_explicit_reference_through_beta():
    """TRL's GRPOConfig beta defaults to 0.0 from v0.19.0 (trl@f2cd577 grpo_config.py lines 671-672), which loads no
    reference model: a plan that keeps one writes beta 0.04 (the default up to v0.18.0) so that TRL loads it, and the
    importer reads a non-zero beta back as the reference TRL builds (adapter-off under PEFT, else a frozen copy)."""
    import yaml

    from engine.configs import export_config
    from engine.configs.importing import import_texts
    from engine.scenario import scenario_from_dict

    base = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "framework": "trl", "training_objective": "grpo",
            "method": "full", "precision": "bf16"}
    for method, reference in (("full", "separate"), ("lora", "adapter-off")):
        s = scenario_from_dict({**base, "method": method, "reference_model": reference})
        text = export_config(s, "trl")
        assert yaml.safe_load(text.split("\n", 1)[1])["beta"] == 0.04
        back = import_texts([("trl_config.yaml", text)]).scenario
        assert back["reference_model"] == reference
    s = scenario_from_dict(base)  # auto: TRL's own default, no beta written
    assert "beta" not in yaml.safe_load(export_config(s, "trl").split("\n", 1)[1])
