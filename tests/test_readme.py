"""What README.md states about the product is checked against the product: preset counts and the command-line
example's output (the accuracy headline has its own tests in test_accuracy.py and test_gpu_measured.py)."""

import re
import subprocess
import sys
from pathlib import Path

from engine import model_presets
from engine.models.presets import gpu_presets

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_preset_counts_are_those_shipped():
    flat = " ".join(README.split())
    assert re.search(rf"\b{len(model_presets())} real architectures\b", flat)
    assert re.search(rf"\b{len(gpu_presets())} cards\b", flat)


def test_command_line_example_is_the_real_output():
    block = README.split("<!-- cli-example")[1].split("```\n")[1]
    command, *shown = block.rstrip("\n").splitlines()
    args = command.removeprefix("$ .venv/bin/python ").split()
    result = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert result.returncode == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == shown


def test_famous_runs_counts_are_the_ones_the_tests_hold():
    """README's famous-runs counts are the runs tests/test_famous_runs.py holds within 10% (the first plan, and the
    like-for-like one for the 2021 runs added to them)."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_famous_runs import LIKE_FOR_LIKE_WITHIN_10_PERCENT, WITHIN_10_PERCENT

    text = " ".join(README.split())
    found = re.search(r"within 10% for (\d+) of 16, and for (\d+) of 16 when the 2021 runs", text)
    assert found, "README's famous-runs sentence changed"
    assert int(found.group(1)) == len(WITHIN_10_PERCENT)
    assert int(found.group(2)) == len(WITHIN_10_PERCENT) + len(LIKE_FOR_LIKE_WITHIN_10_PERCENT)
