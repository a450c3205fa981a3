"""Every benchmark under benchmarks/ still runs as the engine moves (h-benchhealth). The speed, memory and accuracy
targets are checked by benchmarks that print their figures, and nothing else ran them: a2a_dispatcher.py,
moe_layer_kernels.py and mxfp8_path.py crashed with a TypeError for a day and a half after expert_gemms started
returning layer_cost's keywords as a dict (b90164af), and te_attention_backend_host.py could not be imported (it read
sys.argv and put stand-ins for torch into sys.modules at module level).

One process of its own (tests/benchmark_runs.py) imports every benchmark, which must do no work on import (the work
sits under `if __name__ == "__main__"`), and runs the quick ones' main() on a small input (benchmark_runs.QUICK_MAINS:
about 6 s together on the shared 2-core build host, 9 s with the process's start). The benchmarks that run in an
environment of their own (benchmark_runs.OUTSIDE_ENVIRONMENT) are only compiled here, and started with the planner's
Python they must stop with one line saying so; the reason is the skip's."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmark_runs import OUTSIDE_ENVIRONMENT, QUICK_MAINS

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted((REPO / "benchmarks").glob("*.py"))
STEMS = [p.stem for p in BENCHMARKS]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("benchmark-runs")
    out = folder / "runs.json"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
           "LLM_MEMORY_PLANNER_HOME": str(folder / "planner-home"), "HF_HOME": str(folder / "hf"),
           "HF_HUB_CACHE": str(folder / "hf" / "hub"), "XDG_CACHE_HOME": str(folder / "cache")}
    done = subprocess.run([sys.executable, str(REPO / "tests" / "benchmark_runs.py"), str(out)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


def test_the_tables_name_benchmarks_that_exist():
    assert set(OUTSIDE_ENVIRONMENT) <= set(STEMS) and set(QUICK_MAINS) <= set(STEMS)
    assert not set(OUTSIDE_ENVIRONMENT) & set(QUICK_MAINS)


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.stem)
def test_every_benchmark_compiles(path: Path):
    compile(path.read_text(), str(path), "exec")


@pytest.mark.parametrize("stem", STEMS)
def test_benchmark_imports_without_running(runs: dict[str, dict], stem: str):
    """Importing does no work: nothing printed. A benchmark with a command line has main(); one without is a module
    of figures or stand-ins that another benchmark imports (checkpoint_host_gap.py into gpu_accuracy_report.py)."""
    if stem in OUTSIDE_ENVIRONMENT:
        pytest.skip(f"needs an environment of its own: {OUTSIDE_ENVIRONMENT[stem]}")
    entry = runs[stem]
    assert entry["imported"] == "", entry["imported"]
    assert entry["import_printed"] == 0
    if not entry["has_main"]:
        others = [p.read_text() for p in BENCHMARKS if p.stem != stem]
        assert any(stem in text for text in others), f"{stem}.py has no main() and no benchmark imports it"


@pytest.mark.parametrize("stem", sorted(QUICK_MAINS))
def test_quick_benchmark_prints_its_figures(runs: dict[str, dict], stem: str):
    """main() on its small input finishes without an exception and prints figures: a line after the first (a
    header, where there is one) with a number in it."""
    entry = runs[stem]
    assert entry["main"] == "", entry["main"]
    lines = [line for line in entry["printed"].splitlines() if line.strip()]
    assert any(any(c.isdigit() for c in line) for line in lines[1:]), entry["printed"]


@pytest.mark.parametrize("stem", sorted(OUTSIDE_ENVIRONMENT))
def test_outside_benchmark_says_in_one_sentence_where_it_runs(stem: str):
    """Started with the planner's Python, a benchmark of another environment stops at its first import with one line
    naming what it needs, not a traceback (where torch or tokenizers is installed it would go on and run: skipped)."""
    if importlib.util.find_spec("torch") or importlib.util.find_spec("tokenizers"):
        pytest.skip("torch or tokenizers is installed here: the benchmark would run")
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / f"{stem}.py")], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and "environment of its own" in done.stderr, done.stderr
