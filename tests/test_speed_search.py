"""fit --objective throughput: fitting layouts of the same GPUs, fastest first, training kept as it is.

Expected orderings come from the definition of the search (tokens/s descending); the scenarios are chosen so
that the user's own layout is inside the searched space.
"""

import json
import subprocess
import sys
from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.planning.listing import TIE
from engine.planning.speed_search import speed_search
from engine.timing import step_time

ROOT = Path(__file__).resolve().parent.parent
KEPT = ("method", "precision", "optimizer", "seq_len", "model", "gpu", "gpus_per_node", "nodes")


def test_plans_fit_keep_the_training_and_run_fastest_first():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
                            "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "attention": "flash",
                            "precision": "mixed-bf16", "fsdp": True, "checkpointing": "full"})
    result = speed_search(s)
    assert result.plans
    speeds = [p.time.tokens_per_second for p in result.plans]
    # fastest first; plans within TIE of the fastest left are equal and are ordered plainest first, so a plan is at
    # most 1 / (1 - TIE) faster than the one before it
    assert all(b <= a / (1 - TIE) for a, b in zip(speeds, speeds[1:], strict=False))
    for p in result.plans:
        assert p.estimate.fits and estimate(p.scenario).fits
        assert all(getattr(p.scenario, k) == getattr(s, k) for k in KEPT)
        global_batch = p.scenario.micro_batch * p.scenario.grad_accum * p.scenario.dp
        assert global_batch == s.micro_batch * s.grad_accum * s.dp
    # the user's own layout fits and lies in the space: the best plan is at least as fast
    assert estimate(s).fits
    assert speeds[0] >= step_time(s).tokens_per_second * (1 - TIE)
    for p in result.changes_what_you_train:
        assert (p.scenario.method, p.scenario.optimizer) != (s.method, s.optimizer)


def test_a_run_that_does_not_fit_gets_fitting_layouts():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-40gb", "gpus_per_node": 8, "micro_batch": 4,
                            "seq_len": 4096, "attention": "flash"})
    assert not estimate(s).fits
    result = speed_search(s)
    assert result.plans and all(p.estimate.fits for p in result.plans)
    assert result.candidates and any(not fits for _, _, fits in result.candidates)
    # The chart's points include the largest micro-batch of each layout that fits. Without a pipeline a larger
    # micro-batch is never slower, so here the fastest plan is such a point (it once had no point under its star).
    best = result.plans[0]
    assert best.scenario.pp == 1
    assert (best.estimate.total_bytes, best.time.tokens_per_second, True) in result.candidates


def test_cli_fit_objective_throughput_and_plans_carry_time(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "llama-3-8b", "gpu": "rtx-4090", "gpus_per_node": 4}))
    run = [sys.executable, str(ROOT / "main.py"), "fit", "--json", str(path)]
    plans = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)["plans"]
    assert plans and all("step_seconds" in p["time"] for p in plans)
    out = json.loads(subprocess.run(run + ["--objective", "throughput"], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["objective"] == "throughput"
    assert all(p["fits"] and "tokens_per_second" in p["time"] for p in out["plans"])
    text = subprocess.run(run[:3] + [str(path), "--objective", "throughput"], capture_output=True, text=True,
                          check=True).stdout
    assert "tokens/s" in text


def test_the_search_of_a_huge_cluster_is_bounded_and_says_so(capsys, tmp_path):
    """Issue 28 item 11: deepseek-v3 on 100,000 x 1,024 GPUs at 10^8 tokens per sequence tried 52,227 memory
    estimates (90-128 s, 2.4 GB). The search now stops at its stated budget of estimates and says so. Plain PyTorch,
    which composes every layout: the default Hugging Face row has no expert parallelism (accelerate 16cb6eb80
    ParallelismConfig: no expert axis; engine/frameworks/parallelism.py), so its search of this MoE visits 72 layouts
    and stays within the budget."""
    from engine.cli import main
    from engine.planning import speed_search as search
    from engine.planning.speed_report import render_speed
    from engine.planning.techniques import CHECKPOINTINGS  # the most policies a search tries

    data = {"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 1024, "nodes": 100_000,
            "seq_len": 100_000_000, "framework": "pytorch"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert main(["fit", "--objective", "throughput", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    per_layout_most = 3 * len(CHECKPOINTINGS) * 2 * 20  # offloads x policies x bisection probes
    assert report["search"]["limited"] is True and "most promising" in report["search"]["note"]
    assert report["search"]["estimates"] <= search.MAX_MEMORY_ESTIMATES + 3 * (search.VARIANT_MEMORY_ESTIMATES
                                                                               + per_layout_most)
    assert "most promising" in render_speed(report)


def test_an_ordinary_search_is_not_limited():
    result = speed_search(scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "gpus_per_node": 4}))
    assert not result.limited and result.plans


OFFLOAD_RANK = {"none": 0, "optimizer": 1, "optimizer+params": 2}


def test_equal_plans_prefer_less_offload_and_fewer_changes():
    """Issue 25 item 2: a 70B full fine-tune on 8 x H100 with weights and optimizer offloaded listed first a plan
    that offloads both, tied (1,863.73 tokens/s) with the optimizer-only plan. Among plans of equal speed the one
    with less offload, then (issue 23 item 5) fewer kinds of model parallelism and shallower sharding, then fewer
    changes, comes first, and a plan that offloads more than an equal one is dropped."""
    from engine.planning.speed_ranking import parallel_dimensions

    s = scenario_from_dict({"model": "llama-3-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096,
                            "attention": "flash", "precision": "mixed-bf16", "offload": "optimizer+params",
                            "zero_stage": 3})
    plans = speed_search(s).plans
    assert plans
    for i, a in enumerate(plans):
        for b in plans[i + 1:]:
            if abs(a.time.tokens_per_second - b.time.tokens_per_second) <= 1e-9 * a.time.tokens_per_second:
                # a tie: a plan offloading more than an equal one is gone, and the one with fewer changes is first
                assert a.scenario.offload == b.scenario.offload

                def plainness(p):
                    return parallel_dimensions(p.scenario), p.scenario.effective_zero, len(p.changes)

                assert plainness(a) <= plainness(b)


def test_the_405b_search_claims_no_mfu_above_the_published_ceiling():
    """Issue 23 item 5: Fastest layouts for Llama-3.1-405B on 1,024 H100s at 8K tokens ranked "cp=8" first at MFU
    59% (and LoRA at 72%), while the published run of this model on H100s reached 38-43% (Llama 3 paper,
    arXiv:2407.21783, Table 4: 430 / 400 / 380 TFLOPs per GPU, BF16; rows of tests/data/published/throughput.json).
    No plan may now claim more than 10% above the best published H100 BF16 run (presets/mfu_ceilings.json), and the
    first plan stays within 10 points of the Llama 3 range's top."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from time_speed import LLAMA_405B_1024

    from engine.accuracy.published_throughput import compare, load_rows
    from engine.scenario import resolve_model
    from engine.timing.ceiling import frozen_weights, mfu_ceiling
    from engine.timing.mfu import mfu_figures, mfu_format

    meta = [c.measured_mfu for c in compare([r for r in load_rows() if r["framework"] == "Meta Llama 3"])]
    assert len(meta) == 3  # the paper's three 405B rows, 38-43%
    ceiling = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16")
    # The ceiling is 1.1 x the best H100 BF16 full-training run of any model in the published set (LoRA runs hold
    # only plans with frozen weights: engine/timing/ceiling.py, tests/test_ceiling_kinds.py). Since issue 23 item 4 added
    # OLMo-core's Llama3-8B run (48.8% MFU, allenai/OLMo-core README at 7e58d128) it is 53.7%, above the 405B runs'
    # 38-43% + 10 points: the ceiling is per GPU and format, not per model size (reported to the lead).
    # The ceilings count attention whole (every key: the count the published runs print, engine/timing/ceiling.py),
    # so the runs' MFU is read in that count here, and so is each plan's below (its mfu_attention_whole)
    full = [r for r in load_rows() if r["scenario"].get("method", "full") == "full"]
    h100_bf16 = [mfu_figures(s, resolve_model(s), float(r["measured"]), causal=False)[0]
                 for r in full if (s := scenario_from_dict(r["scenario"])).gpu == "h100-sxm-80gb"
                 and mfu_format(s) == "bf16"]
    assert ceiling is not None and abs(ceiling.measured - max(h100_bf16)) < 1e-4  # the ceilings file keeps 4 digits
    assert abs(ceiling.mfu - 1.1 * ceiling.measured) < 1e-9
    # The best published Llama-3.1-405B run on H100s in BF16 is no longer the paper's: NVIDIA's DGX Cloud recipes
    # (NVIDIA/dgxc-benchmarking llama3.1 READMEs, NeMo 24.09-25.04 on 512-2,304 H100s, TP 8 with PP 8-9 and CP 2)
    # reach 54-55% MFU (their READMEs print 53-55%); the first plan stays within 10 points of the best of them all.
    best_405b = max(c.measured_mfu for c in compare([r for r in load_rows()
                                                     if r["scenario"].get("model") == "llama-3.1-405b"
                                                     and r["scenario"].get("gpu") == "h100-sxm-80gb"
                                                     and r["scenario"].get("precision") != "fp8"]))
    assert max(meta) <= best_405b < 0.56
    result = speed_search(scenario_from_dict(LLAMA_405B_1024))
    assert result.plans and result.plans[0].time.mfu <= best_405b + 0.10
    for p in result.plans + result.changes_what_you_train:
        own = mfu_ceiling("h100-sxm-80gb", "hopper", "bf16", frozen=frozen_weights(p.scenario,
                                                                                 resolve_model(p.scenario)))
        assert own is not None and p.time.mfu_attention_whole <= own.mfu * (1 + 1e-9), (p.changes, p.time.mfu)
        assert p.time.mfu < p.time.mfu_attention_whole  # the shown MFU counts the causal half: lower still
    # the plans that train every weight
    assert all(p.time.mfu_attention_whole <= ceiling.mfu * (1 + 1e-9) for p in result.plans)


def test_plans_that_tie_rank_the_plainer_first_and_offload_last():
    """Issue 23 item 5: a 70B full fine-tune on one 8 x H100 node ranked a plan that offloads weights and
    optimizer first, tied with the optimizer-only one (and, once hidden collectives paid for the SMs they hold,
    1.2% faster than it). Among plans of equal speed the one with less offload and fewer kinds of model parallelism
    comes first, and a plan that offloads more ranks above one that offloads less only when it is faster by more than
    OFFLOAD_MARGIN per level (10%, about the time model's cross-validated median error; offload is its least sure
    term): here the first plan keeps the weights."""
    from engine.planning.listing import TIE
    from engine.planning.speed_ranking import OFFLOAD_COST, OFFLOAD_MARGIN, parallel_dimensions, ranking_speed

    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096,
                            "micro_batch": 1, "grad_accum": 8, "attention": "flash"})
    result = speed_search(s)
    assert result.plans and result.plans[0].scenario.offload != "optimizer+params"
    first = result.plans[0]
    for p in result.plans:  # nothing offloading more than the first is faster than it by more than the margin
        levels = OFFLOAD_COST[p.scenario.offload] - OFFLOAD_COST[first.scenario.offload]
        if levels > 0:
            assert p.time.tokens_per_second <= first.time.tokens_per_second / (1 - OFFLOAD_MARGIN) ** levels

    def key(p):
        return OFFLOAD_COST[p.scenario.offload], parallel_dimensions(p.scenario)

    # plan 1 is the plainest of the plans within TIE of the fastest (as ranked); the others follow fastest first as
    # shown, so the list reads in order (user audit 16: listing every tie plainest first read 66.1K after 65.5K)
    leader = max(ranking_speed(p) for p in result.plans)
    tie = [p for p in result.plans if ranking_speed(p) >= leader * (1 - TIE)]
    assert key(first) == min(key(p) for p in tie)
    shown = [float(f"{p.time.tokens_per_second:.3g}") for p in result.plans[1:]]
    assert shown == sorted(shown, reverse=True)


def test_a_zero_2_plan_is_listed_only_where_zero_1_does_not_fit():
    """Issue 23 item 5 (ties go to the plainer plan): a ZeRO-2 plan whose ZeRO-1 twin fits is listed as ZeRO-1, the
    shallower sharding (Megatron's distributed optimizer, which the published Megatron recipes run) and, with more
    than one micro-batch a step, the faster: ZeRO-2 reduce-scatters every micro-batch's gradients (DeepSpeed
    stage_1_and_2.py partition_gradients; Megatron-FSDP optim_grads at d98e8a64: 'gradient reduction occurs on every
    backward propagation'), ZeRO-1 once a step. The 405B search on 1,024 H100s listed 'zero_stage 2' first before."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from time_speed import LLAMA_405B_1024

    result = speed_search(scenario_from_dict(LLAMA_405B_1024))
    first = result.plans[0].scenario if result.plans else None
    # ZeRO-1, or one data-parallel replica, where no ZeRO stage shards anything and the plainer plan of a tie keeps
    # the scenario's stage (with the H100 bf16 full-training ceiling at 1.1 x 64.6%, tp 4 pp 64 cp 4 at DP 1 ties
    # tp 4 pp 32 cp 4 ZeRO-1 at DP 2, 223.5 against 225.7 tokens/s per GPU)
    assert first is not None and (first.zero_stage == 1 or (first.dp == 1 and first.zero_stage == 0))
    for p in result.plans:
        s = p.scenario
        if s.zero_stage == 2 and not s.fsdp and s.offload == "none":
            assert not estimate(s.replace(zero_stage=1)).fits
        if s.zero_stage == 1:
            assert step_time(s).tokens_per_second > step_time(s.replace(zero_stage=2)).tokens_per_second


def test_layouts_that_offload_alike_share_their_candidates():
    """Offload sets the ZeRO stage (2 for the optimizer, 3 with the parameters) and switches FSDP off
    (engine/planning/search_candidates.py candidate), so layouts differing only there make the same scenarios."""
    from engine.planning.search_candidates import EstimateMemo

    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "grad_accum": 8})
    memo = EstimateMemo()
    layout = {"tp": 1, "cp": 1, "pp": 1, "ep": 1, "zero_stage": 0, "fsdp": False, "sequence_parallel": False,
              "pp_schedule": "1f1b", "vpp": 1}
    zero2 = {**layout, "zero_stage": 2}
    zero3 = {**layout, "zero_stage": 3}
    shared = memo.candidates(s, layout, 8, [1, 2], "none", "optimizer")
    assert memo.candidates(s, zero2, 8, [1, 2], "none", "optimizer") is shared
    assert shared[0].zero_stage == 2 and memo.candidates(s, zero3, 8, [1, 2], "none", "optimizer")[0].zero_stage == 3
    params = memo.candidates(s, zero3, 8, [1, 2], "none", "optimizer+params")
    assert memo.candidates(s, layout, 8, [1, 2], "none", "optimizer+params") is params
    assert params[1] == shared[1].with_unchecked(zero_stage=3, offload="optimizer+params")
    # without offload the layouts stay apart: their ZeRO stages differ
    assert memo.candidates(s, layout, 8, [1, 2], "none", "none")[0].zero_stage == 0
    assert memo.candidates(s, zero2, 8, [1, 2], "none", "none")[0].zero_stage == 2


def test_the_search_leaves_no_cycle_for_the_collector():
    """What the search made is freed as it returns: a reference cycle (the memo keeping candidates that keep the memo)
    once left the whole memo for the collector to walk after the search, 0.3 s of the 405B search's 0.7 s
    (benchmarks/time_speed.py)."""
    import gc

    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
                            "micro_batch": 1, "grad_accum": 8, "seq_len": 4096})
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        assert speed_search(s).plans
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_the_listing_says_how_ties_are_ordered():
    """User audit 6: a verl GRPO run's Fastest layouts listed 23.1K tokens/s above 23.2K (within TIE the plainer plan
    comes first, engine/planning/listing.py) under "Fastest layouts that fit" with no word of the rule: said now."""
    from engine.planning.speed_report import render_speed, speed_report

    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "micro_batch": 1,
                            "grad_accum": 8, "seq_len": 4096, "checkpointing": "full", "zero_stage": 3})
    report = speed_report(s)
    heading = next(x for x in render_speed(report).splitlines() if x.startswith("Fastest layouts that fit"))
    said = (f"Speeds within {TIE:.0%} of each other count as equal: the plainest layout within {TIE:.0%} of the "
            "fastest comes first, the others fastest first.")  # user audit 16: the rule made the list read in order
    assert len(report["plans"]) > 1 and said in heading
