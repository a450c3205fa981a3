"""bitsandbytes' 4-bit linear layers in a QLoRA step (engine/timing/bnb_4bit.py, presets/bnb_4bit.json).

Every count here is read from the bitsandbytes 0.50.2 wheel on PyPI (bitsandbytes-0.50.2-py3-none-manylinux_2_24_x86_64,
the release validation/gpu_measure.py ran) and peft 0.21.0:
- backends/cuda/ops.py _dequant_linear_fallback (the CUDA gemm_4bit kernel above M = 1536 tokens, or where
  _gemm_4bit_use_custom_cuda says no): _dequantize_blockwise_impl(absmax_8bit -> fp32: 1 byte read, 4 written per
  block), absmax_dq + absmax_offset (4 read, 4 written), torch.empty(shapeB) and _dequantize_4bit_impl (the packed
  weight, bits/8 a value, and the fp32 absmax, 4 a block, read; the compute dtype written), then F.linear.
- autograd/_functions.py MatMul4Bit.backward: torch.matmul(grad_output, F.dequantize_4bit(B, ctx.state)), and
  functional.py dequantize_4bit: dequantize_blockwise, absmax += offset, torch.ops.bitsandbytes.dequantize_4bit.
- nn/modules.py Params4bit: blocksize 64; functional.py quantize_4bit: the absmax's own blocks of 256.
- peft tuners/lora/bnb.py Linear4bit.forward: result = result.clone() after the base layer.
Host figures are the preset's: 9.02 us a launch (minimind pull request #837), 3.52 us a call (FlagGems pull request
#4561), half of it for a binding-only call (pytorch issue #41383), 4.7 us an autograd.Function apply (pytorch issue
#189573, the H200 host's comment)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.bnb_4bit import dequant_bytes_per_weight, linear4bit_host_seconds, quant_base
from engine.timing.costs import layer_cost
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.host import LayerWork, exposed_host_seconds, host_call_seconds, host_figures
from engine.timing.lora_adapters import adapter_host_seconds, adapters_of
from engine.timing.model import rates_for, step_time

DENSE_LAYER = (False, False, "")  # (moe, linear_attn, block) of a transformer's dense layer
LAUNCH, CALL, SHARE, APPLY = 9.02e-6, 3.52e-6, 0.5, 4.7e-6
BLOCK = 64  # Params4bit.__new__: blocksize = 64
# the measured QLoRA shape (validation/gpu_measure.py first_batch: torchtune's published QLoRA run)
QLORA = {"model": "llama-2-7b", "gpu": "h200", "method": "qlora", "precision": "bf16", "micro_batch": 2,
         "seq_len": 512, "checkpointing": "full", "lora_rank": 8, "lora_targets": ["q_proj", "v_proj"],
         "qlora_bits": 4, "qlora_double_quant": True}


def _s(**keys: object):
    return scenario_from_dict({**QLORA, **keys})


def test_one_dequantisation_moves_the_kernels_bytes():
    """NF4 into bf16 with double quantisation: 0.5 + 2 bytes a value, and per block of 64 the uint8 absmax read and
    its fp32 written (1 + 4), the offset add (4 + 4) and the 4-bit kernel's fp32 absmax read (4)."""
    q = quant_base(_s())
    assert q.linear4bit and q.double_quant
    assert dequant_bytes_per_weight(q, 2) == pytest.approx(0.5 + 2 + (1 + 4 + 4 + 4 + 4) / BLOCK)
    plain = quant_base(_s(qlora_double_quant=False))
    assert dequant_bytes_per_weight(plain, 2) == pytest.approx(0.5 + 2 + 4 / BLOCK)


def test_other_kernels_keep_the_generic_count():
    """torchtune's NF4Tensor (torchao), Unsloth's fused kernels and 8-bit bases are not bitsandbytes' Linear4bit:
    the packed read and the compute-dtype write only, as before."""
    for keys in ({"framework": "torchtune"}, {"framework": "unsloth"}, {"qlora_bits": 8}):
        q = quant_base(_s(**keys))
        assert not q.linear4bit
        assert dequant_bytes_per_weight(q, 2) == q.bits / 8 + 2
    assert quant_base(_s(method="lora")) is None


def test_litgpt_runs_bitsandbytes_linear4bit():
    """Lightning Fabric's bitsandbytes plugin quantises LitGPT's layers into bitsandbytes' Linear4bit (LitGPT's own
    LoRA sits on them: no PEFT wrapper and no clone, lora_adapters.py adapter_path)."""
    assert quant_base(_s(framework="litgpt")).linear4bit


def test_the_layer_dequantises_its_linear_weights():
    """LayerCost.dequant: the layer's nn.Linear weights times the bytes of one dequantisation at the memory rate
    (PEFT's clone of the adapted outputs is the adapters' own: lora_adapters.py, tests/test_lora_adapter_time.py)."""
    s = _s()
    spec = resolve_model(s)
    q = quant_base(s)
    tokens = 2 * 512
    args = (spec, False, tokens, 512, 1, 1, 1, False)
    hw = hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))  # the rates the step uses
    lora = adapters_of(s, spec, DENSE_LAYER, hw, rates)  # q_proj and v_proj, 4096 wide
    with_q = layer_cost(*args, rates, "fused", "eager", "", lora, 8, q)
    without = layer_cost(*args, rates, "fused", "eager", "", lora, 8, None)
    params = spec.linear_params(False)
    assert with_q.dequant == pytest.approx(params * (0.5 + 2 + 17 / BLOCK) / rates.memory)
    assert without.dequant == 0.0
    assert with_q.elem_fwd == without.elem_fwd and with_q.elem_bwd == without.elem_bwd


def test_host_work_per_call_is_the_counted_path():
    """Forward of one Linear4bit beyond nn.Linear's: 3 launches, 7 dispatcher calls, 1 binding-only call, 4 calls
    through Params4bit.__torch_function__, MatMul4Bit.apply (PEFT's clone launch is the adapters').
    Backward: 3 launches, 6 dispatcher calls, 1 binding-only, 2 __torch_function__, the Python backward itself."""
    s = _s()
    launch, call = host_call_seconds(s)
    assert (launch, call) == (LAUNCH, CALL)  # the DGX host (factor 1)
    fwd, bwd = linear4bit_host_seconds(s, DENSE_LAYER, launch, call, CALL, SHARE)
    per_fwd = 3 * LAUNCH + 7 * CALL + SHARE * CALL + 4 * CALL + APPLY
    per_bwd = 3 * LAUNCH + 6 * CALL + SHARE * CALL + 2 * CALL + CALL
    assert fwd == pytest.approx(7 * per_fwd)  # q, k, v, o, gate, up, down
    assert bwd == pytest.approx(7 * per_bwd)
    plain_fwd, plain_bwd = linear4bit_host_seconds(_s(qlora_double_quant=False), DENSE_LAYER, launch, call, CALL, SHARE)
    assert plain_fwd == pytest.approx(7 * (LAUNCH + 6 * CALL + 4 * CALL + APPLY))
    assert plain_bwd == pytest.approx(7 * (LAUNCH + 3 * CALL + 2 * CALL + CALL))
    assert linear4bit_host_seconds(_s(framework="torchtune"), DENSE_LAYER, launch, call, CALL, SHARE) == (0.0, 0.0)


def test_host_work_reaches_the_exposed_host_time_with_its_recompute():
    """With (almost) no GPU work to hide behind, the 4-bit linears' host seconds show in full: forward, its
    recompute under full checkpointing, and backward, per layer."""
    layers = 32
    work = (LayerWork(layers, False, 1e-12, 1e-12, True),)
    qlora, lora = _s(), _s(method="lora")
    fig = host_figures()
    fwd, bwd = linear4bit_host_seconds(qlora, DENSE_LAYER, LAUNCH, CALL, CALL, fig["optimizer_syncs"]["binding_call_share"])
    extra = exposed_host_seconds(qlora, False, work, 0.0) - exposed_host_seconds(lora, False, work, 0.0)
    # and PEFT's 4-bit LoRA layer's own path (its clone) against its 16-bit one (lora_adapters.py)
    (q_fwd, q_bwd), (l_fwd, l_bwd) = (adapter_host_seconds(x, DENSE_LAYER, LAUNCH, CALL) for x in (qlora, lora))
    adapters = 2 * (q_fwd - l_fwd) + q_bwd - l_bwd
    assert extra == pytest.approx(layers * (2 * fwd + bwd + adapters), rel=1e-6)


def test_a_qlora_step_is_slower_than_the_same_lora_step():
    """Same shape: the QLoRA step adds its dequantisations (three per weight under full checkpointing)."""
    assert step_time(_s()).step_seconds > step_time(_s(method="lora")).step_seconds
