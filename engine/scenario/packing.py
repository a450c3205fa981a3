"""How a micro-batch's sequences are laid out, and so how many tokens a step really holds (issue 24 item 11).

* none: every sequence is padded to seq_len (the collator pads to the batch's longest; seq_len is that bound);
  micro_batch x seq_len tokens.
* padding-free: the sequences are concatenated into one row without padding (TRL `padding_free`, ms-swift
  `--padding_free`, verl's remove-padding with `use_dynamic_bsz`), attention separated per sequence by position
  ids / cu_seqlens; the row holds max_tokens_per_micro_batch tokens (verl `ppo_max_token_len_per_gpu`), or, when
  that is not given, micro_batch x seq_len.
* packed: whole sequences packed into rows of seq_len tokens (TRL `packing`, axolotl `sample_packing`); with
  max_tokens_per_micro_batch, as many rows as hold that many tokens, else micro_batch rows.

Attention over packed and padding-free rows stays within each sequence (Megatron-Core PackedSeqParams with cu_seqlens
and Transformer Engine's 'thd' format in NeMo / Megatron-Bridge packed SFT; flash-attn's varlen kernels under TRL
padding_free and ms-swift --packing; verl's remove-padding), so a row of sequences L_i costs sum(L_i^2) / 2 of causal
attention, not seq_len^2 / 2: packed_sequence_tokens is sum(L_i^2) / sum(L_i), the length of the one sequence whose
attention per token is theirs (attention_tokens).

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


def sequence_tokens(s: Any) -> int:
    """Tokens of the sequence attention runs over, per query's causal window (packed_sequence_tokens, at most seq_len:
    a packed or padding-free sequence is never longer than seq_len); seq_len without packing or without the key."""
    if s.packing == "none" or not s.packed_sequence_tokens:
        return s.seq_len
    return min(s.packed_sequence_tokens, s.seq_len)


def as_laid_out(s: Any) -> Any:
    """The scenario with micro_batch and seq_len as the step holds them (itself when nothing changes): the memory and
    time models then count the activations, logits and FLOPs of the tokens really there. A row that attends per
    sequence shorter than itself is laid out as packed rows with packed_sequence_tokens that length (a padding-free
    row of micro_batch x seq_len tokens still attends per sequence of seq_len), so sequence_tokens reads the same on
    the scenario and on its layout."""
    if s.packing == "none" and s.packed_sequence_tokens == 0:  # rows as given, each one sequence: s itself
        return s
    rows, row_tokens = laid_out(s)
    attended = sequence_tokens(s)
    per_sequence = attended if attended < row_tokens else 0
    if (rows, row_tokens, per_sequence) == (s.micro_batch, s.seq_len, s.packed_sequence_tokens):
        return s
    return dataclasses.replace(s, micro_batch=rows, seq_len=row_tokens, packing="packed" if per_sequence else "none",
                               max_tokens_per_micro_batch=0, packed_sequence_tokens=per_sequence)


def attention_tokens(s: Any, whole_row: bool = False) -> int:
    """Of a laid-out scenario (as_laid_out): the tokens of one sequence as the attention kernel sees it; whole_row:
    eager attention, which builds the row's whole score matrix and masks it (transformers' eager path), so it costs
    the row's seq_len whatever its sequences."""
    return s.seq_len if whole_row else sequence_tokens(s)
