"""User audit 16: the fastest layout for a 13B run on 4 x 8 A100 40GB (TP 1, PP 4, ZeRO-1, 39.22 GiB per GPU)
exported to Megatron-LM without --use-distributed-optimizer and "ZeRO-1" listed as a setting the file cannot hold.
Megatron's distributed optimizer is ZeRO-1: it shards the fp32 main weights and optimizer states over the
data-parallel ranks (NVIDIA/Megatron-LM megatron/core/optimizer/distrib_optimizer.py; the scenario key
distributed_optimizer and Scenario.effective_zero read it so), so a zero_stage 1 plan now writes the flag."""

from engine import estimate, scenario_from_dict
from engine.configs.export_left_out import left_out_settings
from engine.configs.exporting import export_config
from engine.configs.importing import import_texts

PLAN = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "framework": "megatron",
        "precision": "mixed-bf16", "tp": 1, "pp": 4, "zero_stage": 1, "micro_batch": 1, "seq_len": 4096,
        "grad_accum": 128, "checkpointing": "full", "recompute_num_layers": 6}


def test_a_zero1_plan_writes_the_distributed_optimizer_and_reads_back_the_same_memory():
    s = scenario_from_dict(PLAN)
    text = export_config(s, "megatron")
    assert "--use-distributed-optimizer" in text.split()
    assert "zero_stage" not in left_out_settings(s, "megatron")
    back = scenario_from_dict({**PLAN, **import_texts([("train.sh", text)]).scenario})
    assert back.effective_zero == s.effective_zero == 1
    # what the students launch holds what the plan said: the same bytes per GPU
    assert estimate(back).total_bytes == estimate(s).total_bytes


def test_no_sharding_no_flag():
    assert "--use-distributed-optimizer" not in export_config(scenario_from_dict({**PLAN, "zero_stage": 0}),
                                                              "megatron").split()
