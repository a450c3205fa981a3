"""ms-swift's offline trainers without DeepSpeed see the logits in fp32 (framework column
outputs_fp32_without_deepspeed), from the code:

- swift/arguments/base_args/model_args.py _init_mixed_precision (ms-swift 3602360a; 40c8406fb likewise): bf16 = True
  for a bf16 torch_dtype;
- accelerate src/accelerate/accelerator.py (16cb6eb8; v1.6.0 lines 565-571 and 1517-1528): native amp for bf16
  outside DeepSpeed and Megatron, and the prepared model's forward wrapped in convert_outputs_to_fp32 (utils/
  operations.py convert_to_fp32: .float() of every bf16/fp16 output);
- TRL's selective_log_softmax then takes its fp32 branch (trl/trainer/utils.py v0.17.0:1688-1692), which keeps the
  logits (gather and logsumexp save them).

validation/swift_fp32_outputs_trace.py runs that head with accelerate 1.16.0's own wrapper on CPU tensors (torch
2.13, 2 sequences): forward peak 5.14, backward peak 8.14 x the batch's bf16 logits (0.14 of it the hidden states and
the head's weight); without the cast 3.14 and 3.14.
"""

import pytest

from engine.posttraining import rl_settings
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

# ms-swift examples/train/rlhf/dpo/lora.sh (tests/data/published/posttraining.json swift-dpo-lora-qwen2.5-7b)
DPO_LORA = {"gpu": "a100-80gb", "framework": "ms-swift", "training_objective": "dpo", "precision": "bf16",
            "model": "qwen2.5-7b", "method": "lora", "lora_rank": 8, "lora_alpha": 32, "lora_targets": "all-linear",
            "micro_batch": 1, "grad_accum": 16, "reference_model": "adapter-off", "prompt_len": 1024,
            "completion_len": 1024, "checkpointing": "full"}
# the batch's bf16 logits: 2 sequences x 2,048 tokens x Qwen2.5-7B's 152,064 vocabulary x 2 bytes
UNIT = 2 * 2048 * 152064 * 2


def _training(**keys):
    est = estimate(scenario_from_dict({**DPO_LORA, **keys}))
    phase = next(p for p in est.rl.phases if p.key == "training")
    return {c.key: c for c in phase.components}


def test_the_loss_and_the_reference_see_fp32_logits_without_deepspeed():
    comps = _training()
    logits, ref = comps["logits"], comps["reference_forward_in_step"]
    head_hidden = 2 * 2048 * 3584 * 2  # the reference's last hidden states (Qwen2.5-7B hidden 3,584, bf16)
    # at the reference's forward: the policy's fp32 logits (2) and its row temporary (1), then the reference's bf16
    # output and fp32 copy (3) less that temporary (1): 5 units, as traced (5.14 with the hidden states and weight)
    assert (logits.moments.forward + ref.moments.forward - head_hidden) / UNIT == pytest.approx(5.0, rel=1e-6)
    assert logits.moments.backward_start / UNIT == pytest.approx(8.0, rel=1e-6)  # traced 8.14


def test_deepspeed_and_other_frameworks_keep_the_compute_dtype():
    """DeepSpeed runs no native amp (accelerate: mixed precision is DeepSpeed's own), and the Megatron trainers are
    no HF Trainer; the frameworks on TRL's default facts without a row of their own (huggingface) leave it off. TRL's
    own row has it since h-trlfp32 (tests/test_trl_fp32_outputs.py)."""
    assert rl_settings(scenario_from_dict(DPO_LORA), 2).logit_bytes == 4
    assert rl_settings(scenario_from_dict({**DPO_LORA, "framework": "trl"}), 2).logit_bytes == 4
    for keys in ({"zero_stage": 2}, {"framework": "huggingface"}, {"framework": "megatron", "method": "full",
                                                                   "reference_model": "separate"}):
        assert rl_settings(scenario_from_dict({**DPO_LORA, **keys}), 2).logit_bytes == 2
    online = scenario_from_dict({**DPO_LORA, "training_objective": "grpo"})
    assert rl_settings(online, 2).logit_bytes == 2
