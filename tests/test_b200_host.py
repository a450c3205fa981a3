"""The DGX B200 / B300 hosts keep the preset's launch and Python-call figures (presets/host_overhead.json host_speed
has no factor for them), and why the published rows cannot supply one.

No source found measures a launch or a PyTorch call on those hosts (searched: TransformerEngine issues #2053, #2498,
#2897, pytorch issue #187862, meta-pytorch/tritonbench pull requests #1016/#1017, Megatron-Bridge's MoE docs and
skills; every per-call figure is from an H100 DGX, a desktop or a Grace system). NVIDIA's DGX B200 user guide
(docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html) gives its host as 2 x Intel Xeon 8570, 56 cores
each, 2.1/4 GHz base/max boost, against the DGX H100's 2 x Xeon Platinum 8480C, 56 cores, 2.0/3.8 GHz
(vengineer.hatenablog.com/entry/2024/06/25/080000 compares the two datasheets), the host
issue #2053 measured at 13.48 us per torch.nn.Linear forward: a newer core of the same family at a higher clock, so
the Grace factor (1.54, Megatron-LM's CI on GB200 against DGX H100) has no reason to carry over; Megatron-LM's CI has no
DGX B200 runs. A factor could only be read off the published B200 rows whose
gap it would close: the dense rows' host work hides behind the GPU whatever its speed (below), so only the MoE rows
with a host synchronisation per layer move, and choosing a factor from them would be a fit to those rows
(benchmarks/host_speed_sensitivity.py prints what a trial factor does, cross-validated)."""

from __future__ import annotations

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.scenario import scenario_from_dict
from engine.scenario.memo import memo_tables
from engine.timing.host import host_call_seconds, host_figures
from engine.timing.model import step_time

# Published rows (tests/data/published/throughput.json and part files): NVIDIA NeMo 25.02's DGX-B200 pre-training
# table (eager, no CUDA graphs; each row's own source in the file) and Megatron-Bridge 26.02's Qwen3-30B-A3B on 8
# B200 at micro-batch 1 with the all-to-all dispatcher (performance-summary-archive.mdx at 067f987d), +81% fast.
DENSE = ("nemo-25.02-llama3-8b-dgx-b200-fp8-8", "nemo-25.02-llama3-70b-dgx-b200-fp8-64",
         "nemo-25.02-gpt3-175b-dgx-b200-fp8-512")
MOE_MBS1 = "megatron-bridge-26.02-qwen3_30b_a3b-dgx-b200-mxfp8-8"
TRIAL = 2.0  # a trial factor, not a figure: about what the MoE rows' gap would need (h-a2adisp)


@pytest.fixture
def fresh_stage_times():
    """Stage times are memoised per scenario (engine/timing/model.py STAGE_TIME_MEMO), not per host factor: start
    and end with empty tables so that no time computed under the trial factor outlives the test."""
    for table in memo_tables():
        table.clear()
    yield
    for table in memo_tables():
        table.clear()


def _rows() -> dict[str, dict]:
    return {r["id"]: r for r in load_rows() if r["id"] in (*DENSE, MOE_MBS1)}


def _step_seconds(row: dict) -> float:
    return step_time(scenario_from_dict(row["scenario"])).step_seconds


def test_dgx_b200_and_b300_hosts_have_no_factor():
    factor = host_figures()["host_speed"]["factor"]
    assert not {"b200", "b200-750w", "b300"} & set(factor)
    source = host_figures()["host_speed"]["_source"]
    assert "8570" in source and "dgxb200-user-guide" in source  # the host named, with where it is stated


def test_a_slower_b200_host_moves_only_the_moe_rows_with_a_sync(fresh_stage_times, monkeypatch: pytest.MonkeyPatch):
    rows = _rows()
    assert set(rows) == {*DENSE, MOE_MBS1}
    before = {rid: _step_seconds(r) for rid, r in rows.items()}
    dense_before = {rid: step_time(scenario_from_dict(rows[rid]["scenario"])).breakdown_seconds for rid in DENSE}
    monkeypatch.setitem(host_figures()["host_speed"]["factor"], "b200", TRIAL)
    for table in memo_tables():
        table.clear()
    s = scenario_from_dict(rows[MOE_MBS1]["scenario"])
    fig = host_figures()
    assert host_call_seconds(s) == pytest.approx((fig["launch_seconds"]["value"] * TRIAL,
                                                  fig["view_seconds"]["value"] * TRIAL))
    after = {rid: _step_seconds(r) for rid, r in rows.items()}
    for rid in DENSE:  # the host runs ahead of these layers' GPU work at either speed
        # but not of the optimizer step's fp8 weight cast: these rows keep fp8 primary weights (NeMo 25.02's
        # bf16_with_fp8_mixed sets fp8_params), whose per-weight host calls run on an idle GPU after the grad-norm
        # round trip (engine/timing/fp8_param_cast.py): the step grows by at most that term's growth (less where the
        # MFU ceiling holds the step), a few milliseconds of a seconds-long step
        terms = step_time(scenario_from_dict(rows[rid]["scenario"])).breakdown_seconds
        added = terms["optimizer"] - dense_before[rid]["optimizer"]
        assert 0 < after[rid] - before[rid] <= added * (1 + 1e-9)
        assert added < 1e-3 * before[rid]
    assert after[MOE_MBS1] > before[MOE_MBS1] * 1.1  # after each dispatcher sync the GPU waits for the host
