"""The sharding stages and offload kinds each framework has (engine/frameworks/parallelism.py zero_stages, offloads,
one_gpu_offloads, offload_names; each case cites the source line its fact quotes), how the searches and plans use them,
and Make it fit's sentences matching the changes they name (issue 23 item 5, h-audit's findings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.frameworks import parallelism as par
from engine.planning.solver import plans
from engine.planning.suggest import suggestions
from engine.scenario.format import scenario_from_dict
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.scenario.runnable import runnable_layouts

REPO = Path(__file__).resolve().parent.parent
# Llama 2 7B, full training, one H100 80 GB, full recomputation: it does not fit (the example's own verdict)
ONE_GPU = json.loads((REPO / "examples" / "7b-full-finetune-one-gpu.json").read_text())
EIGHT = {**ONE_GPU, "gpus_per_node": 8}


def _s(**changes: object):
    return scenario_from_dict({**EIGHT, **changes})


@pytest.mark.parametrize("framework", ["torchtitan", "torchtune", "olmo-core", "litgpt", "nemo-automodel-te"])
@pytest.mark.parametrize("stage", [1, 2])
def test_fsdp_only_frameworks_have_no_zero1_or_zero2(framework, stage):
    """FSDP is their only sharding: torchtitan b5bcd76c66d0 models/llama3/parallelize.py line 63 (fully_shard over the
    dp_replicate/fsdp mesh), torchtune bd2a0fc7c314 full_finetune_distributed.py lines 56-62 ('training with FSDP2'),
    OLMo-core fa6c5014c9f6 data_parallel.py lines 27-30 (fsdp, hsdp, ddp), litgpt 26857050fe3f pretrain.py line 143
    and finetune/full.py lines 108-113 (FSDPStrategy, HYBRID_SHARD / FULL_SHARD), Automodel 36044ad3d139
    distributed/config.py and ddp.py (FSDP2 or DDP)."""
    s = _s(framework=framework, zero_stage=stage)
    assert "zero" in cannot_run(s)
    assert any("shards with FSDP only" in str(m) for m in unsupported_settings(s))
    assert not cannot_run(_s(framework=framework, fsdp=True))  # FSDP itself runs
    # one data-parallel rank shards nothing: the stage is only a name there
    assert "zero" not in cannot_run(scenario_from_dict({**ONE_GPU, "framework": framework, "zero_stage": stage}))


def test_torchtitan_and_torchtune_offload_the_weights_with_the_optimizer_only():
    """torchtitan b5bcd76c66d0 config/configs.py line 69 enable_cpu_offload ('parameters, gradients, and optimizer
    states in FSDP'); torchtune bd2a0fc7c314 full_finetune_distributed.py line 145 fsdp_cpu_offload (FSDP2
    CPUOffloadPolicy): no optimizer-only offload on several GPUs."""
    for fw in ("torchtitan", "torchtune"):
        assert not cannot_run(_s(framework=fw, fsdp=True, offload="optimizer+params"))
        assert "offload" in cannot_run(_s(framework=fw, zero_stage=2, offload="optimizer"))


def test_torchtune_offloads_the_optimizer_alone_on_one_gpu():
    """torchtune bd2a0fc7c314 docs/source/tutorials/memory_optimizations.rst lines 253-281: 'CPU offloading in our
    single-device recipes through the CPUOffloadOptimizer from torchao'."""
    one = scenario_from_dict({**ONE_GPU, "framework": "torchtune", "zero_stage": 2, "offload": "optimizer"})
    assert not cannot_run(one)
    assert par.TORCHTUNE.offload_name("optimizer") == "torchao CPUOffloadOptimizer"


@pytest.mark.parametrize("framework", ["olmo-core", "litgpt"])
def test_olmo_core_and_litgpt_have_no_cpu_offload(framework):
    """OLMo-core fa6c5014c9f6: no CPUOffloadPolicy in src/ (cpu_offload=True, train_module.py line 190, is the
    checkpoint state-dict option); litgpt 26857050fe3f finetune/full.py line 113 FSDPStrategy(cpu_offload=False)."""
    s = _s(framework=framework, fsdp=True, offload="optimizer+params")
    assert cannot_run(s) == ("offload",)
    assert "has no CPU offload" in str(unsupported_settings(s)[0])


def test_megatron_offloads_the_optimizer_not_the_weights():
    """Megatron-LM d98e8a64ddf3 megatron/training/arguments.py line 1884: --optimizer-cpu-offload is its only training
    offload (HybridDeviceOptimizer); no weight offload."""
    assert "offload" in cannot_run(_s(framework="megatron", zero_stage=3, offload="optimizer+params"))
    assert not cannot_run(_s(framework="megatron", distributed_optimizer=True, offload="optimizer"))
    lay = runnable_layouts(_s(framework="megatron", zero_stage=3, offload="optimizer+params"))
    assert lay and lay[0].changes == {"offload": "optimizer"}


@pytest.mark.parametrize("framework", ["megatron-2022", "megatron-2021"])
def test_megatron_lm_of_2021_and_2022_has_no_offload(framework):
    """megatron/arguments.py at 285068c8 (2023-01) and de7dc40f88 (2021-08): no offload argument."""
    caps = par.MEGATRON_2022 if framework == "megatron-2022" else par.MEGATRON_2021
    assert caps.offloads == ("none",) and not caps.has_offload("optimizer", 1)


def test_megatron_fsdp_with_a_pipeline_is_flagged_but_not_meta_llama3():
    """Megatron-FSDP is neither documented nor tested with pp > 1 (parallelism.py MEGATRON "ZeRO with PP": its docs
    name TP and EP, its functional tests and Megatron-Bridge's FSDP recipes run pp 1, v2 and --use-torch-fsdp2
    refuse it): ZeRO-2 and 3 with pp 2 are flagged, ZeRO-1 (the distributed optimizer) is not. Meta's Llama 3 stack
    ran ZeRO-2 with PP 16 (arXiv:2407.21783 Table 4)."""
    for stage in (2, 3):
        assert cannot_run(_s(framework="megatron", zero_stage=stage, pp=2)) == ("zero_with_pp",)
        assert not cannot_run(_s(framework="meta-llama3", zero_stage=stage, pp=2))
    assert not cannot_run(_s(framework="megatron", zero_stage=1, pp=2))


@pytest.mark.parametrize("framework", ["huggingface", "deepspeed"])
def test_hugging_face_and_deepspeed_have_every_stage_and_offload(framework):
    """accelerate's DeepSpeed plugin (ZeRO-1 to 3, offload_optimizer / offload_param) and DeepSpeed itself."""
    for stage in (1, 2, 3):
        assert not cannot_run(_s(framework=framework, zero_stage=stage))
    assert not cannot_run(_s(framework=framework, zero_stage=2, offload="optimizer"))
    assert not cannot_run(_s(framework=framework, zero_stage=3, offload="optimizer+params"))


def test_a_missing_stage_becomes_fsdp_keeping_the_gathered_weights():
    """torchtune bd2a0fc7c314 full_finetune_distributed.py line 62: fsdp_reshard_after_forward False 'corresponds to
    SHARD_GRAD_OP' (ZeRO-2's FSDP form): the nearest runnable layout to ZeRO-1/2 under torchtitan."""
    lay = runnable_layouts(_s(framework="torchtitan", zero_stage=2))
    assert lay[0].changes == {"fsdp": True, "zero_stage": 0, "reshard_after_forward": False}


@pytest.mark.parametrize("framework", ["torchtitan", "torchtune"])
def test_make_it_fit_shards_and_offloads_as_the_framework_does(framework):
    """Make it fit under an FSDP-only framework: no ZeRO-1/2 plan, FSDP named as such, and the weights offloaded with
    FSDP2's CPUOffloadPolicy under the framework's own name (torchtune: torchao's CPUOffloadOptimizer on one GPU)."""
    found = plans(scenario_from_dict({**ONE_GPU, "framework": framework}))
    assert found and all(not cannot_run(p.scenario) for p in found)
    assert any("with FSDP" in p.summary for p in found)
    offloads = [p for p in found if p.scenario.offload != "none"]
    assert offloads
    name = "torchao CPUOffloadOptimizer" if framework == "torchtune" else "FSDP2 CPUOffloadPolicy"
    assert all(name in p.summary for p in offloads)
    eight = plans(_s(framework=framework, fsdp=False))
    assert all(p.scenario.effective_zero in (0, 3) for p in eight)


def test_make_it_fit_offers_no_weight_offload_under_megatron():
    """Megatron-Core offloads the optimizer only (arguments.py line 1884 at d98e8a64ddf3)."""
    found = plans(scenario_from_dict({**ONE_GPU, "framework": "megatron"}))
    assert found and all(p.scenario.offload != "optimizer+params" for p in found)


def test_a_selective_scenario_is_told_to_recompute_whole_layers_not_to_turn_checkpointing_on():
    """h-audit: 'Turn on activation checkpointing' for a scenario already at selective (405B Megatron)."""
    s = scenario_from_dict({**ONE_GPU, "framework": "megatron", "checkpointing": "selective"})
    texts = [p.summary for p in plans(s)] + [str(x.title) for x in suggestions(s)]
    assert not any("Turn on activation checkpointing" in t for t in texts)
    assert any("Recompute whole layers" in t for t in texts)


def test_more_gpus_name_only_the_dimensions_the_plan_uses():
    """h-audit: 'Use 2 GPUs with tp=2, pp=1 ... PP adds pipeline bubbles' under Hugging Face, which has no pipeline."""
    for p in plans(scenario_from_dict(ONE_GPU)):  # Hugging Face: more GPUs with TP, never PP
        if p.scenario.world_size > 1 and p.scenario.tp > 1:
            assert "pp=" not in p.summary and not any("pipeline bubbles" in str(n) for n in p.notes)
            break
    else:
        pytest.fail("no tensor-parallel plan on more GPUs")


def test_lora_suggestion_keeps_zero3():
    """LoRA runs under ZeRO-3 and FSDP (huggingface/peft 5d602fdbff04 docs/source/accelerate/deepspeed.md, fsdp.md):
    the suggestion no longer clamps the stage to 2."""
    s = scenario_from_dict({**ONE_GPU, "framework": "deepspeed", "zero_stage": 3})  # does not fit: suggestions come
    lora = [x for x in suggestions(s) if x.changes.get("method") == "lora"]
    assert lora and "zero_stage" not in lora[0].changes
