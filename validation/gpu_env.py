"""What a GPU measurement ran on, beyond the Python packages: the host CPU, the kernel (gVisor or a VM), nvidia-smi.

Shared by validation/gpu_kernels.py and validation/gpu_measure.py. Nothing here needs a GPU: on a machine without
nvidia-smi the nvidia-smi fields say so. The lender's machines run under gVisor, which reports kernel release 4.4.0,
or Firecracker (release with "-fc-"), /work/.library/device/KINDS.md (2026-11-04); a sandboxed kernel can slow
system calls and so the host's share of a step, which is why it is recorded.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path
from typing import Any

# nvidia-smi --query-gpu fields (nvidia-smi --help-query-gpu): clocks as the card runs them now, and their limits
SMI_FIELDS = ("name", "driver_version", "pstate", "temperature.gpu", "power.draw", "power.limit", "clocks.sm",
              "clocks.mem", "clocks.max.sm", "clocks.max.mem", "memory.used", "memory.total", "utilization.gpu")


def cpu_model() -> str:
    """The host CPU's model name from /proc/cpuinfo (first processor), or platform.processor() elsewhere."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def sandbox(release: str) -> str:
    """gvisor / firecracker / unknown from `uname -r` (see the module docstring)."""
    if release.startswith("4.4.0"):
        return "gvisor"
    if "-fc-" in release:
        return "firecracker"
    return "unknown"


def host_environment() -> dict[str, Any]:
    """CPU model, logical CPUs, kernel release (`uname -r`) and what it says about the sandbox."""
    release = platform.release()
    return {"cpu_model": cpu_model(), "cpu_count": _cpu_count(), "kernel_release": release,
            "sandbox": sandbox(release)}


def _cpu_count() -> int:
    import os

    return os.cpu_count() or 0


def nvidia_smi() -> dict[str, str]:
    """nvidia-smi's view of GPU 0 now (SMI_FIELDS), or {"error": why} when it cannot be read."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return {"error": "nvidia-smi not found"}
    try:
        proc = subprocess.run([exe, f"--query-gpu={','.join(SMI_FIELDS)}", "--format=csv,noheader", "-i", "0"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"nvidia-smi failed ({type(exc).__name__})"}
    values = [v.strip() for v in proc.stdout.strip().split(",")]
    if proc.returncode != 0 or len(values) != len(SMI_FIELDS):
        return {"error": f"nvidia-smi exit {proc.returncode}: {proc.stderr.strip()[:200]}"}
    return dict(zip(SMI_FIELDS, values, strict=True))
