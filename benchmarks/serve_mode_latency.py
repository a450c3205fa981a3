"""Serve mode: edit -> recomputed and repainted latency (median, p95) with the users-vs-context chart on screen, and
the engine work behind it: the users curve and the priced suggestions of one inference scenario (median of 7).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/serve_mode_latency.py
Target (issue 4's, for every edit): p95 <= 30 ms per edit.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SCENARIOS = {
    "vLLM, Qwen3-32B AWQ, 2 x 4090": "examples/serve-qwen3-32b-awq-2x4090.json",
    "llama.cpp, Llama-3.1-8B Q4_K_M, 4090": "examples/serve-llama3.1-8b-q4km-llamacpp.json",
}


def _median_ms(run, scenarios: list) -> float:  # noqa: ANN001 - a callable
    """Median over scenarios not seen before (the engine memoizes what it has computed)."""
    times = []
    for s in scenarios:
        start = time.perf_counter()
        run(s)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def engine_work() -> None:
    from engine import load_scenario
    from engine.planning.suggest import suggestions
    from engine.serving.users_curve import users_vs_context

    for name, path in SCENARIOS.items():
        s = load_scenario(str(REPO / path))
        fresh = [s.replace(n_ctx=s.n_ctx + 256 * k, max_model_len=(s.max_model_len or 8192) - 16 * k)
                 for k in range(1, 15)]
        print(f"{name}: users curve {_median_ms(users_vs_context, fresh[:7]):.1f} ms, "
              f"suggestions {_median_ms(suggestions, fresh[7:]):.1f} ms (median of 7 new scenarios)")


def edit_latency(path: str, n: int = 120) -> list[float]:
    from PySide6.QtWidgets import QApplication

    from gui.app import build_window, show_tab

    app = QApplication.instance() or QApplication([])
    win, _ = build_window(str(REPO / path))
    win.show()
    show_tab(win, "users")
    app.processEvents()
    panel = win.serving_panel
    contexts = (4096, 8192, 16384, 32768)
    times = []
    for i in range(n):
        start = time.perf_counter()
        panel.context.spin.setValue(contexts[i % len(contexts)] + i)  # a new scenario each time: nothing cached
        app.processEvents()
        times.append(time.perf_counter() - start)
    win.state.mark_saved()  # closing a window with unsaved edits would ask whether to save them
    win.close()
    return times


def main() -> int:
    engine_work()
    for name, path in SCENARIOS.items():
        times = sorted(edit_latency(path))
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{name}: edit with the users chart on screen, median {statistics.median(times) * 1e3:.1f} ms, "
              f"p95 {p95 * 1e3:.1f} ms over {len(times)} edits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
