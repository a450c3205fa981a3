"""The Time tab's formula words (engine/timing/formulas.py, engine/posttraining/term_words.py) say what this session's
mechanisms compute (h-review21b): Hopper's NCCL displacement (h-a2await), Megatron-Core's gradient-buffer passes
(h-mcoreopt), the node-boundary crossings (h-megastep) and the rank wait's inputs (h-verlscore, h-verldynbsz). Each
check holds a word against the code path it describes, so that a change to one without the other fails."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.posttraining.term_words import RL_FORMULAS, RL_PROVENANCE
from engine.scenario.format import KEYS
from engine.timing.contention import nccl_sm_share
from engine.timing.data import efficiency
from engine.timing.formulas import BUBBLE_FORMULAS, FORMULAS
from engine.timing.hardware import hardware_for

RANK_IMBALANCE = Path(__file__).resolve().parent.parent / "engine" / "posttraining" / "rank_imbalance.py"


def _h100(**kw):
    return scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "torchtitan", **kw})


def test_the_data_parallel_words_give_hoppers_displaced_share():
    # sm_residency.tail_share: 1 - 1 / ceil(132 / (132 - 16)) = 1/2 on an H100 (132 SMs, NCCL's 16 CTAs across nodes)
    assert nccl_sm_share(hardware_for(_h100())) == pytest.approx(1 / 2)
    assert "on Hopper" in FORMULAS["communication_dp"] and "1/2" in FORMULAS["communication_dp"]


def test_the_optimizer_words_name_the_gradient_buffer_passes_the_megatron_profile_runs():
    # presets/efficiency.json frameworks megatron: step_grad_buffer_passes 2 (zero_ and check_grads' norm, core_v0.13.0)
    passes = efficiency()["frameworks"]["megatron"]["step_grad_buffer_passes"]
    assert f"{passes} passes over the rank's whole gradient buffer" in FORMULAS["optimizer"]


def test_the_pipeline_words_name_the_node_boundary_crossing():
    # node_boundary.py prices the boundary stage's NIC exchange in the sends and one crossing each way in the fill,
    # for the blocking non-interleaved schedules (1F1B, GPipe), not the zero-bubble fork's asynchronous ones
    assert "node boundary" in FORMULAS["communication_pp"]
    for schedule in ("1f1b", "gpipe"):
        assert "per node boundary" in BUBBLE_FORMULAS[schedule]
    for schedule in ("zb-h1", "zb-2p", "zbv"):
        assert "node boundary" not in BUBBLE_FORMULAS[schedule]


def test_the_rank_wait_words_name_every_scenario_key_the_code_reads():
    # the scenario keys rank_imbalance.py reads as attributes (train.x / s.x), less the layout's and the length's
    # that the words say in their own terms (ranks, micro-batches, tokens a sequence, mean and longest)
    tree = ast.parse(RANK_IMBALANCE.read_text(encoding="utf-8"))
    names = {k.name for k in KEYS}
    read = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in names}
    said_otherwise = {"framework", "packing", "grad_accum", "micro_batch", "seq_len", "completion_len"}
    assert read - said_otherwise == {"sequence_len_std", "max_tokens_per_micro_batch"}
    for key in read - said_otherwise:
        assert key in RL_FORMULAS["rank_imbalance"]
    assert "sequence_len_std" in RL_PROVENANCE["rank_imbalance"].basis
