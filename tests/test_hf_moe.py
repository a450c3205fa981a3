"""Hugging Face transformers' own MoE block in a training step (issue 23 item 9: the real-GPU rows of OLMoE,
Qwen3-30B-A3B and Mixtral trained through transformers' modeling code).

Expected values come from the code that ran (presets/host_overhead.json transformers_moe and efficiency.json
moe_token_permutation.transformers cite each count): transformers 5.17.0 src/transformers/integrations/moe.py
grouped_mm_experts_forward (the default experts_implementation, modeling_utils.py get_correct_experts_implementation)
and the router of models/qwen3_moe/modeling_qwen3_moe.py; pytorch aten/src/ATen/native/cuda/GroupedBlas.cpp
_grouped_mm_cuda (the CUTLASS path on compute capability 9.0 and 10.0: 'fast path, no d2h sync needed') and
aten/src/ATen/native/GroupedMMUtils.h _grouped_mm_fallback (offs.cpu(), then one mm per expert)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.models.presets import model_spec_for
from engine.scenario import resolve_model
from engine.timing.expert_costs import permutation_bytes
from engine.timing.hf_moe import native_grouped_mm, runs_transformers_moe
from engine.timing.host import expert_host_seconds, host_figures, launches, syncs_per_forward

# the measured real-GPU row's shape (tests/data/gpu_measured/h200_batch2.json, qwen3-30b-a3b LoRA on one H200)
QWEN3 = {"model": "qwen3-30b-a3b", "gpu": "h200", "method": "lora", "micro_batch": 1, "seq_len": 2048,
         "attention": "sdpa"}
VIEW = 3.52e-6  # presets/host_overhead.json view_seconds (FlagGems pull request #4561, torch.narrow on an H20 host)


def _s(**keys: object):
    return scenario_from_dict({**QWEN3, **keys})


def test_transformers_block_replaces_the_generic_eager_moe_stack():
    """Forward: the router with its pre-MLP norm (norm 6, linear 1, softmax on bf16 2, topk 2, normalise 2, cast 1 =
    14) and the grouped_mm experts (35: the sort alone is 11, a fill and CUB's histogram, scan and 8 digit passes over
    64-bit keys) against the generic eager stack's 13 + 11."""
    fig = host_figures()
    hf = launches(_s(method="full"), False, True)
    generic = launches(_s(method="full", framework="pytorch"), False, True)
    attention = fig["stacks"]["eager"]["attention"]
    assert hf == (attention[0] + 14 + 35, attention[1] + 20 + 31)
    assert generic == (attention[0] + 13 + 11, attention[1] + 8 + 14)


def test_frozen_experts_skip_their_weight_gradients():
    """LoRA leaves the experts and the router frozen: the two grouped GEMMs' wgrads (2 launches each: the
    prepare_grouped_gemm_data kernel and the CUTLASS GEMM) and the router's wgrad do not run."""
    full, lora = launches(_s(method="full"), False, True), launches(_s(), False, True)
    assert lora == (full[0], full[1] - 4 - 1)


def test_no_host_sync_on_the_cutlass_path_and_two_in_the_fallback():
    assert native_grouped_mm(_s()) and syncs_per_forward(_s(), moe=True, fused=False) == 0
    a100 = _s(gpu="a100-80gb")  # compute capability 8.0: aten's fallback copies the offsets to the host per call
    assert not native_grouped_mm(a100) and syncs_per_forward(a100, moe=True, fused=False) == 2
    # the generic stack keeps its dispatcher sync (Megatron's token dispatcher)
    assert syncs_per_forward(_s(framework="pytorch"), moe=True, fused=False) == 1


def test_the_fallback_runs_one_matmul_per_expert():
    """128 experts: each grouped GEMM call becomes 128 mm launches (forward 2 calls, backward the 2 dgrads of frozen
    experts), replacing the CUTLASS path's 2 launches a call."""
    experts = resolve_model(_s()).n_experts
    assert experts == 128
    native, fallback = launches(_s(), False, True), launches(_s(gpu="a100-80gb"), False, True)
    assert fallback == (native[0] + 2 * (experts - 2), native[1] + 2 * (experts - 2))


def test_compiled_or_other_frameworks_keep_their_own_stacks():
    assert runs_transformers_moe(_s(), False)
    assert not runs_transformers_moe(_s(), True)  # torch.compile: the fused stacks
    assert not runs_transformers_moe(_s(framework="megatron"), False)


def test_kernel_less_python_calls_are_costed_per_layer():
    """20 calls that launch no kernel (views, no-op casts, the experts interface's dispatch) per forward, at
    view_seconds each; the backward runs in the autograd engine."""
    assert expert_host_seconds(_s(), "", False) == pytest.approx((20 * VIEW, 0.0))


def test_gpu_bytes_of_the_grouped_mm_experts():
    """Forward 11 routed copies of the hidden row, 2 of the gate-and-up row (the masked fill of the up projection's
    output) and 1 token row; backward 17, 2 and 1 (efficiency.json moe_token_permutation.transformers)."""
    spec = model_spec_for("qwen3-30b-a3b")
    k, h, ffn = spec.top_k, spec.hidden, spec.expert_ffn
    forward, backward = permutation_bytes(spec, 1, "transformers", "alltoall", 1, 2)
    assert forward == pytest.approx((11 * k * h + 2 * k * 2 * ffn + h) * 2)
    assert backward == pytest.approx((17 * k * h + 2 * k * 2 * ffn + h) * 2)


def test_no_published_row_runs_the_transformers_block():
    """The published set's MoE rows run Megatron-Core, torchtitan or NeMo AutoModel, whose MoE layers are their own:
    the mechanism leaves them as they were (docs/speed-accuracy.md)."""
    for row in load_rows():
        s = scenario_from_dict(row["scenario"])
        assert not (resolve_model(s).is_moe and runs_transformers_moe(s, False)), row["id"]
