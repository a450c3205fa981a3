"""Autocast over fp32 weights, Hugging Face's gradient accumulation and the SDPA kernel of the measured H200 runs,
counted from their source:
- torch 2.11.0 (torch/amp/autocast_mode.py autocast.__exit__ clears the weight cache when the outermost region exits;
  torch/utils/checkpoint.py recomputes inside an autocast region with the forward's settings): each micro-batch casts
  every matmul weight fp32 -> bf16 (4 read + 2 written), the recompute of a checkpointed layer casts its weights again,
  and the backward casts each trained weight's gradient bf16 -> fp32 (2 + 4); engine/timing/autocast.py;
- transformers 5.17.0 models/llama/modeling_llama.py under autocast (presets/efficiency.json
  elementwise_bytes_per_token eager-amp, op by op below);
- torch/csrc/autograd/functions/accumulate_grad.h: every micro-batch after the first adds its gradients into .grad
  (read both, write one), frameworks grad_accumulation_passes;
- aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_prefer_cudnn_attention (CUDA 13 builds: cuDNN newer
  than 9.15.0 first on sm90/sm100) with the cu130 wheel's nvidia-cudnn-cu13==9.19.0.56: the measured rows' SDPA runs
  cuDNN (engine/accuracy/measured_gpu.py SDPA_KERNEL_BY_TORCH).
"""

from __future__ import annotations

from types import SimpleNamespace

from engine.accuracy.measured_gpu import scenario_of
from engine.memory.states import dtypes_for
from engine.models.presets import model_spec_for
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.autocast import amp_elementwise_seconds, autocast_seconds
from engine.timing.costs import elementwise_bytes_per_token
from engine.timing.data import efficiency, framework_profile
from engine.timing.data_parallel import accumulation_seconds
from engine.timing.gemm import Rates

MEMORY = 1e12  # illustrative: 1 TB/s
RATES = Rates(1e15, 1e15, 5e14, MEMORY, 2)
CAST = 4 + 2  # fp32 read, bf16 written (and the reverse for a gradient)
# Llama-2-7B (meta-llama/Llama-2-7b-hf config.json): hidden 4,096, MLP 11,008, 32 layers, vocabulary 32,000
HIDDEN, FFN, LAYERS, VOCAB = 4096, 11008, 32, 32000
MATMUL_WEIGHTS = LAYERS * (4 * HIDDEN * HIDDEN + 3 * HIDDEN * FFN) + VOCAB * HIDDEN  # q, k, v, o, gate, up, down; head

# eager-amp, bytes per element read + written (fp32 residual stream, bf16 matmul outputs)
NORM_FP32 = (4 + 4) + 4 + (4 + 4) + (4 + 4)  # pow, mean, * rsqrt, * weight (the .to() calls are no-ops)
ADD_MIXED = 4 + 2 + 4  # fp32 residual + bf16 branch -> fp32
INPUT_CASTS = 5 * (4 + 2)  # q_proj, k_proj, v_proj, gate_proj, up_proj each cast the fp32 norm output
ROPE_FP32_TABLES = (2 + 4) + (1 + 1) + (2 + 2) + (2 + 4) + (4 + 4 + 4) + (4 + 2)  # q*cos, neg, cat, *sin, sum, SDPA cast


def _scenario(**keys):
    base = {"model": "llama-2-7b", "gpu": "h200", "precision": "amp-bf16", "micro_batch": 1, "seq_len": 2048}
    return scenario_from_dict({**base, **keys})


def _stage(s):
    spec = resolve_model(s)
    return SimpleNamespace(trainable=float(spec.total_params), params=float(spec.total_params), layers=spec.layers)


def _weights_seconds(s):
    spec, prof, dt = resolve_model(s), framework_profile(s.framework), dtypes_for(s)
    return autocast_seconds(s, spec, prof, RATES, dt, _stage(s)) - amp_elementwise_seconds(s, spec, prof, RATES,
                                                                                            _stage(s))


def test_the_eager_amp_row_is_the_counted_ops():
    row = efficiency()["elementwise_bytes_per_token"]["eager-amp"]
    assert row["hidden"] == 2 * NORM_FP32 + 2 * ADD_MIXED + INPUT_CASTS
    assert row["qk"] == ROPE_FP32_TABLES and row["qkv"] == 0


def test_each_micro_batch_casts_the_weights_forward_and_their_gradients_back():
    assert MATMUL_WEIGHTS == sum(lin.params for lin in model_spec_for("llama-2-7b").layer_linears(False)) * LAYERS + \
        VOCAB * HIDDEN
    one = _weights_seconds(_scenario())
    assert abs(one - 2 * CAST * MATMUL_WEIGHTS / MEMORY) < 1e-9
    assert abs(_weights_seconds(_scenario(grad_accum=4)) - 4 * one) < 1e-9
    # full checkpointing: the decoder layers' weights are cast again in the recompute (the head is not checkpointed)
    ckpt = _weights_seconds(_scenario(checkpointing="full"))
    assert abs(ckpt - one - CAST * (MATMUL_WEIGHTS - VOCAB * HIDDEN) / MEMORY) < 1e-9
    # LoRA: the frozen base weights are cast forward, no gradient comes back for them
    assert abs(_weights_seconds(_scenario(method="lora")) - one / 2) < 1e-9


def test_no_casts_where_the_weights_are_16_bit_at_the_matmul():
    for keys in ({"precision": "bf16"}, {"precision": "mixed-bf16"}, {"fsdp": True, "gpus_per_node": 8},
                 {"zero_stage": 1, "gpus_per_node": 8}, {"framework": "megatron"}, {"framework": "torchtune"}):
        s = _scenario(**keys)
        spec, prof = resolve_model(s), framework_profile(s.framework)
        assert autocast_seconds(s, spec, prof, RATES, dtypes_for(s), _stage(s)) == 0.0, keys


def test_the_fp32_residual_stream_adds_its_bytes_over_the_eager_row():
    spec = model_spec_for("llama-2-7b")
    table = efficiency()["elementwise_bytes_per_token"]
    amp = elementwise_bytes_per_token(spec, False, 1, False, table["eager-amp"])
    eager = elementwise_bytes_per_token(spec, False, 1, False, table["eager"])
    assert amp == 106 * HIDDEN + 36 * 2 * HIDDEN + 10 * FFN  # q and k rotated (multi-head: k as wide as q)
    # eager: the q, k and v transposes (8 per unit) and the rotary embedding on q and k (20 per unit, efficiency.json)
    assert eager == 84 * HIDDEN + 8 * 3 * HIDDEN + 20 * 2 * HIDDEN + 10 * FFN
    s = _scenario()
    seconds = amp_elementwise_seconds(s, spec, framework_profile("huggingface"), RATES, _stage(s))
    assert abs(seconds - (1 + table["backward_factor"]) * (amp - eager) * 2048 * LAYERS / MEMORY) < 1e-9


def test_hugging_face_adds_each_later_micro_batch_into_the_kept_gradients():
    s = _scenario(grad_accum=4)
    stage = _stage(s)
    seconds = accumulation_seconds(s, framework_profile("huggingface"), RATES, dtypes_for(s), stage)
    assert abs(seconds - 3 * 3 * 4 * stage.trainable / MEMORY) < 1e-9  # 3 later micro-batches, 3 passes of fp32


def test_the_measured_torch_build_runs_cudnn_attention_for_sdpa_cases():
    env = {"torch": "2.11.0+cu130"}
    sdpa = {"id": "x", "scenario": {"model": "llama-2-7b", "attention": "sdpa"}}
    eager = {"id": "y", "scenario": {"model": "llama-2-7b", "attention": "eager"}}
    assert scenario_of(sdpa, "h200", env)["attention_kernel"] == "cudnn"
    assert "attention_kernel" not in scenario_of(eager, "h200", env)
    assert "attention_kernel" not in scenario_of(sdpa, "h200", {"torch": "2.4.0+cu121"})
