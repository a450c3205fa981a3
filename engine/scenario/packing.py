"""How a micro-batch's sequences are laid out, and so how many tokens a step really holds (issue 24 item 11).

* none: every sequence is padded to seq_len (the collator pads to the batch's longest; seq_len is that bound);
  micro_batch x seq_len tokens.
* padding-free: the sequences are concatenated into one row without padding (TRL `padding_free`, ms-swift
  `--padding_free`, verl's remove-padding with `use_dynamic_bsz`), attention separated per sequence by position
  ids / cu_seqlens; the row holds max_tokens_per_micro_batch tokens (verl `ppo_max_token_len_per_gpu`), or, when
  that is not given, micro_batch x seq_len.
* packed: whole sequences packed into rows of seq_len tokens (TRL `packing`, axolotl `sample_packing`); with
  max_tokens_per_micro_batch, as many rows as hold that many tokens, else micro_batch rows.

ms-swift's own example (examples/train/padding_free/dpo.sh in modelscope/ms-swift, Qwen2.5-7B DPO, 4 GPUs, ZeRO-3,
max_length 8192, batch 4): "with padding_free: 4 * 47GiB ... without padding_free: 4 * 57GiB": the same batches
hold fewer tokens once the padding is gone, and activations and logits follow the tokens.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

PACKINGS = ("none", "padding-free", "packed")


def laid_out(s: Any) -> tuple[int, int]:
    """(rows, tokens per row) of one micro-batch as the step really holds it."""
    if s.packing == "none":
        return s.micro_batch, s.seq_len
    tokens = s.max_tokens_per_micro_batch or s.micro_batch * s.seq_len
    if s.packing == "padding-free":
        return 1, tokens
    return max(1, math.ceil(tokens / s.seq_len)), s.seq_len


def as_laid_out(s: Any) -> Any:
    """The scenario with micro_batch and seq_len as the step holds them (itself when nothing changes): the memory and
    time models then count the activations, logits and FLOPs of the tokens really there."""
    rows, row_tokens = laid_out(s)
    if (rows, row_tokens) == (s.micro_batch, s.seq_len):
        return s
    return dataclasses.replace(s, micro_batch=rows, seq_len=row_tokens, packing="none", max_tokens_per_micro_batch=0)
