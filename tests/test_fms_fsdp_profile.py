"""IBM's fms-fsdp as a framework of its own (engine/frameworks/fms_fsdp.py; presets/efficiency.json frameworks fms-fsdp
and elementwise_bytes_per_token fms): its layouts, its loss, its eager LLaMA block, and the published runs that use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.frameworks.defaults import TABLE
from engine.timing.data import efficiency

ROOT = Path(__file__).resolve().parent.parent
ROW_FILES = ("pytorch-blog-fsdp-2024.json", "fms-fsdp-readme.json")


def test_the_row_runs_fsdp_or_plain_data_parallelism_only():
    # fms-fsdp at 7746dac96fe3: main_training.py builds fms's LLaMA with no distributed strategy and wraps it in FSDP1
    # (no pipeline, tensor, context or expert parallelism); train_utils.py get_policies: FULL_SHARD, HYBRID_SHARD or
    # NO_SHARD; no cpu_offload; ac_handler.py wraps every n-th LLaMABlock whole
    row = TABLE["fms-fsdp"]
    par = row.parallelism
    assert par.pp_schedules == () and not (par.tensor or par.context or par.expert)
    assert par.zero_stages == (0, 3) and par.offloads == ("none",) and par.shard_group_stages == (3,)
    assert row.runs.checkpointings == ("none", "full") and row.runs.recompute_methods == ("block",)
    # train_utils.py lines 44-46: nn.CrossEntropyLoss on the bf16 logits; FSDP1 (FullyShardedDataParallel)
    assert not row.loss_upcast and row.fsdp_version == 1 and row.profile == "fms-fsdp"


def test_the_profile_is_plain_pytorchs_but_for_fms_eager_block():
    # the loop, optimizer and overlaps are plain PyTorch's FSDP loop (main_training.py: optim.AdamW, FSDP1); what
    # differs is the model code: fms's eager RMSNorm and SwiGLU (measured rates) and its element-wise bytes
    frameworks = efficiency()["frameworks"]
    fms = {k: v for k, v in frameworks["fms-fsdp"].items() if not k.startswith("_")}
    plain = {k: v for k, v in frameworks["pytorch"].items() if not k.startswith("_")}
    own = {"elementwise": "fms", "eager_rms_norm": True, "eager_swiglu": True}
    assert {k: v for k, v in fms.items() if k not in own} == {k: v for k, v in plain.items() if k not in own}
    assert {k: fms[k] for k in own} == own and not fms.get("eager_rope")  # fms's RoPE is not rotate_half


def test_the_backward_factor_is_the_7b_count_of_the_rows_own_ops():
    # the row's _source counts fms v0.0.3's ops: forward hidden 88, qk 36, mlp 10 per unit; backward 184, 36, 18;
    # fms-fsdp's 7B: hidden 4,096, q and k widths 4,096 each, MLP 11,008 (fms_fsdp/utils/config_utils.py)
    row = efficiency()["elementwise_bytes_per_token"]["fms"]
    forward = row["hidden"] * 4096 + row["qk"] * 8192 + row["mlp"] * 11008
    backward = 184 * 4096 + 36 * 8192 + 18 * 11008
    assert row["backward_factor"] == pytest.approx(backward / forward, abs=0.005)
    assert row["hidden_norm"] == 72 and row["mlp_swiglu"] == row["mlp"] == 10 and "qk_rope" not in row


@pytest.mark.parametrize("name", ROW_FILES)
def test_the_published_fms_fsdp_runs_run_it(name):
    rows = json.loads((ROOT / "tests" / "data" / "published" / "throughput" / name).read_text())["rows"]
    assert rows and all(r["scenario"]["framework"] == "fms-fsdp" for r in rows)
    assert all(r["framework"] == TABLE["fms-fsdp"].label for r in rows)  # the published framework label is kept
