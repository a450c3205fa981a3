"""Rows of the framework options that only Megatron (and fp8 training) reads: what selective recompute rebuilds,
layers offloaded to CPU memory, the pipeline split, the MoE token dispatcher, its all-to-all overlap and the experts'
fused grouped-MLP ops, the fused rotary embedding, the parts
captured as CUDA graphs, the fp8 scaling recipe, fp8 weights and FSDP2's float8 all-gather. They live in
FrameworkOptions' form, so they line up with its other rows, and show only where they count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGridLayout, QSpinBox, QWidget

from engine import Scenario, resolve_model
from engine.frameworks import TABLE
from engine.frameworks.megatron_layer import RECOMPUTE_MODULES
from engine.timing import fp8_all_gather_applies, rope_fusion_applies

from .choices import choice_items
from .parallel_limits import cannot_run_sentences, mark_warning
from .theme import text_colour
from .widgets import ValueCombo, show_checked, show_value

SPLIT_PARTS = ("embedding", "loss")


class MegatronRows(QObject):
    def __init__(self, form: QFormLayout, edit: Callable[[dict[str, Any]], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form, self._edit = form, edit
        words = {"core_attn": self.tr("attention core"), "moe_act": self.tr("MoE activation"),
                 "layernorm": self.tr("norms"), "mla_up_proj": self.tr("MLA up-projections"), "mlp": self.tr("MLP"),
                 "moe": self.tr("MoE layer"), "shared_experts": self.tr("shared experts")}
        self.recompute_box, self.recompute = _check_row({m: words[m] for m in RECOMPUTE_MODULES})
        self.recompute_box.setToolTip(self.tr("Megatron recompute_modules: what selective checkpointing rebuilds "
                                              "in the backward pass instead of keeping"))
        form.addRow(self.tr("Rebuilt in backward"), self.recompute_box)
        self.offload_layers = QSpinBox()
        self.offload_layers.setRange(0, 1000)
        self.offload_layers.setSpecialValueText(self.tr("none"))
        self.offload_layers.setKeyboardTracking(False)
        self.offload_layers.setToolTip(self.tr("Megatron cpu_offloading_num_layers: decoder layers whose saved "
                                               "activations go to CPU memory"))
        form.addRow(self.tr("Layers offloaded to CPU memory"), self.offload_layers)
        self.split_box, self.split = _check_row({"embedding": self.tr("embedding"), "loss": self.tr("loss")})
        self.split_box.setToolTip(self.tr("Megatron account_for_embedding/loss_in_pipeline_split: each counts as "
                                          "one layer, so the first or last stage builds one decoder layer fewer"))
        form.addRow(self.tr("Counted as a layer when splitting"), self.split_box)
        self.dispatcher = ValueCombo(choice_items("moe_token_dispatcher_type", {
            "alltoall": self.tr("all-to-all: each routed copy to its expert (alltoall)"),
            "allgather": self.tr("all-gather: every rank's tokens to every rank (allgather)"),
            "flex": self.tr("DeepEP / HybridEP: once per node, then NVLink (flex)"),
        }))
        form.addRow(self.tr("MoE token dispatcher"), self.dispatcher)
        self.a2a_overlap = QCheckBox(self.tr("run each micro-batch's all-to-all beside another's compute"))
        self.a2a_overlap.setToolTip(self.tr("Megatron overlap_moe_expert_parallel_comm (combined 1F1B): one "
                                            "micro-batch's forward runs beside another's backward, layer by layer"))
        form.addRow(self.tr("MoE all-to-all overlap"), self.a2a_overlap)
        self.fused_expert_mlp = QCheckBox(self.tr("run the experts' MLP as fused grouped ops"))
        self.fused_expert_mlp.setToolTip(self.tr(
            "Megatron-Core use_transformer_engine_op_fuser (Transformer Engine's fused grouped-MLP ops; "
            "Megatron-Bridge's cutedsl_fused_grouped_mlp recipes turn it on): the experts' activation, its clamp "
            "and their biases run inside the fused ops instead of as separate element-wise kernels that read and "
            "write every routed token. It counts in the step time of models whose experts carry biases (gpt-oss), "
            "not in the memory estimate."))
        form.addRow(self.tr("MoE expert MLP"), self.fused_expert_mlp)
        self.grouped_gemm = QCheckBox(self.tr("all local experts in one grouped GEMM"))
        self.grouped_gemm.setToolTip(self.tr(
            "Megatron --moe-grouped-gemm (NVIDIA's recipes turn it on; off by default in Megatron-LM): off, "
            "SequentialMLP runs one expert after another, and at expert parallelism 1 its loop copies every "
            "routed token several more times. It changes the step time, not the memory estimate."))
        form.addRow(self.tr("MoE expert GEMMs"), self.grouped_gemm)
        self.rope_fusion = QCheckBox(self.tr("rotary embedding in one fused kernel"))
        self.rope_fusion.setToolTip(self.tr(
            "Megatron apply_rope_fusion (on unless --no-rope-fusion): off, Megatron-Core rotates the queries and keys "
            "with separate element-wise kernels that read and write them several more times, and keeps a cosine "
            "and a sine table per layer for the backward (4 x sequence x rotated head width elements)."))
        form.addRow(self.tr("Rotary embedding (RoPE)"), self.rope_fusion)
        self.cuda_graphs = ValueCombo(choice_items("cuda_graphs", {
            "auto": self.tr("as the framework does it (auto)"),
            "none": self.tr("none: every kernel launched on its own (none)"),
            "moe-router": self.tr("each MoE layer's router, its attention eager (moe-router)"),
            "attention": self.tr("each layer's attention and MoE router (attention)"),
            "layers": self.tr("every transformer layer (layers)"),
            "full-iteration": self.tr("the whole forward and backward (full-iteration)"),
        }))
        self.cuda_graphs.setToolTip(self.tr(
            "Megatron cuda_graph_scope: the captured parts replay as one graph launch instead of one launch per "
            "kernel, and captured MoE layers no longer wait for the CPU to read the token counts. It changes the "
            "step time where the CPU cannot keep the GPU busy (small layers, MoE), not the memory estimate."))
        form.addRow(self.tr("CUDA graphs (captured parts)"), self.cuda_graphs)
        self.fp8_recipe = ValueCombo(choice_items("fp8_recipe", {
            "auto": self.tr("as the framework does it"),
            "delayed": self.tr("delayed scaling (amax history)"),
            "tensorwise": self.tr("one scale per tensor, current (tensorwise)"),
            "mxfp8": self.tr("a scale per 32 values (MXFP8, Blackwell)"),
            "blockwise": self.tr("a scale per 128 values (blockwise)"),
            "rowwise": self.tr("a scale per row of each operand (torchao rowwise)"),
            "rowwise_with_gw_hp": self.tr("rowwise, weight gradients in 16 bits (torchao rowwise_with_gw_hp)"),
        }))
        self._fp8_recipe_tip = self.tr(
            "How fp8 training scales the operands of its matrix multiplications, in each library's own names: "
            "Transformer Engine's delayed, tensorwise, MXFP8 and blockwise (Megatron --fp8-recipe), torchao's rowwise "
            "and rowwise_with_gw_hp (torchtitan). Finer scales cost more casting time. It changes the step time, and "
            "the memory where the weights are kept in fp8 (fp8 weights): MXFP8 and blockwise keep a row-wise and a "
            "column-wise copy with their scales.")
        self.fp8_recipe.setToolTip(self._fp8_recipe_tip)
        form.addRow(self.tr("FP8 scaling recipe"), self.fp8_recipe)
        self.fp8_params = QCheckBox(self.tr("kept in fp8, no 16-bit copy"))
        self.fp8_params.setToolTip(self.tr("Megatron --fp8-param-gather: the layers' linear weights are stored and "
                                           "gathered in fp8 (Megatron-Bridge's fp8 recipes turn it on)"))
        form.addRow(self.tr("Layer weights"), self.fp8_params)
        self.fp8_all_gather = ValueCombo(choice_items("fp8_all_gather", {
            "auto": self.tr("as the framework does it (auto)"),
            True: self.tr("gathered in fp8: each shard cast before the all-gather (on)"),
            False: self.tr("gathered in 16 bits, cast after the all-gather (off)"),
        }))
        self.fp8_all_gather.setToolTip(self.tr(
            "torchao enable_fsdp_float8_all_gather: FSDP2 gathers the fp8 linear layers' weights in 1 byte instead "
            "of 2, halving that traffic, and casts only its own shard (OLMo-core turns it on, torchtitan leaves it "
            "off). Tensorwise scaling only; MoE experts are not gathered this way."))
        form.addRow(self.tr("FP8 weight all-gather (FSDP2)"), self.fp8_all_gather)
        for box in (*self.recompute.values(), *self.split.values()):
            box.toggled.connect(lambda _v: self._lists_changed())
        self.offload_layers.valueChanged.connect(lambda v: self._edit({"activation_offload_layers": v}))
        self.dispatcher.valueChosen.connect(lambda v: self._edit({"moe_token_dispatcher_type": v}))
        self.a2a_overlap.toggled.connect(lambda v: self._edit({"moe_a2a_overlap": v}))
        self.fused_expert_mlp.toggled.connect(lambda v: self._edit({"fused_expert_mlp": v}))
        self.grouped_gemm.toggled.connect(lambda v: self._edit({"moe_grouped_gemm": v}))
        self.rope_fusion.toggled.connect(lambda v: self._edit({"apply_rope_fusion": v}))
        self.cuda_graphs.valueChosen.connect(lambda v: self._edit({"cuda_graphs": v}))
        self.fp8_all_gather.valueChosen.connect(lambda v: self._edit({"fp8_all_gather": v}))
        self.fp8_recipe.valueChosen.connect(lambda v: self._edit({"fp8_recipe": v}))
        self.fp8_params.toggled.connect(lambda on: self._edit({"fp8_param_gather": on}))

    def _lists_changed(self) -> None:
        self._edit({"recompute_modules": [m for m, box in self.recompute.items() if box.isChecked()],
                    "pipeline_split_accounts_for": [p for p, box in self.split.items() if box.isChecked()]})

    def show_scenario(self, s: Scenario) -> None:
        for boxes, chosen in ((self.recompute, s.recompute_modules), (self.split, s.pipeline_split_accounts_for)):
            for name, box in boxes.items():
                show_checked(box, name in chosen)
        spec = resolve_model(s)
        if self.offload_layers.maximum() != spec.layers:  # a new range lays the form out again: only on a change
            self.offload_layers.blockSignals(True)
            self.offload_layers.setMaximum(spec.layers)
            self.offload_layers.blockSignals(False)
        show_value(self.offload_layers, s.activation_offload_layers)
        self.dispatcher.set_value(s.moe_token_dispatcher_type)
        for box, value in ((self.a2a_overlap, s.moe_a2a_overlap), (self.fused_expert_mlp, s.fused_expert_mlp),
                           (self.fp8_params, s.fp8_param_gather), (self.grouped_gemm, s.moe_grouped_gemm),
                           (self.rope_fusion, s.apply_rope_fusion)):
            show_checked(box, value)
        self.cuda_graphs.set_value(s.cuda_graphs)
        self.fp8_recipe.set_value(s.fp8_recipe)
        self._mark_fp8_recipe(s)
        self.fp8_all_gather.set_value(s.fp8_all_gather)
        megatron_args = TABLE[s.framework].takes_megatron_arguments
        form = self._form
        form.setRowVisible(self.recompute_box, megatron_args and s.checkpointing == "selective")
        form.setRowVisible(self.offload_layers, megatron_args or s.activation_offload_layers > 0)
        form.setRowVisible(self.split_box, megatron_args and s.pp > 1)
        form.setRowVisible(self.dispatcher, megatron_args and spec.is_moe and s.ep > 1)
        form.setRowVisible(self.a2a_overlap, megatron_args and spec.is_moe and s.ep > 1)
        # Megatron only (applies_to "framework megatron"), MoE only; a value set elsewhere stays visible, to be reset
        form.setRowVisible(self.fused_expert_mlp, (megatron_args and spec.is_moe) or s.fused_expert_mlp)
        form.setRowVisible(self.grouped_gemm, (megatron_args and spec.is_moe) or not s.moe_grouped_gemm)
        # where Megatron-Core's own RoPE runs (engine/timing/rope_fusion.py); an unfused one set elsewhere stays shown
        form.setRowVisible(self.rope_fusion, rope_fusion_applies(s, spec) or not s.apply_rope_fusion)
        form.setRowVisible(self.fp8_recipe, s.precision == "fp8")
        form.setRowVisible(self.cuda_graphs, megatron_args or s.cuda_graphs != "auto")
        form.setRowVisible(self.fp8_params, s.precision == "fp8" and (megatron_args or s.fp8_param_gather))
        form.setRowVisible(self.fp8_all_gather, s.precision == "fp8" and (
            s.fp8_all_gather != "auto" or fp8_all_gather_applies(s)))


    def _mark_fp8_recipe(self, s: Scenario) -> None:
        """The recipes the framework has no code for greyed, with the estimate's sentence as their tooltip; the
        scenario's own, where it is one, kept and marked in the warning colour (as parallel_limits.py marks a setting
        its framework cannot run)."""
        runs = TABLE[s.framework].runs
        for i in range(self.fp8_recipe.count()):
            value = self.fp8_recipe.itemData(i)
            lacks = not runs.runs_fp8_recipe("fp8", value)
            item = self.fp8_recipe.model().item(i)
            item.setEnabled(not lacks or value == s.fp8_recipe)
            item.setForeground(QColor(text_colour("muted")) if lacks and value != s.fp8_recipe else QBrush())
        sentence = cannot_run_sentences(s).get("fp8_recipe", "")
        label = self._form.labelForField(self.fp8_recipe)
        for w in (self.fp8_recipe, label) if label is not None else (self.fp8_recipe,):
            w.setToolTip(sentence or self._fp8_recipe_tip)
            mark_warning(w, bool(sentence))


def _check_row(labels: dict[str, str], columns: int = 2) -> tuple[QWidget, dict[str, QCheckBox]]:
    """Check boxes in a grid: seven in one line would widen the whole set-up panel."""
    row = QWidget()
    layout = QGridLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    boxes = {}
    for i, (key, label) in enumerate(labels.items()):
        boxes[key] = QCheckBox(label)
        layout.addWidget(boxes[key], i // columns, i % columns)
    return row, boxes
