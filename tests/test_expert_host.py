"""Issue 23 item 2: the host work Transformer Engine's GroupedLinear does per LOCAL expert (engine/timing/host.py
expert_host_seconds, presets/host_overhead.json grouped_linear).

Each count is read from the code the Megatron-Bridge rows run: Megatron-Core's TEGroupedMLP calls linear_fc1 and
linear_fc2, two GroupedLinear calls per MoE layer (NVIDIA/Megatron-LM megatron/core/transformer/moe/experts.py at
2edffadb); Transformer Engine v2.14 (NVIDIA/TransformerEngine f031cf87): common/gemm/cublaslt_gemm.cu
multi_stream_cublas_gemm launches one cublasLtMatmul per expert (forward fprop; backward dgrad and wgrad,
pytorch/module/grouped_linear.py _GroupedLinear.backward); pytorch/csrc/extensions/cast.cpp split_quantize ->
multi_tensor_quantize_impl has one fused multi-cast-transpose for delayed scaling only, else quantizes expert by expert,
Float8CurrentScalingQuantizer::quantize_impl (pytorch/csrc/quantizer.cpp) in three kernels (amax, scale, cast),
MXFP8Quantizer::quantize in one. Costed at the host figures already in the preset: 9.02 us a launch and 3.52 us a
Python-side call without a kernel (minimind pull request #837; FlagGems pull request #4561)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.host import LayerWork, expert_host_seconds, exposed_host_seconds, host_figures
from engine.timing.layer_settings import fp8_casts

LAUNCH = 9.02e-6  # minimind PR #837: 'kernel launch (no sync) : 9.02 us'
CALL = 3.52e-6  # FlagGems PR #4561: torch.narrow from Python, 0.003520 ms
LINEARS = 2  # experts.py TEGroupedMLP.forward: linear_fc1, then linear_fc2
# Qwen3-30B-A3B (128 experts) at EP 16 on two HGX H100 nodes: 8 local experts
QWEN3_MOE = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "framework": "megatron",
             "micro_batch": 1, "grad_accum": 64, "seq_len": 4096, "ep": 16, "zero_stage": 1}
LOCAL = 128 // 16


def _s(**keys: object):
    return scenario_from_dict({**QWEN3_MOE, **keys})


def _host(**keys: object) -> tuple[float, float]:
    s = _s(**keys)
    return expert_host_seconds(s, fp8_casts(s, framework_profile(s.framework)))


def test_the_counts_are_the_sources():
    table = host_figures()["grouped_linear"]
    assert table["gemm_launches"] == {"forward": 1, "backward": 2}
    assert table["quantize_launches"]["tensorwise"] == 3 and table["quantize_launches"]["mxfp8"] == 1
    assert table["quantize_launches"]["delayed"] == 0 and table["quantize_launches"]["nontn-delayed"] == 1
    for cited in ("multi_stream_cublas_gemm", "multi_tensor_quantize_impl", "quantize_impl", "2edffadb", "v2.14",
                  "_make_backward_post_hook"):
        assert cited in table["_source"]


def test_bf16_one_gemm_per_expert_and_its_python_calls():
    """bf16: per expert and call one fprop GEMM forward, dgrad + wgrad backward (the stacks count one launch per
    grouped call already), the torch.split view and cast_if_needed forward; backward the split view, main_grad fetch
    and set, handle_custom_ddp_from_mcore with get_dummy_wgrad, and Megatron's per-parameter backward hook: 6."""
    fwd, bwd = _host()
    assert fwd == pytest.approx(LINEARS * ((LOCAL - 1) * LAUNCH + LOCAL * 2 * CALL))
    assert bwd == pytest.approx(LINEARS * ((2 * LOCAL - 1) * LAUNCH + LOCAL * 6 * CALL))


def test_current_scaling_quantizes_expert_by_expert_in_three_kernels():
    """Float8CurrentScalingQuantizer: amax, scale, cast per expert and quantized operand, less the two casts per
    call host_overhead.json fp8_casts already counts; 8 Python-side calls forward, 11 backward."""
    fwd, bwd = _host(precision="fp8", fp8_recipe="tensorwise")
    quant = 3 * LOCAL - 2
    assert fwd == pytest.approx(LINEARS * ((LOCAL - 1 + quant) * LAUNCH + LOCAL * 8 * CALL))
    assert bwd == pytest.approx(LINEARS * ((2 * LOCAL - 1 + quant) * LAUNCH + LOCAL * 11 * CALL))


def test_delayed_scaling_has_one_fused_cast_on_hopper_but_not_on_blackwell():
    """With delayed scaling, split_quantize takes nvte_multi_cast_transpose for all experts where each output has a
    column-wise copy (Hopper): the one cast fp8_casts counts. On data-centre Blackwell the per-tensor recipes write no
    column-wise copy, so each expert is quantized apart."""
    hopper_fwd, _ = _host(precision="fp8", fp8_recipe="delayed")
    bf16_fwd, _ = _host()
    assert hopper_fwd - bf16_fwd == pytest.approx(LINEARS * LOCAL * 6 * CALL)  # Python calls only, no cast launches
    b200_fwd, _ = _host(precision="fp8", fp8_recipe="delayed", gpu="b200")
    assert b200_fwd - hopper_fwd == pytest.approx(LINEARS * (LOCAL - 1) * LAUNCH)


def test_the_work_grows_with_the_local_experts():
    fewer, more = _host(ep=16), _host(ep=8)  # 8 and 16 local experts
    per_expert = LINEARS * (LAUNCH + 2 * CALL)
    assert more[0] - fewer[0] == pytest.approx(8 * per_expert)


def test_none_where_the_experts_are_captured_fused_or_one_grouped_kernel():
    assert _host(cuda_graphs="full-iteration") == (0.0, 0.0)
    assert _host(cuda_graphs="layers") == (0.0, 0.0)  # a captured MoE layer replays as one graph
    assert _host(cuda_graphs="attention") != (0.0, 0.0)  # attn + moe_router scopes leave the experts eager
    assert _host(fused_expert_mlp=True) == (0.0, 0.0)  # TE's fused grouped MLP is another code path
    assert _host(framework="torchtitan") == (0.0, 0.0)  # torch._grouped_mm: one grouped kernel
    assert _host(model="llama-3.1-8b", ep=1) == (0.0, 0.0)


def test_the_expert_host_work_shows_only_where_it_outlasts_the_gpu():
    """The host still runs ahead of a GPU that is busy longer than it; after the dispatcher's sync the layer's
    forward costs max(GPU, host) on its own."""
    s = _s(precision="fp8", fp8_recipe="tensorwise")
    fp8 = fp8_casts(s, framework_profile(s.framework))
    extra_fwd, extra_bwd = expert_host_seconds(s, fp8)
    busy = exposed_host_seconds(s, True, (LayerWork(1, True, 1.0, 2.0, False),), 0.0, fp8)
    idle = exposed_host_seconds(s, True, (LayerWork(1, True, 1e-9, 1e-9, False),), 0.0, fp8)
    sync = host_figures()["sync_seconds"]["value"]
    assert busy == pytest.approx(sync + LAUNCH)
    assert idle > busy + extra_fwd + extra_bwd - 2e-9  # the stacks' launches come on top


def test_after_the_sync_the_experts_host_work_hides_only_behind_the_dispatch_and_the_experts():
    """The dispatcher's sync empties the GPU's queue: the experts' host work can hide behind the GPU work issued before
    it (the dispatch all-to-all and the experts themselves: LayerWork.block), not behind the combine and the next
    layer's attention, issued after it. A layer whose forward is long but whose experts are short on the GPU waits
    for the experts' launches (the stack's moe_experts part with its casts, and the per-expert work)."""
    s = _s(precision="fp8", fp8_recipe="tensorwise")
    fp8 = fp8_casts(s, framework_profile(s.framework))
    fig = host_figures()
    extra_fwd, _ = expert_host_seconds(s, fp8)
    block_launches = fig["stacks"]["fused"]["moe_experts"][0] + 2 * fig["fp8_casts"]["gemms"]["moe_experts"]
    # and Megatron's module calls from dispatch to combine (te_modules moe_experts, each at factor x one nn.Linear
    # call and launch)
    module = fig["te_modules"]["factor"] * (LAUNCH + fig["module_call_seconds"]["value"])
    host_block = block_launches * LAUNCH + extra_fwd + fig["te_modules"]["calls"]["moe_experts"][0] * module
    sync = fig["sync_seconds"]["value"]
    whole = exposed_host_seconds(s, True, (LayerWork(1, True, 1.0, 2.0, False),), 0.0, fp8)
    split = exposed_host_seconds(s, True, (LayerWork(1, True, 1.0, 2.0, False, 1e-4),), 0.0, fp8)
    assert whole == pytest.approx(sync + LAUNCH)  # the whole forward hides the host
    assert split == pytest.approx(sync + LAUNCH + host_block - 1e-4)


def test_without_expert_parallelism_every_rank_loops_over_all_the_experts():
    """Qwen3-Next (512 experts) at tp 8, ep 1 (the user audit's scenario, 3.5 of 3.9 s waiting for the host): the loop
    is per LOCAL expert, so all 512 on each rank, as Megatron-Core's TEGroupedMLP runs it (the counts above); the
    figures are the per-expert ones at 512. torchtitan's experts are one torch._grouped_mm call (b5bcd76c
    torchtitan/models/common/moe.py line 120; efficiency.json: no expert_gemm_streams): no such loop."""
    qwen3_next = {"model": "qwen3-next-80b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "tp": 8, "ep": 1,
                  "micro_batch": 1, "seq_len": 4096}
    fwd, bwd = expert_host_seconds(scenario_from_dict({**qwen3_next, "framework": "megatron"}))
    assert fwd == pytest.approx(LINEARS * ((512 - 1) * LAUNCH + 512 * 2 * CALL))
    assert bwd == pytest.approx(LINEARS * ((2 * 512 - 1) * LAUNCH + 512 * 6 * CALL))
    assert expert_host_seconds(scenario_from_dict({**qwen3_next, "framework": "torchtitan"})) == (0.0, 0.0)
