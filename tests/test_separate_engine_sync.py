"""An engine on GPUs of its own does not share the trainer's weights (engine/scenario/posttraining_checks.py refuses
rollout_shares_weights there), so each step copies them into it, even for a framework whose colocated engine shares
them (Unsloth: convert_vllm_to_huggingface, one copy, facts.weight_sync 'shared'); engine/posttraining/settings.py
rl_settings resolves the sync from the resolved sharing."""

from __future__ import annotations

import pytest

from engine.posttraining import rl_settings, step_parts
from engine.posttraining.adapter_load import per_generate_adapter_load_seconds
from engine.posttraining.timing import rl_step_time
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import hardware_for

BASE = {"model": "qwen2.5-1.5b", "precision": "bf16", "micro_batch": 4, "grad_accum": 2, "prompt_len": 256,
        "completion_len": 512, "training_objective": "grpo", "framework": "unsloth", "rollout_engine": "vllm",
        "gpu": "h100-sxm-80gb"}
SEPARATE = {"rollout_placement": "separate", "rollout_gpus": 1}


def test_a_separate_unsloth_engine_gets_the_full_policy_copied() -> None:
    s = scenario_from_dict({**BASE, **SEPARATE, "method": "full"})
    rs = rl_settings(s, 2)
    assert not rs.shares_weights and rs.weight_sync != "shared"
    # a separate engine's copy crosses the GPU-to-GPU link: the policy's bf16 bytes once (no sleep: Unsloth's
    # engine keeps its memory, rollout_sleep none)
    hw = hardware_for(s)
    moved = resolve_model(s).total_params * 2 / hw.intra_bytes_per_s
    assert rl_step_time(s).breakdown_seconds["weight_sync"] == pytest.approx(moved)


def test_the_colocated_unsloth_engine_still_shares_them() -> None:
    s = scenario_from_dict({**BASE, "method": "full"})
    assert rl_settings(s, 2).weight_sync == "shared" and rl_step_time(s).breakdown_seconds["weight_sync"] == 0.0


def test_a_separate_engines_lora_adapters_arrive_by_the_per_generate_loads_alone() -> None:
    """Unsloth hands the engine the policy's adapter tensors at every generate() call (load_lora, engine/posttraining/
    adapter_load.py): in a separate engine those loads are how they get there, counted once, not beside an adapter
    sync of their own."""
    s = scenario_from_dict({**BASE, **SEPARATE, "method": "lora"})
    p = step_parts(s)
    loads = per_generate_adapter_load_seconds(p, s, hardware_for(s))
    assert loads > 0 and rl_step_time(s).breakdown_seconds["weight_sync"] == pytest.approx(loads)
