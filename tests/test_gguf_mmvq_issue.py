"""llama.cpp's January-2024 mmvq loop (SASS compiled from the build's ggml-cuda.cu, tests/data/published/
llamacpp_mmvq_sass.json) against the measured llama-bench rows: engine/accuracy/gguf_mmvq_issue.py, a diagnostic."""

import pytest

from engine.accuracy.gguf_mmvq_issue import (
    mmvq_issue_bound,
    mmvq_sass,
    warp_instructions_per_weight,
    warp_loop_bytes,
    weights_per_thread_per_loop,
)
from engine.accuracy.serving_speed import read_rows

# Llama 2 7B's GPU-held matrices (llama.cpp keeps token_embd in CPU memory): 32 layers x (4 x 4096^2 attention +
# 3 x 4096 x 11008 MLP) + the 32000 x 4096 output layer (meta-llama/Llama-2-7b-hf config.json).
LLAMA2_7B_GPU_WEIGHTS = 32 * (4 * 4096**2 + 3 * 4096 * 11008) + 32000 * 4096


def _row(row_id):
    return next(r for r in read_rows() if r["id"] == row_id)


def test_loop_counts_add_up_to_the_loop():
    """Each type's opcode classes (loads, float, integer, branch/uniform) sum to the loop's SASS instructions."""
    for name, t in mmvq_sass()["types"].items():
        parts = t["loads"] + t["float"] + t["integer"] + t["branch_and_uniform"]
        assert parts == t["loop_instructions"], name
        assert t["dp4a"] <= t["integer"]


def test_weights_and_bytes_a_loop_iteration_follow_the_launch_shape():
    """mul_mat_vec_q: a thread's vec_dot call takes vdr ints of a block's qi (vdr x qk / qi weights), a warp
    blocks_per_warp = vdr x 32 / qi blocks a call; the loops are unrolled over calls_per_loop calls (the dp4a count
    in the loop over a call's: Q4_0 8 / 4, Q8_0 8 / 2, Q2_K 8 / 8, Q3_K 4 / 4)."""
    types = mmvq_sass()["types"]
    assert weights_per_thread_per_loop(types["Q4_0"]) == 2 * 2 * 32 / 4 == 32
    assert weights_per_thread_per_loop(types["Q2_K"]) == 256 / 16 == 16
    assert warp_loop_bytes(types["Q4_0"]) == 2 * 16 * 18  # two calls of 16 blocks of 18 bytes
    assert warp_loop_bytes(types["Q2_K"]) == 2 * 84  # two 84-byte blocks
    assert warp_instructions_per_weight(types["Q2_K"]) == pytest.approx(94 / (32 * 16))
    assert warp_instructions_per_weight(types["Q3_K"]) == pytest.approx(151 / (32 * 16))


def test_q2_k_row_issue_time_recomputed():
    """The RTX 3090 Q2_K row: Llama 2 7B's GPU weights x 94 / 512 warp instructions a weight over 82 SMs x 4
    schedulers x 1,695 MHz (GA102 whitepaper) = 2.18 ms, against 1 / 92.69 t/s = 10.79 ms measured."""
    b = mmvq_issue_bound(_row("llamacpp-4766-rtx3090-7b-q2_k-tg128"))
    assert b.gpu_weights == LLAMA2_7B_GPU_WEIGHTS
    expected = LLAMA2_7B_GPU_WEIGHTS * 94 / 512 / (82 * 4 * 1.695e9)
    assert b.issue_seconds == pytest.approx(expected)
    assert b.issue_seconds == pytest.approx(2.18e-3, abs=0.01e-3)
    assert b.measured_seconds == pytest.approx(1 / 92.69)
    # Little's law: 82 SMs x 16 resident 1-warp blocks x 168 bytes a loop iteration in flight
    assert b.in_flight_bytes == 82 * 16 * 168


def test_no_row_is_bound_by_issuing_the_loop():
    """The finding: at the SMs' issue rate (and at the integer datapath's half rate) every January-2024 quantized
    row's loop takes under half its measured step (Q3_K, the heaviest loop, 3.50 / 5.29 ms of 11.46), so the
    roofline's miss on these rows (Q2_K +240%, Q3_K_S +212%) is not the kernel's instructions."""
    bounds = [mmvq_issue_bound(r) for r in read_rows()]
    bounds = [b for b in bounds if b is not None]
    assert sorted(b.ggml_type for b in bounds) == ["Q2_K", "Q3_K", "Q4_0", "Q8_0"]
    for b in bounds:
        assert b.issue_seconds < 0.5 * b.measured_seconds, b.id
        assert b.integer_seconds < 0.5 * b.measured_seconds, b.id
    q3 = next(b for b in bounds if b.ggml_type == "Q3_K")
    assert q3.issue_seconds > q3.peak_memory_seconds  # the one loop slower to issue than its bytes at peak


def test_only_the_compiled_build_rows_get_a_bound():
    """F16 rows ran dequantize_mul_mat_vec, the 3090 Ti row a May-2024 build, vLLM / SGLang / Metal rows no mmvq."""
    listed = set(mmvq_sass()["rows"])
    for row in read_rows():
        assert (mmvq_issue_bound(row) is not None) == (row["id"] in listed), row["id"]
