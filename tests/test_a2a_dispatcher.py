"""Megatron-Core's all-to-all token dispatcher (MoEAlltoAllTokenDispatcher, dropless), counted step by step in
benchmarks/a2a_dispatcher.py from NVIDIA/Megatron-LM megatron/core/transformer/moe/token_dispatcher.py and moe_utils.py
at 0d8e0714 (Megatron-Bridge v0.2.0's Megatron-Core, the 25.11 container) and b0cc2706 (v0.3.0, 26.02), with
Transformer Engine's fused permutation (transformer_engine/pytorch/permutation.py at v2.9 and v2.11), held against
what the time model's presets say of the same code."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from engine.timing.data import efficiency
from engine.timing.host import host_figures

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("a2a_dispatcher", ROOT / "benchmarks" / "a2a_dispatcher.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_host_sync_per_layer_forward_none_backward():
    # token_dispatcher.py at 0d8e0714: dropless with EP > 1, preprocess moves cuda_sync_point to
    # 'before_ep_alltoall' (line 572) and _maybe_dtoh_and_synchronize waits on d2h_event there (line 907); the
    # backward's all-to-alls reuse the host splits _AllToAll saved in ctx (tensor_parallel/mappings.py), and TE's fused
    # permute / sort / unpermute kernels take their sizes from the device (permutation.py: no .item(), .tolist()).
    fused = _bench().totals(fused=True)
    assert fused["forward"]["syncs"] == host_figures()["syncs"]["moe_forward"] == 1
    assert fused["backward"]["syncs"] == 0


def test_unfused_permute_adds_two_syncs():
    # moe_utils.py at 0d8e0714 lines 297 and 300: the unfused dropless permute runs token_indices.masked_select and
    # probs.T.contiguous().masked_select, each sizing its output from the device (a host sync); the dispatcher's own
    # sync stays at 'before_ep_alltoall' (the earlier of it and 'before_permutation_2', priorities 1 < 2)
    assert _bench().totals(fused=False)["forward"]["syncs"] == 3


def test_permutation_rows_match_the_kernel_by_kernel_preset():
    # permute: the token read once, written to each routed copy; sort_chunks_by_idxs twice over the received copies
    # (read + write); unpermute: each copy read, the token written; the backward runs the mirror kernels
    # (TE _moe_permute_mask_map.backward, _moe_chunk_sort.backward, _moe_unpermute_mask_map.backward)
    entry = efficiency()["moe_token_permutation"]["megatron"]["alltoall"]
    for way, rows in _bench().totals(fused=True).items():
        assert {"tokens": rows["token_rows"], "copies": rows["copy_rows"]} == entry[way]


def test_collectives_per_layer():
    # forward: the all-gather of token counts over TP x EP (token_dispatcher.py 546-552), the dispatch all-to-all of
    # the rows and of the probabilities (674-679), the combine all-to-all; backward: the three all-to-alls again
    t = _bench().totals(fused=True)
    assert (t["forward"]["small"], t["forward"]["tokens"]) == (2, 2)
    assert (t["backward"]["small"], t["backward"]["tokens"]) == (1, 2)


def test_every_step_names_its_source():
    for step in _bench().STEPS:
        assert step.way in ("forward", "backward") and step.source
        assert step.fused >= 0 and step.unfused >= 0


def test_the_host_stacks_are_a_lower_bound_of_the_dispatcher():
    # presets/host_overhead.json stacks.fused: the dispatcher's launches are the moe_router's preprocess (7) and the
    # moe_experts part less the experts' own fc1, SwiGLU, fc2 and the residual (11 - 4); the count from source is
    # larger (TE's fused permute is 4 Triton launches, each sort 2, the probabilities have their own all-to-all):
    # the stacks' launches are a lower bound (their _source says so), 14 of 25 forward, 11 x 9.02 us = 0.1 ms a layer
    stacks = json.loads((ROOT / "presets" / "host_overhead.json").read_text())["stacks"]["fused"]
    counted = 7 + stacks["moe_experts"][0] - 4
    assert counted <= _bench().totals(fused=True)["forward"]["launches"]


def test_token_drop_runs_of_25_09_use_the_all_to_all_dispatcher():
    # NVIDIA-NeMo/Megatron-Bridge scripts/performance/run_script.py at v0.1.0rc3 (bf71eba0): every Qwen3-30B-A3B run
    # is built with 'recipe.model = apply_moe_token_drop(recipe.model)', and src/megatron/bridge/training/utils/
    # moe_token_drop.py asserts moe_token_dispatcher_type in ('alltoall', 'alltoall_seq'): 'moe_expert_capacity_factor
    # only works with alltoall token dispatcher'
    from engine.accuracy.published_throughput import load_rows

    rows = {r["id"]: r for r in load_rows()}
    row = rows["megatron-bridge-25.09-qwen3_30b_a3b-dgx-b200-fp8-cs-8-tokendrop"]
    assert row["scenario"]["moe_token_dispatcher_type"] == "alltoall"
    assert "apply_moe_token_drop" in row["notes"]
