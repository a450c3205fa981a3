"""NVIDIA's own Megatron-LM example scripts imported and estimated (h-mcorescript): the flags that set a tensor's
dtype or the model's shape reach the plan."""

from __future__ import annotations

from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.configs import export_config, import_texts
from engine.models.presets import model_spec_for

DATA = Path(__file__).parent / "data" / "configs" / "megatron"
# NVIDIA/Megatron-LM@d98e8a64 examples/llama/train_llama3_8b_h100_fp8.sh (tests/data/configs/megatron/SOURCES)
LLAMA3_FP8 = (DATA / "train_llama3_8b_h100_fp8.sh").read_text()
SHAPE = ("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 "
         "--num-attention-heads 32 --group-query-attention --num-query-groups 8 --kv-channels 128 --seq-length 8192 "
         "--max-position-embeddings 8192 --position-embedding-type rope --swiglu --untie-embeddings-and-output-weights "
         "--disable-bias-linear --vocab-size 128256 --micro-batch-size 1 --global-batch-size 8 ")


def _imported(text: str) -> dict:
    return import_texts([("train.sh", text)]).scenario


def _component(s: dict, key: str):
    return next(c for c in estimate(scenario_from_dict(s)).stages[0].components if c.key == key)


def test_grad_reduce_in_bf16_makes_the_gradient_buffer_bf16() -> None:
    # Megatron-LM@d98e8a64 megatron/training/arguments.py lines 1213-1214: under --bf16, --grad-reduce-in-bf16 sets
    # accumulate_allreduce_grads_in_fp32 False; training.py line 2635 passes it as DDP's grad_reduce_in_fp32;
    # core/distributed/param_and_grad_buffer.py line 924: grad_dtype = torch.float if grad_reduce_in_fp32 else
    # param.dtype, so main_grad is a bf16 buffer of every parameter
    scenario = _imported(LLAMA3_FP8)
    assert scenario["main_grads_fp32"] is False
    grads = _component(scenario, "gradients")
    assert grads.moments.forward == model_spec_for("llama-3-8b").total_params * 2
    # without the flag the same script keeps the fp32 buffer (arguments.py lines 1215-1216 set it for bf16)
    plain = _imported(LLAMA3_FP8.replace("--grad-reduce-in-bf16", ""))
    assert "main_grads_fp32" not in plain
    assert _component(plain, "gradients").moments.forward == 2 * grads.moments.forward


def test_fp16_gradient_buffer_is_fp16_unless_accumulated_in_fp32() -> None:
    # arguments.py at d98e8a64: only the `if args.bf16:` branch (lines 1204-1216) turns
    # accumulate_allreduce_grads_in_fp32 on; under --fp16 it stays the flag's default False (line 3069), so DDP's
    # grad_reduce_in_fp32 is False and the main_grad buffer is fp16 (param_and_grad_buffer.py line 924)
    fp16 = _imported(SHAPE + "--fp16")
    assert fp16["main_grads_fp32"] is False
    assert _component(fp16, "gradients").moments.forward == model_spec_for("llama-3-8b").total_params * 2
    assert "main_grads_fp32" not in _imported(SHAPE + "--fp16 --accumulate-allreduce-grads-in-fp32")


def test_llama3_shape_is_the_preset_whatever_the_norm() -> None:
    # the script at d98e8a64 has --normalization RMSNorm with --apply-layernorm-1p (zero-centred gamma: the same
    # tensors); before NVIDIA/Megatron-LM b6e883bc59 ("Add missing RMSNorm to llama train script") it had Megatron's
    # default LayerNorm. Both are Llama 3 8B's shape (config.json: 32 x 4096, 14336, 8 KV heads, vocab 128256)
    assert _imported(LLAMA3_FP8)["model"] == "llama-3-8b"
    result = import_texts([("train.sh", SHAPE + "--bf16 --apply-layernorm-1p")])
    assert result.scenario["model"] == "llama-3-8b"
    # the norm that differs is said where the match is given
    why = [str(a.why) for a in result.assumed if a.key == "model"]
    assert len(why) == 1 and "LayerNorm (--apply-layernorm-1p)" in why[0] and "RMSNorm" in why[0]
    # a GELU MLP stays not modelled
    assert "model" not in _imported(SHAPE.replace("--swiglu ", "") + "--bf16")


def test_fp8_layer_activations_are_transformer_engines_saved_tensors() -> None:
    # per token of one layer, hidden h = 4096, 32 heads (Transformer Engine d0067d0d, Megatron-LM d98e8a64):
    # LayerNormLinear (module/layernorm_linear.py lines 526-536) keeps its bf16 input 2h, the fp8 norm output 1h and
    # rsigma (fp32, 4 bytes); the fused attention keeps q, k, v (h + h/4 + h/4, bf16: 3h), its bf16 output 2h and
    # fp32 softmax statistics per head (4 x 32); Linear keeps the proj's fp8 input 1h; the MLP's LayerNormLinear
    # 2h + 1h + 4; bias_swiglu keeps fc1's bf16 output (2 x 3.5h x 2 bytes = 14h); fc2's fp8 input 3.5h
    h, heads, tokens = 4096, 32, 8192
    per_token = (2 + 1 + 3 + 2 + 1 + 2 + 1 + 14 + 3.5) * h + 4 * heads + 4 + 4
    activations = _component(_imported(LLAMA3_FP8), "activations")
    assert dict(activations.inputs)["per_layer_bytes"] == per_token * tokens


def test_export_states_the_gradient_buffer_it_planned() -> None:
    # the launch flags that give the planned main_grad dtype (arguments.py lines 1204-1216, 3069), read back the same
    base = {"model": "llama-3-8b", "framework": "megatron", "gpus_per_node": 8, "seq_len": 4096}
    bf16 = export_config(scenario_from_dict({**base, "precision": "mixed-bf16", "main_grads_fp32": False}), "megatron")
    assert "--grad-reduce-in-bf16" in bf16 and _imported(bf16)["main_grads_fp32"] is False
    fp16 = export_config(scenario_from_dict({**base, "precision": "mixed-fp16"}), "megatron")  # planned: fp32 buffer
    assert "--accumulate-allreduce-grads-in-fp32" in fp16 and "main_grads_fp32" not in _imported(fp16)
