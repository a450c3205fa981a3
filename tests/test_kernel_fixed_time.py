"""Each decode kernel's fixed GPU time (engine/serving/kernel_fixed_time.py): the figures recomputed from the measured
H100 kernel tables it cites (sgl-project/sglang llm-torch-profiler-analysis validated outputs, vLLM with CUDA graphs,
batch 1), the kernels counted per layer, and where the term enters the serving and rollout decode step."""

from __future__ import annotations

import statistics

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving import kernel_fixed_time as kft
from engine.serving.cublas_scratch import gguf_weights_quantized
from engine.serving.host_iteration import VLLM_LAUNCHES_PER_LAYER
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.timing.hardware import hardware_for

H100 = {"gpu": "h100-sxm-80gb", "workload": "inference", "max_model_len": 4096}


def _spec(model: str):
    return resolve_model(scenario_from_dict({**H100, "model": model}))


def test_gemm_fixed_time_is_the_median_of_the_measured_gemms_less_their_bytes() -> None:
    """GPU time / launches of each weight GEMM in the two tables, less its weight bytes (the model presets' shapes,
    bf16) at the H100 preset's achieved bandwidth: the module's stated remainders, and their median."""
    bandwidth = hardware_for(scenario_from_dict({**H100, "model": "qwen3-14b"})).memory_bytes_per_s
    q14, q30 = _spec("qwen3-14b"), _spec("qwen3-30b-a3b")

    def qkv(m):
        return m.hidden * (m.heads + 2 * m.kv_heads) * m.head_dim * 2

    experts = q30.top_k * (q30.hidden * 2 * q30.expert_ffn + q30.expert_ffn * q30.hidden) * 2 / 2  # w13 and w2, mean
    measured_us_and_bytes = [
        (53.76e3 / 440, q14.hidden * 2 * q14.ffn * 2),  # Qwen3-14B gate_up (nvjet 384x8, once a layer)
        (35.89e3 / 880, (qkv(q14) + q14.ffn * q14.hidden * 2) / 2),  # qkv and down_proj: one kernel, two launches
        (11.95e3 / 440, q14.heads * q14.head_dim * q14.hidden * 2),  # o_proj (split-K)
        (28.54e3 / 3024, qkv(q30)),  # Qwen3-30B-A3B qkv
        (24.76e3 / 3024, q30.heads * q30.head_dim * q30.hidden * 2),  # o_proj (split-K)
        (14.93e3 / 3024, q30.hidden * q30.n_experts * 2),  # the router
        (108.74e3 / 6144, experts),  # fused_moe, two launches a layer
    ]
    remainders = [us - b / bandwidth * 1e6 for us, b in measured_us_and_bytes]
    assert remainders == pytest.approx(list(kft.GEMM_REMAINDERS_US), abs=0.05)
    assert kft.GEMM_FIXED_SECONDS == pytest.approx(statistics.median(remainders) * 1e-6, abs=0.05e-6)
    assert kft.ATTENTION_FIXED_SECONDS == pytest.approx((30.45e3 / 3024 + 4.26e3 / 440) / 2 * 1e-6, abs=0.01e-6)


def test_kernels_per_layer_are_the_host_count_split_by_kind() -> None:
    """host_iteration.py's 10 kernels of vLLM's decoder layer: 4 weight GEMMs, the attention and 5 small ones;
    Qwen3's q/k RMSNorm 2 more small ones; a MoE layer the router GEMM and 4 routing kernels more."""
    g, a, k = kft.GEMM_FIXED_SECONDS, kft.ATTENTION_FIXED_SECONDS, kft.SMALL_KERNEL_FIXED_SECONDS
    assert VLLM_LAUNCHES_PER_LAYER == 10
    llama, qwen3, q30 = _spec("llama-3.1-8b"), _spec("qwen3-14b"), _spec("qwen3-30b-a3b")
    assert kft.layer_fixed_seconds(llama, False) == pytest.approx(4 * g + a + 5 * k)
    assert kft.layer_fixed_seconds(qwen3, False) == pytest.approx(4 * g + a + 7 * k)
    assert kft.layer_fixed_seconds(q30, True) == pytest.approx(5 * g + a + 11 * k)
    assert kft.decode_fixed_seconds("vllm", q30) == pytest.approx(48 * (5 * g + a + 11 * k))
    assert kft.decode_fixed_seconds("vllm", llama, stages=2) == pytest.approx(16 * (4 * g + a + 5 * k))
    assert kft.decode_fixed_seconds("transformers", llama) == 0.0  # its kernels are not the ones counted


def test_a_pipeline_stage_runs_its_own_layers_split_as_the_weights_and_host_split_them() -> None:
    """Under pp the step's fixed time is the stage with the most: ceil(layers / pp) layers each, first stage first
    (weights.stage_shards, host_iteration.decode_host_seconds), not layers / pp. Llama 3.1 8B's 32 layers on 3
    stages: 11, 11, 10. DeepSeek-V3's 61 layers (first_k_dense_replace 3) on 2 stages: 3 dense + 28 MoE, then 30 MoE;
    the first holds the most fixed time only if 3 dense + 28 MoE layers exceed 30 MoE ones, else the second."""
    llama, v3 = _spec("llama-3.1-8b"), _spec("deepseek-v3")
    dense = kft.layer_fixed_seconds(llama, False)
    assert kft.decode_fixed_seconds("vllm", llama, stages=3) == pytest.approx(11 * dense)
    v3_dense, v3_moe = kft.layer_fixed_seconds(v3, False), kft.layer_fixed_seconds(v3, True)
    assert v3.layers == 61 and v3.moe_layers == 58
    assert kft.decode_fixed_seconds("vllm", v3, stages=2) == pytest.approx(max(3 * v3_dense + 28 * v3_moe,
                                                                               30 * v3_moe))


def test_the_serving_step_adds_the_fixed_time_to_the_gpu_roofline() -> None:
    """TPOT = max(memory or compute + fixed + all-reduces, host) + vLLM V1's engine loop (engine_step_host.py): the
    term is shown, and llama.cpp has none."""
    s = scenario_from_dict({**H100, "model": "llama-3.1-8b", "serving_engine": "vllm"})
    speed = serving_speed(s, serving_memory(s), concurrency=8, context=1024)
    terms = {t.key: t.seconds for t in speed.decode_terms}
    assert terms["decode_kernel_fixed"] == pytest.approx(32 * kft.layer_fixed_seconds(resolve_model(s), False))
    gpu = max(terms["decode_compute"], terms["decode_memory"]) + terms["decode_kernel_fixed"] + terms[
        "decode_allreduce"]
    assert speed.tpot_seconds == pytest.approx(max(gpu, terms["decode_host"]) + terms["decode_engine_step"])
    # llama.cpp: its own graph's kernels (gguf_decode_fixed_seconds), F16 weights without the q8_1 quantizations
    gguf = scenario_from_dict({**H100, "model": "llama-3.1-8b", "serving_engine": "llama.cpp", "weight_format": "F16"})
    fixed = {t.key: t.seconds for t in serving_speed(gguf, serving_memory(gguf)).decode_terms}["decode_kernel_fixed"]
    assert fixed == pytest.approx(kft.gguf_decode_fixed_seconds(resolve_model(gguf), False))


def test_an_unused_measured_decode_step_is_matched_with_the_fixed_times() -> None:
    """Out of sample (no figure of this table went into the fixed times): SGLang's Qwen3-8B decode on one H100 SXM at
    batch 1 with CUDA graphs, the same skill's triage bundle (run 20260422_h100_qwen3_matrix_v2): its gate_up GEMM,
    12.31 ms over 5 steps, is 39.2% of the decode kernels' GPU time, so 6.28 ms of kernels a step. The estimate, 6.67 ms,
    is within 7% (0.42 ms of it is the untied input embedding table, which the roofline reads whole where a decode step
    reads one row a token); without the fixed times it is 5.52 ms, 12% short."""
    s = scenario_from_dict({**H100, "model": "qwen3-8b", "serving_engine": "sglang"})
    measured = 12.31e-3 / 0.392 / 5
    speed = serving_speed(s, serving_memory(s), concurrency=1, context=64)
    fixed = {t.key: t.seconds for t in speed.decode_terms}["decode_kernel_fixed"]
    assert abs(speed.tpot_seconds / measured - 1) < 0.07
    assert (speed.tpot_seconds - fixed) / measured - 1 < -0.10


def test_the_rollout_decode_iteration_takes_the_same_term() -> None:
    """Post-training generation (engine/posttraining/timing.py) adds the rollout engine's kernels' fixed time to the
    GPU side of each decode iteration: the GRPO example's vLLM engine, all of Qwen2.5-1.5B's layers on each GPU."""
    import json
    from pathlib import Path

    from engine.workloads import step_time

    data = json.loads(Path("examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text(encoding="utf-8"))
    s = scenario_from_dict(data)
    generation = dict(step_time(s).generation)
    spec = resolve_model(s)
    assert generation["kernel_fixed_seconds_per_step"] == pytest.approx(kft.decode_fixed_seconds("vllm", spec))
    assert generation["kernel_fixed_seconds_per_step"] == pytest.approx(
        spec.layers * kft.layer_fixed_seconds(spec, False))


def test_an_mla_layer_launches_its_query_path_latent_norm_and_absorbed_products() -> None:
    """SGLang 0.5.7's absorbed MLA decode (deepseek_v2.py forward_absorb_prepare / forward_absorb_core): beyond the
    counted layer, q_a_layernorm and q_b_proj where the model has a low-rank query (DeepSeek-V3/R1: q_lora_rank 1,536),
    kv_a_layernorm, and the two bf16 bmm with W_UK and W_UV; DeepSeek-V2-Lite has a plain q_proj (q_lora_rank 0)."""
    g, a, k = kft.GEMM_FIXED_SECONDS, kft.ATTENTION_FIXED_SECONDS, kft.SMALL_KERNEL_FIXED_SECONDS
    v3, lite, llama = _spec("deepseek-v3"), _spec("deepseek-v2-lite"), _spec("llama-3.1-8b")
    assert kft.mla_layer_kernels(v3) == (3, 2)
    assert kft.mla_layer_kernels(lite) == (2, 1)
    assert kft.mla_layer_kernels(llama) == (0, 0)
    # 4 weight GEMMs + 3 MLA + the router; 5 small + 2 MLA norms + 4 routing
    assert kft.layer_fixed_seconds(v3, True) == pytest.approx(8 * g + a + 11 * k)
    assert kft.layer_fixed_seconds(lite, False) == pytest.approx(6 * g + a + 6 * k)


def test_fp8_w8a8_quantizes_each_weight_gemms_input_in_a_kernel() -> None:
    """Each fp8 GEMM quantizes its bf16 input first (SGLang fp8_utils.py / fused_moe's invoke_fused_moe_kernel, vLLM's
    W8A8BlockFp8LinearOp): one small kernel per weight GEMM, not the router nor MLA's bf16 bmm. A DeepSeek-R1 MoE
    layer: fused_qkv_a, q_b_proj, o_proj, fused_moe's w13 and w2 = 5; a dense Llama layer: qkv, o, gate_up, down = 4."""
    k = kft.SMALL_KERNEL_FIXED_SECONDS
    v3, llama = _spec("deepseek-v3"), _spec("llama-3.1-8b")
    assert kft.layer_fixed_seconds(v3, True, True) - kft.layer_fixed_seconds(v3, True) == pytest.approx(5 * k)
    assert kft.layer_fixed_seconds(v3, False, True) - kft.layer_fixed_seconds(v3, False) == pytest.approx(5 * k)
    assert kft.layer_fixed_seconds(llama, False, True) - kft.layer_fixed_seconds(llama, False) == pytest.approx(4 * k)


def test_the_sglang_deepseek_r1_row_takes_the_mla_and_fp8_kernels() -> None:
    """The InferenceX #870 rows (DeepSeek-R1 fp8 checkpoint, SGLang 0.5.7, TP 8 on H200): 61 layers, 3 dense and 58
    MoE, each with 3 more GEMMs and 7 more small kernels than before (2 MLA norms, 5 input quantizations):
    61 x (3 x 2.54 + 7 x 1.73) us = 1.20 ms a step more, the same at every concurrency."""
    row = {"model": "deepseek-r1", "gpu": "h200", "workload": "inference", "serving_engine": "sglang",
           "weight_format": "checkpoint", "tp": 8, "gpus_per_node": 8, "max_model_len": 4096}
    s = scenario_from_dict(row)
    spec = resolve_model(s)
    terms = {t.key: t.seconds for t in serving_speed(s, serving_memory(s), concurrency=8, context=1536).decode_terms}
    expected = 3 * kft.layer_fixed_seconds(spec, False, True) + 58 * kft.layer_fixed_seconds(spec, True, True)
    assert terms["decode_kernel_fixed"] == pytest.approx(expected)
    before = 3 * (4 * kft.GEMM_FIXED_SECONDS + kft.ATTENTION_FIXED_SECONDS + 5 * kft.SMALL_KERNEL_FIXED_SECONDS) + 58 * (
        5 * kft.GEMM_FIXED_SECONDS + kft.ATTENTION_FIXED_SECONDS + 9 * kft.SMALL_KERNEL_FIXED_SECONDS)
    assert expected - before == pytest.approx(61 * (3 * kft.GEMM_FIXED_SECONDS + 7 * kft.SMALL_KERNEL_FIXED_SECONDS))
    assert expected - before == pytest.approx(1.20e-3, abs=0.01e-3)


def test_llama_cpp_decode_kernels_are_its_graph_count() -> None:
    """ggml-org/llama.cpp@6efb8eb3's decode graph at one token (kernel_fixed_time.py docstring): a dense layer's 7
    weight mat-vecs at the GEMM t0, its 2 cache mat-vecs and 14 element-wise kernels at the small kernel's t0, and
    for a quantized GGML type one q8_1 input quantization per weight mat-vec (ggml_cuda_op_mul_mat 8639-8643); the
    output norm (2) and mat-vec once a token. Llama 2 7B (32 layers) Q4_0: 32 x (7 x 2.54 + 23 x 1.73) + 2.54 + 3 x
    1.73 us = 1.84 ms; F16: 32 x (7 x 2.54 + 16 x 1.73) + 2.54 + 2 x 1.73 us = 1.46 ms."""
    g, k = kft.GEMM_FIXED_SECONDS, kft.SMALL_KERNEL_FIXED_SECONDS
    llama2 = _spec("llama-2-7b")
    assert gguf_weights_quantized("Q4_0") and gguf_weights_quantized("Q4_K_M")
    assert not gguf_weights_quantized("F16") and not gguf_weights_quantized("bf16")
    assert kft.decode_fixed_seconds("llama.cpp", llama2, gguf_quantized=True) == pytest.approx(
        32 * (7 * g + 23 * k) + g + 3 * k)
    assert kft.decode_fixed_seconds("ollama", llama2) == pytest.approx(32 * (7 * g + 16 * k) + g + 2 * k)
    assert kft.decode_fixed_seconds("llama.cpp", llama2, gguf_quantized=True) == pytest.approx(1.84e-3, abs=0.01e-3)
    # a layer split runs every GPU's layers one after another: all of them, whatever the stages
    assert kft.decode_fixed_seconds("llama.cpp", llama2, stages=2) == kft.decode_fixed_seconds("llama.cpp", llama2)
