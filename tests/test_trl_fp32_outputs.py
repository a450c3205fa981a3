"""TRL's offline trainers see the logits in fp32 and run their LoRA adapters under autocast outside DeepSpeed (framework
column outputs_fp32_without_deepspeed on TRL's row), from the code:

- TRL's configs default bf16 to True (huggingface/trl 4c92de000, v0.19.0: dpo_config.py / kto_config.py
  ``self.bf16 = not (self.fp16) if self.bf16 is None``), so TrainingArguments asks accelerate for bf16 mixed
  precision;
- the HF Trainer prepares the policy and TRL the reference with accelerate (trl v0.17.0 dpo_trainer.py:517 and
  kto_trainer.py:784, f2cd577 dpo_trainer.py:936 and kto_trainer.py:955: ``self.accelerator.prepare_model(
  self.ref_model, evaluation_mode=True)`` unless DeepSpeed or FSDP);
- accelerate turns native amp on for bf16 outside DeepSpeed and Megatron (src/accelerate/accelerator.py at 16cb6eb8
  lines 586-592) and wraps every prepared forward in ``convert_outputs_to_fp32(autocast(forward))`` (lines 1818-1829),
  whatever evaluation_mode.

The expected values are the CPU traces of validation/posttraining_traces.py, re-run (h-trlfp32) with accelerate
1.16.0's own ``Accelerator(mixed_precision="bf16").prepare_model`` on the policy and the reference (torch 2.13, trl
1.16.0's selective_log_softmax and use_adapter): tests/data/ground_truth/posttraining/*trl-dpo*, *trl-kto*. Before the
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


@pytest.mark.parametrize("trace_id", [t for t in TRACES if "_trl-dpo_lora" in t or "_trl-kto_lora" in t])
def test_lora_adapters_under_autocast_as_traced(trace_id):
    """The fused-head LoRA cases too: autocast runs peft's fp32 adapters in bf16 whatever the log-prob path."""
    trace = TRACES[trace_id]
    assert "accelerate_amp" in trace["trace"]
    assert _training_peak(trace["scenario"]) == pytest.approx(trace["measured"]["rl_phases"]["training"], rel=0.01)


def _scenario(**keys):
    sc = dict(TRACES[FULL_LOGITS[1]]["scenario"])
    sc.update(keys)
    return scenario_from_dict(sc)


def test_where_accelerate_leaves_the_outputs_alone():
    """DeepSpeed (accelerate leaves mixed precision to it), an fp32 model (compute dtype fp32 already), the online
    trainers (not modelled) and the frameworks on TRL's default facts without a column of their own keep the model's
    dtype; the reward model's one-number head has no vocabulary logits."""
    assert rl_settings(_scenario(), 2).logit_bytes == 4
    for keys in ({"zero_stage": 2}, {"zero_stage": 3}, {"framework": "huggingface"},
                 {"training_objective": "grpo", "num_generations": 4}):
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
