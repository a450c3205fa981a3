"""Aleph Alpha's two fused kernels as scenario keys (issue 23 item 4): rms_norm_kernel fused (flash-attn's rms_norm in
place of a framework's eager PyTorch RMSNorm) and eager_softmax aleph-alpha-2023 (arXiv:2311.05610's 'fused' masked
softmax, no torch fallback). Each expected figure is counted from the code presets/efficiency.json names beside it."""

from __future__ import annotations

import json
from pathlib import Path

from engine import scenario_from_dict
from engine.memory.activations import layer_terms
from engine.memory.detailed import act_context
from engine.memory.states import dtypes_for
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.attention import eager_softmax_bytes, softmax_fused
from engine.timing.costs import layer_cost
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for

ROWS = Path(__file__).resolve().parent / "data" / "published" / "throughput" / "hagemann-2023-layouts.json"


def _row(trial: int) -> dict:
    return next(r for r in json.loads(ROWS.read_text(encoding="utf-8"))["rows"] if r["reported"]["trial"] == trial)


def _scenario(gpu: str, **keys):
    """Llama 13B of Aleph Alpha's sweep (trial 132178, the abstract's best run: TP 1, PP 1, micro-batch 1) on `gpu`."""
    sc = dict(_row(132178)["scenario"], gpu=gpu, **keys)
    return scenario_from_dict(sc)


def _layer(s, kernel: str):
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    tokens = s.micro_batch * s.seq_len
    c = layer_cost(spec, False, tokens, s.seq_len, s.tp, 1, 1, s.sequence_parallel, rates, "fused", "aleph-alpha-scaling",
                   "", (), 0, None, rms_norm_kernel=kernel)
    return c, spec, rates, tokens


def test_the_fused_norm_replaces_the_eager_norms_bytes_by_the_kernels():
    """On a GPU without a measured eager-norm rate (h100-sxm-80gb: Liger-Kernel ran its RMSNorm benchmark on the H100
    NVL and PCIe parts only) both norms stream at the element-wise rate, so the difference is the bytes alone: the
    profile's eager norms (hidden_norm 72 per hidden unit forward: two norms of x.float(), pow, mean, x * rsqrt,
    type_as and the weight's product, 36 each; the backward the row's backward_factor times that) against
    flash-attn's rms_norm (read x, write z forward; read dz and x, write dx backward: ln_api.cpp at c92ca632), two
    per layer, in bf16."""
    s = _scenario("h100-sxm-80gb")
    eager, spec, rates, tokens = _layer(s, "auto")
    fused = _layer(s, "fused")[0]
    row = efficiency()["elementwise_bytes_per_token"]["aleph-alpha-scaling"]
    assert row["hidden_norm"] == 72 and rates.elem_bytes == 2
    assert not dict(rates.eager_ops).get("rms_norm")  # no measured table: the element-wise rate
    h, factor = spec.hidden, row["backward_factor"]
    eager_fwd, eager_bwd = 72 * h, factor * 72 * h
    kernel_fwd, kernel_bwd = 2 * 2 * 2 * h, 2 * 3 * 2 * h  # norms x elements x bytes
    assert abs((eager.elem_fwd - fused.elem_fwd) * rates.memory / tokens - (eager_fwd - kernel_fwd)) < 1e-6 * h
    assert abs((eager.elem_bwd - fused.elem_bwd) * rates.memory / tokens - (eager_bwd - kernel_bwd)) < 1e-6 * h
    assert fused.gemm_fwd == eager.gemm_fwd and fused.attn_fwd == eager.attn_fwd  # only the norm moves


def test_the_fused_norm_also_leaves_the_eager_norms_measured_rate_behind():
    """On the A100 80GB the eager norm streams at Liger-Kernel's measured fraction of peak (eager_ops.py), below the
    element-wise rate: the fused kernel saves more than the bytes there."""
    s = _scenario("a100-80gb")
    eager, spec, rates, tokens = _layer(s, "auto")
    fused = _layer(s, "fused")[0]
    assert dict(rates.eager_ops).get("rms_norm")
    saved_by_bytes = (72 - 8) * spec.hidden * tokens / rates.memory
    assert eager.elem_fwd - fused.elem_fwd > saved_by_bytes


def test_the_fused_norm_key_leaves_fused_layers_alone():
    """A profile whose own norm is fused (no eager part in its row: the 'fused' row of compiled runs, Megatron's
    Transformer Engine layers) costs the same with the key on: the key names a kernel in place of an eager norm."""
    sc = dict(_row(132178)["scenario"], framework="megatron", zero_stage=1)
    s = scenario_from_dict(sc)
    assert step_time(s).step_seconds == step_time(s.replace(rms_norm_kernel="fused")).step_seconds


def test_the_fused_norm_keeps_its_input_only():
    """flash-attn's DropoutAddLayerNormFn saves the input itself (xmat is x0 with no residual and no dropout) and one
    fp32 rsigma per row; the eager norm keeps x.float() (4 bytes) and the normalised bf16 output for the weight's
    gradient (2): 6 -> 2 bytes per hidden unit per norm."""
    s = _scenario("a100-80gb")
    spec = resolve_model(s)
    terms = {}
    for kernel in ("auto", "fused"):
        sk = s.replace(rms_norm_kernel=kernel)
        terms[kernel] = dict(layer_terms(act_context(sk, spec, dtypes_for(sk)), spec, False, True, True, frozenset()))
    n = s.micro_batch * s.seq_len * spec.hidden
    assert terms["auto"]["attention norm: fp32 input kept by RMSNorm"] == 4 * n
    assert terms["fused"]["attention norm: input kept by the fused RMSNorm"] == 2 * n
    norms = lambda t: sum(b for k, b in t.items() if "norm:" in k)  # noqa: E731
    assert norms(terms["auto"]) - norms(terms["fused"]) == 2 * (4 + 2 - 2) * n


def test_aleph_alphas_softmax_never_falls_back():
    """The 2023 code stops a run its kernel does not take ('Kernel not available' in the sheets: 30B's 52 heads at
    micro-batch x heads per rank 13 or 26), so every run with a time ran the kernel: its bytes at any shape, Megatron's
    scaled_masked_softmax reading the bf16 scores and the uint8 mask and writing the probabilities (5), the backward
    reading the gradient and the probabilities and writing one (6)."""
    table = efficiency()["eager_attention_softmax"]["aleph-alpha-2023"]
    assert table["rule"] == "no_fallback"
    assert (table["fused"]["forward"], table["fused"]["backward"]) == (2 + 1 + 2, 2 + 2 + 2)
    for heads, batch in ((13, 1), (26, 1), (52, 1), (20, 2)):
        assert softmax_fused("no_fallback", heads, batch, 2048)
        assert eager_softmax_bytes("aleph-alpha-2023", heads, batch, 2048) == (5.0, 6.0)


def test_aleph_alphas_fused_rows_run_faster_than_their_torch_rows():
    """The sheets' 'fused' and 'torch' runs of one layout (13B, 64 GPUs, TP 2, PP 2, micro-batch 1, no checkpointing:
    trials 97701 and 97685) measured 43.36 s and 49.35 s; the fused softmax moves fewer bytes than the generic eager
    figure the torch rows take (16 forward, 32 backward), so the model orders them the same way."""
    fused, torch = _row(97701), _row(97685)
    assert fused["reported"]["average_step_time_s"] < torch["reported"]["average_step_time_s"]
    assert step_time(scenario_from_dict(fused["scenario"])).step_seconds < step_time(
        scenario_from_dict(torch["scenario"])).step_seconds
