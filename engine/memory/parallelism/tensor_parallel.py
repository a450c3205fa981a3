"""Tensor parallelism: which tensors are split over the tp ranks.

PyTorch style (`parallelize_module`, transformers' tp_plan): the lm_head's output is gathered to full
(b, s, V) logits on every rank unless the loss runs under `loss_parallel()`, which keeps them split.
"""

from __future__ import annotations

from typing import Protocol

from ...frameworks.defaults import defaults_for


class _TpSettings(Protocol):
    tp: int
    loss_parallel: bool | str
    framework: str


def loss_parallel_on(s: _TpSettings) -> bool:
    """The loss runs vocabulary-parallel: as the scenario says, or ("auto") as its framework does by default."""
    if s.loss_parallel == "auto":
        return defaults_for(s.framework).loss_parallel_by_default
    return bool(s.loss_parallel) or defaults_for(s.framework).loss_always_parallel


def logits_shards(s: _TpSettings) -> int:
    """Ranks the (b, s, V) logits and their cross-entropy are split over."""
    return s.tp if loss_parallel_on(s) else 1


def replicated_embedding_grad_params(tp: int, embedding_params: float, trains: bool, first_stage: bool,
                                     tied: bool, framework: str = "huggingface") -> float:
    """Extra gradient elements of a Rowwise-sharded embedding under PyTorch TP (beyond its 1/tp shard).

    RowwiseParallel on nn.Embedding (input Replicate) shards the table by rows, but the embedding
    backward produces the weight gradient from the replicated input ids: a full V x h gradient on every rank,
    kept as the parameter's .grad until zero_grad. Megatron's vocab-parallel embedding keeps only the shard.
    A tied table first gets the lm_head's row-sharded gradient, and the embedding's is accumulated into that
    shard (traced).
    """
    if tp == 1 or not trains or not first_stage or tied or defaults_for(framework).vocab_parallel_embedding:
        return 0.0
    return embedding_params * (1 - 1 / tp)


def sp_saves_gathered_inputs(s: _TpSettings) -> bool:
    """PyTorch sequence parallelism: each column-parallel linear saves its own all-gathered input for backward
    (Megatron keeps the shard and gathers it again in backward)."""
    return s.tp > 1 and defaults_for(s.framework).sp_saves_gathered_inputs


def sp_gathers_per_block(s: _TpSettings) -> bool:
    """torchtitan's TP plan (torchtitan/models/llama3/infra/parallelize.py apply_tp: PrepareModuleInput on
    "attention" and "feed_forward" with desired_input_layouts Replicate) all-gathers each block's sequence-parallel
    input once, and q/k/v (w1/w3) all keep that one copy; a plan with Shard(1) input layouts on every
    ColwiseParallel gathers once per linear (traced: tests/data/ground_truth/distributed/*-titan.json)."""
    return sp_saves_gathered_inputs(s) and defaults_for(s.framework).sp_gathers_per_block


def loss_inside_model(s: _TpSettings) -> bool:
    """transformers computes the loss inside the model's forward when given labels; a vocabulary-parallel loss
    cannot run there (its reshapes gather the logits), so it is computed on the logits outside, as torchtitan
    and torchtune recipes always do."""
    return not defaults_for(s.framework).loss_outside_model and not (s.tp > 1 and loss_parallel_on(s))
