"""The entropy bonus in the policy update (entropy_coeff != 0), as verl computes it: every token's entropy over the
vocabulary with gradients, beside the log-probs.

verl/workers/actor/dp_actor.py (b4aa2dce8, the verl of eric-haibin-lin/verl-data's June 2025 runs, and e2ffa1c8):
update_policy sets calculate_entropy = entropy_coeff != 0, and _forward_micro_batch's remove-padding path then

* passes inplace_backward=False to flash-attn's cross_entropy_loss, whose backward then allocates the logits'
  gradient (flash_attn/ops/triton/cross_entropy.py: dlogits = logits if inplace_backward else
  torch.empty_like(logits)) instead of writing it into the saved logits;
* runs torch.compile(entropy_from_logits, dynamic=True) (use_torch_compile, default true) on the (total_nnz, V) logits.

What the compiled entropy holds was read from inductor's own pipeline on the CPU (torch 2.13; validation/
verl_entropy_partition.py prints it): AOT autograd with inductor's decompositions and min-cut partitioner saves the
logits (already kept by the cross-entropy) and three per-token values (max, sum of exp, log-sum-exp) for backward,
not the softmax; the generated forward allocates one fp32 buffer of the logits' shape (the exponentials, read by two
reductions) and frees it on return; the generated backward allocates only its output, the logits' gradient in the
logits' dtype. Both backward nodes keep the logits saved until they have run, so whichever of the two runs second
finds the logits, the first one's gradient (waiting in the input buffer of the logits' DivBackward) and its own new
gradient alive together: one logits-sized tensor more than the in-place path, before autograd accumulates the two
gradients in place.
"""

from __future__ import annotations

from ..memory.breakdown import Component, Moments
from ..messages import QT_TRANSLATE_NOOP

COMPILED_ENTROPY_FORMULA = QT_TRANSLATE_NOOP(
    "engine", "the loss path's logits tensors + the entropy bonus (verl, entropy_coeff != 0): forward, the compiled "
    "entropy's fp32 buffer of b·s·V x 4 bytes beside the logits; backward, the entropy's gradient (b·s·V x compute "
    "bytes) alive beside flash-attn's out-of-place gradient of the logits")
FP32_BUFFER_BYTES = 4  # inductor's realised exp(x - max), fp32 (autocast runs softmax in fp32)


def with_update_entropy(c: Component, path: str, tokens: int, vocab: int, compute: int, tp: int) -> Component:
    """The training step's logits component `c` (the in-place flash-attn path) plus verl's compiled entropy over
    `tokens` tokens: forward + the fp32 buffer, backward + one logits-sized gradient, + 4 bytes per token of the
    entropy values kept for the loss."""
    if path != "compiled":
        return c
    tv = tokens * vocab / tp
    forward = c.moments.forward + FP32_BUFFER_BYTES * tv + 4.0 * tokens
    backward = c.moments.backward_start + compute * tv + 4.0 * tokens
    moments = Moments(forward, backward, c.moments.backward_end, c.moments.optimizer)
    return Component(c.key, c.name, c.category, moments, COMPILED_ENTROPY_FORMULA,
                     c.inputs + (("update_entropy", path), ("entropy_tokens", tokens),
                                 ("entropy_forward_buffer_bytes", round(FP32_BUFFER_BYTES * tv)),
                                 ("entropy_gradient_bytes", round(compute * tv))))
