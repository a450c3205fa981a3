"""Uneven pipeline splits (user audit, issue 23 follow-up; issue 23 leftovers item 5): Megatron-LM asserts that the
layers (with the embedding and / or the loss where the split counts them) divide into pp stages and a stage's into its
vpp chunks (d98e8a64 megatron/core/transformer/transformer_block.py lines 155-158 and 175-178, the same at
core_v0.15.0; 285068c8 and de7dc40f88 megatron/model/transformer.py), unless a pipeline layout places them; its rows
say so (Parallelism.even_pipeline_split). An assertion stops the run before it starts, so it is a setting the framework
cannot run (framework_support.cannot_run "pipeline_split"), the same mechanism as the Zero Bubble fork's ZB-V rule
(its megatron/arguments.py lines 192-198 at f68d3879 assert too: "zbv_layers"). Other frameworks' splits are not
read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import defaults_for
from engine.planning.fit_report import fit_report
from engine.scenario.framework_support import cannot_run, framework_runs, unsupported_settings
from engine.scenario.pipeline_layout import layout_chunks
from engine.scenario.pipeline_split import uneven_pipeline_split
from engine.scenario.runnable import runnable_layouts

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


def test_the_published_deepseek_v3_rows_state_a_layout_megatron_starts():
    """The 25.09 GB200 tokendrop row (PP 4, VP 4) ran Megatron-Bridge v0.1.0rc4's recipe map (4, 4) with its one MTP
    layer, and the 25.11 GB200 BF16 row (PP 4, VP 4, no MTP) the r0.2.0 performance branch's 'Et*3|(t*4|)*14ttL'
    (the rows' notes give the files and lines). The 25.11 GB300 (PP 2, VP 4) and GB200 FP8-MX (PP 8, VP 4) rows ran
    too, so with some layout, which no source gives: they state the one Megatron-Bridge writes for as many chunks
    (its DeepSeek-V3 recipe's 8-chunk layout_map entries; its H100 performance recipe's PP 8 x VP 4 layout), without
    MTP. Every one places its 61 decoders in pp x vpp chunks, so none is a setting Megatron cannot run."""
    rows = {r["id"]: r for r in json.loads(Path("tests/data/published/throughput.json").read_text("utf-8"))["rows"]}
    stated = {"megatron-bridge-25.09-deepseekv3-dgx-gb200-fp8-cs-256-tokendrop": "Et*4|(t*4|)*14tmL",
              "megatron-bridge-25.11-deepseekv3-dgx-gb200-bf16-256-womtp": "Et*3|(t*4|)*14ttL",
              "megatron-bridge-25.11-deepseekv3-dgx-gb300-bf16-256-womtp": "Et*8|(t*8|)*6t*5L",
              "megatron-bridge-25.11-deepseekv3-dgx-gb300-fp8-mx-256-womtp": "Et*8|(t*8|)*6t*5L",
              "megatron-bridge-25.11-deepseekv3-dgx-gb200-fp8-mx-256-womtp": "Et|(tt|)*30L"}
    for rid, layout in stated.items():
        s = scenario_from_dict(rows[rid]["scenario"])
        chunks = layout_chunks(s.pipeline_layout)
        assert s.pipeline_layout == layout and len(chunks) == s.pp * s.vpp
        assert "".join(chunks).count("t") == 61 and uneven_pipeline_split(s) is None and not cannot_run(s)
        if s.pp * s.vpp != 16:  # the two whose layout is not the run's own say so
            assert "not the run's own" in rows[rid]["notes"]


def test_megatrons_uneven_split_and_zbvs_rule_are_both_settings_it_cannot_run():
    # 32 layers at pp 3 (Megatron-LM), and at pp 3 under the Zero Bubble fork's ZB-V (ceil(32 / 3) = 11 a stage, odd):
    # both asserted at start, so both cannot run, each with its one sentence, and a runnable layout offered
    megatron = scenario_from_dict({**LLAMA, "framework": "megatron", "gpus_per_node": 12, "pp": 3})
    zbv = scenario_from_dict({**LLAMA, "framework": "megatron-zb", "gpus_per_node": 12, "pp": 3, "vpp": 2,
                              "pp_schedule": "zbv"})
    assert cannot_run(megatron) == ("pipeline_split",) and cannot_run(zbv) == ("zbv_layers",)
    assert not framework_runs(megatron) and not framework_runs(zbv)
    assert [str(m) for m in unsupported_settings(megatron)] == _said(framework="megatron", gpus_per_node=12, pp=3)
    # 32 layers do not split over 3 stages: Megatron-Core takes a pipeline layout of 3 chunks (the form Megatron-Bridge's
    # deepseek_v3.py layout_map writes: ceil(32 / 3) = 11 a chunk, the rest in the last), the pipeline kept; else the
    # deepest pipeline up to 3 that divides them and the 12 GPUs: pp 2
    kept, fix = runnable_layouts(megatron)
    assert kept.changes == {"pipeline_layout": "Et*11|t*11|t*10L"} and framework_runs(kept.scenario)
    assert (fix.scenario.pp, fix.scenario.vpp) == (2, 1) and framework_runs(fix.scenario)
    # 32 layers at pp 4 x vpp 3 (12 chunks): a layout of 12 chunks keeps the interleaving (ceil(32 / 12) = 3 a chunk,
    # the first gives up the one the last lacks); else the stages divide, so one chunk a rank runs
    interleaved = scenario_from_dict({**LLAMA, "framework": "megatron", "gpus_per_node": 8, "pp": 4, "vpp": 3,
                                      "pp_schedule": "interleaved-1f1b"})
    kept, fix = runnable_layouts(interleaved)
    assert kept.changes == {"pipeline_layout": "Ett|(t*3|)*10L"} and framework_runs(kept.scenario)
    assert (fix.scenario.pp, fix.scenario.vpp, fix.scenario.pp_schedule) == (4, 1, "1f1b")


def test_a_405b_or_deepseek_v3_pipeline_of_16_is_kept_with_a_layout_not_folded_to_pp_2():
    # user audit 6: Llama 3.1 405B (126 layers) at tp 8 x pp 16 on 1,024 H100s under Megatron, and DeepSeek-V3 (61 layers
    # and its MTP layer) at pp 16: the only way out offered was pp 2 (405B) or pp 1 (V3), so Make it fit's first plan
    # was LoRA at 768 tokens and "the largest Llama 3.1 that fits" the 8B. Megatron-Core runs both pipelines with a
    # layout: DeepSeek-V3's is Megatron-Bridge's own (src/megatron/bridge/recipes/deepseek/deepseek_v3.py layout_map,
    # v0.2.0 to v0.5.1: "Et*4|(t*4|)*14tmL"), 405B's the same form (ceil(126 / 16) = 8 a chunk, 6 in the last)
    llama = scenario_from_dict({"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
                                "framework": "megatron", "tp": 8, "pp": 16, "grad_accum": 16, "seq_len": 8192,
                                "checkpointing": "none"})
    v3 = scenario_from_dict({"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32,
                             "framework": "megatron", "pp": 16, "ep": 8, "grad_accum": 32, "seq_len": 4096})
    for s, layout in ((llama, "Et*8|(t*8|)*14t*6L"), (v3, "Et*4|(t*4|)*14tmL")):
        first = runnable_layouts(s)[0]
        assert first.changes == {"pipeline_layout": layout} and framework_runs(first.scenario)
        assert (first.scenario.pp, first.scenario.dp) == (s.pp, s.dp)  # same pipeline, same global batch
    assert runnable_layouts(llama)[1].scenario.pp == 2  # the even split stays, second
    assert "pp=2" not in json.dumps(fit_report(llama)["plans"][0])  # the first plan keeps the pipeline


def test_the_throughput_search_sets_pipeline_layouts_itself_and_does_not_inherit_the_way_outs():
    # the way out that keeps DeepSeek-V3's pp 16 writes a 16-chunk layout; the throughput search starts from the first
    # way out's keys it does not search itself (search_candidates.searchable), and kept that layout on its pp 1
    # layouts ("pp=1, ..., pipeline_layout=Et*4|(t*4|)*14tmL"): the layout is the search's own per pipeline size
    # (pipeline_chunks.py), so it is not inherited
    from engine.planning.search_candidates import searchable

    v3 = scenario_from_dict({"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32,
                             "framework": "megatron", "pp": 16, "ep": 8, "grad_accum": 32, "seq_len": 4096})
    assert runnable_layouts(v3)[0].changes == {"pipeline_layout": "Et*4|(t*4|)*14tmL"}
    assert searchable(v3).pipeline_layout == ""


def test_the_uneven_split_warning_names_the_layout_megatron_core_takes():
    # user audit 6: the warning said Megatron "refuses this layout without a pipeline_layout" and left the user to
    # write one; where the framework takes layouts it names the one Make it fit offers first (runnable.py)
    llama = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128, "tp": 8, "pp": 16,
             "grad_accum": 16, "seq_len": 8192}
    said = [str(w) for w in estimate(scenario_from_dict({**llama, "framework": "megatron"})).warnings
            if "splits the layers" in str(w)]
    assert len(said) == 1 and "without a pipeline_layout such as Et*8|(t*8|)*14t*6L (the estimate" in said[0]
    old = [str(w) for w in estimate(scenario_from_dict({**llama, "framework": "megatron-2021"})).warnings
           if "splits the layers" in str(w)]  # Megatron-LM of 2021 takes no layout: none named
    assert old and "such as" not in old[0]
