"""estimate --json's serving.speed.terms: every term key the speed gives is named in docs/serving-model.md's
command-line section, and nothing is named there that it does not give (engine/serving/speed.py)."""

import re
from pathlib import Path

from engine.scenario import scenario_from_dict
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed

ROOT = Path(__file__).resolve().parent.parent


def test_the_speed_terms_are_documented() -> None:
    s = scenario_from_dict({"gpu": "h100-sxm-80gb", "workload": "inference", "model": "llama-3.1-8b",
                            "serving_engine": "vllm", "max_model_len": 4096})
    speed = serving_speed(s, serving_memory(s))
    keys = {t.key for t in (*speed.decode_terms, *speed.prefill_terms)}
    text = (ROOT / "docs" / "serving-model.md").read_text()
    listed = re.search(r"its `speed\.terms`, each with key, name,\s+seconds and formula: (.*?)\)", text, re.S)
    assert listed
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == keys
