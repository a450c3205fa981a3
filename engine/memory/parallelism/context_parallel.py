"""Context parallelism: the sequence is split over cp ranks and attention runs as a ring.

PyTorch style (`torch.distributed.tensor.experimental.context_parallel`, used by torchtitan), traced in
tests/data/ground_truth/distributed/*cp*:

* every sequence-sharded tensor (embeddings, norms, linears, saved activations, logits and the loss) covers
  b·s/cp tokens: the engine's ActContext.t;
* SDPA's saved tensors (Q, K, V, output, fp32 logsumexp) are those of the local s/cp queries and keys;
* the ring's own buffers (K/V all-gathered once per attention call, the fp32 merge of outputs and
  logsumexps, fp32 gradient accumulators and the all-to-all of K/V gradients in backward) live only inside
  one attention call: with GQA they stay below the layer's other transients at the step's peaks;
* with the default load balancing (each rank holds a head and a tail chunk of the sequence) every rank but
  the last updates half of its merged output with torch.cat: the output leaves SDPA's memory layout, so
  o_proj saves its own contiguous copy (one b·s/cp·h tensor per layer more than on one GPU). The planner
  reports that busier rank.
"""

from __future__ import annotations

from typing import Protocol

from ...frameworks.defaults import defaults_for


class _CpSettings(Protocol):
    cp: int
    framework: str


def ring_output_copied(s: _CpSettings) -> bool:
    """Whether the busiest cp rank's attention output is a separate copy from o_proj's saved input."""
    return s.cp > 1 and defaults_for(s.framework).cp_ring_attention
