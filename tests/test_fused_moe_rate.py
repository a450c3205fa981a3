"""The triton fused_moe's read rate of the routed experts by its tiles' K loops (engine/serving/fused_moe_rate.py)."""

from __future__ import annotations

import pytest

from engine.accuracy import serving_speed as ss
from engine.models.presets import model_spec_for
from engine.posttraining.timing import RL_FORMULAS
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving import speed
from engine.serving.fused_moe_rate import (
    OVERHEAD_STEPS,
    expert_read_share,
    expert_stream_share,
    gemm_stream_share,
)
from engine.serving.scenario_estimate import serving_memory
from engine.serving.weights import expert_byte_share
from engine.timing.hardware import hardware_for


def test_a_gemm_streams_only_inside_its_k_loop() -> None:
    """A program walks K in BLOCK_SIZE_K = 128 steps (the fp8 [128, 128] decode configs) and pays OVERHEAD_STEPS more:
    DeepSeek-R1's w13 (K = hidden 7,168: 56 steps) streams at 56 / 57.42 of the achieved rate, its w2 at TP 8
    (K = 2,048 / 8 = 256: two steps) at 2 / 3.42."""
    assert gemm_stream_share(7168) == pytest.approx(56 / (56 + OVERHEAD_STEPS))
    assert gemm_stream_share(256) == pytest.approx(2 / (2 + OVERHEAD_STEPS))
    # a partial last step is a whole program step that loads a masked slice: 192 = 1.5 steps in two
    assert gemm_stream_share(192) == pytest.approx(1.5 / (2 + OVERHEAD_STEPS))
    # an expert's bytes are 2/3 w13 and 1/3 w2 (2 x shard_n x hidden and hidden x shard_n), each at its own share
    both = 1 / ((2 / 3) / gemm_stream_share(7168) + (1 / 3) / gemm_stream_share(256))
    assert expert_stream_share(7168, 256) == pytest.approx(both)
    assert 0.79 < both < 0.81


def test_where_the_engine_runs_the_fused_moe() -> None:
    dsr1 = model_spec_for("deepseek-r1")
    assert (dsr1.hidden, dsr1.expert_ffn) == (7168, 2048)
    # SGLang 0.5.7 at TP 8 without DeepEP: triton fused_moe, each expert's 2,048 split 8 ways
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8) == pytest.approx(expert_stream_share(7168, 256))
    assert expert_read_share(dsr1, "vllm", "checkpoint", tp=8) == pytest.approx(expert_stream_share(7168, 256))
    # expert parallelism keeps each expert whole: 16 steps for w2
    assert expert_read_share(dsr1, "vllm", "fp8", tp=8, ep=8) == pytest.approx(expert_stream_share(7168, 2048))
    # llama.cpp's mat-vec kernels, Marlin's AWQ MoE and the MXFP4 kernels are other kernels; a dense model has no experts
    assert expert_read_share(dsr1, "llama.cpp", "Q4_K_M", tp=1) == 1.0
    assert expert_read_share(model_spec_for("qwen3-30b-a3b"), "vllm", "awq-int4", tp=1) == 1.0
    assert expert_read_share(model_spec_for("gpt-oss-120b"), "vllm", "mxfp4", tp=1) == 1.0
    assert expert_read_share(model_spec_for("llama-3.1-8b"), "vllm", "bf16", tp=1) == 1.0


def test_the_decode_step_reads_the_touched_experts_at_the_share(monkeypatch) -> None:
    """SGLang's DeepSeek-R1 row at c8 (tests/data/published/serving_speed.json): the decode memory term grows by the
    touched experts' bytes x (1 / share - 1) over the achieved bandwidth, nothing else moves."""
    row = next(r for r in ss.read_rows() if r["id"] == "sglang-inferencex-870-h200-dsr1-fp8-tp8-c8")
    s = scenario_from_dict(row["scenario"])
    spec, memory, users = resolve_model(s), serving_memory(s), row["workload"]["concurrency"]

    def memory_seconds() -> float:
        result = speed.serving_speed(s, memory, concurrency=users, context=1024)
        return next(t.seconds for t in result.decode_terms if t.key == "decode_memory")

    with_share = memory_seconds()
    monkeypatch.setattr(speed, "expert_read_share", lambda *args: 1.0)
    at_achieved_rate = memory_seconds()
    share = expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep, True)
    touched = 1 - (1 - spec.top_k / spec.n_experts) ** users
    expert_bytes = memory.bytes_of("weights") * share * touched
    rate_share = expert_read_share(spec, "sglang", s.weight_format, s.tp, s.ep)
    assert with_share - at_achieved_rate == pytest.approx(
        expert_bytes * (1 / rate_share - 1) / hardware_for(s).memory_bytes_per_s, rel=1e-9)


def test_the_formulas_say_where_the_share_is_taken() -> None:
    """The serving decode's memory term and the rollout's generation formula price the touched experts at the
    share (speed.py _weights_per_step, posttraining/timing.py _generation), so their formula texts say so."""
    row = next(r for r in ss.read_rows() if r["id"] == "sglang-inferencex-870-h200-dsr1-fp8-tp8-c8")
    s = scenario_from_dict(row["scenario"])
    result = speed.serving_speed(s, serving_memory(s), concurrency=8, context=1024)
    memory_formula = next(t.formula for t in result.decode_terms if t.key == "decode_memory")
    assert "fused_moe" in memory_formula and "fused_moe" in RL_FORMULAS["generation"]


def test_sglang_runs_trtllm_gen_moe_on_sm100_for_fp8_deepseek_and_qwen3(monkeypatch) -> None:
    """SGLang 0.5.7's server_args.py sets the MoE runner to flashinfer_trtllm on compute capability 10.x for
    DeepseekV3ForCausalLM and Qwen3 MoE with fp8 experts (presets/efficiency.json fused_moe_other_runner cites the
    lines), so their experts are not read at the triton kernel's share there; vLLM, bf16 experts, Hopper and
    capability-12 Blackwell keep it."""
    dsr1, qwen = model_spec_for("deepseek-r1"), model_spec_for("qwen3-30b-a3b")
    triton = expert_stream_share(7168, 256)
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8, gpu="b200") == 1.0
    assert expert_read_share(dsr1, "sglang", "checkpoint", tp=8, gpu="gb200") == 1.0  # R1's own fp8
    assert expert_read_share(qwen, "sglang", "fp8", tp=1, gpu="b300") == 1.0
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8, gpu="h200") == pytest.approx(triton)
    assert expert_read_share(dsr1, "vllm", "fp8", tp=8, gpu="h200") == pytest.approx(triton)
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8, gpu="rtx-pro-6000-blackwell") == pytest.approx(triton)
    assert expert_read_share(qwen, "sglang", "bf16", tp=1, gpu="b200") < 1.0
    assert expert_read_share(model_spec_for("mixtral-8x7b"), "sglang", "fp8", tp=2, gpu="b200") < 1.0
    # the serving estimate passes its GPU: SGLang's DeepSeek-R1 on 8 B200 reads its experts at the achieved rate,
    # as with the share taken out
    row = next(r for r in ss.read_rows() if r["id"] == "sglang-inferencex-870-h200-dsr1-fp8-tp8-c8")
    s = scenario_from_dict({**row["scenario"], "gpu": "b200"})
    memory = serving_memory(s)

    def memory_seconds() -> float:
        result = speed.serving_speed(s, memory, concurrency=8, context=1024)
        return next(t.seconds for t in result.decode_terms if t.key == "decode_memory")

    gated = memory_seconds()
    monkeypatch.setattr(speed, "expert_read_share", lambda *args: 1.0)
    assert memory_seconds() == gated


def test_vllm_block_fp8_experts_run_cutlass_on_capability_10_0_without_expert_parallelism() -> None:
    """vLLM 0.11.2 get_fp8_moe_backend (quantization/fp8.py 121-180; presets/efficiency.json fused_moe_other_runner
    vllm cites the lines): block fp8 experts without deep_gemm installed run CUTLASS's block-scaled grouped GEMM on
    compute capability exactly 10.0 (B200, GB200), read at the achieved bandwidth; Hopper and B300 (10.3) keep the
    triton kernel, and so does expert parallelism (an expert_map makes _valid_cutlass_block_scaled_grouped_gemm
    refuse, cutlass_moe.py 929-933); bf16 experts are no block fp8 and keep it on every GPU."""
    dsr1, qwen = model_spec_for("deepseek-r1"), model_spec_for("qwen3-30b-a3b")
    assert expert_read_share(dsr1, "vllm", "fp8", tp=8, gpu="b200") == 1.0
    assert expert_read_share(dsr1, "vllm", "checkpoint", tp=8, gpu="gb200") == 1.0  # R1's own block fp8
    assert expert_read_share(qwen, "vllm", "fp8", tp=1, gpu="b200-750w") == 1.0  # any model type
    assert expert_read_share(dsr1, "vllm", "fp8", tp=8, gpu="b300") == pytest.approx(expert_stream_share(7168, 256))
    assert expert_read_share(dsr1, "vllm", "fp8", tp=8, ep=8, gpu="b200") == pytest.approx(
        expert_stream_share(7168, 2048))
    assert expert_read_share(qwen, "vllm", "bf16", tp=1, gpu="b200") < 1.0


def test_sglang_expert_parallelism_without_an_all_to_all_backend_keeps_the_triton_kernel() -> None:
    """SGLang 0.5.7 ep_moe/layer.py get_moe_impl_class (552-577) builds DeepEPMoE only with moe_a2a_backend deepep or
    mooncake (server_args.py default 'none', line 446; the planner has no such key); --ep-size alone builds FusedMoE,
    the triton kernel, each rank holding whole experts: the share at shard_n = expert_ffn. The sm100 flashinfer_trtllm
    choice (server_args.py 1132-1139) asks moe_a2a_backend 'none', not ep_size 1, so it holds under --ep-size too."""
    dsr1 = model_spec_for("deepseek-r1")
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8, ep=8, gpu="h200") == pytest.approx(
        expert_stream_share(7168, 2048))
    assert expert_read_share(dsr1, "sglang", "fp8", tp=8, ep=8, gpu="b200") == 1.0
