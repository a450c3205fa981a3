"""The ends of Megatron-Core's bucketed data-parallel exchange that no compute hides: the gradient bucket that is
ready last, whose reduce starts when the backward has nothing left to run, and the parameter bucket gathered first,
whose all-gather the first forward waits for before it has run anything (presets/efficiency.json frameworks:
dp_bucket_ends)."""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.choices import ADAPTER_METHODS
from .contention import contended


def end_bucket_share(s: Scenario, prof: dict[str, Any], spec: ModelSpec, trainable: float, buckets: int) -> float:
    """Share of the rank's gradients (and gathered parameters) in the bucket that ends the exchange: 0 for a
    framework whose profile does not set dp_bucket_ends. Megatron-Core fills its buckets in reverse parameter order
    (NVIDIA/Megatron-LM megatron/core/distributed/param_and_grad_buffer.py at core_r0.8.0: `for param in
    params[::-1]`, a bucket closed once it holds bucket_size elements), so the last bucket holds the token (and
    position) embeddings, the first parameters of the model; a tied embedding's gradient is complete only after the
    embedding lookup's backward, the backward's last op. The distributed optimizer gathers the buckets in forward
    order (megatron/core/optimizer/distrib_optimizer.py at core_r0.8.0, _get_model_param_buffer_dp_views: 'Add in
    reverse order ... we want all-gathers to run first for the start of the model'), so the same bucket is gathered
    first. The embedding counts where the busiest stage is the whole model (PP 1; with pipelining the busiest stage
    need not hold it) and it trains (not under LoRA), split over the TP ranks (VocabParallelEmbedding); the bucket is
    at least an average one (trainable / buckets) and at most everything."""
    if not prof.get("dp_bucket_ends") or trainable <= 0:
        return 0.0
    embedding = spec.embedding_params / s.tp if s.pp == 1 and s.method not in ADAPTER_METHODS else 0.0
    return min(1.0, max(1.0 / max(buckets, 1), embedding / trainable))


def ends_contended(comm: float, window: float, overlap: float, share: float, end_share: float) -> float:
    """Seconds a bucketed collective of `comm` seconds adds to the step when its end bucket (`end_share` of it) runs
    with no compute beside it and the rest hides behind `window` as contention.contended does. The gradient
    reduce: Megatron-Core starts a bucket's reduce-scatter (or all-reduce) once every gradient in it is ready in the
    last micro-batch (param_and_grad_buffer.py Bucket.register_grad_ready -> start_grad_sync) and
    finish_grad_sync waits for all of them when the backward returns, so the bucket ready last runs after the
    backward. The parameter gather: zero_grad dispatches the first bucket's all-gather before the forward
    (distrib_optimizer.py: 'launch all-gather for first accessed bucket here before forward compute is
    initiated'), the first module's forward pre-hook waits for it, and each wait dispatches the next bucket's only
    (_finish_param_sync_helper: 'We can't pre-launch all-gathers for all buckets at once'), so the first bucket has
    nothing to hide behind and the others hide behind the forward, one bucket ahead. end_share 0: contended."""
    end = comm * end_share
    return end + contended(comm - end, window, overlap, share)
