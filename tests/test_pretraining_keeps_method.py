"""Make it fit offered a 405B pre-training plan LoRA ("assumptions changed: method"; user audit 11 item d): adapters
fine-tune a pre-trained model (Hu et al. 2021, arXiv:2106.09685 section 4) and cannot pre-train one. A full training
whose token budget is a pre-training one, at least ~20 tokens per parameter (Hoffmann et al. 2022, arXiv:2203.15556
Table 3: 1B parameters 20.2B tokens), keeps its method in Make it fit and in the suggestions; the same set-up without
a budget (or with a fine-tune's) is offered LoRA / QLoRA as before. Llama 3.1 8B (8.03B parameters) in full on one
RTX 4090 does not fit: 160.6B tokens is its 20-per-parameter budget."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.planning.pretraining import PRETRAINING_TOKENS_ANY_SIZE, PRETRAINING_TOKENS_PER_PARAMETER, is_pretraining
from engine.planning.solver import plans
from engine.planning.suggest import suggestions
from engine.scenario import resolve_model
from engine.scenario.choices import ADAPTER_METHODS

FULL_8B_ON_4090 = {"schema_version": 1, "model": "llama-3.1-8b", "gpu": "rtx-4090", "precision": "mixed-bf16",
                   "method": "full", "micro_batch": 1, "grad_accum": 8, "seq_len": 2048, "checkpointing": "full"}


def _methods_offered(data: dict) -> tuple[set[str], set[str]]:
    s = scenario_from_dict(data)
    planned = {p.scenario.method for p in plans(s, max_plans=5)}
    suggested = {sug.changes.get("method", s.method) for sug in suggestions(s)}
    return planned, suggested


def test_a_pretraining_budget_keeps_the_method_a_fine_tune_is_offered_adapters():
    budget = PRETRAINING_TOKENS_PER_PARAMETER * resolve_model(scenario_from_dict(FULL_8B_ON_4090)).total_params
    assert 160e9 < budget < 161e9  # 20 x 8.03B
    pretraining = {**FULL_8B_ON_4090, "tokens_to_train": budget}
    fine_tune = {**FULL_8B_ON_4090, "tokens_to_train": budget // 100}
    assert is_pretraining(scenario_from_dict(pretraining))
    assert not is_pretraining(scenario_from_dict(fine_tune)) and not is_pretraining(scenario_from_dict(FULL_8B_ON_4090))
    for data in (FULL_8B_ON_4090, fine_tune):
        planned, suggested = _methods_offered(data)
        assert ADAPTER_METHODS & planned and "lora" in suggested
    planned, suggested = _methods_offered(pretraining)
    assert planned == {"full"} and suggested <= {"full"}


def test_a_pre_chinchilla_budget_is_pre_training_too():
    """GPT-3 175B was pre-trained on 300B tokens (Brown et al. 2020, arXiv:2005.14165 Table 2.2): 1.7 tokens per
    parameter, far under 20, yet no adapter can pre-train it (review 21). Any budget of 100B tokens or more is
    pre-training; 10B tokens on the same model stays a fine-tune."""
    gpt3 = {"schema_version": 1, "model": "nemo-gpt3-175b", "gpu": "h100-sxm-80gb", "precision": "mixed-bf16",
            "method": "full", "micro_batch": 1, "grad_accum": 8, "seq_len": 2048, "checkpointing": "full"}
    params = resolve_model(scenario_from_dict(gpt3)).total_params
    assert 300e9 < PRETRAINING_TOKENS_PER_PARAMETER * params  # the per-parameter rule alone would miss it
    assert is_pretraining(scenario_from_dict({**gpt3, "tokens_to_train": 300e9}))
    assert is_pretraining(scenario_from_dict({**gpt3, "tokens_to_train": PRETRAINING_TOKENS_ANY_SIZE}))
    assert not is_pretraining(scenario_from_dict({**gpt3, "tokens_to_train": 10e9}))
