"""Pipeline stages of hybrid and linear-attention stacks are timed by their own mix of layer kinds (issue 23 item 1).

engine/timing/stage_listing.py distinct_stages lists every stage where the layers are of more than one kind
(LayerGroup.kind: moe, linear_attn, block) and stages of the same mix share their work. Before, only a dense/MoE mix
counted: Qwen3-Next's and Nemotron 3 Nano's middle stages were all timed as layers 0.. of the stack. The expected
mixes are hand counts from the presets' config.json fields: Qwen3-Next's full_attention_interval 4 (layers 3, 7, 11,
... run softmax attention, the others gated DeltaNet: transformers models/qwen3_next/configuration_qwen3_next.py
layer_types), Nemotron 3 Nano's hybrid_override_pattern (M Mamba-2, E MoE, * attention). No engine output is copied.
"""

from __future__ import annotations

import pytest

from engine import resolve_model, scenario_from_dict
from engine.memory.states import layer_groups
from engine.timing import step_time
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for, stage_time_per_micro_batch
from engine.timing.stage_listing import distinct_stages

NANO, NEXT = "nemotron-3-nano-30b-a3b", "qwen3-next-80b-a3b"
NANO_PATTERN = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"  # presets/models/nemotron-3-nano-30b-a3b.json
BLOCK = {"M": "mamba", "E": "moe", "*": "attention"}


def _scenario(model: str, pp: int, **over: object):
    base = {"model": model, "gpu": "h100-sxm-80gb", "nodes": pp, "gpus_per_node": 8, "micro_batch": 1,
            "grad_accum": 16, "seq_len": 4096, "precision": "mixed-bf16", "framework": "megatron", "pp": pp,
            "tp": 1, "ep": 8}
    return scenario_from_dict(base | over)


def _mix(s, layers: range) -> dict[tuple[bool, bool, str], int]:
    out: dict[tuple[bool, bool, str], int] = {}
    for g in layer_groups(s, resolve_model(s), layers):
        out[g.kind] = out.get(g.kind, 0) + g.count
    return out


def test_qwen3_next_stages_at_pp8_hold_one_or_two_attention_layers():
    """48 layers over 8 stages, 6 each: stage k holds layers 6k..6k+5, of which those with (i + 1) % 4 == 0 run full
    attention: 3 | 7, 11 | 15 | 19, 23 | ... so even stages 1 attention + 5 DeltaNet, odd stages 2 + 4 (all MoE)."""
    s = _scenario(NEXT, 8)
    listed = distinct_stages(s, resolve_model(s))
    assert [i for i, _ in listed] == list(range(8))  # every stage, not first / one middle / last
    for i, layers in listed:
        attention = sum((j + 1) % 4 == 0 for j in layers)
        assert attention == (1 if i % 2 == 0 else 2)
        assert _mix(s, layers) == {(True, False, ""): attention, (True, True, ""): 6 - attention}


def test_nemotron_nano_stages_hold_the_pattern_s_blocks():
    """Nemotron 3 Nano's 52 blocks over 4 stages of 13: the mixes read off hybrid_override_pattern by hand."""
    s = _scenario(NANO, 4)
    listed = distinct_stages(s, resolve_model(s))
    assert [i for i, _ in listed] == list(range(4))
    for _, layers in listed:
        blocks = NANO_PATTERN[layers.start:layers.stop]
        expected: dict[tuple[bool, bool, str], int] = {}
        for c in blocks:
            key = (c == "E", False, BLOCK[c])
            expected[key] = expected.get(key, 0) + 1
        assert _mix(s, layers) == expected
    # by hand: MEMEM*EMEMEM* | EMEMEM*EMEMEM | *EMEMEM*EMEME | MEM*EMEMEMEME: the middle two differ (6 Mamba, 6 MoE,
    # 1 attention; 5, 6, 2), so they cannot share one timing
    assert _mix(s, listed[1][1])[(False, False, "mamba")] == 6
    assert _mix(s, listed[2][1])[(False, False, "mamba")] == 5


def test_alike_stages_share_their_work_and_differing_ones_do_not():
    """Qwen3-Next at PP 8: stages 2 and 4 (1 attention + 5 DeltaNet, neither first nor last) get the same work; stage
    3 (2 + 4) its own, which the old listing (layers 0-5, a 1 + 5 mix, for every middle stage) never timed."""
    s = _scenario(NEXT, 8)
    spec, hw, prof = resolve_model(s), hardware_for(s), framework_profile(s.framework)
    rates = rates_for(s, hw, prof)
    listed = dict(distinct_stages(s, spec))
    two, three, four = (stage_time_per_micro_batch(s, spec, hw, prof, rates, i, listed[i]) for i in (2, 3, 4))
    assert two.total == pytest.approx(four.total)
    assert three.total != pytest.approx(two.total)
    assert step_time(s).step_seconds > 0
