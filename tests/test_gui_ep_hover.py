"""User audit 16: a Mixtral 8x22B fine-tuner on 2 nodes of 8 H200 (Megatron, TP 2, EP 8) asked why the step was
slower than expected; the Time tab's hover of the expert-parallel all-to-all (19% of the step) gave its formula
without the figures it reads. It now names them: the EP group's GPUs, its ranks inside the NVLink domain, the share
of each token's copies that crosses the network, and the rates divided by."""

from engine import resolve_model, scenario_from_dict
from engine.timing import hardware_for
from engine.timing.links import ep_dispatch_inputs
from engine.timing.provenance import time_provenance
from gui.app import build_window

MIXTRAL = {"model": "mixtral-8x22b", "gpu": "h200", "gpus_per_node": 8, "nodes": 2, "method": "lora",
           "lora_targets": "all-linear", "precision": "bf16", "micro_batch": 1, "seq_len": 4096,
           "checkpointing": "full", "framework": "megatron", "tp": 2, "ep": 8, "grad_accum": 8}


def test_the_ep_hover_names_the_group_that_crosses_nodes(qtbot):
    s = scenario_from_dict(MIXTRAL)
    inputs = dict(time_provenance(s)["communication_ep"].inputs)
    assert inputs == dict(ep_dispatch_inputs(s, resolve_model(s), hardware_for(s)))
    # Megatron-Core's expert grid (engine/timing/links.py ep_ranks, parallel_state.py RankGenerator order
    # tp-cp-ep-dp-pp, expert TP defaulting to TP): 8 EP ranks 2 apart span 16 GPUs, 4 of them in each 8-GPU node,
    # so (8 - 4) / 8 of a token's routed copies go over the network
    assert inputs["ep_group_gpus"] == 16 and inputs["ep_ranks_in_nvlink_domain"] == 4
    assert inputs["copies_over_network"] == "50%" and inputs["top_k"] == 2  # Mixtral routes each token to 2 experts
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.state.edit(dict(MIXTRAL))
    win.time_panel.refresh()
    hover = win.time_panel.bar.legend.toolTip()
    assert "ep_group_gpus = 16" in hover and "copies_over_network = 50%" in hover


def test_a_dense_model_has_no_ep_inputs():
    assert not time_provenance(scenario_from_dict({"model": "llama-2-7b"}))["communication_ep"].inputs
