"""NVFP4 training (precision nvfp4, engine/timing/nvfp4.py): each figure against the source it comes from."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import compare, load_rows
from engine.configs import export_config
from engine.frameworks.megatron_layer import megatron_layer_terms
from engine.memory.detailed import act_context
from engine.memory.states import dtypes_for
from engine.models.presets import get_gpu
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.data import efficiency
from engine.timing.hardware import hardware_for
from engine.timing.layer_settings import current_scaling, fp8_casts
from engine.timing.mfu import mfu_format
from engine.timing.nvfp4 import nvfp4_linear_rate

MEGATRON = {"model": "llama-3-70b", "framework": "megatron", "gpu": "gb300", "gpus_per_node": 4, "nodes": 16,
            "micro_batch": 1, "seq_len": 8192, "attention": "flash", "tp": 1, "pp": 4, "vpp": 5,
            "pp_schedule": "interleaved-1f1b", "grad_accum": 16, "zero_stage": 1}


def test_quantize_kernels_move_the_bytes_transformer_engine_v2_14_reads_and_writes():
    """NVFP4Quantizer::quantize_impl (pytorch/csrc/quantizer.cpp at v2.14): nvte_hadamard_transform_amax reads the bf16
    tensor (2 bytes), nvte_quantize_with_hadamard_transform reads it again (2) and writes a row-wise and a column-wise
    copy of 4-bit values (0.5 each) with one E4M3 scale per 16 (1/16 each); the weights' scales are swizzled at every
    GEMM (extensions/swizzle.cpp: NVTE_NVFP4_1D_SCALING), one byte per 16 read and written."""
    cast = efficiency()["fp8_cast_bytes"]["te-nvfp4"]
    assert cast["forward_input"] == cast["backward_grad_output"] == 2 + 2 + 2 * (0.5 + 1 / 16)
    assert cast["backward_input"] == 0  # the saved input is the column-wise copy already written
    assert cast["weight_forward"] == cast["weight_backward"] == 2 / 16
    # the SP input's and output gradient's amaxes are all-reduced over the TP group (module/linear.py lines 1641-1661)
    assert current_scaling("te-nvfp4")


def test_nvfp4_gemm_share_of_the_fp4_peak_is_as_measured():
    """B300: Transformer Engine's gemm_profiling.rst (d0067d0), pre-quantized kernels of one 5B layer, FP8
    CurrentScaling 6.812 ms against NVFP4 3.764 ms at a 3x FP4 / FP8 peak ratio, times B300's FP8 MAMF share 0.745.
    B200: cuBLASLt FP4 at 8192^3, 5,239 TFLOPS of 9,000 (deepseek-ai/DeepGEMM pull request #348)."""
    table = efficiency()["fp4_matmul_fraction_of_peak"]
    fp8 = efficiency()["fp8_matmul_fraction_of_peak"]
    assert table["b300"] == table["gb300"] == pytest.approx(fp8["b300"] * (6.812 / 3.764) / (13500 / 4500), abs=0.001)
    assert table["b200"] == table["gb200"] == pytest.approx(5239 / 9000, abs=0.001)


def test_linears_run_at_the_fp4_rate_and_mfu_is_against_the_fp4_peak():
    s = scenario_from_dict({**MEGATRON, "precision": "nvfp4"})
    hw = hardware_for(s)
    # GB300 NVL72 datasheet: FP4 15 PFLOPS dense per GPU; the fp8 matmuls' sustained share (GB300 keeps 1.0)
    assert nvfp4_linear_rate(hw) == pytest.approx(15000e12 * 0.449 * hw.fp8_sustained_fraction)
    assert fp8_casts(s, {}) == "te-nvfp4" and mfu_format(s) == "fp4"
    t = step_time(s)
    assert t.mfu_bf16_peak == pytest.approx(t.mfu * 15000 / 2500)  # the bf16-referenced figure kept beside it


def test_nvfp4_needs_nvidia_fp4_tensor_cores():
    """Transformer Engine's check_nvfp4_support: compute capability 10.0 and up (quantization.py at v2.14)."""
    assert all(get_gpu(g).nvfp4 for g in ("b200", "gb200", "b300", "gb300", "rtx-5090"))
    assert not any(get_gpu(g).nvfp4 for g in ("h100-sxm-80gb", "a100-80gb", "mi355x"))  # MI355X: MXFP4, not NVFP4
    words = [str(w) for w in estimate(scenario_from_dict({**MEGATRON, "precision": "nvfp4", "gpu": "h100-sxm-80gb",
                                                          "gpus_per_node": 8, "nodes": 8})).warnings]
    assert any("NVFP4 tensor cores" in w for w in words)
    assert not any("NVFP4 tensor cores" in w for w in
                   (str(w) for w in estimate(scenario_from_dict({**MEGATRON, "precision": "nvfp4"})).warnings))


def test_te_linears_keep_the_column_wise_nvfp4_copy():
    """A TE linear keeps for its weight-gradient GEMM the column-wise copy: 4-bit values and one E4M3 scale per 16
    (NVFP4TensorStorage), where fp8 keeps one byte; the optimizer states are fp8's (bf16_with_nvfp4_mixed)."""
    def terms(precision: str) -> dict[str, float]:
        s = scenario_from_dict({**MEGATRON, "precision": precision})
        ctx = act_context(s, resolve_model(s), dtypes_for(s))
        return dict(megatron_layer_terms(ctx, resolve_model(s), False, ctx.recompute))

    fp8, fp4 = terms("fp8"), terms("nvfp4")
    key = "MLP: SwiGLU output kept by linear_fc2"
    assert fp4[key] == pytest.approx(fp8[key] * (0.5 + 1 / 16))
    assert dtypes_for(scenario_from_dict({**MEGATRON, "precision": "nvfp4"})).weight == 2


def test_published_nvfp4_runs_are_faster_than_their_mxfp8_twins_as_measured():
    """Megatron-Bridge's archived tables (067f987d): every NVFP4 run of Llama 3 70B / 3.1 405B on GB200 and GB300 is
    faster than the MXFP8 run of its release, model and system, and the prediction orders each pair the same way."""
    rows = {r["id"]: r for r in load_rows()}
    pairs = [(i, i.replace("nvfp4", "mxfp8")) for i in rows if "nvfp4" in i and i.replace("nvfp4", "mxfp8") in rows]
    assert len(pairs) == 14
    compared = {c.id: c for c in compare([rows[i] for p in pairs for i in p])}
    for nv, mx in pairs:
        assert compared[nv].measured > compared[mx].measured
        assert compared[nv].predicted > compared[mx].predicted


def test_megatron_export_writes_the_fp4_format():
    """Megatron's --fp4-format e2m1 (dest fp4; --fp4-recipe defaults to nvfp4) on --bf16."""
    text = export_config(scenario_from_dict({**MEGATRON, "precision": "nvfp4"}), "megatron")
    assert "--fp4-format e2m1" in text and "--bf16" in text and "--fp8-format" not in text


def test_an_nvfp4_plan_is_held_to_the_published_nvfp4_runs():
    """Issue 23 item 5: the best published run on the GPU in its format bounds a plan, even where one source published
    it (engine/timing/ceiling.py POOLED_SOURCES); the NVFP4 runs are Megatron-Bridge's alone, so leaving that source out
    (cross-validation) leaves no FP4 ceiling. GB300's best: Llama 3.1 405B in 26.04, 3,594 model TFLOPS per GPU of the
    15,000 dense FP4 (the table's own MFU numerator differs a little from the model's)."""
    from engine.timing.ceiling import leave_out, mfu_ceiling

    ceiling = mfu_ceiling("gb300", "blackwell", "fp4")
    assert ceiling is not None and ceiling.source == "NVIDIA-NeMo/Megatron-Bridge"
    assert ceiling.row == "megatron-bridge-26.04-llama3.1_405b-dgx-gb300-nvfp4-256"
    assert ceiling.measured == pytest.approx(3594 / 15000, rel=0.05)
    with leave_out("NVIDIA-NeMo/Megatron-Bridge"):
        assert mfu_ceiling("gb300", "blackwell", "fp4") is None
