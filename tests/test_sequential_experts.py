"""Megatron-Core's MoE layer without grouped GEMM (engine/timing/sequential_experts.py): the row counts follow the
kernels of NVIDIA/Megatron-LM core_v0.6.0 SequentialMLP and MoEAllGatherTokenDispatcher and PyTorch's autograd
nodes, as that module's docstring lists them."""

import json
from pathlib import Path

from engine.scenario import KEY_SPECS, resolve_model, scenario_from_dict
from engine.timing.data import efficiency
from engine.timing.expert_costs import permutation_bytes
from engine.timing.layer_settings import expert_gemms, moe_dispatch
from engine.timing.model import step_time
from engine.timing.sequential_experts import (
    SEQUENTIAL,
    sequential_loop_bytes,
    sequential_loop_extra_bytes,
    sequential_loop_rows,
)

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
    # FlagPerf's Qwen1.5-MoE (8 experts, top-2, hidden 2,048, bf16): Transformer Engine's fused permute and unpermute
    # move 2 + 2 x 2 rows each way (moe_token_permutation megatron no_expert_parallel)
    row = json.loads(ROWS.read_text(encoding="utf-8"))["rows"][0]
    spec = resolve_model(scenario_from_dict(row["scenario"]))
    fwd, bwd = sequential_loop_extra_bytes(spec, 2)
    rows_fwd, rows_bwd = sequential_loop_rows(spec.top_k, spec.n_experts)
    assert fwd == (rows_fwd - 6) * spec.hidden * 2 and bwd == (rows_bwd - 6) * spec.hidden * 2
    assert bwd > 4 * fwd > 0  # the per-expert autograd copies are backward work


def _flagperf(**changes) -> tuple:
    row = json.loads(ROWS.read_text(encoding="utf-8"))["rows"][0]
    s = scenario_from_dict({**row["scenario"], **changes})
    return s, resolve_model(s)


def test_the_key_defaults_to_grouped_gemm_and_the_flagperf_rows_turn_it_off():
    # default true: TEGroupedMLP, as NVIDIA's recipes set it, so no row that does not name the key moves; FlagPerf's
    # megatron_pai_main.sh sets no --moe-grouped-gemm (Megatron-LM ba773259 arguments.py: store_true, default False)
    assert KEY_SPECS["moe_grouped_gemm"].default is True
    rows = json.loads(ROWS.read_text(encoding="utf-8"))["rows"]
    assert [r["scenario"]["moe_grouped_gemm"] for r in rows] == [False, False]


def test_without_grouped_gemm_megatron_runs_one_expert_at_a_time():
    # frameworks megatron expert_gemm_streams 4 (TE's multi-stream GroupedLinear); SequentialMLP: 1 stream;
    # torchtitan's one grouped kernel (no expert_gemm_streams) has no such switch and stays at 0
    megatron = efficiency()["frameworks"]["megatron"]
    grouped, _ = _flagperf(moe_grouped_gemm=True)
    sequential, _ = _flagperf(moe_grouped_gemm=False)
    assert expert_gemms(grouped, megatron)["expert_streams"] == megatron["expert_gemm_streams"]
    assert expert_gemms(sequential, megatron)["expert_streams"] == 1
    titan = efficiency()["frameworks"]["torchtitan"]
    assert expert_gemms(sequential, titan)["expert_streams"] == 0


def test_without_grouped_gemm_at_ep_1_the_permutation_is_the_sequential_loop():
    megatron = efficiency()["frameworks"]["megatron"]
    s, spec = _flagperf(moe_grouped_gemm=False)
    assert moe_dispatch(s, megatron, 8)["permutation"] == SEQUENTIAL
    # with grouped GEMM: the generic passes, as before
    assert moe_dispatch(_flagperf(moe_grouped_gemm=True)[0], megatron, 8)["permutation"] == ""
    # the allgather dispatcher's inventory is EP 1's: at EP > 1 the generic passes stay
    assert moe_dispatch(_flagperf(moe_grouped_gemm=False, ep=2)[0], megatron, 8)["permutation"] == ""
    fwd_rows, bwd_rows = sequential_loop_rows(spec.top_k, spec.n_experts)
    row = spec.hidden * 2
    assert permutation_bytes(spec, 1, SEQUENTIAL, "allgather", 1, 2) == (fwd_rows * row, bwd_rows * row)
    assert sequential_loop_bytes(spec, 2, 2) == tuple(r * row for r in sequential_loop_rows(spec.top_k, 4))


def test_flagperf_step_grows_in_its_expert_gemms_and_element_wise_work():
    # the same row with and without grouped GEMM: the loop's element-wise traffic lengthens the memory-bound term
    # (StepTime.seconds[1]) and, with the experts' GEMMs one at a time, the step (lower MFU; both figures are the
    # engine's own, the FlagPerf row's MFU ceiling applied alike)
    grouped = step_time(_flagperf(moe_grouped_gemm=True)[0])
    sequential = step_time(_flagperf(moe_grouped_gemm=False)[0])
    assert sequential.seconds[1] > grouped.seconds[1]
    assert sequential.mfu < grouped.mfu
