"""Delayed scaling's amax all-reduce per fp8_autocast region (engine/timing/delayed_amax.py), on NVIDIA/dgxc-benchmarking's
GPT-3 175B fp8 rows (tests/data/published/throughput/dgxc-benchmarking.json: TP 4 x PP 8, 25.02.02 at VP 6, 24.11.1 at
VP 12, 64 micro-batches a step at every size). Expected counts come from the sources the module names: Megatron-Core
core_v0.10.0 wraps each model chunk's TransformerBlock forward in one fp8_autocast over the amax reduction group
(tp x dp x cp ranks, parallel_state.get_amax_reduction_group), and Transformer Engine v1.13 all-reduces the region's
amaxes once at its forward exit and once in its first module's backward (fp8.py reduce_and_update_fp8_tensors,
async_op=False). Latencies are NCCL's for a few bytes (NVIDIA/nccl src/graph/tuning.cc at 5067397c lines 151, 159,
171: LL's tree 6.8 us + 2 ((ranks per node - 1) x 0.6 + log2i(nodes) x 5.0), LL's ring 6.6 + 0.6 a step)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.scenario import scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.delayed_amax import REDUCTIONS_PER_CHUNK, delayed_amax_seconds
from engine.timing.hardware import hardware_for
from engine.timing.model import step_time

GPT3 = "dgxc-{release}-fp8-tp-4-pp-8-mbs-1-vp-12-seq-2048-h100-sxm-80gb-{gpus}-gbs{gbs}"


def _row(release: str, gpus: int):
    row_id = GPT3.format(release=release, gpus=gpus, gbs=gpus * 2)
    return scenario_from_dict(next(r for r in load_rows() if r["id"] == row_id)["scenario"])


def _seconds(s) -> float:
    return delayed_amax_seconds(s, framework_profile(s.framework), hardware_for(s))


def _tree_ll_us(per_node: int, log2_nodes: int) -> float:
    return 6.8 + 2 * ((per_node - 1) * 0.6 + log2_nodes * 5.0)


def test_the_group_is_the_whole_stage_and_its_latency_grows_with_the_nodes():
    # 25.02.02 (NeMo 24.12: Transformer Engine after pull request #575, tp_only_amax_red unset): the amaxes of each of
    # the 6 chunks are reduced over tp 4 x dp ranks, consecutive in Megatron's order, 8 to a node
    small, large = _row("25.02.02-nemo-megatron", 128), _row("25.02.02-nemo-megatron", 1024)
    assert (small.dp, large.dp, small.vpp, small.tp_only_amax_red) == (4, 32, 6, False)
    calls = REDUCTIONS_PER_CHUNK * 6
    assert _seconds(small) == pytest.approx(calls * _tree_ll_us(8, 1) * 1e-6)  # 16 ranks on 2 nodes: 25.2 us
    assert _seconds(large) == pytest.approx(calls * _tree_ll_us(8, 4) * 1e-6)  # 128 ranks on 16 nodes: 55.2 us


def test_an_old_transformer_engine_reduces_over_the_tp_group_only():
    # 24.11.1 ran NeMo 24.05 (Transformer Engine bfe21c3, before #575), which honours the recipe's
    # NVTE_DP_AMAX_REDUCE_INTERVAL=0: the row sets tp_only_amax_red, so the 12 chunks' reductions stay inside the
    # 4 TP ranks of one node, LL's ring of 2 x (4 - 1) steps, 6.6 + 6 x 0.6 = 10.2 us, whatever the GPU count
    s = _row("24.11.1-nemo-megatron-24-11", 1024)
    assert (s.tp_only_amax_red, s.vpp) == (True, 12)
    assert _seconds(s) == pytest.approx(REDUCTIONS_PER_CHUNK * 12 * 10.2e-6)
    assert _seconds(_row("24.11.1-nemo-megatron-24-11", 128)) == pytest.approx(_seconds(s))
    assert _seconds(dataclasses.replace(s, tp_only_amax_red=False)) == pytest.approx(
        REDUCTIONS_PER_CHUNK * 12 * _tree_ll_us(8, 4) * 1e-6)


@pytest.mark.parametrize("change", [{"precision": "bf16"}, {"fp8_recipe": "tensorwise"}, {"fp8_recipe": "mxfp8"},
                                    {"framework": "torchtitan"}])
def test_only_delayed_scaling_under_megatron_is_charged(change: dict):
    s = dataclasses.replace(_row("25.02.02-nemo-megatron", 512), **change)
    assert _seconds(s) == 0.0


def test_the_step_carries_it_once_per_micro_batch_in_its_data_parallel_term():
    s = _row("25.02.02-nemo-megatron", 512)
    without = dataclasses.replace(s, tp=1, sequence_parallel=False, tp_only_amax_red=True)  # a group of one rank
    assert _seconds(without) == 0.0
    added = step_time(s).breakdown_seconds["communication_dp"] - step_time(
        dataclasses.replace(s, tp_only_amax_red=True)).breakdown_seconds["communication_dp"]
    # tp_only_amax_red leaves LL's ring over the 4 TP ranks (10.2 us) where the whole stage's 64 ranks take the tree
    assert added == pytest.approx(s.grad_accum * (_seconds(s) - REDUCTIONS_PER_CHUNK * 6 * 10.2e-6), rel=1e-6)
