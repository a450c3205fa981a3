"""What should I rent: the rented server's CPU memory (presets/rent_servers.json, engine/planning/rent_servers.py)
and the one-year horizon without a deadline (engine/planning/rent.py PRACTICAL_SECONDS).

Expected host memory comes from the vendor documents the data file cites: DGX H100, DGX H200 and DGX B200 2 TB
(user guides / datasheets: 32 DIMMs; the B200's base configuration), DGX A100 640GB 2 TB and 320GB 1 TB (DGX A100
datasheet), DGX-1 512 GB, GB200 NVL72 compute tray 2 Grace CPUs x up to 480 GB LPDDR5X = 960 GB, GH200 480 GB. GPUs
with no server standard are checked against a named cloud instance whose page states its memory (CLOUD_INSTANCES:
each row quotes the figure and unit of the data file's source); MI325X, B300 and consumer cards have no stated server
memory. Prices are test inputs, not provider prices.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import scenario_from_dict
from engine.models.presets import gpu_presets
from engine.planning.rent import PRACTICAL_SECONDS, rent_search
from engine.planning.rent_counts import node_gpus
from engine.planning.rent_reasons import (
    BEYOND_YEAR,
    BEYOND_YEAR_AT_CEILING,
    BEYOND_YEAR_AT_PEAK,
    BEYOND_YEAR_FASTEST,
    NONE_IN_YEAR,
    NOT_FIT_SERVER,
)
from engine.planning.rent_report import dropped_lines
from engine.planning.rent_servers import (
    AS_SET,
    LARGER,
    NO_STANDARD,
    NOT_KNOWN,
    SERVER,
    SERVER_SHARE,
    node_host,
    servers,
)

ROOT = Path(__file__).resolve().parent.parent
TB = 10**12
GiB = 2**30
# GPU: (instance the option names, its GPUs, its memory in bytes, the statement the data file's source quotes)
CLOUD_INSTANCES = {
    "a10g": ("AWS g5.48xlarge", 8, 768 * GiB, "192 vCPUs, 768 GiB memory"),  # AWS Batch user guide, Run GPU jobs
    "l4": ("AWS g6.48xlarge", 8, 768 * GiB, "g6.48xlarge (192 vCPU, 768 GiB)"),  # ROSA AWS instance types
    "l40s": ("AWS g6e.48xlarge", 8, 1536 * GiB, "g6e.48xlarge (192 vCPU, 1,536 GiB)"),  # ROSA AWS instance types
    "t4": ("AWS g4dn.metal", 8, 384 * GiB, "g4dn.metal (96 vCPU, 384 GiB)"),  # ROSA AWS instance types
    "h100-nvl-94gb": ("Azure Standard_NC80adis_H100_v5", 2, 640 * GiB, "640 GiB of system memory"),  # NCads H100 v5
    "mi300x": ("Azure Standard_ND96isr_MI300X_v5", 8, 1850 * GiB, "Memory 1850 GiB, 8 MI300X"),  # ND MI300X v5
    "mi355x": ("Oracle BM.GPU.MI355X.8", 8, 3 * TB, "System Memory 3TB DDR"),  # OCI GPU quick start, MI355X
    "gaudi3": ("IBM Cloud gx3d-160x1792x8gaudi3", 8, 1792 * GiB, "Memory 1792 GiB, 8x Intel Gaudi-3"),  # IBM Cloud
}
BEYOND = (BEYOND_YEAR, BEYOND_YEAR_AT_CEILING, BEYOND_YEAR_AT_PEAK, BEYOND_YEAR_FASTEST, NONE_IN_YEAR)


def seventy_b(**extra):
    return scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
                               "precision": "mixed-bf16", "optimizer": "adamw", "micro_batch": 1, "grad_accum": 16,
                               "seq_len": 4096, "attention": "flash", "checkpointing": "full", "zero_stage": 3,
                               "tokens_to_train": 10**9, **extra})


def test_server_host_memory_is_the_datasheets():
    assert node_host("h100-sxm-80gb", 8).capacity_bytes == 2 * TB  # DGX H100: 2 TB
    assert node_host("h200", 8).capacity_bytes == 2 * TB  # DGX H200: 2 TB
    assert node_host("b200", 8).capacity_bytes == 2 * TB  # DGX B200: 2 TB (upgradable to 4 TB)
    assert node_host("a100-80gb", 8).capacity_bytes == 2 * TB  # DGX A100 640GB: 2 TB
    assert node_host("a100-40gb", 8).capacity_bytes == 1 * TB  # DGX A100 320GB: 1 TB
    assert node_host("v100-32gb", 8).capacity_bytes == 512 * 10**9  # DGX-1: 512 GB
    assert node_host("gb200", 4).capacity_bytes == 2 * 480 * 10**9  # a tray: 2 Grace CPUs x 480 GB LPDDR5X
    assert node_host("gh200", 1).capacity_bytes == 480 * 10**9  # one Grace per superchip
    assert node_host("h100-sxm-80gb", 8).basis.template == SERVER
    # fewer GPUs than the server holds: that share of its memory, said as such
    part = node_host("h100-sxm-80gb", 2)
    assert part.capacity_bytes == 2 * TB * 2 // 8 and part.basis.template == SERVER_SHARE
    assert "2 of the NVIDIA DGX H100's 8 GPUs" in str(part.basis)


def test_unknown_host_memory_is_stated_not_assumed():
    for gpu in ("mi325x", "b300"):  # an entry without a stated figure
        host = node_host(gpu, 8)
        assert host.capacity_bytes is None and host.basis.template == NOT_KNOWN and "not checked" in str(host.basis)
    consumer = node_host("rtx-4090", 4)  # no server standard at all
    assert consumer.capacity_bytes is None and consumer.basis.template == NO_STANDARD
    own = node_host("rtx-4090", 1, user_bytes=64 * 2**30)  # the set-up's own figure wins for its own GPU
    assert own.capacity_bytes == 64 * 2**30 and own.basis.template == AS_SET


def test_every_server_is_a_gpu_preset_with_a_source_and_the_node_the_search_rents():
    s = seventy_b(gpu="rtx-4090", gpus_per_node=1)
    for gpu, server in servers().items():
        assert gpu in gpu_presets() and server.source
        if gpu in ("gh200", "mi325x", *CLOUD_INSTANCES):  # rented in the user's node shape (PCIe, OAM, superchip)
            assert node_gpus(s, gpu) == s.gpus_per_node, gpu
        else:
            assert node_gpus(s, gpu) == server.gpus, gpu


def test_cloud_instance_host_memory_is_the_instance_pages():
    for gpu, (instance, gpus, stated_bytes, statement) in CLOUD_INSTANCES.items():
        server = servers()[gpu]
        assert (server.gpus, server.host_memory_bytes) == (gpus, stated_bytes), gpu
        assert statement in server.source and instance in server.name, gpu  # value and unit as the source states them
        full = node_host(gpu, gpus)
        assert full.capacity_bytes == stated_bytes and full.basis.template == SERVER
        assert instance in str(full.basis)  # the option says which instance it was checked against
    one = node_host("l40s", 1)  # one GPU: that share of the instance, said as such
    assert one.capacity_bytes == 1536 * GiB // 8 and one.basis.template == SERVER_SHARE
    assert "1 of the AWS g6e.48xlarge instance's 8 GPUs" in str(one.basis)


def test_a_node_larger_than_the_instance_is_not_that_instance():
    host = node_host("h100-nvl-94gb", 8)  # Azure's H100 NVL VM holds 2 GPUs: a node of 8 is another machine
    assert host.capacity_bytes is None and host.basis.template == LARGER and "not checked" in str(host.basis)
    assert "a node of 8 GPUs is larger than the Azure Standard_NC80adis_H100_v5 VM (2 GPUs)" in str(host.basis)
    assert node_host("gh200", 4).capacity_bytes == 4 * 480 * 10**9  # superchips: each GPU brings its Grace's memory


@pytest.mark.parametrize("gpu", ["mi300x", "l40s"])
def test_the_ranking_now_checks_host_memory_against_the_instance(gpu):
    # before this data these GPUs were ranked unchecked; now every option is held to its instance's share
    instance, gpus, stated_bytes, _ = CLOUD_INSTANCES[gpu]
    result = rent_search(seventy_b(), {gpu: 2.0}, max_gpus=16)
    assert result.ranked
    for row in result.ranked:
        assert row.host_capacity_bytes == stated_bytes * row.gpus_per_node // gpus
        assert row.host_bytes <= row.host_capacity_bytes and instance in str(row.host_basis)
    short = [r for r in result.dropped if r.dropped.template == NOT_FIT_SERVER]
    assert short and all(instance in str(r.dropped) for r in short)  # 70B with offload: small shares fall short


def test_options_whose_node_cannot_hold_the_cpu_memory_are_dropped_and_say_why():
    # 70B full fine-tuning on 1-4 H100s offloads its states: 1.16 TiB a node, more than 4 of a DGX H100's 8 GPUs' share
    # of its 2 TB (931 GiB); before this check 1 x H100 was the cheapest option at 1.16 TiB of CPU memory
    result = rent_search(seventy_b(), {"h100-sxm-80gb": 2.5}, max_gpus=16)
    short = [r for r in result.dropped if r.dropped.template == NOT_FIT_SERVER]
    assert [r.gpus for r in short] == [1, 2, 4]
    assert "4 of the NVIDIA DGX H100's 8 GPUs" in str(short[-1].dropped)
    assert result.ranked and result.ranked[0].gpus == 8
    for row in result.ranked:
        assert row.host_capacity_bytes == 2 * TB * row.gpus_per_node // 8
        assert row.host_bytes <= row.host_capacity_bytes
        assert dict(row.changes)["host_memory_bytes"] == row.host_capacity_bytes  # applying it keeps the check


def test_a_gpu_without_server_memory_is_ranked_unchecked_and_says_so():
    result = rent_search(seventy_b(), {"rtx-4090": 0.4}, max_gpus=1)
    row = result.ranked[0]
    assert row.host_capacity_bytes is None and row.host_basis.template == NO_STANDARD
    assert row.host_bytes > 1 * TB  # its offload needs more CPU memory than any server above a share holds


@pytest.fixture(scope="module")
def huge():
    """The audit's case: Llama 3.1 405B on 10^12 tokens had a 233-year cheapest option (4 x RTX 4090)."""
    s = seventy_b(model="llama-3.1-405b", tokens_to_train=10**12)
    return s, rent_search(s, {"h100-sxm-80gb": 2.5, "rtx-4090": 0.4})


def test_without_a_deadline_options_beyond_a_year_are_left_out_with_their_time(huge):
    _s, result = huge
    assert result.horizon_seconds == PRACTICAL_SECONDS == 365 * 86400
    assert result.ranked and all(r.seconds <= PRACTICAL_SECONDS for r in result.ranked)
    assert all(r.gpu != "rtx-4090" for r in result.ranked)
    beyond = [r for r in result.dropped if r.dropped.template in BEYOND]
    assert {r.gpu for r in beyond} == {"rtx-4090", "h100-sxm-80gb"}
    assert all("beyond a year" in str(r.dropped) and "no deadline set" in str(r.dropped) for r in beyond)


def test_a_deadline_of_any_length_lifts_the_horizon(huge):
    s, _result = huge
    result = rent_search(s, {"h100-sxm-80gb": 2.5}, deadline_seconds=10 * PRACTICAL_SECONDS)
    assert result.horizon_seconds is None
    assert any(r.seconds > PRACTICAL_SECONDS for r in result.ranked)
    assert all(r.dropped.template not in BEYOND for r in result.dropped)


def test_left_out_runs_of_counts_are_one_line():
    rows = [(1, "H100", "a", "late by 9 d"), (2, "H100", "a", "late by 4 d"), (4, "H100", "b", "too dear"),
            (1, "B200", "a", "late by 2 d"), (0, "L4", "n", "no speed figures")]
    assert dropped_lines(rows) == ["1-2 x H100: late by 4 d", "4 x H100: too dear", "1 x B200: late by 2 d",
                                   "L4: no speed figures"]


def test_cli_says_the_horizon_and_the_nodes_host_memory(tmp_path):
    path, prices = tmp_path / "s.json", tmp_path / "p.json"
    path.write_text(json.dumps(seventy_b().to_dict()))
    prices.write_text(json.dumps({"currency": "USD", "prices": {"h100-sxm-80gb": 2.5}}))
    cmd = [sys.executable, str(ROOT / "main.py"), "fit", "--objective", "cost", "--prices", str(prices), str(path)]
    text = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300).stdout
    assert "no deadline: options taking more than 365 d are left out as impractical" in text
    assert "the node holds 1.82 TiB (NVIDIA DGX H100, 8 GPUs)" in text  # 2 TB in GiB
    assert "1-4 x NVIDIA H100 SXM 80GB: does not fit" in text
    data = json.loads(subprocess.run([*cmd, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300).stdout)
    assert data["horizon_seconds"] == PRACTICAL_SECONDS
    assert data["ranked"][0]["host_capacity_bytes_per_node"] == 2 * TB


def test_ranking_says_when_host_memory_was_not_checked():
    # issue 23 item 6: an option whose server's CPU memory no document states (B300: presets/rent_servers.json) is
    # ranked unchecked; its line says how much CPU memory a node needs and that it was not checked
    from engine.planning.rent_report import render_rent, rent_report
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "b300", "gpus_per_node": 8, "micro_batch": 1,
                            "grad_accum": 16, "seq_len": 4096, "attention": "flash", "precision": "mixed-bf16",
                            "checkpointing": "full", "zero_stage": 3, "tokens_to_train": 10**9})
    report = rent_report(s, {"b300": 4.0}, "USD", deadline_seconds=30 * 86400.0)
    assert report["ranked"] and all(o["host_capacity_bytes_per_node"] is None for o in report["ranked"])
    text = render_rent(report)
    assert text.count("CPU memory per node; the node's CPU memory is not known, so not checked") == len(report["ranked"])
