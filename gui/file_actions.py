"""File, export and help actions of the main window (kept apart so the window stays small)."""

from __future__ import annotations

import json
import platform
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, qVersion
from PySide6.QtWidgets import QMessageBox

from engine import PlannerError, Scenario, ScenarioError, load_scenario, scenario_from_dict
from engine.configs import detect
from engine.configs.reading import read_text
from engine.messages import one_line
from engine.report import to_csv, to_markdown

from .config_actions import import_training_config
from .dialogs import CustomGpu, FileChoice, ImportedConfig, ModelFolder, SaveChanges
from .i18n import shown_safely, tr_engine, tr_error
from .plan_card import step_time_or_none, write_card_pdf, write_card_png
from .report_export import write_comparison_pdf
from .settings_store import atomic_write
from .widgets import message_text
from .window_api import PlannerWindow

JSON_FILTER = "Scenario (*.json)"
OPEN_FILTER = "Scenario or plan card (*.json *.pdf *.png)"
CARD_SUFFIXES = (".pdf", ".png")  # plan cards: they carry their scenario
# The first start: examples/llama3-8b-lora-4090.json's settings, which the README shows fitting (a test holds them equal)
DEFAULT_SCENARIO = {
    "name": "Llama-3-8B LoRA on RTX 4090",
    "model": "llama-3-8b",
    "gpu": "rtx-4090",
    "method": "lora",
    "precision": "bf16",
    "optimizer": "auto",  # the AdamW the framework builds: follows the framework chosen in the window
    "lora_rank": 16,
    "lora_targets": "all-linear",
    "micro_batch": 1,
    "seq_len": 2048,
    "checkpointing": "full",
    "attention": "flash",
}


def default_scenario() -> Scenario:
    """DEFAULT_SCENARIO; where presets/ has lost its model or its GPU (models/llama-3-8b.json or its gpus.json entry
    damaged: a ScenarioError stopped the window from starting), the same plan on the first model and GPU presets that
    read, so the window starts and its status bar names the damaged file. No GPU preset at all: the error stands."""
    try:
        return scenario_from_dict(DEFAULT_SCENARIO)
    except ScenarioError as exc:
        if exc.key not in ("model", "gpu"):
            raise
        first_error = exc
    from engine.models.presets import gpu_presets, model_presets

    for model in [DEFAULT_SCENARIO["model"], *model_presets()]:
        for gpu in [DEFAULT_SCENARIO["gpu"], *gpu_presets()]:
            try:
                return scenario_from_dict({**DEFAULT_SCENARIO, "model": model, "gpu": gpu})
            except ScenarioError:
                continue
    raise first_error


def confirm_discard(win: PlannerWindow) -> bool:
    if not win.state.is_dirty():
        return True
    answer = SaveChanges.ask(win, win.state.scenario.name).choice
    if answer == "save":
        return save(win)
    return answer == "discard"


def new_scenario(win: PlannerWindow) -> bool:
    if not confirm_discard(win):
        return False
    win.state.load(default_scenario())
    win.library_version = None
    return True


def open_file(win: PlannerWindow, path: str | None = None) -> bool:
    """A scenario file or a plan card (its embedded scenario); a file that is neither is refused in one sentence."""
    if path is None:
        if not confirm_discard(win):
            return False
        choice = FileChoice.ask_open(win, QCoreApplication.translate("Actions", "Open a scenario"), OPEN_FILTER)
        if choice is None:
            return False
        path = choice.path
    try:
        scenario = load_scenario(path)
    except PlannerError as exc:
        config_format = training_config_format(path)
        if config_format is not None:  # a training config opened as a scenario: offer what the user meant
            return offer_import(win, path, config_format)
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot open this scenario"),
                            message_text(tr_error(exc)))
        return False
    win.state.load(scenario, file_path=path)
    return True


CONFIG_NAMES = {"huggingface": "Hugging Face TrainingArguments", "deepspeed": "DeepSpeed", "accelerate": "accelerate",
                "torchtune": "torchtune", "axolotl": "axolotl", "llama-factory": "LLaMA-Factory",
                "ms-swift": "ms-swift", "torchtitan": "torchtitan", "megatron": "Megatron-LM", "verl": "verl",
                "trl": "TRL", "openrlhf": "OpenRLHF"}


def training_config_format(path: str) -> str | None:
    """The training-config format a file is in (read capped, as an import reads it), or None."""
    try:
        name, text = read_text(path)
        return detect(name, text)[0]
    except PlannerError:
        return None


def offer_import(win: PlannerWindow, path: str, config_format: str) -> bool:
    answer = QMessageBox.question(win, QCoreApplication.translate("Actions", "Import a training config?"),
                                  message_text(QCoreApplication.translate(
                                      "Actions", "%1 is a %2 training config, not a scenario. Import its settings "
                                      "into the current set-up?").replace("%1", shown_safely(Path(path).name))
                                  .replace("%2", CONFIG_NAMES.get(config_format, config_format))))
    if answer != QMessageBox.StandardButton.Yes:
        return False
    return import_training_config(win, [path])


def write_json(path: str, data: dict) -> None:
    """Atomic (the library's own writer): a crash mid-write leaves the previous file intact."""
    atomic_write(Path(path), (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def save(win: PlannerWindow) -> bool:
    if win.library_save is not None:
        return win.library_save()
    if not win.state.file_path:
        return save_as(win)
    if not write_or_explain(win, win.state.file_path):
        return False
    win.state.mark_saved()
    return True


def write_or_explain(win: PlannerWindow, path: str) -> bool:
    """Write the scenario to `path`; on failure a dialog says why and the edits stay unsaved (the * stays)."""
    try:
        write_json(path, win.state.scenario.to_dict())
    except OSError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot save"), message_text(
            QCoreApplication.translate("Actions", "%1 could not be written (%2); nothing was changed on disk.")
            .replace("%1", str(path)).replace("%2", exc.strerror or str(exc))))
        return False
    return True


def save_as(win: PlannerWindow) -> bool:
    name = win.state.scenario.name.replace("/", "-") + ".json"
    choice = FileChoice.ask_save(win, QCoreApplication.translate("Actions", "Save scenario as"), JSON_FILTER, name)
    if choice is None:
        return False
    if not write_or_explain(win, choice.path):
        return False
    win.state.file_path = choice.path
    win.state.mark_saved()
    return True


def import_config(win: PlannerWindow) -> None:
    imported = ImportedConfig.ask(win)
    if imported is not None:
        win.catalog.add_model(imported.name, imported.hf_config)  # stays in the picker under "Your models"
        win.model_picker.refresh()
        win.state.edit(
            {"model": {"name": imported.name, "hf_config": imported.hf_config}},
            QCoreApplication.translate("Actions", "Import %s") % imported.name,
        )


def custom_gpu(win: PlannerWindow) -> None:
    gpu = CustomGpu.ask(win, win.state.unit)
    if gpu is not None:
        win.catalog.add_gpu(gpu.name, gpu.memory_bytes)  # stays in the picker under "Your GPUs"
        win.hardware_picker.refresh()
        win.state.edit(
            {"gpu": {"name": gpu.name, "memory_bytes": gpu.memory_bytes, **dict(gpu.speed)}},
            QCoreApplication.translate("Actions", "Custom GPU"),
        )


def add_model_folder(win: PlannerWindow) -> None:
    folder = ModelFolder.ask(win)
    if folder is not None:
        win.catalog.add_model_folder(folder.path)
        win.model_picker.rescan()


COMPARISON = "comparison-"  # the kinds of the comparison's own exports: comparison-png, -pdf, -md, -csv


def can_export_comparison(win: PlannerWindow) -> bool:
    return len(win.compare.items) >= 2


def export(win: PlannerWindow, kind: str) -> None:
    filters = {"png": "Plan card, PNG image (*.png)", "pdf": "Plan card, PDF (*.pdf)", "md": "Markdown (*.md)",
               "csv": "CSV (*.csv)", COMPARISON + "png": "Comparison, PNG image (*.png)",
               COMPARISON + "pdf": "Comparison, PDF (*.pdf)", COMPARISON + "md": "Markdown (*.md)",
               COMPARISON + "csv": "CSV (*.csv)"}
    suffix = kind.removeprefix(COMPARISON)
    name = QCoreApplication.translate("Actions", "Comparison") if kind != suffix else win.state.scenario.name
    suggested = f"{name}.{suffix}".replace("/", "-")
    choice = FileChoice.ask_save(win, QCoreApplication.translate("Actions", "Export"), filters[kind], suggested)
    if choice is not None:
        export_to(win, kind, choice.path)


def export_to(win: PlannerWindow, kind: str, path: str) -> None:
    """Export the current scenario (png, pdf: its plan card; md; csv), or with a kind "comparison-png" (-pdf, -md,
    -csv) the Compare tab's comparison. The plan card was the comparison whenever the Compare tab was open, and every
    Apply opens it (before / after): "Plan card (PDF)" after applying a rent plan gave a manager two panes headed
    "Before" and "(live: follows the editor)", not the plan (user audit 13)."""
    if kind.startswith(COMPARISON):
        export_comparison(win, kind.removeprefix(COMPARISON), path)
        win.status.showMessage(QCoreApplication.translate("Actions", "Exported %s") % path, 5000)
        return
    s, est, unit = win.state.scenario, win.state.estimate, win.state.unit
    if kind == "png":
        write_card_png(win, path)
    elif kind == "md":
        step = step_time_or_none(s) if est.serving is None else None  # the card's time and cost, in the text too
        Path(path).write_text(to_markdown(s, est, unit, _tr_report, tr_engine, step, _tr_fields), encoding="utf-8")
    elif kind == "csv":
        Path(path).write_text(to_csv(est), encoding="utf-8")
    elif kind == "pdf":
        write_pdf(win, path)
    win.status.showMessage(QCoreApplication.translate("Actions", "Exported %s") % path, 5000)


def comparison_rows(win: PlannerWindow) -> list[list[str]]:
    table = win.compare.table
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    rows = [[table.item(r, c).text() if table.item(r, c) else "" for c in range(table.columnCount())]
            for r in range(table.rowCount())]
    return [header, *rows]


def export_comparison(win: PlannerWindow, kind: str, path: str) -> None:
    """The panes as shown (PNG, PDF) or the table of differences (Markdown, CSV)."""
    rows = comparison_rows(win)
    if kind == "png":
        win.compare.grab().save(path)
    elif kind == "csv":
        import csv
        import io

        buffer = io.StringIO()
        csv.writer(buffer).writerows(rows)
        Path(path).write_text(buffer.getvalue(), encoding="utf-8")
    elif kind == "md":
        # a cell's own "|" escaped, as the scenario's Markdown does (engine/report.py): a Megatron layout
        # "Ett|(tt|)*62L" or a name with a bar split the row into extra columns (user audit 11)
        cells = [[one_line(c).replace("|", "\\|") for c in r] for r in rows]
        lines = ["# " + QCoreApplication.translate("Actions", "Comparison"), "",
                 "| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
        lines += ["| " + " | ".join(r) + " |" for r in cells[1:]]
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif kind == "pdf":
        write_comparison_pdf(win, path, rows)


def _tr_report(text: str) -> str:
    return QCoreApplication.translate("report", text)


def _tr_fields(text: str) -> str:  # the set-up's words (the Markdown's inputs, as the form labels them)
    return QCoreApplication.translate("Fields", text)


def write_pdf(win: PlannerWindow, path: str) -> None:
    """The plan card: one page a manager reads, the scenario inside (the Markdown export has every detail)."""
    write_card_pdf(win, path)


def show_formulas(win: PlannerWindow) -> None:
    QMessageBox.information(win, QCoreApplication.translate("Actions", "How the numbers are computed"),
                            QCoreApplication.translate("Actions", FORMULAS_HTML))


def about_text() -> str:
    from .version import version

    return QCoreApplication.translate(
        "Actions",
        "<b>LLM Memory Planner</b> %(version)s<br>Will this training run fit on my GPUs, and if not, what do I "
        "change?<br>Numbers are checked against traced training steps; see docs/accuracy.md.<br>"
        "Python %(python)s · Qt %(qt)s") % {"version": version(), "python": platform.python_version(),
                                          "qt": qVersion()}


def show_about(win: PlannerWindow) -> None:
    QMessageBox.about(win, QCoreApplication.translate("Actions", "About LLM Memory Planner"), about_text())


FORMULAS_HTML = QT_TRANSLATE_NOOP("Actions", """
<h3>Per GPU, at each moment of a training step</h3>
<p><b>Model states</b>: weights, gradients, fp32 master copy and optimizer states, each
parameters &times; bytes of its dtype, divided by ZeRO/FSDP, TP, PP and EP shards.
AdamW keeps 2 states; 8-bit AdamW 2 bytes; SGD with momentum 1 state.</p>
<p><b>Activations</b>: for every decoder layer, the tensors autograd saves for backward
(RMSNorm fp32 inputs, Q/K/V, attention output, SwiGLU intermediates, linear inputs
when their weights train, bf16 weight copies under autocast), times micro-batches in flight.
Eager attention adds the b&middot;a&middot;s&sup2; probabilities; checkpointing keeps only layer inputs and
recomputes one layer in backward.</p>
<p><b>Logits</b>: b&middot;s&middot;V in the compute dtype plus the loss's fp32 copies (the spike at the
start of backward is three fp32 b&middot;s&middot;V tensors).</p>
<p><b>Phases</b>: forward, backward and optimizer step are summed separately; the peak is the largest.
Foreach AdamW needs one state-sized temporary in the step.</p>
<p><b>On top</b>: CUDA context (0.75 GiB), allocator gaps (cached remainders of the loss's b&middot;s&middot;V tensors)
and the safety reserve (the seeds' table: 10%, 15% beyond 8K tokens).</p>
<p>Hover any slice, bar or table row to see its formula and inputs.</p>
<h3>Beyond the memory of one training step</h3>
<p><b>Post-training</b> (an objective other than supervised fine-tuning): one bar per phase (generation,
scoring, training, weight sync); the largest phase is the estimate.
<b>Serve mode</b>: the inference engine's own start-up accounting per GPU (weights as deployed, KV cache,
the profile run's activations, CUDA graphs) and how many users at which context fit.
<b>Time and cost</b>: the step's time split into its terms (matmuls and attention, memory-bound operations,
recomputation, communication not hidden behind compute, pipeline bubble, offload, optimizer step, waiting for
the host); tokens/s, MFU, time to train and cost follow from it.</p>
""")
