"""Uneven pipeline splits (user audit, issue 23 follow-up): Megatron-LM asserts that the layers (with the embedding
and / or the loss where the split counts them) divide into pp stages and a stage's into its vpp chunks (d98e8a64
megatron/core/transformer/transformer_block.py lines 146-178; 285068c8 and de7dc40f88 megatron/model/transformer.py),
unless a pipeline layout places them; its rows say so (Parallelism.even_pipeline_split) and the estimate gives one
sentence. Other frameworks' splits are not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import defaults_for
from engine.scenario.pipeline_layout import layout_chunks
from engine.scenario.pipeline_split import uneven_pipeline_split

LLAMA = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "micro_batch": 1, "seq_len": 4096}  # 32 layers


def _said(**keys: object) -> list[str]:
    return [str(w) for w in estimate(scenario_from_dict({**LLAMA, **keys})).warnings if "splits the layers" in str(w)]


@pytest.mark.parametrize("framework", ["megatron", "megatron-2022", "megatron-2021"])
def test_megatron_refuses_layers_that_do_not_divide(framework):
    assert defaults_for(framework).parallelism.even_pipeline_split
    row = dict(defaults_for(framework).parallelism.sources)
    assert "even pipeline split" in row and "transformer" in row["even pipeline split"]
    said = _said(framework=framework, gpus_per_node=12, pp=3)  # 32 % 3 = 2
    assert len(said) == 1 and "32 layers" in said[0] and "pp 3 x vpp 1 = 3" in said[0] and said[0].endswith(".")
    assert not _said(framework=framework, gpus_per_node=8, pp=4)  # 8 a stage
    # interleaved: 32 layers over pp 4 x vpp 3 = 12 chunks do not divide; vpp 2 (8 chunks) does
    assert len(_said(framework=framework, gpus_per_node=8, pp=4, vpp=3, pp_schedule="interleaved-1f1b")) == 1
    assert not _said(framework=framework, gpus_per_node=8, pp=4, vpp=2, pp_schedule="interleaved-1f1b")


def test_a_layout_or_the_counted_embedding_and_loss_make_it_run():
    # 32 + embedding + loss = 34 = 2 x 17: pp 2 divides it either way; pp 17 only counted (Megatron's own accounting)
    base = {"framework": "megatron", "gpus_per_node": 17, "pp": 17}
    assert _said(**base)
    assert not _said(**base, pipeline_split_accounts_for=["embedding", "loss"])
    layout = "|".join(["Et"] + ["tt"] * 15 + ["tL"])  # 1 + 15 x 2 + 1 = 32 decoder layers in 17 chunks
    assert not _said(**base, pipeline_layout=layout)


def test_frameworks_whose_split_is_not_read_say_nothing():
    assert not defaults_for("torchtitan").parallelism.even_pipeline_split
    assert not _said(framework="torchtitan", gpus_per_node=12, pp=3, fsdp=True)


def test_the_published_deepseek_v3_rows_state_the_layouts_their_sources_give():
    """The 25.09 GB200 tokendrop row (PP 4, VP 4) ran Megatron-Bridge v0.1.0rc4's recipe map (4, 4) with its one MTP
    layer, and the 25.11 GB200 BF16 row (PP 4, VP 4, no MTP) the r0.2.0 performance branch's 'Et*3|(t*4|)*14ttL'
    (the rows' notes give the files and lines): their 61 decoders fill pp x vpp chunks, so no uneven-split sentence.
    The 25.11 GB300 (PP 2, VP 4) and GB200 FP8-MX (PP 8, VP 4) rows have no source layout for their chunks: they keep
    it."""
    rows = {r["id"]: r for r in json.loads(Path("tests/data/published/throughput.json").read_text("utf-8"))["rows"]}
    stated = {"megatron-bridge-25.09-deepseekv3-dgx-gb200-fp8-cs-256-tokendrop": "Et*4|(t*4|)*14tmL",
              "megatron-bridge-25.11-deepseekv3-dgx-gb200-bf16-256-womtp": "Et*3|(t*4|)*14ttL"}
    for rid, layout in stated.items():
        s = scenario_from_dict(rows[rid]["scenario"])
        chunks = layout_chunks(s.pipeline_layout)
        assert s.pipeline_layout == layout and len(chunks) == s.pp * s.vpp == 16
        assert "".join(chunks).count("t") == 61 and uneven_pipeline_split(s) is None
    for rid in ("megatron-bridge-25.11-deepseekv3-dgx-gb300-bf16-256-womtp",
                "megatron-bridge-25.11-deepseekv3-dgx-gb300-fp8-mx-256-womtp",
                "megatron-bridge-25.11-deepseekv3-dgx-gb200-fp8-mx-256-womtp"):
        s = scenario_from_dict(rows[rid]["scenario"])
        assert not s.pipeline_layout and uneven_pipeline_split(s) is not None
        assert "no pipeline_layout" in rows[rid]["notes"]
