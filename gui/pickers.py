"""Model and hardware pickers: searchable, grouped, with the facts people choose by."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import ModelSpec, Scenario, gpu_presets, kv_cache_bytes, model_presets, resolve_model
from engine.scenario import CustomGpu, CustomModel
from engine.units import format_bytes, format_count, format_gpu_count

from .local_models import SAVED_GPU_PREFIX, BackgroundScan, LocalModels
from .node_link_row import node_link_text, node_link_tip
from .state import AppState
from .user_catalog import UserCatalog
from .widgets import show_value

ID_ROLE = Qt.ItemDataRole.UserRole
KEYWORDS_ROLE = Qt.ItemDataRole.UserRole + 1  # extra words a row is found by ("moe" for a mixture of experts)


def _words(text: str) -> str:
    """Lower case with separators as spaces, so "qwen3-30b-a3b", "Qwen3 30B-A3B" and "qwen3 30b" meet."""
    return " ".join(text.lower().replace("-", " ").replace("_", " ").replace("·", " ").split())


def _preset_name(presets: dict, preset_id: str) -> str:
    """The name shown in the tree (undo entries use it), the id for anything not a preset."""
    preset = presets.get(preset_id)
    return preset.name if preset is not None else preset_id


class SearchableTree(QWidget):
    """A filter box over a two-level tree (group -> item); emits chosen(item id).

    The list starts folded (small screens: the set-up's common controls must show without scrolling); typing a search
    or pressing the arrow beside the box opens it."""

    chosen = Signal(str)
    listShown = Signal(bool)

    def __init__(self, headers: Sequence[str], placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText(placeholder)
        self.search.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(list(headers))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(headers)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.list_toggle = QToolButton()
        self.list_toggle.setCheckable(True)
        self.list_toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.list_toggle.setToolTip(self.tr("Show or hide the whole list"))
        self.list_toggle.setAccessibleName(self.tr("Show the list"))
        self.list_toggle.toggled.connect(self.show_list)
        search_row = QHBoxLayout()
        search_row.addWidget(self.search, 1)
        search_row.addWidget(self.list_toggle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(search_row)
        layout.addWidget(self.tree)
        self.tree.setVisible(False)
        self.search.textChanged.connect(self._filter)
        self.search.textEdited.connect(lambda text: self.show_list(True) if text else None)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)

    def show_list(self, shown: bool) -> None:
        self.tree.setVisible(shown)
        self.list_toggle.setArrowType(Qt.ArrowType.UpArrow if shown else Qt.ArrowType.DownArrow)
        if self.list_toggle.isChecked() != shown:
            self.list_toggle.setChecked(shown)
        self.listShown.emit(shown)

    def populate(self, groups: dict[str, list[tuple]]) -> None:
        """groups: {group: [(item id, [column texts]) or (item id, [column texts], keywords)]}."""
        self.tree.clear()
        for group, rows in groups.items():
            parent = QTreeWidgetItem([group])
            parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = parent.font(0)
            font.setBold(True)
            parent.setFont(0, font)
            self.tree.addTopLevelItem(parent)
            for item_id, columns, *keywords in rows:
                child = QTreeWidgetItem(columns)
                child.setData(0, ID_ROLE, item_id)
                child.setData(0, KEYWORDS_ROLE, _words(" ".join([group, columns[0], str(item_id), *keywords])))
                for col in range(1, len(columns)):
                    child.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                parent.addChild(child)
        self._filter(self.search.text())

    def _clicked(self, item: QTreeWidgetItem) -> None:
        item_id = item.data(0, ID_ROLE)
        if item_id:
            self.chosen.emit(item_id)

    def _filter(self, text: str) -> None:
        # Every word typed must appear somewhere in the row's words (name, id, family, keywords), in any order:
        # "llama 8b" finds Llama 3 8B and Llama 3.1 8B; "moe" finds every mixture-of-experts model.
        needles = _words(text).split()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            visible = 0
            for j in range(group.childCount()):
                child = group.child(j)
                haystack = child.data(0, KEYWORDS_ROLE) or _words(child.text(0))
                hit = all(n in haystack for n in needles)
                child.setHidden(not hit)
                visible += hit
            group.setHidden(visible == 0)
            group.setExpanded(bool(needles) or group.isExpanded())

    def select(self, item_id: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for j in range(group.childCount()):
                child = group.child(j)
                if child.data(0, ID_ROLE) == item_id:
                    if child.isHidden():  # the search typed earlier must not hide the model or GPU in use
                        self.search.clear()
                    group.setExpanded(True)
                    self.tree.blockSignals(True)
                    self.tree.setCurrentItem(child)
                    self.tree.blockSignals(False)
                    self.tree.scrollToItem(child)
                    return
        self.tree.clearSelection()


class ModelPicker(QGroupBox):
    importRequested = Signal()
    addFolderRequested = Signal()
    scanNoticed = Signal(str)  # what a finished scan skipped or left out, for the status bar

    def __init__(self, state: AppState, catalog: UserCatalog | None = None, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Model"), parent)
        self.state = state
        self.local = LocalModels(catalog or UserCatalog())
        self.local_note = ""
        self.tree = SearchableTree([self.tr("Model"), self.tr("Params"), self.tr("Layers")],
                                   self.tr("Search models (e.g. llama 8b, qwen3, moe)"))
        self.tree.tree.setMinimumHeight(150)
        self.details = QLabel()
        self.details.setTextFormat(Qt.TextFormat.RichText)  # the model name in it is escaped
        self.details.setWordWrap(True)
        self.scan_notes = QLabel()  # entries the scan skipped and limits it reached: names from the disk, plain text
        self.scan_notes.setTextFormat(Qt.TextFormat.PlainText)
        self.scan_notes.setWordWrap(True)
        self.scan_notes.setVisible(False)
        self.import_button = QPushButton(self.tr("Import config.json…"))
        self.import_button.setToolTip(self.tr("Add a model from a local Hugging Face config.json"))
        self.rescan_button = QPushButton(self.tr("Rescan"))
        self.rescan_button.setToolTip(self.tr("Look again for models in the Hugging Face cache and your folders"))
        self.folder_button = QPushButton(self.tr("Add folder…"))
        self.folder_button.setToolTip(self.tr("A folder with models (each with a config.json) to list under "
                                              "\"On this computer\""))
        self.buttons = QWidget()  # not everyday controls: shown with the list
        buttons = QHBoxLayout(self.buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        for button in (self.import_button, self.folder_button, self.rescan_button):
            buttons.addWidget(button)
        self.buttons.setVisible(False)
        self.tree.listShown.connect(self.buttons.setVisible)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(self.details)
        layout.addWidget(self.scan_notes)
        layout.addWidget(self.buttons)
        self.tree.chosen.connect(self._chosen)
        self.import_button.clicked.connect(self.importRequested)
        self.folder_button.clicked.connect(self.addFolderRequested)
        self.rescan_button.clicked.connect(self.rescan)
        state.scenarioChanged.connect(self.show_scenario)
        self.scan = BackgroundScan(self)
        self.scan.done.connect(self._scanned)
        self.refresh()  # presets and saved models at once; models on this computer when the scan ends
        self.show_scenario(state.scenario)
        self.rescan()

    def rescan(self) -> None:
        self.local.catalog.reload()
        self.scan.start(self.local.catalog.model_folders)
        self.rescan_button.setEnabled(False)
        self.scan_notes.setText(self.tr("Looking for models on this computer…"))
        self.scan_notes.setVisible(True)

    def wait_for_scan(self, ms: int = 20000) -> bool:
        """For tests and scripts: block until the scan of this computer ends and its rows are shown."""
        return self.scan.wait(ms)

    def _scanned(self, scan, generation: int) -> None:
        if generation != self.scan.generation:
            return  # a rescan started since: its result is the one to show
        self.local.apply(scan)
        self.rescan_button.setEnabled(True)
        self.refresh()
        self._shown_model = None  # the tree was rebuilt: select the scenario's model again
        self.show_scenario(self.state.scenario)
        if self.scan_notes.text():
            self.scanNoticed.emit(self.scan_notes.text())

    def _chosen(self, model_id: str) -> None:
        if model_id in model_presets():
            self.local_note = ""
            self.state.edit({"model": model_id}, self.tr("Model: %s") % _preset_name(model_presets(), model_id))
            return
        choice = self.local.choose_model(model_id)
        if choice is None:
            return
        self.local_note = choice.note
        if choice.changes:
            name = choice.changes["model"]["name"]
            self.state.edit(choice.changes, self.tr("Model: %s") % name)
        self._shown_model = None
        self.show_scenario(self.state.scenario)

    def refresh(self) -> None:
        notes = self.local.notice_text()
        self.scan_notes.setText(notes)
        self.scan_notes.setVisible(bool(notes))
        groups: dict[str, list[tuple[str, list[str]]]] = dict(self.local.model_groups())
        # families by name, and within one the smallest first (Pythia 160M, 1B, 6.9B, 12B), not in the order of the
        # ids' letters (12b before 160m)
        for preset in sorted(model_presets().values(), key=lambda p: (p.family.casefold(), p.spec.total_params)):
            spec = preset.spec
            params = format_count(spec.total_params)
            if spec.is_moe:
                params = f"{params} / {format_count(spec.active_params)}"
            keywords = "moe mixture of experts" if spec.is_moe else "dense"
            groups.setdefault(preset.family, []).append((preset.id, [preset.name, params, str(spec.layers)], keywords))
        self.tree.populate(groups)

    def show_scenario(self, s: Scenario) -> None:
        if getattr(self, "_shown_model", None) == s.model:
            return  # most edits do not touch the model: skip the tree and text work
        self._shown_model = s.model
        spec = resolve_model(s)
        if isinstance(s.model, CustomModel):
            self.tree.select("")
        else:
            self.tree.select(s.model)
        active = (self.tr(", %s active per token") % format_count(spec.active_params)) if spec.is_moe else ""
        moe = (self.tr("; %(e)d experts, top-%(k)d") % {"e": spec.n_experts, "k": spec.top_k}) if spec.is_moe else ""
        moe += self._mixers(spec)
        note = f"<br>{self.local_note}" if self.local_note and isinstance(s.model, CustomModel) else ""
        self.details.setText(self.tr(
            "<b>%(name)s</b>: %(params)s parameters%(active)s; %(layers)d layers, hidden %(hidden)d, "
            "%(heads)d heads (%(kv)d KV)%(moe)s; vocabulary %(vocab)s; context %(ctx)s tokens") % {
            "name": escape(spec.name), "params": format_count(spec.total_params), "active": active, "layers": spec.layers,
            "hidden": spec.hidden, "heads": spec.heads, "kv": spec.kv_heads, "moe": moe,
            "vocab": f"{spec.vocab:,}", "ctx": f"{spec.max_position:,}"} + note)
        # a Mamba-2 / gated DeltaNet layer keeps a fixed state whatever the length (kv_cache_per_layer): said apart
        fixed = kv_cache_bytes(spec, 1, 0)
        per_1000 = format_bytes(kv_cache_bytes(spec, 1, 1000) - fixed, self.state.unit)
        if fixed:
            self.details.setToolTip(self.tr(
                "Inference cache (bf16, GQA-aware): %(tokens)s per 1,000 tokens of one sequence in its attention "
                "layers, plus %(fixed)s a sequence whatever its length (the fixed state of its Mamba-2 or DeltaNet "
                "layers)") % {"tokens": per_1000, "fixed": format_bytes(fixed, self.state.unit)})
        else:
            self.details.setToolTip(self.tr("Inference KV cache (bf16, GQA-aware): %s per 1,000 tokens of one "
                                            "sequence") % per_1000)


    def _mixers(self, spec: ModelSpec) -> str:
        """What its layers mix with where not every one is attention, for the summary: a hybrid stack's blocks by kind
        (Nemotron-H / Nemotron 3: one mixer a block) or the gated DeltaNet layers among the attention ones
        (Qwen3-Next), so "52 layers" is not read as 52 transformer layers."""
        if spec.block_kinds:
            blocks = spec.block_kinds
            return self.tr("; blocks: %(m)d Mamba-2, %(a)d attention, %(f)d MLP / MoE") % {
                "m": blocks.count("mamba"), "a": blocks.count("attention"),
                "f": len(blocks) - blocks.count("mamba") - blocks.count("attention")}
        linear = spec.kinds.count("linear")
        return self.tr("; %(n)d of them gated DeltaNet (linear attention)") % {"n": linear} if linear else ""


class HardwarePicker(QGroupBox):
    customRequested = Signal()

    def __init__(self, state: AppState, catalog: UserCatalog | None = None, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Hardware"), parent)
        self.state = state
        self.local = LocalModels(catalog or UserCatalog())
        self.tree = SearchableTree([self.tr("GPU"), self.tr("Memory")], self.tr("Search GPUs (e.g. 4090, H100, MI300)"))
        self.tree.tree.setMinimumHeight(130)
        self.gpus_per_node = QSpinBox()
        self.gpus_per_node.setRange(1, 64)
        self.gpus_per_node.setKeyboardTracking(False)
        self.nodes = QSpinBox()
        self.nodes.setRange(1, 4096)
        self.nodes.setKeyboardTracking(False)
        self.custom_button = QPushButton(self.tr("Custom GPU…"))
        self.gpus_per_node.setToolTip(self.tr("GPUs in each machine. More GPUs only lower the memory per GPU when "
                                              "something is split over them (ZeRO/FSDP, tensor, pipeline, context or "
                                              "expert parallelism); plain data parallelism copies everything."))
        self.nodes.setToolTip(self.tr("Machines. Total GPUs = GPUs per node × nodes; communication between nodes "
                                      "is slower than within one."))
        self.custom_button.setToolTip(self.tr("A GPU that is not in the list: give its name and memory"))
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("GPUs per node")))
        row.addWidget(self.gpus_per_node)
        row.addWidget(QLabel(self.tr("Nodes")))
        row.addWidget(self.nodes)
        row.addStretch(1)
        row.addWidget(self.custom_button)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # holds a custom GPU name: never rich text
        self.summary.setFixedHeight(self.summary.fontMetrics().height() + 6)
        # the generation engine's GPUs of its own, where it has them: the counts above are the trainer's, and a split
        # plan's two RTX 4090 read "1 × RTX 4090" (user audit 13). A line of its own that wraps: on the summary's
        # line it widened the whole panel
        self.engine_gpus, self.node_link = QLabel(), QLabel()
        self.engine_gpus.setWordWrap(True)
        self.engine_gpus.hide()
        self.node_link.setWordWrap(True)  # the link the step time takes inside a node (node_link_row.py)
        self.node_link.setToolTip(node_link_tip())
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.node_link)
        layout.addWidget(self.engine_gpus)
        self.tree.chosen.connect(self._chosen)
        self.gpus_per_node.valueChanged.connect(lambda v: self._edit({"gpus_per_node": v}))
        self.nodes.valueChanged.connect(lambda v: self._edit({"nodes": v}))
        self.custom_button.clicked.connect(self.customRequested)
        state.scenarioChanged.connect(self.show_scenario)
        state.unitChanged.connect(lambda _u: self._show_memory())
        self.refresh()

    def _edit(self, changes: dict) -> None:
        if not self.state.edit(changes):
            self.show_scenario(self.state.scenario)

    def _chosen(self, gpu_id: str) -> None:
        if gpu_id.startswith(SAVED_GPU_PREFIX):
            changes = self.local.choose_gpu(gpu_id)
            if changes:
                self.state.edit(changes, self.tr("GPU: %s") % changes["gpu"]["name"])
            return
        self.state.edit({"gpu": gpu_id}, self.tr("GPU: %s") % _preset_name(gpu_presets(), gpu_id))

    def refresh(self) -> None:
        groups: dict[str, list[tuple[str, list[str]]]] = {}
        classes = {"data centre": self.tr("data centre"), "workstation": self.tr("workstation"),
                   "consumer": self.tr("consumer"), "unified memory": self.tr("unified memory")}
        for gpu in gpu_presets().values():
            label = f"{gpu.vendor} · {classes.get(gpu.gpu_class, gpu.gpu_class)}"
            groups.setdefault(label, []).append((gpu.id, [gpu.name, format_bytes(gpu.usable_bytes, self.state.unit, 1)]))
        for gpu_id, (name, memory) in self.local.gpu_rows():
            groups.setdefault(self.tr("Your GPUs"), []).append(
                (gpu_id, [name, format_bytes(int(memory), self.state.unit, 1)]))
        self.tree.populate(groups)
        self._shown_gpu = None
        self.show_scenario(self.state.scenario)

    def _show_memory(self) -> None:
        """A new unit: the memory column's texts only, in place (rebuilding the list took ~2 ms of a unit switch)."""
        memory = {gpu.id: gpu.usable_bytes for gpu in gpu_presets().values()}
        memory.update((gpu_id, int(b)) for gpu_id, (_name, b) in self.local.gpu_rows())
        tree = self.tree.tree
        for i in range(tree.topLevelItemCount()):
            group = tree.topLevelItem(i)
            for j in range(group.childCount()):
                row = group.child(j)
                found = memory.get(row.data(0, ID_ROLE))
                if found is not None:
                    row.setText(1, format_bytes(found, self.state.unit, 1))
        self.show_scenario(self.state.scenario)

    def show_scenario(self, s: Scenario) -> None:
        if getattr(self, "_shown_gpu", None) != s.gpu:
            self._shown_gpu = s.gpu
            self.tree.select(s.gpu if isinstance(s.gpu, str) else "")
        for spin, value in ((self.gpus_per_node, s.gpus_per_node), (self.nodes, s.nodes)):
            show_value(spin, value)
        est = self.state.estimate
        custom = self.tr(" (custom)") if isinstance(s.gpu, CustomGpu) else ""
        self.summary.setText(self.tr("%(n)s × %(gpu)s%(custom)s, %(mem)s each") % {
            "n": format_gpu_count(s.world_size), "gpu": est.gpu_name, "custom": custom,
            "mem": format_bytes(est.capacity_bytes, self.state.unit)})
        self.node_link.setText(link := node_link_text(s))
        self.node_link.setVisible(bool(link))
        apart = est.rl is not None and s.rollout_placement == "separate" and bool(s.rollout_gpus)
        if apart:
            self.engine_gpus.setText(self.tr("and %s more of them for the generation engine, on GPUs of its own")
                                     % format_gpu_count(s.rollout_gpus))
        self.engine_gpus.setVisible(apart)
