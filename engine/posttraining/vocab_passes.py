"""Time of verl's passes over the padding-free logits beyond the loss path's own (issue 23: verl's update and scoring).

The training time model charges a micro-batch's head its loss path's bytes per logit (presets/efficiency.json
loss_bytes_per_token_per_vocab: verl's "fused", flash-attn's cross-entropy, 8 bytes forward and backward, a third of
them in a forward; engine/timing/costs.py head_cost). verl's actor runs more passes over the same (tokens, V) logits,
read in volcengine/verl 9466d371e (the commit of the GRPO-LoRA baseline logs) verl/workers/actor/dp_actor.py
_forward_micro_batch, remove-padding path, lines 160-178:

* `logits_rmpad.div_(temperature)` (line 161): an element-wise pass, read and write, in every forward whatever the
  temperature (1.0 in the logs' config), and its DivBackward in the update's backward (read and write);
* `calculate_entropy` (update_policy line 397-400: entropy_coeff != 0; compute_log_prob is called with
  calculate_entropy=True by both the old-policy and the adapter-off reference pass, fsdp_workers.py line 701) runs
  torch.compile(entropy_from_logits, dynamic=True) (lines 75-79, 176) beside logprobs_from_logits: inductor's
  forward realises one fp32 buffer of the logits' shape, the exponentials, read by two reductions
  (engine/posttraining/entropy.py, validation/verl_entropy_partition.py): one read of the logits, 4 bytes written and
  8 read per logit; its backward reads the logits and writes their gradient in the logits' dtype;
* with the entropy, flash-attn's cross-entropy gets inplace_backward=False (line 165-166), so its backward writes a
  new gradient, and autograd sums the two gradients of the logits (two reads, one write) before DivBackward.

So per logit (c: the logits' bytes, bf16 2), the update: forward div_ 2c, cross-entropy c, entropy c + 12; backward
entropy 2c, cross-entropy 2c, the sum 3c, DivBackward 2c: 13c + 12 = 38 bytes, of which the loss path's 8 are
charged; a scoring pass (no gradients): 4c + 12 = 20 bytes, of which a third of the loss path's are charged. Each at the
GPU's memory rate, over every token of the step's padding-free rows. Without the entropy (entropy_coeff 0) the
in-place cross-entropy and the division remain: update 2c + c + 2c (its in-place backward) + 2c, scoring 3c.
"""

from __future__ import annotations

from ..scenario import Scenario, resolve_model
from ..timing.data import efficiency, framework_profile
from ..timing.hardware import hardware_for
from ..timing.model import rates_for
from .settings import RLSettings

FP32_ENTROPY_BUFFER_READS = 2  # the two reductions over inductor's realised fp32 exponentials (entropy.py)
FP32_BYTES = 4


def logit_pass_bytes(compute: int, entropy: bool, update: bool) -> float:
    """Bytes per logit verl's forward (and the update's backward) move over the padding-free logits (module
    docstring), `compute` bytes a logit."""
    c = compute
    forward = 2 * c + c  # div_ (read + write), cross-entropy's read
    backward = 2 * c + 2 * c  # cross-entropy's gradient (read the logits, write the gradient), DivBackward
    if entropy:
        forward += c + FP32_BYTES * (1 + FP32_ENTROPY_BUFFER_READS)  # the compiled entropy: its fp32 buffer
        backward += 2 * c + 3 * c  # the entropy's gradient, and the sum of the two gradients
    return forward + backward if update else forward


def vocab_pass_seconds(s: Scenario, rs: RLSettings, train: Scenario) -> dict[str, float]:
    """Per step, the seconds verl's logits passes take beyond what the training model's loss path charges:
    "update" (the update's micro-batches) and "scoring" (per policy scoring pass over the same micro-batches, the
    old-policy and the adapter-off reference alike); zeros where the framework's update is not verl's padding-free
    path (rs.logprob_path "fused" on padding-free rows)."""
    if not (rs.padding_free and rs.logprob_path == "fused" and rs.online):
        return {"update": 0.0, "scoring": 0.0}
    spec, hw = resolve_model(train), hardware_for(train)
    prof = framework_profile(train.framework)
    rates = rates_for(train, hw, prof)
    charged = efficiency()["loss_bytes_per_token_per_vocab"]["fused"]
    # every token of the padding-free rows gets logits; under Ulysses a GPU holds its slice of each row
    logits = train.micro_batch * rs.shard_logits_tokens * train.grad_accum * spec.vocab / train.tp
    update = logit_pass_bytes(rates.elem_bytes, rs.update_entropy == "compiled", True) - charged
    # compute_log_prob(calculate_entropy=True) in every scoring pass (fsdp_workers.py line 701)
    scoring = logit_pass_bytes(rates.elem_bytes, True, False) - charged / 3
    passes = int(rs.old_policy_pass) + int(rs.reference_forward and rs.reference == "adapter-off")
    return {"update": max(0.0, update) * logits / rates.memory,
            "scoring": passes * max(0.0, scoring) * logits / rates.memory}


__all__ = ["logit_pass_bytes", "vocab_pass_seconds"]
