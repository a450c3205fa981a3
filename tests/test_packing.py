"""Issue 24 item 11: `packing` and `max_tokens_per_micro_batch` (engine/scenario/packing.py).

Activations and logits follow the tokens a micro-batch really holds. The published direction: ms-swift's own
example modelscope/ms-swift examples/train/padding_free/dpo.sh (Qwen2.5-7B-Instruct DPO, 4 GPUs, ZeRO-3, max_length
8192, batch 4) states "with padding_free: 4 * 47GiB ... without padding_free: 4 * 57GiB".
"""

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import PlannerError
from engine.timing import step_time

BASE = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "micro_batch": 4, "seq_len": 8192,
        "precision": "bf16", "zero_stage": 3, "attention": "flash", "checkpointing": "full"}


def _component(est, key):
    return next(c for c in est.busiest.components if c.key == key)


def test_default_is_today_and_padding_free_without_a_token_budget_holds_the_same_tokens():
    plain = estimate(scenario_from_dict(BASE))
    assert estimate(scenario_from_dict({**BASE, "packing": "none"})).phases == plain.phases
    # one row of micro_batch x seq_len tokens: with a linear-memory attention kernel the same bytes
    free = estimate(scenario_from_dict({**BASE, "packing": "padding-free"}))
    assert free.peak_allocated_bytes == pytest.approx(plain.peak_allocated_bytes, rel=1e-6)


@pytest.mark.parametrize("packing", ["padding-free", "packed"])
def test_activations_and_logits_follow_the_tokens_held(packing):
    """Half the tokens (a token budget of 16,384 against 4 x 8,192 padded): the checkpointed layer inputs and the
    logits are per token, so they halve; the weights, gradients and optimizer states do not move."""
    padded = estimate(scenario_from_dict(BASE))
    held = estimate(scenario_from_dict({**BASE, "packing": packing, "max_tokens_per_micro_batch": 16384}))
    for key in ("activations", "logits"):
        before, after = _component(padded, key).moments, _component(held, key).moments
        assert after.forward == pytest.approx(before.forward / 2, rel=1e-9), key
    for key in ("weights", "optimizer_states"):
        assert _component(held, key).moments == _component(padded, key).moments
    assert held.peak_allocated_bytes < padded.peak_allocated_bytes  # ms-swift: 47 GiB padding-free vs 57 GiB


def test_step_time_counts_the_tokens_held():
    padded = step_time(scenario_from_dict(BASE))
    held = step_time(scenario_from_dict({**BASE, "packing": "padding-free", "max_tokens_per_micro_batch": 16384}))
    assert held.seconds < padded.seconds


def test_packed_rows_are_whole_rows_of_seq_len():
    from engine.scenario.packing import laid_out

    s = scenario_from_dict({**BASE, "packing": "packed", "max_tokens_per_micro_batch": 20000})
    assert laid_out(s) == (3, 8192)  # 20,000 tokens need three rows of 8,192
    s = scenario_from_dict({**BASE, "packing": "padding-free", "max_tokens_per_micro_batch": 20000})
    assert laid_out(s) == (1, 20000)


def test_a_token_budget_below_one_sequence_is_one_sentence():
    with pytest.raises(PlannerError) as err:
        estimate(scenario_from_dict({**BASE, "packing": "padding-free", "max_tokens_per_micro_batch": 4096}))
    text = str(err.value)
    assert "one whole sequence" in text and "\n" not in text
