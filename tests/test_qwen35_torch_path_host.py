"""Qwen3.5's gated DeltaNet layers on transformers' torch path (no flash-linear-attention / causal-conv1d installed):
presets/host_overhead.json hf_eager_layers.by_model_type.qwen3_5_text, counted by validation/hf_hybrid_host_counts.py
(transformers 5.17.0, torch 2.13.0 CPU; the mean layer of 3 DeltaNet : 1 attention), read by the training step's
counted host work and, through decode_per_layer, by every decode step of transformers' generate() (a trainer's own,
the served transformers engine's). jsboige/CoursIA's Qwen3.5 GRPO runs print transformers' fallback warning
(PT_11d_multiseed_qwen35_4x100.ipynb at 03b2d0b0)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.errors import PresetError
from engine.models.presets import model_spec_for
from engine.serving.host_iteration import DYNAMIC_CACHE_CATS_PER_LAYER, transformers_layer_host_seconds
from engine.timing.hf_host import eager_counts
from engine.timing.host_table import host_figures
from engine.timing.preset_shapes import checked_host

PROBE = {"model": "qwen3.5-9b", "gpu": "rtx-4090", "framework": "trl", "training_objective": "grpo",
         "method": "qlora", "precision": "bf16", "attention": "sdpa", "micro_batch": 8, "num_generations": 8,
         "prompt_len": 11, "completion_len": 288, "reference_model": "none", "rollout_engine": "none"}
FORWARD = ("python_calls", "kernels", "views", "modules")


def test_a_qwen35_decode_step_takes_the_recurrent_paths_counts_and_training_the_chunked_ones() -> None:
    # validation.hf_hybrid_host_counts decode bf16 sdpa: 115 Python calls, 90.5 kernels, 49.75 views, 16.5 modules
    # a mean layer; train bf16 sdpa 16: 140.75, 112, 78.25, 16.5 (torch_chunk_gated_delta_rule, one chunk)
    s = scenario_from_dict(PROBE)
    counts = eager_counts(s, model_spec_for("qwen3.5-9b"))
    assert [counts["decode"][f] for f in FORWARD] == [115.0, 90.5, 49.75, 16.5]
    assert [counts["per_layer"][f] for f in FORWARD] == [140.75, 112.0, 78.25, 16.5]
    # a type without decode counts (Llama, the fallback) decodes with its forward's
    llama = eager_counts(scenario_from_dict({**PROBE, "model": "llama-3.1-8b"}), model_spec_for("llama-3.1-8b"))
    assert llama["decode"] == llama["per_layer"] | {"cache_counted": 0.0}
    assert counts["decode"]["cache_counted"] == 1.0  # counted over the cache: its cats are in the kernels


def test_the_deltanet_decode_layer_costs_its_counted_calls_more_than_the_fallbacks() -> None:
    # before: qwen3_5_text took Llama's forward counts (54 calls, 45 kernels, 28 views, 13 modules); the difference
    # of the two layers' host seconds is the count difference at the preset host's per-call prices
    s = scenario_from_dict(PROBE)
    spec = model_spec_for("qwen3.5-9b")
    fig = host_figures()
    launch, module, view = (fig[k]["value"] for k in ("launch_seconds", "module_call_seconds", "view_seconds"))
    binding = fig["optimizer_syncs"]["binding_call_share"] * view
    table = fig["hf_eager_layers"]["by_model_type"]
    mine = dict(zip(FORWARD, table["qwen3_5_text"]["bf16-sdpa"]["decode_per_layer"], strict=True))
    llama = dict(zip(FORWARD, table["llama"]["bf16-sdpa"]["per_layer"][:4], strict=True))
    d = {f: mine[f] - llama[f] for f in FORWARD}
    expected = (d["python_calls"] * binding + d["kernels"] * (launch - binding) + d["views"] * (view - binding)
                + d["modules"] * module)
    fallback = transformers_layer_host_seconds(scenario_from_dict({**PROBE, "model": "qwen3-next-80b-a3b"}),
                                               model_spec_for("qwen3-next-80b-a3b"))
    own = transformers_layer_host_seconds(s, spec)
    # Qwen3-Next has no entry of its own (Llama's counts, from a forward without a cache, so DynamicCache's two cats
    # are added as launches: host_iteration.py DYNAMIC_CACHE_CATS_PER_LAYER) and, as Qwen3.5, the shared per-layer
    # Python (hf_layer_python); Qwen3.5's decode counts ran over the cache (validation/hf_hybrid_host_counts.py
    # decode_counts), their kernels already hold its cats (review 20: they were added twice). So the two layers differ
    # by the counted calls less the fallback's two cats
    cats = DYNAMIC_CACHE_CATS_PER_LAYER * (launch - view)
    assert own - fallback == pytest.approx(expected - cats, rel=1e-9)
    assert expected - cats > 0


def test_a_damaged_decode_count_is_named() -> None:
    import copy

    data = copy.deepcopy(host_figures())
    data["hf_eager_layers"]["by_model_type"]["qwen3_5_text"]["amp-sdpa"]["decode_per_layer"] = [1.0, 2.0]
    with pytest.raises(PresetError, match="qwen3_5_text.amp-sdpa.decode_per_layer"):
        checked_host(data)


def test_the_time_tabs_generation_formula_says_the_torch_path_is_assumed() -> None:
    # review 20: the counts assume flash-linear-attention absent (CoursIA's environment does not name it; its notebook
    # prints the fallback warning), which the Time tab's generation formula now says where it names transformers'
    # eager layers; a vLLM / SGLang rollout's decode reads no hf_eager_layers count (host_iteration.py
    # paged_layer_host_seconds), so the words sit in the trainer's own generate() clause
    from engine.posttraining.timing import RL_FORMULAS

    words = RL_FORMULAS["generation"]
    clause = words[words.index("without an engine, the trainer's generate()"):]
    assert "Qwen3.5's DeltaNet on their torch fallback: flash-linear-attention assumed absent" in clause[:200]
