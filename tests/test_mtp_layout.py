"""Megatron's pipeline layout (pipeline_layout) and the multi-token-prediction layers it places (mtp_layers).

Layouts: Megatron-Bridge's DeepSeek-V3 recipes (NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/recipes/deepseek/
deepseek_v3.py layout_map at v0.4.2 line 37; _build_standalone_mtp_layout at 067f987d); the string syntax and the
chunk-to-rank order: NVIDIA/Megatron-LM megatron/core/transformer/pipeline_parallel_layer_layout.py at d98e8a6.
"""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.memory.parallelism.layout import mtp_stage, trained_mtp_layers
from engine.memory.parallelism.pipeline import scenario_stage_ranges, stage_layer_ranges
from engine.scenario import resolve_model, scenario_from_dict
from engine.scenario.pipeline_layout import layout_chunks
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.mfu import model_flops_per_token, step_flops_per_token
from engine.timing.model import rates_for, stage_time_per_micro_batch, step_time

RECIPE_16 = "Et*4|(t*4|)*14tmL"  # layout_map (16, 1), (8, 2), (4, 4); the GB300 preset's pp_layout for PP 2, VP 8
RECIPE_8 = "Et*8|(t*8|)*6t*5mL"  # layout_map (8, 1): [E + 8] + [8] x 6 + [5, mtp, loss]
B200_PP16 = {"model": "deepseek-v3", "gpu": "b200", "gpus_per_node": 8, "nodes": 32, "framework": "megatron",
             "precision": "fp8", "micro_batch": 1, "grad_accum": 256, "seq_len": 4096, "tp": 1, "pp": 16, "ep": 8,
             "zero_stage": 1}


def _scenario(**changes: object):
    return scenario_from_dict({**B200_PP16, **changes})


def test_layout_string_unrolls_as_megatron_reads_it():
    chunks = layout_chunks(RECIPE_16)
    assert len(chunks) == 16 and chunks[0] == "Etttt" and chunks[-1] == "tmL"
    assert all(c == "tttt" for c in chunks[1:-1])
    assert sum(c.count("t") for c in layout_chunks(RECIPE_8)) == 61  # DeepSeek-V3's num_hidden_layers
    assert layout_chunks("Et|(tt|)*30mL")[-1] == "mL" and len(layout_chunks("Et|(tt|)*30mL")) == 32


def test_ranks_hold_their_chunks():
    spec = resolve_model(_scenario())
    pp16 = [len(r) for r in scenario_stage_ranges(_scenario(pipeline_layout=RECIPE_16), spec.layers)]
    assert pp16 == [4] * 15 + [1]  # the last stage: one decoder layer, the MTP layer and the loss
    # PP 2 x VP 8: rank r holds chunks r, r + 2, ...: rank 0 eight chunks of 4, rank 1 seven of 4 and "tmL"
    pp2 = [len(r) for r in scenario_stage_ranges(_scenario(pp=2, vpp=8, pp_schedule="interleaved-1f1b",
                                                           pipeline_layout=RECIPE_16, ep=32), spec.layers)]
    assert pp2 == [32, 29]
    s8 = _scenario(pp=8, pipeline_layout=RECIPE_8, ep=32)
    assert [len(r) for r in scenario_stage_ranges(s8, spec.layers)] == [8] * 7 + [5]


def test_layout_that_does_not_match_is_not_used():
    spec = resolve_model(_scenario())
    s = _scenario(pp=8, pipeline_layout=RECIPE_16, ep=32)  # 16 chunks over PP 8 without VP 2: Megatron refuses it
    assert scenario_stage_ranges(s, spec.layers) == stage_layer_ranges(61, 8)


def test_mtp_stage_follows_the_layout():
    spec = resolve_model(_scenario())
    assert mtp_stage(_scenario(), spec.layers) == 15  # no layout: with the output layer, on the last stage
    # Megatron-Bridge's standalone MTP layout: 61 decoders over 14 stages, then [mtp], then [loss]
    standalone = "Et*5|(t*5|)*4(t*4|)*9m|L"
    assert sum(c.count("t") for c in layout_chunks(standalone)) == 61
    assert mtp_stage(_scenario(pipeline_layout=standalone), spec.layers) == 14


def test_bad_layout_is_one_sentence():
    for bad in ("Etx|L", "tE|L", "Etmt|L", "Et|t"):
        with pytest.raises(ScenarioError, match="Megatron pipeline layout"):
            _scenario(pipeline_layout=bad)
    with pytest.raises(ScenarioError, match="auto"):
        _scenario(mtp_layers=-1)


def test_mtp_layers_train_only_where_megatron_builds_them():
    spec = resolve_model(_scenario())
    assert spec.mtp_layers == 1  # num_nextn_predict_layers in deepseek-ai/DeepSeek-V3's config.json
    assert trained_mtp_layers(_scenario(), spec) == 1
    assert trained_mtp_layers(_scenario(mtp_layers=0), spec) == 0
    assert trained_mtp_layers(_scenario(framework="torchtitan"), spec) == 0  # transformers-style models skip it


def _stage_seconds(s, index: int) -> float:
    spec, hw = resolve_model(s), hardware_for(s)
    prof = framework_profile(s.framework)
    ranges = scenario_stage_ranges(s, spec.layers)
    return stage_time_per_micro_batch(s, spec, hw, prof, rates_for(s, hw, prof), index, ranges[index]).total


def test_mtp_costs_a_decoder_layer_and_a_second_output_layer_on_its_stage():
    with_mtp, without = _scenario(pipeline_layout=RECIPE_16), _scenario(pipeline_layout=RECIPE_16, mtp_layers=0)
    added = _stage_seconds(with_mtp, 15) - _stage_seconds(without, 15)
    one_moe_layer = _stage_seconds(without, 1) / 4  # a middle stage holds four MoE layers
    # the MTP layer's MoE decoder layer plus its projection, norms, output layer and loss: more than one layer
    assert added > one_moe_layer
    assert _stage_seconds(with_mtp, 14) == _stage_seconds(without, 14)  # the other stages do not run it
    assert step_time(with_mtp).step_seconds > step_time(without).step_seconds


def test_mfu_counts_the_mtp_flops_megatron_bridge_counts():
    """Megatron-Bridge src/megatron/bridge/training/utils/flop_utils.py at 067f987d: each MTP layer adds a layer of
    the last layer's kind, the 2h -> h projection and the logits once more (its norms are under 0.01%); its attention
    over the causal half of the keys, 12 d s/2, as the decoder's (Megatron-LM's count)."""
    s = _scenario()
    spec = resolve_model(s)
    h = spec.hidden
    layer = spec.active_layer_params(True) + 2 * h * h + spec.vocab * h
    expected = model_flops_per_token(spec, s.seq_len) + 6 * layer + 12 * spec.q_dim * s.seq_len / 2
    assert step_flops_per_token(s, spec) == pytest.approx(expected)
    assert step_flops_per_token(_scenario(mtp_layers=0), spec) == model_flops_per_token(spec, s.seq_len)


def test_mtp_layer_weights_live_on_its_stage():
    """The MTP layer trains: its weights, gradients and optimizer states sit on its stage (Megatron-LM's CI run
    tests/functional_tests/test_cases/moe/gpt3_mcore_te_tp2_pp2_ep4_etp1_memory_speed, one MTP layer, measures them
    on the last rank: docs/accuracy.md)."""
    from engine.memory.parallelism.layout import mtp_groups
    from engine.memory.states import layer_groups, stage_params

    s = _scenario(pipeline_layout=RECIPE_16)
    spec = resolve_model(s)
    last = scenario_stage_ranges(s, spec.layers)[15]
    groups = layer_groups(s, spec, last)
    assert mtp_groups(s, spec, 14) == ()
    with_mtp = stage_params(s, spec, last, False, True, groups + mtp_groups(s, spec, 15))
    without = stage_params(s, spec, last, False, True, groups)
    experts = spec.expert_params_per_layer()
    # one MoE layer (its dense part whole at TP 1, its 256 routed experts over EP 8) and the embedding's copy that
    # the MTP stage builds (megatron/core/models/gpt/gpt_model.py at d98e8a6: pre_process or mtp_process)
    layer = spec.layer_params(True) - experts + experts / 8
    assert with_mtp.trainable - without.trainable == pytest.approx(layer + spec.embedding_params)
