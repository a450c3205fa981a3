"""The multi-token-prediction (MTP) layers of a Megatron step, on the pipeline stage that holds them.

Megatron-Core's MultiTokenPredictionLayer (megatron/core/transformer/multi_token_prediction.py at d98e8a6), per MTP
layer and micro-batch: the shared embedding runs again over the tokens shifted by one (a gather, and its scatter-add
gradient), enorm and hnorm normalise the embeddings and the previous hidden states, their concatenation is projected
2h -> h (eh_proj, a Transformer Engine column-parallel linear), one decoder layer of the model's last layer's spec
runs (a full MoE layer for DeepSeek-V3), then its final norm, the shared output layer and its own cross-entropy
(process_mtp_loss in megatron/core/models/gpt/gpt_model.py). The decoder layer is timed as any decoder layer of the
stage (its matmuls, attention, element-wise work, TP/EP communication, recomputation and launches); this module adds
the projection, the norms, the concatenation, the embedding and the second output layer and loss. The same pieces
are what Megatron-Bridge counts in its reported model TFLOPS (src/megatron/bridge/training/utils/flop_utils.py at
067f987d: mtp_num_layers more layers of the last layer's kind, "MTP norms and proj" 3 x 2 x (3h + 2h^2) and the
logits (mtp_num_layers + 1) times), so MFU counts them too (mfu.py step_flops_per_token).
"""

from __future__ import annotations

from ..memory.parallelism.layout import mtp_groups, mtp_stage, trained_mtp_layers
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .costs import head_cost
from .gemm import Rates, gemm_seconds, rate_tile

__all__ = ["mtp_groups", "mtp_seconds"]

# Bytes per hidden unit and token of the MTP layer's own element-wise work in the forward, in units of the compute
# dtype: enorm, hnorm and the final norm as fused Transformer Engine RMSNorms (each reads its input and writes its
# output once: 2 x 3), torch.cat of the two normalised halves (reads 2h, writes 2h: 4) and the embedding gather's
# output (1). Backward: the norms twice their forward (12), the concatenation's gradient split (4) and the
# embedding's scatter-add (1).
FORWARD_UNITS, BACKWARD_UNITS = 11, 17


def mtp_seconds(s: Scenario, spec: ModelSpec, index: int, tokens: float, rates: Rates,
                loss: str) -> tuple[float, float, float, float]:
    """(matmul, memory-bound, forward, backward) seconds per micro-batch of the MTP layers' projection, norms,
    embedding, output layer and loss on stage `index` (zeros on the others)."""
    n = trained_mtp_layers(s, spec)
    if not n or index != mtp_stage(s, spec.layers):
        return 0.0, 0.0, 0.0, 0.0
    h = spec.hidden
    head, loss_s = head_cost(spec, tokens, s.tp, rates, loss)
    eh_proj = gemm_seconds(tokens, 2 * h, h / s.tp, rates.gemm, rates.memory, rates.elem_bytes, rates.sms,
                           rates.epilogue_k[0], rate_tile(rates, False))
    unit = tokens / (s.tp if s.sequence_parallel else 1) * h * rates.elem_bytes / rates.memory
    fwd_m, bwd_m = FORWARD_UNITS * unit + loss_s / 3, BACKWARD_UNITS * unit + 2 * loss_s / 3
    matmul = head + eh_proj  # forward; backward: the input's and the weights' gradients, twice that
    return n * 3 * matmul, n * (fwd_m + bwd_m), n * (matmul + fwd_m), n * (2 * matmul + bwd_m)
