"""torchtune's eager decoder layer and bitsandbytes' per-parameter synchronisation, counted from their source:
- torchtune (pytorch/torchtune at 1814feb17a9038e1a8053ce93111bd26774a8db6): RMSNorm in fp32 eager ops
  (torchtune/modules/rms_norm.py), RoPE on interleaved pairs in fp32 with torch.stack
  (torchtune/models/llama3_1/_position_embeddings.py), the grouped-query k/v expand copy and the output's
  .contiguous() (torchtune/modules/attention.py), SwiGLU (torchtune/modules/feed_forward.py);
  presets/efficiency.json elementwise_bytes_per_token torchtune gives the op-by-op bytes;
- bitsandbytes' Optimizer8bit.step calls torch.cuda.synchronize() after each parameter's update
  (bitsandbytes/optim/optimizer.py at tags 0.42.0-0.46.0), so the host's Python path to the next tensor's kernel is
  on the step too (13 PyTorch calls at 0.44.1); presets/host_overhead.json optimizer_syncs.
"""

from __future__ import annotations

from types import SimpleNamespace

from engine.frameworks.defaults import FRAMEWORKS
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.costs import layer_cost
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import Rates
from engine.timing.host import host_figures
from engine.timing.model import step_time
from engine.timing.offload import optimizer_sync_seconds

TOKENS, MEMORY = 8192.0, 1e12  # illustrative: a micro-batch of 2 x 4,096 tokens, 1 TB/s
RATES = Rates(1e15, 1e15, 5e14, MEMORY, 2)

# torchtune's eager ops, bytes per element read + written (bf16 activations, fp32 where the code casts)
RMSNORM = 6 + 8 + 4 + 8 + 6 + 4  # x.float(), pow, mean, * rsqrt, type_as, * scale
RESIDUALS = 2 * (2 + 2 + 2)  # two adds
OUT_CONTIGUOUS = 2 + 2  # output.transpose(1, 2).contiguous()
# RoPE per q/k element: x.float(); four half-size products, each reading its half at stride 2 (whole 32-byte sectors:
# the fp32 tensor's 4 bytes) and writing 2; the difference and the sum (2 + 2 read, 2 written); stack; type_as
ROPE = (2 + 4) + 4 * (4 + 2) + 2 * (2 + 2 + 2) + (4 + 4) + (4 + 2)
KV_EXPAND = 4  # per q + k element: k and v read at the kv width, written at the query width (2 bytes each)
SWIGLU = (2 + 2) + (2 + 2 + 2)  # silu, then the product


def _elementwise(model: str) -> tuple[float, float]:
    spec = model_spec_for(model)
    c = layer_cost(spec, False, TOKENS, 4096, 1, 1, 1, False, RATES, "fused", "torchtune", "", (), 0, 0)
    return c.elem_fwd, c.elem_bwd


def test_torchtune_is_its_own_eager_profile():
    assert framework_profile("torchtune")["elementwise"] == "torchtune"
    assert "torchtune" in FRAMEWORKS


def test_torchtune_eager_layer_bytes_for_llama_3_2_3b():
    # meta-llama/Llama-3.2-3B config.json: hidden 3,072, 24 query heads and 8 KV heads of 128, intermediate 8,192
    hidden, q, kv, ffn = 3072, 24 * 128, 8 * 128, 8192
    forward = (2 * RMSNORM + RESIDUALS + OUT_CONTIGUOUS) * hidden + (ROPE + KV_EXPAND) * (q + kv) + SWIGLU * ffn
    fwd, bwd = _elementwise("llama-3.2-3b")
    assert abs(fwd - TOKENS * forward / MEMORY) < 1e-12
    factor = efficiency()["elementwise_bytes_per_token"]["torchtune"]["backward_factor"]
    assert abs(bwd - factor * TOKENS * forward / MEMORY) < 1e-12
    # the profile's own backward factor (its counted backward over forward), not the table's 2.0 for Hugging Face's
    assert factor < efficiency()["elementwise_bytes_per_token"]["backward_factor"]


def test_kv_expand_copies_only_with_grouped_query_heads():
    # microsoft/Phi-3-mini-4k-instruct config.json: 32 query and 32 key/value heads (attention.py skips the expand
    # when num_heads == num_kv_heads)
    spec = model_spec_for("phi-3-mini")
    assert spec.q_dim == spec.kv_dim
    hidden, units = spec.hidden, spec.q_dim + spec.kv_dim
    forward = (2 * RMSNORM + RESIDUALS + OUT_CONTIGUOUS) * hidden + ROPE * units + SWIGLU * spec.ffn
    assert abs(_elementwise("phi-3-mini")[0] - TOKENS * forward / MEMORY) < 1e-12


def test_torchtune_eager_step_is_slower_than_huggingface_eager():
    s = {"model": "llama-3.2-3b", "gpu": "a100-80gb", "precision": "bf16", "micro_batch": 2, "seq_len": 4096}
    tune = step_time(scenario_from_dict({**s, "framework": "torchtune"})).breakdown_seconds["memory_bound"]
    compiled = step_time(scenario_from_dict({**s, "framework": "torchtune", "compile": True}))
    assert tune > compiled.breakdown_seconds["memory_bound"]


def _stage(layers: int, trainable: float = 1.0, params: float = 1.0) -> SimpleNamespace:
    return SimpleNamespace(layers=layers, trainable=trainable, params=params, fwd=0.0, bwd=0.0)


# bitsandbytes 0.44.1's Python path from one tensor's synchronisation to the next tensor's kernel, PyTorch calls
# counted from bitsandbytes/optim/optimizer.py Optimizer2State.update_step (p.data = p.data.contiguous(): the .data
# alias, .contiguous() and the setter; p.grad = p.grad.contiguous(): two) and bitsandbytes/functional.py
# optimizer_update_8bit_blockwise (get_ptr's A.data alias for p, g, both states, both quantile maps, both absmax)
BNB_CALLS = 3 + 2 + 8
# of which only the .data setter goes through the dispatcher (torch/csrc/autograd/python_variable.cpp
# THPVariable_set_data -> Tensor::set_data); .contiguous() on a contiguous tensor, the .data getter and the .grad setter
# stop in the Python binding (python_variable_methods.cpp THPVariable_contiguous returns self), each half a dispatched
# call (pytorch/pytorch issue #41383: of x * x's ~2 us from Python 'approx half of it is python parsing overhead')
BNB_DISPATCHED = 1
BINDING_SHARE = 0.5


def _round_trip() -> float:
    """What the GPU waits per parameter tensor: the sync's round trip, the host's Python path and the launch."""
    fig = host_figures()
    path = (BNB_DISPATCHED + BINDING_SHARE * (BNB_CALLS - BNB_DISPATCHED)) * fig["view_seconds"]["value"]
    return fig["sync_seconds"]["value"] + fig["launch_seconds"]["value"] + path


def test_bitsandbytes_python_path_splits_dispatched_and_binding_calls():
    table = host_figures()["optimizer_syncs"]
    for optimizer in ("adamw-8bit", "adamw-8bit-paged"):
        assert table["dispatcher_calls_per_parameter_tensor"][optimizer] == BNB_DISPATCHED
    assert table["binding_call_share"] == BINDING_SHARE


def test_bitsandbytes_syncs_once_per_parameter_tensor():
    s = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune",
                            "precision": "bf16", "optimizer": "adamw-8bit"})
    spec = model_spec_for("llama-3.2-3b")
    # 28 layers x (q, k, v, o, gate, up, down, two norms) + the tied embedding + the final norm
    tensors = 28 * 9 + 1 + 1
    got = optimizer_sync_seconds(s, framework_profile("torchtune"), spec, _stage(28))
    assert abs(got - tensors * _round_trip()) < 1e-12
    # torch's AdamW does not synchronise
    plain = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune",
                                "precision": "bf16", "optimizer": "adamw"})
    assert optimizer_sync_seconds(plain, framework_profile("torchtune"), spec, _stage(28)) == 0.0


def test_bitsandbytes_syncs_follow_the_trained_tensors():
    spec = model_spec_for("llama-3.2-3b")
    lora = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune",
                               "precision": "bf16", "optimizer": "adamw-8bit", "method": "lora",
                               "lora_targets": ["q_proj", "v_proj"]})
    # each adapted linear trains its A and B
    got = optimizer_sync_seconds(lora, framework_profile("torchtune"), spec, _stage(28))
    assert abs(got - 28 * 2 * 2 * _round_trip()) < 1e-12
    # DeepSpeed ZeRO-1 hands the optimizer its flat partition, one tensor per parameter group (two)
    ds = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "deepspeed",
                             "precision": "bf16", "optimizer": "adamw-8bit", "zero_stage": 1,
                             "gpus_per_node": 2})
    assert abs(optimizer_sync_seconds(ds, framework_profile("deepspeed"), spec, _stage(28)) - 2 * _round_trip()) < 1e-12


def test_bitsandbytes_syncs_only_the_adapted_layers_tensors():
    """lora_layers N (PEFT layers_to_transform, mlx-lm --num-layers): adapters exist on the top N layers only, so the
    8-bit optimizer steps (and synchronises after) A and B of the targets of those N layers, not of all 28."""
    spec = model_spec_for("llama-3.2-3b")
    top = scenario_from_dict({"model": "llama-3.2-3b", "gpu": "a100-80gb", "framework": "torchtune",
                              "precision": "bf16", "optimizer": "adamw-8bit", "method": "lora",
                              "lora_targets": ["q_proj", "v_proj"], "lora_layers": 7})
    got = optimizer_sync_seconds(top, framework_profile("torchtune"), spec, _stage(28))
    assert abs(got - 7 * 2 * 2 * _round_trip()) < 1e-12
