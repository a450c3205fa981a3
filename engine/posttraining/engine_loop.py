"""The generation engine's own host work per decode iteration that the GPU waits for: vLLM V0's output processing
when its async output processor is off.

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
hosts). Not counted, for want of a measured per-sequence figure: the scheduler's and input preparation's own
per-sequence work (vllm-project/vllm issue #6854 puts the whole host loop at 5-13 ms of GPU bubble per decode step,
batch not stated); the sampler's log-probs (verl asks logprobs=0) run on the GPU inside the forward."""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_speed_factor

# vllm-project/vllm issue #6913 table: _process_model_outputs at batch 1 and batch 32
OUTPUT_SECONDS_AT_BATCH_1 = 0.2e-3
OUTPUT_SECONDS_AT_BATCH_32 = 3.4e-3
OUTPUT_SECONDS_PER_SEQUENCE = (OUTPUT_SECONDS_AT_BATCH_32 - OUTPUT_SECONDS_AT_BATCH_1) / (32 - 1)


def serial_output_seconds(s: Scenario, running_sequences: int) -> float:
    """Host seconds per decode iteration of V0's output processing of `running_sequences`, which an engine without
    CUDA graphs runs in series with the forward."""
    if running_sequences <= 0:
        return 0.0
    seconds = OUTPUT_SECONDS_AT_BATCH_1 + (running_sequences - 1) * OUTPUT_SECONDS_PER_SEQUENCE
    return seconds * host_speed_factor(s)


__all__ = ["OUTPUT_SECONDS_AT_BATCH_1", "OUTPUT_SECONDS_AT_BATCH_32", "OUTPUT_SECONDS_PER_SEQUENCE",
           "serial_output_seconds"]
