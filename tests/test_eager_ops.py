"""The eager ops' measured rates (engine/timing/eager_ops.py): the tables of presets/efficiency.json
eager_rms_norm_fraction_of_peak and eager_rope_fraction_of_peak, the framework profiles that state eager_rms_norm and
eager_rope, and the bytes their rows count."""

import math
from dataclasses import replace

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.eager_ops import eager_op_rate, eager_op_table, eager_op_tables, eager_ops_extra_bytes
from engine.timing.gemm import Rates

BYTES_PER_ELEMENT = 38 + 114  # the benchmark's LlamaRMSNorm counted op by op (efficiency.json's _source)
ROWS = 2048  # the benchmark's M
# linkedin/Liger-Kernel rms_norm, provider huggingface, mode full, y_value_50 in ms, by H; the part's peak in B/s
# (presets/gpus.json, the vendors' datasheets): benchmark/data/all_benchmark_data.csv (A100-SXM4-80GB, 2024-09-03;
# MI300X at a054fafd; RTX 3090 at 3c53a80b), h100_all_benchmark_data.csv at 3534d446 (H100 NVL)
LIGER_FULL_MS = {
    "a100-80gb": (2.039e12, {4096: 1.011423945426941, 8192: 1.8621759414672852, 16384: 3.5439999103546143,
                             32768: 6.910431861877441}),
    "h100-nvl-94gb": (3.9e12, {4096: 0.6227520108222961, 8192: 1.13155198097229, 16384: 2.214111804962158,
                               32768: 4.254096031188965}),
    "mi300x": (5.3e12, {8192: 0.9989489912986755, 16384: 1.927377462387085, 32768: 3.9152119159698486}),
    "rtx-3090": (0.936e12, {4096: 1.5523840188980103, 8192: 3.018752098083496, 16384: 5.935103893280029,
                            32768: 11.782511711120605, 65536: 23.446529388427734}),
}


def _rates(stream_fraction: float, gpu: str = "a100-80gb", prof: dict | None = None) -> Rates:
    """Rates whose only figures read here are the GPU's element-wise fraction and its measured tables (the norm's
    alone unless prof says otherwise)."""
    return Rates(gemm=1.0, linear=1.0, attention=1.0, memory=1.0, elem_bytes=2, memory_fraction=stream_fraction,
                 eager_ops=eager_op_tables(prof if prof is not None else {"eager_rms_norm": True}, gpu))


def _llama(hidden: int, norm_style: str = "llama"):
    """A model spec with the hidden width and norm style the byte count reads."""
    spec = resolve_model(scenario_from_dict({"model": "llama-2-13b", "gpu": "a100-80gb"}))
    return replace(spec, hidden=hidden, norm_style=norm_style)


@pytest.mark.parametrize("gpu", sorted(LIGER_FULL_MS))
def test_tables_recompute_from_liger_times(gpu):
    peak, times = LIGER_FULL_MS[gpu]
    table = dict(efficiency()["eager_rms_norm_fraction_of_peak"]["_gpu"][gpu])
    assert sorted(table) == sorted(ROWS * h for h in times)
    for h, ms in times.items():
        fraction = BYTES_PER_ELEMENT * ROWS * h / (ms * 1e-3) / peak
        assert table[ROWS * h] == pytest.approx(fraction, abs=5e-4)


def test_the_profiles_that_run_an_eager_rmsnorm():
    # huggingface (transformers' LlamaRMSNorm), deepspeed (the same transformers model), torchtune's and torchtitan's
    # RMSNorm, Aleph Alpha's torch path, fms's LayerNormParameterized (fms-fsdp): each framework row's
    # _eager_rms_norm_source names the code
    stated = {name for name, p in efficiency()["frameworks"].items() if isinstance(p, dict) and p.get("eager_rms_norm")}
    assert stated == {"huggingface", "deepspeed", "torchtune", "torchtitan", "aleph-alpha-scaling", "fms-fsdp"}
    # post-trainers take their base's profile; Megatron-DeepSpeed (apex's fused norm), Megatron, plain PyTorch and
    # the Transformer Engine stacks do not state it
    assert framework_profile("trl").get("eager_rms_norm") and framework_profile("ms-swift").get("eager_rms_norm")
    for name in ("deepspeed-2022", "megatron", "pytorch", "nemo-automodel-te", "litgpt", "unsloth"):
        assert not framework_profile(name).get("eager_rms_norm")


def test_only_measured_gpus_have_a_table():
    prof = {"eager_rms_norm": True}
    assert eager_op_table(prof, "a100-80gb", "rms_norm")[0] == (8388608.0, 0.6183)
    for gpu in ("a100-40gb", "h100-sxm-80gb", "h200", "b200", ""):  # no measurement: the element-wise rate
        assert eager_op_table(prof, gpu, "rms_norm") == ()
    assert eager_op_table({}, "a100-80gb", "rms_norm") == ()  # a profile that does not state an eager norm


def test_norm_bytes_are_the_two_norms_of_hidden():
    rows = efficiency()["elementwise_bytes_per_token"]
    # two RMSNorms of 36 bytes per hidden unit (each row's own count); the residual adds are 12 more (torchtune: and
    # the attention output's transpose, 4)
    for name, rest in (("eager", 12), ("torchtune", 16), ("aleph-alpha-scaling", 12)):
        assert rows[name]["hidden_norm"] == 2 * 36
        assert rows[name]["hidden"] - rows[name]["hidden_norm"] == rest
    for name in ("fused", "liger", "te-modules", "internevo", "eager-amp"):  # fused norms, or counted apart
        assert "hidden_norm" not in rows[name]


def test_rate_interpolates_in_log_elements_and_holds_at_the_ends():
    table = eager_op_table({"eager_rms_norm": True}, "a100-80gb", "rms_norm")
    stream = efficiency()["memory_bandwidth_fraction"]["_gpu"]["a100-80gb"]
    assert eager_op_rate(table, 8388608, stream) == pytest.approx(0.6183 / stream)
    assert eager_op_rate(table, 1e6, stream) == pytest.approx(0.6183 / stream)  # below the table: its first point
    assert eager_op_rate(table, 1e9, stream) == pytest.approx(0.7239 / stream)  # above: its last
    # Llama 13B, micro-batch 1 at 2,048 tokens: 10,485,760 values per call, between H 4,096 and 8,192
    x = (math.log2(2048 * 5120) - 23.0)
    assert eager_op_rate(table, 2048 * 5120, stream) == pytest.approx((0.6183 + (0.6716 - 0.6183) * x) / stream)
    assert eager_op_rate(table, 1e9, 0.5) == 1.0  # never faster than the element-wise kernels
    assert eager_op_rate((), 1e9, 0.834) == 1.0  # no measurement: the element-wise rate


def test_extra_bytes_count_the_norms_at_their_rate():
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    stream = 0.834  # efficiency.json memory_bandwidth_fraction a100-80gb
    rates = _rates(stream)
    rate = eager_op_rate(dict(rates.eager_ops)["rms_norm"], 2048 * 5120, stream)
    extra = eager_ops_extra_bytes(per, _llama(5120), False, 1, False, 2048, rates)
    assert extra == pytest.approx(72 * 5120 * (1 / rate - 1))
    assert 20 * 5120 < extra < 30 * 5120  # about 25 more bytes per hidden unit at this shape
    # under sequence parallelism the norm sees 1/tp of the hidden state per token
    sp = eager_ops_extra_bytes(per, _llama(5120), False, 4, True, 2048, rates)
    assert sp == pytest.approx(72 * 1280 * (1 / eager_op_rate(dict(rates.eager_ops)["rms_norm"], 2048 * 1280, stream) - 1))


def test_nothing_added_where_the_norm_is_not_an_eager_rmsnorm():
    rates = _rates(0.834)
    rows = efficiency()["elementwise_bytes_per_token"]
    assert eager_ops_extra_bytes(rows["eager"], _llama(4096, "layernorm"), False, 1, False, 4096, rates) == 0.0  # one kernel
    assert eager_ops_extra_bytes(rows["fused"], _llama(4096), False, 1, False, 4096, rates) == 0.0  # compiled
    assert eager_ops_extra_bytes(rows["liger"], _llama(4096), False, 1, False, 4096, rates) == 0.0  # Liger's kernel
    assert eager_ops_extra_bytes(rows["eager"], _llama(4096), False, 1, False, 4096, _rates(0.887, "h100-sxm-80gb")) == 0.0



# linkedin/Liger-Kernel rope, provider huggingface, mode full, y_value_50 in ms, by T (hidden_size 8,192, 32 query
# and 8 key/value heads: D 256); the part's peak in B/s (presets/gpus.json): benchmark/data/all_benchmark_data.csv
# (A100-SXM4-80GB, 2024-09-03; MI300X at a054fafd), h100_all_benchmark_data.csv at 3534d446 (H100 NVL)
ROPE_FULL_MS = {
    "a100-80gb": (2.039e12, {1024: 0.6059200167655945, 2048: 1.1326719522476196, 4096: 2.176192045211792,
                             8192: 4.248256206512451, 16384: 8.365951538085938}),
    "h100-nvl-94gb": (3.9e12, {1024: 0.4211840033531189, 2048: 0.769536018371582, 4096: 1.4490559101104736,
                               8192: 2.930704116821289, 16384: 5.640223979949951}),
    "mi300x": (5.3e12, {8192: 1.9476640224456787, 16384: 3.8930420875549316}),
}
ROPE_HEADS, ROPE_HEAD_DIM = 32 + 8, 8192 // 32
# the benchmark's apply_rotary_pos_emb counted op by op (efficiency.json eager_rope_fraction_of_peak's _source):
# 20 forward + 30 backward per element of q and k, and cos and sin read by four kernels for each of q and k
ROPE_BYTES_PER_ELEMENT, ROPE_TABLE_BYTES_PER_POSITION_UNIT = 20 + 30, 4 * 2 * 2


@pytest.mark.parametrize("gpu", sorted(ROPE_FULL_MS))
def test_rope_tables_recompute_from_liger_times(gpu):
    peak, times = ROPE_FULL_MS[gpu]
    table = dict(efficiency()["eager_rope_fraction_of_peak"]["_gpu"][gpu])
    assert sorted(table) == sorted(t * ROPE_HEADS * ROPE_HEAD_DIM for t in times)
    for t, ms in times.items():
        elements = t * ROPE_HEADS * ROPE_HEAD_DIM
        moved = ROPE_BYTES_PER_ELEMENT * elements + ROPE_TABLE_BYTES_PER_POSITION_UNIT * t * ROPE_HEAD_DIM
        assert table[elements] == pytest.approx(moved / (ms * 1e-3) / peak, abs=5e-4)


def test_the_profiles_that_run_an_eager_rope():
    # transformers' apply_rotary_pos_emb (huggingface, deepspeed on the same model) and Aleph Alpha's RotaryEmbedding
    # (the same ops): each framework row's _eager_rope_source names the code. torchtune's interleaved fp32 RoPE and
    # torchtitan's complex product are other ops, not measured
    stated = {name for name, p in efficiency()["frameworks"].items() if isinstance(p, dict) and p.get("eager_rope")}
    assert stated == {"huggingface", "deepspeed", "aleph-alpha-scaling"}
    assert framework_profile("trl").get("eager_rope") and framework_profile("ms-swift").get("eager_rope")
    for name in ("torchtune", "torchtitan", "deepspeed-2022", "megatron", "pytorch", "nemo-automodel-te"):
        assert not framework_profile(name).get("eager_rope")
    assert eager_op_table({"eager_rope": True}, "a100-80gb", "rope")[-1] == (167772160.0, 0.4957)
    assert eager_op_table({"eager_rope": True}, "h100-sxm-80gb", "rope") == ()  # no run: the element-wise rate
    assert [op for op, _ in eager_op_tables({"eager_rms_norm": True, "eager_rope": True}, "mi300x")] == ["rms_norm",
                                                                                                         "rope"]


def test_rope_bytes_are_the_rows_own_rotary_count():
    rows = efficiency()["elementwise_bytes_per_token"]
    # eager: qk 20 per unit of q and k is all rotary, counted op by op from transformers' apply_rotary_pos_emb (the
    # row's _qk_source, the same 20 forward bytes per element as the benchmark's count); qkv keeps the transposes' 8
    assert rows["eager"]["qk_rope"] == rows["eager"]["qk"] == 20 and rows["eager"]["qkv"] == 8
    assert "qkv_rope" not in rows["eager"]
    # Aleph Alpha: qk 20 per unit of q and k is all rotary (its _source: q * cos, the negated half, cat, * sin, sum)
    assert rows["aleph-alpha-scaling"]["qk_rope"] == rows["aleph-alpha-scaling"]["qk"] == 20
    for name in ("fused", "liger", "te-modules", "internevo", "eager-amp", "torchtune"):
        assert "qkv_rope" not in rows[name] and "qk_rope" not in rows[name]


def test_extra_bytes_count_the_rope_at_its_rate():
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    stream = 0.834  # efficiency.json memory_bandwidth_fraction a100-80gb
    rates = _rates(stream, prof={"eager_rms_norm": True, "eager_rope": True})
    tables = dict(rates.eager_ops)
    spec = _llama(5120)  # Llama 2 13B: q, k and v 5,120 wide each
    norm = 72 * 5120 * (1 / eager_op_rate(tables["rms_norm"], 2048 * 5120, stream) - 1)
    # one call rotates q and k: 2,048 x 10,240 values; the row's rotary bytes are 20 per unit of q and k
    rope = 20 * 2 * 5120 * (1 / eager_op_rate(tables["rope"], 2048 * 2 * 5120, stream) - 1)
    assert eager_ops_extra_bytes(per, spec, False, 1, False, 2048, rates) == pytest.approx(norm + rope)
    assert rope > norm  # 0.46 of peak against the norm's 0.64
    # tensor parallelism splits the heads; a model without rotary embeddings (learned positions, ALiBi) adds none
    tp = eager_ops_extra_bytes(per, replace(spec, norm_style="layernorm"), False, 4, False, 2048, rates)
    assert tp == pytest.approx(20 * 2 * 1280 * (1 / eager_op_rate(tables["rope"], 2048 * 2 * 1280, stream) - 1))
    assert eager_ops_extra_bytes(per, replace(spec, norm_style="layernorm", rope=False), False, 1, False, 2048, rates) == 0.0
    aleph = efficiency()["elementwise_bytes_per_token"]["aleph-alpha-scaling"]
    assert eager_ops_extra_bytes(aleph, replace(spec, norm_style="layernorm"), False, 1, False, 2048, rates) == \
        pytest.approx(20 * 2 * 5120 * (1 / eager_op_rate(tables["rope"], 2048 * 2 * 5120, stream) - 1))


# linkedin/Liger-Kernel megatron_swiglu, provider torch (eager F.silu(gate) * up over torch.chunk), mode full,
# y_value_50 in ms by ffn_local, S 2,048 x B 4 tokens: benchmark/data/all_benchmark_data.csv at 2120862b (NVIDIA H100
# 80GB HBM3, 2026-07-26); the part's peak 3,350 GB/s (presets/gpus.json h100-sxm-80gb)
SWIGLU_FULL_MS = {1024: 0.17270399630069733, 2048: 0.31836798787117004, 4096: 0.6027200222015381,
                  8192: 1.1698559522628784, 16384: 2.2963199615478516, 32768: 4.5731520652771}
SWIGLU_TOKENS = 2048 * 4
# the benchmark counted op by op (efficiency.json eager_swiglu_fraction_of_peak's _source): forward 10, the sum 2,
# backward 4 + 4 + 6 and the chunk's concatenation 8
SWIGLU_BYTES_PER_ELEMENT = 10 + 2 + 4 + 4 + 6 + 8


def test_swiglu_table_recomputes_from_liger_times():
    table = dict(efficiency()["eager_swiglu_fraction_of_peak"]["_gpu"]["h100-sxm-80gb"])
    assert sorted(table) == sorted(SWIGLU_TOKENS * f for f in SWIGLU_FULL_MS)
    for f, ms in SWIGLU_FULL_MS.items():
        elements = SWIGLU_TOKENS * f
        assert table[elements] == pytest.approx(SWIGLU_BYTES_PER_ELEMENT * elements / (ms * 1e-3) / 3.35e12, abs=5e-4)
    assert list(efficiency()["eager_swiglu_fraction_of_peak"]["_gpu"]) == ["h100-sxm-80gb"]  # the one part measured


def test_the_profiles_that_run_an_eager_swiglu():
    # each framework row's _eager_swiglu_source names the code: transformers' LlamaMLP act_fn(gate) * up (huggingface,
    # deepspeed), torchtune's and torchtitan's silu(w1(x)) * w3(x), Aleph Alpha's ParallelSwiGLUMLP, fms's
    # GatedLinearUnit a(wg(x)) * w1(x) (fms-fsdp)
    stated = {name for name, p in efficiency()["frameworks"].items() if isinstance(p, dict) and p.get("eager_swiglu")}
    assert stated == {"huggingface", "deepspeed", "torchtune", "torchtitan", "aleph-alpha-scaling", "fms-fsdp"}
    rows = efficiency()["elementwise_bytes_per_token"]
    for name in ("eager", "torchtune", "aleph-alpha-scaling", "fms"):  # the whole of each row's SwiGLU count
        assert rows[name]["mlp_swiglu"] == rows[name]["mlp"] == 10
    for name in ("fused", "liger", "te-modules", "internevo", "eager-amp"):
        assert "mlp_swiglu" not in rows[name]


def test_extra_bytes_count_the_swiglu_at_its_rate_in_a_dense_gated_mlp():
    stream = 0.887  # efficiency.json memory_bandwidth_fraction h100-sxm-80gb
    rates = _rates(stream, "h100-sxm-80gb", {"eager_rms_norm": True, "eager_rope": True, "eager_swiglu": True})
    assert [op for op, _ in rates.eager_ops] == ["swiglu"]  # no norm or RoPE run on this part: the element-wise rate
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    spec = _llama(5120)  # Llama 2 13B: MLP 13,824 wide
    rate = eager_op_rate(rates.eager_ops[0][1], 2048 * spec.ffn / 2, stream)
    assert eager_ops_extra_bytes(per, spec, False, 2, False, 2048, rates) == pytest.approx(
        10 * spec.ffn / 2 * (1 / rate - 1))
    # 14,155,776 values per call, between the table's 8,388,608 (0.493) and 16,777,216 (0.5348)
    x = math.log2(2048 * spec.ffn / 2) - 23.0
    assert rate == pytest.approx((0.493 + (0.5348 - 0.493) * x) / stream)  # 0.52 of peak against the part's 0.887
    assert eager_ops_extra_bytes(per, spec, True, 2, False, 2048, rates) == 0.0  # an MoE layer's experts
    assert eager_ops_extra_bytes(per, replace(spec, mlp_gated=False), False, 2, False, 2048, rates) == 0.0  # GELU MLP


def test_eager_rope_bytes_follow_the_query_and_key_heads():
    # transformers rotates q and k, not v (apply_rotary_pos_emb; efficiency.json eager qk's _source): a GQA model's
    # rotary bytes are 20 per unit of its q and k widths, whatever its v width, and none without rotary embeddings
    from engine.timing.costs import elementwise_bytes_per_token
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    spec = resolve_model(scenario_from_dict({"model": "llama-3.1-8b", "gpu": "a100-80gb"}))
    assert (spec.q_dim, spec.kv_dim) == (4096, 1024)  # 32 query heads, 8 key/value heads of 128
    dense = 84 * 4096 + 10 * spec.ffn  # the hidden state's and the SwiGLU's bytes
    assert elementwise_bytes_per_token(spec, False, 1, False, per) == pytest.approx(
        dense + 8 * (4096 + 2 * 1024) + 20 * (4096 + 1024))
    assert elementwise_bytes_per_token(replace(spec, rope=False), False, 1, False, per) == pytest.approx(
        dense + 8 * (4096 + 2 * 1024))


def test_routed_experts_swiglu_at_its_rate_where_transformers_gates_them():
    # transformers' grouped experts gate all tokens x top_k routed rows in one act_fn(gate) * up over a chunk
    # (integrations/moe.py _default_apply_gate; efficiency.json frameworks huggingface eager_expert_swiglu): the
    # row's expert_swiglu 10 per unit of top_k x expert width at the measured SwiGLU rate, one call over all of them
    assert framework_profile("huggingface").get("eager_expert_swiglu")
    for name in ("deepspeed", "torchtune", "torchtitan", "megatron", "aleph-alpha-scaling"):  # their experts: other code
        assert not framework_profile(name).get("eager_expert_swiglu")
    stream = 0.887  # efficiency.json memory_bandwidth_fraction h100-sxm-80gb
    rates = _rates(stream, "h100-sxm-80gb", framework_profile("huggingface"))
    assert [op for op, _ in rates.eager_ops] == ["swiglu", "expert_swiglu"]  # the one table, measured on this part
    per = efficiency()["elementwise_bytes_per_token"]["eager"]
    spec = resolve_model(scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb"}))
    routed = spec.top_k * spec.expert_ffn  # 8 x 768 per token
    assert routed == 8 * 768
    table = dict(rates.eager_ops)["expert_swiglu"]
    rate = eager_op_rate(table, 4096 * routed, stream)
    assert eager_ops_extra_bytes(per, spec, True, 1, False, 4096, rates) == pytest.approx(10 * routed * (1 / rate - 1))
    # 25,165,824 values per call, between the table's 16,777,216 (0.5348) and 33,554,432 (0.565)
    x = math.log2(4096 * routed) - 24.0
    assert rate == pytest.approx((0.5348 + (0.565 - 0.5348) * x) / stream)
    # a compiled run (the fused row) and a GPU without the measurement keep the element-wise rate
    fused = efficiency()["elementwise_bytes_per_token"]["fused"]
    assert eager_ops_extra_bytes(fused, spec, True, 1, False, 4096, rates) == 0.0
    a100 = _rates(0.834, "a100-80gb", {"eager_expert_swiglu": True})
    assert eager_ops_extra_bytes(per, spec, True, 1, False, 4096, a100) == 0.0
