"""TRL's GRPO step as it runs (issue 23): the old-policy pass only off policy, the trainer's own generate() launched
layer by layer from Python, and a QLoRA policy's separate reference with its packed 4-bit base. Each expected value
comes from the source named beside it, or from the planner's own terms (the rule is checked, not a fitted figure)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.configs import import_texts
from engine.frameworks import defaults_for
from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.models import OPTIMIZER, packed_base_bytes
from engine.posttraining.scoring_time import policy_forward_seconds
from engine.posttraining.settings import old_policy_scored, rl_settings
from engine.scenario import resolve_model
from engine.serving.host_iteration import transformers_layer_host_seconds
from engine.timing.host import host_speed_factor
from engine.workloads import step_time

GRPO = {"model": "qwen2.5-1.5b", "framework": "trl", "training_objective": "grpo", "gpu": "h100-sxm-80gb",
        "gpus_per_node": 1, "micro_batch": 4, "grad_accum": 2, "seq_len": 1024, "prompt_len": 256,
        "completion_len": 512, "method": "full"}


def _scoring(**keys: object) -> float:
    return step_time(scenario_from_dict({**GRPO, **keys})).phase_seconds["scoring"]


def test_trl_grpo_skips_the_old_policy_pass_on_policy() -> None:
    # trl grpo_trainer.py v0.16.0 lines 743-748 and f2cd577 lines 2561-2566: num_iterations 1 (GRPOConfig's default),
    # steps aligned and no vLLM importance-sampling correction: old_per_token_logps = None; TRL's default beta 0.0
    # loads no reference, so the step scores nothing
    assert _scoring() == 0.0
    s = scenario_from_dict(GRPO)
    assert not old_policy_scored(s, True, "none")
    assert "score_policy" not in {c.key for ph in estimate(s).rl.phases for c in ph.components}


@pytest.mark.parametrize("keys", [{"num_iterations": 2}, {"rollout_engine": "vllm"}])
def test_trl_grpo_scores_the_old_policy_off_policy_or_behind_vllm(keys: dict) -> None:
    # num_iterations > 1 reuses a generation (v0.16.0 line 743); since v0.23.0 (lines 1370-1373) a vLLM rollout is
    # scored for vllm_importance_sampling_correction (default True, grpo_config.py 915 at f2cd577): one policy
    # forward over the step's micro-batches (scoring_time.py), no reference at beta 0
    s = scenario_from_dict({**GRPO, **keys})
    train = training_scenario(s, rl_settings(s, 2))
    assert _scoring(**keys) == pytest.approx(policy_forward_seconds(train))


def test_the_rule_is_trls_grpo_only() -> None:
    # RLOO scores the old policy every step (rloo_trainer.py:1456-1458 at f2cd577); verl's compute_log_prob always
    assert defaults_for("trl").posttraining.old_policy_pass_off_policy_only == ("grpo",)
    assert _scoring(training_objective="rloo") > 0.0
    assert _scoring(framework="verl") > 0.0
    assert old_policy_scored(scenario_from_dict({**GRPO, "framework": "verl"}), True, "vllm")


def test_num_iterations_is_imported_from_a_grpo_config() -> None:
    # GRPOConfig num_iterations (trl grpo_config.py 679 at f2cd577, default 1)
    read = import_texts([("grpo.yaml", "num_generations: 8\nnum_iterations: 4\nper_device_train_batch_size: 8\n")])
    assert read.scenario.get("num_iterations") == 4
    absent = import_texts([("grpo.yaml", "num_generations: 8\nper_device_train_batch_size: 8\n")])
    assert "num_iterations" not in absent.scenario


def test_trls_own_generate_pays_transformers_eager_layers_each_decode_step() -> None:
    # no engine: TRL's unwrapped_model.generate (GenerationConfig(disable_compile=True), grpo_trainer.py:1124 at
    # f2cd577) runs each layer's modeling code from Python every step, counted as the served transformers engine's
    # (presets/host_overhead.json hf_eager_layers); the GPU's share of a 1.5B model's decode step at 32 sequences is
    # far below it, so the iteration takes the host's time
    s = scenario_from_dict(GRPO)
    spec = resolve_model(s)
    t = step_time(s)
    per_step = spec.layers * transformers_layer_host_seconds(s, spec) * host_speed_factor(s)
    iterations = 512  # completion_len, one wave: every sequence generated at once without an engine
    assert t.phase_seconds["generation"] >= iterations * per_step
    # torchtune runs its own modules (presets/efficiency.json torchtune: no host_layers hf-eager): not counted
    tt = step_time(scenario_from_dict({**GRPO, "framework": "torchtune"}))
    assert tt.phase_seconds["generation"] < iterations * per_step


def test_a_qlora_policys_separate_reference_holds_the_packed_base() -> None:
    # the reference is built like the policy: the packed 4-bit linears with their constants (the trainer's
    # quantized_weights) and the 16-bit rest (frozen_weights), as engine_weight_bytes counts the engine's copy
    s = scenario_from_dict({**GRPO, "model": "llama-3.1-8b", "method": "qlora", "reference_model": "separate",
                            "framework": "ms-swift"})
    p = step_parts(s)
    assert p.rs.reference == "separate"
    trainer = {c.key: c.moments[OPTIMIZER] for c in p.training.components}
    assert packed_base_bytes(p.training) == trainer["quantized_weights"] > 0
    reference = next(c for c in p.frozen if c.key == "reference_weights")
    assert reference.moments[OPTIMIZER] == pytest.approx(trainer["quantized_weights"] + trainer["frozen_weights"])


def test_trls_ppo_takes_the_old_log_probs_from_generates_scores() -> None:
    # trl v0.17.0 ppo_trainer.py 437-438: logprob = selective_log_softmax(logitss[i:...], response), the scores
    # generate() returned; the rollout's forwards are the reference's, the critic's and the reward model's only
    # (the scoring memory's _ppo_rollout holds the same)
    s = scenario_from_dict({**GRPO, "training_objective": "ppo", "critic_model": "same"})
    assert not rl_settings(s, 2).old_policy_pass
    assert rl_settings(s.with_unchecked(framework="verl", rollout_engine="vllm"), 2).old_policy_pass
