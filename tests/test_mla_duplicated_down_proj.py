"""MLA's down projections in training under tensor parallelism, per framework (FrameworkDefaults.mla_down_proj).

Megatron-Core's TE spec builds linear_q_down_proj and linear_kv_down_proj as TELinear with parallel_mode 'duplicated'
(NVIDIA/Megatron-LM at core_v0.14.0 megatron/core/transformer/multi_latent_attention.py lines 367-435, at 24bad8e6
lines 525-601): whole on every TP rank, multiplying the rank's 1/tp of the sequence under sequence parallelism
(_qkv_down_projection: q_compressed [s / TP, b, q_lora_rank]); TELinear gives the weights the 'sequence_parallel'
attribute (extensions/transformer_engine.py core_v0.14.0 lines 370-378) that finalize_model_grads.py sums over TP once
a step (_allreduce_non_tensor_model_parallel_grads, lines 298-350). torchtitan at b5bcd76c (models/deepseek_v3/
sharding.py lines 79-133) keeps wq_a and wkv_a Replicate on the attention input gathered to the whole sequence.
The up projections (kv_b, q_b: column-parallel in both) and the rest stay split.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.caches import clear_caches
from engine.frameworks import defaults
from engine.memory.states import dtypes_for, layer_groups, stage_params
from engine.models.layer_shapes import MLA_DOWN_PROJECTIONS
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.weights import MLA_REPLICATED_LINEARS
from engine.timing.costs import layer_cost, weight_cast_seconds
from engine.timing.data import framework_profile
from engine.timing.duplicated_grads import duplicated_grad_bytes
from engine.timing.hardware import hardware_for
from engine.timing.mla_down import rank_shape
from engine.timing.model import rates_for

# DeepSeek-V3's config.json: hidden 7168, q_lora_rank 1536, kv_lora_rank 512 + qk_rope_head_dim 64
DOWN_PARAMS = 7168 * 1536 + 7168 * (512 + 64)
# its router: 256 experts x hidden 7168 in each of the 58 MoE layers of 61 (first_k_dense_replace 3), whole on every TP
# rank and marked sequence_parallel (megatron/core/transformer/moe/router.py at core_v0.14.0 line 63)
ROUTER_PARAMS_PER_LAYER = 256 * 7168 * 58 / 61
SCENARIO = {"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8, "framework": "megatron",
            "precision": "bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "tp": 2, "pp": 8, "ep": 4, "etp": 1,
            "sequence_parallel": True, "zero_stage": 1}


@pytest.fixture
def split_everywhere(monkeypatch: pytest.MonkeyPatch):
    """The scenario's framework row with its down projections split by TP (the estimate before this mechanism)."""
    def split(framework: str) -> None:
        monkeypatch.setitem(defaults.TABLE, framework, replace(defaults.TABLE[framework], mla_down_proj=""))
        clear_caches()
    yield split
    clear_caches()


def _first_stage_trainable(s) -> float:  # noqa: ANN001
    spec = resolve_model(s)
    layers = range(0, spec.layers // s.pp)
    return stage_params(s, spec, layers, True, False, list(layer_groups(s, spec, layers))).trainable_dense


def test_the_serving_list_is_the_training_list() -> None:
    assert MLA_REPLICATED_LINEARS is MLA_DOWN_PROJECTIONS  # declared once (engine/models/layer_shapes.py)


@pytest.mark.parametrize("framework", ["megatron", "torchtitan", "nemo-rl-megatron"])
def test_each_tp_rank_holds_the_down_projections_whole(framework: str, split_everywhere) -> None:  # noqa: ANN001
    s = scenario_from_dict({**SCENARIO, "framework": framework, "zero_stage": 0})
    whole = _first_stage_trainable(s)
    split_everywhere(framework)
    split = _first_stage_trainable(s)
    layers = resolve_model(s).layers // s.pp
    # what the other TP rank's half of each layer's q_a_proj and kv_a_proj_with_mqa adds to this rank
    assert whole - split == pytest.approx(layers * DOWN_PARAMS * (1 - 1 / s.tp))


def test_hugging_face_keeps_splitting_them() -> None:
    # transformers' tp plans differ by version: DeepseekV2Config's 4.x base_model_tp_plan shards q_a_proj colwise;
    # later plans leave q_a_proj out (replicated) and give kv_a_proj_with_mqa a style of its own ('mla_kv_a_proj').
    # No version is pinned for the huggingface row, so it states no fact and the estimate keeps them split
    assert defaults.defaults_for("huggingface").mla_down_proj == ""


def _gemm_flops(s, mla_down: str) -> float:  # noqa: ANN001
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    tokens = s.micro_batch * s.seq_len
    return layer_cost(spec, True, tokens, s.seq_len, s.tp, s.ep, 1, s.sequence_parallel, rates_for(s, hw, prof),
                      "fused", "fused", "", (), 0, None, mla_down=mla_down).gemm_flops_fwd


def test_duplicated_down_projections_multiply_the_ranks_own_tokens_under_sp() -> None:
    s = scenario_from_dict(SCENARIO)
    # under SP each rank multiplies its 1/tp of the tokens by the whole weight: the FLOPs of a 1/tp split
    assert _gemm_flops(s, "duplicated") == pytest.approx(_gemm_flops(s, ""))


@pytest.mark.parametrize("mla_down,sp", [("duplicated", False), ("replicated", True)])
def test_down_projections_over_the_whole_sequence(mla_down: str, sp: bool) -> None:
    s = scenario_from_dict({**SCENARIO, "sequence_parallel": sp})
    tokens = s.micro_batch * s.seq_len
    # Megatron without SP, torchtitan always: every rank multiplies all tokens by the whole weight, tp x a split's
    extra = 2.0 * tokens * DOWN_PARAMS * (1 - 1 / s.tp)
    assert _gemm_flops(s, mla_down) - _gemm_flops(s, "") == pytest.approx(extra)


def test_megatron_sums_their_gradients_over_tp_once_a_step_under_sp() -> None:
    s = scenario_from_dict(SCENARIO)
    spec, prof, dt = resolve_model(s), framework_profile(s.framework), dtypes_for(s)
    # Megatron's main gradients: fp32 (--accumulate-allreduce-grads-in-fp32 with bf16, engine/timing/grad_reduce.py)
    assert duplicated_grad_bytes(s, spec, prof, dt, 8) == pytest.approx(8 * (DOWN_PARAMS + ROUTER_PARAMS_PER_LAYER) * 4)
    no_sp = scenario_from_dict({**SCENARIO, "sequence_parallel": False})
    assert duplicated_grad_bytes(no_sp, spec, prof, dt, 8) == 0.0  # every rank's gradient is already whole
    torchtitan = scenario_from_dict({**SCENARIO, "framework": "torchtitan"})
    assert duplicated_grad_bytes(torchtitan, spec, framework_profile("torchtitan"), dt, 8) == 0.0


@pytest.mark.parametrize("mla_down,sp,rows_share", [("duplicated", True, 1 / 8), ("duplicated", False, 1.0),
                                                    ("replicated", True, 1.0)])
def test_the_rank_shape_of_a_kept_whole_down_projection(mla_down: str, sp: bool, rows_share: float) -> None:
    """The shape each rank multiplies (forward, dgrad, and the 16-bit wgrad of high_precision_wgrad.py alike):
    Megatron's own 1/tp of the sequence under SP, the whole sequence without SP and in torchtitan; the up projection
    stays column-parallel (TELayerNormColumnParallelLinear / colwise), its output split."""
    spec = resolve_model(scenario_from_dict(SCENARIO))
    by_name = {lin.name: lin for lin in spec.layer_linears(True)}
    rows, d_in, d_out, whole = rank_shape(by_name["kv_a_proj_with_mqa"], 4096.0, 8, sp, mla_down)
    assert (rows, d_in, d_out, whole) == (4096 * rows_share, 7168, 512 + 64, True)
    up = rank_shape(by_name["kv_b_proj"], 4096.0, 8, sp, mla_down)
    assert up == (4096.0, 512, 128 * (128 + 128) / 8, False)  # 128 heads of nope 128 + v 128, split 8 ways


def test_an_fp8_recipe_casts_the_whole_weights() -> None:
    """Transformer Engine's Linear quantizes the weight it holds: a duplicated TELinear its whole weight."""
    spec = resolve_model(scenario_from_dict(SCENARIO))
    cast = {"weight_forward": 1.0, "weight_backward": 0.0}  # one byte written a weight element; rate 1 byte/s
    whole = weight_cast_seconds(spec, False, 8, 1, cast, 1.0, mla_down="duplicated")[0]
    split = weight_cast_seconds(spec, False, 8, 1, cast, 1.0)[0]
    assert whole - split == pytest.approx(DOWN_PARAMS * (1 - 1 / 8))


def test_frozen_down_projections_have_no_gradients_to_sum() -> None:
    """finalize_model_grads' _allreduce_non_tensor_model_parallel_grads (core_v0.14.0 lines 298-350) collects the
    parameters with requires_grad: a LoRA plan's frozen base down projections and routers are not summed (its adapters'
    few values left out), a plan freezing the bottom 30 of DeepSeek-V3's 61 layers sums the 31 trained layers' share."""
    s = scenario_from_dict({**SCENARIO, "method": "lora"})
    spec, prof, dt = resolve_model(s), framework_profile(s.framework), dtypes_for(s)
    assert duplicated_grad_bytes(s, spec, prof, dt, 8) == 0.0
    freeze = scenario_from_dict({**SCENARIO, "method": "freeze", "frozen_layers": 30})
    assert duplicated_grad_bytes(freeze, spec, prof, dtypes_for(freeze), 8) == pytest.approx(
        8 * (DOWN_PARAMS + ROUTER_PARAMS_PER_LAYER) * 4 * 31 / 61)


def test_megatron_sums_a_moe_routers_gradients_over_tp_under_sp_without_mla() -> None:
    """Megatron-Core's Router marks its whole [experts, hidden] weight sequence_parallel (router.py at core_v0.14.0
    line 63), so finalize_model_grads sums it over TP with SP on a model without MLA too: Qwen3-30B-A3B's 128 x 2048
    router in each of its 48 layers, fp32 main gradients; a dense model has nothing to sum (norms left out)."""
    moe = scenario_from_dict({**SCENARIO, "model": "qwen3-30b-a3b", "pp": 1, "nodes": 1, "ep": 4})
    spec, prof, dt = resolve_model(moe), framework_profile(moe.framework), dtypes_for(moe)
    assert duplicated_grad_bytes(moe, spec, prof, dt, 48) == 48 * 128 * 2048 * 4
    dense = scenario_from_dict({**SCENARIO, "model": "llama-3.1-8b", "pp": 1, "nodes": 1, "ep": 1})
    assert duplicated_grad_bytes(dense, resolve_model(dense), prof, dtypes_for(dense), 32) == 0.0
