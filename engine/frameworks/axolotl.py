"""axolotl (axolotl-ai-cloud/axolotl at 067b021c8b87, 2026-07-24; pyproject.toml line 23 pins trl==1.8.0): the
Hugging Face row's memory facts and time profile (its SFT trainer is a transformers.Trainer), except a QLoRA model's
adapters under the objectives whose trainer is TRL's: TRL's __init__ casts them to bf16 (engine/frameworks/defaults.py
_TRL_QLORA_BF16), while axolotl's SFT keeps peft's fp32. LLaMA-Factory and ms-swift reach no such cast (the
huggingface and ms-swift rows' sources say why)."""

from __future__ import annotations

from dataclasses import replace

from .framework_row import FrameworkDefaults

_AXOLOTL = "axolotl-ai-cloud/axolotl at 067b021c8b87 src/axolotl"
_TRL_180 = "huggingface/trl v1.8.0 trl/trainer"
# the objectives axolotl runs through a TRL trainer whose __init__ casts: DPO / IPO (AxolotlDPOTrainer), KTO, reward
# (AxolotlRewardTrainer) and GRPO (AxolotlGRPOTrainer); ORPO / CPO / SimPO run TRL's experimental trainers (no cast)
AXOLOTL_QLORA_BF16 = ("dpo", "ipo", "kto", "reward", "grpo")
_SOURCES = (
    ("training", f"{_AXOLOTL}/core/builders/causal.py lines 149-176 _get_trainer_cls: AxolotlTrainer (core/trainers/"
     "base.py lines 72-81: transformers.Trainer with axolotl's mixins) unless reward_model (AxolotlRewardTrainer) or "
     "process_reward_model; the Hugging Face row's machinery"),
    ("QLoRA adapters in fp32 (SFT)", f"{_AXOLOTL}/loaders/model.py lines 988-1023 prepare_model_for_kbit_training, "
     "then loaders/adapter.py lines 367-385 get_peft_model (peft's autocast_adapter_dtype: fp32 adapters unless "
     "peft_autocast_adapter_dtype says otherwise); AxolotlTrainer.__init__ (base.py line 110) reaches only "
     "transformers.Trainer's: no cast"),
    ("QLoRA adapters in bf16 (DPO, IPO, KTO, reward, GRPO)", f"{_AXOLOTL}/core/trainers/dpo/trainer.py lines 26-39 "
     "AxolotlDPOTrainer(DPOTrainer) super().__init__; core/trainers/trl.py lines 28-41 AxolotlKTOTrainer(KTOTrainer), "
     "58-70 AxolotlRewardTrainer(RewardTrainer); core/trainers/grpo/trainer.py lines 57-67 AxolotlGRPOTrainer("
     "GRPOTrainer); none overrides __init__ but DPO, which calls super's. loaders/model.py lines 498-511: DPO / IPO / "
     "KTO load the LoRA config only and core/builders/rl.py lines 274-279 hand it to TRL as peft_config (GRPO, ORPO, "
     f"SimPO get axolotl's PeftModel). {_TRL_180}: dpo_trainer.py lines 582 and 680-683, kto_trainer.py 633 and "
     "728-731, reward_trainer.py 408 and 508-511, grpo_trainer.py 348 and 471-474: _is_quantized_model (the model's "
     "is_loaded_in_4bit / 8bit, which a PeftModel forwards) then every requires_grad parameter to torch.bfloat16, "
     "with or without peft_config; ORPO / CPO / SimPO: trl.experimental (core/trainers/trl.py lines 4-5), no cast"),
)


def axolotl_row(hf: FrameworkDefaults) -> FrameworkDefaults:
    """axolotl: the Hugging Face row (`hf`) with TRL 1.8.0's adapter cast under the objectives run by TRL's trainers."""
    return replace(hf, id="axolotl", label="axolotl", profile=hf.id, quantized_adapters_bf16=AXOLOTL_QLORA_BF16,
                   sources=(*_SOURCES, *hf.sources))
