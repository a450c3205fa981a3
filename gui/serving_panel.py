"""Serve mode's set-up (issue 26): the inference engine, the deployed weight format, the KV cache, sliders for the
context per user and the users at once, and the engine's own settings. vLLM/SGLang rows and llama.cpp/ollama rows
show only for their engines. Every change is one undo step through AppState; a slider drag is one step too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGroupBox,
    QVBoxLayout,
    QWidget,
)

from engine import Scenario, get_gpu, resolve_model
from engine.models.weight_formats import format_read_by
from engine.scenario.serving_key_words import SERVING_VALUE_WORDS
from engine.scenario.serving_keys import CONTEXT_MAX, GGUF_ENGINES, GGUF_FORMATS

from .choices import choice_items
from .editor_panel import EditorPanel
from .state import AppState
from .widgets import (
    PowerOfTwoInput,
    ValueCombo,
    committed_spin,
    set_form_tooltips,
    set_up_form,
    show_checked,
    show_value,
)
from .words import field_label

PAGED = ("vllm", "sglang")
USERS_MAX = 4096  # n_parallel's bound; max_num_seqs takes more in its spin box's file value, never from the slider
KV_CHOICES = {"gguf": ("auto", "q8_0", "q4_0"), "paged": ("auto", "fp8"), "plain": ("auto",)}


def _words(key: str) -> dict[Any, str]:
    """A key's choices in on-screen words (engine/scenario/serving_key_words.py, translated in the "Fields"
    context)."""
    return {value: QCoreApplication.translate("Fields", text) for value, text in SERVING_VALUE_WORDS[key].items()}


class ServingPanel(EditorPanel):
    """The set-up of an inference scenario; hidden in Train mode (gui/serve_mode.py shows it)."""

    errors_only_while_shown = True

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        box = QGroupBox(self.tr("Serving set-up"))
        form = set_up_form(box)
        self._form = form
        self.engine = ValueCombo(choice_items("serving_engine", _words("serving_engine")))
        self.weight_format = ValueCombo()
        self.kv_cache_dtype = ValueCombo()
        self.context = PowerOfTwoInput(1, CONTEXT_MAX, slider_min=512, slider_max=1_048_576)
        self.users = PowerOfTwoInput(1, USERS_MAX, slider_min=1, slider_max=1024)
        for key, widget in (("serving_engine", self.engine), ("weight_format", self.weight_format),
                            ("kv_cache_dtype", self.kv_cache_dtype), ("max_model_len", self.context),
                            ("max_num_seqs", self.users)):
            form.addRow(field_label(key), widget)
        default = self.tr("engine default")
        self.max_num_batched_tokens = committed_spin(0, CONTEXT_MAX, default)
        self.gpu_memory_utilization = QDoubleSpinBox()
        self.gpu_memory_utilization.setRange(0.0, 1.0)
        self.gpu_memory_utilization.setSingleStep(0.01)
        self.gpu_memory_utilization.setSpecialValueText(default)
        self.gpu_memory_utilization.setKeyboardTracking(False)
        self.block_size = committed_spin(0, 4096, default)
        self.enforce_eager = QCheckBox(field_label("enforce_eager"))
        self.n_gpu_layers = committed_spin(-1, 100_000, self.tr("all"))
        self.n_ctx = committed_spin(0, CONTEXT_MAX, self.tr("the model's training context"))
        self.n_batch = committed_spin(1, CONTEXT_MAX)
        self.n_ubatch = committed_spin(1, CONTEXT_MAX)
        self.flash_attn = ValueCombo(choice_items("flash_attn", _words("flash_attn")))
        self.gguf_batch_matmul = ValueCombo(choice_items("gguf_batch_matmul", _words("gguf_batch_matmul")))
        self.tp, self.pp, self.ep = (committed_spin(1, 512) for _ in range(3))
        self._paged_rows = (self.max_num_batched_tokens, self.gpu_memory_utilization, self.block_size,
                            self.enforce_eager)
        self._gguf_rows = (self.n_gpu_layers, self.n_ctx, self.n_batch, self.n_ubatch, self.flash_attn)
        for key in ("max_num_batched_tokens", "gpu_memory_utilization", "block_size"):
            # wide enough for "engine default" whole: the form puts the box under its label rather than clip it
            getattr(self, key).setMinimumWidth(getattr(self, key).sizeHint().width())
            form.addRow(field_label(key), getattr(self, key))
        form.addRow("", self.enforce_eager)
        for key in ("n_gpu_layers", "n_ctx", "n_batch", "n_ubatch", "flash_attn", "gguf_batch_matmul", "tp", "pp", "ep"):
            form.addRow(field_label(key), getattr(self, key))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(box)
        layout.addWidget(self.error)
        self._set_tooltips()
        self._connect()
        self.follow_state()

    def _set_tooltips(self) -> None:
        tips = {
            self.engine: self.tr("The program that serves the model. vLLM and SGLang give what is left of their "
                                 "share of the GPU to the KV cache; llama.cpp and Ollama size it from n_ctx."),
            self.weight_format: self.tr("How the weights are stored on the GPU: 16-bit, 8-bit or 4-bit checkpoints "
                                        "(vLLM, SGLang) or a GGUF quantization (llama.cpp, Ollama). Fewer bits: "
                                        "less memory, more room for the KV cache, some quality loss."),
            self.kv_cache_dtype: self.tr("Number format of the KV cache: fp8 (vLLM, SGLang) or q8_0 / q4_0 "
                                         "(llama.cpp) hold twice or four times the tokens."),
            self.context: self.tr("Longest prompt plus answer of one user. The KV cache must hold at least one "
                                  "sequence this long or the engine refuses to start."),
            self.users: self.tr("Sequences decoded together (vLLM max_num_seqs; llama.cpp n_parallel slots, each "
                                "with the context above). Memory decides how many really fit: see the users chart."),
            self.gpu_memory_utilization: self.tr("Share of each GPU the engine takes, KV cache included; the rest "
                                                 "stays free for other processes."),
            self.n_gpu_layers: self.tr("Layers llama.cpp keeps on the GPUs; the others stay in CPU memory and run "
                                       "on the CPU (much slower)."),
            self.tp: self.tr("Split every layer over this many GPUs: each holds a share of the weights and KV."),
            self.gguf_batch_matmul: self.tr("When your llama.cpp (or Ollama) build was made. Builds from October "
                                            "2023 to June 2024 (PR #3776 to PR #8075) turn each quantized matrix "
                                            "into 16-bit numbers for every batch of prompt tokens before multiplying "
                                            "it: slower prompts on NVIDIA GPUs, and GPU memory for the 16-bit copy. "
                                            "Later builds multiply the quantized "
                                            "numbers directly (V100s still take the 16-bit path)."),
        }
        set_form_tooltips(self._form, tips)

    def _connect(self) -> None:
        edit = self._edit
        self.engine.valueChosen.connect(self._engine_chosen)
        for key in ("weight_format", "kv_cache_dtype", "flash_attn", "gguf_batch_matmul"):
            getattr(self, key).valueChosen.connect(lambda v, k=key: edit({k: v}))
        self.context.valueEdited.connect(lambda v, drag: self._slider_edit("context", v, drag))
        self.users.valueEdited.connect(lambda v, drag: self._slider_edit("users", v, drag))
        self.context.slider.sliderReleased.connect(self._end_drag)
        self.users.slider.sliderReleased.connect(self._end_drag)
        for key in ("max_num_batched_tokens", "block_size"):
            getattr(self, key).valueChanged.connect(lambda v, k=key: edit({k: v or None}))
        self.gpu_memory_utilization.valueChanged.connect(
            lambda v: edit({"gpu_memory_utilization": round(v, 2) or None}))
        self.enforce_eager.toggled.connect(lambda v: edit({"enforce_eager": v}))
        for key in ("n_gpu_layers", "n_ctx", "n_batch", "n_ubatch", "tp", "pp", "ep"):
            getattr(self, key).valueChanged.connect(lambda v, k=key: edit({k: v}))

    # --- editing
    def _engine_chosen(self, engine: str) -> None:
        """A GGUF file is llama.cpp's and a quantized KV type each engine's own: both follow the engine."""
        s = self.state.scenario
        changes: dict[str, Any] = {"serving_engine": engine}
        gguf = engine in GGUF_ENGINES
        if (s.weight_format in GGUF_FORMATS) != gguf or not format_read_by(s.weight_format, engine):
            changes["weight_format"] = "Q4_K_M" if gguf else "checkpoint"
        if s.kv_cache_dtype not in KV_CHOICES[_kind(engine)]:
            changes["kv_cache_dtype"] = "auto"
        self._edit(changes)

    def context_changes(self, tokens: int) -> dict[str, Any]:
        """Context per user: max_model_len, or llama.cpp's n_ctx for its n_parallel slots."""
        s = self.state.scenario
        if s.serving_engine in GGUF_ENGINES:
            return {"n_ctx": tokens * s.n_parallel}
        return {"max_model_len": tokens}

    def users_changes(self, users: int) -> dict[str, Any]:
        """Users at once: max_num_seqs, or llama.cpp's n_parallel slots, each keeping its context."""
        s = self.state.scenario
        if s.serving_engine in GGUF_ENGINES:
            slot = (s.n_ctx or resolve_model(s).max_position) // max(1, s.n_parallel)
            return {"n_parallel": users, "n_ctx": slot * users}
        return {"max_num_seqs": users or None}  # the spin box's 0 reads "engine default"

    def slider_changes(self, which: str, value: int) -> dict[str, Any]:
        return self.context_changes(value) if which == "context" else self.users_changes(value)

    # --- showing

    def show_scenario(self, s: Scenario) -> None:
        if s.workload != "inference":
            return
        spec = resolve_model(s)
        gguf = s.serving_engine in GGUF_ENGINES
        self.engine.set_value(s.serving_engine)
        formats = [(v, t) for v, t in choice_items("weight_format", _words("weight_format"))
                   if ((v in GGUF_FORMATS) == gguf or v == "checkpoint" and not gguf)
                   and format_read_by(v, s.serving_engine)]  # MLX's affine formats: the mlx engine alone
        kv = [(v, t) for v, t in choice_items("kv_cache_dtype", _words("kv_cache_dtype"))
              if v in KV_CHOICES[_kind(s.serving_engine)]]
        for combo, items, value in ((self.weight_format, formats, s.weight_format),
                                    (self.kv_cache_dtype, kv, s.kv_cache_dtype)):
            if items != getattr(combo, "_shown", None):  # rebuilding a combo is slow: only on a change
                combo._shown = items
                combo.set_items(items)
            combo.set_value(value)
        self.flash_attn.set_value(s.flash_attn)
        self.gguf_batch_matmul.set_value(s.gguf_batch_matmul)
        if gguf:
            slots = max(1, s.n_parallel)
            self.context.set_value((s.n_ctx or spec.max_position) // slots)
            self.users.set_value(slots)
        else:
            self.context.set_value(s.max_model_len or spec.max_position)
            self.users.set_value(s.max_num_seqs or 1)
        special = "" if gguf or s.max_num_seqs else self.tr("engine default")
        if self.users.spin.specialValueText() != special:  # each lays the form out again: only on a change
            self.users.spin.setSpecialValueText(special)
            self.users.spin.setMinimumWidth(max(80, self.users.spin.sizeHint().width() if special else 80))
        if self.users.spin.minimum() != (1 if gguf or s.max_num_seqs else 0):
            self.users.spin.setMinimum(1 if gguf or s.max_num_seqs else 0)
        if not gguf and not s.max_num_seqs:
            show_value(self.users.spin, 0)
        for spin, value in ((self.max_num_batched_tokens, s.max_num_batched_tokens or 0),
                            (self.block_size, s.block_size or 0), (self.n_gpu_layers, s.n_gpu_layers),
                            (self.n_ctx, s.n_ctx), (self.n_batch, s.n_batch), (self.n_ubatch, s.n_ubatch),
                            (self.tp, s.tp), (self.pp, s.pp), (self.ep, s.ep),
                            (self.gpu_memory_utilization, s.gpu_memory_utilization or 0.0)):
            show_value(spin, value)
        show_checked(self.enforce_eager, s.enforce_eager)
        paged = s.serving_engine in PAGED
        for widget in self._paged_rows:
            self._form.setRowVisible(widget, paged)
        for widget in self._gguf_rows:
            self._form.setRowVisible(widget, gguf)
        # the build's prompt path differs only in llama.cpp's CUDA backend (engine/serving/gguf_prefill.py)
        nvidia = isinstance(s.gpu, str) and get_gpu(s.gpu).vendor == "NVIDIA"
        self._form.setRowVisible(self.gguf_batch_matmul, gguf and (nvidia or s.gguf_batch_matmul != "mmq"))
        for widget, key in ((self.context, "n_ctx_per_slot" if gguf else "max_model_len"),
                            (self.users, "n_parallel" if gguf else "max_num_seqs")):
            label = self._form.labelForField(widget)
            text = self.tr("Context per user (n_ctx / n_parallel)") if key == "n_ctx_per_slot" else field_label(key)
            if label is not None and label.text() != text:  # each lays the form out again: only on a change
                label.setText(text)
            if widget.slider.accessibleName() != text:
                widget.set_accessible_name(text)
        self._form.setRowVisible(self.tp, not gguf)
        self._form.setRowVisible(self.pp, not gguf)
        self._form.setRowVisible(self.ep, not gguf and spec.is_moe)


def _kind(engine: str) -> str:
    return "gguf" if engine in GGUF_ENGINES else "paged" if engine in PAGED else "plain"
