"""Which sharding stage an offload runs with: one rule (Parallelism.offload_sharding) that the speed and rent searches
(engine/planning/search_candidates.py) and Make it fit (engine/planning/solver.py) both ask, so that for the same
layout and offload they propose the same zero_stage and fsdp. Each expectation is read from the framework's row
(engine/frameworks/parallelism.py), whose sources say where the fact is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.frameworks import parallelism as par
from engine.planning.search_candidates import candidate, framework_runs_layout
from engine.planning.solver import _combine, _offload_options
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
    for option in _offload_options(s):
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
    """Mistral Small 3.1 24B, full training on 2 A100 80 GB under Megatron with --use-distributed-optimizer: nothing
    fits without offload, and the search's plans offload the optimizer from the distributed optimizer Megatron runs
    it with (the row's optimizer_offload_stage, sources in the first test), not from ZeRO-2, which under Megatron is
    Megatron-FSDP's optim_grads (the searches' rule before they asked Parallelism.offload_sharding)."""
    from engine.planning.speed_search import speed_search

    s = scenario_from_dict({"model": "mistral-small-3.1-24b", "gpu": "a100-80gb", "gpus_per_node": 2, "micro_batch": 1,
                            "seq_len": 2048, "grad_accum": 8, "attention": "flash", "framework": "megatron",
                            "precision": "mixed-bf16", "distributed_optimizer": True})
    plans = speed_search(s).plans
    assert plans and all(p.scenario.offload == "optimizer" for p in plans)
    first = plans[0].scenario
    assert (first.zero_stage, first.fsdp, first.effective_zero) == (0, False, par.MEGATRON.optimizer_offload_stage)
    assert not cannot_run(first)
