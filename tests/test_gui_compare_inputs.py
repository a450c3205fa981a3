"""The Compare tab's "what differs" rows name each input once and in the set-up's words (user audit 7: a verl run under
FSDP beside a TRL run under ZeRO-3 showed two rows both called "Sharding (ZeRO / FSDP)", "off | ZeRO-3" and
"FSDP | off"; the framework row showed ids, "nemo-rl", and the new rollout_async_engine key its own name). The
expected words are the framework table's labels (engine/frameworks) and the set-up's sharding words."""

from engine import scenario_from_dict
from engine.frameworks import TABLE
from gui.app import build_window
from gui.compare_view import Compared

GRPO = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
        "training_objective": "grpo", "micro_batch": 4, "grad_accum": 4, "checkpointing": "full",
        "rollout_engine": "vllm", "completion_len": 1024}


def table_rows(view) -> dict[str, list[str]]:
    table = view.table
    rows: dict[str, list[str]] = {}
    for r in range(table.rowCount()):
        label = table.item(r, 0).text()
        assert label not in rows, f"two rows named {label!r}"
        rows[label] = [table.item(r, c).text() for c in range(1, table.columnCount())]
    return rows


def test_one_sharding_row_and_framework_names(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    verl = scenario_from_dict({**GRPO, "name": "verl", "framework": "verl", "fsdp": True})
    nemo = scenario_from_dict({**GRPO, "name": "nemo", "framework": "nemo-rl", "fsdp": True, "rollout_async_engine": True})
    trl = scenario_from_dict({**GRPO, "name": "trl", "framework": "trl", "zero_stage": 3})
    window.compare.set_items([Compared(s.name, s) for s in (verl, nemo, trl)])
    rows = table_rows(window.compare)
    assert rows["Sharding (ZeRO / FSDP)"] == ["FSDP", "FSDP", "ZeRO-3"]
    # the rows' labels; TRL's in the picker's words, with the releases that cast QLoRA adapters (key_words.py)
    assert rows["Framework"][:2] == [TABLE["verl"].label, TABLE["nemo-rl"].label]
    assert rows["Framework"][2].startswith("TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward from 0.26")
    assert rows["Engine as vLLM's AsyncLLM (async_engine)"] == ["as the framework does it", "on",
                                                                "as the framework does it"]
    assert "rollout_async_engine" not in rows
