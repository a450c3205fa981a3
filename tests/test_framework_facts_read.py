"""The framework facts read for issue 23 item 5 (plans that can run) after the first rows: DeepSpeed's checkpointing
modes and methods, the post-training rows' (verl, OpenRLHF, ms-swift, NeMo-RL) checkpointing, methods, sharding stages
and offload kinds, and InternEvo's and Aleph Alpha's offload (engine/frameworks/runs.py, parallelism.py). Each case
cites the source line its fact quotes; every published row still runs (tests/test_framework_runs.py
test_no_published_run_is_flagged)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.frameworks import parallelism as par
from engine.frameworks import runs as rn
from engine.frameworks.defaults import defaults_for
from engine.planning.speed_search import speed_search
from engine.scenario.format import scenario_from_dict
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.scenario.runnable import runnable_layouts

REPO = Path(__file__).resolve().parents[1]
# Llama 2 7B, full fine-tune, ZeRO-3 over 8 A100 40GB, full recomputation (the example's own settings)
EXAMPLE = json.loads((REPO / "examples" / "7b-zero3-8x-a100-40g.json").read_text())
POST_TRAINERS = ("verl", "openrlhf", "ms-swift", "nemo-rl")


def _s(**changes: object):
    return scenario_from_dict({**EXAMPLE, **changes})


def _source(framework: str, fact: str, rows: str = "runs") -> str:
    row = getattr(defaults_for(framework), rows)
    found = [where for what, where in row.sources if fact in what.split(", ")]
    assert found, f"{framework}: no source for {fact}"
    return found[0]


def test_deepspeed_recomputes_what_it_is_handed_selective_but_no_per_op_policy():
    """DeepSpeed edaa7221 activation_checkpointing/checkpointing.py line 1058 checkpoint(function, *args) recomputes
    the function it is given; Megatron-DeepSpeed 4efb479d5317 megatron/arguments.py line 830 --recompute-granularity
    full | selective (model/transformer.py line 629 checkpoint_core_attention): selective runs, no per-op policy."""
    assert defaults_for("deepspeed").runs is rn.DEEPSPEED
    assert not cannot_run(_s(framework="deepspeed", checkpointing="selective"))
    per_op = _s(framework="deepspeed", checkpointing="op-selective")
    assert cannot_run(per_op) == ("checkpointing",)
    assert [lay.changes for lay in runnable_layouts(per_op)] == [{"checkpointing": "selective"}]  # its own selective
    assert "line 1058" in _source("deepspeed", "checkpointing") and "line 830" in _source("deepspeed", "checkpointing")


@pytest.mark.parametrize("method", ["lora", "qlora", "freeze"])
def test_deepspeed_trains_every_method(method):
    """peft 5d602fdbff04 docs/source/accelerate/deepspeed.md line 241 (QLoRA under ZeRO-3) and DeepSpeed edaa7221
    deepspeed/linear/config.py LoRAConfig, QuantizationConfig: no method refused."""
    assert "method" not in cannot_run(_s(framework="deepspeed", method=method))
    assert "deepspeed.md line 241" in _source("deepspeed", "methods")


@pytest.mark.parametrize("framework,line", [
    ("verl", "lines 439-440"),  # verl b178a3cd56f5 fsdp_workers.py actor_module.gradient_checkpointing_enable
    ("openrlhf", "lines 298-299"),  # OpenRLHF 3c3be6234e0c models/actor.py gradient_checkpointing_enable
    ("ms-swift", "lines 930-941"),  # ms-swift 3602360a5623 trainers/mixin.py _prepare_gradient_checkpointing
    ("nemo-rl", "lines 218-275"),  # Automodel 24b47e856263 distributed/parallelizer.py activation_checkpointing
])
def test_post_trainers_recompute_whole_layers(framework, line):
    s = _s(framework=framework, checkpointing="selective")
    assert cannot_run(s) == ("checkpointing",)
    assert any("whole layers only" in str(m) for m in unsupported_settings(s))
    assert [lay.changes for lay in runnable_layouts(s)] == [{"checkpointing": "full"}]
    assert line in _source(framework, "checkpointing")


def test_verl_has_no_qlora_and_its_search_offers_none():
    """verl b178a3cd56f5 fsdp_workers.py lines 406-412 from_pretrained without a quantization_config, line 437
    actor_module.to(torch_dtype) (refused by transformers for a bitsandbytes model); LoRA through peft (line 471)."""
    typed = _s(framework="verl", fsdp=True, zero_stage=0, method="qlora")
    assert cannot_run(typed) == ("method",)
    assert [str(m) for m in unsupported_settings(typed)] == ["verl has no QLoRA."]
    assert [lay.changes for lay in runnable_layouts(typed)] == [{"method": "lora"}]
    assert not cannot_run(_s(framework="verl", fsdp=True, zero_stage=0, method="lora"))
    assert "line 437" in _source("verl", "methods")
    result = speed_search(typed)
    assert not result.plans and {p.scenario.method for p in result.changes_what_you_train} <= {"lora", "full"}


@pytest.mark.parametrize("framework", ["openrlhf", "ms-swift", "nemo-rl"])
def test_the_other_post_trainers_run_qlora(framework):
    """OpenRLHF 3c3be6234e0c actor.py lines 115-121 (--ds.load_in_4bit, nf4); ms-swift 3602360a5623 quant_args.py
    lines 51-53 (bnb, quant_bits 4); NeMo-RL 7ea279abfbeb setup.py line 770 automodel_kwargs into Automodel's
    from_pretrained (quantization_config, auto_model.py line 542): allowed."""
    assert "method" not in cannot_run(_s(framework=framework, method="qlora"))


@pytest.mark.parametrize("framework", ["verl", "nemo-rl"])
@pytest.mark.parametrize("stage", [1, 2])
def test_verl_and_nemo_rl_shard_with_fsdp_only(framework, stage):
    """verl b178a3cd56f5 fsdp_workers.py lines 98-123 (FULL_SHARD or HYBRID_SHARD); NeMo-RL 7ea279abfbeb
    automodel/setup.py lines 464-489 (FSDP2, dp_replicate_size for HSDP)."""
    assert "zero" in cannot_run(_s(framework=framework, zero_stage=stage))
    assert any("shards with FSDP only" in str(m) for m in unsupported_settings(_s(framework=framework,
                                                                                   zero_stage=stage)))
    assert not cannot_run(_s(framework=framework, zero_stage=0, fsdp=True))
    assert not cannot_run(_s(framework=framework, zero_stage=0))  # plain data parallelism (HSDP's shard size 1)


def test_verl_offloads_the_optimizer_alone_or_with_the_weights():
    """verl b178a3cd56f5 trainer/config/engine/fsdp.yaml lines 10-19: param_offload and optimizer_offload."""
    for offload in ("optimizer", "optimizer+params"):
        assert not cannot_run(_s(framework="verl", zero_stage=0, fsdp=True, offload=offload))
    assert par.VERL.offload_name("optimizer") == "actor.fsdp_config.optimizer_offload"


def test_nemo_rl_offloads_weights_and_optimizer_together_only():
    """NeMo-RL 7ea279abfbeb automodel/setup.py line 489: dtensor_cfg.cpu_offload is FSDP2's CPUOffloadPolicy."""
    assert not cannot_run(_s(framework="nemo-rl", zero_stage=0, fsdp=True, offload="optimizer+params"))
    assert "offload" in cannot_run(_s(framework="nemo-rl", zero_stage=0, fsdp=True, offload="optimizer"))
    assert "line 489" in _source("nemo-rl", "offload", "parallelism")


def test_openrlhf_offloads_the_optimizer_only():
    """OpenRLHF 3c3be6234e0c utils/deepspeed/deepspeed.py lines 437-439: the training config is built with
    offload=False (deepspeed_utils.py line 24 offload_param 'none'); --ds.adam_offload (train_ppo_ray.py line 322)."""
    assert not cannot_run(_s(framework="openrlhf", offload="optimizer"))
    assert "offload" in cannot_run(_s(framework="openrlhf", offload="optimizer+params"))
    assert par.OPENRLHF.offload_name("optimizer") == "--ds.adam_offload"
    for stage in (1, 2, 3):  # --ds.zero_stage, DeepSpeed's (train_ppo_ray.py line 308)
        assert "zero" not in cannot_run(_s(framework="openrlhf", zero_stage=stage))


@pytest.mark.parametrize("offload", ["optimizer", "optimizer+params"])
def test_ms_swift_offloads_as_its_deepspeed_configs(offload):
    """ms-swift 3602360a5623 swift/config/zero2_offload.json lines 17-20, zero3_offload.json lines 17-24."""
    assert not cannot_run(_s(framework="ms-swift", offload=offload))


@pytest.mark.parametrize("framework,fact", [
    ("internevo", "train.py (lines 235-237)"),  # InternEvo c18bec9: HybridZeroOptimizer built without cpu_offload
    ("aleph-alpha-scaling", "line 156"),  # scaling 78489292be optimizer/parameter_group.py: start-up only
])
def test_internevo_and_aleph_alpha_offload_nothing(framework, fact):
    s = _s(framework=framework, zero_stage=1, checkpointing="full", offload="optimizer")
    assert "offload" in cannot_run(s)
    assert fact in _source(framework, "offload", "parallelism")
    assert not cannot_run(_s(framework=framework, zero_stage=1))


def test_every_post_trainer_has_its_own_runs_row():
    """The rows are read per framework now, none left 'not read' for checkpointing."""
    for fid in POST_TRAINERS:
        assert "not read" not in _source(fid, "checkpointing"), fid
    assert defaults_for("trl").runs is rn.HUGGINGFACE
