"""verl's padding-free path (use_remove_padding, imported as packing padding-free) at the logits, from its source:

- verl/workers/actor/dp_actor.py _forward_micro_batch (5a94e14d of 2025-01-18 through 966c8459 of June 2025 and
  b178a3c): ``logits_rmpad = output.logits.squeeze(0); logits_rmpad.div_(temperature)``, an in-place division of a
  view of the model's output. Autograd gives the output CopySlices as its grad_fn (torch/csrc/autograd/functions/
  tensor.cpp CopySlices::apply: the incoming gradient, ``result`` copied into the output's shape,
  ``grad_slice.clone()`` and the division's gradient alive together): 4 x b·s·V in the compute dtype in backward.
  validation/verl_copy_slices.py runs it on CPU tensors (torch 2.13): 4.0 x the bf16 logits with and without the
  entropy bonus, 3.0 and 2.0 on the padded path (the output itself divided).
- the same path scores every token (no response slice, no copy): compute_log_prob's entropy runs over all of them.
"""

import pytest
from test_verl_offload_and_engine_pool import VERL_7B_LORA

from engine.frameworks.defaults import defaults_for
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

TOKENS = VERL_7B_LORA["micro_batch"] * (VERL_7B_LORA["prompt_len"] + VERL_7B_LORA["completion_len"])
VOCAB = 152_064  # Qwen2.5-7B config.json vocab_size
BF16_LOGITS = 2 * TOKENS * VOCAB  # the micro-batch's logits, every token (verl's FSDP actor has no TP)


def _component(phase: str, key: str, **keys):
    est = estimate(scenario_from_dict({**VERL_7B_LORA, **keys}))
    return next(c for c in next(p for p in est.rl.phases if p.key == phase).components if c.key == key)


@pytest.mark.parametrize("entropy_coeff", [0.0, 0.001])
def test_padding_free_update_holds_copy_slices(entropy_coeff):
    assert defaults_for("verl").posttraining.padding_free_scaled_on_view
    padded = _component("training", "logits", entropy_coeff=entropy_coeff)
    free = _component("training", "logits", entropy_coeff=entropy_coeff, packing="padding-free")
    inputs = dict(free.inputs)
    assert inputs["copy_slices_bytes"] == round(4 * BF16_LOGITS)
    # counted beyond what the step holds at backward start only after CopySlices has returned (below)
    assert free.moments.backward_start == pytest.approx(4 * BF16_LOGITS - inputs["after_copy_slices_bytes"])
    assert padded.moments.backward_start < free.moments.backward_start
    # forward is the loss path's as before: CopySlices runs in backward only
    assert free.moments.forward == padded.moments.forward
    assert dict(free.inputs)["copy_slices_tokens"] == TOKENS


def test_only_where_the_framework_divides_a_view():
    """TRL's online trainers already model their own in-place division (logits_scaled_on_view); the padding-free
    column is verl's alone, and the padded path (packing none) keeps the loss path's tensors."""
    assert not defaults_for("trl").posttraining.padding_free_scaled_on_view
    trl = {"framework": "trl", "entropy_coeff": 0.001}
    assert _component("training", "logits", **trl) == _component("training", "logits", packing="padding-free", **trl)
    assert "copy_slices_bytes" not in dict(_component("training", "logits", entropy_coeff=0.001).inputs)


def test_padding_free_scoring_takes_every_tokens_entropy_without_a_copy():
    """The old-policy pass (compute_log_prob, calculate_entropy True) on the padding-free path: the entropy of every
    token (the compiled entropy's fp32 buffer, 4 bytes per logit) and no copy of a response slice; the padded path
    slices the response positions (entropy over the completion only)."""
    free = dict(_component("scoring", "score_policy", packing="padding-free").inputs)
    padded = dict(_component("scoring", "score_policy").inputs)
    completion = VERL_7B_LORA["micro_batch"] * VERL_7B_LORA["completion_len"]
    assert free["entropy_bytes"] == round(2 * BF16_LOGITS)
    assert padded["entropy_bytes"] == round(2 * 2 * completion * VOCAB)


def _training_phase(**keys):
    est = estimate(scenario_from_dict({**VERL_7B_LORA, **keys}))
    return {c.key: c for c in next(p for p in est.rl.phases if p.key == "training").components}


def test_copy_slices_runs_before_the_prefetch_and_the_recompute():
    """CopySlices runs in the head's backward, before the gradient reaches the model's output: FSDP's pre-backward
    hook on that output (torch/distributed/fsdp/_runtime_utils.py _register_pre_backward_hooks; FSDP1 keeps the root
    unit gathered from its forward) receives CopySlices' `result` and only then prefetches the last layer
    (BACKWARD_PRE); the lm_head's backward follows, then the last checkpointed layer is recomputed and its backward
    scratch allocated. So at the CopySlices moment the step holds its four tensors beside the gathered root, not beside
    the recompute, the scratch, the prefetched layer or the output's gradient, which the estimator places at backward
    start as well: the backward-start total is the larger of the two moments, not their sum."""
    comps = _training_phase(entropy_coeff=0.001, packing="padding-free")
    gather, logits = dict(comps["zero3_gather"].inputs), dict(comps["logits"].inputs)
    root = gather["root_params"] * gather["gather_bytes"]
    after = sum(comps[k].moments.backward_start for k in ("recompute", "backward_scratch")) + (
        comps["zero3_gather"].moments.backward_start - root)
    assert logits["after_copy_slices_bytes"] == round(after)
    total = sum(c.moments.backward_start for c in comps.values())
    others = total - sum(comps[k].moments.backward_start for k in ("logits", "recompute", "backward_scratch",
                                                                   "zero3_gather"))
    # here the CopySlices moment is the larger: the four tensors beside the root and what the whole step holds
    assert root + 4 * BF16_LOGITS > after + root
    assert total == pytest.approx(others + root + 4 * BF16_LOGITS, rel=1e-9)
