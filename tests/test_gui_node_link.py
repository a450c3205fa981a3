"""User audit 16: a platform engineer with 4 nodes of 8 x A100 40GB PCIe found no word of the link the step time
takes inside a node; the a100-40gb preset ("SXM4/PCIe") carries NVLink 3. The Hardware picker now names it."""

from engine import estimate, scenario_from_dict
from engine.timing import node_link, step_time
from gui.app import build_window

A100_NODES = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "tp": 2, "pp": 2,
              "zero_stage": 1, "micro_batch": 1, "seq_len": 4096, "grad_accum": 128}


def _window(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.show()
    return win


def test_the_picker_names_the_cards_link_then_the_files_then_pcie(qtbot):
    win = _window(qtbot)
    picker = win.hardware_picker
    win.state.edit(dict(A100_NODES))
    # presets/gpus.json a100-40gb: "interconnect": "NVLink 3", 300e9 bytes/s each way (NVIDIA's A100 datasheet)
    assert picker.node_link.text() == "GPU link in a node: NVLink 3, 300 GB/s each way (the card's)"
    assert not picker.node_link.isHidden() and "intra_node_bandwidth_bytes_per_s" in picker.node_link.toolTip()
    win.state.edit({"intra_node_bandwidth_bytes_per_s": 25e9})  # what the engineer states for PCIe 4.0 cards
    # 25 GB/s is below the A100's PCIe 4.0 x16 (31.5 GB/s, presets/efficiency.json pcie): the step time takes it as
    # PCIe (hardware.gpu_link, h-polish16), and the line says so
    assert picker.node_link.text() == ("GPU link in a node: PCIe 4.0 x16, 25 GB/s each way (the scenario file's; at "
                                       "or below the card's PCIe x16, so timed as PCIe)")
    win.state.edit({"intra_node_bandwidth_bytes_per_s": 200e9})  # A800's cut NVLink: above PCIe, a GPU link
    assert picker.node_link.text() == "GPU link in a node: 200 GB/s each way (the scenario file's)"
    # an RTX 4090 has no GPU link (presets/gpus.json: no interconnect_bandwidth); PCIe 4.0 x16 is 31.5 GB/s
    # (presets/efficiency.json pcie x16_bytes_per_s "4")
    win.state.edit({"intra_node_bandwidth_bytes_per_s": None, "gpu": "rtx-4090", "model": "llama-3.2-1b", "tp": 1,
                    "pp": 1, "gpus_per_node": 2, "nodes": 1})
    assert picker.node_link.text() == "GPU link in a node: PCIe 4.0 x16, 31.5 GB/s each way (no GPU link)"
    win.state.edit({"gpus_per_node": 1})
    assert picker.node_link.isHidden()  # one GPU a node: nothing to link


def test_the_link_shown_is_the_one_the_step_time_takes():
    # the same scenario at the shown 300 GB/s and at 25 GB/s: the stated link is the one the time model reads, so
    # tensor-parallel communication grows about as the bandwidth falls
    s = scenario_from_dict(A100_NODES)
    slow = scenario_from_dict({**A100_NODES, "intra_node_bandwidth_bytes_per_s": 25e9})
    assert node_link(s).bytes_per_s == 300e9 and node_link(slow).bytes_per_s == 25e9
    assert estimate(s).verdict == estimate(slow).verdict
    fast_tp, slow_tp = (step_time(x).breakdown_seconds["communication_tp"] for x in (s, slow))
    assert slow_tp > 5 * fast_tp


def test_the_line_says_pcie_exactly_where_the_step_time_times_pcie():
    # the line's words and the step time read the one rule (hardware.gpu_link): around the A100's PCIe 4.0 x16
    # (31.5e9 B/s, presets/efficiency.json pcie x16_bytes_per_s "4"), unstated (the card's NVLink 3) too
    from engine.timing import hardware_for

    for rate in (None, 25e9, 31.5e9, 31.6e9, 200e9):
        s = scenario_from_dict({**A100_NODES, "intra_node_bandwidth_bytes_per_s": rate})
        assert node_link(s).gpu_link == hardware_for(s).nvlink
        assert node_link(s).name.startswith("PCIe") == (not hardware_for(s).nvlink)
    assert not node_link(scenario_from_dict({**A100_NODES, "intra_node_bandwidth_bytes_per_s": 31.5e9})).gpu_link


def test_a_stated_link_reads_in_gb_per_s_everywhere():
    # the engineer's 25e9 bytes/s: the Hardware line says "25 GB/s"; Compare and the Markdown said "23.28 GiB/s"
    from engine.scenario.key_words import value_words
    from gui.node_link_row import node_link_text

    s = scenario_from_dict({**A100_NODES, "intra_node_bandwidth_bytes_per_s": 25e9})
    assert value_words("intra_node_bandwidth_bytes_per_s", 25e9) == "25 GB/s"
    assert "25 GB/s" in node_link_text(s)
    assert value_words("inter_node_bandwidth_bytes_per_s", 31.5e9) == "31.5 GB/s"
