"""Packed micro-batches padded to the longest under pipeline parallelism (PostTrainingDefaults.pp_pads_packed_bins:
NeMo-RL's Megatron backend with sequence packing). NVIDIA-NeMo/RL v0.5.0 (6c708930) nemo_rl/models/megatron/
common.py _get_pack_sequence_parameters_for_megatron (lines 235-293): 'when PP is used, all sequences must have the
same length, so we need to pad the packed sequence to the max sequence length in the batch' (pad_full_seq_to =
the longest packed micro-batch, BatchedDataDict.get_microbatch_iterator_for_packable_sequences_len: max of
micro_batch_lengths); megatron_policy_worker.py train (lines 1110-1130) and get_logprobs (lines 1312-1330) pad
every packed micro-batch of the step's update and log-prob passes so. Sequences are packed into bins of
train_mb_tokens = max_total_sequence_length x train_micro_batch_size (grpo_math_1B.yaml sequence_packing;
modified_first_fit_decreasing), and every bin is then computed at the longest bin's length.

ASSUMED, an upper bound like max_completion_len's: the bins hold as many sequences of the mean length as fit
(floor(capacity / mean) of them, the rows' own micro-batch reading) and the longest bin is the whole capacity (a
completion reaching the cap, as max_completion_len takes it); the bin capacity is the engine's max_model_len (NeMo-RL
sets vllm_cfg.max_model_len = policy.max_total_sequence_length, and every performance recipe trains at
train_micro_batch_size 1). First-fit-decreasing over a spread of lengths fills bins nearer the capacity, so the
padding lies between none and this. The padded tokens run through every matmul and element-wise kernel; the
attention skips them (Transformer Engine's THD attention over the actual cu_seqlens), so scaling the whole step
also over-counts the attention's share by the same factor: an upper bound."""

from __future__ import annotations

from ..frameworks import defaults_for
from ..scenario import Scenario
from .estimate import engine_max_model_len


def padded_tokens_ratio(s: Scenario) -> float:
    """The padded micro-batch's tokens over the packed sequences' own: capacity / (floor(capacity / mean) x mean),
    1 where the framework does not pad so, without a pipeline or without packing."""
    if s.pp <= 1 or s.packing == "none" or not defaults_for(s.framework).posttraining.pp_pads_packed_bins:
        return 1.0
    mean = s.prompt_len + s.completion_len
    capacity = engine_max_model_len(s)
    if mean <= 0 or capacity < mean:
        return 1.0
    return capacity / (capacity // mean * mean)


__all__ = ["padded_tokens_ratio"]
