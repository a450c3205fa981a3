"""The Megatron importer called time flags (--overlap-grad-reduce, --overlap-param-gather, --tp-comm-overlap ...)
"not a memory setting it models", though the planner models time too. A flag with a time key is read into it
(--tp-comm-overlap: tp_comm_overlap, engine/timing/tp_overlap.py userbuffers_on; --overlap-moe-expert-parallel-comm:
moe_a2a_overlap, a2a_overlap.py); one the time model does not read says "not read by the planner" and what the time
takes instead (presets/efficiency.json frameworks megatron: dp_overlap, wgrad_into_main_grad)."""

from __future__ import annotations

from engine.configs import import_texts
from engine.configs.megatron_time import NOT_READ_FOR_TIME
from engine.timing.data import framework_profile

SCRIPT = ("torchrun pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 "
          "--micro-batch-size 1 --global-batch-size 64 --bf16 --tensor-model-parallel-size 2 --sequence-parallel "
          "--use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --tp-comm-overlap "
          "--no-gradient-accumulation-fusion --overlap-moe-expert-parallel-comm --foo-bar 3\n")


def _import(text: str = SCRIPT):
    return import_texts([("train.sh", text)])


def test_time_switches_are_read_into_their_time_keys():
    result = _import()
    assert result.scenario["tp_comm_overlap"] is True and result.scenario["moe_a2a_overlap"] is True
    read = {m.key: m.source for m in result.mapped}
    assert read["tp_comm_overlap"].endswith("--tp-comm-overlap")
    assert not any("--tp-comm-overlap" in u.key for u in result.unmapped)


def test_time_flags_the_planner_does_not_read_say_so_and_what_it_takes_instead():
    why = {u.key.split(": ", 1)[1]: str(u.why) for u in _import().unmapped if ": " in u.key}
    for flag in NOT_READ_FOR_TIME:
        assert why[flag].startswith("not read by the planner: its step time"), flag
        assert "memory setting" not in why[flag]
    # what they say the time takes is the profile's: overlapped data-parallel collectives, fused wgrad accumulation
    prof = framework_profile("megatron")
    assert prof["dp_overlap"] > 0 and prof["wgrad_into_main_grad"]
    assert why["--foo-bar"] == "not read by the planner"  # an unknown flag: no claim about memory or time
