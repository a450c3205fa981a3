"""The scenario file (schema_version 1): one flat JSON object, validated key by key. Every key is declared once, as
a field of `Scenario` below (engine/scenario/keys.py says how): `DEFAULTS`, the parser, the bounds, `python main.py
schema`, docs/scenario-format.md and the window's choice lists are derived from the fields.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..frameworks.cross_entropy_meaning import CROSS_ENTROPY_MEANING
from ..frameworks.defaults import CROSS_ENTROPIES, FRAMEWORKS, defaults_for
from ..frameworks.megatron_layer import RECOMPUTE_MODULES
from ..frameworks.model import as_built
from ..frameworks.parallelism_row import effective_stage
from ..input_bounds import ANY_COUNT_MAX, NAME_MAX_CHARS, NOTES_MAX_CHARS, check_scenario_numbers
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..models.base_storage import BASE_STORAGE_MEANING, BASE_STORAGES
from ..models.presets import GpuPreset, get_gpu, model_spec_for
from . import choices
from .consistency import check_consistency, default_lora_targets, lora_target_names, parse_lora_targets  # noqa: F401
from .copying import copy_with
from .custom_parts import (  # noqa: F401 - re-exported
    CUSTOM_GPU_DESCRIPTIVE,
    CUSTOM_GPU_FIELDS,
    CustomGpu,
    CustomModel,
    custom_model_spec,
    parse_gpu_value,
    parse_model_value,
)
from .file_values import file_form
from .keys import (
    LABEL,
    MEGATRON,
    MEMORY_ONLY,
    REQUIRED,
    TIME_ONLY,
    Choice,
    Count,
    Flag,
    KeySpec,
    Names,
    Number,
    Parsed,
    Text,
    WholeNumber,
    declared_keys,
    key,
    keys_affecting_only,
)
from .left_out_keys import left_out_values
from .memory_keys import MemoryCalibration, MemoryKeys, parse_memory_calibration
from .packing import PACKINGS
from .posttraining_keys import PostTrainingKeys
from .serving_keys import ServingKeys, check_serving
from .time_keys import (  # noqa: F401 - re-exported
    ATTENTION_KERNELS,
    BANDWIDTH_BYTES_PER_S_RANGE,
    CUSTOM_GPU_SPEED_KEYS,
    FP8_RECIPES,
    LINK_BANDWIDTH_OR_NULL,
    MOE_TOKEN_DISPATCHERS,
    POSITIVE_OR_NULL,
    TimeKeys,
    parse_calibration,
    parse_gpu_speed,
    parse_tokens_to_train,
)

SCHEMA_VERSION = 1
MAX_SCENARIO_BYTES = 8 * 1024 * 1024

# where a key counts (KeySpec.applies_to): shown in the documentation
LORA = "method lora, qlora"
DEEPSPEED = "framework deepspeed"
VISION = "vision-language models"


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario(PostTrainingKeys, ServingKeys, MemoryKeys, TimeKeys):
    """A validated scenario. Each field is the one declaration of its key (engine/scenario/keys.py): default, meaning,
    check and bounds; the parser, `main.py schema`, docs/scenario-format.md and the window's choices derive from it.
    The order is the order of the file format documentation: these training keys, then each workload's section (the
    base classes, one module each)."""

    name: str = key("Untitled scenario", "shown in the window title and the library", Text(NAME_MAX_CHARS),
                    affects=LABEL)
    notes: str = key("", "free text", Text(NOTES_MAX_CHARS), affects=LABEL)
    model: str | CustomModel = key(REQUIRED, 'preset id (e.g. "llama-3-8b") or {"name": ..., "hf_config": '
                                   '{config.json}}; required', Parsed(parse_model_value, "preset id or object"))
    gpu: str | CustomGpu = key("h100-sxm-80gb", 'preset id or {"name": ..., "memory_bytes": N}',
                               Parsed(parse_gpu_value, "preset id or object"))
    gpus_per_node: int = key(1, "GPUs in each node", WholeNumber(1, 1024))
    # the largest clusters have ~10^5 GPUs; the longest released contexts are 10^7 tokens
    nodes: int = key(1, "nodes; world size = gpus_per_node x nodes", WholeNumber(1, 100_000))
    method: str = key("full", "what is trained: every weight, all but some frozen layers, LoRA adapters, or LoRA "
                      "adapters over a quantised base", Choice(choices.METHODS))
    precision: str = key("amp-bf16", "number formats of the weights and the compute", Choice(choices.PRECISIONS))
    optimizer: str = key("adamw", "adamw = PyTorch's foreach AdamW; auto or left out: the AdamW the "
                         "framework builds when its config names none (torchtitan's fused one)", Choice(choices.OPTIMIZERS))
    pytorch_version: str = key("2.1+", "PyTorch release line: 2.0's foreach AdamW keeps two state-sized temporaries "
                               "in its step, 2.1 on one (PR #104898)", Choice(("2.1+", "2.0")),
                               applies_to="optimizer adamw, auto")
    micro_batch: int = key(1, "sequences per GPU per forward pass", WholeNumber(1, 1_000_000))
    seq_len: int = key(2048, "tokens per sequence", WholeNumber(1, 100_000_000))
    grad_accum: int = key(1, "micro-batches accumulated per optimizer step", WholeNumber(1, 1_000_000))
    packing: str = key("none", "none: each sequence padded to seq_len; padding-free: the micro-batch's sequences in one "
                       "row without padding (TRL/ms-swift padding_free, verl dynamic batches); packed: whole sequences "
                       "packed into rows of seq_len (TRL packing, axolotl sample_packing)", Choice(PACKINGS))
    max_tokens_per_micro_batch: int = key(0, "tokens one micro-batch really holds with packing (verl "
                                          "ppo_max_token_len_per_gpu, a budget there: a verl post-training step "
                                          "cuts each rank's mini-batch of micro_batch sequences into "
                                          "ceil(tokens / budget) equal micro-batches; 0: micro_batch x seq_len)",
                                          WholeNumber(0, 100_000_000),
                                          applies_to="packing padding-free, packed")
    attention: str = key("sdpa", "attention implementation (eager keeps the whole score matrix)", Choice(choices.ATTENTIONS))
    checkpointing: str = key("none", "activation checkpointing; selective: as the framework means it, Megatron's "
                             "attention-core recompute or torchtune/torchtitan's per-op policy; op-selective: "
                             "torchtitan's per-op policy, which saves every other matmul output and attention",
                             Choice(choices.CHECKPOINTINGS))
    lora_rank: int = key(16, "LoRA rank r (lora / qlora)", WholeNumber(1, 65_536), applies_to=LORA)
    lora_targets: tuple[str, ...] | str = key(
        ["q_proj", "v_proj"], 'module names, "attention" (all attention projections) or "all-linear"',
        Parsed(parse_lora_targets, '"all-linear" | "attention" | list of module names',
               ("all-linear", "attention", ["q_proj", "v_proj"])), applies_to=LORA)
    lora_alpha: float = key(32, "LoRA scaling numerator (no effect on memory; kept so peft settings round-trip)",
                            Number(0, 1_000_000, QT_TRANSLATE_NOOP("engine", "must be a positive number, not {p!r}."),
                                   maximum=1_000_000), affects=LABEL, applies_to=LORA)
    lora_adapter_dtype: str = key("auto", "auto: the framework's (fp32 as peft upcasts them; the model's dtype in "
                                  "Megatron, torchtune and litgpt; bf16 for QLoRA under TRL's own trainers, framework "
                                  "trl: SFT, GRPO, reward from 0.26, RLOO 0.27, DPO / IPO 0.29, KTO 1.4; framework "
                                  "trl-2025 for a release before its trainer's); fp32; compute: the compute dtype",
                                  Choice(choices.ADAPTER_DTYPES), applies_to=LORA)
    frozen_layers: int = key(0, "decoder layers frozen (method freeze)", WholeNumber(0, 100_000),
                             applies_to="method freeze")
    freeze_embeddings: bool = key(True, "freeze the token embeddings too (method freeze)", Flag(),
                                  applies_to="method freeze")
    freeze_from: str = key("bottom", "which end the frozen layers are taken from", Choice(choices.FREEZE_SIDES),
                           applies_to="method freeze")
    qlora_bits: int = key(4, "4 (NF4) | 8 (LLM.int8) base weights (qlora)", WholeNumber(
        1, allowed=(4, 8), allowed_text=QT_TRANSLATE_NOOP("engine", "must be 4 or 8, not {p}.")),
                          applies_to="method qlora")
    qlora_double_quant: bool = key(True, "quantise the quantisation constants too (qlora)", Flag(),
                                   applies_to="method qlora")
    cloned_layers: bool | str = key("auto", "decoder layers deep-copied from one built layer, each NF4 weight dequantised "
                                    "and quantised again (torchtune before 0.3.0, _get_clones); auto: the current "
                                    "release", Flag(auto=True), applies_to="method qlora")
    base_storage: str = key("compute", BASE_STORAGE_MEANING, Choice(BASE_STORAGES), applies_to=LORA)
    # no parallel degree exceeds a few thousand
    tp: int = key(1, "tensor parallel degree", WholeNumber(1, 4096))
    pp: int = key(1, "pipeline parallel degree", WholeNumber(1, 4096))
    pp_schedule: str = key("1f1b", "pipeline schedule: micro-batches kept in flight per stage", Choice(choices.PP_SCHEDULES),
                           applies_to="pp > 1")
    vpp: int = key(1, "virtual pipeline stages (model chunks) per rank; more than 1 needs pp_schedule "
                   "interleaved-1f1b (2: zbv)", WholeNumber(1, 1024), applies_to="pp > 1")
    ep: int = key(1, "expert parallel degree (MoE)", WholeNumber(1, 4096), applies_to="mixture-of-experts models")
    etp: int = key(0, "Megatron --expert-tensor-parallel-size: tensor-parallel ranks splitting each expert (0: tp, "
                   "Megatron-LM's default; 1: whole experts, expert parallelism folded over the tensor-parallel "
                   "ranks, as Megatron-Bridge's MoE recipes set it)", WholeNumber(0, 4096), applies_to=MEGATRON)
    cp: int = key(1, "context parallel degree", WholeNumber(1, 4096))
    sequence_parallel: bool = key(False, "shard norms/residual activations over tp", Flag(), applies_to="tp > 1")
    loss_parallel: bool | str = key("auto", "vocabulary-parallel loss (on in torchtitan and Megatron)",
                                    Flag(auto=True), applies_to="tp > 1")
    zero_stage: int = key(0, "0 | 1 (optimizer states) | 2 (+ gradients) | 3 (+ weights)", WholeNumber(
        0, allowed=(0, 1, 2, 3), allowed_text=QT_TRANSLATE_NOOP("engine", "must be 0, 1, 2 or 3, not {p}.")))
    fsdp: bool = key(False, "PyTorch FSDP FULL_SHARD, the same as ZeRO-3", Flag())
    reshard_after_forward: bool = key(True, "FSDP/ZeRO-3 frees each layer's gathered weights after its forward "
                                      "(false keeps them from forward to backward)", Flag(),
                                      applies_to="fsdp or zero_stage 3")
    offload: str = key("none", "to CPU memory", Choice(choices.OFFLOADS))
    lora_dropout: float = key(0.0, "LoRA dropout probability (peft lora_dropout): above 0 each adapter keeps its "
                              "dropped input and mask", Number(0, 1, QT_TRANSLATE_NOOP(
                                  "engine", "must be a probability from 0 to 0.99, not {p!r}."), low_inclusive=True,
                                  high_inclusive=False, to_float=True), applies_to=LORA)
    framework: str = key("huggingface", "sets the defaults below as that framework's current release does; "
                         "huggingface covers Trainer, TRL, accelerate, axolotl, LLaMA-Factory, ms-swift; axolotl's "
                         "own row differs only where its DPO / IPO, KTO, reward or GRPO trainer (TRL's) casts QLoRA "
                         "adapters to bf16",
                         Choice(FRAMEWORKS))
    cross_entropy: str = key("auto", CROSS_ENTROPY_MEANING, Choice(CROSS_ENTROPIES))
    compile: bool = key(False, "torch.compile the model (fused elementwise ops save fewer intermediates)", Flag())
    compile_loss: bool | str = key("auto", "compile covers the loss too (auto: as the framework's current release; "
                                   "torchtitan compiles it with the model since pull request #1033, 2025-04-02, "
                                   "and only the transformer blocks before)", Flag(auto=True), applies_to="compile")
    liger_kernels: bool = key(False, "Liger-Kernel's RMSNorm, SwiGLU and RoPE patched into the model (transformers "
                              "use_liger_kernel, NeMo AutoModel's default, LLaMA-Factory enable_liger_kernel, axolotl "
                              "liger_rms_norm): a norm keeps only its input, the MLP only its gate and up outputs",
                              Flag())
    activation_offload: bool = key(False, "move saved activations to CPU memory during the forward pass (torchtune)",
                                   Flag())
    optimizer_in_backward: bool = key(False, "step each parameter as soon as its gradient is ready (torchtune "
                                      "optimizer_in_bwd): no full set of gradients; needs grad_accum 1", Flag())
    modules_to_save: tuple[str, ...] = key(
        [], 'peft modules_to_save: fully trained copies of "embed_tokens" and/or "lm_head" (lora / qlora)',
        Names(choices.MODULES_TO_SAVE, " and/or ".join(choices.MODULES_TO_SAVE)), applies_to=LORA)
    expandable_segments: bool | str = key("auto", "the framework's launcher setting: "
                                          "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", Flag(auto=True))
    reduce_bucket_size: int = key(500_000_000, "DeepSpeed ZeRO-1/2 gradient reduce bucket, elements", Count(),
                                  applies_to=DEEPSPEED)
    allgather_bucket_size: int = key(500_000_000, "DeepSpeed ZeRO-1/2 parameter all-gather bucket, elements",
                                     Count(), applies_to=DEEPSPEED)
    stage3_max_live_parameters: int = key(1_000_000_000, "DeepSpeed ZeRO-3: most gathered parameters alive at once",
                                          Count(zero=True), applies_to=DEEPSPEED)
    stage3_prefetch_bucket_size: int = key(50_000_000, "DeepSpeed ZeRO-3: parameters gathered ahead of use, elements",
                                           Count(zero=True), applies_to=DEEPSPEED)
    distributed_optimizer: bool = key(False, "Megatron --use-distributed-optimizer: fp32 master weights and optimizer "
                                      "states sharded over data-parallel ranks", Flag(), applies_to=MEGATRON)
    main_grads_fp32: bool | str = key("auto", "Megatron (auto: true): gradients accumulated in an fp32 buffer",
                                      Flag(auto=True), applies_to=MEGATRON)
    recompute_modules: tuple[str, ...] = key(
        ["core_attn"], 'Megatron recompute_modules: what checkpointing "selective" rebuilds in backward under the '
        "megatron framework, any of " + ", ".join(RECOMPUTE_MODULES) + " (Megatron's default: the attention core)",
        Names(RECOMPUTE_MODULES, ", ".join(RECOMPUTE_MODULES)), applies_to=MEGATRON)
    activation_offload_layers: int = key(
        0, "Megatron cpu_offloading_num_layers: decoder layers whose saved activations Transformer Engine's CPU "
        "offload moves to CPU memory (the others stay on the GPU)", Count(zero=True), applies_to=MEGATRON)
    fp8_param_gather: bool = key(False, "Megatron --fp8-param-gather: the decoder layers' linear weights are kept in fp8 "
                                 "(Transformer Engine's quantized model init) instead of a 16-bit copy, and gathered in fp8",
                                 Flag(), applies_to=MEGATRON)
    pipeline_split_accounts_for: tuple[str, ...] = key(
        [], 'Megatron account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split: "embedding" and/or '
        '"loss" count as one layer each when the layers are split over pipeline stages (the first/last stage builds '
        "one decoder layer fewer)", Names(("embedding", "loss"), "embedding and/or loss"), applies_to=MEGATRON)
    host_memory_bytes: int | None = key(None, "CPU memory of one node in bytes, checked against what offloading and "
                                        "loading need (null: not checked)", Count(null=True))
    estimator: str = key("detailed", "which model computes the breakdown: the per-tensor one or a seed's formula",
                         Choice(choices.ESTIMATORS))
    k_factor: float = key(3.0, "K of the seed-k-factor estimator", Number(0, 100, QT_TRANSLATE_NOOP(
        "engine", "must be a number between 0 and 100, not {p!r}."), to_float=True), applies_to="estimator seed-k-factor")
    reserve: str | float = key("auto", '"auto" (the seeds\' table) or a fraction of the peak kept free',
                               Number(0, 1, QT_TRANSLATE_NOOP(
                                   "engine", 'must be "auto" or a fraction from 0 to 0.99, not {p!r}.'),
                                   low_inclusive=True, high_inclusive=False, auto=True, to_float=True))
    # vision-language inputs: a video is hundreds of images; Qwen2.5-VL resizes to at most 3,584 pixels a side
    images_per_sample: int = key(0, "images in each sequence (vision-language models); seq_len counts their tokens "
                                 "too", WholeNumber(0, 10_000), applies_to=VISION)
    image_resolution: int = key(0, "image side in pixels (0: the vision tower's native size)",
                                WholeNumber(0, 65_536), applies_to=VISION)
    vision_tower: str = key("frozen", "vision-language models: train the tower and projector? frozen-backward: "
                            "frozen, but its blocks checkpointed and back-propagated for their input gradients (ms-swift's "
                            "vit_gradient_checkpointing on a frozen tower)",
                            Choice(choices.VISION_TOWER_MODES), applies_to=VISION)
    attention_kernel: str = key("auto", "fused attention kernel for the time model; auto: the framework's; cudnn8: "
                                "cuDNN 8.9's; flash4: FlashAttention-4; triton: the Triton FlashAttention kernel "
                                "(llm-foundry's attn_impl triton)", Choice(ATTENTION_KERNELS), affects=TIME_ONLY)
    moe_token_dispatcher_type: str = key("alltoall", "Megatron's MoE token dispatcher, for the time model: alltoall "
        "sends each routed copy of a token to its expert's rank; allgather gathers every rank's tokens; flex (DeepEP / "
        "HybridEP) sends a token once to each other node that holds one of its experts and forwards it inside the node "
        "over NVLink", Choice(MOE_TOKEN_DISPATCHERS), applies_to="mixture-of-experts models")
    moe_a2a_overlap: bool = key(False, "Megatron overlap_moe_expert_parallel_comm (combined 1F1B): each micro-batch's "
                                "MoE all-to-all beside another's compute", Flag(), applies_to=MEGATRON, affects=TIME_ONLY)
    fp8_recipe: str = key("auto", "how fp8 training scales its GEMM operands, Megatron's names: delayed (amax history), "
                          "tensorwise (current scaling), mxfp8 (1x32 blocks, Blackwell), blockwise (1x128 and 128x128 "
                          "blocks), torchao's rowwise and rowwise_with_gw_hp; auto: the framework's default, delayed "
                          "in Transformer Engine, tensorwise in torchtitan", Choice(FP8_RECIPES), applies_to="precision fp8")
    tp_only_amax_red: bool = key(False, "Megatron tp_only_amax_red: delayed fp8 scaling reduces its amaxes over the "
                                 "TP x CP ranks, not the data-parallel ones", Flag(), applies_to=MEGATRON, affects=TIME_ONLY)
    intra_node_bandwidth_bytes_per_s: float | None = key(
        None, "GPU-to-GPU bandwidth inside a node, one direction (null: the GPU's own NVLink/PCIe figure)",
        Number(*BANDWIDTH_BYTES_PER_S_RANGE, LINK_BANDWIDTH_OR_NULL, low_inclusive=True, null=True), affects=TIME_ONLY)
    inter_node_bandwidth_bytes_per_s: float | None = key(
        None, "network bandwidth per GPU between nodes, one direction (null: the GPU's usual cluster network)",
        Number(*BANDWIDTH_BYTES_PER_S_RANGE, LINK_BANDWIDTH_OR_NULL, low_inclusive=True, null=True), affects=TIME_ONLY)
    tokens_to_train: int | None = key(None, "tokens of the whole run, for time to train, GPU-hours and cost (null: "
                                      "not asked)", Parsed(parse_tokens_to_train, "whole number or null",
                                                           (None, 10**9)), affects=TIME_ONLY)
    gpu_hour_price: float | None = key(None, "price of one GPU for one hour, any currency (null: no cost shown)",
                                       Number(0, math.inf, POSITIVE_OR_NULL, null=True), affects=TIME_ONLY)
    currency: str = key("", "what gpu_hour_price is in, shown beside every cost (\"\": not named)",
                        Choice(choices.CURRENCIES), affects=LABEL)
    # the rent search's limits, kept with the plan (user audit 15: an exported plan lost them); fit --objective cost's
    # --deadline-days and --budget where those are not given
    deadline_days: float | None = key(None, "the rent search's deadline, days to finish the run in (null: none)",
                                      Number(0, 1e5, POSITIVE_OR_NULL, null=True), affects=LABEL)
    budget: float | None = key(None, "the rent search's budget: the most the whole run may cost, in currency (null: "
                               "none)", Number(0, 1e15, POSITIVE_OR_NULL, null=True), affects=LABEL)
    time_calibration: tuple[float, float] | None = key(
        None, '{"measured_step_seconds": M, "predicted_step_seconds": P} from one measured step: times are scaled '
        "by M / P (each 1 us to 1e7 s, M / P from 0.1 to 10; set aside when it would mean MFU over 100%)",
        Parsed(parse_calibration, "object or null", (
            None, {"measured_step_seconds": 2.0, "predicted_step_seconds": 1.0})), affects=TIME_ONLY)
    memory_calibration: MemoryCalibration | None = key(
        None, '{"figure": "peak_reserved" | "nvidia_smi" | "peak_allocated", "measured_bytes": M, "predicted_bytes": '
        "P} from one measured run: M - P moves the allocator's fragmentation (peak_reserved) or the CUDA context "
        "(nvidia_smi) of this machine; peak_allocated is shown, not fitted (each 1 MiB to 1 PiB, M / P from 0.5 to 2)",
        Parsed(parse_memory_calibration, "object or null", (
            None, {"figure": "nvidia_smi", "measured_bytes": 2**34, "predicted_bytes": 2**34 - 2**29})),
        affects=MEMORY_ONLY)

    @property
    def world_size(self) -> int:
        return self.gpus_per_node * self.nodes

    @property
    def dp(self) -> int:
        # world_size written out: a step time asks for dp about ten times, and a nested property call costs as much
        return self.gpus_per_node * self.nodes // (self.tp * self.pp * self.cp)

    @property
    def expert_tp(self) -> int:
        """Ranks splitting each expert: Megatron's expert_tensor_parallel_size where set (MoE parallel folding,
        megatron/core/parallel_state.py: ep x etp x expert-dp = tp x cp x dp), else the tensor-parallel size."""
        return self.etp if self.etp and defaults_for(self.framework).takes_megatron_arguments else self.tp

    @property
    def expert_dp(self) -> int:
        """Ranks of an expert data-parallel group, tp x cp x dp / (ep x etp) (parallel_state.py RankGenerator)."""
        return max(1, self.tp * self.cp * self.dp // (self.ep * self.expert_tp))

    @property
    def effective_zero(self) -> int:
        """The stage it shards at (effective_stage; the memory model shards so: engine/memory/model_states.py)."""
        if self.fsdp:  # effective_stage's order, the framework read only where it can matter (asked ~6 times a step)
            return 3
        dist_opt = self.distributed_optimizer and defaults_for(self.framework).takes_megatron_arguments
        return effective_stage(self.zero_stage, False, dist_opt)

    def with_unchecked(self, **changes: Any) -> Scenario:
        """A copy with some keys changed, in engine form and NOT validated: for search loops whose values are
        valid by construction (about 4x faster than dataclasses.replace, which runs __init__)."""
        return copy_with(Scenario, self, changes)

    def replace(self, **changes: Any) -> Scenario:
        """A validated copy with some keys changed (values in file form or engine form)."""
        data = self.to_dict()
        data.update({k: file_form(v) for k, v in changes.items()})
        return scenario_from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
        for name in _FIELD_NAMES:
            out[name] = file_form(getattr(self, name))
        return out


KEYS: tuple[KeySpec, ...] = declared_keys(Scenario)
KEY_SPECS: dict[str, KeySpec] = {k.name: k for k in KEYS}
# Keys the memory model never reads (labels, time and cost) and keys the time model never reads (labels): the memo
# tables ignore them (tests/test_memo_keys.py checks every declaration's `affects` on drawn scenarios).
KEYS_WITHOUT_MEMORY_EFFECT: frozenset[str] = keys_affecting_only(KEYS, TIME_ONLY)
KEYS_WITHOUT_TIME_EFFECT: frozenset[str] = keys_affecting_only(KEYS, MEMORY_ONLY)
_FIELD_NAMES = tuple(k.name for k in KEYS)  # every field is a declared key; in documentation order
_SCHEMA_VERSION_KEY = KeySpec("schema_version", SCHEMA_VERSION, "file format version", WholeNumber(1))
# The largest number each key accepts, checked on the whole object before any key is parsed.
SCENARIO_MAXIMA: dict[str, int | float] = {k.name: k.maximum for k in KEYS if k.maximum is not None
                                           and k.maximum < ANY_COUNT_MAX}


def meaning_text(spec: KeySpec) -> str:
    """The key's meaning as documented: a choice key leads with its words."""
    if isinstance(spec.check, Choice):
        words = " | ".join(spec.check.options)
        return f"{words} ({spec.meaning})" if spec.meaning else words
    return spec.meaning


# key: (default, meaning), in the order of the file format documentation (derived from the declarations).
DEFAULTS: dict[str, tuple[Any, str]] = {
    spec.name: (None if spec.default is REQUIRED else spec.default, meaning_text(spec))
    for spec in (_SCHEMA_VERSION_KEY, *KEYS)
}


def scenario_from_dict(data: Any) -> Scenario:
    """Validate a scenario object (as read from JSON) and build the engine's Scenario."""
    if not isinstance(data, dict):
        raise ScenarioError("scenario", QT_TRANSLATE_NOOP("engine", "a scenario file must hold one JSON object."))
    unknown = [k for k in data if k not in DEFAULTS]
    if unknown:
        near = difflib.get_close_matches(str(unknown[0]), list(DEFAULTS), n=1)
        if near:  # a misspelt key names the one meant; the full list of 70 keys is docs/scenario-format.md
            raise ScenarioError(unknown[0], QT_TRANSLATE_NOOP("engine", "is not a scenario key; did you mean {p}?"),
                                p=near[0])
        raise ScenarioError(unknown[0], QT_TRANSLATE_NOOP("engine", "is not a scenario key."))
    check_scenario_numbers(data, SCENARIO_MAXIMA)
    version = data.get("schema_version", SCHEMA_VERSION)
    if type(version) is not int or version != SCHEMA_VERSION:  # true and 1.0 equal 1 in Python, not in the format
        raise ScenarioError("schema_version", QT_TRANSLATE_NOOP(
            "engine", "this version reads schema_version {SCHEMA_VERSION}, not {version!r}."),
            SCHEMA_VERSION=SCHEMA_VERSION, version=version)
    if "model" not in data:
        raise ScenarioError("model", QT_TRANSLATE_NOOP("engine", "is required: which model is being trained?"))
    kw = {spec.name: spec.check.parse(spec.name, data[spec.name]) for spec in KEYS if spec.name in data}
    scenario = Scenario(**kw)
    spec = resolve_model(scenario)
    scenario = scenario.with_unchecked(**left_out_values(scenario.framework, spec, data))  # the model's, framework's own
    check_consistency(scenario, spec)
    check_serving(scenario)
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
