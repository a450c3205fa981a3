"""Training set-up editor: plain words first, the technical term beside them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine import Scenario, resolve_model
from engine.planning.pretraining import is_pretraining
from engine.scenario import SCENARIO_MAXIMA
from engine.scenario.optimizer_used import framework_optimizer

from .choices import choice_items
from .editor_panel import EditorPanel
from .framework_options import FrameworkOptions
from .lora_rows import LoraRows
from .offload_fraction_row import OffloadFractionRow, offload_changes
from .packing_rows import PackingRows
from .parallel_limits import ParallelLimits
from .precision_marks import mark_precisions
from .recompute_row import RecomputeRows
from .rl_rows import RLRows
from .shard_group_row import ShardGroupRow
from .state import AppState
from .tab_order import chain_form_tab_order
from .vision_rows import VisionRows
from .widgets import (
    CollapsibleSection,
    PowerOfTwoInput,
    ValueCombo,
    committed_spin,
    set_form_tooltips,
    set_up_form,
    show_checked,
    show_value,
)
from .words import field_label, framework_value_words

MICRO_BATCH_MAX = SCENARIO_MAXIMA["micro_batch"]  # the engine's bound, so nothing typed is clamped silently


class SetupPanel(EditorPanel):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        box = QGroupBox(self.tr("Training set-up"))
        form = set_up_form(box)
        self.method = ValueCombo(choice_items("method", {
            "full": self.tr("Train every weight (full fine-tune)"),
            "freeze": self.tr("Freeze some layers (frozen layers)"),
            "lora": self.tr("Small adapters (LoRA)"),
            "qlora": self.tr("Adapters on a 4-bit model (QLoRA)"),
        }))
        form.addRow(self.tr("Method"), self.method)
        self.frozen_layers = committed_spin(0, 1000)
        self.freeze_from = ValueCombo(choice_items("freeze_from", {
            "bottom": self.tr("bottom layers (near the input)"),
            "top": self.tr("top layers (near the output)"),
        }))
        self.freeze_embeddings = QCheckBox(self.tr("also freeze the token embeddings"))
        self.qlora_bits = ValueCombo(choice_items("qlora_bits", {
            4: self.tr("4-bit (NF4)"),
            8: self.tr("8-bit (LLM.int8)"),
        }))
        self.double_quant = QCheckBox(self.tr("double quantisation"))
        # QLoRA's two choices on one row, stacked with LoRA's base storage in the third row of both methods: a switch
        # between LoRA and QLoRA changes that row's page and label only. Shown and hidden rows laid the form out
        # three times and moved and repainted every row below (~4 ms per switch, issue 21).
        self.qlora_row = QWidget()
        qlora_line = QHBoxLayout(self.qlora_row)
        qlora_line.setContentsMargins(0, 0, 0, 0)
        qlora_line.addWidget(self.qlora_bits, 1)
        qlora_line.addWidget(self.double_quant)
        self.weights_label = QLabel()
        self.weights_row = QStackedWidget()
        self.base_storage = ValueCombo(choice_items("base_storage", {
            "compute": self.tr("in the number format below (16/32-bit)"),
            "released": self.tr("as the checkpoint was released (MXFP4 / FP8 where it is)"),
            "mxfp4": self.tr("MXFP4: 4.25 bits per weight"),
            "fp8": self.tr("FP8: 8 bits per weight"),
        }))
        self.lora = LoraRows(form, lambda changes: self._edit(changes), self)  # rank, targets, layers
        self.lora_rank, self.lora_targets, self.lora_layers = self.lora.rank, self.lora.targets, self.lora.layers
        lora_rows = [self.lora.rank_line, self.lora_targets]  # the form's rows: rank and layers share a line
        self._method_rows: dict[str, list[QWidget]] = {
            "lora": [*lora_rows, self.weights_row],
            "qlora": [*lora_rows, self.weights_row],
            "freeze": [self.frozen_layers, self.freeze_from, self.freeze_embeddings],
        }
        form.addRow(self.tr("Frozen layers"), self.frozen_layers)
        form.addRow(self.tr("Frozen side"), self.freeze_from)
        form.addRow("", self.freeze_embeddings)
        self.weights_row.addWidget(self.base_storage)
        self.weights_row.addWidget(self.qlora_row)
        self._weights_labels = {self.base_storage: self.tr("Frozen base weights (storage)"),
                                self.qlora_row: self.tr("Base weights (QLoRA bits)")}
        self.weights_label.setText(self._weights_labels[self.base_storage])
        form.addRow(self.weights_label, self.weights_row)
        self.precision = ValueCombo(choice_items("precision", {
            "amp-bf16": self.tr("bf16 autocast, fp32 weights (AMP)"),
            "amp-fp16": self.tr("fp16 autocast, fp32 weights (AMP)"),
            "bf16": self.tr("pure bf16 (weights, grads, states)"),
            "fp16": self.tr("pure fp16"),
            "mixed-bf16": self.tr("bf16 + fp32 master weights (DeepSpeed, Megatron)"),
            "mixed-fp16": self.tr("fp16 + fp32 master weights (DeepSpeed, Megatron)"),
            "fp8": self.tr("fp8 compute (Transformer Engine, torchao)"),
            "nvfp4": self.tr("NVFP4 compute (Blackwell)"),
            "fp32": self.tr("full fp32"),
        }))
        form.addRow(self.tr("Number format (precision)"), self.precision)
        self.optimizer = ValueCombo(choice_items("optimizer", {
            "auto": self.tr("AdamW as the framework runs it"),  # named with its resolved AdamW in show_scenario
            "adamw": self.tr("AdamW (PyTorch default, foreach)"),
            "adamw-fused": self.tr("AdamW fused"),
            "adamw-8bit": self.tr("AdamW 8-bit (bitsandbytes)"),
            "adamw-8bit-paged": self.tr("AdamW 8-bit, paged to CPU memory when the GPU is full (bitsandbytes)"),
            "sgd": self.tr("SGD"),
            "sgd-momentum": self.tr("SGD with momentum"),
            "adafactor": self.tr("Adafactor"),
        }))
        form.addRow(self.tr("Optimizer"), self.optimizer)
        self.micro_batch = PowerOfTwoInput(1, MICRO_BATCH_MAX, slider_max=64)  # the spin box takes what the engine does
        form.addRow(self.tr("Sequences per GPU step (micro-batch)"), self.micro_batch)
        self.micro_batch.set_accessible_name(self.tr("Sequences per GPU step (micro-batch)"))
        self.seq_len = PowerOfTwoInput(16, 1_048_576, slider_min=256, slider_max=131_072)
        form.addRow(self.tr("Tokens per sequence (sequence length)"), self.seq_len)
        self.seq_len.set_accessible_name(self.tr("Tokens per sequence (sequence length)"))
        self.grad_accum = committed_spin(1, 4096)
        form.addRow(self.tr("Steps per update (gradient accumulation)"), self.grad_accum)
        self.checkpointing = ValueCombo(choice_items("checkpointing", {
            "none": self.tr("keep all activations (no checkpointing)"),
            "selective": self.tr("recompute part of each layer, as the framework does (selective)"),
            "op-selective": self.tr("keep every other matrix product (per-op selective)"),
            "full": self.tr("recompute each layer (full checkpointing)"),
        }))
        form.addRow(self.tr("Activation checkpointing"), self.checkpointing)
        self.recompute = RecomputeRows(form, self.checkpointing, lambda changes: self._edit(changes), self)
        self.attention = ValueCombo(choice_items("attention", {
            "sdpa": self.tr("PyTorch SDPA"),
            "flash": self.tr("FlashAttention"),
            "eager": self.tr("eager (stores b·a·s² scores)"),
        }))
        form.addRow(self.tr("Attention kernel"), self.attention)
        self.vision = VisionRows(form, lambda changes: self._edit(changes), self)  # vision-language models only
        self.images_per_sample, self.image_resolution = self.vision.images_per_sample, self.vision.image_resolution
        self.vision_tower, self.image_tokens = self.vision.vision_tower, self.vision.image_tokens
        self.rl = RLRows(form, lambda changes: self._edit(changes), self.seq_len, self.grad_accum, self)  # post-training
        self.packing = PackingRows(form, lambda changes: self._edit(changes), self.grad_accum, self.rl.max_completion_len,
                                   self)
        chain_form_tab_order(form)  # Tab down the rows as drawn, the rows inserted above included

        parallel = QWidget()
        pform = QFormLayout(parallel)
        pform.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        pform.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.tp, self.pp, self.ep, self.cp = (committed_spin(1, 512) for _ in range(4))
        pform.addRow(self.tr("Tensor parallel (TP)"), self.tp)
        pform.addRow(self.tr("Pipeline parallel (PP)"), self.pp)
        pform.addRow(self.tr("Expert parallel (EP)"), self.ep)
        pform.addRow(self.tr("Context parallel (CP)"), self.cp)
        self.sequence_parallel = QCheckBox(self.tr("sequence parallelism"))
        pform.addRow("", self.sequence_parallel)
        self.zero = ValueCombo(choice_items("zero_stage", {
            0: self.tr("off (plain data parallel)"),
            1: self.tr("ZeRO-1: shard optimizer states"),
            2: self.tr("ZeRO-2: + gradients"),
            3: self.tr("ZeRO-3: + weights"),
            "fsdp": self.tr("FSDP full shard (= ZeRO-3)"),
        }, extra=("fsdp",)))
        pform.addRow(self.tr("Sharding (ZeRO / FSDP)"), self.zero)
        self.offload = ValueCombo(choice_items("offload", {
            "none": self.tr("none"),
            "optimizer": self.tr("optimizer states to CPU"),
            "optimizer+params": self.tr("optimizer states and weights to CPU"),
        }))
        # the pipeline schedule under PP, and what the scenario's framework runs (engine/frameworks/parallelism.py):
        # its checkpointing modes, methods and offload kinds greyed where it lacks them
        self.limits = ParallelLimits(pform, {"tp": self.tp, "pp": self.pp, "ep": self.ep, "cp": self.cp}, self.zero,
                                     lambda changes: self._edit(changes), self,
                                     runs={"checkpointing": self.checkpointing, "method": self.method,
                                           "offload": self.offload, "optimizer": self.optimizer,
                                           "attention": self.attention})
        self.pp_schedule, self.vpp = self.limits.schedule, self.limits.vpp
        self.shard_group_row = ShardGroupRow(pform, self.zero, lambda changes: self._edit(changes), self)  # HSDP
        pform.addRow(self.tr("Offload (slow)"), self.offload)
        self.offload_fraction = OffloadFractionRow(pform, self.offload, lambda changes: self._edit(changes), self)
        self.estimator = ValueCombo(choice_items("estimator", {
            "detailed": self.tr("per-operation model, checked against traced steps (detailed)"),
            "seed-per-op": self.tr("textbook per-layer formula from the guide (seed-per-op)"),
            "seed-k-factor": self.tr("rule of thumb: K bytes per parameter (seed-k-factor)"),
            "seed-alpha": self.tr("activation formula α = (bs/h)(5 + 5as/6h) (seed-alpha)"),
        }))
        pform.addRow(self.tr("Estimator"), self.estimator)
        self.advanced = CollapsibleSection(self.tr("Advanced: parallelism and estimator"), parallel)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(box)
        self.framework_options = FrameworkOptions(state)
        layout.addWidget(self.framework_options)
        layout.addWidget(self.advanced)
        layout.addWidget(self.error)
        self._form = form
        self._set_tooltips()
        self._connect()
        self.follow_state()

    def _set_tooltips(self) -> None:
        """Every control says what it means and what it costs (memory, speed or accuracy)."""
        tips = {
            self.method: self.tr("What is trained. Full fine-tuning keeps gradients and optimizer states for every "
                                 "weight (the most memory); frozen layers skip them for part of the model; LoRA trains "
                                 "small adapters beside frozen weights; QLoRA also stores the frozen weights in 4 or 8 "
                                 "bits (least memory, slightly slower)."),
            self.frozen_layers: self.tr("How many decoder layers are not trained. Each frozen layer saves its "
                                        "gradients and optimizer states."),
            self.freeze_from: self.tr("Freezing the bottom layers also saves the activations kept for their backward "
                                      "pass; freezing the top ones does not."),
            self.freeze_embeddings: self.tr("Do not train the token embedding table (a large matrix for big "
                                            "vocabularies): saves its gradient and optimizer states."),
            self.qlora_bits: self.tr("How the frozen base weights are stored: 4-bit NF4 uses about a quarter of bf16, "
                                     "8-bit about half."),
            self.base_storage: self.tr("How LoRA keeps the frozen model in memory. gpt-oss ships its experts in MXFP4 "
                                       "(about a quarter of bf16) and DeepSeek-V3/R1 and Kimi-K2 ship FP8 (half): "
                                       "kept that way, the frozen weights take that much less memory."),
            self.double_quant: self.tr("Also quantise the quantisation constants: about 0.4 bits per weight less."),
            self.precision: self.tr("Number format of weights, gradients and computation. AMP keeps fp32 weights "
                                    "(4 bytes each) and computes in 16 bits; pure bf16 halves the weights but can "
                                    "lose accuracy; fp32 everywhere is the largest and slowest."),
            self.optimizer: self.tr("AdamW keeps two fp32 states per trained weight (8 bytes); 8-bit AdamW about 2 "
                                    "bytes; SGD none, with momentum 4 bytes; Adafactor much less than AdamW."),
            self.micro_batch: self.tr("Sequences each GPU processes at once. Activation memory grows in proportion; "
                                      "use gradient accumulation for a larger effective batch without the memory."),
            self.seq_len: self.tr("Tokens in each sequence. Activation memory grows in proportion (eager attention: "
                                  "with its square)."),
            self.grad_accum: self.tr("Micro-batches added up before each optimizer step: a larger effective batch "
                                     "for no extra memory, at the cost of more steps per update."),
            self.checkpointing: self.tr("Throw away activations in the forward pass and recompute them in the "
                                        "backward: much less activation memory for about a third more compute "
                                        "(full) or less (selective)."),
            self.attention: self.tr("FlashAttention and SDPA never store the attention score matrix; eager stores "
                                    "batch × heads × sequence² scores per layer."),
            self.tp: self.tr("Split every layer's matrices over this many GPUs: weights, gradients, states and most "
                             "activations divide by it; costs fast communication (NVLink) every layer."),
            self.pp: self.tr("Split the layers into this many consecutive stages on different GPUs: each holds a "
                             "part of the model; costs idle time (the pipeline bubble) unless many micro-batches."),
            self.ep: self.tr("Spread a mixture-of-experts model's experts over this many GPUs (MoE models only)."),
            self.cp: self.tr("Split each sequence over this many GPUs: activations divide by it, for long contexts; "
                             "costs communication in attention."),
            self.sequence_parallel: self.tr("With tensor parallelism, also split the norm and residual activations "
                                            "over the tensor-parallel GPUs: less activation memory, same compute."),
            self.zero: self.tr("Shard training state over the data-parallel GPUs instead of copying it: ZeRO-1 the "
                               "optimizer states, ZeRO-2 also gradients, ZeRO-3/FSDP also weights (more "
                               "communication)."),
            self.offload: self.tr("Keep optimizer states (and weights) in CPU memory: frees GPU memory, but every "
                                  "step waits for PCIe transfers and a CPU optimizer (much slower)."),
            self.estimator: self.tr("How memory is computed. 'detailed' counts each tensor of a real PyTorch step and "
                                    "is checked against measurements; the others reproduce the guide's formulas "
                                    "for comparison."),
        }
        for widget, tip in tips.items():
            widget.setToolTip(tip)
            label = self._label_for(widget)
            if label is not None:
                label.setToolTip(tip)
        set_form_tooltips(self.advanced.content.layout(), self.limits.set_tooltips())
        self.limits.remember_tooltips()
        self.weights_label.setToolTip(self.weights_row.currentWidget().toolTip() or self.base_storage.toolTip())

    def _label_for(self, widget: QWidget) -> QWidget | None:
        if widget in (self.base_storage, self.qlora_bits):
            return None  # their row's label says the page shown: show_scenario sets its tooltip
        for layout in (self._form, self.advanced.content.layout()):
            label = layout.labelForField(widget) if isinstance(layout, QFormLayout) else None
            if label is not None:
                return label
        return None

    # --- wiring
    def _connect(self) -> None:
        edit = self._edit
        self.method.valueChosen.connect(self._method_chosen)
        self.frozen_layers.valueChanged.connect(lambda v: edit({"frozen_layers": v}))
        self.freeze_from.valueChosen.connect(lambda v: edit({"freeze_from": v}))
        self.freeze_embeddings.toggled.connect(lambda v: edit({"freeze_embeddings": v}))
        self.qlora_bits.valueChosen.connect(lambda v: edit({"qlora_bits": v}))
        self.double_quant.toggled.connect(lambda v: edit({"qlora_double_quant": v}))
        self.base_storage.valueChosen.connect(lambda v: edit({"base_storage": v}))
        for key in ("precision", "optimizer", "checkpointing", "attention", "estimator"):
            getattr(self, key).valueChosen.connect(lambda v, k=key: edit({k: v}))
        self.offload.valueChosen.connect(lambda v: edit(offload_changes(self.state.scenario, v)))
        self.micro_batch.valueEdited.connect(lambda v, drag: self._slider_edit("micro_batch", v, drag))
        self.seq_len.valueEdited.connect(lambda v, drag: self._slider_edit("seq_len", v, drag))
        self.micro_batch.slider.sliderReleased.connect(self._end_drag)
        self.seq_len.slider.sliderReleased.connect(self._end_drag)
        self.grad_accum.valueChanged.connect(lambda v: edit({"grad_accum": v}))
        for key in ("tp", "pp", "ep", "cp"):
            getattr(self, key).valueChanged.connect(lambda v, k=key: edit({k: v}))
        self.sequence_parallel.toggled.connect(lambda v: edit({"sequence_parallel": v}))
        self.zero.valueChosen.connect(
            lambda v: edit({"fsdp": True, "zero_stage": 0} if v == "fsdp" else {"fsdp": False, "zero_stage": v})
        )

    def edit_text(self, changes: dict[str, Any]) -> str:
        """The undo entry names the control and the choice as shown: "Optimizer: AdamW 8-bit (bitsandbytes)"."""
        combos = {"method": self.method, "precision": self.precision, "optimizer": self.optimizer,
                  "checkpointing": self.checkpointing, "attention": self.attention, "offload": self.offload,
                  "estimator": self.estimator, "freeze_from": self.freeze_from, "qlora_bits": self.qlora_bits,
                  "lora_targets": self.lora_targets, "zero_stage": self.zero, "pp_schedule": self.pp_schedule,
                  "vision_tower": self.vision_tower, "base_storage": self.base_storage,
                  "recompute_method": self.recompute.method, **self.rl.combos(), **self.packing.combos()}
        key = next(iter(changes))
        return f"{field_label(key)}: {combos[key].currentText()}" if key in combos else ""

    def _method_chosen(self, method: str) -> None:
        changes: dict[str, Any] = {"method": method}
        if method == "freeze" and self.state.scenario.frozen_layers == 0:
            changes["frozen_layers"] = resolve_model(self.state.scenario).layers // 2
        self._edit(changes)

    # --- showing
    def restyle(self) -> None:
        """Mark again, in the theme now in use, what the framework cannot run (the warning colour and the greyed
        items' grey are the theme's: marked before a switch, or before the window's theme was first applied, a dark
        window showed the light theme's dark brown on its dark grey)."""
        s = self.state.scenario
        self.limits.show(s, resolve_model(s).is_moe)
        self._name_auto_optimizer(s)

    def _name_auto_optimizer(self, s: Scenario) -> None:
        """The "auto" item says what it resolves to under the scenario's framework ("AdamW as the framework runs it:
        AdamW fused" under torchtitan)."""
        index = self.optimizer.findData("auto")
        if index >= 0:
            used = framework_value_words(s.framework, "optimizer", framework_optimizer(s.framework))
            self.optimizer.setItemText(index, self.tr("AdamW as the framework runs it: %1").replace("%1", used))

    def _name_full_method(self, s: Scenario) -> None:
        """Training every weight said as the run does it: pre-training where the token budget makes it one
        (engine/planning/pretraining.py is_pretraining), else a full fine-tune (user audit 15: a 2T-token pre-training
        read "full fine-tune")."""
        index = self.method.findData("full")
        text = (self.tr("Train every weight (pre-training)") if is_pretraining(s)
                else self.tr("Train every weight (full fine-tune)"))
        if index >= 0 and self.method.itemText(index) != text:  # a new text lays the form out again: only on a change
            self.method.setItemText(index, text)

    def show_scenario(self, s: Scenario) -> None:
        spec = resolve_model(s)
        self.lora.show(s, spec)
        widgets: list[tuple[Any, Any]] = [
            (self.method, s.method),
            (self.freeze_from, s.freeze_from),
            (self.qlora_bits, s.qlora_bits),
            (self.precision, s.precision),
            (self.optimizer, s.optimizer),
            (self.checkpointing, s.checkpointing),
            (self.attention, s.attention),
            (self.offload, s.offload),
            (self.estimator, s.estimator),
            (self.zero, "fsdp" if s.fsdp else s.zero_stage),
            (self.base_storage, s.base_storage),
        ]
        for combo, value in widgets:
            combo.set_value(value)
        for spin, value in (
            (self.frozen_layers, s.frozen_layers),
            (self.grad_accum, s.grad_accum),
            (self.tp, s.tp),
            (self.pp, s.pp),
            (self.ep, s.ep),
            (self.cp, s.cp),
        ):
            show_value(spin, value)
        if self.frozen_layers.maximum() != spec.layers:  # a new range lays the form out again: only on a change
            self.frozen_layers.setMaximum(spec.layers)
        for box, value in (
            (self.freeze_embeddings, s.freeze_embeddings),
            (self.double_quant, s.qlora_double_quant),
            (self.sequence_parallel, s.sequence_parallel),
        ):
            show_checked(box, value)
        self.micro_batch.set_value(s.micro_batch)
        self.seq_len.set_value(s.seq_len)
        self.limits.show(s, spec.is_moe)  # a dense model's EP, and what the framework has no parallelism for
        self._name_auto_optimizer(s)  # after: a framework's own optimizer names (limits.show) rebuild the list
        self._name_full_method(s)
        mark_precisions(self.precision, s)  # NVFP4 greyed where the GPU has no FP4 tensor cores
        self.vision.show(s, spec.vision)
        self.rl.show(s)
        self.packing.show(s)
        self.offload_fraction.show(s)
        self.recompute.show(s)
        self.shard_group_row.show(s)
        page = self.qlora_row if s.method == "qlora" else self.base_storage
        if self.weights_row.currentWidget() is not page:
            self.weights_row.setCurrentWidget(page)
            self.weights_label.setText(self._weights_labels[page])
            self.weights_label.setToolTip((self.qlora_bits if page is self.qlora_row else self.base_storage).toolTip())
        shown = set(self._method_rows.get(s.method, []))
        for widget in {w for ws in self._method_rows.values() for w in ws}:
            self._form.setRowVisible(widget, widget in shown)
        if (s.tp > 1 or s.pp > 1 or s.ep > 1 or s.cp > 1 or s.zero_stage or s.fsdp or s.dp_shard or s.offload != "none"
                or s.estimator != "detailed"):
            self.advanced.set_expanded(True)
        self.method.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
