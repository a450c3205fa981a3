"""What the chosen sequences' NLL term (rpo_alpha, cpo_alpha) adds at the logits of a preference step (issue 22).

TRL v0.17.0 trl/trainer/dpo_trainer.py concatenated_forward: per-token log-probs by selective_log_softmax (bf16: one
row's log_softmax at a time), then with rpo_alpha ``F.cross_entropy(torch.flatten(logits[:num_examples], end_dim=1),
...)``. ms-swift 40c8406fb swift/trainers/rlhf_trainer/dpo_trainer.py: ``logits.log_softmax(-1)`` of the whole batch
gathered at the labels (get_batch_logps), then get_nll_loss: ``logits[..., :-1, :].contiguous()`` of the chosen half
and nn.CrossEntropyLoss. TRL v0.11.4 trl/trainer/cpo_trainer.py (CPO/SimPO, cpo_alpha != 0) is ms-swift's form
before the log-probs. This script runs each head on real CPU tensors (2 sequences of S tokens x V, bf16) through the
loss and its backward and prints the tensors alive (torch.distributed._tools.mem_tracker.MemTracker) at the end of
forward and at the peak, in units of the batch's bf16 logits. Run with the tracing venv:

    validation/.venv/bin/python validation/rpo_nll_trace.py

Output at torch 2.13.0+cpu (S 256, V 8192, hidden 64; the extra 0.13 is the hidden states and the head's weight; the
logits themselves are freed before the forward figure is taken): trl rows: forward 1.13 / 1.63 with the NLL, peak
2.13 / 3.13; swift whole-batch log-softmax: forward 1.13 / 1.63, peak 3.12 / 4.12. The NLL adds 0.5 in forward (the
chosen half's log-softmax, saved) and 1.0 at the peak (SliceBackward's zero-filled gradient of the whole logits).
engine/posttraining/logprobs.py with_chosen_nll models both.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.distributed._tools.mem_tracker import MemTracker

B, S, V, H = 2, 256, 8192, 64
LOGITS_BYTES = B * S * V * 2


def trl_rows(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """trl/trainer/utils.py selective_log_softmax, bf16 branch (v0.17.0)."""
    rows = []
    for row_logits, row_labels in zip(logits, labels, strict=True):
        row_logps = F.log_softmax(row_logits, dim=-1)
        rows.append(row_logps.gather(dim=-1, index=row_labels.unsqueeze(-1)).squeeze(-1))
    return torch.stack(rows)


def swift_whole(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """ms-swift 40c8406fb DPOTrainer.get_batch_logps (whole-batch log_softmax, gathered)."""
    return torch.gather(logits[:, :-1, :].log_softmax(-1), dim=2, index=labels[:, 1:].unsqueeze(2)).squeeze(2)


def head(style: str, nll: bool) -> tuple[float, float]:
    hidden = torch.randn(B, S, H, dtype=torch.bfloat16, requires_grad=True)
    weight = torch.randn(V, H, dtype=torch.bfloat16)
    labels = torch.randint(0, V, (B, S))
    tracker = MemTracker()
    with tracker:
        logits = F.linear(hidden, weight)
        logps = (trl_rows(logits, labels) if style == "trl" else swift_whole(logits, labels)).sum(-1)
        loss = -F.logsigmoid(logps[0] - logps[1])
        if nll and style == "trl":
            loss = loss + F.cross_entropy(torch.flatten(logits[:1], end_dim=1), torch.flatten(labels[:1], end_dim=1))
        elif nll:
            chosen = logits[:1][..., :-1, :].contiguous()
            loss = loss + torch.nn.CrossEntropyLoss()(chosen.view(-1, V), labels[:1][..., 1:].contiguous().view(-1))
            del chosen
        del logits
        forward = tracker.get_tracker_snapshot("current")[torch.device("cpu")]["Total"]
        loss.backward()
    total = tracker.get_tracker_snapshot("peak")[torch.device("cpu")]["Total"]
    return forward / LOGITS_BYTES, total / LOGITS_BYTES


if __name__ == "__main__":
    print(f"torch {torch.__version__}, B {B}, S {S}, V {V}")
    for style in ("trl", "swift"):
        for nll in (False, True):
            f, p = head(style, nll)
            print(f"{style:6s} nll {nll!s:5s}: forward {f:.2f}, peak {p:.2f} x the batch's bf16 logits")
