"""Issue 23 item 5: Fastest layouts on famous published runs (benchmarks/famous_runs.py).

Expected values are the runs' measured tokens/s per GPU, rows of the published set (tests/data/published/): NVIDIA's
DGX Cloud recipes (NVIDIA/dgxc-benchmarking READMEs, dgxc-benchmarking.json) and Megatron-Bridge's performance tables
(megatron-bridge-*.json), each row with its source there.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from famous_runs import FAMOUS, ceiling_of, famous_figures  # noqa: E402

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.planning.speed_search import speed_search  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402

# The famous runs whose first plan came within 10% of the measurement when this test was written (h-famous):
# first-plan-predicted / published-measured 1.086, 1.065, 1.046 and 1.029. The others are beyond it for reasons
# docs/time-model-notes.md gives (Meta's runs modelled without interleaving; 2021's SC21
# runs recomputed every layer, which the search need not; Blackwell and cross-node expert parallelism). DeepSeek-V3
# on 256 GB200 (26.06, 1.029 then) left the set when its row took the recipe's all-to-all overlap and full-iteration
# CUDA graphs (h-bridge: Megatron-Bridge v0.5.0 perf_recipes): its first plan is now predicted 1.137. Nemotron-4
# 340B bf16 on 128 H100 (0.979 then) was 1.102 with the row-parallel linears at their own shapes (h-tp8) and is
# 1.095 with Hopper's GEMM epilogue counted (h-moegemm).
WITHIN_10_PERCENT = (
    "dgxc-25.04.02-llama-3-1-405b-fp8-h100-sxm-80gb-512-gbs256",
    "dgxc-25.05.05-llama3-1-405b-bf16-gb200-128-gbs64",
    # within 10% since (benchmarks/famous_runs.py, 2026-12-06: 1.069, 0.976 and 0.920), held from then on
    "dgxc-25.04.02-llama-3-1-405b-bf16-h100-sxm-80gb-512-gbs256",
    "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb200-mxfp8-256",
    "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb300-mxfp8-256",
)
# The SC21 runs whose like-for-like first plan (the search restricted to 2021 Megatron-LM's techniques) is within 10%
# of the measurement: 1.063 and 1.097 once 2021 Megatron-LM's last-step gradients and kept pipeline outputs were
# counted (engine/frameworks/megatron_2021.py), which put the plans that beat the published layouts out of memory.
# h-megaset counted Megatron-LM's softmax from its code with the A100's measured eager rate (presets/efficiency.json
# eager_attention_softmax _source_megatron-lm): both runs have head dim 160, above the largest measured (128), so
# their softmax bytes fall to the code's count with no measured rate beside them (engine/timing/eager_attention_rate.py
# holds 1 there): the 1T run's plan 1.062 -> 1.084 (benchmarks/famous_runs.py), the 529.6B run's (tp8 pp35 vpp3)
# 1.096 -> 1.122, which left the list.
# h-famous22 held the A100's measured eager slowdown above head dim 128 (eager_attention_rate.py: it rises from head
# dim 64 to 128 at every measured length): the 529.6B run's like-for-like first plan, its published layout, 1.121 ->
# 1.098, back in the list; the 1T run's 1.084 -> 1.065 (benchmarks/famous_runs.py).
LIKE_FOR_LIKE_WITHIN_10_PERCENT = (
    "megatron-sc21-table1-gpt-1008.0b-3072xa100",
    "megatron-sc21-table1-gpt-529.6b-2520xa100",
)
# Nemotron-4 340B bf16 on 128 H100 (dgxc 24.11.1) left this list with h-tpoverlap: Megatron's TP collectives counted
# from its code (engine/timing/tp_overlap.py) in place of the assumed half put its first plan (the published layout
# without recompute) at 1.109 of the measurement, from 1.076 (docs/time-model-notes.md, reported).


@pytest.fixture(scope="module")
def rows():
    return {r["id"]: r for r in load_rows()}


@pytest.mark.parametrize("row_id", WITHIN_10_PERCENT)
def test_the_first_plan_is_within_10_percent_of_the_published_run(rows, row_id):
    assert row_id in dict((i, n) for n, i in FAMOUS)
    f = famous_figures(rows[row_id])
    assert f["measured"] == float(rows[row_id]["measured"])
    assert abs(f["ratio"] - 1) <= 0.10, (f["first"], f["predicted"], f["measured"])


@pytest.mark.parametrize("row_id", LIKE_FOR_LIKE_WITHIN_10_PERCENT)
def test_the_like_for_like_first_plan_is_within_10_percent_of_the_published_run(rows, row_id):
    f = famous_figures(rows[row_id])
    assert f["like_for_like"] is not None and abs(f["like_for_like"]["ratio"] - 1) <= 0.10, f["like_for_like"]


def test_no_plan_of_a_famous_run_claims_more_than_its_ceiling_and_the_published_layouts_are_searched(rows):
    """Every plan (and every method change) of every famous run stays under (1 + margin) x the best published MFU
    of its GPU, format and model kind; and the layouts the runs used are among those the search visits, where the
    scenario format states them as Megatron splits them evenly: SC21's GPT-3 175B at PP 12, Llama 3 405B at 128K
    with CP 16, the DGX Cloud 405B at TP 8 PP 8 VPP 8 CP 2 and Nemotron-4 340B at VPP 12 were outside it before."""
    outside = []
    for _name, row_id in FAMOUS:
        f = famous_figures(rows[row_id])
        if f["ceiling"] is not None:
            assert f["top_mfu"] <= f["ceiling"] * (1 + 1e-9), (row_id, f["top_mfu"], f["ceiling"])
        if not f["in_space"]:
            outside.append(row_id)
    # DeepSeek-V3's recipes split 61 layers over PP x VPP chunks unevenly (Megatron's pipeline_model_parallel_layout),
    # which the search does not generate
    assert all("deepseekv3" in row_id for row_id in outside), outside


def test_like_for_like_plans_use_only_the_techniques_the_run_had(rows):
    """The SC21 runs (arXiv:2104.04473, 2021 Megatron-LM) are searched again with only the techniques they had
    (famous_runs.MEGATRON_2021: recomputation full or none, no sequence or context parallelism, no distributed
    optimizer or offload; Megatron-LM's megatron/arguments.py gained those from 2022-02 on). Every plan of that search
    keeps to them, and the runs of the other famous runs have no such line."""
    from famous_runs import RESTRICTED

    from engine import scenario_from_dict
    from engine.planning.speed_search import speed_search

    assert set(RESTRICTED) == {row_id for _name, row_id in FAMOUS if row_id.startswith("megatron-sc21")}
    for row_id, (techniques, text) in RESTRICTED.items():
        assert "2021" in text
        plans = speed_search(scenario_from_dict(rows[row_id]["scenario"]), techniques=techniques).plans
        assert plans, row_id
        for p in plans:
            s = p.scenario
            assert s.checkpointing in ("none", "full") and not s.sequence_parallel and s.cp == 1, row_id
            assert s.zero_stage == 0 and not s.fsdp and s.offload == "none", row_id


def test_the_fastest_measured_twin_is_the_same_model_gpu_format_and_length(rows):
    """benchmarks/famous_runs.py reads each first plan beside the fastest measured run of the same model shape, GPU,
    compute format and sequence length (any GPU count or layout). Llama 3 405B at 8K on H100 in bf16: Meta measured
    163.8 tokens/s per GPU (arXiv:2407.21783 Table 4, 430 TFLOPs on 8,192 GPUs), NVIDIA's DGX Cloud recipe 208.37 on
    576 GPUs (NVIDIA/dgxc-benchmarking 24.11.1 README, row dgxc-24.11.1-llama-3-1-405b-...-576-gbs252), so the twin
    of Meta's run is NVIDIA's."""
    from famous_runs import best_measured_twin

    from engine import scenario_from_dict
    from engine.timing.mfu import mfu_format

    meta = rows["meta-llama3-405b-8192gpu-seq8192"]
    twin = best_measured_twin(meta, list(rows.values()))
    assert twin["id"].startswith("dgxc-24.11.1-llama-3-1-405b-24-09-bf16-") and float(twin["measured"]) == 208.37
    a, b = scenario_from_dict(meta["scenario"]), scenario_from_dict(twin["scenario"])
    assert (a.gpu, a.seq_len, mfu_format(a)) == (b.gpu, b.seq_len, mfu_format(b)) and a.world_size != b.world_size
    for _name, row_id in FAMOUS:
        best = best_measured_twin(rows[row_id], list(rows.values()))
        assert float(best["measured"]) >= float(rows[row_id]["measured"]), row_id


def test_the_twin_format_is_the_dense_peak_so_fp16_and_bf16_runs_on_one_gpu_are_twins_and_fp8_is_not(rows):
    """The twin's compute format is keyed by the GPU's dense peak in it (famous_runs._twin_key). SC21's GPT-3 175B
    on 384 A100s ran fp16 (arXiv:2104.04473, measured 106.7 tokens/s per GPU); arXiv:2205.05198 Table 5 ran the same
    model shape on 64 A100 80GB with sequence parallelism and selective recomputation, 13.75 s an iteration of 64 x
    2,048 tokens = 148.9 tokens/s per GPU (row korthikanti2022-table5-gpt-175b-64xa100-selective-sp, its format not
    stated, taken as bf16). The A100's fp16 and bf16 dense peaks are one figure, 312 TFLOP/s (NVIDIA A100 datasheet,
    presets/gpus.json), so that run is the 175B's twin. DGX Cloud's Llama 3.1 405B in fp8 on H100 (dense peak twice
    bf16's) keeps an fp8 twin."""
    from famous_runs import best_measured_twin

    from engine import scenario_from_dict
    from engine.timing.hardware import hardware_for
    from engine.timing.mfu import mfu_format

    sc21 = rows["megatron-sc21-table2-ptdp-gpt-174.6b-384xa100"]
    twin = best_measured_twin(sc21, list(rows.values()))
    assert twin["id"] == "korthikanti2022-table5-gpt-175b-64xa100-selective-sp"
    assert float(twin["measured"]) == pytest.approx(64 * 2048 / 13.75 / 64, rel=1e-3)
    a, b = scenario_from_dict(sc21["scenario"]), scenario_from_dict(twin["scenario"])
    assert (mfu_format(a), mfu_format(b)) == ("fp16", "bf16") and hardware_for(a).peak("fp16") == 312e12
    fp8 = rows["dgxc-25.04.02-llama-3-1-405b-fp8-h100-sxm-80gb-512-gbs256"]
    assert mfu_format(scenario_from_dict(best_measured_twin(fp8, list(rows.values()))["scenario"])) == "fp8"


def test_the_term_by_term_comparison_adds_up_and_places_the_pipeline_gain(rows):
    """benchmarks/famous_runs.py --terms sets each term of the step (engine/timing/step_result.py BREAKDOWN_KEYS) of
    the published layout's estimate beside the first plan's. The terms add up to each step, and the search keeps the
    run's global batch, so both steps train the same tokens (tokens/s per GPU = tokens a step / step / GPUs). Nemotron-4
    340B on 128 GB200 (DGX Cloud 25.05.05, TP 8 x PP 4 x VP 12, dgxc-benchmarking.json): its first plan runs without
    pipeline parallelism (TP 8 x DP 16), so its pipeline bubble is nought where the published layout's is not."""
    from famous_runs import term_gains

    from engine import scenario_from_dict
    from engine.planning.speed_search import speed_search
    from engine.timing import step_time

    row = rows["dgxc-25.05.05-nemotron-340b-bf16-gb200-gb200-128-gbs32"]
    s = scenario_from_dict(row["scenario"])
    own, first = step_time(s), speed_search(s).plans[0]
    terms = term_gains(own, first.time)
    assert terms[-1] == ("step", own.step_seconds, first.time.step_seconds)
    assert sum(t[1] for t in terms[:-1]) == pytest.approx(own.step_seconds)
    assert sum(t[2] for t in terms[:-1]) == pytest.approx(first.time.step_seconds)
    assert own.tokens_per_step == first.time.tokens_per_step
    bubble = dict((k, (a, b)) for k, a, b in terms)["bubble"]
    assert first.scenario.pp == 1 and bubble[1] == 0.0 < bubble[0]
    assert term_gains(own, None) == []


def test_the_ceiling_check_reads_each_plan_in_the_count_the_ceilings_were_measured_in(rows):
    """presets/mfu_ceilings.json holds each published run's MFU with attention's every key counted (its _about;
    h-mfucap), and the speed cap compares a plan's mfu_attention_whole with it (engine/timing/model.py). The famous
    runs' check compares the same figure: at 128K (Llama 3 405B, arXiv:2407.21783's long-context run) the shown causal
    MFU is well below it (0.428 against 0.600 when this test was written), so checking the causal one let a plan pass
    up to 1.4x over its ceiling unseen."""
    row = rows["meta-llama3-405b-16384gpu-seq131072"]
    f = famous_figures(row)
    result = speed_search(scenario_from_dict(row["scenario"]))
    plans = result.plans + result.changes_what_you_train
    whole = [(p.time.mfu_attention_whole, ceiling_of(p.scenario)) for p in plans]
    assert f["top_mfu"] == max(whole, key=lambda o: o[0] / o[1])[0]
    assert f["top_mfu"] > max(p.time.mfu for p in plans)  # the causal count is lower: the check would be looser
