"""Training set-up editor: plain words first, the technical term beside them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine import Scenario, resolve_model
from engine.scenario import lora_target_names

from .framework_options import FrameworkOptions
from .state import AppState
from .widgets import CollapsibleSection, PowerOfTwoInput, ValueCombo


def _spin(minimum: int, maximum: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(minimum, maximum)
    spin.setKeyboardTracking(False)  # one edit per committed value, not per keystroke
    return spin


class SetupPanel(QWidget):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._drag = 0
        box = QGroupBox(self.tr("Training set-up"))
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.method = ValueCombo(
            [
                ("full", self.tr("Train every weight (full fine-tune)")),
                ("freeze", self.tr("Freeze some layers (frozen layers)")),
                ("lora", self.tr("Small adapters (LoRA)")),
                ("qlora", self.tr("Adapters on a 4-bit model (QLoRA)")),
            ]
        )
        form.addRow(self.tr("Method"), self.method)
        self.lora_rank = _spin(1, 1024)
        self.lora_targets = ValueCombo()
        self.lora_targets.setToolTip(self.tr("Which linear layers get adapters"))
        self.frozen_layers = _spin(0, 1000)
        self.freeze_from = ValueCombo(
            [("bottom", self.tr("bottom layers (near the input)")), ("top", self.tr("top layers (near the output)"))]
        )
        self.freeze_embeddings = QCheckBox(self.tr("also freeze the token embeddings"))
        self.qlora_bits = ValueCombo([(4, self.tr("4-bit (NF4)")), (8, self.tr("8-bit (LLM.int8)"))])
        self.double_quant = QCheckBox(self.tr("double quantisation"))
        self._method_rows: dict[str, list[QWidget]] = {
            "lora": [self.lora_rank, self.lora_targets],
            "qlora": [self.lora_rank, self.lora_targets, self.qlora_bits, self.double_quant],
            "freeze": [self.frozen_layers, self.freeze_from, self.freeze_embeddings],
        }
        form.addRow(self.tr("Adapter rank (LoRA r)"), self.lora_rank)
        form.addRow(self.tr("Adapted layers (targets)"), self.lora_targets)
        form.addRow(self.tr("Frozen layers"), self.frozen_layers)
        form.addRow(self.tr("Frozen side"), self.freeze_from)
        form.addRow("", self.freeze_embeddings)
        form.addRow(self.tr("Base weights (QLoRA bits)"), self.qlora_bits)
        form.addRow("", self.double_quant)
        self.precision = ValueCombo(
            [
                ("amp-bf16", self.tr("bf16 autocast, fp32 weights (AMP)")),
                ("amp-fp16", self.tr("fp16 autocast, fp32 weights (AMP)")),
                ("bf16", self.tr("pure bf16 (weights, grads, states)")),
                ("fp16", self.tr("pure fp16")),
                ("mixed-bf16", self.tr("bf16 + fp32 master weights (DeepSpeed)")),
                ("mixed-fp16", self.tr("fp16 + fp32 master weights (DeepSpeed)")),
                ("fp8", self.tr("fp8 compute (Transformer Engine)")),
                ("fp32", self.tr("full fp32")),
            ]
        )
        form.addRow(self.tr("Number format (precision)"), self.precision)
        self.optimizer = ValueCombo(
            [
                ("adamw", self.tr("AdamW (PyTorch default, foreach)")),
                ("adamw-fused", self.tr("AdamW fused")),
                ("adamw-8bit", self.tr("AdamW 8-bit (bitsandbytes)")),
                ("adamw-8bit-paged", self.tr("AdamW 8-bit, paged to CPU memory when the GPU is full (bitsandbytes)")),
                ("sgd", self.tr("SGD")),
                ("sgd-momentum", self.tr("SGD with momentum")),
                ("adafactor", self.tr("Adafactor")),
            ]
        )
        form.addRow(self.tr("Optimizer"), self.optimizer)
        self.micro_batch = PowerOfTwoInput(1, 1024)
        form.addRow(self.tr("Sequences per GPU step (micro-batch)"), self.micro_batch)
        self.seq_len = PowerOfTwoInput(16, 1_048_576)
        form.addRow(self.tr("Tokens per sequence (sequence length)"), self.seq_len)
        self.grad_accum = _spin(1, 4096)
        form.addRow(self.tr("Steps per update (gradient accumulation)"), self.grad_accum)
        self.checkpointing = ValueCombo(
            [
                ("none", self.tr("keep all activations (no checkpointing)")),
                ("selective", self.tr("recompute part of each layer, as the framework does (selective)")),
                ("op-selective", self.tr("keep every other matrix product (per-op selective)")),
                ("full", self.tr("recompute each layer (full checkpointing)")),
            ]
        )
        form.addRow(self.tr("Activation checkpointing"), self.checkpointing)
        self.attention = ValueCombo(
            [
                ("sdpa", self.tr("PyTorch SDPA")),
                ("flash", self.tr("FlashAttention")),
                ("eager", self.tr("eager (stores b·a·s² scores)")),
            ]
        )
        form.addRow(self.tr("Attention kernel"), self.attention)

        parallel = QWidget()
        pform = QFormLayout(parallel)
        self.tp, self.pp, self.ep, self.cp = (_spin(1, 512) for _ in range(4))
        pform.addRow(self.tr("Tensor parallel (TP)"), self.tp)
        pform.addRow(self.tr("Pipeline parallel (PP)"), self.pp)
        pform.addRow(self.tr("Expert parallel (EP)"), self.ep)
        pform.addRow(self.tr("Context parallel (CP)"), self.cp)
        self.sequence_parallel = QCheckBox(self.tr("sequence parallelism"))
        pform.addRow("", self.sequence_parallel)
        self.zero = ValueCombo(
            [
                (0, self.tr("off (plain data parallel)")),
                (1, self.tr("ZeRO-1: shard optimizer states")),
                (2, self.tr("ZeRO-2: + gradients")),
                (3, self.tr("ZeRO-3: + weights")),
                ("fsdp", self.tr("FSDP full shard (= ZeRO-3)")),
            ]
        )
        pform.addRow(self.tr("Sharding (ZeRO / FSDP)"), self.zero)
        self.offload = ValueCombo(
            [
                ("none", self.tr("none")),
                ("optimizer", self.tr("optimizer states to CPU")),
                ("optimizer+params", self.tr("optimizer states and weights to CPU")),
            ]
        )
        pform.addRow(self.tr("Offload (slow)"), self.offload)
        self.advanced = CollapsibleSection(self.tr("Advanced: parallelism"), parallel)

        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # error sentences quote user values
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(box)
        self.framework_options = FrameworkOptions(state)
        layout.addWidget(self.framework_options)
        layout.addWidget(self.advanced)
        layout.addWidget(self.error)
        self._form = form
        self._connect()
        state.scenarioChanged.connect(self.show_scenario)
        state.errorChanged.connect(self.show_error)
        self.show_scenario(state.scenario)

    # --- wiring
    def _connect(self) -> None:
        edit = self._edit
        self.method.valueChosen.connect(self._method_chosen)
        self.lora_rank.valueChanged.connect(lambda v: edit({"lora_rank": v}))
        self.lora_targets.valueChosen.connect(
            lambda v: edit({"lora_targets": v if v in ("attention", "all-linear") else v.split(",")})
        )
        self.frozen_layers.valueChanged.connect(lambda v: edit({"frozen_layers": v}))
        self.freeze_from.valueChosen.connect(lambda v: edit({"freeze_from": v}))
        self.freeze_embeddings.toggled.connect(lambda v: edit({"freeze_embeddings": v}))
        self.qlora_bits.valueChosen.connect(lambda v: edit({"qlora_bits": v}))
        self.double_quant.toggled.connect(lambda v: edit({"qlora_double_quant": v}))
        for key in ("precision", "optimizer", "checkpointing", "attention", "offload"):
            getattr(self, key).valueChosen.connect(lambda v, k=key: edit({k: v}))
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

    def _edit(self, changes: dict[str, Any], merge_key: str | None = None) -> None:
        if not self.state.edit(changes, merge_key=merge_key):
            self.show_scenario(self.state.scenario)  # put the control back; the message stays visible

    def _slider_edit(self, key: str, value: int, dragging: bool) -> None:
        self._edit({key: value}, merge_key=f"{key}#{self._drag}" if dragging else None)

    def _end_drag(self) -> None:
        self._drag += 1

    def _method_chosen(self, method: str) -> None:
        changes: dict[str, Any] = {"method": method}
        if method == "freeze" and self.state.scenario.frozen_layers == 0:
            changes["frozen_layers"] = resolve_model(self.state.scenario).layers // 2
        self._edit(changes)

    # --- showing
    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def show_scenario(self, s: Scenario) -> None:
        spec = resolve_model(s)
        targets = [("attention", self.tr("all attention projections")), ("all-linear", self.tr("all linear layers"))]
        targets += [(name, name) for name in lora_target_names(spec)]
        current = ",".join(s.lora_targets) if isinstance(s.lora_targets, tuple) else s.lora_targets
        if current not in [value for value, _ in targets]:
            targets.insert(0, (current, current.replace(",", " + ")))
        if targets != getattr(self, "_targets_shown", None):  # rebuilding a combo is slow: only on a change
            self._targets_shown = targets
            self.lora_targets.set_items(targets)
        self.lora_targets.set_value(current)
        widgets: list[tuple[Any, Any]] = [
            (self.method, s.method),
            (self.freeze_from, s.freeze_from),
            (self.qlora_bits, s.qlora_bits),
            (self.precision, s.precision),
            (self.optimizer, s.optimizer),
            (self.checkpointing, s.checkpointing),
            (self.attention, s.attention),
            (self.offload, s.offload),
            (self.zero, "fsdp" if s.fsdp else s.zero_stage),
        ]
        for combo, value in widgets:
            combo.set_value(value)
        for spin, value in (
            (self.lora_rank, s.lora_rank),
            (self.frozen_layers, s.frozen_layers),
            (self.grad_accum, s.grad_accum),
            (self.tp, s.tp),
            (self.pp, s.pp),
            (self.ep, s.ep),
            (self.cp, s.cp),
        ):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        self.frozen_layers.setMaximum(spec.layers)
        for box, value in (
            (self.freeze_embeddings, s.freeze_embeddings),
            (self.double_quant, s.qlora_double_quant),
            (self.sequence_parallel, s.sequence_parallel),
        ):
            box.blockSignals(True)
            box.setChecked(value)
            box.blockSignals(False)
        self.micro_batch.set_value(s.micro_batch)
        self.seq_len.set_value(s.seq_len)
        self.ep.setEnabled(spec.is_moe)
        self.ep.setToolTip("" if spec.is_moe else self.tr("Expert parallelism needs a mixture-of-experts model."))
        shown = set(self._method_rows.get(s.method, []))
        for widget in {w for ws in self._method_rows.values() for w in ws}:
            self._form.setRowVisible(widget, widget in shown)
        if s.tp > 1 or s.pp > 1 or s.ep > 1 or s.cp > 1 or s.zero_stage or s.fsdp or s.offload != "none":
            self.advanced.set_expanded(True)
        self.method.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
