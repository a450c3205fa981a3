"""Every visible string of the window, the comparison view and the dialogs has a Chinese translation.

The test builds the same window in English and in zh_CN, walks the widgets in the same order and
fails on any text that is still identical although it contains English words. Proper names from the
preset data (models, GPUs), numbers, units and engineers' technical terms are allowed to stay.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTabWidget,
    QTreeWidget,
    QWidget,
)

from engine import DEFAULTS, gpu_presets, model_presets, scenario_from_dict
from engine.scenario import KEY_SPECS
from gui.app import build_window
from gui.compare_view import Compared
from gui.dialogs import CustomGpu
from gui.i18n import install_language, tr_engine, tr_message

TECHNICAL = {
    "lora", "qlora", "zero", "fsdp", "adamw", "sgd", "adafactor", "sdpa", "flashattention", "tp", "pp", "ep", "cp",
    "bf16", "fp16", "fp32", "fp8", "nf4", "gb", "gib", "mib", "mb", "cuda", "nccl", "ddp", "pcie", "nvlink", "gpu",
    "gpus", "cpu", "amp", "deepspeed", "pytorch", "json", "config", "hugging", "face", "seed", "per", "op", "k",
    "factor", "alpha", "detailed", "llm", "int8", "int4", "bitsandbytes", "nvidia", "smi", "moe", "kv", "b", "s",
    "h", "a", "v", "x", "r", "q", "o", "proj", "lm", "head", "rtx", "ffn", "swiglu", "rmsnorm", "mlp", "rope", "id",
    "ids", "png", "pdf", "csv", "md", "markdown", "llama", "qwen", "mistral", "mixtral", "gemma", "phi", "olmoe",
    "deepseek", "tinyllama", "h100", "h200", "a100", "mi300x", "sxm",
    # training frameworks and libraries (proper names)
    "torchtune", "torchtitan", "megatron", "nemo", "unsloth", "litgpt", "liger", "trl", "axolotl",
    "llama-factory", "torch.compile", "torch", "compile",
    # inference engines and their formats (proper names)
    "vllm", "sglang", "ollama", "mlx", "apple", "gguf", "awq", "gptq", "cpp",
}
# Proper names from the preset data, scenario-file keys, module names and language endonyms stay as they are.
DATA_NAMES = {p.name for p in model_presets().values()} | {g.name for g in gpu_presets().values()} | {"English"}
TECHNICAL |= set(DEFAULTS)
TECHNICAL |= {code.lower() for code in KEY_SPECS["currency"].check.choices()}  # ISO 4217: the same in any language
WORD = re.compile(r"[A-Za-z][A-Za-z_']+")


def needs_translation(text: str) -> bool:
    plain = re.sub(r"<[^>]+>", " ", text).replace("&", "")
    for name in sorted(DATA_NAMES, key=len, reverse=True):  # longest first: "RTX 4070 Ti SUPER" before "RTX 4070 Ti"
        plain = plain.replace(name, " ")
    words = [w.lower().strip("'-") for w in WORD.findall(plain)]
    return any(w not in TECHNICAL and not w.endswith("_proj") for w in words if len(w) > 1)


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every user-visible string, in widget-tree order."""
    out: list[tuple[str, str]] = []
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        where = type(w).__name__
        if isinstance(w, QLabel):
            out.append((where, w.text()))
        elif isinstance(w, QAbstractButton):
            out.append((where, w.text()))
        elif isinstance(w, QGroupBox):
            out.append((where, w.title()))
        elif isinstance(w, QLineEdit):
            out.append((where, w.placeholderText()))
        if isinstance(w, QTabWidget):
            out += [(where, w.tabText(i)) for i in range(w.count())]
        if isinstance(w, QComboBox) and not w.isEditable():
            out += [(where, w.itemText(i)) for i in range(w.count())]
        if isinstance(w, QTableWidget):
            out += [(where, w.horizontalHeaderItem(i).text()) for i in range(w.columnCount())
                    if w.horizontalHeaderItem(i)]
            out += [(where + " cell", w.item(r, 0).text()) for r in range(w.rowCount()) if w.item(r, 0)]
        if isinstance(w, QTreeWidget):
            out += [(where, w.headerItem().text(i)) for i in range(w.columnCount())]
        if w.toolTip():
            out.append((where + " tooltip", w.toolTip()))
    if hasattr(root, "menuBar"):  # walk the menus from the bar (an overflow menu depends on text widths)
        stack = list(root.menuBar().actions())
        while stack:
            action = stack.pop(0)
            out.append(("menu", action.text()))
            if action.menu():
                stack[:0] = action.menu().actions()
    return out


def build(language: str, qtbot) -> list[tuple[str, str]]:
    app = QApplication.instance()
    assert install_language(app, language, require_font=False) == language
    win, _ = build_window(None, theme="light")
    qtbot.addWidget(win)
    full = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "precision": "bf16", "name": "x"})
    win.state.load(full)  # does not fit: suggestions, warnings and plans all have something to say
    win.suggestions.refresh()
    win.compare.set_items([Compared("a", full), Compared("b", full.replace(method="lora")),
                           Compared("c", full.replace(method="qlora"))])
    win.setup_panel.advanced.set_expanded(True)
    dialog, _, _ = CustomGpu.build(win)
    texts = visible_texts(win) + visible_texts(dialog)
    win.state.edit({"tp": 3})  # an invalid edit: its inline message must be translated too
    texts.append(("error", win.setup_panel.error.text()))
    return texts


@pytest.fixture
def english_after():
    yield
    install_language(QApplication.instance(), "en")


def test_every_visible_string_is_translated(qtbot, english_after):
    english = build("en", qtbot)
    chinese = build("zh_CN", qtbot)
    assert len(english) == len(chinese), "the two windows must have the same widgets"
    missing = [(where, en) for (where, en), (_, zh) in zip(english, chinese, strict=True)
               if en and en == zh and needs_translation(en)]
    assert not missing, "untranslated: " + "; ".join(f"{w}: {t!r}" for w, t in missing[:15])
    assert sum(1 for _, text in chinese if re.search(r"[\u4e00-\u9fff]", text)) > 100


def test_engine_text_is_translated(english_after):
    install_language(QApplication.instance(), "zh_CN", require_font=False)
    assert tr_engine("Activations (decoder layers)") != "Activations (decoder layers)"
    from engine import ScenarioError
    from gui.i18n import tr_error

    try:
        scenario_from_dict({"model": "llama-3-8b", "micro_batch": -1})
    except ScenarioError as exc:
        text = tr_error(exc)
    assert not text.startswith("micro_batch") and re.search(r"[\u4e00-\u9fff]", text) and "-1" in text
    from engine.planning.suggest import suggestions

    title = next(sug.title for sug in suggestions(scenario_from_dict(
        {"model": "llama-3-8b", "gpu": "rtx-4090", "micro_batch": 4})) if "micro_batch" in sug.changes)
    assert re.search(r"[\u4e00-\u9fff]", tr_message(title)) and "2" in tr_message(title)
    from engine.planning.solver import plans

    for plan in plans(scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "gpus_per_node": 4})):
        for text in [*(tr_message(m) for m in plan.steps), *(tr_message(m) for m in plan.notes)]:
            assert re.search(r"[\u4e00-\u9fff]", text), text


def test_language_switch_keeps_the_scenario_and_history(qtbot, english_after, monkeypatch):
    from gui import i18n
    from gui.app import switch_language

    monkeypatch.setattr(i18n, "cjk_font_available", lambda: True)  # CI machines may have no Chinese font

    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.setup_panel.micro_batch.spin.setValue(4)
    history = win.state.undo_stack.count()
    new = switch_language(win, "zh_CN")
    qtbot.addWidget(new)
    assert new.state.scenario.micro_batch == 4
    assert new.state.undo_stack.count() == history
    assert re.search(r"[\u4e00-\u9fff]", new.menuBar().actions()[0].text())
    new.setup_panel.micro_batch.spin.setValue(8)  # the new window drives the same state
    assert new.state.scenario.micro_batch == 8
    assert new.settings.values.language == "zh_CN"
    back = switch_language(new, "en")
    qtbot.addWidget(back)
    assert back.menuBar().actions()[0].text() == "&File"


def test_without_a_chinese_font_the_window_stays_legible(qtbot, english_after, monkeypatch):
    from gui import i18n
    from gui.app import switch_language

    monkeypatch.setattr(i18n, "cjk_font_available", lambda: False)
    win, _ = build_window(None)
    qtbot.addWidget(win)
    new = switch_language(win, "zh_CN")
    qtbot.addWidget(new)
    assert new.menuBar().actions()[0].text() == "&File"
    assert "font" in new.status.currentMessage()


def test_exported_report_is_translated(english_after):
    from engine.report import to_markdown
    from gui.file_actions import _tr_report

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16"})
    from engine import estimate

    text = to_markdown(s, estimate(s), "GiB", _tr_report, tr_engine)
    assert "## 输入" in text and "## 假设" in text and "冻结权重" in text
    english = to_markdown(s, estimate(s))
    assert "## Inputs" in english and "Frozen weights" in english


def test_local_model_notes_are_translated(qtbot, english_after):
    """gui/local_models.py's sentences reached the .ts in an empty context (lupdate cannot tell a module-level
    tr() from a class's), so the window looked them up in "LocalModels" and showed them in English."""
    from engine.models.local import CheckpointSummary
    from gui.local_models import checkpoint_note

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    summaries = [CheckpointSummary(files=2, params=1000, stored_bytes=2000, dtypes={"BF16": 1000}, files_found=2),
                 CheckpointSummary(files=3, params=0, stored_bytes=0, files_found=4), None]
    for summary in summaries:
        note = checkpoint_note(summary, 1000)
        assert re.search(r"[\u4e00-\u9fff]", note) and not needs_translation(re.sub(r"\.safetensors|BF16", "", note)), note


def test_an_unknown_preset_is_said_in_chinese(qtbot, english_after, tmp_path):
    """An unknown model id in a scenario file read "未知的 model 预设 'x'. Run 'python main.py presets models' for the
    list." at best, and whole English once wrapped by the scenario key (ScenarioError("model", str(exc))) and the file
    (its error flattened to English text): each now carries its own template down to the window's tr_error."""
    from engine import PlannerError, load_scenario
    from gui.i18n import tr_error

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    for model, gpu in (("llama-3-8x", "h100-sxm-80gb"), ("llama", "h100-sxm-80gb"), ("llama-3-8b", "h100-sxm")):
        path = tmp_path / "unknown.json"
        path.write_text(f'{{"schema_version": 1, "model": "{model}", "gpu": "{gpu}"}}')
        with pytest.raises(PlannerError) as caught:
            load_scenario(path)
        text = tr_error(caught.value)
        assert "预设" in text and not re.search(r"Unknown|Run |Did you|for the list", text), text
        assert "unknown.json" in text and (model if gpu == "h100-sxm-80gb" else gpu) in text


def test_the_time_bands_regime_is_said_in_chinese_on_hover(qtbot, english_after):
    """The Time tab's hover over the likely range read "已发表运行中…（all：1619 个…）": the regime of every
    framework's runs (engine/timing/bands.py ALL) is now a word the window translates; a framework's name stays."""
    from conftest import REPO

    install_language(QApplication.instance(), "zh_CN", require_font=False)
    win, error = build_window(str(REPO / "examples" / "dpo-llama3-8b-lora-trl.json"), restore=False)
    qtbot.addWidget(win)
    tip = win.time_panel.summary.toolTip()
    assert error is None and "全部" in tip and "all" not in tip, tip
