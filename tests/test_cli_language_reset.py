"""`main.py --lang zh_CN COMMAND` installs the Chinese catalogue for that command only (gui/launch.py
drop_cli_translator): run in one process, as the fuzz suites and tests run many commands, the next command without
--lang answers in English. Before, the translator stayed installed and a later test read Chinese where it asserted
the English sentence (tests/test_preset_shapes_damaged.py after tests/fuzz_surfaces11.py's --lang cases)."""

from __future__ import annotations

import contextlib
import io

from gui.launch import main


def _stderr_of(argv: list[str]) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
    return err.getvalue()


def test_a_chinese_command_leaves_the_next_one_english(tmp_path):
    missing = str(tmp_path / "missing.json")
    chinese = _stderr_of(["--lang", "zh_CN", "estimate", missing])
    english = _stderr_of(["estimate", missing])
    assert "错误" in chinese  # the catalogue was installed for the first command (gui/i18n/planner_zh_CN.qm)
    assert english.startswith("error:") and "错误" not in english
