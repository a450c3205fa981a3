"""What accelerate's native amp does to the logits of ms-swift's DPO step without DeepSpeed (issue 22).

ms-swift sets TrainingArguments.bf16 = True for a bf16 torch_dtype (swift/arguments/base_args/model_args.py
_init_mixed_precision at 3602360a); accelerate then enables native amp for bf16 outside DeepSpeed and Megatron and
wraps the prepared model's forward in ``convert_outputs_to_fp32(autocast(forward))`` (src/accelerate/accelerator.py
prepare_model; utils/operations.py convert_to_fp32: ``tensor.float()`` for every bf16/fp16 output). ms-swift's
DPOTrainer (swift/rlhf_trainers/rlhf_mixin.py concatenated_forward at 3602360a) takes the per-token log-probs with
TRL's selective_log_softmax, whose fp32 branch (trl/trainer/utils.py at v0.17.0, lines 1688-1692) gathers the label's
logit and takes logsumexp one sequence at a time; the reference is the same prepared module with the adapters
disabled, under no_grad, after the policy's forward (TRL get_batch_loss_metrics).

This script runs that head on real CPU tensors (2 sequences of S tokens x V, bf16 weights) with accelerate's own
ConvertOutputsToFp32 and prints the tensors alive (torch.distributed._tools.mem_tracker.MemTracker) at the peak of the
forward part (the policy's pass, then the reference's) and at the peak overall, in units of the batch's bf16 logits:

    validation/.venv/bin/python validation/swift_fp32_outputs_trace.py

Output at torch 2.13.0+cpu, accelerate 1.16.0 (S 256, V 8192, hidden 64; the extra 0.14 is the hidden states and
the head's weight): with the cast, forward peak 5.14 (the policy's fp32 logits kept by gather and logsumexp, 2, beside
the reference's bf16 output and its fp32 copy, 3), peak 8.14 in backward (four fp32 logits-sized tensors); without
it (bf16 row path): 3.14 and 3.14. engine/posttraining/logprobs.py fp32_cast_logits and rows_fp32_training give 5.0
and 8.0 (tests/test_swift_fp32_outputs.py).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from accelerate.utils.operations import convert_outputs_to_fp32
from torch.distributed._tools.mem_tracker import MemTracker

B, S, V, H = 2, 256, 8192, 64
LOGITS_BYTES = B * S * V * 2


def selective_log_softmax(logits: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """trl/trainer/utils.py selective_log_softmax at v0.17.0 (both branches)."""
    if logits.dtype in (torch.float32, torch.float64):
        selected = torch.gather(logits, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)
        return selected - torch.stack([torch.logsumexp(lg, dim=-1) for lg in logits])
    rows = []
    for row_logits, row_labels in zip(logits, index, strict=True):
        row_logps = F.log_softmax(row_logits, dim=-1)
        rows.append(row_logps.gather(dim=-1, index=row_labels.unsqueeze(-1)).squeeze(-1))
    return torch.stack(rows)


def head(cast: bool) -> tuple[float, float]:
    hidden = torch.randn(B, S, H, dtype=torch.bfloat16, requires_grad=True)
    ref_hidden = torch.randn(B, S, H, dtype=torch.bfloat16)
    weight = torch.randn(V, H, dtype=torch.bfloat16)
    labels = torch.randint(0, V, (B, S))

    def lm_head(h: torch.Tensor) -> dict[str, torch.Tensor]:
        return {"logits": F.linear(h, weight)}

    forward = convert_outputs_to_fp32(lm_head) if cast else lm_head
    tracker = MemTracker()
    with tracker:
        logps = selective_log_softmax(forward(hidden)["logits"], labels).sum(-1)
        with torch.no_grad():
            ref = selective_log_softmax(forward(ref_hidden)["logits"], labels).sum(-1)
        forward_peak = tracker.get_tracker_snapshot("peak")[torch.device("cpu")]["Total"]
        loss = -F.logsigmoid((logps[0] - ref[0]) - (logps[1] - ref[1]))
        loss.backward()
    total = tracker.get_tracker_snapshot("peak")[torch.device("cpu")]["Total"]
    return forward_peak / LOGITS_BYTES, total / LOGITS_BYTES


if __name__ == "__main__":
    print(f"torch {torch.__version__}, B {B}, S {S}, V {V}")
    for cast in (True, False):
        f, p = head(cast)
        print(f"cast {cast!s:5s}: forward peak {f:.2f}, peak {p:.2f} x the batch's bf16 logits")
