"""Style rule 1: the engine never imports Qt. Import it with PySide6 and pyqtgraph blocked."""

import subprocess
import sys

from conftest import REPO

BLOCKED = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'):
            raise ImportError('Qt is blocked in this test: ' + name)
        return None
sys.meta_path.insert(0, Blocker())
import engine, engine.cli, engine.planning.solver, engine.planning.fit_report
from engine import scenario_from_dict, estimate
est = estimate(scenario_from_dict({'model': 'llama-3-8b', 'gpu': 'rtx-4090', 'method': 'qlora'}))
assert est.peak_allocated_bytes > 0
assert not any(m.split('.')[0] in ('PySide6', 'pyqtgraph') for m in sys.modules)
print('ok')
"""


def test_engine_imports_and_runs_without_qt():
    result = subprocess.run([sys.executable, "-c", BLOCKED], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
