"""TRL's offline trainers and GRPO see the logits in fp32 and run their LoRA adapters under autocast outside DeepSpeed
(framework columns outputs_fp32_without_deepspeed and outputs_fp32_online on TRL's row), from the code:

- TRL's configs default bf16 to True (huggingface/trl 4c92de000, v0.19.0: dpo_config.py / kto_config.py
  ``self.bf16 = not (self.fp16) if self.bf16 is None``), so TrainingArguments asks accelerate for bf16 mixed
  precision;
- the HF Trainer prepares the policy and TRL the reference with accelerate (trl v0.17.0 dpo_trainer.py:517,
  kto_trainer.py:784 and grpo_trainer.py:676, f2cd577 dpo_trainer.py:936, kto_trainer.py:955 and
  grpo_trainer.py:1143: ``self.accelerator.prepare_model(self.ref_model, evaluation_mode=True)`` unless DeepSpeed or
  FSDP; transformers 5.25.0 trainer.py:744 passes args.mixed_precision to the Accelerator and :1788 prepares the model);
- accelerate turns native amp on for bf16 outside DeepSpeed and Megatron (src/accelerate/accelerator.py at 16cb6eb8
  lines 586-592) and wraps every prepared forward in ``convert_outputs_to_fp32(autocast(forward))`` (lines 1818-1829),
  whatever evaluation_mode.

The expected values are the CPU traces of validation/posttraining_traces.py, re-run (h-trlfp32) with accelerate
1.16.0's own ``Accelerator(mixed_precision="bf16").prepare_model`` on the policy and the reference (torch 2.13, trl
1.16.0's selective_log_softmax and use_adapter): tests/data/ground_truth/posttraining/*trl-dpo*, *trl-kto*,
*trl-grpo*. Before the
wrapper the same full-logits traces peaked at 12.33 (Qwen2.5-0.5B full), 11.88 (Qwen2.5-0.5B LoRA) and 15.03 GiB
(Llama-3.2-1B LoRA); with it at 18.70, 16.38 and 17.92 GiB: the fp32 logits kept by selective_log_softmax's fp32
branch, and for LoRA the adapters' bf16 input casts under autocast instead of peft's fp32 ones.
"""

import dataclasses

import pytest

from engine.accuracy import posttraining as pt
from engine.memory.detailed import act_context
from engine.memory.states import dtypes_for
from engine.posttraining import rl_settings
from engine.posttraining.models import model_spec
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

TRACES = {t["id"]: t for t in pt.read_traces()}
FULL_LOGITS = ("qwen2.5-0.5b_trl-dpo_full_ref_p512_c512_b2_full-logits",
               "qwen2.5-0.5b_trl-dpo_lora_refoff_p512_c512_b2_full-logits",
               "llama-3.2-1b_trl-dpo_lora_refoff_p512_c512_b2_full-logits")
# the traced peaks before the wrapper (the same files at 6681828, GiB), to show the traces are the wrapped ones
UNWRAPPED_GIB = {FULL_LOGITS[0]: 12.33, FULL_LOGITS[1]: 11.88, FULL_LOGITS[2]: 15.03}


def _training_peak(sc: dict) -> float:
    est = estimate(scenario_from_dict(sc))
    return next(p for p in est.rl.phases if p.key == "training").peak_bytes


@pytest.mark.parametrize("trace_id", FULL_LOGITS)
def test_full_logits_dpo_as_traced_through_accelerate(trace_id):
    trace = TRACES[trace_id]
    assert trace["trace"]["accelerate_amp"].startswith("Accelerator(mixed_precision='bf16')")
    measured = trace["measured"]["rl_phases"]["training"]
    assert measured / 2**30 > UNWRAPPED_GIB[trace_id] + 1.0  # the wrapper's cast is in the trace
    assert _training_peak(trace["scenario"]) == pytest.approx(measured, rel=0.005)


# GRPO (grpo_trainer.py _get_per_token_logps_and_entropies at f2cd577: logits_to_keep + 1 positions, the in-place
# temperature on the sliced view, selective_log_softmax): the traced (training, scoring) peaks in GiB before the
# wrapper (the same files at 6681828)
GRPO_UNWRAPPED_GIB = {"qwen2.5-0.5b_trl-grpo_full_ref_p256_c512_g8_b8_full-logits_vllm": (16.88, 5.13),
                      "qwen2.5-0.5b_trl-grpo_full_noref_p512_c1024_g8_b8_full-logits": (29.57, None),
                      "qwen2.5-0.5b_trl-grpo_lora_refoff_p256_c1024_g8_b8_full-logits_vllm": (30.34, 3.92)}


@pytest.mark.parametrize("trace_id", GRPO_UNWRAPPED_GIB)
def test_full_logits_grpo_as_traced_through_accelerate(trace_id):
    trace = TRACES[trace_id]
    assert trace["trace"]["accelerate_amp"].startswith("Accelerator(mixed_precision='bf16')")
    measured = trace["measured"]["rl_phases"]
    est = pt.rl_phase_peaks(estimate(scenario_from_dict(trace["scenario"])))
    for phase, before in zip(("training", "scoring"), GRPO_UNWRAPPED_GIB[trace_id], strict=True):
        if before is None:
            continue
        assert measured[phase] / 2**30 > before * 1.1  # the fp32 logits are in the trace
        assert est[phase] == pytest.approx(measured[phase], rel=0.005), phase


@pytest.mark.parametrize("trace_id", [t for t in TRACES if "_trl-" in t and "_lora" in t and not t.endswith("_ckpt")])
def test_lora_adapters_under_autocast_as_traced(trace_id):
    """The fused-head LoRA cases too: autocast runs peft's fp32 adapters in bf16 whatever the log-prob path. (The
    checkpointed LoRA GRPO case, -6.3%, is held by tests/test_posttraining_truth.py with its open gap.)"""
    trace = TRACES[trace_id]
    assert "accelerate_amp" in trace["trace"]
    assert _training_peak(trace["scenario"]) == pytest.approx(trace["measured"]["rl_phases"]["training"], rel=0.01)


def _scenario(**keys):
    sc = dict(TRACES[FULL_LOGITS[1]]["scenario"])
    sc.update(keys)
    return scenario_from_dict(sc)


def test_where_accelerate_leaves_the_outputs_alone():
    """DeepSpeed (accelerate leaves mixed precision to it), the online trainers not traced under the wrapper (RLOO
    here) and the frameworks on TRL's default facts without a row of their own keep the model's dtype; the reward
    model's one-number head has no vocabulary logits. GRPO is cast (its traces below)."""
    assert rl_settings(_scenario(), 2).logit_bytes == 4
    assert rl_settings(_scenario(training_objective="grpo", num_generations=4), 2).logit_bytes == 4
    for keys in ({"zero_stage": 2}, {"zero_stage": 3}, {"framework": "huggingface"},
                 {"training_objective": "rloo", "num_generations": 4}):
        assert rl_settings(_scenario(**keys), 2).logit_bytes == 2, keys
    assert rl_settings(_scenario(training_objective="reward"), 2).logit_bytes == 2


def test_lora_autocast_only_under_accelerate_amp():
    """The activation context's lora_autocast follows the same condition, and changes only the adapters' tensors."""
    s = _scenario()
    spec, dt = model_spec(s.model), dtypes_for(s)
    assert act_context(s, spec, dt).lora_autocast
    for keys in ({"zero_stage": 2}, {"method": "full", "reference_model": "separate"}, {"framework": "huggingface"}):
        other = _scenario(**keys)
        assert not act_context(other, model_spec(other.model), dtypes_for(other)).lora_autocast, keys
    assert dataclasses.replace(act_context(s, spec, dt), lora_autocast=False) != act_context(s, spec, dt)
