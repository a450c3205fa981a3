"""An import's summary counts its files in words, on the command line and in the window's review (user audit 7:
"Read 1 file(s): axolotl"). The file counts are the formats the importer recognised (engine/configs)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel

from engine.configs import import_files
from engine.configs.review import render_import
from gui import import_review

DATA = Path(__file__).parent / "data" / "configs"
ONE = [DATA / "axolotl" / "llama-3_lora-8b.yml"]
TWO = [DATA / "axolotl" / "mistral_bigstral-ds-zero3.yaml", DATA / "deepspeed" / "accelerate_zero_stage3_config.json"]


def test_the_command_line_says_one_file_or_n_files() -> None:
    assert render_import(import_files(ONE)).splitlines()[0] == "Read one file: axolotl"
    assert render_import(import_files(TWO)).splitlines()[0] == "Read 2 files: axolotl, deepspeed"


def test_the_review_says_one_file_or_n_files(qtbot) -> None:
    for files, start in ((ONE, "Read one file (axolotl): "), (TWO, "Read 2 files (axolotl, deepspeed): ")):
        result = import_files(files)
        dialog = import_review.ImportReview.build(None, result, "llama-3-8b")
        qtbot.addWidget(dialog)
        texts = [label.text() for label in dialog.findChildren(QLabel)]
        assert any(text.startswith(start) and "file(s)" not in text for text in texts)
