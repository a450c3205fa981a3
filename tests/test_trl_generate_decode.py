"""A TRL trainer's own generate() decode step on a QLoRA policy (issue 23, post-training time: jsboige/CoursIA's TRL
GRPO probe, QLoRA Qwen3-14B on an RTX 4090 without vLLM). Each expected value is built from the source named beside
it (a library's code at a release, a preset's counted figure), never from the measured rows."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.posttraining.eager_decode import dynamic_cache_bytes_per_token, trainer_generate_host_seconds
from engine.scenario import resolve_model
from engine.serving import host_iteration
from engine.serving.host_iteration import transformers_decode_host_seconds, transformers_layer_host_seconds
from engine.timing.bnb_4bit import bnb_figures
from engine.timing.hf_host import eager_counts, linear4bit_decode_host_seconds, peft_forward_host_seconds
from engine.timing.host import host_call_seconds, host_figures, host_speed_factor, linear4bit_layer_seconds
from engine.timing.lora_adapters import (
    LAUNCHES,
    SAME,
    Adapters,
    adapter_bytes_per_token,
    adapter_host_seconds,
    adapter_path,
    clones_base,
    runs_lora_dropout,
)
from engine.workloads import step_time

# the probe's run (tests/data/published/posttraining_time.json coursia-time-* rows' scenario)
PROBE = {"model": "qwen3-14b", "gpu": "rtx-4090", "gpus_per_node": 1, "framework": "trl", "training_objective": "grpo",
         "method": "qlora", "precision": "bf16", "lora_rank": 8, "lora_targets": "all-linear", "lora_dropout": 0.05,
         "checkpointing": "full", "attention": "sdpa", "micro_batch": 8, "num_generations": 8, "prompt_len": 11,
         "completion_len": 160, "reference_model": "none", "rollout_engine": "none", "grad_accum": 4}
DENSE = (False, False, "")


def _probe(**keys: object):
    return scenario_from_dict({**PROBE, **keys})


def test_a_decode_steps_linear4bit_calls_skip_the_autograd_function() -> None:
    # bitsandbytes 0.50.1 autograd/_functions.py matmul_4bit: without grad (line 453-454) it calls
    # torch.ops.bitsandbytes.gemm_4bit itself; only a call under grad reaches MatMul4Bit.apply (line 491). So a layer's
    # no-grad forward is its training forward less one apply per 4-bit linear (presets/bnb_4bit.json
    # function_apply_seconds, scaled with the host's call price as the training count scales it)
    s = _probe()
    launch, call = host_call_seconds(s)
    linears = len(resolve_model(s).layer_linears(*DENSE))  # q, k, v, o, gate, up, down
    apply = bnb_figures()["host"]["function_apply_seconds"]["value"] * call / host_figures()["view_seconds"]["value"]
    grad_forward = linear4bit_layer_seconds(s, DENSE)[0]
    assert linears == 7
    assert linear4bit_layer_seconds(s, DENSE, under_grad=False)[0] == pytest.approx(grad_forward - linears * apply)


def test_the_no_grad_count_is_the_presets_double_quantised_forward() -> None:
    # presets/bnb_4bit.json host.forward with double quantisation (the probe's bnb_4bit_use_double_quant=True): 3
    # launches (dequantize_blockwise of the absmax, absmax + offset, dequantize_4bit), 7 dispatcher calls, 1
    # binding-only call, 4 Params4bit __torch_function__ calls, each at the run's host prices
    s = _probe()
    launch, call = host_call_seconds(s)
    share = host_figures()["optimizer_syncs"]["binding_call_share"]
    per_call = 3 * launch + 7 * call + 1 * call * share + 4 * call
    assert linear4bit_decode_host_seconds(s, resolve_model(s)) == pytest.approx(7 * per_call)
    assert linear4bit_decode_host_seconds(_probe(qlora_double_quant=False), resolve_model(s)) == pytest.approx(
        7 * (1 * launch + 6 * call + 4 * call))


def test_trls_generate_on_a_qlora_policy_pays_the_4bit_linears_every_decode_step() -> None:
    # transformers' bitsandbytes integration puts bnb.nn.Linear4bit under each of PEFT's LoRA layers; TRL generates
    # through the peft model (trl f2cd577 grpo_trainer.py 1850-1863), so each decode step runs every layer's
    # transformers modules, PEFT's adapters and the 4-bit linears' own Python and dequantisation launches
    s = _probe()
    spec = resolve_model(s)
    expected = transformers_decode_host_seconds(s, spec) + spec.layers * (
        peft_forward_host_seconds(s, spec) + linear4bit_decode_host_seconds(s, spec))
    assert trainer_generate_host_seconds(s, spec) == pytest.approx(expected)
    assert linear4bit_decode_host_seconds(s, spec) > 0.0
    # a LoRA policy on 16-bit weights has no 4-bit linears
    assert linear4bit_decode_host_seconds(_probe(method="lora"), spec) == 0.0


def test_peft_copies_a_4bit_base_output_on_the_16_bit_adapter_path_too() -> None:
    # peft v0.20.0 src/peft/tuners/lora/bnb.py Linear4bit.forward line 533: result = result.clone() on every call, before
    # the adapters' product is added; TRL casts a quantised model's trainable adapters to bf16 (trl f2cd577
    # grpo_trainer.py 495-503; the planner's "auto" keeps peft's fp32 upcast, so the test states the 16-bit
    # adapters): the 16-bit ("same") path runs lora_A, lora_B, * scaling, + (LAUNCHES) and the clone, per adapted
    # linear; a 16-bit base (peft's plain Linear) copies nothing
    s = _probe(lora_dropout=0.0, lora_adapter_dtype="compute")
    assert adapter_path(s) == SAME and clones_base(s, SAME)
    per_linear_launches = adapter_host_seconds(s, DENSE, 1.0, 0.0)[0] / 7
    assert per_linear_launches == pytest.approx(LAUNCHES[SAME][0] + 1)
    assert not clones_base(_probe(method="lora", lora_dropout=0.0, lora_adapter_dtype="compute"), SAME)
    # its bytes: the base output read and written once more, per token and adapted linear
    a = Adapters(((5120, 5120),), SAME, 2, 2, 1e12)
    copied = a._replace(clones_base=True)
    assert adapter_bytes_per_token(copied, 5120, 5120, 2)[0] - adapter_bytes_per_token(a, 5120, 5120, 2)[0] == 2 * 2 * 5120


def test_lora_dropout_launches_its_kernel_each_way_in_training_mode() -> None:
    # peft v0.20.0 src/peft/tuners/lora/layer.py update_layer lines 251-254: nn.Dropout(p) above 0, nn.Identity at 0;
    # in training mode aten's dropout runs native_dropout (the output and a bool mask) and its backward
    # native_dropout_backward: one launch each way per adapted linear; the probe's lora_dropout=0.05
    with_dropout, without = _probe(), _probe(lora_dropout=0.0)
    assert runs_lora_dropout(with_dropout) and not runs_lora_dropout(without)
    fwd, bwd = adapter_host_seconds(with_dropout, DENSE, 1.0, 0.0)
    fwd0, bwd0 = adapter_host_seconds(without, DENSE, 1.0, 0.0)
    assert (fwd - fwd0, bwd - bwd0) == (pytest.approx(7.0), pytest.approx(7.0))
    # bytes per token: x read, the output written and a 1-byte mask forward; the gradient, the mask and the result back
    a = Adapters(((5120, 1024),), SAME, 2, 2, 1e12)
    dropped = a._replace(dropout=True)
    extra = [d - b for d, b in zip(adapter_bytes_per_token(dropped, 5120, 1024, 2),
                                   adapter_bytes_per_token(a, 5120, 1024, 2), strict=True)]
    assert extra == [5120 * (2 * 2 + 1), 5120 * (2 * 2 + 1)]
    # a framework whose own adapters run (torchtune's) has no PEFT module to drop out
    assert not runs_lora_dropout(_probe(framework="torchtune", rollout_engine="none"))


def test_dynamic_cache_concatenates_keys_and_values_each_decode_step() -> None:
    # transformers' DynamicCache.update (huggingface/transformers@67dd5524 src/transformers/cache_utils.py) appends
    # the token with torch.cat for keys and for values: two launches a layer on the GPU (their CPU dispatch is in the
    # measured decode residual, so a launch less a view call each) and the whole cache read and written again
    s = _probe()
    spec = resolve_model(s)
    launch, view = host_call_seconds(s)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(host_iteration, "DYNAMIC_CACHE_CATS_PER_LAYER", 0)
        without = transformers_layer_host_seconds(s, spec)
    assert transformers_layer_host_seconds(s, spec) - without == pytest.approx(2 * (launch - view))
    # Qwen3-14B (presets/models): 40 layers x K and V x 8 KV heads x head_dim 128 x 2 bytes (bf16) a token and
    # sequence, read by SDPA and read and written by the concatenation: 3 passes
    assert (spec.layers, spec.kv_heads, spec.head_dim) == (40, 8, 128)
    assert dynamic_cache_bytes_per_token(s, spec, 1, 2) == 3 * 40 * 2 * 8 * 128 * 2
    # torchtune's own generate writes its cache in place: its attention reads it once
    assert dynamic_cache_bytes_per_token(_probe(framework="torchtune"), spec, 1, 2) == 40 * 2 * 8 * 128 * 2


def test_sixteen_generations_run_the_same_one_generate_call_of_32_completions() -> None:
    # trl f2cd577 grpo_config.py 1077-1079: steps_per_generation = gradient_accumulation_steps (4) and
    # generation_batch_size = per_device_train_batch_size x processes x steps_per_generation = 8 x 1 x 4 = 32 rows;
    # grpo_trainer.py 1213-1233 / 1264-1270: the dataloader yields those 32 rows, RepeatSampler's batch of
    # generation_batch_size // num_generations prompts (4 at 8 generations, 2 at 16) each repeated num_generations
    # times; _prepare_inputs (1571-1579) generates once every steps_per_generation x num_iterations micro-steps, one
    # transformers generate() over all 32 (1850-1863). So the probe's 16-generation run decodes the same 32 sequences
    # in one call as its 8-generation run, and the estimate is the same step (the measured 54.4 s against 37.4 s is
    # not from the code's work: same shapes, the same peak allocation to the byte, 13.001 GB, in both lines)
    eight, sixteen = step_time(_probe()), step_time(_probe(num_generations=16))
    for t in (eight, sixteen):
        detail = dict(t.generation)
        assert (detail["sequences"], detail["concurrent_sequences"], detail["waves"]) == (32, 32, 1)
        assert detail["decode_iterations"] == PROBE["completion_len"]
    assert sixteen.step_seconds == pytest.approx(eight.step_seconds)


def test_generates_own_loop_is_paid_once_a_decode_step() -> None:
    # benchmarks/hf_generate_loop_host.py (transformers 5.17.0 GenerationMixin._sample at TRL's sampling config, on
    # the CPU): outside the decoder layers a decode step runs GENERATE_LOOP_KERNELS ATen kernels (a launch each on the
    # GPU) and GENERATE_LOOP_PYTHON_VIEW_CALLS view calls of Python beyond them, once a step whatever the depth
    s = _probe()
    spec = resolve_model(s)
    launch, view = (host_figures()[k]["value"] for k in ("launch_seconds", "view_seconds"))
    loop = host_iteration.GENERATE_LOOP_KERNELS * launch + host_iteration.GENERATE_LOOP_PYTHON_VIEW_CALLS * view
    factor = host_speed_factor(s)
    assert transformers_decode_host_seconds(s, spec) == pytest.approx(
        (spec.layers * transformers_layer_host_seconds(s, spec) + loop) * factor)
    assert (host_iteration.GENERATE_LOOP_KERNELS, host_iteration.GENERATE_LOOP_PYTHON_VIEW_CALLS) == (67, 372.9)


def test_a_qwen3_layer_counts_its_query_and_key_norms() -> None:
    # transformers 5.17.0 models/qwen3 modeling_qwen3.py: Qwen3Attention runs q_norm and k_norm, a Qwen3RMSNorm each
    # (hidden_states.to(float32), pow(2), mean, + eps, rsqrt, *, .to(input dtype), weight *: 8 kernels in bf16), on
    # the per-head queries and keys; Llama's layer has neither. presets/host_overhead.json hf_eager_layers qwen3
    # (validation/hf_host_counts.py qwen3-8b) is Llama's layer plus those two modules and their kernels
    s = _probe()
    qwen3 = eager_counts(s, resolve_model(s))["per_layer"]
    llama = eager_counts(_probe(model="llama-3.1-8b"), resolve_model(_probe(model="llama-3.1-8b")))["per_layer"]
    assert qwen3["kernels"] - llama["kernels"] == 2 * 8
    assert qwen3["modules"] - llama["modules"] == 2
    assert qwen3["views"] == llama["views"]
    assert transformers_layer_host_seconds(s, resolve_model(s)) > transformers_layer_host_seconds(
        _probe(model="llama-3.1-8b"), resolve_model(_probe(model="llama-3.1-8b")))
