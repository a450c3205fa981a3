"""Tensor parallelism splits the output projections along their input (row-parallel), the others along their output.

Megatron-Core's RowParallelLinear (NVIDIA/Megatron-LM megatron/core/tensor_parallel/layers.py, RowParallelLinear
.__init__: 'Divide the weight matrix along the last dimension', input_size_per_partition = divide(input_size,
world_size), weight of shape (output_size, input_size_per_partition)) holds the attention's linear_proj and the MLP's
linear_fc2; BigScience's Megatron-DeepSpeed (megatron/mpu/layers.py) has the same class for its dense and
dense_4h_to_h. torchtitan's TP plan (torchtitan/models/llama3/infra/parallelize.py apply_tp: "attention.wo":
rowwise_parallel(output_layouts=Shard(1)), "feed_forward.w2": rowwise_parallel(...), w1 / w3 / wq / wk / wv
colwise_parallel()) splits the same two. So at TP 8 a BLOOM-style o_proj (h 13,824) on 2,048 tokens is the GEMM
2,048 x 1,728 x 13,824 on each rank, not 2,048 x 13,824 x 1,728.
"""

from __future__ import annotations

from engine import scenario_from_dict
from engine.models.layer_shapes import Linear
from engine.scenario import resolve_model
from engine.timing.costs import layer_cost
from engine.timing.gemm import Rates, gemm_seconds

# BigScience's 02-20 shape (train/tr11-176B-ml/chronicles-prequel.md, 'tile and wave quantization': NHIDDEN 13824,
# 80 layers, 64 heads) in a GPT-2 config, as tests/data/published/throughput rows state it
BLOOM_13824 = {"name": "BLOOM-style GPT h13824", "hf_config": {
    "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 13824, "n_layer": 80, "n_head": 64,
    "n_positions": 2048, "n_inner": 55296, "vocab_size": 250880, "activation_function": "gelu_new"}}


def test_output_projections_split_their_input() -> None:
    # the widths of the module docstring's example: h 13,824, TP 8
    h, tp = 13824, 8
    assert Linear("o_proj", h, h, "attn").split(tp) == (h / tp, h)
    assert Linear("down_proj", 4 * h, h, "mlp").split(tp) == (4 * h / tp, h)
    assert Linear("qkv_proj", h, 3 * h, "attn").split(tp) == (h, 3 * h / tp)
    assert Linear("up_proj", h, 4 * h, "mlp").split(tp) == (h, 4 * h / tp)
    assert Linear("gate", h, 64, "router").split(tp) == (h, 64)  # the router is not split


def test_layer_cost_times_the_row_parallel_shape() -> None:
    # A100: 108 SMs (presets/efficiency.json gemm_waves); at TP 8 the o_proj's output-split shape has 16 x 7 = 112
    # tiles of 128 x 256 (two waves for 1.04), the input-split one 16 x 54 = 864 (eight whole waves)
    rates = Rates(gemm=271e12, linear=271e12, attention=187e12, memory=1.73e12, elem_bytes=2, sms=108)
    spec = resolve_model(scenario_from_dict({"model": BLOOM_13824, "gpu": "a100-80gb"}))
    tokens, tp = 2048.0, 8
    cost = layer_cost(spec, False, tokens, 2048, tp, 1, 1, False, rates, "fused", "fused", "", (), 0, 0)
    expected = sum(gemm_seconds(tokens, *lin.split(tp), rates.linear, rates.memory, 2, 108)
                   for lin in spec.layer_linears(False))
    wrong = sum(gemm_seconds(tokens, lin.d_in, lin.d_out / tp, rates.linear, rates.memory, 2, 108)
                for lin in spec.layer_linears(False))
    assert cost.gemm_fwd == expected
    assert cost.gemm_fwd < wrong  # the output-split o_proj and down_proj lose half a wave's rate each
    o_proj = Linear("o_proj", 13824, 13824, "attn")
    assert gemm_seconds(tokens, *o_proj.split(tp), 271e12, 1.73e12, 2, 108) * 1.9 < gemm_seconds(
        tokens, 13824, 13824 / tp, 271e12, 1.73e12, 2, 108)
