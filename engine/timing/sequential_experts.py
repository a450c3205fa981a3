"""Megatron-Core's MoE layer without --moe-grouped-gemm, kernel by kernel: SequentialMLP runs one expert after
another on the compute stream, and the allgather dispatcher without expert or sequence parallelism only permutes
locally. Its element-wise traffic is far more than the fused permute and unpermute the time model counts for
Megatron (presets/efficiency.json moe_token_permutation megatron no_expert_parallel: 2 token rows + 2 rows per routed
copy, each way), because every step is a separate ATen kernel and PyTorch's autograd copies the whole permuted
tensor once per expert slice.

Wired by the scenario key moe_grouped_gemm (engine/scenario/time_keys.py; Megatron-LM's --moe-grouped-gemm is
store_true, default False, in megatron/training/arguments.py at NVIDIA/Megatron-LM ba773259, the Megatron-LM-240405
submodule of alibaba/Pai-Megatron-Patch; the key's default, true, is TEGroupedMLP: frameworks megatron
expert_gemm_streams 4). A plan that sets it false takes expert_seconds(..., streams=1) for the experts (one cuBLAS
GEMM per expert, one at a time: the waves of each GEMM alone) and, at EP 1, sequential_loop_bytes() per token as
its MoE permutation (layer_settings.moe_dispatch names it "sequential"; expert_costs.permutation_bytes) in place of the
generic passes.

Code read: NVIDIA/Megatron-LM core_v0.6.0 (cac60ce4, 2024-04-18) megatron/core/transformer/moe/experts.py
SequentialMLP.forward lines 187-210 (zeros_like output_local, per expert hidden = permuted[start:end] and
output_local[start:end] = output, with start/end from the host copy of tokens_per_expert), token_dispatcher.py
MoEAllGatherTokenDispatcher token_permutation lines 137-166 (top_k > 1 without SP or EP: masked_select, nonzero,
torch.gather of each routed copy's row, argsort, histc + .cpu(), torch.gather into expert order) and
token_unpermutation lines 191-256 (zeros_like, out-of-place scatter, the multiply by the routing scores, torch.zeros
of the token rows, out-of-place scatter_add); the same classes at alibaba/Pai-Megatron-Patch 9fce17b3 (the SHA
FlagPerf's qwen1.5_MoE README names) megatron_patch/model/qwen1_5/moe/experts.py and token_dispatcher.py (the
dispatcher identical, line for line). Autograd (pytorch/pytorch torch/csrc/autograd/functions/tensor.cpp
CopySlices::apply: result = new_empty_strided(base) then result.copy_(grad), then grad_slice.clone() for the copy's
own backward; aten/src/ATen/native/TensorShape.cpp slice_backward: at::zeros(input_sizes) then the slice copied in;
torch/csrc/autograd/input_buffer.cpp: the gradients of one tensor are summed pairwise).
"""

from __future__ import annotations

from ..models.architecture import ModelSpec

# (kernel, forward (token rows, copy rows), backward (token rows, copy rows)) per token; a token row is hidden
# values, a copy row one routed copy's (top_k of them per token); each counts one read or one write of the row.
# "per expert" entries are multiplied by the local experts, "per expert less one" by local experts - 1.
FIXED_ROWS: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...] = (
    ("gather of each copy's token row (dispatcher line 145) / its backward: zeros + scatter_add", (0, 2), (1, 3)),
    ("gather into expert order (line 166) / backward: zeros + scatter_add", (0, 2), (0, 4)),
    ("SequentialMLP zeros_like output_local (experts.py 188)", (0, 1), (0, 0)),
    ("output_local[start:end] = output, all experts (203) / CopySlices' slice clones, zeroed slices", (0, 2), (0, 5)),
    ("unpermute zeros_like (191)", (0, 1), (0, 0)),
    ("out-of-place scatter (193): clone + scatter / backward: gather", (0, 4), (0, 2)),
    ("multiply by the scores (197) / backward: grad x scores, grad x input summed over hidden", (0, 2), (0, 6)),
    ("torch.zeros of the token rows (249)", (1, 0), (0, 0)),
    ("out-of-place scatter_add (254): clone + read-modify-write / backward: gather", (2, 3), (0, 2)),
    ("experts' input slices, all experts (200) / SliceBackward's copies into the zeros", (0, 0), (0, 2)),
)
PER_EXPERT_BACKWARD_COPY_ROWS = 2 + 1  # CopySlices copies the whole output gradient; SliceBackward zero-fills it
PER_EXTRA_EXPERT_BACKWARD_COPY_ROWS = 3  # the input buffer adds one more whole gradient: read both, write one
# the fused permutation of moe_token_permutation megatron no_expert_parallel (Transformer Engine's permute and
# unpermute kernels), for comparison (sequential_loop_extra_bytes)
COUNTED_ROWS = (2, 2)  # (token rows, copy rows), forward and backward alike
SEQUENTIAL = "sequential"  # moe_dispatch's permutation name for this loop


def sequential_loop_rows(top_k: int, local_experts: int) -> tuple[float, float]:
    """(forward, backward) rows of hidden width read plus written per token by the allgather dispatcher and
    SequentialMLP at EP 1, TP 1, every kernel listed above."""
    fwd = sum(t + c * top_k for _, (t, c), _ in FIXED_ROWS)
    bwd = sum(t + c * top_k for _, _, (t, c) in FIXED_ROWS)
    per_expert = PER_EXPERT_BACKWARD_COPY_ROWS * local_experts
    per_extra = PER_EXTRA_EXPERT_BACKWARD_COPY_ROWS * max(local_experts - 1, 0)
    return float(fwd), float(bwd + (per_expert + per_extra) * top_k)


def sequential_loop_bytes(spec: ModelSpec, ep: int, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes per token that the dispatcher and SequentialMLP read and write at EP `ep` (each
    rank's local experts: the loop's inventory is the EP 1 allgather dispatcher's, so moe_dispatch names it there)."""
    fwd, bwd = sequential_loop_rows(spec.top_k, max(spec.n_experts // ep, 1))
    row = spec.hidden * elem_bytes
    return fwd * row, bwd * row


def sequential_loop_extra_bytes(spec: ModelSpec, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) bytes per token beyond Transformer Engine's fused permute and unpermute at EP 1."""
    fwd, bwd = sequential_loop_rows(spec.top_k, spec.n_experts)
    counted = COUNTED_ROWS[0] + COUNTED_ROWS[1] * spec.top_k
    row = spec.hidden * elem_bytes
    return (fwd - counted) * row, (bwd - counted) * row
