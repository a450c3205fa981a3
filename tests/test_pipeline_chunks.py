"""The throughput search's pipeline chunks (engine/planning/pipeline_chunks.py) and its plan list as an expert reads
it (issue 23 item 5): the published interleaved DeepSeek-V3 layouts are visited, with the Megatron pipeline layout
their uneven chunks need; no listed plan is one an earlier plan leaves no reason to pick; a plan that offloads does
not hide the method/numerics changes."""

from engine import estimate, scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.planning.pipeline_chunks import interleaves_evenly, uneven_chunk_counts, uneven_layout
from engine.planning.speed_ranking import plainness
from engine.planning.speed_search import _layouts, speed_search
from engine.scenario.pipeline_layout import layout_chunks, parse_pipeline_layout

# Megatron-Bridge's DeepSeek-V3 layouts of 61 decoder layers + 1 MTP layer: deepseek_v3.py layout_map (8, 1) (and the
# B300 rows of tests/data/published), (8, 2) / (4, 4) and the GB200, GB300, B200 presets; the 25.09 H100 preset's 32.
RECIPE_LAYOUTS = {8: "Et*8|(t*8|)*6t*5mL", 16: "Et*4|(t*4|)*14tmL", 32: "Et|(tt|)*30mL"}
# the published interleaved runs (megatron-bridge-*.json) whose layouts the search did not visit before
PUBLISHED = ("megatron-bridge-25.09-deepseekv3-dgx-h100-fp8-cs-1024-dropless",
             "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb200-mxfp8-256",
             "megatron-bridge-26.06-pretraining-deepseekv3-dgx-gb300-mxfp8-256")
LAYOUT = ("tp", "cp", "pp", "ep", "pp_schedule", "vpp")


def test_uneven_layouts_are_the_recipes_own():
    for chunks, text in RECIPE_LAYOUTS.items():
        assert uneven_layout(61, chunks, 1) == text
        assert parse_pipeline_layout(text) == text  # Megatron's grammar (engine/scenario/pipeline_layout.py)
        made = layout_chunks(text)
        assert len(made) == chunks and sum(c.count("t") for c in made) == 61
    # 64 chunks of 61 layers leave the first chunk none: no layout (the recipes never write an empty first chunk)
    assert uneven_layout(61, 64, 1) is None
    # chunks of 4 and of 2 layers (UNEVEN_CHUNK_LAYERS), VP <= 8: PP 8 -> VP 2 (16 chunks) and VP 4 (32), as published
    assert uneven_chunk_counts(8, 61) == [2, 4]
    assert uneven_chunk_counts(4, 61) == [4, 8]
    assert uneven_chunk_counts(2, 61) == [8]  # VP 16 (32 chunks of 2) is past UNEVEN_MAX_VPP


def test_the_search_visits_the_published_deepseek_v3_layouts():
    rows = {r["id"]: r for r in load_rows()}
    for row_id in PUBLISHED:
        s = scenario_from_dict(rows[row_id]["scenario"])
        visited = [lay for lay in _layouts(s) if all(lay[k] == getattr(s, k) for k in LAYOUT)]
        assert visited, row_id
        # the published layout string is the one the search makes (or keeps: the run's own for that many chunks)
        assert all(lay.get("pipeline_layout", s.pipeline_layout) == s.pipeline_layout for lay in visited), row_id


def test_uneven_chunks_only_where_megatron_cannot_interleave_evenly():
    """126-layer Llama 3.1 405B interleaves evenly at PP 2 (VP 3, 7, 9, ...): its search keeps the even rule (and its
    speed, benchmarks/time_speed.py); frameworks without Megatron-Core's layout get no layout at all. Its 1F1B stages
    that 126 layers do not divide into (PP 4, 8, ...) are a split Megatron asserts against (engine/scenario/
    pipeline_split.py): they carry the layout Megatron-Bridge writes for as many chunks (pipeline_chunks.py
    one_chunk_a_rank), so no plan of the search is a setting Megatron cannot run."""
    assert interleaves_evenly(126, 126) and not interleaves_evenly(61, 61)
    llama = scenario_from_dict({"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
                                "seq_len": 8192, "grad_accum": 2, "framework": "megatron"})
    layouts = list(_layouts(llama))
    assert not any("pipeline_layout" in lay for lay in layouts if lay["pp_schedule"] != "1f1b" or 126 % lay["pp"] == 0)
    uneven = [lay for lay in layouts if lay["pp_schedule"] == "1f1b" and 126 % lay["pp"]]
    assert uneven and all(lay["pipeline_layout"] == uneven_layout(126, lay["pp"], 0) for lay in uneven)
    titan = scenario_from_dict({"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32,
                                "seq_len": 4096, "grad_accum": 8, "framework": "torchtitan", "ep": 8})
    assert not any("pipeline_layout" in lay for lay in _layouts(titan))


def test_no_listed_plan_is_dominated_by_an_earlier_one():
    """torchtitan Llama 3.1 8B on 8 H100s listed, tied at 58.6K tokens/s with the user's own FSDP layout (48.3 GiB),
    the same speed with TP 2, CP 2 or PP 2 x VP 16 at 59-69 GiB, and the fastest plan's layout again with TP 2 at
    more memory: none is a reason to change. A plan stays only if every earlier one is slower, holds more memory or
    asks for more (offload, kinds of parallelism, sharding) - the definition in speed_ranking._dominated."""
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                            "framework": "torchtitan", "precision": "mixed-bf16", "micro_batch": 1, "seq_len": 8192,
                            "attention": "flash", "fsdp": True, "zero_stage": 3, "checkpointing": "selective"})
    plans = speed_search(s).plans
    assert len(plans) >= 2
    for i, p in enumerate(plans):
        for q in plans[:i]:
            assert (q.time.tokens_per_second < p.time.tokens_per_second * 0.99
                    or q.estimate.total_bytes > p.estimate.total_bytes * 1.01
                    or plainness(s, q)[:3] > plainness(s, p)[:3]), (q.changes, p.changes)


def test_method_changes_are_tried_when_only_offload_fits():
    """Llama 3.1 8B full fine-tune (AdamW, Hugging Face) on one B200 fits only with the optimizer offloaded: the
    offload plan's ZeRO stage is the offload's, so its layout matched none of the search's and no method/numerics
    change was tried, while `fit` lists 8-bit AdamW as fitting (122 GiB of 179 GiB)."""
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "b200", "framework": "huggingface", "method": "full",
                            "precision": "mixed-bf16", "optimizer": "adamw", "micro_batch": 2, "seq_len": 4096,
                            "attention": "flash", "checkpointing": "full"})
    result = speed_search(s)
    assert result.plans and all(p.scenario.offload != "none" for p in result.plans)
    changed = [p for p in result.changes_what_you_train if p.scenario.optimizer == "adamw-8bit"]
    assert changed and changed[0].scenario.offload == "none"
    assert changed[0].time.tokens_per_second > result.plans[0].time.tokens_per_second


def test_an_fsdp_layout_offloads_its_weights_with_fsdp():
    """Llama 3.1 70B FSDP-QLoRA on 2 x RTX 4090 (peft's fsdp.md recipe, fsdp_offload_params): Make it fit offloads the
    weights keeping FSDP, while the throughput search's offload plans all switched to DeepSpeed's ZeRO-3
    (fsdp=False), a different set-up with other memory. The search now has the FSDP offload plan, the very scenario
    of the Make it fit plan (the same estimate)."""
    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "rtx-4090", "gpus_per_node": 2,
                            "framework": "huggingface", "method": "qlora", "precision": "bf16", "lora_rank": 16,
                            "lora_targets": "all-linear", "micro_batch": 1, "seq_len": 2048, "attention": "flash",
                            "zero_stage": 3, "fsdp": True, "checkpointing": "full"})
    fsdp = [p for p in speed_search(s).plans if p.scenario.fsdp and p.scenario.offload == "optimizer+params"]
    assert fsdp
    own = estimate(s.with_unchecked(offload="optimizer+params"))
    assert fsdp[0].estimate.total_bytes == own.total_bytes


def test_no_plan_of_a_megatron_search_is_a_split_megatron_refuses():
    """Llama 3.1 405B on 1,024 H100s under Megatron-LM (the search benchmarks/time_speed.py times): its fastest plans
    pipeline 126 layers over 32 and 64 stages. Megatron asserts an even split (pipeline_split.py), so each carries a
    layout, and none is a setting Megatron cannot run."""
    from engine.scenario.framework_support import cannot_run

    llama = scenario_from_dict({"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
                                "seq_len": 8192, "micro_batch": 1, "grad_accum": 2, "attention": "flash",
                                "precision": "mixed-bf16", "framework": "megatron"})
    plans = speed_search(llama).plans
    assert any(126 % p.scenario.pp for p in plans)  # the test is not empty: some plan splits unevenly
    assert not any(cannot_run(p.scenario) for p in plans)
