"""An empty value of a true / false switch is no switch (h-fuzz12 item c): as_bool("") read False, so ms-swift's
`--freeze_vit ''` imported as a trained vision tower, where ms-swift's parser (transformers' HfArgumentParser
string_to_bool) refuses it at start. It is now listed with its value, as "maybe" is (tests/test_session22_hostile.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

from engine.configs.common import as_bool
from engine.configs.importing import import_texts

SWIFT_MOE = "tests/data/configs/ms-swift/megatron_qwen3_moe.sh"  # ms-swift's own multi-node Megatron example


def test_an_empty_value_is_no_true_or_false():
    assert as_bool("") is None and as_bool("  ") is None
    assert (as_bool("false"), as_bool("true")) == (False, True)  # the words it reads are unchanged


def test_an_empty_freeze_vit_is_said_not_read_as_a_trained_tower():
    keys = ("freeze_vit", "freeze_aligner", "vit_gradient_checkpointing", "tp_comm_overlap")
    text = Path(SWIFT_MOE).read_text(encoding="utf-8").replace(
        "megatron sft", "megatron sft " + " ".join(f"--{k} {shlex.quote('')}" for k in keys)).replace(
        "Qwen/Qwen3-30B-A3B-Base", "Qwen/Qwen2.5-VL-7B-Instruct")
    result = import_texts([("train.sh", text)])
    why = {u.key.removeprefix("train.sh: "): str(u.why) for u in result.unmapped}
    for key in keys:
        assert why[key] == "expected true or false, found ''"
    assert "vision_tower" not in result.scenario  # was "trained"; the planner's default (frozen) stays
