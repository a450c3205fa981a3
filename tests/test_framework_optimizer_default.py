"""The AdamW a framework builds when its config names none is a framework fact (engine/frameworks/runs.py
Runs.optimizer, with its source): a scenario file that leaves `optimizer` out gets it, one that names it keeps it."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import FRAMEWORKS, defaults_for
from engine.planning.speed_search import speed_search

BASE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "seq_len": 4096}


def _source(framework: str) -> str:
    return next(where for what, where in defaults_for(framework).runs.sources if what == "optimizer")


def test_torchtitan_builds_fused_adamw_unless_the_file_names_one():
    # pytorch/torchtitan at b5bcd76c66d0 torchtitan/components/optimizer/optimizer.py lines 109-111: implementation
    # default 'fused'
    assert "b5bcd76c66d0" in _source("torchtitan") and "default 'fused'" in _source("torchtitan")
    left_out = scenario_from_dict({**BASE, "framework": "torchtitan", "fsdp": True})
    named = scenario_from_dict({**BASE, "framework": "torchtitan", "fsdp": True, "optimizer": "adamw"})
    assert (left_out.optimizer, named.optimizer) == ("adamw-fused", "adamw")
    # a scenario saved and read back keeps what it was read as
    assert scenario_from_dict(left_out.to_dict()).optimizer == "adamw-fused"


def test_the_frameworks_not_read_keep_the_formats_default():
    """Every other row keeps "adamw" (the format's default: foreach, or the framework's own Adam where its row says
    its Adam is fused, FrameworkDefaults.adam_fused), so their scenarios read as before."""
    # deepspeed: test_deepspeed_fused_adam; openrlhf (its config AdamW is DeepSpeed's FusedAdam): test_import_gaps
    others = [fw for fw in FRAMEWORKS if fw not in ("torchtitan", "deepspeed", "openrlhf")]
    assert {defaults_for(fw).runs.optimizer for fw in others} == {"adamw"}
    assert scenario_from_dict({**BASE, "framework": "megatron"}).optimizer == "adamw"


def test_torchtitans_2024_rows_state_the_foreach_adamw_of_their_release():
    """torchtitan's 2024 releases had --optimizer.fused, default False (config_manager.py at 3faaa1a0 and 9dec370):
    the rows of docs/performance.md and the December 2024 benchmark state optimizer adamw; the torchao rows name
    adamw-fused."""
    rows = [r for r in load_rows() if r["scenario"].get("framework") == "torchtitan"]
    assert rows and all("optimizer" in r["scenario"] for r in rows)
    assert {r["scenario"]["optimizer"] for r in rows if "202412" in r["source"] or "3faaa1a0" in r["source"]} == \
        {"adamw"}


def test_qwen3_moe_on_8_h100_under_torchtitan_keeps_expert_parallelism():
    """Issue 23 item 5 (h-searchaudit): with foreach AdamW's state-sized temporaries the Qwen3-30B-A3B example's
    fastest plans dropped expert parallelism; with torchtitan's own fused AdamW the first plan keeps it."""
    s = scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                            "framework": "torchtitan", "precision": "mixed-bf16", "seq_len": 2048, "attention": "flash",
                            "checkpointing": "full", "zero_stage": 3, "ep": 8})
    assert s.optimizer == "adamw-fused"
    first = speed_search(s).plans[0].scenario
    assert first.ep > 1 and first.optimizer == "adamw-fused"
