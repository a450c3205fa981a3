"""Which sharding stage an offload runs with: one rule (Parallelism.offload_sharding) that the speed and rent searches
(engine/planning/search_candidates.py) and Make it fit (engine/planning/solver.py) both ask, so that for the same
layout and offload they propose the same zero_stage and fsdp. Each expectation is read from the framework's row
(engine/frameworks/parallelism.py), whose sources say where the fact is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import estimate
from engine.frameworks import parallelism as par
from engine.planning.fit_options import offload_options
from engine.planning.search_candidates import candidate, framework_runs_layout
from engine.planning.solver import _combine
from engine.scenario.format import scenario_from_dict
from engine.scenario.framework_support import cannot_run

REPO = Path(__file__).resolve().parent.parent
# Llama 2 7B, full training, on 8 H100 80 GB (the one-GPU example's model and settings)
EIGHT = {**json.loads((REPO / "examples" / "7b-full-finetune-one-gpu.json").read_text()), "gpus_per_node": 8}


def _search_and_fit(s) -> dict[str, tuple[int, bool, int]]:
    """offload kind -> (zero_stage, fsdp, effective stage) of the searches' candidate of s's own layout, after
    checking that Make it fit's plan with that offload (each of its options of the kind) spells the same."""
    keys = {k: getattr(s, k) for k in ("tp", "cp", "pp", "ep", "zero_stage", "fsdp", "sequence_parallel",
                                       "pp_schedule", "vpp")}
    out = {}
    for option in offload_options(s):
        plan, _, _ = _combine(s, [option])
        offload = plan.offload
        assert framework_runs_layout(s, keys, offload)
        searched = candidate(s, keys, s.micro_batch * s.grad_accum, s.micro_batch, s.checkpointing, offload)
        assert (plan.zero_stage, plan.fsdp, plan.effective_zero) == (
            searched.zero_stage, searched.fsdp, searched.effective_zero), (s.framework, option)
        assert not cannot_run(plan) and not cannot_run(searched)
        out[offload] = (searched.zero_stage, searched.fsdp, searched.effective_zero)
    return out


@pytest.mark.parametrize("distributed_optimizer", [True, False])
def test_megatron_offloads_the_optimizer_from_its_distributed_optimizer(distributed_optimizer: bool) -> None:
    """Megatron-LM d98e8a64ddf3 megatron/training/arguments.py line 1884: --optimizer-cpu-offload asserts
    --use-precision-aware-optimizer, which megatron/core/optimizer/__init__.py lines 1057-1059 allow only with the
    distributed optimizer (ZeRO-1): the row's optimizer_offload_stage. Make it fit offers it as the hybrid optimizer's
    shares (optimizer_offload_fraction > 0), the searches with the scenario's own share (0 here): the stage is the
    framework's either way, not DeepSpeed's ZeRO-2 (Megatron-FSDP's optim_grads)."""
    assert par.MEGATRON.optimizer_offload_stage == 1
    assert any(fact == "optimizer offload stage" for fact, _ in par.MEGATRON.sources)
    s = scenario_from_dict({**EIGHT, "framework": "megatron", "distributed_optimizer": distributed_optimizer})
    found = _search_and_fit(s)
    # the distributed optimizer is ZeRO-1 whatever zero_stage reads (Scenario.effective_zero): nothing to change;
    # without it, ZeRO-1 spelled as zero_stage 1
    assert found == {"optimizer": (0, False, 1) if distributed_optimizer else (1, False, 1)}


@pytest.mark.parametrize("framework", ["torchtitan", "nemo-automodel-te"])
def test_fsdp_only_frameworks_offload_the_weights_under_fsdp(framework: str) -> None:
    """torchtitan b5bcd76c66d0 config/configs.py line 69 enable_cpu_offload and Automodel 36044ad3d139 distributed/
    config.py offload_policy: FSDP2's CPUOffloadPolicy (weights, gradients and optimizer together) is their only
    offload, and FSDP their only sharding (rows' zero_stages FSDP_STAGES, offloads): stage 3 spelled as FSDP."""
    caps = {"torchtitan": par.TORCHTITAN, "nemo-automodel-te": par.NEMO_AUTOMODEL}[framework]
    assert caps.offloads == ("none", "optimizer+params") and caps.sharding(3) == {"zero_stage": 0, "fsdp": True}
    found = _search_and_fit(scenario_from_dict({**EIGHT, "framework": framework}))
    assert found == {"optimizer+params": (0, True, 3)}


@pytest.mark.parametrize("zero_stage", [0, 1, 2, 3])
def test_deepspeed_offloads_from_zero2_and_the_weights_from_zero3(zero_stage: int) -> None:
    """DeepSpeed's ZeRO-Offload as the engine runs it: the optimizer from ZeRO-2 (the row's default
    optimizer_offload_stage, the engine's rule: DeepSpeed's offload_optimizer is not refused at ZeRO-1), the weights
    from ZeRO-3 (microsoft/DeepSpeed deepspeed/runtime/zero/offload_config.py DeepSpeedZeroOffloadParamConfig: 'Valid
    only with stage 3'); a layout that shards deeper keeps its stage."""
    assert par.DEEPSPEED.optimizer_offload_stage == 2 and par.DEEPSPEED.sharding(3) == {"zero_stage": 3, "fsdp": False}
    found = _search_and_fit(scenario_from_dict({**EIGHT, "framework": "deepspeed", "zero_stage": zero_stage}))
    optimizer = max(zero_stage, 2)
    assert found == {"optimizer": (optimizer, False, optimizer), "optimizer+params": (3, False, 3)}


def test_an_fsdp_layout_keeps_fsdp_for_the_weights_and_leaves_it_for_the_optimizer_alone() -> None:
    """FSDP has no optimizer-only offload (FSDP's CPUOffload(offload_params=True) and FSDP2's CPUOffloadPolicy move
    the weights and gradients too): under a framework with both (Hugging Face: accelerate's FSDP and DeepSpeed
    plugins, the row's zero_stages) the optimizer alone is offloaded at the same stage as DeepSpeed spells it, ZeRO-3
    with offload_optimizer, the weights under FSDP as it is spelled."""
    assert 2 in par.HUGGINGFACE.zero_stages and par.HUGGINGFACE.sharding(3) == {"zero_stage": 3, "fsdp": False}
    found = _search_and_fit(scenario_from_dict({**EIGHT, "framework": "huggingface", "fsdp": True}))
    assert found == {"optimizer": (3, False, 3), "optimizer+params": (0, True, 3)}


def test_a_megatron_search_offloads_from_the_distributed_optimizer() -> None:
    """Qwen2.5 14B, full training on 2 A100 80 GB under Megatron with --use-distributed-optimizer: nothing fits
    without offload, and the search's first plan offloads the optimizer from the distributed optimizer Megatron runs
    it with (the row's optimizer_offload_stage, sources in the first test), not from ZeRO-2, which under Megatron is
    Megatron-FSDP's optim_grads (the searches' rule before they asked Parallelism.offload_sharding); and it moves
    Megatron's share of it as Megatron runs it: --optimizer-offload-fraction's default 1.0 (Megatron-LM d98e8a64ddf3
    megatron/training/arguments.py line 2922, the row's optimizer_offload_fraction), not the scenario key's 0 (the
    whole optimizer, master weights included, which is DeepSpeed's ZeRO-Offload and not Megatron's)."""
    from engine.planning.speed_search import speed_search

    s = scenario_from_dict({"model": "qwen2.5-14b", "gpu": "a100-80gb", "gpus_per_node": 2, "micro_batch": 1,
                            "seq_len": 2048, "grad_accum": 8, "attention": "flash", "framework": "megatron",
                            "precision": "mixed-bf16", "distributed_optimizer": True})
    assert not estimate(s).fits
    plans = speed_search(s).plans
    first = plans[0].scenario
    assert first.offload == "optimizer" and first.optimizer_offload_fraction == par.MEGATRON.optimizer_offload_fraction
    assert (first.zero_stage, first.fsdp, first.effective_zero) == (0, False, par.MEGATRON.optimizer_offload_stage)
    assert not cannot_run(first)
    assert any(fact == "optimizer offload fraction" for fact, _ in par.MEGATRON.sources)


def test_the_speed_search_proposes_only_layouts_its_framework_runs_at_the_effective_stage() -> None:
    """Megatron's --use-distributed-optimizer is its ZeRO-1 whatever zero_stage reads (Scenario.effective_zero), and
    Megatron-LM at de7dc40f88 has none (the megatron-2021 row's ZeRO source: 'no --use-distributed-optimizer',
    max_zero 0): the speed search's layouts are the ones cannot_run passes (framework_support.layout_cannot_run with
    the effective stage),
    under megatron-2021 none, under megatron (which has it) every one. Before, the search asked with zero_stage and
    proposed 8 plans megatron-2021 cannot run."""
    from engine.planning.speed_search import _layouts

    for framework, runs in (("megatron-2021", False), ("megatron", True)):
        s = scenario_from_dict({**EIGHT, "framework": framework, "distributed_optimizer": True})
        layouts = list(_layouts(s))
        assert all(framework_runs_layout(s, lay, "none") for lay in layouts)
        assert bool(layouts) == runs and ("zero" in cannot_run(s)) != runs


@pytest.mark.parametrize("framework", ["deepspeed", "huggingface", "megatron", "torchtitan", "verl", "internevo"])
def test_the_limits_line_keeps_an_offload_as_the_searches_run_it(framework: str) -> None:
    """limits.with_gpus's ZeRO-3 layout keeps the scenario's offload as far as the stage it reaches runs it, with the
    keys the offload runs with: the searches' and Make it fit's rule read in reverse (Parallelism.offload_kept,
    offload_sharding), not a third copy of it. InternEvo shards at most as ZeRO-1 and has no offload (c18bec9
    hybrid_zero_optim.py, its row's sources): its ZeRO-1 layout drops the offload (before: kept, then refused)."""
    from engine.frameworks.defaults import defaults_for
    from engine.planning.limits import with_gpus
    from engine.scenario.framework_support import distributed_optimizer_counts

    caps = defaults_for(framework).parallelism
    s = scenario_from_dict({**EIGHT, "framework": framework, "offload": "optimizer",
                            "zero_stage": min(caps.max_zero, 3) if caps.zero_stages != par.FSDP_STAGES else 0,
                            "fsdp": caps.zero_stages == par.FSDP_STAGES})
    laid = with_gpus(s, 8, "zero3")
    stage = caps.sharding(min(3, caps.max_zero))
    kept = caps.offload_kept(int(stage["zero_stage"]), bool(stage["fsdp"]), s.offload, distributed_optimizer_counts(s))
    if laid is None:  # a kind the framework lacks (torchtitan: FSDP2's offload is optimizer+params only)
        assert "offload" in cannot_run(s.with_unchecked(**stage))
        return
    assert laid.offload == kept and not cannot_run(laid)
    if kept != "none":
        assert {"zero_stage": laid.zero_stage, "fsdp": laid.fsdp} == caps.offload_sharding(
            int(stage["zero_stage"]), bool(stage["fsdp"]), kept, distributed_optimizer_counts(s))
    assert (framework == "internevo") == (kept == "none")


@pytest.mark.parametrize("framework", ["huggingface", "deepspeed", "verl"])
def test_fsdp_with_an_optimizer_only_offload_is_warned_and_mapped_to_what_runs(framework: str) -> None:
    """PyTorch 0aafd810d15f torch/distributed/fsdp/api.py class CPUOffload: offload_params 'offloads gradients to CPU
    as well, meaning that the optimizer step runs on CPU' (FSDP2's CPUOffloadPolicy: 'parameters, gradients, and
    optimizer states'); accelerate's fsdp_offload_params is that switch (FullyShardedDataParallelPlugin
    FSDP_OFFLOAD_PARAMS -> CPUOffload(offload_params=True)). So FSDP has no optimizer-only offload (the rows'
    fsdp_offloads): the estimate warns, and the runnable layouts are ZeRO-3 with offload_optimizer (the searches'
    spelling, offload_sharding) or FSDP's own offload of the weights too. verl's FSDP workers offload the optimizer on
    its own (b178a3cd56f5 fsdp.yaml optimizer_offload, its row's fsdp_offloads): no warning there."""
    from engine.scenario.framework_support import unsupported_settings
    from engine.scenario.runnable import runnable_layouts

    s = scenario_from_dict({**EIGHT, "framework": framework, "fsdp": True, "offload": "optimizer"})
    if framework == "verl":
        assert "optimizer" in par.VERL.fsdp_offloads and not cannot_run(s)
        return
    assert "optimizer" not in par.HUGGINGFACE.fsdp_offloads
    assert cannot_run(s) == ("fsdp_offload",)
    assert "no optimizer-only offload with FSDP" in str(unsupported_settings(s)[0])
    ways = [lay.changes for lay in runnable_layouts(s)]
    assert ways == [{"zero_stage": 3, "fsdp": False}, {"offload": "optimizer+params"}]
    # one GPU: FSDP shards nothing there, so nothing to warn about (torchtune's single-device CPUOffloadOptimizer)
    one = scenario_from_dict({**EIGHT, "gpus_per_node": 1, "framework": framework, "fsdp": True,
                              "offload": "optimizer"})
    assert "fsdp_offload" not in cannot_run(one)


def test_make_it_fit_says_when_an_added_optimizer_offload_leaves_fsdp_for_zero3() -> None:
    """Llama 3 70B on 8 A100 80 GB under Hugging Face FSDP does not fit; a plan that adds the optimizer offload runs it
    as ZeRO-3 with offload_optimizer (FSDP has no optimizer-only offload: the previous test's sources), and its steps
    say so; a plan with FSDP's own offload (optimizer+params) keeps FSDP and says nothing of ZeRO-3."""
    from engine.planning.solver import plans

    s = scenario_from_dict({"model": "llama-3-70b", "gpu": "a100-80gb", "gpus_per_node": 8, "micro_batch": 1,
                            "seq_len": 4096, "grad_accum": 8, "attention": "flash", "framework": "huggingface",
                            "fsdp": True, "precision": "mixed-bf16"})
    assert not estimate(s).fits
    found = plans(s)
    moved = [p for p in found if p.scenario.offload == "optimizer"]
    assert moved and all(not p.scenario.fsdp and p.scenario.zero_stage == 3 for p in moved)
    assert all(any("instead of FSDP" in str(m) for m in p.steps) for p in moved)
    assert not any("instead of FSDP" in str(m) for p in found if p.scenario.fsdp for m in p.steps)


def test_a_megatron_offload_candidate_moves_its_cli_default_share() -> None:
    """The searches' Megatron offload candidate writes --optimizer-offload-fraction's default 1.0 (the row's
    optimizer_offload_fraction; Megatron-LM d98e8a64ddf3 arguments.py line 2922) where the scenario's share is 0, and
    keeps a share the scenario sets; DeepSpeed's ZeRO-Offload has no share (the key is ignored there, 0 kept)."""
    keys = {"tp": 1, "cp": 1, "pp": 1, "ep": 1, "zero_stage": 0, "fsdp": False, "sequence_parallel": False,
            "pp_schedule": "1f1b", "vpp": 1}
    for framework, fraction, expected in (("megatron", 0.0, 1.0), ("megatron", 0.4, 0.4), ("deepspeed", 0.0, 0.0)):
        s = scenario_from_dict({**EIGHT, "framework": framework, "distributed_optimizer": True,
                                "optimizer_offload_fraction": fraction})
        offloaded = candidate(s, keys, 8, 1, "none", "optimizer")
        assert offloaded.optimizer_offload_fraction == expected
        assert candidate(s, keys, 8, 1, "none", "none").optimizer_offload_fraction == fraction


def test_the_offload_suggestion_and_a_folded_pipeline_spell_the_offload_as_it_runs() -> None:
    """The optimizer-offload suggestion writes the sharding the offload runs with (Parallelism.offload_sharding, the
    searches' and Make it fit's rule): on an FSDP layout ZeRO-3 with offload_optimizer (FSDP has no optimizer-only
    offload: the FSDP test's sources), a scenario its framework runs. A pipeline Hugging Face cannot run (its row: no
    pipeline parallelism) folded into data parallelism makes FSDP shard (dp 1 -> 8): its optimizer-only offload then
    becomes ZeRO-3's too, where before the folded layout was refused and no way out was offered."""
    from engine.planning.offload_suggest import offload_candidate
    from engine.scenario.runnable import runnable_layouts

    s = scenario_from_dict({**EIGHT, "framework": "huggingface", "fsdp": True})
    _, changes, _ = offload_candidate(s)
    assert changes == {"zero_stage": 3, "fsdp": False, "offload": "optimizer"}
    assert not cannot_run(s.with_unchecked(**changes))
    piped = scenario_from_dict({**EIGHT, "framework": "huggingface", "fsdp": True, "offload": "optimizer", "pp": 8})
    assert cannot_run(piped) == ("pp",)  # one data-parallel rank: FSDP shards nothing there
    ways = runnable_layouts(piped)
    assert ways and ways[0].changes["pp"] == 1 and ways[0].scenario.fsdp is False
    assert ways[0].scenario.zero_stage == 3 and not cannot_run(ways[0].scenario)


def test_make_it_fit_from_fsdp_with_an_optimizer_only_offload_lists_each_plan_once() -> None:
    """Llama 3 70B on 8 A100 80 GB, Hugging Face FSDP with offload "optimizer" (which FSDP has not: the FSDP test's
    sources): Make it fit starts from both ways out (ZeRO-3 with offload_optimizer, FSDP's own offload of the weights
    too), each plan's first step the change that makes it runnable; two ways that end in the same scenario (more GPUs
    bring their own layout and offload) are one plan, not two."""
    from engine.planning.solver import plans

    s = scenario_from_dict({"model": "llama-3-70b", "gpu": "a100-80gb", "gpus_per_node": 8, "micro_batch": 1,
                            "seq_len": 4096, "grad_accum": 8, "attention": "flash", "framework": "huggingface",
                            "fsdp": True, "offload": "optimizer", "precision": "mixed-bf16"})
    assert cannot_run(s) == ("fsdp_offload",)
    found = plans(s, max_plans=30)
    assert found and all(not cannot_run(p.scenario) for p in found)
    assert len({p.scenario for p in found}) == len(found)
    # none keeps FSDP with the optimizer alone offloaded (ZeRO-3 may add its weight offload on top: offload_param)
    assert all(not (p.scenario.fsdp and p.scenario.offload == "optimizer") for p in found)


def test_a_search_starts_from_what_the_framework_runs():
    """Megatron-LM of 2021 has no distributed optimizer (de7dc40f88 megatron/arguments.py: no
    --use-distributed-optimizer; it came at 329fe5820fdb, 2022-02-10). A scenario asking for one had no plans at all
    (every layout refused); the search now starts from the runnable layout (distributed_optimizer off: the nearest
    engine/scenario/runnable.py gives) and each plan says it changed it."""
    from engine.planning.speed_search import speed_search
    from engine.scenario.framework_support import cannot_run

    s = scenario_from_dict({"model": "llama-2-13b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 2,
                            "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 4096, "grad_accum": 8,
                            "attention": "flash", "checkpointing": "full", "framework": "megatron-2021", "tp": 4,
                            "distributed_optimizer": True})
    assert cannot_run(s)
    result = speed_search(s)
    assert result.plans
    for plan in result.plans:
        assert plan.changes.get("distributed_optimizer") is False and cannot_run(plan.scenario) == ()
