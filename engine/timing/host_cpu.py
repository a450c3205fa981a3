"""The host CPU of the GPU system a run uses, where a collective library's choices depend on it (issue 23 item 1).

NCCL reads its host's CPU architecture and vendor from the topology it detects (NVIDIA/nccl src/graph/search.cc at
5067397c lines 60-61) and costs a ring across nodes with a per-step network overhead of that host (getNetOverhead,
tuning.cc lines 226-233 and 404-410: 2 us on AMD x86, 1 us on Intel x86 and any other) and LL's bandwidth cap across
nodes by its vendor (llMaxBw, lines 267-270); AMD's RCCL has the same rule (ROCm/rccl src/graph/tuning.cc at 0cbce2a7
lines 292-300, 445-451). nccl_protocols.py applies them; this module says which host a scenario has:
presets/host_overhead.json host_cpus, the CPU of each preset's GPU system (DGX A100: AMD EPYC 7742; DGX H100/H200:
Intel Xeon Platinum 8480C; DGX B200: Intel Xeon Platinum 8570; GB200/GB300/GH200: Grace; Frontier's MI250X nodes:
AMD EPYC), or the CPU the scenario key host_cpu names where a run's source states its cluster's host. No Qt.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .host_table import host_figures

UNKNOWN_HOST = ("", "")  # (vendor, arch) of a host whose CPU is not known: NCCL's default applies


def _table() -> dict[str, Any]:
    return host_figures()["host_cpus"]  # presets/host_overhead.json, read once (host_table.py)


def named_host_cpus() -> tuple[str, ...]:
    """The CPUs presets/host_overhead.json host_cpus describes (the scenario key host_cpu's values besides auto and
    the named hosts of hosts)."""
    return tuple(k for k in _table()["cpus"] if not k.startswith("_"))


@lru_cache(maxsize=512)  # keyed by GPU id: a custom GPU's id is the user's, so bounded
def host_cpu_facts(gpu_id: str | None, host_cpu: str = "auto") -> tuple[str, str]:
    """(vendor, arch) of the run's host CPU, e.g. ("amd", "x86"): the CPU the scenario key host_cpu names, else (auto)
    the one of the preset's GPU system (host_cpus by_gpu); UNKNOWN_HOST for a custom GPU, a preset of no standard
    system, or a named host whose CPU was not recorded (lent-h200)."""
    table = _table()
    name = host_cpu if host_cpu in table["cpus"] else table["by_gpu"].get(gpu_id or "", "") if host_cpu == "auto" else ""
    cpu = table["cpus"].get(name)
    return (str(cpu["vendor"]), str(cpu["arch"])) if cpu else UNKNOWN_HOST
