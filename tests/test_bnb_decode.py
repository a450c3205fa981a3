"""A QLoRA policy's bitsandbytes 4-bit base in a vLLM 0.8-era rollout engine dequantises every 4-bit linear per
forward of 2 or more tokens (engine/posttraining/bnb_decode.py: vLLM 0.7.3 / 0.8.5.post1 _apply_4bit_weight ->
bitsandbytes 0.45.5 matmul_4bit -> MatMul4Bit.forward's dequantize_4bit + F.linear; gemv_4bit for one token), and
Unsloth's GRPO engine holds the packed base, shares it with the trainer and serves the adapters through vLLM's LoRA
(engine/frameworks/posttraining.py UNSLOTH, read in unsloth / unsloth_zoo 2025.3.8). Expected values are recomputed
from presets/bnb_4bit.json's dequantisation figures and the models' parameter counts, or are the notebooks' logged
figures (unslothai/notebooks at bdda2efc)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks import defaults_for
from engine.memory.states import quantized_bytes_per_param, whole_model_params
from engine.posttraining import bnb_decode as bd
from engine.posttraining.adapter_sync import serves_adapters
from engine.posttraining.bnb_decode import dequant_extra_bytes_per_value
from engine.posttraining.engine_adapters import adapter_decode_fixed_seconds
from engine.posttraining.estimate import generation_tp, step_parts
from engine.scenario import resolve_model
from engine.serving.kernel_fixed_time import GEMM_FIXED_SECONDS, SMALL_KERNEL_FIXED_SECONDS, decode_fixed_seconds
from engine.timing.bnb_4bit import bnb_figures
from engine.workloads import step_time

GIB = 2**30


def _row(row_id: str):
    row = next(r for r in ptt.read_rows() if r["id"] == row_id)
    return scenario_from_dict(row["scenario"])


def test_the_bytes_per_value_are_one_dequantisation_and_the_gemms_16_bit_read() -> None:
    # presets/bnb_4bit.json (bitsandbytes functional.py dequantize_4bit): the packed 4 bits, the fp32 absmax of each
    # 64-value block (4 bytes) and, double-quantised, its rebuild from the uint8 copy (13 bytes a block), the 16-bit
    # value written; then F.linear reads the 16-bit copy; the packed bytes (QLoRA paper's storage) are already read
    f = bnb_figures()["dequant"]
    for double_quant in (True, False):
        per_block = f["absmax_bytes_per_block"] + (f["nested_bytes_per_block"] if double_quant else 0)
        expected = 0.5 + 2 + per_block / f["blocksize"] + 2 - quantized_bytes_per_param(4, double_quant)
        assert dequant_extra_bytes_per_value(double_quant, 2) == pytest.approx(expected)
    assert 4.0 < dequant_extra_bytes_per_value(True, 2) < 4.5  # ~9x the packed 0.52 bytes a decode reads otherwise


def test_the_llama_8b_qlora_engine_dequantises_every_linear_above_one_sequence() -> None:
    s = _row("unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    spec = resolve_model(s)
    quantized = whole_model_params(s, spec).quantized  # the 32 layers' linears (embeddings and head stay 16-bit)
    assert quantized == pytest.approx(32 * (4096 * (4096 + 2 * 1024 + 4096) + 3 * 4096 * 14336))
    extra = bd.bnb_decode_extra_bytes(s, spec, "vllm", 1, 6, 2)
    assert extra == pytest.approx(quantized * dequant_extra_bytes_per_value(True, 2))
    # one sequence takes gemv_4bit (the packed read only); no 4-bit base or another engine: nothing
    assert bd.bnb_decode_extra_bytes(s, spec, "vllm", 1, 1, 2) == 0.0
    assert bd.bnb_decode_extra_bytes(s, spec, "sglang", 1, 6, 2) == 0.0
    assert bd.bnb_decode_extra_bytes(s.with_unchecked(method="lora"), spec, "vllm", 1, 6, 2) == 0.0
    # kernels: 7 shards a layer (q, k, v, o, gate, up, down), 4 small kernels each (two absmax, the dequantisation,
    # the slice copy), 3 shard GEMMs beyond a layer's 4
    assert bd.bnb_decode_fixed_seconds(s, spec, "vllm", 6) == pytest.approx(
        32 * (7 * 4 * SMALL_KERNEL_FIXED_SECONDS + 3 * GEMM_FIXED_SECONDS))
    detail = dict(step_time(s).generation)
    assert detail["concurrent_sequences"] == 6
    # the T4's decode is memory-bound: the dequantised copies alone take most of the iteration
    assert detail["decode_step_seconds"] > extra / 320e9 * 0.95


def test_the_engine_holds_the_packed_base_and_its_16_bit_rest_as_logged() -> None:
    # Llama3.1_(8B)-GRPO.ipynb logs 'Loading model weights took 5.5976 GB' (vLLM 0.7.3 prints bytes / 2**30, before
    # it builds the LoRA stacks, model_runner.py 1111-1144); Unsloth's checkpoint keeps model.layers.1.mlp in 16 bits
    # (llm_int8_skip_modules), which no key states: 3 x 4096 x 14336 x (2 - the packed bytes) more
    s = _row("unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    p = step_parts(s)
    lora = p.engine.weight_bytes - (whole_model_params(s, p.spec).frozen * 2 + whole_model_params(
        s, p.spec).quantized * quantized_bytes_per_param(4, True))
    assert lora > 0  # the engine's LoRA stacks (Unsloth serves the adapters: max_loras 1, max_lora_rank 32)
    skipped_mlp = 3 * 4096 * 14336 * (2 - quantized_bytes_per_param(4, True))
    assert (p.engine.weight_bytes - lora + skipped_mlp) / GIB == pytest.approx(5.5976, rel=0.02)
    # Phi_4_(14B)-GRPO.ipynb: 'the rest of the memory reserved for KV Cache is 1.24GiB', 'Maximum concurrency for
    # 512 tokens per request: 12.69x': with the trainer's packed base shared (Params4bit(data=vLLM's weight)), the
    # engine starts (it had been refused: the trainer's copy counted twice) and holds the logged pool
    phi = step_parts(_row("unsloth-nb-grpo-phi-4-qlora-t4")).engine
    assert phi.refusal is None
    assert phi.kv_pool_bytes / GIB == pytest.approx(1.24, abs=0.03)
    assert phi.max_concurrent_sequences == 12


def test_unsloths_engine_serves_the_adapters_through_punica() -> None:
    # unsloth/models/rl.py lines 646-650: generate(..., lora_request=self.model.load_lora(..., load_tensors=True));
    # unsloth_zoo load_vllm: enable_lora True, max_loras 1; the notebooks log 'Using PunicaWrapperGPU'
    assert defaults_for("unsloth").posttraining.rollout_serves_adapters
    s = _row("unsloth-nb-grpo-qwen3-4b-t4")
    spec = resolve_model(s)
    assert serves_adapters(s)
    # CUDA graphs: only the LoRA kernels' GPU time (36 layers x (4 fills + 7 slices x 2 Triton kernels))
    assert adapter_decode_fixed_seconds(s, spec, "vllm") == pytest.approx(36 * 18 * SMALL_KERNEL_FIXED_SECONDS)
    detail = dict(step_time(s).generation)
    assert detail["adapter_host_seconds_per_step"] == 0.0
    assert detail["kernel_fixed_seconds_per_step"] > adapter_decode_fixed_seconds(s, spec, "vllm")


def test_the_latest_engines_bitsandbytes_is_not_priced() -> None:
    # bitsandbytes 0.50.2 (the release a 'latest' engine would load) takes its fused 4-bit GEMM below
    # per-architecture batch limits (backends/cuda/ops.py _gemm_4bit_use_custom_cuda), at no sourced rate
    s = _row("unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    spec = resolve_model(s)
    assert s.rollout_engine_release in bd.BNB_DEQUANT_RELEASES
    latest = s.with_unchecked(rollout_engine_release="latest")
    assert bd.bnb_decode_extra_bytes(latest, spec, "vllm", 1, 6, 2) == 0.0
    assert bd.bnb_decode_fixed_seconds(latest, spec, "vllm", 6) == 0.0


def test_unsloths_grpo_scores_no_old_policy_pass() -> None:
    # unsloth 2025.3.8 / 2025.5.7 rl_replacements.py: _get_per_token_logps returns None, and compute_loss's
    # grpo_accumulated_loss runs the adapter-off reference and the policy's own forward: scoring is the reference's
    # forward alone (scoring_time.py adapter_off_forward_seconds over the same micro-batches)
    from engine.posttraining.estimate import training_scenario
    from engine.posttraining.scoring_time import adapter_off_forward_seconds
    from engine.posttraining.settings import rl_settings

    assert not defaults_for("unsloth").posttraining.old_policy_pass and defaults_for("verl").posttraining.old_policy_pass
    s = _row("unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    train = training_scenario(s, rl_settings(s, 2))
    assert step_time(s).phase_seconds["scoring"] == pytest.approx(adapter_off_forward_seconds(train))


def test_the_generation_detail_names_the_bitsandbytes_kernels_fixed_time() -> None:
    # review h-revd: the decode step adds bnb_decode_fixed_seconds on the GPU's side (timing.py _generation), so the
    # detail's kernel_fixed_seconds_per_step is the step's whole fixed GPU time: the layers' kernels
    # (kernel_fixed_time.py), the served adapters' punica kernels (engine_adapters.py) and bitsandbytes' (bnb_decode.py)
    s = _row("unsloth-nb-grpo-llama-3.1-8b-qlora-t4")
    spec = resolve_model(s)
    rs = step_parts(s).rs
    detail = dict(step_time(s).generation)
    running = detail["concurrent_sequences"]
    bnb_fixed = bd.bnb_decode_fixed_seconds(s, spec, rs.rollout_engine, running)
    assert bnb_fixed > 0.0 and generation_tp(s, rs) == 1
    assert detail["kernel_fixed_seconds_per_step"] == pytest.approx(
        decode_fixed_seconds(rs.rollout_engine, spec) + adapter_decode_fixed_seconds(s, spec, rs.rollout_engine)
        + bnb_fixed)
