"""Megatron-Core's MoE layer without grouped GEMM (engine/timing/sequential_experts.py): the row counts follow the
kernels of NVIDIA/Megatron-LM core_v0.6.0 SequentialMLP and MoEAllGatherTokenDispatcher and PyTorch's autograd
nodes, as that module's docstring lists them."""

import json
from pathlib import Path

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.sequential_experts import sequential_loop_extra_bytes, sequential_loop_rows

ROWS = Path(__file__).parent / "data" / "published" / "throughput" / "flagperf-qwen1.5-moe.json"


def test_each_more_expert_adds_three_whole_gradient_passes_per_copy():
    # one expert more: CopySlices copies the whole output gradient (read + write: 2 rows per copy), SliceBackward
    # zero-fills a whole input gradient (1), the input buffer sums one more whole gradient (read 2, write 1: 3)
    fwd8, bwd8 = sequential_loop_rows(2, 8)
    fwd9, bwd9 = sequential_loop_rows(2, 9)
    assert fwd9 == fwd8  # the forward's copies cover each routed row once, however it is split
    assert bwd9 - bwd8 == (2 + 1 + 3) * 2


def test_one_expert_has_no_gradient_sum():
    _, bwd1 = sequential_loop_rows(2, 1)
    _, bwd2 = sequential_loop_rows(2, 2)
    assert bwd2 - bwd1 == (2 + 1 + 3) * 2


def test_flagperf_layer_moves_far_more_than_the_fused_permutation():
    # FlagPerf's Qwen1.5-MoE (8 experts, top-2, hidden 2,048, bf16): the model counts 2 + 2 x 2 rows each way
    row = json.loads(ROWS.read_text(encoding="utf-8"))["rows"][0]
    spec = resolve_model(scenario_from_dict(row["scenario"]))
    fwd, bwd = sequential_loop_extra_bytes(spec, 2)
    rows_fwd, rows_bwd = sequential_loop_rows(spec.top_k, spec.n_experts)
    assert fwd == (rows_fwd - 6) * spec.hidden * 2 and bwd == (rows_bwd - 6) * spec.hidden * 2
    assert bwd > 4 * fwd > 0  # the per-expert autograd copies are backward work
