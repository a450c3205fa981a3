"""Issue 23 item 5: at which sharding stages each framework shards within groups of fewer than all its data-parallel
ranks (the scenario's dp_shard), read at the commits its row cites (engine/frameworks/shard_group_facts.py): the
estimate warns about a group its framework cannot run, the window marks the shard-group row, and the searches neither
try nor keep one.

Each case's expected value comes from the source line quoted beside it, which the row's "shard group" source names too
(the tests read it back). Stages are the engine's effective ones: 1 ZeRO-1 / Megatron's distributed optimizer, 2
ZeRO-2, 3 FSDP / ZeRO-3.
"""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import FRAMEWORKS, defaults_for
from engine.planning import speed_search as search
from engine.planning.shard_group_choice import layout_shard_group, node_group_layouts, with_fitted_shard_group
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.scenario.runnable import runnable_layouts
from gui.theme import text_colour
from tests.window_helpers import window_from

# Llama 3 8B on 2 nodes of 8 H100s: 16 data-parallel ranks, groups of 8 (a node)
TWO_NODES = {"schema_version": 1, "model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
             "precision": "bf16", "micro_batch": 1, "grad_accum": 4, "seq_len": 4096, "attention": "flash"}
SHARDINGS = {1: {"zero_stage": 1}, 2: {"zero_stage": 2}, 3: {"zero_stage": 3}, "fsdp": {"fsdp": True}}


def _grouped(framework: str, sharding: int | str, group: int = 8, **more) -> object:
    return scenario_from_dict({**TWO_NODES, "framework": framework, **SHARDINGS[sharding], "dp_shard": group, **more})


def _source(framework: str) -> str:
    found = [where for what, where in defaults_for(framework).parallelism.sources if what == "shard group"]
    assert len(found) == 1, framework
    return found[0]


def _sentence(s) -> str:
    names = cannot_run(s)
    return str(unsupported_settings(s)[names.index("dp_shard")]) if "dp_shard" in names else ""


def test_deepspeed_runs_a_group_at_zero_3_only_and_says_so_at_zero_1_and_2():
    # DeepSpeed edaa7221 runtime/engine.py lines 2382-2410: ZeRO-1/2 over seq_data_parallel_group (every rank);
    # lines 2434-2469: only ZeRO-3 returns the MiCS optimizer (mics.py line 361, a DeepSpeedZeroOptimizer_Stage3)
    assert "MiCS_Optimizer(DeepSpeedZeroOptimizer_Stage3)" in _source("deepspeed")
    assert cannot_run(_grouped("deepspeed", 3)) == ()
    for stage in (1, 2):
        s = _grouped("deepspeed", stage)
        assert cannot_run(s) == ("dp_shard",)
        assert _sentence(s) == (f"DeepSpeed shards ZeRO-{stage} over every data-parallel GPU: a shard group of 8 GPUs "
                                "cannot run in it; it shards within groups with ZeRO-3 only.")
        assert _sentence(s) in [str(w) for w in estimate(s).warnings]  # the estimate says it
    # the group of every rank, and the default, ask nothing
    assert cannot_run(_grouped("deepspeed", 2, group=16)) == () == cannot_run(_grouped("deepspeed", 2, group=0))
    # MiCS came with v0.9.2 (2e99f6edf): none in DeepSpeed 0.3.14; inside the 0.4.4-0.12 row's range
    assert "no shard groups" in _sentence(_grouped("deepspeed-2021", 3))
    assert cannot_run(_grouped("deepspeed-2022", 3)) == () and cannot_run(_grouped("deepspeed-2022", 1))


@pytest.mark.parametrize(("framework", "key"), [
    ("torchtitan", "dp_replicate"),  # b5bcd76c66d0 parallelize.py lines 62-65
    ("torchtune", "data_parallel_replicate_dim"),  # bd2a0fc7c314 full_finetune_distributed.py lines 169-174
    ("olmo-core", "DataParallelType.hsdp"),  # fa6c5014c9f6 data_parallel.py line 29
    ("litgpt", "HYBRID_SHARD"),  # 26857050fe3f pretrain.py line 143
    ("nemo-automodel-te", "dp_replicate_size"),  # 36044ad3d139 mesh_utils.py lines 71-76
    ("verl", "('ddp', 'fsdp')"),  # b178a3cd56f5 fsdp_workers.py lines 98-105
    ("nemo-rl", "dp_replicate_size"),  # 7ea279abfbeb setup.py lines 464-473
])
def test_fsdp_frameworks_run_hsdp_at_their_only_sharding(framework, key):
    assert key in _source(framework)
    assert defaults_for(framework).parallelism.shard_group_stages == (3,)
    assert cannot_run(_grouped(framework, "fsdp")) == ()
    # a stage they lack altogether is the sharding's own sentence, not the group's as well
    assert "dp_shard" not in cannot_run(_grouped(framework, 1)) and "zero" in cannot_run(_grouped(framework, 1))


@pytest.mark.parametrize("framework", ["huggingface", "trl", "ms-swift"])
def test_hugging_face_runs_hybrid_fsdp_and_mics_but_no_zero_1_group(framework):
    # accelerate 16cb6eb80 constants.py line 38: HYBRID_SHARD, HYBRID_SHARD_ZERO2 (read as ZeRO-2); parallelism_config.py
    # lines 61-64 HSDP; DeepSpeed's MiCS at ZeRO-3; DeepSpeed's ZeRO-1 over every rank and FSDP has no stage 1
    assert "HYBRID_SHARD_ZERO2" in _source(framework) and "MiCS" in _source(framework)
    for sharding in ("fsdp", 2, 3):
        assert cannot_run(_grouped(framework, sharding)) == ()
    s = _grouped(framework, 1)
    assert cannot_run(s) == ("dp_shard",) and "ZeRO-2, ZeRO-3 only" in _sentence(s)
    # the QLoRA row of the method keeps the framework's groups (Parallelism.for_method)
    assert defaults_for(framework).parallelism.for_method("qlora").shard_group_stages == (2, 3)


def test_megatron_runs_optimizer_instances_and_megatron_fsdp_groups():
    # Megatron-LM d98e8a64 arguments.py line 3216 --num-distributed-optimizer-instances; mcore_fsdp_adapter.py line
    # 346 enable_hsdp = num_distributed_optimizer_instances > 1 (Megatron-FSDP's optim_grads / optim_grads_params)
    assert "--num-distributed-optimizer-instances" in _source("megatron") and "enable_hsdp" in _source("megatron")
    assert cannot_run(_grouped("megatron", 1, distributed_optimizer=True)) == ()
    assert cannot_run(_grouped("megatron", 3)) == ()
    # 285068c8 (2022): --use-distributed-optimizer over the whole data-parallel group, no instances
    s = _grouped("megatron-2022", 1)
    assert cannot_run(s) == ("dp_shard",) and _sentence(s).startswith("Megatron") and "no shard groups" in _sentence(s)


def test_internevo_runs_zero1_groups_the_published_rows_use():
    # InternEvo c18bec9 process_group_initializer.py lines 293-333: zero1 groups of parallel.zero1 ranks
    assert "Initializer_Zero1" in _source("internevo")
    assert cannot_run(_grouped("internevo", 1)) == ()


@pytest.mark.parametrize(("framework", "stage", "key"), [
    ("openrlhf", 3, "zero_hpz_partition_size"),  # 3c3be6234e0c deepspeed_utils.py lines 7-38: no mics_shard_size
    ("aleph-alpha-scaling", 1, "get_data_parallel_partitions"),  # 78489292be parameter_group.py lines 48-63
    ("unsloth", 3, "Multi-GPU is not yet supported"),  # 015bdef0d94a _gpu_init.py line 135
])
def test_frameworks_without_groups_refuse_every_one(framework, stage, key):
    assert key in _source(framework) and defaults_for(framework).parallelism.shard_group_stages == ()
    s = _grouped(framework, stage)
    label = defaults_for(framework).label
    assert cannot_run(s) == ("dp_shard",)
    assert _sentence(s) == (f"{label} has no shard groups: ZeRO-{stage} spans every data-parallel GPU, so a shard "
                            "group of 8 GPUs cannot run in it.")


def test_every_row_says_where_its_groups_come_from():
    """Each row has its shard-group fact, or is one of the permissive rows (plain PyTorch composes them itself)."""
    for framework in FRAMEWORKS:
        caps = defaults_for(framework).parallelism
        if framework == "pytorch":
            assert caps.shard_group_stages == (1, 2, 3)
            continue
        assert _source(framework)


def test_the_searches_do_not_try_or_keep_a_group_the_framework_lacks():
    # DeepSpeed: MiCS is ZeRO-3's; a ZeRO-2 layout of a grouped scenario shards over every rank
    s = _grouped("deepspeed", 3)
    assert layout_shard_group(s, 16, 3, False) == 8 and layout_shard_group(s, 16, 2, False) == 0
    assert with_fitted_shard_group(s.with_unchecked(zero_stage=2)).dp_shard == 0
    assert with_fitted_shard_group(s) is s
    ranked = search.speed_search(s).ranked  # the layouts the throughput search timed
    assert {lay["dp_shard"] for lay in ranked if lay["zero_stage"] == 3 and lay["tp"] == 1} == {8}
    assert {lay["dp_shard"] for lay in ranked if lay["zero_stage"] == 2} == {0}
    # OpenRLHF writes no mics_shard_size: the node-sized group is not tried on its ZeRO-3 layouts
    full = {"tp": 1, "cp": 1, "pp": 1, "ep": 1, "zero_stage": 3, "fsdp": False, "dp_shard": 0}
    assert node_group_layouts(_grouped("deepspeed", 3, group=0), [full], [full]) == [{**full, "dp_shard": 8}]
    assert node_group_layouts(_grouped("openrlhf", 3, group=0), [full], [full]) == []
    result = search.speed_search(_grouped("openrlhf", 3))
    assert result.plans and all(cannot_run(p.scenario) == () for p in result.plans + result.changes_what_you_train)


def test_runnable_layouts_shard_over_every_rank_or_keep_a_group_the_fixed_stage_runs():
    lay = runnable_layouts(_grouped("deepspeed", 2))
    assert [r.changes for r in lay] == [{"dp_shard": 0}] and cannot_run(lay[0].scenario) == ()
    assert "DeepSpeed can run the layout" in str(lay[0].step)
    # torchtitan's ZeRO-2 becomes FSDP, which runs the group: kept
    lay = runnable_layouts(_grouped("torchtitan", 2))
    assert lay and all(r.scenario.dp_shard == 8 and cannot_run(r.scenario) == () for r in lay)


def test_the_window_marks_a_group_its_framework_cannot_run(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**TWO_NODES, "framework": "deepspeed", "zero_stage": 3, "dp_shard": 8})
    row, state = win.setup_panel.shard_group_row, win.state
    combo = row.combo
    label = combo.parentWidget().layout().labelForField(combo)
    own_tip = combo.toolTip()
    assert "HSDP" in own_tip and text_colour("tight") not in combo.styleSheet()
    state.edit({"zero_stage": 2})  # DeepSpeed's ZeRO-2 has no MiCS
    sentence = _sentence(state.scenario)
    assert sentence and combo.currentData() == 8 and combo.isVisibleTo(win)  # the value kept
    assert combo.toolTip() == sentence and text_colour("tight") in combo.styleSheet()
    assert label is not None and label.toolTip() == sentence and text_colour("tight") in label.styleSheet()
    zero = win.setup_panel.zero  # the sharding list, the other setting of the pair, says it too
    assert zero.toolTip() == sentence and text_colour("tight") in zero.styleSheet()
    state.edit({"zero_stage": 3})
    assert combo.toolTip() == own_tip and text_colour("tight") not in combo.styleSheet()
