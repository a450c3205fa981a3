"""vLLM V0's sampler on the host in each decode iteration (engine/posttraining/engine_sampler.py): the figures are
benchmarks/vllm_v0_sampler_host.py's timings of vLLM 0.7.3's own Sampler.forward, the term runs in series with every
V0 iteration (CUDA graphs or not), its log-prob part only where the framework asks for logprobs=0, and no V1 or
SGLang rollout pays it."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks.posttraining import NEMO_RL, TRL, UNSLOTH, VERL
from engine.posttraining import engine_sampler
from engine.posttraining.engine_loop import loop_host_seconds
from engine.posttraining.engine_sampler import v0_sampler_seconds
from engine.posttraining.estimate import step_parts
from engine.workloads import step_time


def _verl_row_scenario():
    # a verl-data GRPO-LoRA row: vLLM 0.7.3 entered as the V0 release, enforce_eager (posttraining_time.json)
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    return scenario_from_dict(row["scenario"])


def test_the_sampler_figures_are_the_benchmarks_timings() -> None:
    # benchmarks/vllm_v0_sampler_host.py on the build host (vLLM 0.7.3 Sampler.forward, median of 200 calls):
    # logprobs=0 0.162 ms at 1 sequence, 4.491 ms at 320; logprobs=None 0.094 and 2.807 ms
    assert engine_sampler.SAMPLER_SECONDS_PER_SEQUENCE_LOGPROBS == pytest.approx((4.491 - 0.162) * 1e-3 / 319)
    assert engine_sampler.SAMPLER_SECONDS_PER_SEQUENCE == pytest.approx((2.807 - 0.094) * 1e-3 / 319)
    # the log-prob's dict, slices and .tolist()s per sequence come on top of the sampled ids' own
    assert engine_sampler.SAMPLER_SECONDS_PER_SEQUENCE < engine_sampler.SAMPLER_SECONDS_PER_SEQUENCE_LOGPROBS
    # an H100 host (factor 1): the build host's seconds in its view calls (torch.narrow 1.49 us there) at
    # host_overhead.json's view_seconds (3.52 us), as every build-host timing of the model is carried
    to_dgx = 3.52e-6 / 1.49e-6
    s = _verl_row_scenario()
    assert v0_sampler_seconds(s, 320, True) == pytest.approx(4.491e-3 * to_dgx)
    assert v0_sampler_seconds(s, 1, False) == pytest.approx(0.094e-3 * to_dgx)
    assert v0_sampler_seconds(s, 0, True) == 0.0


def test_only_v0_pays_the_sampler_with_or_without_cuda_graphs() -> None:
    s = _verl_row_scenario()
    for eager in (True, False):  # the async output processor overlaps _process_model_outputs only, not the sampler
        loop = loop_host_seconds(s, "vllm", 64, eager, True)
        assert loop.sampler == v0_sampler_seconds(s, 64, True) > 0
    for release in ("latest", "vllm-0.8-v1"):  # V1's sampler is batched on the GPU: not this term
        assert loop_host_seconds(s.with_unchecked(rollout_engine_release=release), "vllm", 64, True, True).sampler == 0
    assert loop_host_seconds(s, "sglang", 64, True, True).sampler == 0.0


def test_the_frameworks_that_ask_for_sampled_logprobs() -> None:
    # verl (vllm_rollout_spmd.py at 49b08e950, vllm_rollout.py at 36c10bff) and NeMo-RL (vllm_worker.py at v0.5.0)
    # pass SamplingParams(logprobs=0); TRL's and Unsloth's rows generate without log-probs
    assert VERL.rollout_sampled_logprobs and NEMO_RL.rollout_sampled_logprobs
    assert not TRL.rollout_sampled_logprobs and not UNSLOTH.rollout_sampled_logprobs
    s = _verl_row_scenario()
    assert step_parts(s).rs.sampled_logprobs


def test_the_verl_rows_decode_iteration_adds_the_sampler_at_its_running_sequences() -> None:
    s = _verl_row_scenario()
    detail = dict(step_time(s).generation)
    running = detail["concurrent_sequences"]
    # rollout_tp 2 on the row's 2 GPUs: one engine holds the step's 64 prompts x n 5 = 320 sequences (max_num_seqs 512)
    assert running == 320
    assert detail["sampler_host_seconds_per_step"] == pytest.approx(v0_sampler_seconds(s, running, True))
    without = dict(step_time(s.with_unchecked(rollout_engine_release="latest")).generation)
    assert without["sampler_host_seconds_per_step"] == 0.0
