"""verl's passes over the padding-free logits beyond the loss path's own (engine/posttraining/vocab_passes.py), and the
host's issuing of a scoring forward (engine/posttraining/scoring_time.py). Each expected count is read from
volcengine/verl 9466d371e verl/workers/actor/dp_actor.py _forward_micro_batch (lines 160-178: div_ by the
temperature, flash-attn's cross-entropy with inplace_backward=False beside the compiled entropy) and update_policy
(line 397: calculate_entropy = entropy_coeff != 0), fsdp_workers.py compute_log_prob (line 701: calculate_entropy=True
for the old-policy and the adapter-off reference pass alike); the compiled entropy's fp32 buffer from
engine/posttraining/entropy.py (inductor's forward realises one, read by two reductions). Seconds are worked out here
from the row's own rates, not read back from the estimate."""

import json
from pathlib import Path

import pytest

from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.rank_imbalance import longest_rank_factor
from engine.posttraining.scoring_gathers import scoring_gather_seconds
from engine.posttraining.scoring_time import policy_forward_seconds
from engine.posttraining.vocab_passes import logit_pass_bytes, vocab_pass_seconds
from engine.scenario import as_laid_out, resolve_model, scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import efficiency, framework_profile
from engine.timing.hf_host import counted_host, padding_free_syncs, synced_layer_idle
from engine.timing.host import layer_unit_visit_seconds
from engine.timing.model import rates_for, stage_time_per_micro_batch
from engine.timing.stage_listing import distinct_stages
from engine.workloads import step_time

ROWS = json.loads((Path(__file__).parent / "data" / "published" / "posttraining_time.json").read_text())["rows"]
VERL_05B = next(r for r in ROWS if r["id"] == "verl-data-time-grpo-lora-qwen2.5-0.5b-2gpu")["scenario"]


def _parts(keys: dict):
    s = scenario_from_dict(keys)
    p = step_parts(s)
    return s, p.rs, training_scenario(s.with_unchecked(offload="none"), p.rs)


def test_bytes_per_logit_counted_pass_by_pass_from_verls_actor():
    # bf16 logits (2 bytes). Update: forward div_ read + write (4), cross-entropy's read (2), the compiled entropy's
    # read (2) and its fp32 buffer written once and read by two reductions (12); backward the entropy's gradient (4),
    # the cross-entropy's out-of-place gradient (4), the two gradients summed (6), DivBackward (4): 38
    assert logit_pass_bytes(2, entropy=True, update=True) == 4 + 2 + 2 + 12 + 4 + 4 + 6 + 4 == 38
    # a scoring pass has no backward: 4 + 2 + 2 + 12
    assert logit_pass_bytes(2, entropy=True, update=False) == 20
    # entropy_coeff 0: the in-place cross-entropy and the division remain (forward 6, backward 4 + 4)
    assert logit_pass_bytes(2, entropy=False, update=True) == 14


def test_update_and_scoring_add_what_the_loss_path_does_not_charge():
    s, rs, train = _parts(VERL_05B)
    spec, hw = resolve_model(train), hardware_for(train)
    memory = rates_for(train, hw, framework_profile(train.framework)).memory
    charged = efficiency()["loss_bytes_per_token_per_vocab"]["fused"]  # verl's loss path, 8 bytes a logit
    assert charged == 8
    # 32 sequences of 430 tokens a micro-batch on each of the 2 GPUs, 5 micro-batches, Qwen2.5's 151,936 entries
    logits = 32 * 430 * 5 * spec.vocab
    assert spec.vocab == 151936 and train.micro_batch == 32 and train.grad_accum == 5
    got = vocab_pass_seconds(s, rs, train)
    assert got["update"] == pytest.approx((38 - 8) * logits / memory)
    # two scoring passes (old policy, adapter-off reference), each charged a third of the loss path in its forward
    assert got["scoring"] == pytest.approx(2 * (20 - 8 / 3) * logits / memory)
    assert dict(step_time(s).rl_seconds)["vocab_passes"] == pytest.approx(got["update"])


def test_only_verls_padding_free_fused_path_runs_them():
    for other in ({"framework": "trl"}, {"packing": "none"}):
        s, rs, train = _parts({**VERL_05B, **other})
        assert vocab_pass_seconds(s, rs, train) == {"update": 0.0, "scoring": 0.0}
    s, rs, train = _parts({**VERL_05B, "entropy_coeff": 0.0})  # no bonus: the in-place path's 14 bytes
    spec, hw = resolve_model(train), hardware_for(train)
    memory = rates_for(train, hw, framework_profile(train.framework)).memory
    assert vocab_pass_seconds(s, rs, train)["update"] == pytest.approx(
        (14 - 8) * 32 * 430 * 5 * spec.vocab / memory)


def _forward_gpu_and_host(train):
    laid = as_laid_out(train)
    spec, hw = resolve_model(laid), hardware_for(laid)
    prof = framework_profile(laid.framework)
    gpu = stage_time_per_micro_batch(laid, spec, hw, prof, rates_for(laid, hw, prof),
                                     *distinct_stages(laid, spec)[0]).fwd
    # each padding-free micro-batch at its longest rank's tokens (engine/posttraining/rank_imbalance.py: verl splits by
    # sequence count, FSDP's gathers tie the row's 2 ranks)
    factor = longest_rank_factor(train)
    assert factor > 1.0
    return laid, spec, gpu * factor, counted_host(laid, spec)


def test_a_scoring_forward_takes_the_later_of_its_gpu_work_and_the_hosts_issuing():
    # SDPA (no host sync in the layer): one short sequence a micro-batch, the GPU's forward of Qwen2.5-0.5B is shorter
    # than the host's issuing of its 24 eager layers (transformers' calls and own Python, PEFT's adapter path:
    # hf_host.counted_host; each layer's own FSDP1 unit visit: verl's wrap policy makes every decoder layer a unit,
    # adapter_units.py) and the step's own (head, loss), which the host issues ahead of the GPU
    _, _, train = _parts({**VERL_05B, "micro_batch": 1, "prompt_len": 16, "completion_len": 16, "attention": "sdpa"})
    laid, spec, gpu, h = _forward_gpu_and_host(train)
    assert padding_free_syncs(laid) == 0
    unit = layer_unit_visit_seconds(laid, "forward")
    assert unit > 0.0  # FSDP1 over the row's 2 GPUs
    issued = spec.layers * (h.layer_forward + unit) + h.step_forward
    assert issued > gpu
    # plus FSDP1's weight gathers of the pass (scoring_gathers.py, tested in tests/test_scoring_gathers.py), each layer's
    # hidden behind the previous layer's issuing
    gathers = scoring_gather_seconds(train, issued)
    assert gathers > 0.0
    assert policy_forward_seconds(train) == pytest.approx(issued * train.grad_accum + gathers)


def test_the_padding_free_flash_forward_waits_at_each_layer_s_syncs():
    # the row's own path (padding-free rows through transformers' flash-attention: 4 host syncs a layer forward,
    # hf_host.padding_free_syncs): the queue empties at each layer, so each pays its round trips and its host seconds
    # beyond its GPU seconds, also where the GPU's whole forward is the longer (the row's 32 x 430 tokens)
    for keys in ({**VERL_05B, "micro_batch": 1, "prompt_len": 16, "completion_len": 16}, VERL_05B):
        _, _, train = _parts(keys)
        laid, spec, gpu, h = _forward_gpu_and_host(train)
        assert padding_free_syncs(laid) == 4
        layer_host = h.layer_forward + layer_unit_visit_seconds(laid, "forward")  # the layer's own FSDP1 unit too
        per_layer = synced_layer_idle(layer_host, gpu / spec.layers, 4, h.round_trip)
        assert per_layer >= 4 * h.round_trip
        forward = gpu + spec.layers * per_layer
        assert policy_forward_seconds(train) == pytest.approx(train.grad_accum * forward
                                                              + scoring_gather_seconds(train, forward))
