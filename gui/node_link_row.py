"""The link inside a node under the Hardware picker's summary (user audit 16): a university's 4 nodes of 8 x A100
40GB PCIe were timed over the preset's NVLink 3 (300 GB/s each way, ten times PCIe 4.0 x16) with nothing on screen
saying so; tensor parallelism's all-reduces looked cheap. The line names the link the time model takes
(engine/timing/hardware.py node_link) and where it comes from, and its hover says how to state another."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from engine import Scenario
from engine.timing import node_link
from engine.units import format_gb_per_s


def _tr(text: str) -> str:
    return QCoreApplication.translate("HardwarePicker", text)


FROM_FILE = QT_TRANSLATE_NOOP("HardwarePicker", "GPU link in a node: %(rate)s GB/s each way (the scenario file's)")
FROM_FILE_PCIE = QT_TRANSLATE_NOOP(
    "HardwarePicker", "GPU link in a node: %(link)s, %(rate)s GB/s each way (the scenario file's; at or below the card's "
    "PCIe x16, so timed as PCIe)")
OVER_PCIE = QT_TRANSLATE_NOOP("HardwarePicker", "GPU link in a node: %(link)s, %(rate)s GB/s each way (no GPU link)")
CARDS_OWN = QT_TRANSLATE_NOOP("HardwarePicker", "GPU link in a node: %(link)s, %(rate)s GB/s each way (the card's)")
TIP = QT_TRANSLATE_NOOP(
    "HardwarePicker",
    "The link the step time takes between the GPUs of one node (tensor, expert and pipeline parallelism, and the "
    "data-parallel reduce inside a node). PCIe cards of a GPU listed with NVLink (A100 PCIe), or cards bridged in "
    "pairs only: state the link in the scenario file as intra_node_bandwidth_bytes_per_s (bytes/s each way; PCIe "
    "4.0 x16: 31500000000).")


def node_link_text(s: Scenario) -> str:
    """One line: the link, its bandwidth each way and its basis; "" for one GPU a node (nothing to link)."""
    if s.gpus_per_node < 2:
        return ""
    link = node_link(s)
    words = {"rate": format_gb_per_s(link.bytes_per_s), "link": link.name}
    if link.basis == "scenario":  # a rate at or below the card's PCIe x16 is timed as PCIe (hardware.gpu_link)
        return _tr(FROM_FILE if link.gpu_link else FROM_FILE_PCIE) % words
    if link.basis == "pcie":
        return _tr(OVER_PCIE) % words
    return _tr(CARDS_OWN) % words


def node_link_tip() -> str:
    return _tr(TIP)
