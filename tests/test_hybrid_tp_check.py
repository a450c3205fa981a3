"""Tensor parallelism that does not divide Nemotron 3 Nano's Mamba heads (64) and groups (8): refused when the
scenario is read (engine/scenario/consistency.py, key tp; Megatron-Core mamba_mixer.py lines 262-271 split both),
as one sentence naming the file and the control, where the estimate raised it mid-way (the CLI printed it without the
key, export-config wrote a Megatron script Megatron refuses, and the window named the exception's class). Served,
the check does not apply (vLLM pads the groups to tp: engine/models/cache_kinds.py mamba2_state_bytes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import ConsistencyError, scenario_from_dict

REPO = Path(__file__).resolve().parent.parent
NANO_TP16 = {"model": "nemotron-3-nano-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
             "framework": "megatron", "precision": "bf16", "tp": 16}


def test_a_tp_that_does_not_divide_the_mamba_groups_is_refused_on_reading():
    with pytest.raises(ConsistencyError) as info:
        scenario_from_dict(NANO_TP16)
    assert info.value.key == "tp" and "64 Mamba heads" in str(info.value) and "8 Mamba groups" in str(info.value)
    scenario_from_dict({**NANO_TP16, "tp": 8})  # 8 divides both
    scenario_from_dict({**NANO_TP16, "workload": "inference", "serving_engine": "vllm", "framework": "huggingface"})


@pytest.mark.parametrize("command", [["estimate"], ["fit"], ["export-config", "--to", "megatron"]])
def test_the_commands_say_it_in_one_sentence(tmp_path, command):
    path = tmp_path / "nano.json"
    path.write_text(json.dumps(NANO_TP16))
    out = subprocess.run([sys.executable, "main.py", command[0], str(path), *command[1:]], cwd=REPO,
                         capture_output=True, text=True)
    assert out.returncode != 0 and "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.strip().splitlines() == ["error: nano.json: tp: Tensor-parallel size 16 must divide the "
                                               "model's 64 Mamba heads and its 8 Mamba groups."]
