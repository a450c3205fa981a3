"""QLoRA's quantised linears run their input-gradient GEMM on a whole 16-bit copy of the weight, made for it and freed
after it: bitsandbytes MatMul4Bit.backward `torch.matmul(grad_output, F.dequantize_4bit(B, ctx.state).to(
grad_output.dtype))` (bitsandbytes 0.41.0 .. 0.50.1 autograd/_functions.py; MatMul8bitLt.backward `state.CB.to(
ctx.dtype_A, copy=True)`), torchao's LinearNF4.backward `grad_output @ weight.to(grad_output.dtype)` (pytorch/ao at
38cb64cc torchao/dtypes/nf4tensor.py), Unsloth's LoRA_MLP.backward `fast_dequantize(upW.t(), upW_quant)` (unslothai/
unsloth at 015bdef0 unsloth/kernels/fast_lora.py lines 193-199); MLX's QuantizedMatmul::vjp runs quantized_matmul on the
packed weight (no copy). Unsloth's forward also keeps one global buffer of the largest weight (kernels/utils.py
fast_dequantize use_global_buffer, matmul_lora line 1158).

Expected values: Llama-3-8B's config.json (hidden 4096, q 4096, kv 1024, ffn 14336) and the tensors alive at the
GEMM, per tensor (engine/memory/layer_backward.py dequantized_weight_scratch's docstring: transformers' gated MLP runs
up_proj's backward while the activation's and up_proj's output gradients are held)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.memory.detailed import act_context
from engine.memory.layer_backward import dequantized_weight_scratch
from engine.memory.states import dtypes_for
from engine.scenario import resolve_model
from engine.scenario.behaviour import behaviour

HIDDEN, Q_DIM, FFN = 4096, 4096, 14336
TOKENS = 2048  # micro_batch 1 x seq_len 2048
BF16 = 2


def _s(**kw):
    base = {"model": "llama-3-8b", "precision": "bf16", "micro_batch": 1, "seq_len": TOKENS, "method": "qlora",
            "lora_rank": 16, "lora_targets": "all-linear", "framework": "huggingface", "checkpointing": "full"}
    base.update(kw)
    return scenario_from_dict(base)


def _copy_terms(s):
    spec = resolve_model(s)
    return dequantized_weight_scratch(act_context(s, spec, dtypes_for(s), behaviour(s)), spec, False, False)


def _moment(est, key, moment):
    return sum(getattr(c.moments, moment) for c in est.components if c.key == key)


def test_bitsandbytes_copy_with_the_gradients_alive_at_its_gemm():
    mlp, attn = _copy_terms(_s())
    # up_proj's backward: d(act out) and d(up out), 2 x tokens x ffn, beside the ffn x hidden copy, all bf16
    assert mlp == (2 * TOKENS * FFN + FFN * HIDDEN) * BF16
    # q_proj's backward: the query gradient beside the q_dim x hidden copy
    assert attn == (TOKENS * Q_DIM + Q_DIM * HIDDEN) * BF16


def test_the_copy_raises_the_layer_backward_scratch_above_lora():
    # the MLP's scratch without a copy: 3 tokens x ffn gradients (SwiGLU's backward) + 2 residual-stream gradients
    residual = 2 * BF16 * TOKENS * HIDDEN
    lora = _moment(estimate(_s(method="lora")), "backward_scratch", "backward_end")
    qlora = _moment(estimate(_s()), "backward_scratch", "backward_end")
    assert lora == 3 * BF16 * TOKENS * FFN + residual
    assert qlora == (2 * TOKENS * FFN + FFN * HIDDEN) * BF16 + residual


@pytest.mark.parametrize("framework", ["huggingface", "trl", "deepspeed", "torchtune", "litgpt"])
def test_every_dequantising_kernel_has_the_copy(framework):
    # bitsandbytes (transformers / peft / TRL / DeepSpeed / Fabric's plugin) and torchao's NF4Tensor both dequantise
    assert _copy_terms(_s(framework=framework))[0] == (2 * TOKENS * FFN + FFN * HIDDEN) * BF16


def test_mlx_reads_the_packed_weight():
    assert _copy_terms(_s(framework="mlx", gpu="apple-m2-ultra-192gb")) == (0.0, 0.0)


def test_lora_has_no_copy():
    assert _copy_terms(_s(method="lora")) == (0.0, 0.0)


def test_unsloth_holds_dw_beside_the_copy_and_keeps_a_global_buffer():
    s = _s(framework="unsloth")
    mlp, attn = _copy_terms(s)
    # LoRA_MLP.backward: DW (tokens x ffn) while upW is dequantised; LoRA_QKV.backward: dQ, dK, dV beside QW's copy
    assert mlp == (TOKENS * FFN + FFN * HIDDEN) * BF16
    assert attn == (TOKENS * (Q_DIM + 2 * 1024) + Q_DIM * HIDDEN) * BF16
    est = estimate(s)
    buffer = next(c for c in est.components if c.key == "dequant_buffer")
    # the largest 4-bit linear (ffn x hidden) in bf16 plus its fp32 absmax, one per 64-value block, at every moment
    assert set(buffer.moments) == {FFN * HIDDEN * (BF16 + 4 / 64)}
    assert not any(c.key == "dequant_buffer" for c in estimate(_s()).components)


def test_coursia_grpo_peak_is_the_loss_spike_where_no_copy_is_alive():
    # The CoursIA TRL GRPO QLoRA row (tests/data/published/posttraining.json): Qwen3-14B's config.json (hidden 5120,
    # 40 x 128 query width, ffn 17408), 8 completions of 11 + 96 tokens. The copy enters the layer's backward moment;
    # the step's peak is the loss's spike (the logits' gradients), when no decoder linear runs: the figure
    # (11.638 GiB) is not reached by this term.
    import json
    from pathlib import Path

    rows = json.loads((Path(__file__).parent / "data" / "published" / "posttraining.json").read_text(encoding="utf-8"))
    row = next(r for r in rows if r["id"] == "coursia-trl-grpo-qlora-qwen3-14b-c96-g8-rtx-4090")
    stage = estimate(scenario_from_dict(row["scenario"])).stages[0]
    tokens, hidden, ffn = 8 * (11 + 96), 5120, 17408
    scratch = next(c for c in stage.components if c.key == "backward_scratch").moments
    assert scratch.backward_end == (2 * tokens * ffn + ffn * hidden) * BF16 + 2 * BF16 * tokens * hidden
    assert scratch.backward_start == 0.0 and stage.peak_moment == "backward_start"


def test_unsloths_buffer_says_in_words_what_it_holds_and_how_long():
    # h-useraudit10: the hover read "the largest 4-bit linear dequantised into one buffer kept all step"; an Unsloth
    # user reads what the buffer holds (a 16-bit copy of the largest 4-bit weight matrix), that every layer reuses it
    # (unslothai/unsloth 2025-02 ee5aaa2e82 kernels/utils.py line 448: use_global_buffer) and that it is never freed
    buffer = next(c for c in estimate(_s(framework="unsloth")).components if c.key == "dequant_buffer")
    words = buffer.formula
    assert "16-bit copy of the largest 4-bit weight matrix" in words
    assert "each layer's 4-bit weights are unpacked into it" in words and "stays allocated all step" in words
    assert buffer.phase == "whole step" and dict(buffer.inputs)["weights"] == FFN * HIDDEN
