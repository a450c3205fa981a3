"""Issue 27.5: nvidia-smi CSV and W&B system-metrics exports as a measured line.

The rows are written here in the formats the tools print: nvidia-smi --query-gpu=memory.used --format=csv -l 1
("memory.used [MiB]" then "N MiB"; nounits drops the unit; with index and timestamp columns when queried) and
W&B's system metrics (system/gpu.N.memoryAllocatedBytes in bytes, memoryAllocated in percent). Expected bytes are
the written MiB x 2^20 or the written bytes."""

from __future__ import annotations

import json

import pytest
from conftest import REPO

from engine.cli import main as cli_main
from engine.diagnosis.gpu_logs import read_gpu_log
from engine.errors import PlannerError

MIB = 2**20


def test_nvidia_smi_plain_and_nounits():
    line = read_gpu_log("memory.used [MiB]\n1024 MiB\n20480 MiB\n22000 MiB\n")
    assert line.peak_bytes == 22000 * MIB and line.samples == 3 and line.source == "nvidia-smi"
    assert read_gpu_log("memory.used [MiB]\n5\n7\n").peak_bytes == 7 * MIB


def test_nvidia_smi_with_index_reads_the_first_gpu_only():
    text = ("timestamp, index, memory.used [MiB], memory.total [MiB]\n"
            "2024/05/01 10:00:00.000, 0, 100 MiB, 24564 MiB\n2024/05/01 10:00:00.000, 1, 9000 MiB, 24564 MiB\n"
            "2024/05/01 10:00:01.000, 0, 21000 MiB, 24564 MiB\n2024/05/01 10:00:01.000, 1, 23000 MiB, 24564 MiB\n")
    line = read_gpu_log(text)
    assert line.device == 0 and line.samples == 2 and line.peak_bytes == 21000 * MIB


def test_wandb_bytes_percent_and_panel_exports():
    text = ("_runtime,_timestamp,system/gpu.0.memoryAllocatedBytes,system/gpu.1.memoryAllocatedBytes\n"
            "10,1700000000,1000000000,5\n20,1700000010,22000000000,5\n")
    line = read_gpu_log(text)
    assert (line.device, line.peak_bytes, line.x_unit, line.points[-1][0]) == (0, 22_000_000_000, "s", 20.0)
    percent = "_runtime,system/gpu.0.memoryAllocated\n1,50\n2,75\n"
    assert read_gpu_log(percent, capacity_bytes=80 * 2**30).peak_bytes == round(0.75 * 80 * 2**30)
    panel = ("Step,run-a - system/gpu.0.memoryAllocatedBytes,run-a - system/gpu.0.memoryAllocatedBytes__MIN,"
             "run-a - system/gpu.0.memoryAllocatedBytes__MAX\n1,100,1,999999\n2,300,1,999999\n")
    assert read_gpu_log(panel).peak_bytes == 300


@pytest.mark.parametrize("text", ["", "a,b\n1,2\n", "memory.used [MiB]\nlots\n",
                                  "_runtime,system/gpu.0.memoryAllocated\n1,50\n",
                                  "memory.used [MiB]\n" + "9" * 400 + " MiB\n"])
def test_logs_without_a_reading_are_refused_in_one_sentence(text):
    with pytest.raises(PlannerError) as info:
        read_gpu_log(text)
    assert "\n" not in str(info.value)


def test_a_long_log_is_thinned_to_a_bounded_line_keeping_its_peak():
    rows = "".join(f"{1000 + (i % 97)} MiB\n" for i in range(50_000)) + "30000 MiB\n"
    line = read_gpu_log("memory.used [MiB]\n" + rows)
    assert len(line.points) <= 512 and line.peak_bytes == 30000 * MIB and line.samples == 50_001


def test_cli_diagnose_a_log_beside_the_plan_suggests_calibration(tmp_path, capsys):
    path = tmp_path / "smi.csv"
    path.write_text("memory.used [MiB]\n1000 MiB\n23500 MiB\n", encoding="utf-8")
    scenario = str(REPO / "examples" / "qlora-12gb-card.json")
    assert cli_main(["diagnose", str(path), scenario, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["measured_line"]["peak_bytes"] == 23500 * MIB
    assert any(f["kind"] == "calibrate" for f in data["findings"])
