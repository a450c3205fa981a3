"""What verl's padding-free update holds at the logits in backward (issue 22, the verl-data GRPO-LoRA rows).

verl/workers/actor/dp_actor.py _forward_micro_batch (remove-padding path, from 5a94e14d of 2025-01-18 through
966c8459 of June 2025 and b178a3c) takes ``logits_rmpad = output.logits.squeeze(0)`` and divides it in place,
``logits_rmpad.div_(temperature)``; the padded path divides the model's output itself (``logits.div_(temperature)``
before slicing). An in-place op on a view makes autograd give the base CopySlices as its grad_fn and the view
AsStridedBackward0. This script runs both paths on real CPU tensors (N tokens x V vocabulary, bf16) through the loss
verl computes at the head: flash-attn's cross-entropy (its allocations, as validation/verl_losses.py
FlashCrossEntropy: the logits saved, the gradient written in place with inplace_backward=True, a new tensor
otherwise) and, with an entropy bonus, the compiled entropy (what validation/verl_entropy_partition.py found inductor
keeps: the logits saved, an fp32 buffer in forward, the gradient allocated in backward), and prints the peak of the
tensors alive (torch.distributed._tools.mem_tracker.MemTracker) in units of the bf16 logits. Run with the tracing
venv:

    validation/.venv/bin/python validation/verl_copy_slices.py

Output at torch 2.13.0+cpu (N 512, V 8192, hidden 64; the extra 0.13 is the hidden states and the head's weight):
padded 2.13 (no bonus) / 3.13 (bonus); padding-free 4.13 / 4.13, the view's grad_fn AsStridedBackward0 whose next
function is CopySlices. engine/posttraining/logprobs.py with_copy_slices models the 4 x b·s·V.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.distributed._tools.mem_tracker import MemTracker

N, V, H = 512, 8192, 64
LOGITS_BYTES = N * V * 2


class FlashCrossEntropy(torch.autograd.Function):
    """Memory of flash_attn.ops.triton.cross_entropy.cross_entropy_loss(logits, labels, inplace_backward)."""

    @staticmethod
    def forward(ctx: Any, logits: torch.Tensor, labels: torch.Tensor, inplace: bool) -> torch.Tensor:
        rows = logits.shape[0]
        lse = torch.empty(rows, dtype=torch.float)
        ctx.save_for_backward(logits, lse, labels)
        ctx.inplace = inplace
        return torch.empty(rows, dtype=torch.float)

    @staticmethod
    def backward(ctx: Any, _grad: torch.Tensor) -> tuple[torch.Tensor, None, None]:
        logits = ctx.saved_tensors[0]
        return (logits if ctx.inplace else torch.empty_like(logits)), None, None


class CompiledEntropy(torch.autograd.Function):
    """Memory of torch.compile(verl_F.entropy_from_logits) as inductor builds it (verl_entropy_partition.py)."""

    @staticmethod
    def forward(ctx: Any, logits: torch.Tensor) -> torch.Tensor:
        exponentials = torch.empty(logits.shape, dtype=torch.float32)
        del exponentials
        ctx.save_for_backward(logits)
        return torch.empty(logits.shape[0], dtype=torch.float32)

    @staticmethod
    def backward(ctx: Any, _grad: torch.Tensor) -> torch.Tensor:
        return torch.empty_like(ctx.saved_tensors[0])


def peak(padding_free: bool, entropy: bool) -> tuple[float, str]:
    """Peak tensors alive through the head's forward and backward, in units of the bf16 logits."""
    hidden = torch.randn(1, N, H, dtype=torch.bfloat16, requires_grad=True)
    weight = torch.randn(V, H, dtype=torch.bfloat16)
    labels = torch.zeros(N, dtype=torch.long)
    tracker = MemTracker()
    with tracker:
        output_logits = torch.nn.functional.linear(hidden, weight)  # (1, N, V), the model's output
        if padding_free:
            logits = output_logits.squeeze(0)
            logits.div_(1.0)
        else:
            output_logits.div_(1.0)
            logits = output_logits.squeeze(0)
        del output_logits
        loss = -FlashCrossEntropy.apply(logits, labels, not entropy).mean()
        if entropy:
            loss = loss - 0.001 * CompiledEntropy.apply(logits).mean()
        grad_fn = logits.grad_fn
        chain = f"{grad_fn.name()} -> {[f[0].name() for f in grad_fn.next_functions if f[0] is not None]}"
        del logits
        loss.backward()
    return tracker.get_tracker_snapshot("peak")[torch.device("cpu")]["Total"] / LOGITS_BYTES, chain


if __name__ == "__main__":
    print(f"torch {torch.__version__}, N {N}, V {V}")
    for padding_free in (False, True):
        for entropy in (False, True):
            value, chain = peak(padding_free, entropy)
            path = "padding-free" if padding_free else "padded"
            print(f"{path:12s} entropy bonus {entropy!s:5s}: peak {value:.2f} x the bf16 logits ({chain})")
