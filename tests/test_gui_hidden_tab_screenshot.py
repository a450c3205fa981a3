"""A CTO's `--screenshot ... --tab rent` of a served model (user audit 11) drew the training rent panel, with its GPU
price table, under a tab bar where no tab was selected: Serve mode hides What should I rent?, so the picture showed a
panel no one can reach. show_tab opens only a tab the scenario's mode shows, and the screenshot says so otherwise.
Serve mode now has its own What should I rent? (gui/serve_rent_panel.py): --tab rent opens that one; Make it fit
stays training's."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

from gui.app import show_tab
from tests.window_helpers import window_from

SERVE_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "tp": 4, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192}


def test_a_hidden_tab_is_not_opened(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, SERVE_70B)
    assert not show_tab(win, "fit") and win.tabs.currentWidget() is not win.fit_panel
    assert show_tab(win, "rent") and win.tabs.currentWidget() is win.serve_rent_panel
    assert show_tab(win, "users") and win.tabs.currentWidget() is win.users_chart


def test_the_screenshot_says_which_tab_it_could_not_show(tmp_path):
    import json

    path = tmp_path / "serve.json"
    path.write_text(json.dumps(SERVE_70B))
    out = subprocess.run([sys.executable, "main.py", "--screenshot", str(tmp_path / "w.png"), str(path), "--tab",
                          "fit", "--size", "1280x720"], cwd=REPO, capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen",
                              "LLM_MEMORY_PLANNER_HOME": str(tmp_path / "home")})
    assert out.returncode == 0 and (tmp_path / "w.png").is_file()
    assert "the fit tab is not shown for this scenario's mode (inference)" in out.stderr
