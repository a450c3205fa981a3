"""The post-training "By phase" line in Chinese separates its phases with the full-width comma, not ASCII ", " inside
Chinese text (user audits 6 and 7). Run as a user would: `--lang zh_CN estimate` of the GRPO example."""

import subprocess
import sys

from conftest import REPO

EXAMPLE = REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json"


def test_the_chinese_phase_line_uses_the_chinese_comma() -> None:
    out = subprocess.run([sys.executable, "main.py", "--lang", "zh_CN", "estimate", str(EXAMPLE)], cwd=REPO,
                         capture_output=True, text=True, timeout=120).stdout
    line = next(text for text in out.splitlines() if text.startswith("按阶段"))
    assert "），打分" in line
    assert "）, " not in line
