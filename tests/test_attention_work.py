"""Attention's rate by the work of one kernel call, and the tensor-parallel collectives of a layer under sequence
parallelism (the per-micro-batch costs the GB200 dense runs missed in bf16 and fp8 alike)."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict


def _combined(fwd: float, bwd: float) -> float:
    """Forward + backward rate of a kernel whose backward has 2.5 x the forward's FLOPs."""
    return 3.5 / (1 / fwd + 2.5 / bwd)


def test_attention_rate_falls_with_the_calls_work_as_cudnn_measured_on_gb200():
    """NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/artifacts/sdpa_bf16_benchmark_results_NVIDIA_GB200.csv
    at b372d39 (cuDNN 9.17, 128 heads, head dim 128, causal): 4,096 tokens 1,386 / 1,054 TFLOPS forward / backward,
    8,192 tokens 1,584 / 1,211. A call of the 4,096-token benchmark's work (4 x 128 x 128 x 4096^2 / 2 FLOPs) runs at
    their ratio of the 8,192-token rate; the reference work and more run at 1; a GPU without a table at 1."""
    from engine.timing.attention import attention_by_work, work_rate

    curve = attention_by_work("cudnn", "gb200")
    at_4k = 4 * 128 * 128 * 4096**2 / 2
    assert math.isclose(work_rate(curve, at_4k), _combined(1386, 1054) / _combined(1584, 1211))
    assert work_rate(curve, 4 * at_4k) == 1.0 and work_rate(curve, 100 * at_4k) == 1.0
    assert work_rate(curve, at_4k / 4) < work_rate(curve, at_4k) < 1.0  # 2,048-token work runs slower still
    assert attention_by_work("cudnn", "h100-pcie-80gb") == () and work_rate((), at_4k) == 1.0


def test_hopper_causal_rate_is_taken_over_the_call_its_fraction_was_measured_on():
    """NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/h200_919_only_cudnn/llama3.1_20260227_034703.csv
    at 3929da2 (cuDNN 9.19.1, H200, 64 query heads, head dim 128, batch 1, causal): 2,048 tokens 484 / 370 TFLOPS,
    4,096: 591 / 474, 8,192: 644 / 541. Hopper's attention fraction is the FlashAttention-3 paper's cuDNN figure on a
    call of batch 2 x 16 heads x 8,192 causal tokens (the work of 64 heads at 5,793 tokens, half-way in log2 between
    the table's 4,096 and 8,192), so a 64-head 2,048-token call runs at the table's 2,048 rate over the rate
    interpolated there, and that work and more at 1."""
    from engine.timing.attention import attention_by_work, work_rate

    curve = attention_by_work("cudnn", "h100-sxm-80gb")
    at_paper = (_combined(591, 474) + _combined(644, 541)) / 2
    heads64_2k = 4 * 64 * 128 * 2048**2 / 2
    assert math.isclose(work_rate(curve, heads64_2k), _combined(484, 370) / at_paper)
    assert work_rate(curve, 4 * 2 * 16 * 128 * 8192**2 / 2) == 1.0 and work_rate(curve, 1e13) == 1.0
    assert attention_by_work("cudnn", "h200") == curve


def test_context_parallel_steps_run_smaller_attention_calls():
    """With CP 2 each ring step is its own kernel call over half the keys (Transformer Engine's
    AttnFuncWithCPAndKVP2P), so on GB200 and H100 (cuDNN's measured tables) the same rank's attention takes longer
    than one call of the whole work; on H100 PCIe (no per-work table) the split changes nothing."""
    from engine.models.presets import model_spec_for
    from engine.timing.attention import attention_core
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    spec = model_spec_for("llama-3.1-405b")
    for gpu, slower in (("gb200", True), ("h100-sxm-80gb", True), ("h100-pcie-80gb", False)):
        s = scenario_from_dict({"model": "llama-3.1-405b", "gpu": gpu, "framework": "megatron", "seq_len": 8192})
        rates = rates_for(s, hardware_for(s), framework_profile("megatron"))
        one = attention_core(spec, 4096, 8192, 4, rates, "fused", cp=1)[1]
        two = attention_core(spec, 4096, 8192, 4, rates, "fused", cp=2)[1]
        assert (two > one) if slower else math.isclose(two, one)


def test_sequence_parallel_backward_gathers_the_column_parallel_inputs_again():
    """Transformer Engine v2.2 layernorm_linear.py: ctx.ln_out_needs_gather = weight.requires_grad and
    parallel_mode == 'column' and sequence_parallel, and the backward all-gathers ln_out again (linear.py likewise):
    a trained dense layer under SP runs 4 + 2 x 0.5 all-reduce units (AG + RS pairs) per micro-batch, an MoE layer
    (only QKV is a TP column-parallel linear here) 4.5, a frozen one (LoRA) 4, and without SP or in a framework that
    keeps the gathered input (torchtitan's DTensor) 4."""
    from engine.timing.data import framework_profile
    from engine.timing.layer_settings import tp_collectives

    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "tp": 2, "gpus_per_node": 2}
    sp, plain = scenario_from_dict({**base, "sequence_parallel": True}), scenario_from_dict(base)
    megatron, torchtitan = framework_profile("megatron"), framework_profile("torchtitan")
    assert tp_collectives(sp, megatron, True, False, 2) == 5.0
    assert tp_collectives(sp, megatron, True, False, 1) == 4.5
    assert tp_collectives(sp, megatron, True, False, 0) == 4.0
    assert tp_collectives(plain, megatron, True, False, 2) == 4.0
    assert tp_collectives(sp, torchtitan, True, False, 2) == 4.0
    assert tp_collectives(sp, megatron, False, False, 2) == 2.0  # no backward, no gather again


def test_hopper_ring_steps_off_the_diagonal_run_at_the_rate_without_a_mask():
    """Transformer Engine's AttnFuncWithCPAndKVP2P (v1.13) runs the ring's first step causal and the cp - 1 others
    with attn_mask_type "no_mask". The same cudnn-frontend H200 table (3929da2) measured calls without a mask:
    2,048 tokens 633 / 504 TFLOPS, 4,096: 671 / 560, over the causal reference rate (as above). A no-mask call of
    s tokens and 64 heads does the FLOPs of the 128-head causal benchmark at s tokens (4 x 64 x 128 x s^2), so its
    curve starts at log2(2048) = 11 (held at 1 above the causal reference rate, as the other kernels' one rate); at
    CP 2 the layer's attention is one causal step and one no-mask step, each half
    the work, and the steps' times add."""
    from engine.models.presets import model_spec_for
    from engine.timing.attention import attention_core, no_mask_by_work, work_rate
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    reference = (_combined(591, 474) + _combined(644, 541)) / 2
    curve = no_mask_by_work("cudnn", "h100-sxm-80gb")
    assert curve[0][0] == 11.0 and math.isclose(curve[0][1], min(1.0, _combined(633, 504) / reference))
    assert max(rate for _, rate in curve) == 1.0  # held at the causal reference where larger calls pass it
    assert no_mask_by_work("cudnn", "h100-pcie-80gb") == ()  # no table: one rate for every call
    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "framework": "megatron", "seq_len": 8192})
    rates = rates_for(s, hardware_for(s), framework_profile("megatron"))
    flops, fwd, _ = attention_core(model_spec_for("llama-3.1-70b"), 4096, 8192, 4, rates, "fused", cp=2)
    step = flops / 2
    expected = step / (rates.attention * work_rate(rates.attention_by_work, step)) + step / (
        rates.attention * work_rate(curve, step, relative=False))
    assert math.isclose(fwd, expected)


def test_blackwell_ring_steps_off_the_diagonal_take_cudnn_9_22s_no_mask_rate():
    """NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/llama3.1/gb300/llama3.1_20260424_100757.csv
    at 3929da2 (cuDNN 9.22, batch 2 x 64 query heads, head dim 128, bf16): no_mask 2,048 tokens 1,805 / 1,213 TFLOPS
    forward / backward, 4,096: 1,900 / 1,429; causal (top_left) 8,192: 1,856 / 1,435, the reference. 128 head-batches
    are the 128-head benchmark's work, and a no-mask call of s tokens does the FLOPs of its causal call of s x sqrt(2)
    tokens: the curve's first measured point sits at log2(2048) + 0.5 at 1,805 / 1,213 over 1,856 / 1,435 (0.87), the
    4,096-token point passes the reference and is held at 1. Below the first measured call the causal curve stands
    (GB300's b372d39 table: 2,048 tokens at 1,312 / 633 over 1,899 / 1,292). At CP 2 and TP 2 the Llama 3.1 405B
    layer's off-diagonal step (64 heads, 4,096 x 2,048) is that 2,048-token no-mask call: the GB300 Megatron-Bridge
    rows' step, which runs 1.11x the rate of the causal call of the same FLOPs in the same file."""
    from engine.models.presets import model_spec_for
    from engine.timing.attention import attention_by_work, attention_core, no_mask_by_work, work_rate
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    curve = no_mask_by_work("cudnn", "gb300")
    first = next(p for p in curve if p[0] == 11.5)
    assert math.isclose(first[1], _combined(1805, 1213) / _combined(1856, 1435))
    assert next(rate for x, rate in curve if x == 12.5) == 1.0  # 4,096 tokens: held at the causal reference
    assert curve[0] == attention_by_work("cudnn", "gb300")[0]  # below 2,048 no-mask tokens: the causal curve
    assert no_mask_by_work("cudnn", "b300") == curve  # the same die
    s = scenario_from_dict({"model": "llama-3.1-405b", "gpu": "gb300", "framework": "megatron", "seq_len": 8192})
    rates = rates_for(s, hardware_for(s), framework_profile("megatron"))
    flops, fwd, _ = attention_core(model_spec_for("llama-3.1-405b"), 4096, 8192, 2, rates, "fused", cp=2)
    step = flops / 2
    assert math.isclose(work_rate(curve, step, relative=False), first[1], rel_tol=0.02)  # the 2,048-token call
    expected = step / (rates.attention * work_rate(rates.attention_by_work, step)) + step / (
        rates.attention * work_rate(curve, step, relative=False))
    assert math.isclose(fwd, expected)
    causal_only = flops / (rates.attention * work_rate(rates.attention_by_work, step))
    assert fwd < causal_only  # the off-diagonal step no longer runs at a causal call's rate


def test_flashattention2_on_hopper_slows_on_small_calls_as_the_fa3_paper_measured_it():
    """FlashAttention-3 paper (arXiv:2407.08608), causal head-dim-128 figures on an H100 SXM, FlashAttention-2 forward
    / backward TFLOPS: 512 tokens 191 / 214, 2k 298 / 291, 8k 333 / 318, at 16,384 tokens a batch over 16 heads. The
    8k call (2 x 16 heads) is the reference of attention_fraction_of_bf16_peak, so it runs at 1; the 512-token call
    (32 x 16 heads: the work of the 128-head benchmark at 1,024 tokens) at its combined rate over the 8k one, 0.642;
    GPT-3 175B's call at TP 4 (24 heads, 2,048 tokens, one sequence: less work than any of the figure's calls) is
    held at that first point, where cuDNN's H200 table holds its own first point (2,048 tokens of 64 heads)."""
    from engine.timing.attention import attention_by_work, work_rate

    curve = attention_by_work("flash2", "h100-sxm-80gb")
    ref = _combined(333, 318)
    at_8k, at_512 = 4 * 32 * 128 * 8192**2 / 2, 4 * (32 * 16) * 128 * 512**2 / 2
    assert math.isclose(work_rate(curve, at_8k), 1.0)
    assert math.isclose(work_rate(curve, at_512), _combined(191, 214) / ref)
    assert math.isclose(work_rate(curve, 4 * 24 * 128 * 2048**2 / 2), _combined(191, 214) / ref)
    assert attention_by_work("flash2", "h200") == curve and attention_by_work("flash2", "h100-pcie-80gb") == ()
