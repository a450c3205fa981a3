"""A LoRA run whose frozen base is kept in fp32 (precision amp-bf16 / amp-fp16 / fp32) is offered the change the
estimate's own warning asks for, loading the base in 16 bits, in Make it fit and in the Suggestions (user audit 7: a
Mistral 7B LoRA at amp-bf16 on an RTX 4090 was told "use QLoRA" or "use 8 GPUs" while the warning above said to
choose bf16; its Suggestions listed neither, QLoRA at amp-bf16 alone being larger than the LoRA it replaced).

The figures the tests compare are the estimator's own (engine/memory): the frozen weights take
engine/memory/states.py's _PRECISION_BYTES weight bytes, 4 under autocast or fp32 and 2 in bf16."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.solver import plans
from engine.planning.suggest import suggestions

# a student's first try: Mistral 7B, LoRA r=16 on every linear layer, autocast bf16, checkpointing on, on one 24 GB card
STUDENT = {"model": "mistral-7b", "gpu": "rtx-4090", "method": "lora", "precision": "amp-bf16", "lora_rank": 16,
           "lora_targets": "all-linear", "micro_batch": 2, "seq_len": 4096, "checkpointing": "full"}
LOAD_BF16 = "load the base model in bf16"


def test_make_it_fit_offers_the_bf16_base_first() -> None:
    s = scenario_from_dict(STUDENT)
    assert not estimate(s).fits
    assert estimate(s.replace(precision="bf16")).fits  # the warning's change alone fits (the estimator says so)
    first = plans(s, max_plans=4)[0]
    assert first.changes == {"precision": "bf16"}
    assert LOAD_BF16 in first.summary.lower()
    assert first.fits


def test_suggestions_list_the_bf16_base_and_qlora_over_it() -> None:
    s = scenario_from_dict(STUDENT)
    found = {sug.title.template: sug for sug in suggestions(s)}
    base = next(sug for template, sug in found.items() if template.startswith("Load the base model in {dtype}"))
    assert base.changes == {"precision": "bf16"} and base.fits
    # the frozen weights halve: 4 bytes a weight to 2 (states.py), so at least that much is saved
    frozen = next(c for c in estimate(s).components if c.name == "Frozen weights").moments[0]
    assert base.saved_bytes >= frozen / 2 * 0.99
    qlora = found["Quantise the base model to 4-bit (QLoRA)"]
    assert qlora.changes == {"method": "qlora", "precision": "bf16"}


def test_a_16_bit_lora_is_not_told_to_load_in_16_bits() -> None:
    s = scenario_from_dict({**STUDENT, "precision": "bf16", "micro_batch": 8})
    assert not any(str(sug.title).startswith("Load the base model") for sug in suggestions(s))
    assert not any(LOAD_BF16 in p.summary.lower() for p in plans(s, max_plans=8))

