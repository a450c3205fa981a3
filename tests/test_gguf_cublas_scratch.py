"""llama.cpp builds that run a prompt batch's quantized weights through dequantize-to-F16 + cuBLAS keep the F16 scratch
in the CUDA memory pool: ggml_cuda_op_mul_mat_cublas takes src0_as_f16 (the whole matrix), src1_as_f16 and dst_f16
from ctx.pool() together (ggerganov/llama.cpp@557410b8f~1 ggml-cuda.cu lines 1236-1271) and the VMM pool never
gives physical memory back (lines 261-353), so the largest triple stays. Before PR #6122 (557410b8f) the output layer
ran over every token of a ubatch. Expected bytes from Llama 3 8B's config (meta-llama/Meta-Llama-3-8B config.json:
hidden 4,096, intermediate 14,336, vocab 128,256) at n_ubatch 512; Q4_K_M keeps output.weight in Q6_K (quantized)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.serving.scenario_estimate import serving_memory
from engine.serving.users_curve import users_at

UB = 512
OUTPUT = 2 * (128_256 * 4_096 + UB * 4_096 + UB * 128_256)  # 1.05 GB matrix + 4 MB input + 131 MB output
FFN = 2 * (14_336 * 4_096 + UB * 4_096 + UB * 14_336)  # gate / up / down: 117 MB + 4 MB + 15 MB


def _s(**kw):
    return scenario_from_dict({"workload": "inference", "model": "llama-3-8b", "gpu": "rtx-4090",
                               "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_ctx": 8192, **kw})


def _scratch(s) -> float:
    return sum(c.moments[-1] for c in serving_memory(s).components if c.key == "dequant_buffer")


def test_dequantize_cublas_builds_keep_the_output_layers_f16_copy():
    assert _scratch(_s(gguf_batch_matmul="dequantize_cublas")) == OUTPUT
    assert _scratch(_s(gguf_batch_matmul="dequantize_cublas", n_gpu_layers=32)) == FFN  # output layer on the CPU


def test_todays_builds_on_volta_keep_the_largest_decoder_matrix():
    # ggml_cuda_should_use_mmq: no int8 MMA on Volta, ubatches of 64 tokens and more run the cuBLAS path; since
    # PR #6122 the prompt's output layer is a mat-vec of its last row
    assert _scratch(_s(gpu="v100-32gb")) == FFN
    assert _scratch(_s(gpu="v100-32gb", n_ubatch=63)) == 0.0


def test_no_scratch_where_every_batch_runs_mmq_or_the_weights_are_f16():
    assert _scratch(_s()) == 0.0  # today's build on an RTX 4090 (Ada: int8 MMA)
    assert _scratch(_s(gguf_batch_matmul="dequantize_cublas", n_ubatch=32)) == 0.0  # MMQ up to 32 tokens
    assert _scratch(_s(gguf_batch_matmul="dequantize_cublas", weight_format="F16")) == 0.0


def test_the_scratch_counts_in_the_total_and_the_users_chart():
    old, new = _s(gguf_batch_matmul="dequantize_cublas"), _s()
    assert serving_memory(old).total_bytes - serving_memory(new).total_bytes == OUTPUT
    assert users_at(old, 1024) < users_at(new, 1024)
