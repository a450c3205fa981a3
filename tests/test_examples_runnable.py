"""Every shipped example is a plan its framework can run: a user's first file must not open on a "cannot run"
warning. examples/qwen3-30b-a3b-8x-h100.json (the seed's ZeRO-3 + EP 8 MoE case) had no framework, so it fell to
the default, Hugging Face, which has no expert parallelism (engine/frameworks/parallelism.py, accelerate has no
expert axis), and the window opened on that warning; it now names torchtitan."""

from pathlib import Path

import pytest

from engine import load_scenario
from engine.scenario.framework_support import cannot_run

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.json"))


def test_examples_found():
    assert len(EXAMPLES) >= 9


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_in_its_framework(path: Path):
    scenario = load_scenario(str(path))
    assert cannot_run(scenario) == (), f"{path.name}: {scenario.framework} cannot run {cannot_run(scenario)}"
