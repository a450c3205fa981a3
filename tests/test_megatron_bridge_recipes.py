"""Megatron-Bridge's published runs carry the settings of the performance recipe of their release.

Expected values come from the recipes in NVIDIA-NeMo/Megatron-Bridge at the tag each NeMo container ships
(docs/releases/software-versions.md at 067f987d: 25.09 = 0.1.0rc3, 25.11 = 0.2.0, 26.02 = 0.3.0, 26.04 = 0.4.0,
26.06 = 0.5.0; known-issues.md: 26.02.01 = r0.3.1), named in each test.
"""

import re

import pytest

from engine.accuracy.published_throughput import Compared, layout_order, load_rows, source_of
from engine.scenario.time_keys import CUDA_GRAPH_SCOPES

BRIDGE = "NVIDIA-NeMo/Megatron-Bridge"


def _rows() -> dict[str, dict]:
    return {r["id"]: r for r in load_rows() if source_of(r) == BRIDGE}


def test_recipe_settings_name_their_file_and_commit():
    read = [r for r in _rows().values() if "Recipe settings from" in r.get("notes", "")]
    assert len(read) >= 150  # 25.09 to 26.08: every row whose layout and batch match a recipe of its release
    for r in read:
        note = r["notes"].split("Recipe settings from", 1)[1]
        assert re.search(r"(scripts/performance|src/megatron/bridge/perf_recipes)/\S+ at v\d", note), r["id"]
        assert re.search(r"\([0-9a-f]{8}", note), r["id"]  # the tag's commit
        assert r["scenario"]["cuda_graphs"] in CUDA_GRAPH_SCOPES, r["id"]


@pytest.mark.parametrize(("row", "expected"), [
    # scripts/performance/configs/qwen/qwen3_workload_base_configs.py at v0.5.0 (fcbb6031),
    # QWEN3_30B_A3B_PRETRAIN_CONFIG_GB200_FP8_MX_V1: cuda_graph_impl='full_iteration', moe_a2a_overlap=True, hybridep
    ("megatron-bridge-26.06-pretraining-qwen3_30b_a3b-dgx-gb200-mxfp8-8",
     {"cuda_graphs": "full-iteration", "moe_a2a_overlap": True, "moe_token_dispatcher_type": "flex"}),
    # scripts/performance/configs/qwen3/workload_base_configs.py at v0.2.0 (7af9601c), QWEN3_30B_A3B_B200_FP8_MX:
    # graphs of the router and token preprocessing only (cuda_graphs 'moe-router'), no flex backend (and
    # src/megatron/bridge/training/flex_dispatcher_backend.py at v0.2.0 applies HybridEP on GB200/GB300 only)
    ("megatron-bridge-25.11-qwen3_30b_a3b-dgx-b200-fp8-mx-8",
     {"cuda_graphs": "moe-router", "moe_token_dispatcher_type": "alltoall", "micro_batch": 1}),
    # the same model on B200 at v0.3.1 (9c9dd848), QWEN3_30B_A3B_PRETRAIN_CONFIG_B200_FP8_MX_V1: attention and router
    # graphs, HybridEP, micro-batch 4
    ("megatron-bridge-26.02.01-qwen3_30b_a3b-dgx-b200-mxfp8-8",
     {"cuda_graphs": "attention", "moe_token_dispatcher_type": "flex", "micro_batch": 4}),
    # scripts/performance/configs/deepseek/deepseek_workload_base_configs.py at v0.4.0 (0fbfe7d3),
    # DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V1: recompute_modules=['mlp']
    ("megatron-bridge-26.04-deepseekv3-dgx-gb200-mxfp8-256", {"recompute_modules": ["mlp"]}),
    # scripts/performance/configs/llama3/llama3_8b_llm_pretrain.yaml at v0.1.0rc3: gb200 cuda_graphs true
    # (enable_cuda_graph: Megatron-Core 0.14's per-layer graphs)
    ("megatron-bridge-25.09-llama3_8b-dgx-gb200-fp8-cs-8", {"cuda_graphs": "layers"}),
])
def test_rows_carry_their_releases_recipe(row, expected):
    scenario = _rows()[row]["scenario"]
    assert {k: scenario.get(k) for k in expected} == expected


def test_per_layer_graph_runs_had_no_expandable_segments():
    # cuda_graphs 'layers' in Megatron-Bridge's rows is 25.09's enable_cuda_graph: Megatron-Core 0.14's local
    # CudaGraphManager, whose __init__ asserts 'expandable_segments:True' is not in PYTORCH_CUDA_ALLOC_CONF
    # (NVIDIA/Megatron-LM megatron/core/transformer/cuda_graphs.py at core_v0.14.0), so no such run had it on
    graphed = [r for r in _rows().values() if r["scenario"].get("cuda_graphs") == "layers"]
    # Llama 3 8B (GB200, B200) and Qwen3-30B-A3B and Qwen3-235B-A22B token drop (GB200), fp8-cs and fp8-mx
    assert len(graphed) == 8
    assert all(r["scenario"]["expandable_segments"] is False for r in graphed)


def _compared(run_id: str, measured: float, predicted: float) -> Compared:
    return Compared(run_id, "Megatron-Bridge", "b200", measured, predicted, source=BRIDGE)


def _row(run_id: str, **settings) -> dict:
    scenario = {"name": run_id, "model": "llama-3-8b", "gpu": "b200", "gpus_per_node": 8, "nodes": 1,
                "seq_len": 8192, "precision": "fp8", **settings}
    return {"id": run_id, "source": f"{BRIDGE} docs at 0", "scenario": scenario}


def test_pairs_predicted_equal_are_ties_not_orderings():
    # two releases of one layout that differ in a key the time model does not read get one prediction: neither
    # order is the prediction's, so the pair is a tie, not a hit or a miss by the rows' order in the file
    rows = [_row("a", cuda_graphs="none"), _row("b")]
    tied = layout_order(rows, [_compared("a", 100.0, 90.0), _compared("b", 110.0, 90.0)])
    assert (tied.pairs, tied.agree, tied.ties) == (0, 0, 1)
    assert tied.share == 0.5  # the prediction does not order it: half, as a coin flip would
    apart = layout_order(rows, [_compared("a", 100.0, 90.0), _compared("b", 110.0, 95.0)])
    assert (apart.pairs, apart.agree, apart.ties) == (1, 1, 0)


def test_same_table_pairs_are_one_release_of_their_source():
    """layout_order(same_table=True) keeps the source's own ablations: two runs of one release's table (Megatron-Bridge's
    performance summary names its container, "25.11 NeMo container"), not a run of 25.11 against one of 26.02, which
    also differ in the release's kernels (engine/accuracy/source_tables.py)."""
    def in_release(run_id: str, release: str, **settings) -> dict:
        return {**_row(run_id, **settings), "source": f"{BRIDGE} docs at 0, {release} NeMo container"}

    rows = [in_release("a", "25.11", tp=1), in_release("b", "25.11", tp=2), in_release("c", "26.02", tp=4)]
    compared = [_compared("a", 100.0, 90.0), _compared("b", 110.0, 95.0), _compared("c", 120.0, 80.0)]
    every, own = layout_order(rows, compared), layout_order(rows, compared, same_table=True)
    assert (every.pairs, every.agree) == (3, 1)  # a-b ordered; a-c and b-c mis-ordered
    assert (own.pairs, own.agree) == (1, 1)  # only a-b, both of 25.11
