"""An ML engineer continuing a Llama 3.1 405B pre-training plan on 1,024 H100 under Megatron (user audit 11) applied
Make it fit's first plan, which sets the pipeline layout Megatron needs for 126 layers on pp 16
("Et*8|(t*8|)*14t*6L"), and exported the launch script: the layout was not in it and no sentence said so, so Megatron
would refuse the script (126 layers do not divide into 16 stages). An interleaved plan's script wrote
--virtual-pipeline-model-parallel-size, which Megatron-LM removed in commit dcef906978 (2021-02); at d98e8a64
megatron/training/arguments.py has --pipeline-model-parallel-layout (lines 3103-3110; its chunks / pp are the virtual
stages, lines 941-951), --num-layers-per-virtual-pipeline-stage and --num-virtual-stages-per-pipeline-rank (3114-3117),
at most one of them (927-939). The script now writes those, and `import` reads them back."""

from __future__ import annotations

from engine.configs.export_left_out import left_out_settings
from engine.configs.exporting import export_config
from engine.configs.importing import import_texts
from engine.scenario import scenario_from_dict

LLAMA_405B = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
              "framework": "megatron", "precision": "mixed-bf16", "tp": 8, "pp": 16, "micro_batch": 1,
              "grad_accum": 64, "seq_len": 8192, "checkpointing": "selective", "sequence_parallel": True,
              "distributed_optimizer": True, "pipeline_layout": "Et*8|(t*8|)*14t*6L"}


def _script_and_back(data: dict) -> tuple[str, dict]:
    s = scenario_from_dict(data)
    script = export_config(s, "megatron")
    return script, import_texts([("megatron_args.sh", script)]).scenario


def test_the_layout_a_plan_needs_is_in_the_script_and_reads_back():
    script, back = _script_and_back(LLAMA_405B)
    assert "--pipeline-model-parallel-layout 'Et*8|(t*8|)*14t*6L'" in script
    assert back["pipeline_layout"] == "Et*8|(t*8|)*14t*6L" and back["pp"] == 16
    assert back.get("vpp", 1) == 1  # 16 chunks on 16 ranks: one each
    assert left_out_settings(scenario_from_dict(LLAMA_405B), "megatron") == {}


def test_virtual_stages_are_written_with_flags_megatron_has():
    # Llama 3 70B, 80 layers, pp 4 x vpp 5: 4 layers a virtual stage
    interleaved = {**LLAMA_405B, "model": "llama-3-70b", "nodes": 4, "pp": 4, "vpp": 5, "pp_schedule": "interleaved-1f1b",
                   "pipeline_layout": ""}
    script, back = _script_and_back(interleaved)
    assert "--virtual-pipeline-model-parallel-size" not in script
    assert "--num-layers-per-virtual-pipeline-stage 4" in script
    assert (back["vpp"], back["pp_schedule"]) == (5, "interleaved-1f1b")
    # 80 layers do not divide into 4 x 3 stages: the stages a rank, as Megatron's uneven VPP (2025-02) takes them
    script, back = _script_and_back({**interleaved, "vpp": 3, "pipeline_layout": ""})
    assert "--num-virtual-stages-per-pipeline-rank 3" in script and back["vpp"] == 3


def test_an_older_script_still_reads_and_a_layout_that_does_not_split_is_said():
    old = ("torchrun pretrain_gpt.py --num-layers 80 --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4 "
           "--virtual-pipeline-model-parallel-size 5")
    assert import_texts([("old.sh", old)]).scenario["vpp"] == 5
    uneven = ("torchrun pretrain_gpt.py --num-layers 80 --pipeline-model-parallel-size 4 "
              "--pipeline-model-parallel-layout 'Et*26|t*27|t*27L'")  # 3 chunks on 4 ranks
    result = import_texts([("uneven.sh", uneven)])
    assert "vpp" not in result.scenario
    assert any("does not split into whole virtual stages" in str(u.why) for u in result.unmapped)
