"""Whether the trainers of axolotl, LLaMA-Factory and ms-swift reach TRL's cast of a 4-bit model's LoRA adapters to bf16
(huggingface/trl v1.8.0 trl/trainer/dpo_trainer.py lines 680-683, kto 728-731, reward 508-511, grpo 471-474: every
requires_grad parameter of a model whose is_loaded_in_4bit / 8bit is set, with or without peft_config), read per
framework and objective from their sources:
- axolotl (axolotl-ai-cloud/axolotl at 067b021c8b87, trl==1.8.0): SFT is a transformers.Trainer (AxolotlTrainer) over
  peft's fp32 adapters; DPO / IPO, KTO, reward and GRPO subclass TRL's trainers and run their __init__ (bf16); ORPO,
  CPO, SimPO run TRL's experimental trainers (no cast).
- LLaMA-Factory (hiyouga/LLaMA-Factory at ff6d4d12eeb0, trl<=0.24.0): DPO / KTO call Trainer.__init__, not TRL's,
  and its adapter.py casts trainable parameters to fp32: the huggingface row.
- ms-swift (modelscope/ms-swift at 3602360a5623): `del HFDPOTrainer.__init__` and the like for every TRL trainer.
Expected byte counts: the adapters' parameters from Llama-3-8B's config.json (as tests/test_trl_qlora_bf16_adapters.py:
hidden 4096, kv 1024, ffn 14336, 32 layers) times 2 (bf16) or 4 (fp32) bytes."""

from __future__ import annotations

import pytest

from engine import estimate
from engine.frameworks import TABLE
from engine.scenario.behaviour import adapter_dtype_bytes
from engine.timing.lora_adapters import CASTS_4BIT, SAME, adapter_path
from tests.test_trl_qlora_bf16_adapters import LORA_PARAMS, qlora_8b, step_bytes

TRL_TRAINER_OBJECTIVES = ("dpo", "ipo", "kto", "reward", "grpo")  # axolotl's objectives on a TRL trainer that casts


def _s(**kw):
    return qlora_8b(**{"framework": "axolotl", **kw})


@pytest.mark.parametrize("objective", TRL_TRAINER_OBJECTIVES)
def test_axolotls_trl_trainers_cast_a_quantised_models_adapters_to_bf16(objective):
    # AxolotlDPOTrainer (IPO is its loss_type), AxolotlKTOTrainer, AxolotlRewardTrainer, AxolotlGRPOTrainer subclass
    # TRL's trainers and run their __init__ (trl==1.8.0): 2-byte adapters, fp16 runs included
    assert adapter_dtype_bytes(_s(training_objective=objective), 2) == 2
    assert adapter_dtype_bytes(_s(training_objective=objective, precision="fp16"), 2) == 2
    assert adapter_path(_s(training_objective=objective)) == SAME  # the time path follows: no fp32 casts


@pytest.mark.parametrize("objective", ["sft", "orpo", "cpo", "simpo"])
def test_axolotls_other_trainers_keep_peft_fp32_adapters(objective):
    # SFT: AxolotlTrainer is a transformers.Trainer; ORPO / CPO / SimPO: trl.experimental trainers, no cast
    assert adapter_dtype_bytes(_s(training_objective=objective), 2) == 4
    assert adapter_path(_s(training_objective=objective)) == CASTS_4BIT


@pytest.mark.parametrize("framework", ["huggingface", "ms-swift"])
@pytest.mark.parametrize("objective", ["sft", *TRL_TRAINER_OBJECTIVES])
def test_llama_factory_and_ms_swift_never_reach_trls_cast(framework, objective):
    # LLaMA-Factory (the huggingface row) calls Trainer.__init__ and casts trainable parameters to fp32; ms-swift
    # deletes every TRL trainer's __init__: peft's fp32 adapters whatever the objective
    assert adapter_dtype_bytes(_s(framework=framework, training_objective=objective), 2) == 4


def test_axolotl_dpo_memory_follows_the_cast():
    axolotl, hf = estimate(_s(training_objective="dpo")), estimate(_s(framework="huggingface", training_objective="dpo"))
    assert step_bytes(axolotl, "lora_weights") == pytest.approx(LORA_PARAMS * 2)
    assert step_bytes(hf, "lora_weights") == pytest.approx(LORA_PARAMS * 4)
    assert step_bytes(axolotl, "gradients") == pytest.approx(LORA_PARAMS * 2)  # AccumulateGrad: the parameter's dtype
    assert step_bytes(axolotl, "optimizer_states") == pytest.approx(LORA_PARAMS * 2 * 2)  # AdamW zeros_like(param)
    # axolotl's SFT is the Hugging Face Trainer's run: the same estimate
    assert estimate(_s()).total_bytes == estimate(_s(framework="huggingface")).total_bytes


def test_each_rows_sources_hold_the_finding():
    axolotl = dict(TABLE["axolotl"].sources)
    assert "AxolotlTrainer" in axolotl["QLoRA adapters in fp32 (SFT)"]
    cast = axolotl["QLoRA adapters in bf16 (DPO, IPO, KTO, reward, GRPO)"]
    for trainer_lines in ("dpo_trainer.py lines 582 and 680-683", "kto_trainer.py 633 and 728-731",
                          "reward_trainer.py 408 and 508-511", "grpo_trainer.py 348 and 471-474"):
        assert trainer_lines in cast
    assert "Trainer.__init__" in dict(TABLE["huggingface"].sources)["QLoRA adapters in fp32"]  # LLaMA-Factory
    assert "del HFDPOTrainer.__init__" in dict(TABLE["ms-swift"].sources)["QLoRA adapters in fp32"]
    assert TABLE["axolotl"].profile == "huggingface"  # the Hugging Face Trainer's time profile
