"""Issue 23 item 8: the window says which parts of a time are measured, derived or assumed.

Expected kinds come from the sources presets/efficiency.json names for each figure: the matmul fraction of a GPU
measured in stas00/ml-engineering's MAMF table (commit 744d01e: H100 SXM, MI300X bf16) is measured; GB300 takes
B300's measurement of the same Blackwell Ultra chip and MI300X's fp8 figure is its bf16 one times the fp8/bf16 ratio
of GPUs measured in both (derived); a GPU without a row (L40S) takes the table's median (assumed). The overlap
shares of data-parallel collectives are stated assumptions (efficiency.json frameworks _source), so a term they
decide is assumed; the tensor-parallel collectives Megatron hides are counted from its code (engine/timing/
tp_overlap.py), so that term is derived either way."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.posttraining.timing import step_provenance
from engine.timing import BREAKDOWN_KEYS
from engine.timing.provenance import ASSUMED, DERIVED, MEASURED, time_provenance

BASE = {"model": "llama-3-8b", "nodes": 2, "gpus_per_node": 8}


def kind(term: str, **keys: object) -> str:
    return time_provenance(scenario_from_dict({**BASE, **keys}))[term].kind


def test_every_term_says_what_decides_it():
    p = time_provenance(scenario_from_dict(BASE))
    assert set(p) == set(BREAKDOWN_KEYS)
    assert all(v.kind in (MEASURED, DERIVED, ASSUMED) and len(v.basis) > 30 for v in p.values())
    assert {"generation", "scoring", "critic", "weight_sync"} <= set(step_provenance(scenario_from_dict(BASE)))


def test_matmul_rate_is_measured_only_where_the_gpu_was_measured():
    assert kind("compute", gpu="h100-sxm-80gb") == MEASURED
    assert kind("compute", gpu="mi300x") == MEASURED
    assert kind("compute", gpu="gb300") == DERIVED  # B300's measurement of the same chip
    assert kind("compute", gpu="mi300x", precision="fp8") == DERIVED  # bf16 x the fp8/bf16 ratio
    assert kind("compute", gpu="l40s") == ASSUMED  # no row: the table's median
    b200 = time_provenance(scenario_from_dict({**BASE, "gpu": "b200"}))["compute"]
    assert b200.kind == MEASURED and "power limit" in b200.basis  # flashinfer PR #2899's sustained clock


def test_overlap_shares_make_a_collective_assumed():
    assert kind("communication_dp") == ASSUMED  # DDP hides the all-reduce behind backward by a stated share
    hf, megatron = (time_provenance(scenario_from_dict({**BASE, "framework": fw}))["communication_tp"]
                    for fw in ("huggingface", "megatron"))
    assert hf.kind == DERIVED and "nothing hidden" in hf.basis  # bytes and latency only
    assert megatron.kind == DERIVED and "beside its GEMMs" in megatron.basis  # tp_overlap.py, from the code
    assert kind("offload") == ASSUMED  # CPU Adam's 150 GB/s of host memory bandwidth is assumed


def test_the_time_tab_shows_the_kind_beside_each_term(qtbot, tmp_path):
    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, {**BASE, "gpu": "l40s", "model": "llama-3.2-1b"})
    legend = win.time_panel.bar.legend
    # in plain words (gui/time_bar.py KIND_WORDS, user audit 9): "a rough guess" for assumed, "calculated from specs"
    # for derived
    assert "a rough guess" in legend.text() and "calculated from specs" in legend.text()
    assert "median fraction of peak" in legend.toolTip()


def test_a_post_training_term_shows_its_formula_and_figures_on_hover(qtbot, tmp_path):
    """The Time tab's hover over a GRPO step gave each term one sentence: the formulas (engine/posttraining/timing.py
    RL_FORMULAS, engine/timing/formulas.py FORMULAS, now marked for translation) never showed, nor the figures
    generation was costed with. Each now follows its basis; generation's figures are the step time's own
    (RLStepTime.generation)."""
    from window_helpers import window_from

    from engine.posttraining.timing import RL_FORMULAS
    from engine.timing.formulas import FORMULAS
    from engine.units import format_seconds

    grpo = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "framework": "trl", "training_objective": "grpo",
            "prompt_len": 512, "completion_len": 1024, "num_generations": 8, "rollout_engine": "vllm",
            "rollout_gpu_memory_utilization": 0.3}
    win = window_from(qtbot, tmp_path, grpo)
    tip = win.time_panel.bar.legend.toolTip().replace("&#x27;", "'")
    for key in ("generation", "scoring", "weight_sync"):
        assert RL_FORMULAS[key] in tip, key
    figures = dict(win.time_panel.time.generation)
    # each under its label (gui/time_bar.py GENERATION_FIGURE_LABELS), not its key
    assert f"decode passes (sequences / sequences at once) = {figures['waves']:,}" in tip
    assert f"decode = {format_seconds(figures['decode_seconds'])}" in tip
    training = window_from(qtbot, tmp_path, BASE).time_panel.bar.legend.toolTip().replace("&#x27;", "'")
    assert not any(formula in training for formula in RL_FORMULAS.values())  # a training step: no post-training terms
    assert FORMULAS["compute"] in training  # its own terms' formulas, the data-parallel one as the scenario's code
    # costs it (term_formulas.py: the GPU's and framework's mechanism)
    assert time_provenance(scenario_from_dict(BASE))["communication_dp"].formula in training


def test_the_formulas_on_hover_are_said_in_chinese(qtbot, tmp_path, english_after_zh):
    """The bubble's formula showed in English in the Chinese window (Provenance.formula was not translated), and the
    terms' formulas now shown beside it must be Chinese too: every formula of the hover is a translated template."""
    import re

    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, {**BASE, "framework": "megatron", "pp": 2, "grad_accum": 8})
    tip = re.sub("<[^>]+>", " ", win.time_panel.bar.legend.toolTip())
    english = re.findall(r"(?:\b[A-Za-z][a-z]{2,}\b[ ,;:]+){5,}", tip)
    assert not english, english
    assert "流水线" in tip or "1F1B" in tip


@pytest.fixture
def english_after_zh(qtbot):
    from PySide6.QtWidgets import QApplication

    from gui.i18n import install_language

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    yield
    install_language(QApplication.instance(), "en")
