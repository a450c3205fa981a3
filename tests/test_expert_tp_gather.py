"""An MoE layer's tensor-parallel pair and all-to-all share under Megatron-Core (engine/timing/expert_tp_gather.py):
the all-to-all dispatcher sends a rank's s / tp tokens and all-gathers the received top_k copies over the experts'
TP group (NVIDIA/Megatron-LM core_v0.10.0 megatron/core/transformer/moe/token_dispatcher.py lines 51, 508-509,
560-561), so etp = tp costs top_k dense pairs and etp = 1 none; arXiv:2504.14960 Table 3 measured the order."""

import json
from pathlib import Path

from engine.models.architecture import ModelSpec
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.expert_tp_gather import dispatched_share, moe_pair_units

PART = Path(__file__).parent / "data" / "published" / "throughput" / "moe-parallel-folding-2025.json"


def _row(rid: str) -> dict:
    return next(r for r in json.loads(PART.read_text(encoding="utf-8"))["rows"] if r["id"] == rid)


def _scenario(rid: str, **changes):
    return scenario_from_dict({**_row(rid)["scenario"], **changes})


def _spec(s) -> ModelSpec:
    return resolve_model(s)


def test_the_dispatcher_pair_is_top_k_dense_pairs_with_etp_tp_and_none_with_etp_1():
    mcore = _scenario("moefold-qwen2-mcore-64gpus-gbs256")  # TP 2, EP 4, etp unset (Megatron: = tp), top-8
    fold = _scenario("moefold-qwen2-fold-64gpus-gbs256")  # the same with etp 1
    assert _spec(mcore).top_k == 8  # Qwen2-57B-A14B num_experts_per_tok
    assert moe_pair_units(mcore, _spec(mcore)) == 8.0  # top_k (etp - 1) / (tp - 1) = 8 x 1 / 1
    assert moe_pair_units(fold, _spec(fold)) == 0.0
    assert dispatched_share(mcore) == dispatched_share(fold) == 0.5  # each TP rank sends its s / 2 tokens
    # the all-gather dispatcher gathers hidden states over TP x EP before routing: one dense pair, the whole batch
    gather = _scenario("moefold-qwen2-mcore-64gpus-gbs256", moe_token_dispatcher_type="allgather")
    assert moe_pair_units(gather, _spec(gather)) == 1.0 and dispatched_share(gather) == 1.0


def test_frameworks_without_megatron_arguments_keep_one_dense_pair():
    s = _scenario("moefold-qwen2-mcore-64gpus-gbs256", framework="torchtitan", etp=0)
    assert moe_pair_units(s, _spec(s)) == 1.0 and dispatched_share(s) == 1.0


def test_folding_is_faster_than_the_same_layout_with_expert_tp_as_table_3_measured():
    for mcore, fold in (("moefold-qwen2-mcore-64gpus-gbs256", "moefold-qwen2-fold-64gpus-gbs256"),
                        ("moefold-qwen2-mcore-1024gpus-gbs1024", "moefold-qwen2-fold-1024gpus-gbs1024")):
        assert _row(fold)["measured"] > _row(mcore)["measured"]  # 39.0% > 35.3% MFU; 33.4% > 29.8%
        t_mcore = step_time(_scenario(mcore)).tokens_per_second_per_gpu
        t_fold = step_time(_scenario(fold)).tokens_per_second_per_gpu
        assert t_fold > t_mcore, (mcore, t_mcore, t_fold)
