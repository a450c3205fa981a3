"""`fit` on Llama 3.1 405B at pp 64 (Fastest layouts' first plan for 1,024 H100, user audit 11) stopped with "Error:
pp: Pipeline-parallel size 64 cannot exceed the model's 32 layers.": the largest-model-of-the-family search built
Llama 3.1 8B's scenario outside its guard, and the window's Make it fit said "It fits as it is" with no family rows. A
member the set-up cannot take is now listed as invalid with the reason, as one without the heads for its TP was."""

from __future__ import annotations

from engine.planning.family import largest_model_that_fits
from engine.planning.fit_report import fit_report, render_fit
from engine.scenario import scenario_from_dict

PP64 = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128, "framework": "megatron",
        "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 512, "seq_len": 8192, "checkpointing": "none",
        "sequence_parallel": True, "distributed_optimizer": True, "tp": 4, "pp": 64, "cp": 4,
        "pipeline_layout": "Ett|(tt|)*62L"}


def test_a_member_with_fewer_layers_than_the_pipeline_is_invalid_not_an_error():
    fam = largest_model_that_fits(scenario_from_dict(PP64))
    verdicts = {c.model: c.verdict for c in fam.candidates}
    assert verdicts["llama-3.1-8b"] == "invalid"  # 32 layers (its config.json), fewer than 64 stages
    assert "cannot exceed the model's 32 layers" in next(c.reason for c in fam.candidates if c.model == "llama-3.1-8b")
    assert verdicts["llama-3.1-405b"] == "fits" and fam.model == "llama-3.1-405b"


def test_fit_reports_the_plan_and_groups_the_longest_sequence():
    text = render_fit(fit_report(scenario_from_dict(PP64)))
    assert "Plans: none needed, it fits." in text
    assert "Largest Llama 3.1 model that fits this set-up: llama-3.1-405b" in text
    assert "longest sequence that fits: 12,928 tokens" in text  # the window's figure (the limits' search)

