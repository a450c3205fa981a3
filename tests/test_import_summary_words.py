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


def test_a_value_a_merged_rule_changed_reads_as_the_value_it_became():
    """User audit 15: a TRL script's --bf16 beside a DeepSpeed config read "precision amp-bf16 <- run_dpo.sh: bf16"
    under Read and "precision mixed-bf16 (DeepSpeed trains 16-bit weights with fp32 master weights ...)" under
    Assumed, two values for one setting. The read row now gives the value the scenario holds, the rule stays under
    Assumed (engine/configs/deepspeed_merged.py)."""
    from engine.configs import import_texts

    ds = '{"bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 3}}'
    script = ("accelerate launch --num_processes 4 trl/scripts/dpo.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct "
              "--per_device_train_batch_size 2 --max_length 1536 --bf16 --deepspeed ds.json")
    result = import_texts([("ds.json", ds), ("run_dpo.sh", script)])
    read = [m for m in result.mapped if m.key == "precision"]
    assert result.scenario["precision"] == "mixed-bf16"
    assert read and all(m.value == "mixed-bf16" for m in read) and read[0].source.endswith("bf16")
    assert [a.value for a in result.assumed if a.key == "precision"] == ["mixed-bf16"]
