"""Issue 23 item 5, layouts experts would choose: the parallelism facts that had been left permissive ("not read:
allowed"), now read at a commit (engine/frameworks/parallelism.py). Each case's expected value comes from the source
line quoted beside it, which the row's own source string names too (the tests read it back).

The layout arguments of Parallelism.cannot_run are (tp, pp, pp_schedule, cp, ep, zero, method); zero is the effective
stage, 3 for FSDP.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import defaults_for
from engine.frameworks.parallelism import ALL_SCHEDULES, FSDP
from engine.scenario.framework_support import cannot_run

POSTTRAINING = Path(__file__).parent / "data" / "published" / "posttraining.json"
MOE = {"schema_version": 1, "model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1,
       "precision": "bf16", "micro_batch": 1, "grad_accum": 4, "seq_len": 4096, "fsdp": True}


def _refused(framework: str, tp: int = 1, pp: int = 1, cp: int = 1, ep: int = 1, zero: int = 0,
             method: str = "full", schedule: str = "1f1b") -> tuple[str, ...]:
    return defaults_for(framework).parallelism.cannot_run(tp, pp, schedule, cp, ep, zero, method)


def _source(framework: str, fact: str, method: str | None = None) -> str:
    caps = defaults_for(framework).parallelism
    row = caps.method_limits(method) if method else caps
    assert row is not None
    found = [where for what, where in row.sources if fact in what.split(", ")]
    assert found, (framework, method, fact)
    return found[0]


def test_each_post_training_framework_has_its_own_row():
    """The five rows no longer share one permissive row: each names the code of the backend it plans."""
    commits = {"trl": "f2cd57710ae3", "verl": "b178a3cd56f5", "openrlhf": "3c3be6234e0c", "ms-swift": "3602360a5623",
               "nemo-rl": "7ea279abfbeb"}
    for framework, commit in commits.items():
        text = " ".join(where for _, where in defaults_for(framework).parallelism.sources)
        assert commit in text and "not read" not in text, framework


def test_trl_is_the_hugging_face_row():
    # trl f2cd57710ae3 trl/trainer/base_trainer.py line 67: class _BaseTrainer(Trainer); accelerate 16cb6eb80
    # ParallelismConfig: tp_size and cp_size, no pipeline dimension
    assert "_BaseTrainer(Trainer)" in _source("trl", "trainer")
    assert _refused("trl", pp=2) == ("pp",)
    assert _refused("trl", tp=2, cp=2, zero=FSDP) == ()
    assert _refused("trl", ep=2) == ("ep",)
    # the Hugging Face row's QLoRA fact: bitsandbytes 95f9af309d4d _ops.py line 235, one packed column
    assert _refused("trl", tp=2, method="qlora") == ("tp",) and _refused("trl", tp=2, method="lora") == ()


def test_verl_fsdp_workers_run_fsdp_and_ulysses_only():
    # verl b178a3cd56f5 verl/workers/fsdp_workers.py lines 98-105 and 164-175: ('ddp', 'fsdp') and ('dp', 'sp')
    assert "create_device_mesh" in _source("verl", "tensor")
    assert _refused("verl", zero=FSDP) == ()
    assert _refused("verl", tp=2, pp=2, cp=2, ep=2) == ("pp", "tp", "cp", "ep")
    assert "Ulysses" in _source("verl", "context")
    # the published verl rows with Ulysses (the scenario's own key) stay runnable
    s = scenario_from_dict({**MOE, "model": "qwen2.5-7b", "framework": "verl", "training_objective": "grpo",
                            "method": "lora", "ulysses_sequence_parallel_size": 2, "reference_model": "adapter-off"})
    assert cannot_run(s) == ()


def test_openrlhf_runs_deepspeed_autotp_and_ring_attention():
    # OpenRLHF 3c3be6234e0c openrlhf/utils/deepspeed/deepspeed.py lines 103-108: mesh (dp, sp, tp)
    assert _refused("openrlhf", tp=2, cp=2, zero=3) == ()
    assert _refused("openrlhf", pp=2) == ("pp",) and _refused("openrlhf", ep=2) == ("ep",)
    assert "ring_flash_attn" in _source("openrlhf", "context")
    # actor.py lines 115-123 load a bitsandbytes nf4 base; DeepSpeed edaa7221 layers.py lines 771 / 855 multiply
    # by the packed weight as it is: no AutoTP over it
    assert _refused("openrlhf", tp=2, zero=3, method="qlora") == ("tp",)
    assert "torch.matmul" in _source("openrlhf", "tensor", "qlora")


def test_ms_swift_autotp_is_full_fine_tuning_only():
    # ms-swift 3602360a5623 swift/arguments/sft_args.py lines 275-279 (AutoTP) and 157-159 ('only supports
    # full-parameter fine-tuning'); sequence_parallel.py lines 643-660: Ulysses and a zigzag ring
    assert _refused("ms-swift", tp=2, cp=2, zero=3) == ()
    assert _refused("ms-swift", tp=2, method="lora") == ("tp",) and _refused("ms-swift", tp=2, method="qlora") == ("tp",)
    assert "full-parameter" in _source("ms-swift", "tensor", "lora")
    assert _refused("ms-swift", pp=2) == ("pp",) and _refused("ms-swift", ep=2) == ("ep",)
    assert "zigzag_ring_flash_attn_varlen_func" in _source("ms-swift", "context")


def test_nemo_rl_dtensor_worker_has_tp_cp_ep_and_no_pipeline():
    # NeMo-RL 7ea279abfbeb nemo_rl/models/automodel/setup.py line 511: create_device_mesh(..., pp_size=1, ...)
    assert "pp_size=1" in _source("nemo-rl", "pipeline schedules")
    assert _refused("nemo-rl", pp=2) == ("pp",)
    assert _refused("nemo-rl", tp=2, cp=2, ep=4, zero=FSDP) == ()


def test_nemo_automodel_reads_its_own_parallelizer():
    # Automodel 36044ad3d139 pipelining/config.py lines 51-53 ('1f1b', 'gpipe', 'interleaved_1f1b'), parallelizer.py
    # lines 316 and 685-686 (FSDP2 with a pipeline), mesh_utils.py line 410 (the MoE mesh)
    caps = defaults_for("nemo-automodel-te").parallelism
    assert caps.pp_schedules == ALL_SCHEDULES and caps.max_zero_with_pp == FSDP and caps.expert
    assert "36044ad3d139" in _source("nemo-automodel-te", "pipeline schedules")
    assert _refused("nemo-automodel-te", tp=2, pp=2, cp=2, ep=2, zero=FSDP, schedule="interleaved-1f1b") == ()


def test_hugging_face_expert_parallelism_is_not_the_scenarios():
    # accelerate 16cb6eb80 parallelism_config.py lines 172-174: no expert dimension; transformers 03d6d499eea2
    # distributed/mixin.py DistributedMixin.tp_plan: the _ep_plan on the tensor-parallel mesh
    assert "_ep_plan" in _source("huggingface", "expert")
    s = scenario_from_dict({**MOE, "framework": "huggingface", "ep": 8})
    assert cannot_run(s) == ("ep",)
    assert "Hugging Face (Trainer / TRL / accelerate) has no expert parallelism: ep 8 cannot run in it." in \
        [str(w) for w in estimate(s).warnings]


def test_unsloth_attention_runs_whole_heads():
    # unsloth 015bdef0d94a unsloth/models/llama.py lines 696-705: Q.view(bsz, q_len, config.num_attention_heads, ...)
    assert "num_attention_heads" in _source("unsloth", "tensor")
    for method in ("full", "lora", "qlora"):
        assert _refused("unsloth", tp=2, method=method) == ("tp",)
    assert _refused("unsloth", ep=2) == ("ep",)
    assert _refused("unsloth", cp=2) == ()  # not refused by its code (the row says what was not tried)


def test_deepspeed_autotp_cannot_split_a_4bit_base():
    # DeepSpeed edaa7221 module_inject/auto_tp.py lines 741-751 and layers.py lines 771, 855
    assert _refused("deepspeed", tp=2, zero=3, method="qlora") == ("tp",)
    assert _refused("deepspeed", tp=2, zero=3, method="lora") == ()
    assert "edaa7221" in _source("deepspeed", "tensor", "qlora")
    # the PipelineEngine over a 4-bit base: no quantization path and no check at edaa7221 (allowed, with ZeRO-1)
    assert _refused("deepspeed", pp=2, zero=1, method="qlora") == ()


@pytest.mark.parametrize("row", json.loads(POSTTRAINING.read_text()), ids=lambda r: r["id"])
def test_no_published_post_training_run_is_flagged(row):
    """The post-training rows ran (tests/data/published/posttraining.json): their framework runs their layout."""
    assert cannot_run(scenario_from_dict(row["scenario"])) == ()
