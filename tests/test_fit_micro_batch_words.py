"""Make it fit's micro-batch step in the values the user sets (user audit 12): "use micro-batch 1 with 4x the gradient
accumulation ... set gradient accumulation to 32" said one change as a ratio and then a value. Now a plan says
"set micro-batch to 1 and gradient accumulation to 32", or, where more GPUs set the gradient accumulation again,
"set micro-batch to 1" and the gradient accumulation once, as its final value. Every value is the plan's own."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.planning.fit_options import MICRO_BATCH_AND_ACCUM, MICRO_BATCH_ONLY
from engine.planning.solver import plans

# the audit's pre-training budget: 8B, 200B tokens (>= 20 per parameter), 8 x H100, micro-batch 4 x 8 accumulation
PRE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
       "optimizer": "adamw", "micro_batch": 4, "grad_accum": 8, "seq_len": 8192, "attention": "flash",
       "tokens_to_train": 200_000_000_000}


def test_a_plans_micro_batch_step_gives_the_values_it_sets_and_the_accumulation_once():
    s = scenario_from_dict(PRE)
    found = [p for p in plans(s) if "micro_batch" in p.changes]
    templates = {m.template for p in found for m in p.steps}
    assert {MICRO_BATCH_AND_ACCUM, MICRO_BATCH_ONLY} <= templates  # same GPUs, and tp=8 (dp 8 -> 1: 256 accumulation)
    for p in found:
        texts = [str(m) for m in p.steps]
        assert not any("x the gradient accumulation" in t for t in texts)
        said = [m for m in p.steps if m.template in (MICRO_BATCH_AND_ACCUM, MICRO_BATCH_ONLY)]
        assert len(said) == 1 and dict(said[0].params)["m"] == p.changes["micro_batch"]
        accumulation = [t for t in texts if "gradient accumulation to" in t]
        assert len(accumulation) == 1 and f"gradient accumulation to {p.scenario.grad_accum}" in accumulation[0]
        # the global batch is kept: micro-batch x accumulation x data parallel as before
        assert p.scenario.micro_batch * p.scenario.grad_accum * p.scenario.dp == 4 * 8 * 8
