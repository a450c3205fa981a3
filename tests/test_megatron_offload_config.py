"""Megatron's optimizer CPU offload in a launch script (engine/configs/megatron_offload.py): read into offload
"optimizer" + optimizer_offload_fraction, written back by export-config, a bad value one sentence in the review.

Flag names and defaults: NVIDIA/Megatron-LM megatron/training/arguments.py at
d98e8a64ddf34856e74b24714e3bedb2f5a39553 lines 2918-2927 (--optimizer-cpu-offload store_true,
--optimizer-offload-fraction float default 1.0, --overlap-cpu-optimizer-d2h-h2d store_true); the Megatron-Bridge
overrides as NVIDIA-NeMo/Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading/SKILL.md at 067f987d writes them,
whose OptimizerConfig default fraction is 0.0 (megatron/core/optimizer/optimizer_config.py line 350 at d98e8a64)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.configs import export_config, import_texts
from engine.configs.megatron_offload import CLI_DEFAULT_FRACTION
from engine.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = """#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --tensor-model-parallel-size 2 --micro-batch-size 1 --global-batch-size 32 --seq-length 4096 \\
    --bf16 --use-distributed-optimizer {extra}
"""


def _read(extra: str):
    return import_texts([("train.sh", SCRIPT.format(extra=extra))])


def _not_used(result) -> dict[str, str]:
    return {u.key.split(": ", 1)[-1]: str(u.why) for u in result.unmapped}


def test_flags_read_into_offload_and_fraction() -> None:
    r = _read("--use-precision-aware-optimizer --optimizer-cpu-offload --optimizer-offload-fraction 0.25")
    assert (r.scenario["offload"], r.scenario["optimizer_offload_fraction"]) == ("optimizer", 0.25)
    # the switch without a fraction: arguments.py's default 1.0, said as an assumption
    r = _read("--use-precision-aware-optimizer --optimizer-cpu-offload")
    assert r.scenario["optimizer_offload_fraction"] == CLI_DEFAULT_FRACTION == 1.0
    assert any(a.key == "optimizer_offload_fraction" for a in r.assumed)
    scenario_from_dict({**r.scenario, "model": "llama-3.1-8b"})  # a scenario the planner accepts


def test_bridge_overrides_read() -> None:
    r = _read("optimizer.optimizer_cpu_offload=True optimizer.optimizer_offload_fraction=0.5 "
              "optimizer.overlap_cpu_optimizer_d2h_h2d=True")
    assert (r.scenario["offload"], r.scenario["optimizer_offload_fraction"]) == ("optimizer", 0.5)
    assert "optimizer.overlap_cpu_optimizer_d2h_h2d" in _not_used(r)  # not modelled, and said so
    # OptimizerConfig's default fraction is 0.0: the switch alone moves nothing
    r = _read("optimizer.optimizer_cpu_offload=true")
    assert "offload" not in r.scenario and "optimizer.optimizer_cpu_offload" in _not_used(r)


@pytest.mark.parametrize("value", ["7", "abc", "-0.5", "nan", "'\\x1b[31m'"])
def test_hostile_fraction_is_one_sentence(value: str) -> None:
    r = _read(f"--use-precision-aware-optimizer --optimizer-cpu-offload --optimizer-offload-fraction {value}")
    assert "offload" not in r.scenario and "optimizer_offload_fraction" not in r.scenario
    why = _not_used(r)["--optimizer-offload-fraction"]
    assert why.startswith("expected a share from 0 to 1") and "\x1b" not in why and why.count(". ") == 0


def test_fraction_without_switch_and_overlap_are_explained() -> None:
    r = _read("--optimizer-offload-fraction 0.5 --overlap-cpu-optimizer-d2h-h2d")
    assert "offload" not in r.scenario
    assert set(_not_used(r)) >= {"--optimizer-offload-fraction", "--overlap-cpu-optimizer-d2h-h2d"}


def test_export_writes_the_flags_megatron_needs() -> None:
    # validate_args (arguments.py line 1884) wants --use-precision-aware-optimizer with the offload, and
    # megatron/core/optimizer/__init__.py line 1057 the distributed optimizer with that: a ZeRO-1 scenario gets both
    s = scenario_from_dict({"model": "llama-3.1-8b", "framework": "megatron", "tp": 2, "zero_stage": 1, "gpus_per_node": 8,
                            "precision": "mixed-bf16", "offload": "optimizer", "optimizer_offload_fraction": 0.4})
    text = export_config(s, "megatron")
    for flag in ("--use-distributed-optimizer", "--use-precision-aware-optimizer", "--optimizer-cpu-offload",
                 "--optimizer-offload-fraction 0.4"):
        assert flag in text
    back = import_texts([("megatron_args.sh", text)]).scenario
    assert (back["offload"], back["optimizer_offload_fraction"]) == ("optimizer", 0.4)
    # no fraction: the planner's whole-optimizer offload is not a Megatron flag, so none is written
    plain = s.replace(optimizer_offload_fraction=0.0)
    assert "--optimizer-cpu-offload" not in export_config(plain, "megatron")


def test_command_line_import_of_a_bad_fraction_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "train.sh"
    path.write_text(SCRIPT.format(extra="--use-precision-aware-optimizer --optimizer-cpu-offload "
                                        "--optimizer-offload-fraction 7"))
    out = subprocess.run([sys.executable, "main.py", "import", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert "Traceback" not in out.stdout + out.stderr
    assert "expected a share from 0 to 1, found '7'" in out.stdout
