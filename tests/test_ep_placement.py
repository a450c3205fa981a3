"""Where an expert-parallel group's ranks sit (engine/timing/links.py ep_ranks): its ep ranks lie expert_tp apart
over expert_tp x ep consecutive GPUs. Megatron-Core builds the experts' grid apart from the dense grid (MoE parallel
folding, NVIDIA/Megatron-LM 7f22e210, in core 0.10.0; megatron/core/parallel_state.py at 24bad8e6 lines 871-896:
RankGenerator(tp=expert_tensor_parallel_size, ep=expert_model_parallel_size, dp=expert-dp, pp, cp=1,
order='tp-cp-ep-dp-pp'), expert_tensor_parallel_size defaulting to tensor_model_parallel_size), so context
parallelism and the dense TP beyond etp fold into the EP group instead of stretching it tp x cp apart."""

from __future__ import annotations

from engine.models.presets import model_spec_for
from engine.scenario import Scenario, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.expert_shards import sharded_trainable
from engine.timing.hardware import hardware_for
from engine.timing.layer_settings import moe_dispatch
from engine.timing.links import dispatch_seconds, ep_local_ranks, ep_ranks, nvlink_domain


def _megatron(**keys: object) -> Scenario:
    base = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron",
            "moe_token_dispatcher_type": "alltoall"}
    return scenario_from_dict({**base, **keys})


def test_expert_tp_one_keeps_an_ep8_group_on_one_node():
    # Moonlight-16B's recipe (Megatron-Bridge 600d069b moonlight_16b_pretrain_8gpu_h100_bf16_config): TP 2, EP 8,
    # expert TP 1 on 8 GPUs; the expert grid's 'ep' groups are ranks 0..7 (tp=1 innermost, then ep)
    s = _megatron(nodes=1, tp=2, ep=8, etp=1)
    assert ep_ranks(s) == (8, 1)
    assert ep_local_ranks(s, nvlink_domain(s, hardware_for(s))) == 8
    assert moe_dispatch(s, framework_profile("megatron"), 8)["ep_domains"] == 1


def test_context_parallel_ranks_fold_into_the_ep_group():
    # NeMo 25.02's Mixtral 8x22B on DGX-B200 (TP 2, CP 8, EP 8, etp unset = tp): each EP group spans 2 x 8 = 16
    # consecutive ranks, 4 of them per 8-GPU node (tp x cp x ep = 128 ranks before the folding)
    s = _megatron(nodes=32, tp=2, cp=8, ep=8, pp=4)
    assert ep_ranks(s) == (16, 2)
    assert ep_local_ranks(s, 8) == 4


def test_all_to_all_inside_the_node_crosses_no_nic():
    # the same EP 8 group, laid out in one node or (expert TP 2) across two: only the second sends through the NIC,
    # (ep - local) / ep of the top_k copies at the network's bandwidth (links.dispatch_seconds)
    inside, across = _megatron(nodes=1, tp=2, ep=8, etp=1), _megatron(nodes=2, tp=2, ep=8, etp=2)
    spec, hw = model_spec_for("qwen3-30b-a3b"), hardware_for(inside)
    token_bytes = 4096 * spec.hidden * 2
    copies = token_bytes * spec.top_k
    assert dispatch_seconds(token_bytes, spec, inside, hw) == copies * 7 / 8 / hw.intra_bytes_per_s
    assert dispatch_seconds(token_bytes, spec, across, hw) == (
        copies * 3 / 8 / hw.intra_bytes_per_s + copies * 4 / 8 / hw.inter_bytes_per_s)


class _Stage:
    def __init__(self, trainable: float, trainable_expert: float) -> None:
        self.trainable, self.trainable_expert = trainable, trainable_expert


def test_experts_step_over_the_expert_data_parallel_ranks():
    # Megatron-Core's second (expert) distributed optimizer shards over intra_expt_dp_group (megatron/core/optimizer/
    # __init__.py at 24bad8e6 lines 1207-1241), tp x dp x cp / (ep x etp) ranks: 8 / (8 x 1) = 1 for Moonlight's
    # recipe, so the rank steps all its experts; the dense parameters shard over dp = 4
    s = _megatron(nodes=1, tp=2, ep=8, etp=1, zero_stage=1)
    assert sharded_trainable(s, _Stage(3.0, 2.0)) == 1.0 / 4 + 2.0
    # EP 8 (etp = tp = 1) on 16 GPUs: two expert data-parallel ranks, sixteen dense ones
    s = _megatron(nodes=2, ep=8, zero_stage=1)
    assert sharded_trainable(s, _Stage(3.0, 2.0)) == 1.0 / 16 + 2.0 / 2
    # without ZeRO every rank steps all it holds
    assert sharded_trainable(_megatron(nodes=1, tp=2, ep=8, etp=1), _Stage(3.0, 2.0)) == 3.0
