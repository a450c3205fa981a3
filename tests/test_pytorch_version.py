"""The `pytorch_version` key: the optimizer step's temporaries of PyTorch's default (foreach) AdamW by release line.

Source: torch 2.0's `_multi_tensor_adamw` (torch/optim/adamw.py, v2.0.0/v2.0.1; ms-swift #411's traceback prints
line 568 of it) does

    exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)      # one list the size of exp_avg_sq
    torch._foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt)
    denom = torch._foreach_add(exp_avg_sq_sqrt, eps)                # a second one, out of place
    torch._foreach_addcdiv_(device_params, device_exp_avgs, denom, step_size)

so two lists the size of the second-moment state are alive at addcdiv_. pytorch/pytorch PR #104898 ("[foreach][AdamW]
Minimize intermediates to save peak memory", merged 2023-07-10, before the 2.1 branch cut; issue #97712 closed when the
whole series had landed) adds eps in place, leaving one. AdamW keeps two states (exp_avg, exp_avg_sq) of the same size,
so in bf16 with no master copy: 2.0's temporaries = both states' bytes, 2.1's = one state's.
"""

from __future__ import annotations

import pytest
from conftest import REPO

from engine import estimate, scenario_from_dict
from engine.diagnosis import diagnose_oom, parse_oom_text
from engine.errors import ScenarioError
from engine.planning.suggest import suggestions

# ms-swift #411's job (tests/data/oom_messages/index.json): Mistral-7B, bf16 weights, gradients and AdamW states
MISTRAL_BF16 = {"model": "mistral-7b", "gpu": "a100-80gb", "method": "full", "precision": "bf16",
                "seq_len": 4096, "attention": "flash", "checkpointing": "full"}


def _parts(data: dict) -> dict[str, float]:
    e = estimate(scenario_from_dict(data))
    return {c.key: c.moments.optimizer for c in e.stages[e.busiest_stage].components}


def test_torch_2_0_keeps_two_state_sized_lists_and_2_1_one():
    old, new = _parts({**MISTRAL_BF16, "pytorch_version": "2.0"}), _parts(MISTRAL_BF16)
    states = new["optimizer_states"]  # exp_avg + exp_avg_sq: two lists of the second-moment state's size
    assert old["optimizer_states"] == states
    assert new["optimizer_temp"] == states / 2  # exp_avg_sq_sqrt
    assert old["optimizer_temp"] == states  # exp_avg_sq_sqrt and denom


def test_the_default_is_a_current_release():
    assert scenario_from_dict(MISTRAL_BF16).pytorch_version == "2.1+"


def test_mixed_precision_keeps_its_fp32_gradient_copy_once():
    """Under amp the master update's fp32 gradient copy is not a foreach intermediate: only the state lists double."""
    data = {**MISTRAL_BF16, "precision": "amp-bf16"}
    old, new = _parts({**data, "pytorch_version": "2.0"}), _parts(data)
    assert old["optimizer_temp"] - new["optimizer_temp"] == new["optimizer_states"] / 2


@pytest.mark.parametrize("optimizer", ["adamw-fused", "adamw-8bit", "sgd-momentum"])
def test_other_optimizers_are_not_affected(optimizer):
    data = {**MISTRAL_BF16, "optimizer": optimizer}
    assert _parts({**data, "pytorch_version": "2.0"}) == _parts(data)


def test_an_unknown_release_is_refused_in_one_sentence():
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict({**MISTRAL_BF16, "pytorch_version": "1.13"})
    assert "pytorch_version" in str(err.value) and "2.0" in str(err.value)


def test_make_it_fit_offers_the_upgrade_first():
    """ms-swift #411's job (tests/data/oom_messages/index.json) on torch 2.0 does not fit an 80 GB card; the same job on
    2.1+ keeps one state-sized temporary less (PR #104898) and fits: the upgrade is the first, cheapest change."""
    data = {**MISTRAL_BF16, "framework": "ms-swift", "pytorch_version": "2.0"}
    offered = suggestions(scenario_from_dict(data))
    assert offered[0].changes == {"pytorch_version": "2.1+"}
    assert not estimate(scenario_from_dict(data)).fits and offered[0].fits
    assert all("pytorch_version" not in sug.changes for sug in suggestions(scenario_from_dict(MISTRAL_BF16)))


def test_a_traceback_from_before_2_1_is_named_and_priced():
    """ms-swift #411's message ends in torch 2.0's `denom = torch._foreach_add(exp_avg_sq_sqrt, eps)`: planned on the
    default release, the diagnosis says so and prices the second temporary (one list the size of exp_avg_sq, half of
    AdamW's two states); planned on 2.0 it has nothing to add, and a message without that line never says it."""
    text = (REPO / "tests" / "data" / "oom_messages" / "ms-swift-411.txt").read_text(encoding="utf-8")
    report = parse_oom_text(text)
    assert report.eps_out_of_place
    s = scenario_from_dict({**MISTRAL_BF16, "framework": "ms-swift"})
    named = [f for f in diagnose_oom(report, s) if f.kind == "torch_release"]
    half_states = _parts({**MISTRAL_BF16, "framework": "ms-swift"})["optimizer_states"] / 2
    assert len(named) == 1 and f"{half_states / 2**30:.2f} GiB" in str(named[0].text)
    # the release explains the excess at the step, so no component is blamed for growing past the plan
    assert not [f for f in diagnose_oom(report, s) if f.kind == "grown"]
    assert not [f for f in diagnose_oom(report, s.replace(pytorch_version="2.0")) if f.kind == "torch_release"]
    plain = parse_oom_text((REPO / "tests" / "data" / "oom_messages" / "fastchat-1781.txt").read_text(encoding="utf-8"))
    assert not plain.eps_out_of_place
