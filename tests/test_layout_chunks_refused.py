"""A Megatron pipeline layout of another chunk count than pp x vpp, and the search's interleaved even splits (issue 23
leftovers4 items 1-2).

Megatron-Core takes a layout of pp x vpp chunks only: Megatron-LM asserts its chunks divide by pp and reads vpp from
them (NVIDIA/Megatron-LM d98e8a64 megatron/training/arguments.py lines 941-949, and refuses it beside
--num-virtual-stages-per-pipeline-rank, lines 927-939); TransformerConfig asserts a given vpp equals the layout's
(megatron/core/transformer/transformer_config.py lines 2275-2284). The layout had silenced the even-split rule
(engine/scenario/pipeline_split.py) although the estimate ignored it (layout.py _per_rank: chunks not pp x vpp).
get_num_layers_to_build asserts that the layers it counts (with the embedding / loss where asked) divide into pp and
then into vpp (transformer_block.py lines 155-158 and 175-178): the search visits only such interleaved splits."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.pipeline_chunks import even_virtual_stages, pipeline_schedules
from engine.scenario.consistency import split_counted_layers
from engine.scenario.framework_support import cannot_run, framework_runs
from engine.scenario.pipeline_split import splits_evenly
from engine.scenario.runnable import runnable_layouts

LLAMA = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "micro_batch": 1, "seq_len": 4096}  # 32 layers
EIGHT_CHUNKS = "Et*3|(t*4|)*6t*5L"  # 3 + 6 x 4 + 5 = 32 decoder layers in 8 chunks


def _megatron(**keys: object):
    return scenario_from_dict({**LLAMA, "framework": "megatron", "gpus_per_node": 8, "pp": 4, **keys})


def test_a_layout_of_other_chunks_is_refused_naming_both_counts():
    s = _megatron(pipeline_layout=EIGHT_CHUNKS)  # 1F1B at pp 4: 4 chunks; the layout has 8 (Megatron: vpp 2)
    assert cannot_run(s) == ("pipeline_layout",)
    said = [str(w) for w in estimate(s).warnings if "pipeline_layout" in str(w)]
    assert len(said) == 1 and "pp 4 x vpp 1 = 4" in said[0] and "this one's 8" in said[0]
    # the same layout at pp 4 x vpp 2 is Megatron's own count: it runs, the layout places the layers
    ok = _megatron(pipeline_layout=EIGHT_CHUNKS, vpp=2, pp_schedule="interleaved-1f1b")
    assert "pipeline_layout" not in cannot_run(ok)
    # the way out drops the layout; 32 layers then split evenly over 4 stages, so nothing else changes
    (fix,) = runnable_layouts(s)
    assert fix.changes == {"pipeline_layout": ""} and framework_runs(fix.scenario)


def test_without_the_layout_an_uneven_split_gets_a_layout_of_its_chunks_or_is_split_evenly():
    # pp 3: 32 % 3 != 0, so dropping the 8-chunk layout alone leaves Megatron's even-split assertion. First way: a
    # layout of pp 3 x vpp 1 = 3 chunks (Megatron-Core takes any counts a chunk, get_num_layers_to_build; the form is
    # Megatron-Bridge's deepseek_v3.py layout_map: ceil(32 / 3) = 11 a chunk, the rest in the last); then pp 2 instead
    s = scenario_from_dict({**LLAMA, "framework": "megatron", "gpus_per_node": 12, "pp": 3,
                            "pipeline_layout": EIGHT_CHUNKS})
    assert cannot_run(s) == ("pipeline_layout",)  # the layout's sentence alone: Megatron asserts it first
    kept, even = runnable_layouts(s)
    assert kept.changes == {"pipeline_layout": "Et*11|t*11|t*10L"} and framework_runs(kept.scenario)
    assert even.scenario.pipeline_layout == "" and even.scenario.pp == 2 and framework_runs(even.scenario)


def test_frameworks_without_layouts_are_not_asked():
    # Megatron-LM 2021 has no pipeline_model_parallel_layout (its row's pipeline_layouts is off): not this rule
    s = scenario_from_dict({**LLAMA, "framework": "megatron-2021", "gpus_per_node": 8, "pp": 4,
                            "pipeline_layout": EIGHT_CHUNKS})
    assert "pipeline_layout" not in cannot_run(s)


def test_the_search_splits_interleaved_chunks_as_megatron_counts_them():
    # 32 layers + embedding + loss = 34 counted: at pp 2 Megatron splits 17 a stage, so only vpp 17 divides; the
    # plain 32 layers' vpp 2, 4, 8, 16 are refused by get_num_layers_to_build
    assert even_virtual_stages(2, 32, 34, asserted=True) == [17]
    assert 2 in even_virtual_stages(2, 32, 34)  # a framework that does not assert the split: either count
    s = _megatron(pp=2, gpus_per_node=2, pipeline_split_accounts_for=["embedding", "loss"])
    counted = split_counted_layers(s, 32)
    for schedule, vpp, keys in pipeline_schedules(s, 2, 32, counted):
        if schedule == "interleaved-1f1b" and not keys:
            assert splits_evenly(counted, 2, vpp)
            visited = s.with_unchecked(pp_schedule=schedule, vpp=vpp)
            assert "pipeline_split" not in cannot_run(visited)
