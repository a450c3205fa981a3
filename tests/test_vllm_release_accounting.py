"""The vLLM release a post-training run used sizes its KV cache (key rollout_engine_release), and the verl tuning rows
are judged at the lengths their data had (rows with lengths "dataset").

Sources (vLLM wheels 0.8.2 and 0.8.3 from PyPI, read for this test; verl volcengine/verl):
- vLLM 0.8.3 V0: vllm/worker/worker.py init_device (baseline MemorySnapshot after the CUDA context, no check of the
  free memory against the budget) and determine_num_available_blocks (total x gpu_memory_utilization -
  non_kv_cache_memory); vllm/utils.py memory_profiling (torch_peak_increase = peak after reset - allocated before
  the profile, non_torch_increase from the baseline: weights + the profile's own increase + non-torch);
  vllm/worker/model_runner.py _dummy_run (max_num_seqs prompts, one sampler row each);
  vllm/engine/arg_utils.py _set_default_args_v0 (max_num_seqs 256) and _is_v1_supported_oracle
  (VLLM_ATTENTION_BACKEND=XFORMERS is not a V1 backend: fallback to V0).
- vLLM 0.8.2 / 0.8.3 V1: vllm/v1/worker/gpu_worker.py determine_available_memory (peak = the process's
  allocated_bytes.all.peak + the device's used bytes - torch's allocated; KV = total x utilization - peak).
- verl 49b08e950 (2025-06-12): examples/tuning/*/qwen2-*_grpo-lora_*_h100_fsdp_vllm.sh export
  VLLM_ATTENTION_BACKEND=XFORMERS; verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py passes no max_num_seqs.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.accuracy import posttraining as pt
from engine.models.presets import get_gpu
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.generation import GenerationInputs, generation_memory
from engine.serving.profile_run import SAMPLER_BYTES_PER_LOGIT, lora_stack_bytes
from engine.serving.startup_band import startup_band
from engine.serving.vllm_load import vllm_load_extra_bytes
from engine.workloads import estimate

GIB = 2**30
ROWS = {r["id"]: r for r in pt.read_published()}
SEVEN_B = "verl-tuning-7b-grpo-lora-1xh100"


def _spec():
    return resolve_model(scenario_from_dict({"model": "qwen2.5-7b"}))


def _inputs(**over) -> GenerationInputs:
    spec = _spec()
    base = dict(spec=spec, weight_bytes=spec.total_params * 2, capacity_bytes=80 * GIB, gpu_memory_utilization=0.5,
                max_num_batched_tokens=8192, max_num_seqs=256, max_model_len=2048, enforce_eager=True)
    return GenerationInputs(**{**base, **over})


def test_v0_accounting_is_the_budget_formula():
    """vLLM 0.8's V0 worker: KV = total x gpu_memory_utilization - (weights + the profile's own torch peak increase +
    the non-torch increase since the baseline taken after the CUDA context), the formula of the newest release; a
    colocated trainer's tensors held before the profile do not count (reset_peak_memory_stats before it)."""
    trainer = 6 * GIB
    latest = generation_memory(_inputs(used_by_others_bytes=trainer))
    v0 = generation_memory(_inputs(used_by_others_bytes=trainer, accounting="vllm-0.8-v0"))
    assert v0.kv_pool_bytes == latest.kv_pool_bytes
    parts = sum(v0.bytes_of(k) for k in ("weights", "activation_peak", "non_torch"))
    assert v0.kv_pool_bytes == pytest.approx(80 * GIB * 0.5 - parts)


def test_v1_0_8_charges_the_process_and_the_device():
    """vLLM 0.8's V1 worker: peak = the process's torch peak (a colocated trainer's tensors included) + the device's
    non-torch memory (the CUDA context among it), so both come out of total x gpu_memory_utilization."""
    trainer = 6 * GIB
    latest = generation_memory(_inputs(used_by_others_bytes=trainer))
    v1 = generation_memory(_inputs(used_by_others_bytes=trainer, accounting="vllm-0.8-v1"))
    context = latest.bytes_of("cuda_context")
    assert latest.kv_pool_bytes - v1.kv_pool_bytes == pytest.approx(trainer + context)
    assert dict(v1.component("kv_cache").inputs)["accounting"] == "vllm-0.8-v1"
    assert "accounting" not in dict(latest.component("kv_cache").inputs)  # serving output unchanged


def test_seven_b_lora_row_at_v0_default_sequences():
    """verl's 7B GRPO-LoRA tuning row (gpu_memory_utilization 0.2 of an 80 GB H100, max_num_batched_tokens 1536,
    max_model_len 1536): the V0 profile samples max_num_seqs rows of the vocabulary (38 bytes a logit), 256 by V0's
    default since verl at 49b08e950 never passed the script's 512: half the sampler's bytes. With the LoRA stacks the
    budget holds no KV block: vLLM 0.8.3 raises "No available memory for the cache blocks" (vllm/worker/worker.py
    raise_if_cache_size_invalid, lines 539-542). With the terms before h-verl7b (nvidia-smi's total, the parameters'
    own bytes) the pool fell short of one request of 1,536 tokens (28 layers x 2 x 4 KV heads x 128 x 2 bytes = 56 KiB
    a token) by about 17 MiB; the CUDA-visible total takes 0.2 x (81,559 - 81,089) MiB = 94 MiB more, and the weight
    figure's allocator rounding and rotary cache (engine/serving/vllm_load.py) 89 MiB more. 200 MiB short of one
    request is within the start-up accounting's measured uncertainty (presets/engine_startup_band.json: the largest
    |KV pool error| of the published vLLM start-up logs, 2.73% of the budget, 0.43 GiB here), so since h-vtight the
    engine "may refuse" and the row is judged 'tight', not 'does not fit' (docs/posttraining.md)."""
    sc = dict(ROWS[SEVEN_B]["scenario"])
    assert sc["rollout_engine_release"] == "vllm-0.8-v0" and sc["rollout_max_num_seqs"] == 256
    spec = _spec()
    at_256 = step_parts(scenario_from_dict(sc)).engine
    at_512 = step_parts(scenario_from_dict({**sc, "rollout_max_num_seqs": 512})).engine
    assert at_512.activation_bytes - at_256.activation_bytes == pytest.approx(
        256 * spec.vocab * SAMPLER_BYTES_PER_LOGIT)
    assert at_256.kv_bytes_per_token == 28 * 2 * 4 * 128 * 2
    gpu = get_gpu(sc["gpu"])
    left = at_256.requested_bytes - at_256.weight_bytes - at_256.activation_bytes - 0.13 * GIB
    need = 1536 * at_256.kv_bytes_per_token
    assert left < 0 and at_256.refusal is None and "vllm may refuse" in str(at_256.caution).lower()
    assert 0 < need - left <= startup_band("vllm") * at_256.requested_bytes
    before = left + vllm_load_extra_bytes(spec, 1) + 0.2 * (gpu.memory_bytes - gpu.cuda_total_bytes)
    assert 0 < need - before < 20 * 2**20
    # without the LoRA stacks (154 MiB) it started before h-verl7b; now even then one request would not fit
    assert 0 < left + lora_stack_bytes(spec, 32, 1) < need


def test_v0_budget_is_the_cuda_visible_total():
    """vLLM 0.8.3's V0 worker sizes its budget from the total torch.cuda.mem_get_info reports (vllm/worker/worker.py
    line 222 `free_memory_pre_profile, total_gpu_memory = torch.cuda.mem_get_info()`, line 233
    `memory_for_current_instance = total_gpu_memory * gpu_memory_utilization`, the v0.8.3 wheel on PyPI; the same in
    0.9.1), not nvidia-smi's total: the post-training engine takes the preset's CUDA-visible total, as the serving
    estimate does. On an H100 SXM 80GB that is 81,089 MiB (presets/gpus.json cuda_total_bytes, torch
    get_device_properties); vLLM's own V0 lines on an H100-80G log total_gpu_memory (79.22GiB) (vllm-project/vllm PRs
    #10511 and #12126), within 0.04 GiB of it, 0.43 GiB under nvidia-smi's 81,559 MiB."""
    sc = dict(ROWS[SEVEN_B]["scenario"])
    gpu = get_gpu(sc["gpu"])
    engine = step_parts(scenario_from_dict(sc)).engine
    assert engine.requested_bytes == pytest.approx(0.2 * gpu.cuda_total_bytes)
    assert abs(gpu.cuda_total_bytes / GIB - 79.22) < 0.04 and gpu.memory_bytes - gpu.cuda_total_bytes > 0.4 * GIB


def test_lora_stacks_per_linear():
    """vllm/lora/layers.py create_lora_weights at v0.8.3, max_loras 1: lora_a (rank x d_in) and lora_b (d_out x rank)
    for each of q, k, v, gate, up (column-parallel: d_out split by tp) and o, down (row-parallel: d_in split).
    Qwen2.5-7B (hidden 3584, q 3584, k/v 512, ffn 18944) at rank 32: 32 x (7 x 3584 + 2 x 3584 + 2 x 512 + 3 x 18944)
    = 32 x 90,112 per layer, x 28 layers, x 2 bytes; at tp 2 the split halves only the split dimensions."""
    spec = _spec()
    assert lora_stack_bytes(spec, 32, 1) == 32 * 90_112 * 28 * 2
    assert lora_stack_bytes(spec, 32, 2) == 32 * (7 * 3584 + (2 * 3584 + 2 * 512 + 3 * 18944) / 2) * 28 * 2
    sc = dict(ROWS[SEVEN_B]["scenario"])
    full = step_parts(scenario_from_dict({**sc, "method": "full", "reference_model": "separate"})).engine
    lora = step_parts(scenario_from_dict(sc)).engine
    assert lora.weight_bytes - full.weight_bytes == pytest.approx(lora_stack_bytes(spec, 32, 1))


def test_rollout_max_model_len_is_the_engine_length():
    """verl passes max_model_len = rollout.max_model_len or prompt_length + response_length (vllm_rollout_spmd.py):
    the engine's one-request check and its concurrency use it, not the data's lengths."""
    sc = {**ROWS["verl-tuning-3b-grpo-lora-1xh100"]["scenario"], "prompt_len": 109, "completion_len": 301}
    pinned = step_parts(scenario_from_dict({**sc, "rollout_max_model_len": 1536})).engine
    unset = step_parts(scenario_from_dict({**sc, "rollout_max_model_len": None})).engine
    assert pinned.max_concurrent_sequences < unset.max_concurrent_sequences
    assert pinned.kv_tokens == unset.kv_tokens  # the pool itself does not depend on the length


def test_verl_import_reads_rollout_max_model_len():
    """verl examples/tuning/*/qwen2-*_grpo-lora_*_h100_fsdp_vllm.sh pass actor_rollout_ref.rollout.max_model_len=1536."""
    from engine.configs import import_texts

    line = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.rollout.name=vllm "
            "actor_rollout_ref.rollout.max_model_len=1536")
    assert import_texts([("run.sh", line)]).scenario.get("rollout_max_model_len") == 1536


def test_dataset_rows_name_their_statistic_and_stay_within_the_maxima():
    rows = [r for r in ROWS.values() if r.get("lengths") == "dataset"]
    assert len(rows) >= 11
    for r in rows:
        assert pt.integrity_problems(r) == []
        judged = pt.judged_scenario(r)
        assert judged["prompt_len"] <= r["scenario"]["prompt_len"]
        assert judged["rollout_max_model_len"] >= r["scenario"]["prompt_len"] + r["scenario"]["completion_len"] \
            or judged["rollout_max_model_len"] == r["scenario"].get("rollout_max_model_len")
    row = ROWS[SEVEN_B]
    broken = {**row, "dataset_lengths": {**row["dataset_lengths"], "statistic": ""}}
    assert any("statistic" in p for p in pt.integrity_problems(broken))
    longer = {**row, "dataset_lengths": {**row["dataset_lengths"], "completion_len": 4096}}
    assert any("exceeds" in p for p in pt.integrity_problems(longer))


def test_dataset_rows_judged_at_their_data_lengths():
    """The verl tuning rows ran (docs/perf/device_tuning.rst's MIN configurations); at the lengths GSM8K had
    (step 1's prompt_length/mean and response_length/mean of the same recipe's verl-data logs) the 7B LoRA row
    is judged 'tight' (h-vtight: its engine's start-up shortfall at any length lies within the start-up accounting's
    measured band), the others fit; at the scripts' maxima 9 are judged 'does not fit' (an upper bound:
    verl's remove-padding micro-batch holds the sequences' own tokens)."""
    rows = {r.id: r for r in pt.published_rows()}
    tuning = [r for r in rows.values() if r.id.startswith("verl-tuning")]
    assert tuning and all(r.lengths == "dataset" for r in tuning)
    # the 7B LoRA row's engine is 200 MiB short at any length, within the band: tight
    # (test_seven_b_lora_row_at_v0_default_sequences);
    # the 32B LoRA row runs Ulysses (padding-free), whose update holds CopySlices' four logits-sized tensors
    # (h-verllens, tests/test_verl_padding_free_logits.py), once 1.8 GiB over at its data's mean lengths; they run
    # before FSDP's pre-backward hook and the first recompute, so the step holds them beside less (h-verlfit): fits
    over: list[str] = []
    assert [r.id for r in tuning if r.verdict == "does not fit"] == over
    assert rows[SEVEN_B].verdict == "tight"
    assert rows["verl-tuning-1.5b-grpo-lora-1xh100"].bound_verdict == "does not fit"
    summary = pt.published_summary(list(rows.values()))
    assert summary["ran_judged_not_fitting"] == over
    assert summary["dataset"] == len(tuning)


def test_release_key_defaults_leave_estimates_alone():
    """A GRPO scenario that does not name the release estimates as before (the key's default is the newest
    accounting, and the engine's max_model_len defaults to prompt + completion)."""
    sc = {k: v for k, v in ROWS[SEVEN_B]["scenario"].items()
          if k not in ("rollout_engine_release", "rollout_max_model_len")}
    plain = estimate(scenario_from_dict(sc))
    named = estimate(scenario_from_dict({**sc, "rollout_engine_release": "latest", "rollout_max_model_len": 1536}))
    assert plain.process_bytes == named.process_bytes and plain.verdict == named.verdict
    assert dataclasses.asdict(plain.rl.phases[0]) == dataclasses.asdict(named.rl.phases[0])
