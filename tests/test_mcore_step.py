"""Megatron-Core's optimizer step passes (presets/efficiency.json frameworks megatron step_bytes_per_param,
step_grad_buffer_passes, step_main_grad_cast, step_fp16_unscale_bytes_per_param), counted from NVIDIA/Megatron-LM at
core_v0.13.0 (c550cf6c): per parameter the rank steps, clip_grads.py lines 108-113 multi_tensor_l2norm over the fp32
main gradients (4) and distrib_optimizer.py line 2071 the main-to-model copy (4 + 2), beside FusedAdam's 7 fp32
passes (optimizer_bytes_per_param adamw-fused); over the rank's whole gradient buffer, training.py line 1371
zero_grad_buffer (param_and_grad_buffer.py line 819 grad_data.zero_()) and check_grads' grad_data.norm(p=2) (lines
167-174, check_for_nan_in_grad); line 2015's shard_model_grad.float(), a copy only of a 16-bit buffer; fp16's
unscale (optimizer.py lines 444-469: 4 + 4)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for

FUSED_ADAM_BYTES = 7 * 4  # fp32 weight, gradient, m, v read; weight, m, v written (optimizer_bytes_per_param)


def _scenario(**over):
    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "framework": "megatron",
            "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "tp": 1, "pp": 1,
            "zero_stage": 1, "main_grads_fp32": True}
    return scenario_from_dict({**base, **over})


def _optimizer_bytes(s) -> float:
    """The step's optimizer term as bytes at the GPU's memory rate (the rate offload.py divides by)."""
    return step_time(s).breakdown_seconds["optimizer"] * hardware_for(s).memory_bytes_per_s


def test_the_profile_counts_the_code():
    prof = framework_profile("megatron")
    assert prof["step_bytes_per_param"] == 4 + (4 + 2)  # l2norm; the fp32 -> bf16 copy
    assert prof["step_grad_buffer_passes"] == 2  # zero_ (a write) and the norm check (a read)
    assert prof["step_main_grad_cast"] is True
    assert prof["step_fp16_unscale_bytes_per_param"] == 4 + 4
    assert "c550cf6c" in prof["_step_bytes_per_param_source"]


def test_the_buffer_passes_run_over_every_parameter_the_rank_holds_not_its_shard():
    """Under the distributed optimizer doubling the data-parallel size halves the shard each rank steps (Adam and
    the per-parameter passes: 28 + 10 bytes) but not its gradient buffer (2 x 4 bytes, fp32), which every rank
    holds whole."""
    small, large = _scenario(nodes=1), _scenario(nodes=2)
    n = resolve_model(small).total_params
    assert _optimizer_bytes(small) == pytest.approx(n / 8 * (FUSED_ADAM_BYTES + 10) + n * 2 * 4, rel=1e-3)
    assert _optimizer_bytes(large) == pytest.approx(n / 16 * (FUSED_ADAM_BYTES + 10) + n * 2 * 4, rel=1e-3)


def test_a_16_bit_buffer_is_cast_and_passed_over_at_its_own_width():
    """grad_reduce_in_fp32 false (main_grads_fp32 false): the buffer's two passes move 2 bytes a parameter instead
    of 4, and each stepped parameter's gradient is copied into fp32 (2 + 4)."""
    wide, narrow = _scenario(), _scenario(main_grads_fp32=False)
    n = resolve_model(wide).total_params
    assert _optimizer_bytes(narrow) - _optimizer_bytes(wide) == pytest.approx(n / 16 * (2 + 4) - n * 2 * (4 - 2),
                                                                              rel=1e-3)


def test_fp16_unscales_the_stepped_gradients():
    bf16, fp16 = _scenario(), _scenario(precision="mixed-fp16")
    n = resolve_model(bf16).total_params
    assert _optimizer_bytes(fp16) - _optimizer_bytes(bf16) == pytest.approx(n / 16 * (4 + 4), rel=1e-3)


def test_a_row_that_borrows_the_profile_runs_the_generic_passes_not_megatron_cores():
    """meta-llama3 takes Megatron-LM's profile as a stand-in for Meta's own stack (arXiv:2407.21783 section 3.3; its
    row's profile_step_passes false, engine/frameworks/meta_llama3.py), whose code is not Megatron-Core's
    distributed optimizer: no grad buffer zero_ / norm check over every held parameter, no main-to-model copy; it
    reads each stepped parameter's gradient clip_passes times (optimizer_bytes_per_param) as the frameworks of
    no counted step do (h-review21b finding b)."""
    from engine.memory.states import dtypes_for
    from engine.timing.data import efficiency

    mcore, meta = _scenario(), _scenario(framework="meta-llama3")
    n = resolve_model(mcore).total_params
    clip = efficiency()["optimizer_bytes_per_param"]["clip_passes"] * dtypes_for(meta).grad  # offload.py's generic
    assert _optimizer_bytes(meta) == pytest.approx(n / 16 * (FUSED_ADAM_BYTES + clip), rel=1e-3)
    assert _optimizer_bytes(mcore) - _optimizer_bytes(meta) == pytest.approx(n / 16 * (10 - clip) + n * 2 * 4,
                                                                             rel=1e-3)


def test_apex_distributed_fused_adam_passes_once_over_the_buffer_and_norms_its_shard():
    """NeMo 1.0's optim distributed_fused_adam (scenario optimizer_step apex-distributed-fused-adam; presets/
    efficiency.json optimizer_steps, read at NVIDIA/apex b496d85f distributed_fused_adam.py): zero_grad's
    grad_buffer.zero_() over every held parameter's fp32 gradient (line 1472: 1 x 4 bytes), the l2norm over the
    rank's shard only (line 2124: 4 bytes a stepped parameter), the fused step writing the bf16 weights itself (no
    main-to-model copy), no norm check over the whole buffer: against Megatron-Core's 10 + 2 x 4."""
    s = _scenario(optimizer_step="apex-distributed-fused-adam")
    n = resolve_model(s).total_params
    assert _optimizer_bytes(s) == pytest.approx(n / 16 * (FUSED_ADAM_BYTES + 4) + n * 1 * 4, rel=1e-3)
