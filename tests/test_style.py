"""Style rules that a test can hold: ruff clean, modules small."""

import subprocess
import sys

from conftest import REPO


def test_ruff_clean():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]


def test_modules_stay_small():
    """Style rule 7: modules under ~400 lines (a little slack for a docstring)."""
    sizes = {p.relative_to(REPO).as_posix(): len(p.read_text().splitlines())
             for folder in ("engine", "gui") for p in (REPO / folder).rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 420} == {}
