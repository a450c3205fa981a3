"""The scenario file (schema_version 1): one flat JSON object, validated key by key.

DEFAULTS below is the one place where defaults are documented; docs/scenario-format.md
is generated from the same table by `python main.py schema`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .architecture import ModelSpec
from .base_storage import BASE_STORAGE_MEANING, BASE_STORAGES
from .consistency import check_consistency, default_lora_targets, lora_target_names  # noqa: F401 - re-exported
from .custom_parts import (  # noqa: F401 - re-exported
    CUSTOM_GPU_DESCRIPTIVE,
    CUSTOM_GPU_FIELDS,
    CustomGpu,
    CustomModel,
    custom_model_spec,
    parse_gpu_value,
    parse_model_value,
)
from .errors import ScenarioError
from .frameworks.keys import FRAMEWORK_KEYS, parse_auto_bools, parse_choices_and_bools, parse_framework_keys
from .frameworks.model import as_built
from .input_bounds import check_int_range, check_scenario_numbers
from .messages import QT_TRANSLATE_NOOP
from .presets import GpuPreset, get_gpu, model_spec_for
from .time_keys import CUSTOM_GPU_SPEED_KEYS, TIME_DEFAULTS, parse_gpu_speed, parse_time_keys  # noqa: F401

SCHEMA_VERSION = 1
MAX_SCENARIO_BYTES = 8 * 1024 * 1024

METHODS = ("full", "freeze", "lora", "qlora")
PRECISIONS = ("fp32", "amp-bf16", "amp-fp16", "bf16", "fp16", "mixed-bf16", "mixed-fp16", "fp8")
OPTIMIZERS = ("adamw", "adamw-fused", "adamw-8bit", "adamw-8bit-paged", "sgd", "sgd-momentum", "adafactor")
ATTENTIONS = ("sdpa", "flash", "eager")
CHECKPOINTINGS = ("none", "full", "selective", "op-selective")
FREEZE_SIDES = ("bottom", "top")
OFFLOADS = ("none", "optimizer", "optimizer+params")
PP_SCHEDULES = ("1f1b", "gpipe", "interleaved-1f1b")
ESTIMATORS = ("detailed", "seed-per-op", "seed-k-factor", "seed-alpha")
ADAPTER_DTYPES = ("fp32", "compute")
VISION_TOWER_MODES = ("frozen", "trained")

# key: (default, meaning). Order is the order of the file format documentation.
DEFAULTS: dict[str, tuple[Any, str]] = {
    "schema_version": (SCHEMA_VERSION, "file format version"),
    "name": ("Untitled scenario", "shown in the window title and the library"),
    "notes": ("", "free text"),
    "model": (None, 'preset id (e.g. "llama-3-8b") or {"name": ..., "hf_config": {config.json}}; required'),
    "gpu": ("h100-sxm-80gb", 'preset id or {"name": ..., "memory_bytes": N}'),
    "gpus_per_node": (1, "GPUs in each node"),
    "nodes": (1, "nodes; world size = gpus_per_node x nodes"),
    "method": ("full", " | ".join(METHODS)),
    "precision": ("amp-bf16", " | ".join(PRECISIONS)),
    "optimizer": ("adamw", " | ".join(OPTIMIZERS) + " (adamw = PyTorch's default foreach AdamW)"),
    "micro_batch": (1, "sequences per GPU per forward pass"),
    "seq_len": (2048, "tokens per sequence"),
    "grad_accum": (1, "micro-batches accumulated per optimizer step"),
    "attention": ("sdpa", " | ".join(ATTENTIONS)),
    "checkpointing": ("none", " | ".join(CHECKPOINTINGS) + " (activation checkpointing; selective: as the framework "
                      "means it, Megatron's attention-core recompute or torchtune/torchtitan's per-op policy; "
                      "op-selective: torchtitan's per-op policy, which saves every other matmul output and attention)"),
    "lora_rank": (16, "LoRA rank r (lora / qlora)"),
    "lora_targets": (["q_proj", "v_proj"], 'module names, "attention" (all attention projections) or "all-linear"'),
    "lora_alpha": (32, "LoRA scaling numerator (no effect on memory; kept so peft settings round-trip)"),
    "lora_adapter_dtype": ("fp32", "fp32 (peft's default upcast) | compute (adapters in the compute dtype)"),
    "frozen_layers": (0, "decoder layers frozen (method freeze)"),
    "freeze_embeddings": (True, "freeze the token embeddings too (method freeze)"),
    "freeze_from": ("bottom", "which end the frozen layers are taken from: bottom | top"),
    "qlora_bits": (4, "4 (NF4) | 8 (LLM.int8) base weights (qlora)"),
    "qlora_double_quant": (True, "quantise the quantisation constants too (qlora)"),
    "base_storage": ("compute", BASE_STORAGE_MEANING),
    "tp": (1, "tensor parallel degree"),
    "pp": (1, "pipeline parallel degree"),
    "pp_schedule": ("1f1b", " | ".join(PP_SCHEDULES) + " (pipeline schedule: micro-batches kept in flight per stage)"),
    "vpp": (1, "virtual pipeline stages (model chunks) per rank; more than 1 needs pp_schedule interleaved-1f1b"),
    "ep": (1, "expert parallel degree (MoE)"),
    "cp": (1, "context parallel degree"),
    "sequence_parallel": (False, "shard norms/residual activations over tp"),
    "loss_parallel": ("auto", 'vocabulary-parallel loss: true | false | "auto" (on in torchtitan and Megatron)'),
    "zero_stage": (0, "0 | 1 (optimizer states) | 2 (+ gradients) | 3 (+ weights)"),
    "fsdp": (False, "PyTorch FSDP FULL_SHARD, the same as ZeRO-3"),
    "reshard_after_forward": (True, "FSDP/ZeRO-3 frees each layer's gathered weights after its forward "
                              "(false keeps them from forward to backward)"),
    "offload": ("none", " | ".join(OFFLOADS) + " (to CPU memory)"),
    **FRAMEWORK_KEYS,
    "estimator": ("detailed", " | ".join(ESTIMATORS)),
    "k_factor": (3.0, "K of the seed-k-factor estimator"),
    "reserve": ("auto", '"auto" (the seeds\' table) or a fraction of the peak kept free'),
    "images_per_sample": (0, "images in each sequence (vision-language models); seq_len counts their tokens too"),
    "image_resolution": (0, "image side in pixels (0: the vision tower's native size)"),
    "vision_tower": ("frozen", " | ".join(VISION_TOWER_MODES) + " (vision-language models: train the tower and projector?)"),
    **TIME_DEFAULTS,
}

_POSITIVE_INTS = ("gpus_per_node", "nodes", "micro_batch", "seq_len", "grad_accum", "lora_rank", "tp", "pp", "ep", "cp",
                  "vpp")
_CHOICES = {
    "method": METHODS,
    "precision": PRECISIONS,
    "optimizer": OPTIMIZERS,
    "attention": ATTENTIONS,
    "checkpointing": CHECKPOINTINGS,
    "freeze_from": FREEZE_SIDES,
    "offload": OFFLOADS,
    "estimator": ESTIMATORS, "lora_adapter_dtype": ADAPTER_DTYPES,
    "pp_schedule": PP_SCHEDULES,
    "vision_tower": VISION_TOWER_MODES, "base_storage": BASE_STORAGES,
}
_BOOLS = ("freeze_embeddings", "qlora_double_quant", "sequence_parallel", "fsdp", "reshard_after_forward")


@dataclass(frozen=True, slots=True)
class Scenario:
    model: str | CustomModel
    name: str = "Untitled scenario"
    notes: str = ""
    gpu: str | CustomGpu = "h100-sxm-80gb"
    gpus_per_node: int = 1
    nodes: int = 1
    method: str = "full"
    precision: str = "amp-bf16"
    optimizer: str = "adamw"
    micro_batch: int = 1
    seq_len: int = 2048
    grad_accum: int = 1
    attention: str = "sdpa"
    checkpointing: str = "none"
    lora_rank: int = 16
    lora_targets: tuple[str, ...] | str = ("q_proj", "v_proj")
    lora_alpha: float = 32
    lora_adapter_dtype: str = "fp32"
    frozen_layers: int = 0
    freeze_embeddings: bool = True
    freeze_from: str = "bottom"
    qlora_bits: int = 4
    qlora_double_quant: bool = True
    base_storage: str = "compute"
    tp: int = 1
    pp: int = 1
    pp_schedule: str = "1f1b"
    vpp: int = 1
    ep: int = 1
    cp: int = 1
    sequence_parallel: bool = False
    loss_parallel: bool | str = "auto"
    zero_stage: int = 0
    fsdp: bool = False
    reshard_after_forward: bool = True
    offload: str = "none"
    lora_dropout: float = 0.0
    framework: str = "huggingface"
    cross_entropy: str = "auto"
    compile: bool = False
    liger_kernels: bool = False
    activation_offload: bool = False
    optimizer_in_backward: bool = False
    modules_to_save: tuple[str, ...] = ()
    recompute_modules: tuple[str, ...] = ("core_attn",)
    activation_offload_layers: int = 0
    pipeline_split_accounts_for: tuple[str, ...] = ()
    expandable_segments: bool | str = "auto"
    reduce_bucket_size: int = 500_000_000
    allgather_bucket_size: int = 500_000_000
    stage3_max_live_parameters: int = 1_000_000_000
    stage3_prefetch_bucket_size: int = 50_000_000
    distributed_optimizer: bool = False
    main_grads_fp32: bool | str = "auto"
    host_memory_bytes: int | None = None
    estimator: str = "detailed"
    k_factor: float = 3.0
    reserve: str | float = "auto"
    images_per_sample: int = 0
    image_resolution: int = 0
    vision_tower: str = "frozen"
    attention_kernel: str = "auto"
    moe_token_dispatcher_type: str = "alltoall"
    fp8_recipe: str = "auto"
    intra_node_bandwidth_bytes_per_s: float | None = None
    inter_node_bandwidth_bytes_per_s: float | None = None
    tokens_to_train: int | None = None
    gpu_hour_price: float | None = None
    time_calibration: tuple[float, float] | None = None  # (measured, predicted) step seconds

    @property
    def world_size(self) -> int:
        return self.gpus_per_node * self.nodes

    @property
    def dp(self) -> int:
        return self.world_size // (self.tp * self.pp * self.cp)

    @property
    def effective_zero(self) -> int:
        return 3 if self.fsdp else self.zero_stage

    def with_unchecked(self, **changes: Any) -> Scenario:
        """A copy with some keys changed, in engine form and NOT validated: for search loops whose values are
        valid by construction (about 4x faster than dataclasses.replace, which runs __init__)."""
        new = object.__new__(Scenario)
        for name in _FIELD_NAMES:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    def replace(self, **changes: Any) -> Scenario:
        """A validated copy with some keys changed (values in file form or engine form)."""
        data = self.to_dict()
        data.update({k: file_form(v) for k, v in changes.items()})
        return scenario_from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
        for f in dataclasses.fields(self):
            out[f.name] = file_form(getattr(self, f.name))
        return out


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Scenario))


def file_form(value: Any) -> Any:
    if isinstance(value, CustomModel):
        return {"name": value.name, "hf_config": value.hf_config}
    if isinstance(value, CustomGpu):
        return {"name": value.name, "memory_bytes": value.memory_bytes, **dict(value.speed)}
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, float) for v in value):
        return {"measured_step_seconds": value[0], "predicted_step_seconds": value[1]}  # time_calibration
    if isinstance(value, tuple):
        return list(value)
    return value


def _check_int(key: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a whole number, not {value!r}."), value=value)
    check_int_range(key, value, minimum)  # and at most the key's bound (engine/input_bounds.py)
    return value


def scenario_from_dict(data: Any) -> Scenario:
    """Validate a scenario object (as read from JSON) and build the engine's Scenario."""
    if not isinstance(data, dict):
        raise ScenarioError("scenario", QT_TRANSLATE_NOOP("engine", "a scenario file must hold one JSON object."))
    unknown = [k for k in data if k not in DEFAULTS]
    if unknown:
        raise ScenarioError(
            unknown[0], QT_TRANSLATE_NOOP("engine", "is not a scenario key. Known keys: {p}."), p=", ".join(DEFAULTS)
        )
    check_scenario_numbers(data)
    version = data.get("schema_version", SCHEMA_VERSION)
    if type(version) is not int or version != SCHEMA_VERSION:  # true and 1.0 equal 1 in Python, not in the format
        raise ScenarioError(
            "schema_version",
            QT_TRANSLATE_NOOP("engine", "this version reads schema_version {SCHEMA_VERSION}, not {version!r}."),
            SCHEMA_VERSION=SCHEMA_VERSION,
            version=version,
        )
    if "model" not in data:
        raise ScenarioError("model", QT_TRANSLATE_NOOP("engine", "is required: which model is being trained?"))
    kw: dict[str, Any] = {"model": parse_model_value(data["model"])}
    if "gpu" in data:
        kw["gpu"] = parse_gpu_value(data["gpu"])
    for key in ("name", "notes"):
        if key in data:
            if not isinstance(data[key], str):
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be text."))
            kw[key] = data[key]
    for key in _POSITIVE_INTS:
        if key in data:
            kw[key] = _check_int(key, data[key], 1)
    for key in ("frozen_layers", "images_per_sample", "image_resolution"):
        if key in data:
            kw[key] = _check_int(key, data[key], 0)
    if "zero_stage" in data:
        kw["zero_stage"] = _check_int("zero_stage", data["zero_stage"], 0)
        if kw["zero_stage"] > 3:
            raise ScenarioError("zero_stage", QT_TRANSLATE_NOOP("engine", "must be 0, 1, 2 or 3, not {p}."),
                                p=kw["zero_stage"])
    if "qlora_bits" in data:
        kw["qlora_bits"] = _check_int("qlora_bits", data["qlora_bits"], 1)
        if kw["qlora_bits"] not in (4, 8):
            raise ScenarioError("qlora_bits", QT_TRANSLATE_NOOP("engine", "must be 4 or 8, not {p}."), p=kw["qlora_bits"])
    parse_choices_and_bools(data, kw, _CHOICES, _BOOLS)
    parse_auto_bools(data, kw, ("loss_parallel",))
    parse_framework_keys(data, kw)
    if "lora_targets" in data:
        targets = data["lora_targets"]
        if targets in ("all-linear", "attention"):
            kw["lora_targets"] = targets
        elif isinstance(targets, list) and targets and all(isinstance(t, str) and t for t in targets):
            kw["lora_targets"] = tuple(dict.fromkeys(targets))
        else:
            raise ScenarioError(
                "lora_targets",
                QT_TRANSLATE_NOOP("engine", 'must be "all-linear", "attention" or a non-empty list of module names.'),
            )
    if "lora_alpha" in data:
        alpha = data["lora_alpha"]
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or alpha <= 0:
            raise ScenarioError(
                "lora_alpha", QT_TRANSLATE_NOOP("engine", "must be a positive number, not {alpha!r}."), alpha=alpha
            )
        kw["lora_alpha"] = alpha
    if "k_factor" in data:
        k = data["k_factor"]
        if isinstance(k, bool) or not isinstance(k, int | float) or not 0 < k <= 100:
            raise ScenarioError(
                "k_factor", QT_TRANSLATE_NOOP("engine", "must be a number between 0 and 100, not {k!r}."), k=k
            )
        kw["k_factor"] = float(k)
    if "reserve" in data:
        r = data["reserve"]
        if r != "auto" and (isinstance(r, bool) or not isinstance(r, int | float) or not 0 <= r < 1):
            raise ScenarioError(
                "reserve", QT_TRANSLATE_NOOP("engine", 'must be "auto" or a fraction from 0 to 0.99, not {r!r}.'), r=r
            )
        kw["reserve"] = r if r == "auto" else float(r)
    parse_time_keys(data, kw)
    scenario = Scenario(**kw)
    spec = resolve_model(scenario)
    if "lora_targets" not in data:  # peft's default for this architecture (q_proj+v_proj, or phi-3's fused qkv_proj)
        scenario = scenario.with_unchecked(lora_targets=default_lora_targets(spec))
    check_consistency(scenario, spec)
    return scenario


def resolve_model(s: Scenario) -> ModelSpec:
    """The model the scenario's framework builds (litgpt unties a tied lm_head)."""
    spec = custom_model_spec(s.model) if isinstance(s.model, CustomModel) else model_spec_for(s.model)
    return as_built(spec, s.framework)


def resolve_gpu(s: Scenario) -> tuple[str, int]:
    """(display name, usable capacity in bytes) of the scenario's card."""
    if isinstance(s.gpu, CustomGpu):
        return s.gpu.name, s.gpu.memory_bytes
    preset: GpuPreset = get_gpu(s.gpu)
    return preset.name, preset.usable_bytes
