"""A synchronous rollout decodes until the longest completion of the batch it was given (issue 23).

verl, NeMo-RL, TRL and OpenRLHF (without async) hand the engine the step's prompts and wait for every completion:
vLLM's LLM.generate runs `while self.llm_engine.has_unfinished_requests(): step()` (vllm/entrypoints/llm.py
_run_engine), and its scheduler drops a finished sequence from the running batch and admits a waiting one (continuous
batching), so the iterations run until the last completion ends, each over the sequences still running. The number of
iterations is the longest completion (capped by the config: verl data.max_response_length, TRL
max_completion_length, OpenRLHF generate_max_len, NeMo-RL max_new_tokens), while the tokens, the KV read and the
output work follow the mean (completion_len). A MoE's expert read is not affine (concave: the experts its running
tokens pick), so its last pass is priced at a spread instead (length_spread.py).

Distribution assumed, a bound: the engine's slots stay full for the mean's iterations of every wave (the queue
refills them), then one sequence runs alone from the mean to the longest. Why it is close to any distribution with
that mean and longest: each term of a decode iteration is affine in the running sequences (weights read once plus
each sequence's KV; 2 x params x sequences of matmuls; the host's launches, a constant; V0's output processing, 0.2 ms
plus 0.103 ms a sequence, engine_loop.py), so over the iterations their sum depends on the running counts only
through their total, the tokens (fixed by the mean), and on the lengths' spread only where another term of the max()
binds and through the KV context's second moment. The tail taken at one running sequence is the least work each of
its iterations can do; its KV context is the prompt plus halfway from the mean to the longest."""

from __future__ import annotations

from ..scenario import Scenario


def longest_completion_len(s: Scenario) -> int:
    """Tokens of the longest completion a step generates: max_completion_len, at least completion_len (the mean);
    completion_len where it is not set."""
    return max(s.completion_len, s.max_completion_len or s.completion_len)


def tail_iterations(s: Scenario) -> int:
    """Decode iterations after the mean's, which one sequence runs alone to the longest completion."""
    return longest_completion_len(s) - s.completion_len


def tail_context_tokens(s: Scenario) -> float:
    """The lone tail sequence's mean context over its iterations: the prompt plus halfway from the mean to the
    longest completion."""
    return engine_prompt_len(s) + (s.completion_len + longest_completion_len(s)) / 2


def engine_prompt_len(s: Scenario) -> int:
    """Tokens of the mean prompt without its padding: prompt_len_mean (at most prompt_len, the cap the trainer pads
    to: posttraining_checks), else prompt_len. What the engine prefills and decodes after: verl's vLLM rollout strips
    each prompt's left padding before generate (volcengine/verl@ed498f9f verl/workers/rollout/vllm_rollout/
    vllm_rollout_spmd.py _pre_process_inputs, lines 59-64), and its padding-free passes drop it (use_remove_padding)."""
    return s.prompt_len_mean or s.prompt_len


def padded_sequence_len(s: Scenario) -> int:
    """Tokens of each sequence of the step's batch as verl holds it padded: the prompt cap and the response cap,
    data.max_prompt_length + rollout.response_length (vllm_rollout_spmd.py at ed498f9f line 270 pads every response
    to response_length), which verl also passes as the engine's max_model_len when unset (line 112): the scenario's
    rollout_max_model_len, else prompt_len + the longest completion."""
    return s.rollout_max_model_len or s.prompt_len + longest_completion_len(s)


__all__ = ["engine_prompt_len", "longest_completion_len", "padded_sequence_len", "tail_context_tokens",
           "tail_iterations"]
