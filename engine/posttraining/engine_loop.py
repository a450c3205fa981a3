"""The generation engine's own host work per decode iteration that the GPU waits for: vLLM V0's output processing
when its async output processor is off, and its scheduling and input preparation of every running sequence.

Each V0 decode iteration (vllm/engine/llm_engine.py LLMEngine.step) schedules, runs the model, then processes the
step's outputs in `_process_model_outputs` (appending each sequence's token and log-probs, stop checks, building the
output objects) before the next iteration is scheduled; vLLM's asynchronous output processor (vllm-project/vllm pull
request #7049, v0.6.0) overlaps it with the next forward, but only with CUDA graphs: under enforce_eager vLLM turns it
off ("To see benefits of async output processing, enable CUDA graph. Since, enforce-eager is enabled, async output
processor cannot be used", vllm/platforms/cuda.py, printed at 06-13 18:30:38 in every eric-haibin-lin/verl-data
GRPO-LoRA log, whose log format 'cuda.py:95]' and V0 fallback mark a vLLM 0.7-era V0 engine). So an engine without
CUDA graphs waits for that processing each iteration, in series with the forward.

Its cost per iteration, as measured in vllm-project/vllm issue #6913 (megha95, 2024-07-29, Llama3-70B FP8 on 4 x
H100, 128 input tokens): `_process_model_outputs` takes 0.2 ms at batch 1 and 3.4 ms at batch 32 (the table's third
row, batch 1024 at 0.2 ms, contradicts its own 20% expected reduction and is not used): (3.4 - 0.2) / 31 = 0.103 ms
per running sequence above the first. Scaled by the run's host (engine/timing/host.py host_speed_factor, 1 for x86
hosts).

The same loop schedules and builds the next forward's inputs before it launches it, in series with the GPU with or
without CUDA graphs (the async output processor overlaps only the output processing; schedule_input_seconds): vLLM
0.7.3, which the verl-data logs run (their 'cuda.py:95]', 'config.py:685]' and 'tokenizer.py:264]' are those
warnings' lines in the 0.7.3 wheel and in none of 0.6.6.post1-0.7.2; 0.8 prints the file in brackets), walks every
running sequence group each iteration in vllm/core/scheduler.py _schedule_running (line 634; _can_append_slots, line
723, and _append_slots, lines 1689-1725, per group), builds a SequenceGroupMetadata with its block table per
scheduled group (schedule(), lines 1496-1559), adds each group to the model input builder
(vllm/worker/model_runner.py _prepare_model_input_tensors, lines 1195-1216: add_seq_group, then build) and to the
sampling metadata (vllm/model_executor/sampling_metadata.py _prepare_seq_groups, line 250). verl switches none of it
off; what it does switch off is not counted: detokenization (SamplingParams detokenize=False,
vllm/engine/output_processor/single_step.py line 123) and the stats logging (rollout.disable_log_stats True). Its
price is WukLab's measurement of vLLM v0.5.4's loop ("Can Scheduling Overhead Dominate LLM Inference Performance?",
mlsys.wuklab.io/posts/scheduling_overhead, 2024-09-10; source WukLab/wuklab_sysml at 92e190d,
content/posts/scheduling_overhead.md): Llama-3-8B on one A6000 (Xeon Gold 5218 host), default settings with a
512-token batch budget, 1024-token prompts and 1024-token outputs, 300 requests sent at once, Nsight Systems and
timers in the code. Its Figure 4 (static/images/scheduling_overhead/1024_1024.svg, the bars' lengths read off the SVG
at 67.65 px a millisecond) gives per iteration: scheduling 3.877 ms (preparing metadata such as block lookups 2.518,
deciding the batch such as block allocation 1.142, marking blocks computed 0.043, other 0.174) and building the
forward's inputs 9.280 ms (model input tensors 7.046, sampling metadata 1.786, block-swap metadata 0.110, other
0.283, tensors for the forward 0.055); the post says this overhead is proportional to the sequences in the batch, not
the tokens. The batch holds at most max_num_seqs = 256 sequences (vLLM 0.5.4 vllm/engine/arg_utils.py line 63, its
default), so 13.157 ms / 256 = 0.0514 ms per running sequence is a lower bound of the price. A check from the same
study: its Figure 5 (vLLM_A6000_Requests.svg, read the same way) measures 10.64 ms of the whole loop per iteration
with 128 requests sent, at most 128 running, so at least 0.083 ms a sequence, where Figure 4's whole loop, 22.4 ms
over at most 256, gives at least 0.0875: the two agree, so Figure 4's batch was near 256 and the bound near the
price. Its 512- and 1,024-request bars (24.6 and 42.2 ms) grow past max_num_seqs: a cost of the waiting requests, not
counted here. Between 0.5.4 and 0.7.3 vLLM cut Python allocations in these paths (pull request #7162: +24%
throughput, Llama-3.1-8B, one H100), while the A6000's 2019 Xeon is slower than an H100 host's CPU: neither is
corrected for. The sampler's per-sequence Python (Sampler.forward after the forward: its sampling tensors'
lists, the read-back's .tolist()s, the sampled token's Logprob dict for logprobs=0, the SequenceOutput objects), which
the study counts inside the forward, is engine_sampler.py's measurement of vLLM 0.7.3's own code, in series with
every V0 iteration."""

from __future__ import annotations

from dataclasses import dataclass

from ..scenario import Scenario
from ..serving.engine_step_host import engine_step_host_seconds
from ..timing.host import host_speed_factor
from .engine_output import in_process_output_seconds
from .engine_sampler import v0_sampler_seconds

# vllm-project/vllm issue #6913 table: _process_model_outputs at batch 1 and batch 32
OUTPUT_SECONDS_AT_BATCH_1 = 0.2e-3
OUTPUT_SECONDS_AT_BATCH_32 = 3.4e-3
OUTPUT_SECONDS_PER_SEQUENCE = (OUTPUT_SECONDS_AT_BATCH_32 - OUTPUT_SECONDS_AT_BATCH_1) / (32 - 1)
# WukLab's Figure 4 (vLLM 0.5.4, Llama-3-8B, A6000): scheduling and building the forward's inputs per iteration, over
# at most vLLM 0.5.4's default max_num_seqs running sequences
SCHEDULE_SECONDS_MEASURED = 3.877e-3
MODEL_INPUT_SECONDS_MEASURED = 9.280e-3
MEASURED_MAX_RUNNING_SEQUENCES = 256
SCHEDULE_INPUT_SECONDS_PER_SEQUENCE = (SCHEDULE_SECONDS_MEASURED + MODEL_INPUT_SECONDS_MEASURED) / \
    MEASURED_MAX_RUNNING_SEQUENCES
# the release keys that name V0 (engine/scenario/posttraining_keys.py ROLLOUT_ENGINE_RELEASES); "latest" is V1: vLLM
# removed the V0 engine in 0.11.0 (huggingface/optimum-neuron pull request #1027: "the V0 engine has been completely
# removed from vLLM starting with version 0.11.0"; vllm-project/vllm pull request #25033 "[V0 Deprecation] Remove
# LLMEngine")
V0_RELEASES = frozenset({"vllm-0.8-v0"})


def runs_v0_loop(s: Scenario, rollout_engine: str) -> bool:
    """The engine runs vLLM V0's loop: a release named V0 (the measured verl-data runs: vLLM 0.7.3, entered as the
    nearest release the key names). V1's loop (a separate engine-core process, a persistent batch) is not V0's and
    gets neither V0 term, with or without CUDA graphs."""
    return rollout_engine == "vllm" and s.rollout_engine_release in V0_RELEASES


def serial_output_seconds(s: Scenario, running_sequences: int) -> float:
    """Host seconds per decode iteration of V0's output processing of `running_sequences`, which an engine without
    CUDA graphs runs in series with the forward."""
    if running_sequences <= 0:
        return 0.0
    seconds = OUTPUT_SECONDS_AT_BATCH_1 + (running_sequences - 1) * OUTPUT_SECONDS_PER_SEQUENCE
    return seconds * host_speed_factor(s)


def schedule_input_seconds(s: Scenario, running_sequences: int) -> float:
    """Host seconds per decode iteration of V0's scheduling of `running_sequences` and building their forward's
    inputs and sampling metadata, which every V0 iteration runs before it launches the forward."""
    return max(0, running_sequences) * SCHEDULE_INPUT_SECONDS_PER_SEQUENCE * host_speed_factor(s)


@dataclass(frozen=True, slots=True)
class LoopHostSeconds:
    """The engine loop's own host seconds in one decode iteration, each in series with the forward."""

    serial_output: float  # V0's output processing, without CUDA graphs
    schedule_input: float  # V0's scheduling and input preparation
    v1_step: float  # V1's synchronous loop (engine/serving/engine_step_host.py)
    sampler: float = 0.0  # V0's sampler, its Python per running sequence (engine_sampler.py)
    in_process_output: float = 0.0  # V1's front-end output processing in the trainer's process (engine_output.py)


def loop_host_seconds(s: Scenario, rollout_engine: str, running_sequences: int, enforce_eager: bool,
                      sampled_logprobs: bool = False, in_process: bool = False, detokenize: bool = True
                      ) -> LoopHostSeconds:
    """The one place that decides which loop a rollout engine runs around each decode iteration: a vLLM release
    named V0 schedules and prepares every running sequence's inputs and samples each one's token in Python (with its
    log-prob when `sampled_logprobs`), and without CUDA graphs (its async output processor off) processes their
    outputs too; any other vLLM runs V1's loop, and when its engine core runs `in_process` (the trainer's process) its
    front-end's output processing of every request too (detokenised when `detokenize`); SGLang's overlapped loop and
    other engines add nothing (engine_step_host_seconds is 0 for them)."""
    if runs_v0_loop(s, rollout_engine):
        outputs = serial_output_seconds(s, running_sequences) if enforce_eager else 0.0
        return LoopHostSeconds(outputs, schedule_input_seconds(s, running_sequences), 0.0,
                               v0_sampler_seconds(s, running_sequences, sampled_logprobs))
    v1_step = engine_step_host_seconds(s, rollout_engine, running_sequences)
    front = in_process_output_seconds(s, running_sequences, sampled_logprobs, detokenize) if (
        in_process and v1_step) else 0.0
    return LoopHostSeconds(0.0, 0.0, v1_step, 0.0, front)


__all__ = ["LoopHostSeconds", "MEASURED_MAX_RUNNING_SEQUENCES", "MODEL_INPUT_SECONDS_MEASURED", "OUTPUT_SECONDS_AT_BATCH_1",
           "OUTPUT_SECONDS_AT_BATCH_32", "OUTPUT_SECONDS_PER_SEQUENCE", "SCHEDULE_INPUT_SECONDS_PER_SEQUENCE",
           "SCHEDULE_SECONDS_MEASURED", "V0_RELEASES", "loop_host_seconds", "runs_v0_loop", "schedule_input_seconds",
           "serial_output_seconds"]
