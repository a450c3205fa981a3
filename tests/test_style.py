"""Style rules that a test can hold: ruff clean, modules small."""

import ast
import subprocess
import sys
from pathlib import Path

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


def test_no_build_output_or_large_files_tracked():
    """Issue 21: build output (dist/, build/) is never committed, and no tracked file is over 5 MB."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True,
                             timeout=60).stdout.decode().split("\0")
    build_output = [p for p in tracked if p.split("/", 1)[0] in ("dist", "build")]
    large = [p for p in tracked if p and (REPO / p).is_file() and (REPO / p).stat().st_size > 5 * 1024 * 1024]
    assert build_output == [] and large == []


def _function_lengths(path: Path) -> dict[str, int]:
    """Longest length (def line to last line) per function name in one module."""
    lengths: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lengths[node.name] = max(lengths.get(node.name, 0), node.end_lineno - node.lineno + 1)
    return lengths


def test_functions_fit_one_screen():
    """Issue 21 item 5: no function in engine/ is over 80 lines (split by meaning: a component family, a config
    section, a rule group)."""
    lengths = {(path.relative_to(REPO).as_posix(), function): lines
               for path in (REPO / "engine").rglob("*.py") for function, lines in _function_lengths(path).items()}
    assert len(lengths) > 500  # the walk found the engine's functions, so the check below is not vacuous
    assert {key: n for key, n in lengths.items() if n > 80} == {}
