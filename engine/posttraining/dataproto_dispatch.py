"""The batch's round trip through ray for each scoring call of a single-controller framework (issue 23: verl's
old_log_prob and ref phases).

verl's driver calls compute_log_prob, then compute_ref_log_prob, on the worker group with the step's whole batch,
inside the old_log_prob and ref timers (volcengine/verl 9466d371e verl/trainer/ppo/ray_trainer.py lines 1013-1054).
Dispatch.DP_COMPUTE_PROTO chunks the batch over the ranks and ray pickles each chunk as the task's argument on the
driver, one after the other; DataProto.__getstate__ (verl/protocol.py lines 261-270) consolidates the TensorDict,
torch.save's it into a BytesIO and takes getvalue(); each worker torch.load's its chunk (lines 272-280), all ranks
at once; each returns per-token fp32 results (compute_log_prob: old_log_probs and entropys, fsdp_workers.py lines
701-705; the reference's: ref_log_prob alone, lines 727-729 and 744-745), which the driver loads and concatenates.

The batch then holds per sequence six int64 tensors (ray_trainer.py): prompts, responses, response_mask, and
input_ids, attention_mask and position_ids over prompt + response. verl pads the prompts to data.max_prompt_length and
the responses to rollout.response_length, which no key holds: the widths are taken as the scenario's prompt_len and
its longest completion (longest_completion.py), a lower bound where the rows' caps are longer.

Priced from benchmarks/verl_dataproto_dispatch.py (that code path timed on the build host's CPU, thread seconds,
torch 2.13.0, 5,120 sequences of 512 + 1,024 tokens over 8 ranks, three runs), in view calls per MB as every
build-host timing is (engine_sampler.py run_host_per_build_host_second: the same run's torch.narrow price), at
host_overhead.json view_seconds times the run's host factor (host.py host_call_seconds).
"""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..scenario import Scenario
from ..timing.host import host_call_seconds
from .estimate import step_sequences
from .longest_completion import longest_completion_len
from .settings import RLSettings

# view calls per MB on the build host, the median of three runs of benchmarks/verl_dataproto_dispatch.py
DRIVER_SEND_VIEW_CALLS_PER_MB = 705.0  # runs: 705, 690, 718 (the driver's pickling of every rank's chunk)
WORKER_RECEIVE_VIEW_CALLS_PER_MB = 415.0  # runs: 415, 388, 441 (one rank's load of its chunk; the ranks at once)
DRIVER_RECEIVE_VIEW_CALLS_PER_MB = 353.0  # runs: 353, 152, 367 (the driver's load and concatenation of the results)
BATCH_INT64_BYTES = 8
RESULT_FP32_BYTES = 4


def batch_bytes_per_sequence(s: Scenario) -> float:
    """Bytes of one sequence's tensors in the batch the driver sends (module docstring): prompts, responses,
    response_mask, and three tensors over prompt + response."""
    prompt, response = s.prompt_len, longest_completion_len(s)
    return BATCH_INT64_BYTES * (prompt + 2 * response + 3 * (prompt + response))


def dispatch_call_seconds(s: Scenario, sequences: int, results_per_token: int) -> float:
    """Seconds of one worker-group call's round trip of `sequences` over the run's ranks, `results_per_token` fp32
    tensors of the response's width coming back."""
    sent = sequences * batch_bytes_per_sequence(s) / 1e6
    returned = sequences * results_per_token * RESULT_FP32_BYTES * longest_completion_len(s) / 1e6
    view = host_call_seconds(s)[1]
    return view * (sent * DRIVER_SEND_VIEW_CALLS_PER_MB + sent / max(1, s.world_size) * WORKER_RECEIVE_VIEW_CALLS_PER_MB
                   + returned * DRIVER_RECEIVE_VIEW_CALLS_PER_MB)


def scoring_dispatch_seconds(s: Scenario, rs: RLSettings) -> float:
    """Seconds per step of the scoring calls' batch round trips: the old policy's (log-probs and entropies back) and
    the reference's (its log-probs back); 0 where the framework does not dispatch its batch through a single
    controller (PostTrainingDefaults.batch_dispatched)."""
    if not (defaults_for(s.framework).posttraining.batch_dispatched and rs.online):
        return 0.0
    # the step's batch, every data-parallel rank's: a Ulysses group shares its sequences (estimate.step_sequences;
    # verl's device mesh (dp, sp) splits the batch over dp), so the batch is not counted once per sp rank
    sequences = step_sequences(s)
    seconds = dispatch_call_seconds(s, sequences, 2) if rs.old_policy_pass else 0.0
    if rs.reference_forward:
        seconds += dispatch_call_seconds(s, sequences, 1)
    return seconds


__all__ = ["batch_bytes_per_sequence", "dispatch_call_seconds", "scoring_dispatch_seconds"]
