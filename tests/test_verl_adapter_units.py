"""The LoRA adapters as FSDP1 units of their own under verl (engine/posttraining/adapter_units.py): what each pass
visits and how much of a visit's host work the linear's own GEMM hides, each expected value worked out here from the
mechanism's sources (verl 9466d371e fsdp_utils.py get_fsdp_wrap_policy(is_lora=True): every lora_A / lora_B leaf an
FSDP unit; FSDP1's _runtime_utils.py / _flat_param.py unshard and reshard: VISIT_CALLS; its rate limiter keeping the
host within two unshards of the GPU) and the scenario's own rates, not read back from the estimate."""

import json
from pathlib import Path

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.memory.states import lora_targets
from engine.posttraining.adapter_units import adapter_unit_seconds, wraps_adapter_units
from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.scoring_time import policy_forward_seconds
from engine.scenario import as_laid_out, resolve_model, scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import framework_profile
from engine.timing.fsdp1_host import FSDP1_PYTHON_VIEW_CALLS, VISIT_CALLS, wraps_layer_units
from engine.timing.gemm import gemm_seconds
from engine.timing.hf_host import counted_host
from engine.timing.host import layer_unit_seconds, layer_unit_visit_seconds, visit_host_seconds
from engine.timing.host_table import host_figures
from engine.timing.model import rates_for, stage_time_per_micro_batch
from engine.workloads import step_time

ROWS = json.loads((Path(__file__).parent / "data" / "published" / "posttraining_time.json").read_text())["rows"]
VERL_7B = next(r for r in ROWS if r["id"] == "verl-data-time-grpo-lora-qwen2.5-7b-8gpu")["scenario"]


def _train(keys: dict):
    s = scenario_from_dict(keys)
    return s, training_scenario(s.with_unchecked(offload="none"), step_parts(s).rs)


def test_a_visit_costs_fsdp1s_calls_at_the_measured_per_call_figures():
    # the H100's host is the preset's (factor 1): 2 kernels at 9.02 us, 26 calls at 3.52 us, the inner module's call,
    # and FSDP1's own Python beyond them, measured in view calls (benchmarks/verl_lora_host_counts.py)
    s = scenario_from_dict(VERL_7B)
    fig = host_figures()
    launch, call, module = (fig[k]["value"] for k in ("launch_seconds", "view_seconds", "module_call_seconds"))
    python = FSDP1_PYTHON_VIEW_CALLS
    assert visit_host_seconds(s, "forward") == pytest.approx(2 * launch + (26 + python["forward"]) * call + module)
    assert VISIT_CALLS["forward_grad"][1] == VISIT_CALLS["forward"][1] + 1  # the output's pre-backward hook
    # the backward's visit: the pre-backward unshard (cast, all-gather) and the post-backward reduce-scatter with the
    # fp32 cast, the two divisions and the accumulation: 7 kernels
    assert visit_host_seconds(s, "backward") == pytest.approx(7 * launch + (34 + python["backward"]) * call)


def test_fsdp1s_own_python_outweighs_the_calls_counted_from_its_sources():
    # the benchmark's thread seconds per unit visit on its CPU, in view calls, beyond VISIT_CALLS: FSDP1's state
    # checks and hook bookkeeping are several times the dispatches VISIT_CALLS counts (26, 27 and 34 calls), a
    # grad-enabled forward registers more than a no-grad one, and the backward's two hooks (pre-backward unshard,
    # post-backward reduce-scatter) more than a forward
    python = FSDP1_PYTHON_VIEW_CALLS
    for visit, (_kernels, calls, _modules) in VISIT_CALLS.items():
        assert python[visit] > 5 * calls
    assert python["forward"] < python["forward_grad"] < python["backward"]


def test_each_adapted_linear_adds_what_its_two_units_take_beyond_its_own_gemm():
    s, train = _train(VERL_7B)
    spec, hw = resolve_model(s), hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    tokens = train.micro_batch * train.seq_len  # 8 sequences of 356 tokens on each GPU, no TP
    host = 2 * visit_host_seconds(s, "forward")
    # q, k, v, o, gate, up, down of Qwen2.5-7B: with FSDP1's own Python counted (about 0.58 ms a no-grad visit) the
    # two units outlast even the widest base GEMM (down_proj, about 0.67 ms at these 2,848 tokens)
    gemms = {t.name: gemm_seconds(tokens, t.d_in, t.d_out, rates.linear, rates.memory, rates.elem_bytes, rates.sms)
             for t in lora_targets(s, spec, False)}
    assert host > max(gemms.values()) > gemms["k_proj"]
    # NCCL's few-us all-gathers run beside the base GEMM on FSDP's own stream, shorter than the host's visits
    one_pass = sum(max(0.0, host - g) for g in gemms.values()) * spec.layers
    scoring = adapter_unit_seconds(s, train, True)["scoring"]
    assert scoring == pytest.approx(train.grad_accum * one_pass, rel=1e-9)
    # the old-policy pass alone visits the adapters (the adapter-off reference calls none): an offline objective none
    assert adapter_unit_seconds(s, train, False)["scoring"] == 0.0


def test_the_update_visits_forward_recompute_and_backward_and_only_where_the_adapters_are_units():
    s, train = _train(VERL_7B)
    units = adapter_unit_seconds(s, train, True)
    # forward + recompute (full checkpointing) + backward per micro-batch: more than three no-grad forwards' worth
    assert units["update"] > 3 * units["scoring"]
    _, no_ckpt = _train({**VERL_7B, "checkpointing": "none"})
    fewer = adapter_unit_seconds(scenario_from_dict({**VERL_7B, "checkpointing": "none"}), no_ckpt, True)
    assert fewer["update"] < units["update"]
    assert dict(step_time(s).rl_seconds)["adapter_units"] == pytest.approx(units["update"])
    # one GPU runs FSDP1's NO_SHARD (nothing unsharded); a full fine-tune has no adapters; TRL merges its adapters
    # into whole layers (no lambda wrap policy)
    one_gpu = {**VERL_7B, "gpus_per_node": 1, "rollout_tp": 1, "micro_batch": 8}
    assert not wraps_adapter_units(scenario_from_dict(one_gpu))
    assert not wraps_adapter_units(scenario_from_dict({**VERL_7B, "method": "full", "reference_model": "separate"}))
    assert not wraps_adapter_units(scenario_from_dict({**VERL_7B, "framework": "trl"}))
    assert wraps_adapter_units(s)


def test_each_decoder_layers_own_fsdp1_unit_is_visited_in_a_scoring_forward_and_hidden_behind_its_gpu_work():
    # verl 9466d371e fsdp_utils.py get_fsdp_wrap_policy or's the decoder-layer class into the LoRA lambda policy, so
    # each layer is the 15th FSDP1 unit benchmarks/verl_lora_host_counts.py timed: the same visit as an adapter's
    s, train = _train(VERL_7B)
    assert layer_unit_visit_seconds(train, "forward") == pytest.approx(visit_host_seconds(train, "forward"))
    # a full fine-tune's layers are units too (the adapter terms leave it out); one rank runs NO_SHARD, FSDP2 no FSDP1
    full = scenario_from_dict({**VERL_7B, "method": "full", "reference_model": "separate"})
    assert layer_unit_visit_seconds(full, "forward") == pytest.approx(visit_host_seconds(full, "forward"))
    assert layer_unit_visit_seconds(scenario_from_dict({**VERL_7B, "fsdp_version": 2}), "forward") == 0.0
    one_gpu = scenario_from_dict({**VERL_7B, "gpus_per_node": 1, "rollout_tp": 1, "micro_batch": 8})
    assert layer_unit_visit_seconds(one_gpu, "forward") == 0.0
    # where the scoring forward binds: each layer's host (its counted eager work, the unit's visit) against its GPU
    # share; Qwen2.5-7B at 2,848 tokens a micro-batch: about 2.0 + 0.58 ms of host against about 3.9 ms of GPU a layer,
    # so the visit hides behind the layer's GPU work (policy_forward_seconds unchanged by it, as in every verl row)
    spec = resolve_model(train)
    host = counted_host(train, spec).layer_forward + layer_unit_visit_seconds(train, "forward")
    prof = framework_profile(train.framework)
    stage = stage_time_per_micro_batch(train, spec, hardware_for(train), prof, rates_for(train, hardware_for(train), prof),
                                       0, range(spec.layers))
    assert host < stage.fwd / spec.layers
    # a layer whose GPU work is shorter than its host's exposes the visit: the same scenario with one short sequence
    short = train.with_unchecked(seq_len=64)
    assert policy_forward_seconds(short) > policy_forward_seconds(short.with_unchecked(fsdp_version=2))


def _stage_host(s, layer_units: bool) -> float:
    laid = as_laid_out(s)
    spec, hw = resolve_model(laid), hardware_for(laid)
    prof = framework_profile(laid.framework)
    return stage_time_per_micro_batch(laid, spec, hw, prof, rates_for(laid, hw, prof), 0, range(spec.layers),
                                      layer_units).host


def test_every_fsdp1_trained_layers_own_unit_adds_its_visits_to_the_training_steps_host_work():
    # the same FSDP1 code visits each decoder layer's unit in training (transformer_auto_wrap_policy, verl's policy):
    # forward under grad, backward hooks, and the checkpointed layer's recompute again (host.py layer_unit_seconds)
    s = scenario_from_dict({"model": "qwen2.5-0.5b", "gpu": "h100-sxm-80gb", "gpus_per_node": 2, "framework":
                            "huggingface", "method": "full", "precision": "bf16", "fsdp": True, "fsdp_version": 1,
                            "micro_batch": 1, "seq_len": 128, "checkpointing": "full"})
    assert wraps_layer_units(s) and not wraps_layer_units(s.with_unchecked(fsdp_version=2))
    fwd, bwd = layer_unit_seconds(s, True, True, True)
    assert fwd == pytest.approx(visit_host_seconds(s, "forward_grad"))
    assert bwd == pytest.approx(visit_host_seconds(s, "backward") + fwd)
    assert layer_unit_seconds(s, False, True, True) == (0.0, 0.0)
    # 128 tokens a micro-batch: the host binds (each layer's GPU work is tens of microseconds), so every layer's
    # visits (about 0.7 + 1.1 + 0.7 ms) add to the micro-batch's wait for the host, in full
    spec = resolve_model(s)
    added = _stage_host(s, True) - _stage_host(s, False)
    assert added == pytest.approx(spec.layers * (fwd + bwd), rel=1e-6)
    # the training rows that run FSDP1 (llm-foundry, fms-fsdp, litgpt in docs/speed-accuracy.md) give each layer
    # 13 ms or more of GPU work a micro-batch beyond its host work and these visits: nothing added there
    foundry = next(r for r in load_rows() if r["id"] == "llm-foundry-h100_80gb-amp_bf16-1b-1024-8-18x4")["scenario"]
    big = scenario_from_dict(foundry)
    assert wraps_layer_units(big)
    assert _stage_host(big, True) == pytest.approx(_stage_host(big, False))


def test_only_the_adapted_layers_adapters_are_units_of_their_own():
    """lora_layers N: PEFT creates lora_A / lora_B modules (FSDP1's own units under verl's wrap policy) on the top N
    layers only, so a visit of the units costs N / 28 of the every-layer figure (each layer's the same)."""
    s, train = _train(VERL_7B)
    top, top_train = _train({**VERL_7B, "lora_layers": 7})
    every = adapter_unit_seconds(s, train, True)
    some = adapter_unit_seconds(top, top_train, True)
    assert some["scoring"] == pytest.approx(every["scoring"] * 7 / 28, rel=1e-9)
    assert some["update"] == pytest.approx(every["update"] * 7 / 28, rel=1e-9)
