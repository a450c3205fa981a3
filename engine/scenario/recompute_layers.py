"""Which decoder layers of a pipeline stage full checkpointing recomputes (issue 23 item 5: recomputing only as many
layers as memory needs), read by the memory model (engine/memory/decoder_activations.py) and the time model
(engine/timing/model.py).

Megatron-LM at d98e8a64 megatron/core/recompute.py checkpointed_forward (lines 157-183), over the layers of one
TransformerBlock, a pipeline stage's model chunk (num_layers_per_pipeline_rank = len(self.layers)):
- block: layers 0..N-1 each run under their own checkpoint (they keep their input and are recomputed in backward),
  the others run plainly and keep every activation they save;
- uniform: layers [0, N), [N, 2N), ... each run as one checkpoint: only each group's input is kept, every layer is
  recomputed, and the backward rebuilds a whole group (N layers' activations) at once.
torchtitan's selective_ac_option N (every N-th block under its own checkpoint, torchtitan/distributed/
activation_checkpoint.py, the `_count % every_x_layer` wrapper) keeps and recomputes as block does with
floor(layers / N) layers: which layers they are changes neither the bytes a stage keeps nor the work.
recompute_num_layers 0 is the checkpointing every framework's "full" means: each layer its own checkpoint.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..messages import QT_TRANSLATE_NOOP, Message, message


class RecomputeLayers(NamedTuple):
    recomputed: int  # layers run again in backward
    checkpoints: int  # checkpointed units: each keeps its input only
    plain: int  # layers that keep all their saved activations
    rebuilt_at_once: int  # layers whose activations one backward rebuilds together (0: none recomputed)


def chunk_layer_counts(layers: int, chunks: int) -> list[int]:
    """A stage's layers over its model chunks (vpp), as evenly as they go."""
    chunks = max(1, min(chunks, layers)) if layers else 1
    base, extra = divmod(layers, chunks)
    return [base + (1 if i < extra else 0) for i in range(chunks)]


def recompute_layers(s: Any, layers: int, chunks: int | None = None) -> RecomputeLayers:
    """What full checkpointing does with a stage's `layers` decoder layers over its `chunks` model chunks (None:
    the scenario's vpp) (s: an engine.scenario.Scenario)."""
    n = s.recompute_num_layers
    if s.checkpointing != "full":
        return RecomputeLayers(0, 0, layers, 0)
    if n <= 0 or layers == 0:
        return RecomputeLayers(layers, layers, 0, 1 if layers else 0)
    counts = chunk_layer_counts(layers, s.vpp if chunks is None else chunks)
    if s.recompute_method == "uniform":
        groups = sum(-(-c // n) for c in counts)
        return RecomputeLayers(layers, groups, 0, min(n, max(counts)))
    recomputed = sum(min(n, c) for c in counts)
    return RecomputeLayers(recomputed, recomputed, layers - recomputed, 1 if recomputed else 0)


def partial_recompute(s: Any) -> bool:
    """Whether full checkpointing leaves some layers of a stage un-recomputed (block with N set)."""
    return s.checkpointing == "full" and s.recompute_num_layers > 0 and s.recompute_method == "block"


def unused_recompute_layers(s: Any) -> Message | None:
    """The sentence for recompute_num_layers set where checkpointing is not full: Megatron reads it with full
    granularity only and refuses it with selective (NVIDIA/Megatron-LM at d98e8a64 megatron/core/transformer/
    transformer_config.py lines 1926-1932), and recompute_layers above ignores it, so it changes nothing; None where
    it counts or is 0. The estimate lists it; the window's row shows it."""
    if not s.recompute_num_layers or s.checkpointing == "full":
        return None
    return message(QT_TRANSLATE_NOOP("engine", "recompute_num_layers {n} counts with full checkpointing only: with "
                                               "checkpointing \"{checkpointing}\" it has no effect."),
                   n=s.recompute_num_layers, checkpointing=s.checkpointing)
