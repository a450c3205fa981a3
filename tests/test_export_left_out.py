"""An export names the plan's launch settings its format has no place for (user audit 7: a NeMo-RL GRPO plan written
as verl's command lost its framework and NeMo-RL's async vLLM engine silently). A setting is left out when the
format does not carry it (engine/configs/exporting.py CARRIED), the plan sets it away from its default, and the
written file read back does not give it back."""

import subprocess
import sys
from pathlib import Path

from engine.configs.export_left_out import left_out_sentence, left_out_settings
from engine.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parent.parent
# h-useraudit7's GRPO on 16 H100 under NeMo-RL, with its async engine (policy.generation.vllm_cfg.async_engine)
NEMO_GRPO = {"schema_version": 1, "name": "GRPO Qwen3-8B on 16 x H100 (NeMo-RL)", "model": "qwen3-8b",
             "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "method": "full", "precision": "amp-bf16",
             "framework": "nemo-rl", "training_objective": "grpo", "prompt_len": 512, "completion_len": 2048,
             "num_generations": 16, "micro_batch": 2, "grad_accum": 8, "fsdp": True, "checkpointing": "full",
             "rollout_engine": "vllm", "rollout_async_engine": True}


def test_a_nemo_rl_plan_written_for_verl_names_the_framework_and_the_async_engine():
    lost = left_out_settings(scenario_from_dict(NEMO_GRPO), "verl")
    assert lost == {"framework": "nemo-rl", "rollout_async_engine": True}
    text = str(left_out_sentence(scenario_from_dict(NEMO_GRPO), "verl"))
    assert "Framework: NeMo-RL" in text and "async_engine" in text and text.count(".") >= 1


def test_settings_the_file_gives_back_are_not_listed():
    verl = {**NEMO_GRPO, "framework": "verl", "rollout_async_engine": "auto"}
    # verl writes the accumulation into data.train_batch_size / ppo_mini_batch_size (verl_batch.py) and its own
    # FSDP actor needs no fsdp key: nothing of this plan is lost
    assert left_out_settings(scenario_from_dict(verl), "verl") == {}
    assert left_out_sentence(scenario_from_dict(verl), "verl") is None


def test_the_cli_says_it_on_stderr_and_keeps_the_command_clean(tmp_path):
    path = tmp_path / "nemo.json"
    path.write_text(__import__("json").dumps(NEMO_GRPO), encoding="utf-8")
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "export-config", str(path), "--to", "verl"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0
    assert "Not in this verl file" in run.stderr and "NeMo-RL" in run.stderr
    assert "Not in this" not in run.stdout and run.stdout.startswith("#!/bin/bash")
