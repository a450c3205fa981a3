"""TRL's own trainers cast a bitsandbytes-quantised model's trainable parameters (its LoRA adapters) to bfloat16 after
get_peft_model (huggingface/trl at f2cd57710ae3 trl/trainer/grpo_trainer.py lines 357-358 and 495-503; sft, dpo,
reward, rloo and kto trainers the same; since v0.26.0 for SFT / GRPO / reward, pull request #4577), where peft alone
keeps them in fp32 (get_peft_model's autocast_adapter_dtype=True) and TRL up to v0.25.1 did too (trl/models/utils.py
prepare_peft_model). Expected values: the adapters' parameter count from Llama-3-8B's config.json (hidden 4096, kv 1024,
ffn 14336, 32 layers: r x (d_in + d_out) summed over the seven projections) times the bytes each tensor takes."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.configs.export_rl import trl_config
from engine.frameworks import TABLE
from engine.memory.states import adapter_state_bytes, dtypes_for
from engine.scenario.behaviour import adapter_dtype_bytes
from engine.timing.lora_adapters import CASTS_4BIT, SAME, adapter_path

RANK = 16
# r x (d_in + d_out) per projection: q and o 4096 + 4096, k and v 4096 + 1024, gate / up / down 4096 + 14336
LORA_PARAMS = 32 * RANK * (2 * 8192 + 2 * 5120 + 3 * 18432)


def qlora_8b(framework: str = "trl", **kw):
    """Llama-3-8B in bf16 with QLoRA adapters of rank RANK on every linear, on `framework`, changed by `kw`
    (tests/test_framework_qlora_adapter_cast.py reads it for the other frameworks)."""
    base = {"model": "llama-3-8b", "precision": "bf16", "micro_batch": 1, "seq_len": 1024, "method": "qlora",
            "lora_rank": RANK, "lora_targets": "all-linear", "framework": framework, "checkpointing": "full"}
    base.update(kw)
    return scenario_from_dict(base)


def step_bytes(est, key):
    """A component's bytes at the optimizer step's moment."""
    return next(c for c in est.components if c.key == key).moments[-1]


@pytest.mark.parametrize("objective", ["sft", "dpo", "ipo", "kto", "reward", "grpo", "rloo"])
def test_trl_trainers_cast_a_quantised_models_adapters_to_bf16(objective):
    # each of these trainers holds `if _is_quantized_model: param.data = param.data.to(torch.bfloat16)` at f2cd577
    # (ipo is DPOTrainer's loss_type), whatever the precision: fp16 training gets bf16 adapters too
    assert adapter_dtype_bytes(qlora_8b(training_objective=objective), 2) == 2
    assert adapter_dtype_bytes(qlora_8b(training_objective=objective, precision="fp16"), 2) == 2
    # TRL up to v0.25.1 (the trl-2025 row) left peft's fp32 adapters
    assert adapter_dtype_bytes(qlora_8b(training_objective=objective, framework="trl-2025"), 2) == 4


@pytest.mark.parametrize("objective", ["orpo", "simpo", "cpo", "ppo", "online-dpo"])
def test_trls_experimental_trainers_keep_peft_fp32_adapters(objective):
    # trl/experimental/cpo and orpo call prepare_model_for_kbit_training + get_peft_model, online_dpo prepare_peft_model,
    # ppo peft_module_casting_to_bf16 (norms, embeddings, lm_head): none casts the adapters (f2cd577)
    assert adapter_dtype_bytes(qlora_8b(training_objective=objective), 2) == 4


def test_the_cast_needs_a_quantised_model_and_leaves_explicit_choices():
    # _is_quantized_model reads is_loaded_in_4bit / is_loaded_in_8bit: plain LoRA keeps peft's fp32
    assert adapter_dtype_bytes(qlora_8b(method="lora"), 2) == 4
    assert adapter_dtype_bytes(qlora_8b(qlora_bits=8), 2) == 2
    assert adapter_dtype_bytes(qlora_8b(lora_adapter_dtype="fp32"), 2) == 4
    # the Hugging Face row is transformers' Trainer with peft: no cast
    assert adapter_dtype_bytes(qlora_8b(framework="huggingface"), 2) == 4
    assert TABLE["trl-2025"].profile == TABLE["trl"].profile  # the same time profile, the release's memory fact


def test_adapter_weights_gradients_and_adamw_states_are_two_bytes_each():
    new, old = estimate(qlora_8b()), estimate(qlora_8b(framework="trl-2025"))
    assert step_bytes(new, "lora_weights") == pytest.approx(LORA_PARAMS * 2)
    assert step_bytes(old, "lora_weights") == pytest.approx(LORA_PARAMS * 4)
    assert step_bytes(new, "gradients") == pytest.approx(LORA_PARAMS * 2)  # AccumulateGrad: the parameter's dtype
    assert step_bytes(old, "gradients") == pytest.approx(LORA_PARAMS * 4)
    # torch AdamW: exp_avg and exp_avg_sq are torch.zeros_like(param)
    assert step_bytes(new, "optimizer_states") == pytest.approx(LORA_PARAMS * 2 * 2)
    assert step_bytes(old, "optimizer_states") == pytest.approx(LORA_PARAMS * 2 * 4)


def test_adamw_states_follow_the_adapters_dtype_without_a_master_copy():
    # torch AdamW steps the parameters themselves under amp (no master): zeros_like(bf16 adapter) is 2 bytes
    assert adapter_state_bytes(dtypes_for(qlora_8b(precision="amp-bf16")), 2) == 2
    assert adapter_state_bytes(dtypes_for(qlora_8b(precision="bf16")), 4) == 4
    # mixed precision (an fp32 master copy, DeepSpeed / Megatron): the states are the master's fp32
    assert adapter_state_bytes(dtypes_for(qlora_8b(precision="mixed-bf16")), 2) == 4


def test_no_fp32_cast_of_each_adapted_linears_input():
    # peft's Linear.forward casts x to lora_A.weight.dtype: with bf16 adapters on a bf16 model no fp32 copy of each
    # adapted linear's input, nor fp32 rank-r outputs, are kept (memory/activations.py): a smaller layer
    def layer_bytes(s):
        return dict(next(c for c in estimate(s).components if c.key == "activations").inputs)["per_layer_bytes"]

    tokens = 1024
    # each of the seven adapters' fp32 copy of its input (q, k, v, o, gate, up: 4096 wide; down: 14336) and the
    # fp32 rather than bf16 lora_A output (rank 16)
    fp32_casts = 4 * tokens * (6 * 4096 + 14336) + (4 - 2) * tokens * RANK * 7
    assert layer_bytes(qlora_8b(framework="trl-2025")) - layer_bytes(qlora_8b()) == fp32_casts
    # time: the 16-bit adapter path (no casts, tensor-core GEMMs) instead of the fp32 casts-4bit path
    assert adapter_path(qlora_8b()) == SAME
    assert adapter_path(qlora_8b(framework="trl-2025")) == CASTS_4BIT


def test_export_to_trl_says_when_the_plan_kept_other_adapters():
    grpo = {"training_objective": "grpo", "micro_batch": 8, "num_generations": 8, "prompt_len": 64,
            "completion_len": 128}
    assert "cast the quantised model's LoRA adapters to bf16" not in trl_config(qlora_8b(**grpo))
    old = trl_config(qlora_8b(framework="trl-2025", **grpo))
    assert "cast the quantised model's LoRA adapters to bf16" in old and "32-bit" in old
    assert "load_in_4bit: true" in old


@pytest.mark.parametrize("objective, release", [
    # the release each trainer's cast landed in (huggingface/trl tags: 2af35fb0d #4577 v0.26.0 GRPO / reward,
    # 00da0462b #4685 v0.27.0 RLOO, e3b7897c8 #3906 v0.29.0 DPO, its loss_type ipo too, 9516563e3 #5661 v1.4.0 KTO)
    ("grpo", "0.26"), ("reward", "0.26"), ("rloo", "0.27"), ("dpo", "0.29"), ("ipo", "0.29"), ("kto", "1.4")])
def test_the_export_note_names_the_release_of_the_trainer_it_launches(objective, release):
    # TRL 0.26 to 0.28's DPOTrainer kept peft's fp32 adapters: a DPO note saying "0.26 and later" would be wrong
    online = {"num_generations": 8, "prompt_len": 64, "completion_len": 128} if objective in ("grpo", "rloo") else {}
    note = trl_config(qlora_8b(framework="trl-2025", training_objective=objective, micro_batch=8, **online))
    assert f"# TRL {release} and later cast the quantised model's LoRA adapters to bf16" in note


def test_an_imported_trl_qlora_launch_gets_bf16_adapters():
    # TRL's examples/scripts/kto.py QLoRA usage (tests/data/configs/trl/kto_qwen1.5-1.8b_qlora.sh: --load_in_4bit):
    # the import names the current TRL row, whose KTOTrainer casts the 4-bit model's adapters (kto_trainer.py 749-752)
    from pathlib import Path

    from engine.configs import import_files

    d = import_files([Path(__file__).resolve().parent / "data/configs/trl/kto_qwen1.5-1.8b_qlora.sh"]).scenario
    s = scenario_from_dict({"model": "qwen2.5-1.5b", **d})  # the script names a model by path: any preset will do
    assert (s.framework, s.method, s.training_objective) == ("trl", "qlora", "kto")
    assert adapter_dtype_bytes(s, 2) == 2
    # and its export back to TRL carries no note: the plan's adapters are what TRL keeps
    assert "LoRA adapters to bf16" not in trl_config(s)
