"""The hover and `estimate --json` name each component's inputs beside its formula ("trainable params / shards x grad
bytes"): for a LoRA plan the bytes they name must be the adapters' own. Before, an Unsloth QLoRA plan (peft's fp32
adapters under bf16 compute) showed "bytes_per_param = 2" and "state_bytes = 2" beside gradients and AdamW states
computed at 4 bytes an element (h-useraudit10). Expected values: the component's own bytes divided by the counts its
inputs give (params; AdamW's two state tensors, torch/optim/adam.py _init_group exp_avg and exp_avg_sq)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict

ADAMW_STATE_TENSORS = 2


def _plan(**kw):
    base = {"model": "qwen3.5-9b", "gpu": "rtx-4090", "precision": "bf16", "micro_batch": 1, "seq_len": 1024,
            "method": "qlora", "lora_rank": 16, "lora_targets": "all-linear", "checkpointing": "full",
            "optimizer": "adamw"}
    base.update(kw)
    return estimate(scenario_from_dict(base))


def _inputs(est, key):
    comp = next(c for c in est.components if c.key == key)
    return comp, dict(comp.inputs)


@pytest.mark.parametrize(("framework", "adapter_bytes"), [("unsloth", 4), ("trl-2025", 4), ("trl", 2)])
def test_adapter_plans_name_the_bytes_their_gradients_and_states_are_counted_at(framework, adapter_bytes):
    est = _plan(framework=framework)
    grads, grad_inputs = _inputs(est, "gradients")
    states, state_inputs = _inputs(est, "optimizer_states")
    assert grad_inputs["bytes_per_param"] == adapter_bytes
    assert grads.peak_bytes == grad_inputs["params"] * grad_inputs["bytes_per_param"]
    assert state_inputs["state_bytes"] == adapter_bytes
    assert states.peak_bytes == state_inputs["params"] * ADAMW_STATE_TENSORS * state_inputs["state_bytes"]


def test_a_trained_head_beside_fp32_adapters_names_both_bytes():
    # peft's modules_to_save=["lm_head"] trains a bf16 copy of the head (pure bf16: 2-byte gradients and states)
    # beside the fp32 adapters: the inputs name both, and together they give the component's bytes
    est = _plan(framework="unsloth", modules_to_save=["lm_head"])
    grads, grad_inputs = _inputs(est, "gradients")
    states, state_inputs = _inputs(est, "optimizer_states")
    assert (grad_inputs["bytes_per_param"], grad_inputs["adapter_bytes_per_param"]) == (2, 4)
    assert (state_inputs["state_bytes"], state_inputs["adapter_state_bytes"]) == (2, 4)
    adapters = dict(next(c for c in est.components if c.key == "lora_weights").inputs)["params"]
    head = grad_inputs["params"] - adapters
    assert grads.peak_bytes == head * 2 + adapters * 4
    assert states.peak_bytes == ADAMW_STATE_TENSORS * (head * 2 + adapters * 4)


def test_the_adapters_hover_says_why_trl_adapters_take_two_bytes():
    # TRL >= 0.26's trainers cast a 4-bit model's adapters to bf16 (huggingface/trl f2cd577 sft_trainer.py lines
    # 1127-1130); peft alone (trl-2025, Unsloth) keeps fp32: only the casting row's hover gives the reason
    for framework, casts in (("trl", True), ("trl-2025", False), ("unsloth", False)):
        comp, inputs = _inputs(_plan(framework=framework), "lora_weights")
        assert ("casts a 4-bit model's adapters to bf16" in comp.formula) is casts
        assert inputs["bytes_per_param"] == (2 if casts else 4)
