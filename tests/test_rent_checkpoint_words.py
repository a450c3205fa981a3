"""`fit --objective cost --lang zh_CN` of a training run printed its checkpoint line half in English ("一个检查点：
104.70 GiB（8,030,261,248 weights x 2 B + ... trained parameters ...）", user audit 12): the formula is a message now;
the JSON keeps its English text under "checkpoint_formula" (a contract) and adds the message."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conftest import REPO

from engine import scenario_from_dict
from engine.planning.rent import FULL_CHECKPOINT, checkpoint_bytes
from engine.planning.rent_report import render_rent, rent_report

FULL = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
        "optimizer": "adamw", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "attention": "flash",
        "checkpointing": "full", "tokens_to_train": 1_000_000_000}


def _zh() -> dict[str, str]:
    root = ET.parse(REPO / "gui" / "i18n" / "planner_zh_CN.ts").getroot()
    return {m.findtext("source"): m.findtext("translation") for c in root.iter("context") if c.findtext("name") ==
            "engine" for m in c.iter("message") if m.find("translation").get("type") is None}


def test_the_checkpoint_formula_is_translated_and_its_english_text_kept():
    s = scenario_from_dict(FULL)
    size, formula = checkpoint_bytes(s)
    assert formula.template == FULL_CHECKPOINT
    # main @ b89e5b19 printed this English text (`fit --objective cost --json`): the contract is unchanged
    assert str(formula) == "8,030,261,248 weights x 2 B + 8,030,261,248 trained parameters x (4 B master + 8 B " \
                           "optimizer states)"
    report = rent_report(s, {"h100-sxm-80gb": 2.5})
    assert report["checkpoint_formula"] == str(formula)
    zh = _zh()
    text = render_rent(report, tr_engine=lambda t: zh.get(t) or t)
    line = next(x for x in text.splitlines() if x.startswith("One checkpoint"))
    assert "weights x" not in line and "trained parameters" not in line and "8,030,261,248 个权重" in line


def test_the_limits_in_the_heading_take_the_languages_comma():
    """`--lang zh_CN fit --objective cost --deadline-days 21 --budget 200000` read "（截止期限 21.0 d, 预算 200,000 USD）"
    with an ASCII comma between the limits (user audit 15): they are joined with the "cli" context's translated ", ",
    as serve_rent_report.py and fit_report.py join theirs."""
    root = ET.parse(REPO / "gui" / "i18n" / "planner_zh_CN.ts").getroot()
    cli = {m.findtext("source"): m.findtext("translation") for c in root.iter("context") if c.findtext("name") == "cli"
           for m in c.iter("message") if m.find("translation").get("type") is None}
    report = rent_report(scenario_from_dict(FULL), {"h100-sxm-80gb": 2.5}, budget=10**6, deadline_seconds=30 * 86400)
    heading = render_rent(report, tr=lambda t: cli.get(t) or t).splitlines()[0]
    assert cli[", "] == "，" and "，" + cli["budget {cost}"].split(" ")[0] in heading and ", " not in heading
