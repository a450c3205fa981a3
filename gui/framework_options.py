"""The training framework picker and the options that matter for the chosen framework, in plain words."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QFormLayout, QGroupBox, QSpinBox, QVBoxLayout, QWidget

from engine import Scenario
from engine.frameworks import TABLE
from engine.scenario.choices import ADAPTER_METHODS

from .choices import choice_items
from .megatron_rows import MegatronRows
from .state import AppState
from .widgets import ValueCombo, show_checked, show_value

# DeepSpeed's bucket keys count elements; the window shows them in millions (DeepSpeed's defaults: 500, 500, 1000, 50).
_BUCKET_KEYS = ("reduce_bucket_size", "allgather_bucket_size", "stage3_max_live_parameters",
                "stage3_prefetch_bucket_size")
MILLION = 1_000_000


class FrameworkOptions(QWidget):
    """Framework picker, loss path, compile, offloading and framework-specific switches."""

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        box = QGroupBox(self.tr("Training framework"))
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.framework = ValueCombo(choice_items("framework", {
            # TRL's own trainers have rows of their own (trl, trl-2025), as axolotl (its TRL trainers): they cast a
            # 4-bit model's adapters to bf16; axolotl's SFT trains as the Hugging Face Trainer does
            "huggingface": self.tr("Hugging Face Trainer / LLaMA-Factory"),
            "deepspeed": self.tr("DeepSpeed"),
            "deepspeed-2022": self.tr("DeepSpeed 0.4.4-0.12 (2021-2023)"),
            "deepspeed-2021": self.tr("DeepSpeed (April 2021)"),
            "torchtune": self.tr("torchtune"),
            "torchtitan": self.tr("torchtitan"),
            "megatron": self.tr("Megatron-LM / NeMo"),
            "megatron-2022": self.tr("Megatron-LM (2022 to mid-2023)"),
            "megatron-2021": self.tr("Megatron-LM (2021)"),
            "megatron-zb": self.tr("Megatron-LM (Zero Bubble PP fork)"),
            "unsloth": self.tr("Unsloth"),
            "litgpt": self.tr("LitGPT"),
            "pytorch": self.tr("plain PyTorch loop"),
            "fms-fsdp": self.tr("PyTorch FSDP (IBM fms-fsdp)"),
            "olmo-core": self.tr("OLMo-core"),
            "nemo-automodel-te": self.tr("NeMo AutoModel, Transformer Engine backend"),
            "internevo": self.tr("InternEvo"),
            "aleph-alpha-scaling": self.tr("Aleph Alpha Scaling (2023 layout sweep)"),
            "trl": self.tr("TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward from 0.26, RLOO 0.27, "
                            "DPO / IPO 0.29, KTO 1.4)"),
            "verl": self.tr("verl (post-training)"),
            "openrlhf": self.tr("OpenRLHF (post-training)"),
            "ms-swift": self.tr("ms-swift (post-training)"),
            "nemo-rl": self.tr("NeMo-RL (post-training)"),
            "meta-llama3": self.tr("Meta's Llama 3 stack (arXiv:2407.21783)"),
            "verl-megatron": self.tr("verl, Megatron actor (post-training)"),
            "nemo-rl-megatron": self.tr("NeMo-RL, Megatron backend (post-training)"),
            "mlx": self.tr("MLX / mlx-lm (Apple GPUs)"),
            "mlx-2023": self.tr("MLX v0.0.6 (December 2023, Apple GPUs)"),
            "trl-2025": self.tr("TRL before its trainer's bf16 cast (QLoRA adapters in fp32: every trainer up to 0.25, "
                                 "RLOO 0.26, DPO / IPO up to 0.28, KTO up to 1.3)"),
            "unsloth-2024": self.tr("Unsloth up to 2025.1 (2024; no global dequantisation buffer)"),
            "axolotl": self.tr("axolotl (QLoRA adapters in bf16 for DPO / IPO, KTO, reward, GRPO)"),
        }))
        self.framework.setToolTip(self.tr("Sets the loss, checkpointing and loading the framework uses by default"))
        form.addRow(self.tr("Framework"), self.framework)
        self.cross_entropy = ValueCombo(choice_items("cross_entropy", {
            "auto": self.tr("as the framework does it"),
            "standard": self.tr("whole-batch logits in fp32 (standard)"),
            "chunked": self.tr("logits in chunks (chunked)"),
            "fused": self.tr("one fused kernel over the logits (flash-attn)"),
            "te": self.tr("Transformer Engine's fused kernel, fp32 gradient (Megatron)"),
            "te-inplace": self.tr("Transformer Engine's fused kernel before v2.18, gradient over the logits "
                                  "(Megatron)"),
            "megatron-fused": self.tr("Megatron's fused vocab-parallel loss, compiled backward (ms-swift's default)"),
            "fused-linear": self.tr("fused with the output layer, no logits (Liger / fused)"),
            "no-upcast": self.tr("whole-batch logits in the compute dtype, no fp32 upcast (Qwen-1, older models)"),
            "megatron-unfused": self.tr("Megatron's vocab-parallel loss without its fusion flag, kernel by kernel "
                                        "(Megatron-LM before mid-2024)"),
        }))
        form.addRow(self.tr("Loss computation"), self.cross_entropy)
        self.attention_kernel = ValueCombo(choice_items("attention_kernel", {
            "auto": self.tr("the framework's choice for the GPU (auto)"),
            "flash1": self.tr("FlashAttention-1 (flash1)"),
            "flash2": self.tr("FlashAttention-2 (flash2)"),
            "flash3": self.tr("FlashAttention-3, Hopper only (flash3)"),
            "flash4": self.tr("FlashAttention-4, Hopper and Blackwell (flash4)"),
            "cudnn": self.tr("cuDNN 9 fused attention, Transformer Engine (cudnn)"),
            "cudnn8": self.tr("cuDNN 8.9 fused attention, older NeMo containers (cudnn8)"),
            "triton": self.tr("Triton FlashAttention, llm-foundry's attn_impl triton (triton)"),
        }))
        self.attention_kernel.setToolTip(self.tr(
            "Which fused attention kernel the step time assumes. Their speed differs by GPU generation "
            "(FlashAttention-3 on Hopper, cuDNN and FlashAttention-4 on Blackwell); the memory is the same."))
        form.addRow(self.tr("Attention kernel variant"), self.attention_kernel)
        self.compile = QCheckBox(self.tr("compile the model (torch.compile)"))
        self.liger_kernels = QCheckBox(self.tr("Liger kernels for norms and SwiGLU (use_liger_kernel)"))
        self.liger_kernels.setToolTip(self.tr(
            "Liger-Kernel's RMSNorm and SwiGLU keep fewer tensors for the backward pass"))
        self.activation_offload = QCheckBox(self.tr("move saved activations to CPU memory (activation offloading)"))
        self.optimizer_in_backward = QCheckBox(self.tr("update weights during the backward pass (optimizer in backward)"))
        self.distributed_optimizer = QCheckBox(self.tr("shard optimizer states over GPUs (distributed optimizer)"))
        self.save_embed = QCheckBox(self.tr("also fully train the token embeddings (modules_to_save)"))
        self.save_head = QCheckBox(self.tr("also fully train the output layer (modules_to_save)"))
        for widget in (self.compile, self.liger_kernels, self.activation_offload, self.optimizer_in_backward,
                       self.distributed_optimizer, self.save_embed, self.save_head):
            # spanning the row: a short one stayed in the field column while long ones wrapped to the left edge
            form.addRow(widget)
        self.expandable_segments = ValueCombo(choice_items("expandable_segments", {
            "auto": self.tr("as the framework's launcher sets it"),
            True: self.tr("one growing block per stream (expandable_segments on)"),
            False: self.tr("a block per request (expandable_segments off)"),
        }))
        self.expandable_segments.setToolTip(self.tr(
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True leaves fewer reserved-but-unused gaps"))
        form.addRow(self.tr("GPU memory allocator"), self.expandable_segments)
        self.main_grads_fp32 = ValueCombo(choice_items("main_grads_fp32", {
            "auto": self.tr("as Megatron does it (fp32)"),
            True: self.tr("accumulate gradients in fp32 (main_grads_fp32)"),
            False: self.tr("gradients in the training precision (main_grads_fp32 off)"),
        }))
        form.addRow(self.tr("Gradient buffer"), self.main_grads_fp32)
        labels = (self.tr("Gradient reduce bucket (reduce_bucket_size)"),
                  self.tr("Weight gather bucket (allgather_bucket_size)"),
                  self.tr("Most gathered weights at once (stage3_max_live_parameters)"),
                  self.tr("Weights fetched ahead (stage3_prefetch_bucket_size)"))
        self.buckets: dict[str, QDoubleSpinBox] = {}
        for key, label in zip(_BUCKET_KEYS, labels, strict=True):
            spin = QDoubleSpinBox()
            spin.setDecimals(1)
            spin.setRange(0.1, 1_000_000)
            spin.setSuffix(self.tr(" million values"))
            spin.setKeyboardTracking(False)
            spin.setToolTip(self.tr("DeepSpeed ZeRO setting, in millions of values (elements)"))
            form.addRow(label, spin)
            self.buckets[key] = spin
        self.host_memory = QSpinBox()
        self.host_memory.setRange(0, 65536)
        self.host_memory.setSuffix(" GiB")
        self.host_memory.setSpecialValueText(self.tr("not set"))
        self.host_memory.setKeyboardTracking(False)
        self.host_memory.setToolTip(self.tr("CPU memory of one node: checked against what loading and offloading need"))
        form.addRow(self.tr("CPU memory per node"), self.host_memory)
        self.megatron = MegatronRows(form, self._edit, self)
        self._form = form
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(box)
        self._connect()
        state.scenarioChanged.connect(self.show_scenario)
        self.show_scenario(state.scenario)

    def _connect(self) -> None:
        self.framework.valueChosen.connect(lambda v: self._edit({"framework": v}))
        self.cross_entropy.valueChosen.connect(lambda v: self._edit({"cross_entropy": v}))
        self.attention_kernel.valueChosen.connect(lambda v: self._edit({"attention_kernel": v}))
        for key in ("compile", "liger_kernels", "activation_offload", "optimizer_in_backward", "distributed_optimizer"):
            getattr(self, key).toggled.connect(lambda v, k=key: self._edit({k: v}))
        self.save_embed.toggled.connect(lambda _v: self._modules_changed())
        self.save_head.toggled.connect(lambda _v: self._modules_changed())
        self.expandable_segments.valueChosen.connect(lambda v: self._edit({"expandable_segments": v}))
        self.main_grads_fp32.valueChosen.connect(lambda v: self._edit({"main_grads_fp32": v}))
        for key, box in self.buckets.items():
            box.valueChanged.connect(lambda v, k=key: self._edit({k: max(1, round(v * MILLION))}))
        self.host_memory.valueChanged.connect(
            lambda v: self._edit({"host_memory_bytes": v * 2**30 if v else None}))

    def _modules_changed(self) -> None:
        modules = [name for name, box in (("embed_tokens", self.save_embed), ("lm_head", self.save_head))
                   if box.isChecked()]
        self._edit({"modules_to_save": modules})

    def _edit(self, changes: dict[str, Any]) -> None:
        if not self.state.edit(changes):
            self.show_scenario(self.state.scenario)

    def show_scenario(self, s: Scenario) -> None:
        self.framework.set_value(s.framework)
        self.cross_entropy.set_value(s.cross_entropy)
        self.attention_kernel.set_value(s.attention_kernel)
        for box, value in ((self.compile, s.compile), (self.liger_kernels, s.liger_kernels),
                           (self.activation_offload, s.activation_offload),
                           (self.optimizer_in_backward, s.optimizer_in_backward),
                           (self.distributed_optimizer, s.distributed_optimizer),
                           (self.save_embed, "embed_tokens" in s.modules_to_save),
                           (self.save_head, "lm_head" in s.modules_to_save)):
            show_checked(box, value)
        show_value(self.host_memory, round((s.host_memory_bytes or 0) / 2**30))
        self.expandable_segments.set_value(s.expandable_segments)
        self.main_grads_fp32.set_value(s.main_grads_fp32)
        for key, box in self.buckets.items():
            show_value(box, getattr(s, key) / MILLION)
        # each framework-specific control shows where its framework (or an explicit setting) makes it count
        row = TABLE[s.framework]
        # eager attention runs no fused kernel: the variant counts only for SDPA / FlashAttention (or when set)
        self._form.setRowVisible(self.attention_kernel, s.attention != "eager" or s.attention_kernel != "auto")
        self._form.setRowVisible(self.main_grads_fp32, row.takes_megatron_arguments or s.main_grads_fp32 != "auto")
        buckets_apply = row.zero_bucket_settings
        zero12 = buckets_apply and s.zero_stage in (1, 2)
        zero3 = buckets_apply and s.zero_stage == 3 and not s.fsdp
        for key in _BUCKET_KEYS:
            self._form.setRowVisible(self.buckets[key], zero3 if key.startswith("stage3") else zero12)
        adapters = s.method in ADAPTER_METHODS
        self._form.setRowVisible(self.save_embed, adapters)
        self._form.setRowVisible(self.save_head, adapters)
        self._form.setRowVisible(self.distributed_optimizer, row.takes_megatron_arguments or s.distributed_optimizer)
        self._form.setRowVisible(self.optimizer_in_backward, s.grad_accum == 1 or s.optimizer_in_backward)
        self.framework.setToolTip(self.tr("Sets the loss, checkpointing and loading the framework uses by default")
                                  + f" ({row.label})")
        self.megatron.show_scenario(s)
