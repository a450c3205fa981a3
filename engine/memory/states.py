"""Precision and parameter bookkeeping shared by the estimators.

Bytes per parameter are derived from the tensors a framework keeps (weights,
gradients, master copy, optimizer state tensors), never from a fixed table per combination.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..frameworks.defaults import defaults_for
from ..models.architecture import Linear, ModelSpec
from ..models.base_storage import bytes_per_value, storage_format, stored_values
from ..models.presets import get_gpu
from ..scenario import KEYS_WITHOUT_MEMORY_EFFECT, Scenario
from ..scenario.behaviour import quantizes_head, whole_mla_down
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.memo import ScenarioMemo
from ..scenario.optimizer_used import optimizer_used

# precision -> (weight, grad, optimizer-state, compute, master) bytes
_PRECISION_BYTES = {
    "fp32": (4, 4, 4, 4, 0),
    "amp-bf16": (4, 4, 4, 2, 0),
    "amp-fp16": (4, 4, 4, 2, 0),
    "bf16": (2, 2, 2, 2, 0),
    "fp16": (2, 2, 2, 2, 0),
    "mixed-bf16": (2, 2, 4, 2, 4),
    "mixed-fp16": (2, 2, 4, 2, 4),
    "fp8": (2, 2, 4, 2, 4),
    # NVFP4 (Megatron-Bridge bf16_with_nvfp4_mixed: bf16 weights and compute, fp32 master weights and states, the
    # decoder linears' GEMMs in FP4 through Transformer Engine), the same states as fp8
    "nvfp4": (2, 2, 4, 2, 4),
}
# optimizer -> number of state tensors per parameter (adafactor is factored: handled apart)
_STATE_TENSORS = {"adamw": 2, "adamw-fused": 2, "adamw-8bit": 2, "adamw-8bit-paged": 2, "sgd": 0, "sgd-momentum": 1,
                  "adafactor": 0}
BNB_BLOCK = 2048  # bitsandbytes 8-bit optimizers keep one fp32 absmax per 2048 values
NF4_BLOCK = 64  # QLoRA paper: first-level blocks of 64 weights
DQ_BLOCK = 256  # QLoRA paper: second-level blocks of 256 constants


@dataclass(frozen=True, slots=True)
class Dtypes:
    weight: int
    grad: int
    state: int
    compute: int
    master: int
    amp: bool
    fp8: bool  # the decoder linears' GEMMs take quantized operands (fp8, or NVFP4 where fp4 is set)
    fp4: bool = False  # NVFP4: 4-bit elements with one E4M3 scale per 16

    @property
    def residual(self) -> int:
        """dtype of the residual stream: the weights' dtype (fp32 under autocast)."""
        return self.weight


def dtypes_for(s: Scenario) -> Dtypes:
    return _DTYPES[s.precision]


def _dtypes(precision: str) -> Dtypes:
    w, g, st, c, m = _PRECISION_BYTES[precision]
    return Dtypes(w, g, st, c, m, precision.startswith("amp"), precision in ("fp8", "nvfp4"), precision == "nvfp4")


_DTYPES = {precision: _dtypes(precision) for precision in _PRECISION_BYTES}  # one per precision: frozen, shared


def fp8_param_bytes(s: Scenario) -> float:
    """Bytes a linear weight takes under Megatron's fp8_param_gather (Transformer Engine's quantized model init).
    Per-tensor scaling (delayed, tensorwise) keeps the fp8 data, plus its transpose for the backward GEMM on GPUs
    whose fp8 GEMMs take only the TN layout (transformer_engine/pytorch/utils.py is_non_tn_fp8_gemm_supported at
    d0067d0: compute capability 10.x, 11.x and 13+ need none; tensor/float8_tensor.py builds ``_transpose`` only
    where it is needed). Block-scaled formats (mxfp8 1x32, blockwise) quantise along one dimension, so a weight
    keeps a row-wise and a column-wise copy, with one scale byte per 32 values (mxfp8) or one fp32 scale per
    128x128 block (blockwise weights)."""
    if s.fp8_recipe == "mxfp8":
        return 2 * (1 + 1 / 32)
    if s.fp8_recipe == "blockwise":
        return 2 * (1 + 4 / (128 * 128))
    capability = get_gpu(s.gpu).cuda_capability if isinstance(s.gpu, str) else ""
    major = int(capability.split(".")[0]) if capability else 0
    return 1.0 if major in (10, 11) or major >= 13 else 2.0


def quantized_bytes_per_param(bits: int, double_quant: bool) -> float:
    """NF4/int8 storage per weight including quantisation constants (QLoRA paper, section 3)."""
    if bits == 8:
        return 1.0 + 4.0 / 4096  # LLM.int8: int8 weights + one fp32 scale per row (rows ~4k wide)
    if double_quant:
        return 0.5 + 1.0 / NF4_BLOCK + 4.0 / (NF4_BLOCK * DQ_BLOCK)
    return 0.5 + 4.0 / NF4_BLOCK


def quantized_sharded_split(bits: int, double_quant: bool, torchao_nf4: bool) -> tuple[float, float]:
    """Bytes per quantised weight that ZeRO-3 / FSDP shards (and gathers), and bytes every data-parallel rank keeps
    whole. bitsandbytes keeps the quantisation constants (absmax, the nested absmax and code; LLM.int8's SCB) in a
    QuantState object on the parameter and on its module, not in a tensor FSDP or DeepSpeed partitions: only the
    packed data is the parameter (bitsandbytes 005a63c2badadd7fb2c45a4b67c1dcbabb72b297 bitsandbytes/nn/modules.py,
    Params4bit._quantize sets module.quant_state; fix_4bit_weight_quant_state_from_module: 'the quant state got lost
    when the parameter got converted. This happens for example for fsdp'), and each rank dequantises the whole
    gathered weight with it, so it stays whole on every rank and on the GPU when the parameters are offloaded.
    torchao's NF4Tensor (torchtune) shards and gathers its scalers with its data (pytorch/ao 0598012907d6
    torchao/dtypes/nf4tensor.py _INNER_TENSOR_NAMES_FOR_SHARDING: quantized_scalers, quantization_factor,
    quantized_data)."""
    whole = quantized_bytes_per_param(bits, double_quant)
    if torchao_nf4:
        return whole, 0.0
    return bits / 8, whole - bits / 8


def adapter_state_bytes(dt: Dtypes, adapter_bytes: int) -> int:
    """Bytes of one optimizer-state element of a LoRA adapter. Where the optimizer steps the adapters themselves (no
    fp32 master copy: dt.master 0), torch's AdamW keeps its states as torch.zeros_like(param), the adapter's own dtype
    (torch 2.14.1 torch/optim/adam.py Adam._init_group lines 178-187); with a master copy (mixed precision) the
    states are the master's, dt.state."""
    return dt.state if dt.master else adapter_bytes


def optimizer_state_bytes_per_param(s: Scenario, state_bytes: int) -> float:
    if optimizer_used(s) in ("adamw-8bit", "adamw-8bit-paged"):
        return 2 * (1 + 4 / BNB_BLOCK)
    return _STATE_TENSORS[optimizer_used(s)] * state_bytes


@dataclass(frozen=True, slots=True)
class StageParams:
    """Parameters held by one GPU of a pipeline stage, before ZeRO sharding."""

    trainable_dense: float
    trainable_expert: float
    frozen: float  # frozen 16/32-bit base weights
    quantized: float  # QLoRA 4/8-bit base weights
    lora: float  # adapter weights (trainable)
    factored_state: float  # adafactor statistics for the trainable weights
    largest_unit: float  # largest ZeRO-3/FSDP gather unit (one layer or the embedding)
    largest_param: float
    released: float = 0.0  # LoRA's frozen base weights kept in the checkpoint's MXFP4/FP8 storage (base_storage)
    released_bytes_per_param: float = 0.0
    released_format: str = ""
    trainable_linear: float = 0.0  # of trainable_dense: the decoder layers' linear weights (fp8_param_gather stores them)
    lora_expert: float = 0.0  # of lora: the routed experts' adapters, sharded over the expert data-parallel ranks

    @property
    def trainable(self) -> float:
        return self.trainable_dense + self.trainable_expert


def layer_is_frozen(s: Scenario, spec: ModelSpec, layer: int) -> bool:
    if s.method in ADAPTER_METHODS:
        return True
    if s.method != "freeze" or s.frozen_layers == 0:
        return False
    if s.freeze_from == "bottom":
        return layer < s.frozen_layers
    return layer >= spec.layers - s.frozen_layers


def vision_tower_trains(s: Scenario) -> bool:
    """Vision-language models: the tower and projector train only when asked and the method trains weights."""
    return s.vision_tower == "trained" and s.method not in ADAPTER_METHODS


def vision_tower_backward(s: Scenario) -> bool:
    """The tower's backward runs: where it trains, or where it is frozen but the framework checkpoints its blocks and
    hooks its patch embedding's output to require grad (vision_tower frozen-backward: ms-swift's
    vit_gradient_checkpointing, a161d54d4 swift/megatron/trainers/base.py lines 266-275 and 3602360a5
    swift/trainers/mixin.py lines 949-952 call gradient_checkpointing_enable() and enable_input_require_grads() on
    the vision tower whatever freeze_vit says), so its input gradients run back through every block."""
    return vision_tower_trains(s) or s.vision_tower == "frozen-backward"


def embeddings_frozen(s: Scenario) -> bool:
    return s.method in ADAPTER_METHODS or (s.method == "freeze" and s.freeze_embeddings)


def first_trainable_layer(s: Scenario, spec: ModelSpec) -> int:
    """Lowest layer with trainable weights or adapters (-1: the embeddings train; layers: nothing does)."""
    if not embeddings_frozen(s):
        return -1
    if s.method in ADAPTER_METHODS:
        return lowest_adapted_layer(s, spec)
    if s.method == "freeze" and s.freeze_from == "bottom":
        return min(s.frozen_layers, spec.layers)
    return 0 if s.frozen_layers < spec.layers else spec.layers


def lowest_adapted_layer(s: Scenario, spec: ModelSpec) -> int:
    """LoRA: the lowest decoder layer with adapters (lora_layers N > 0: the top N layers, as mlx-lm's
    linear_to_lora_layers adapts model.layers[-N:]; 0: every layer, the lowest is 0)."""
    return max(spec.layers - s.lora_layers, 0) if s.lora_layers else 0


def adapted_layer_share(s: Scenario, spec: ModelSpec) -> float:
    """The share of the decoder layers that carry LoRA adapters (1.0 unless lora_layers names the top few)."""
    if not spec.layers or not s.lora_layers:
        return 1.0
    return min(s.lora_layers, spec.layers) / spec.layers


@dataclass(frozen=True, slots=True)
class LayerGroup:
    """Consecutive layers that keep the same tensors: same MoE-ness, frozen-ness and input-grad."""

    moe: bool
    frozen: bool
    input_grad: bool
    count: int
    linear_attn: bool = False  # gated DeltaNet layer (Qwen3-Next) instead of softmax attention
    mtp: bool = False  # Megatron's multi-token-prediction layers (memory/parallelism/layout.py mtp_groups)
    block: str = ""  # a hybrid stack's block kind (models/hybrid_blocks.py); "" for a transformer layer
    adapted: bool = True  # LoRA: the layers carry adapters (False below the top lora_layers ones)

    @property
    def kind(self) -> tuple[bool, bool, str]:
        """(moe, linear_attn, block): the key ModelSpec sizes a layer by (layer_params, linear_params, ...)."""
        return self.moe, self.linear_attn, self.block


def layer_groups(s: Scenario, spec: ModelSpec, layers: range) -> tuple[LayerGroup, ...]:
    """The stage's layers in runs that keep the same tensors (cached: the solver asks for the same few often)."""
    frozen = s.frozen_layers if s.method == "freeze" else 0
    adapted = s.lora_layers if s.method in ADAPTER_METHODS else 0
    return _layer_groups(spec, s.method, frozen, s.freeze_from, embeddings_frozen(s), layers.start, layers.stop,
                         adapted)


@lru_cache(maxsize=4096)
def _layer_groups(spec: ModelSpec, method: str, frozen_layers: int, freeze_from: str, embed_frozen: bool,
                  lo: int, hi: int, lora_layers: int = 0) -> tuple[LayerGroup, ...]:
    probe = _FreezeSettings(method, frozen_layers, freeze_from, embed_frozen, lora_layers)
    first = first_trainable_layer(probe, spec)  # type: ignore[arg-type]
    cuts = {lo, hi, first, first + 1}
    if method == "freeze":
        cuts |= {frozen_layers, spec.layers - frozen_layers}
    points = sorted(c for c in cuts if lo <= c <= hi)
    prefixes = sorted(spec.kind_prefix.items(), key=lambda item: (not item[0][0], item[0][1], item[0][2]))
    groups = []
    for a, b in zip(points, points[1:], strict=False):
        if b <= a:
            continue
        frozen, xg = layer_is_frozen(probe, spec, a), a > first  # type: ignore[arg-type]
        adapted = method not in ADAPTER_METHODS or a >= first  # LoRA: no adapters below the lowest adapted layer
        for (moe, linear_attn, block), prefix in prefixes:
            if prefix[b] - prefix[a]:
                groups.append(LayerGroup(moe, frozen, xg, prefix[b] - prefix[a], linear_attn, block=block,
                                         adapted=adapted))
    return tuple(groups)


@dataclass(frozen=True, slots=True)
class _FreezeSettings:
    """The scenario keys that decide which layers train (what layer_is_frozen and friends read)."""

    method: str
    frozen_layers: int
    freeze_from: str
    embed_frozen: bool
    lora_layers: int = 0

    @property
    def freeze_embeddings(self) -> bool:
        return self.embed_frozen


@lru_cache(maxsize=4096)  # bounded: custom models come and go (engine.caches.clear_caches empties it)
def _targets(spec: ModelSpec, targets: tuple[str, ...] | str, moe: bool, linear_attn: bool = False,
             block: str = "") -> tuple[Linear, ...]:
    linears = spec.layer_linears(moe, linear_attn, block)
    if targets == "all-linear":
        return linears
    if targets == "attention":
        return tuple(lin for lin in linears if lin.group == "attn")
    return tuple(lin for lin in linears if lin.name in targets)


def lora_targets(s: Scenario, spec: ModelSpec, moe: bool, linear_attn: bool = False,
                 block: str = "") -> tuple[Linear, ...]:
    """The adapted nn.Linear modules of one layer (of a hybrid stack: of one block)."""
    return _targets(spec, s.lora_targets, moe, linear_attn, block)


@lru_cache(maxsize=4096)  # bounded: custom models come and go (engine.caches.clear_caches empties it)
def lora_target_names(spec: ModelSpec, targets: tuple[str, ...] | str, moe: bool,
                      linear_attn: bool = False, block: str = "") -> frozenset[str]:
    return frozenset(lin.name for lin in _targets(spec, targets, moe, linear_attn, block))


@lru_cache(maxsize=4096)  # bounded: custom models come and go (engine.caches.clear_caches empties it)
def _lora_params_per_layer(spec: ModelSpec, targets: tuple[str, ...] | str, moe: bool, rank: int,
                           linear_attn: bool = False, block: str = "") -> int:
    return sum(rank * (lin.d_in + lin.d_out) for lin in _targets(spec, targets, moe, linear_attn, block))


@lru_cache(maxsize=4096)  # bounded: custom models come and go (engine.caches.clear_caches empties it)
def expert_lora_params_per_layer(spec: ModelSpec, targets: tuple[str, ...] | str, rank: int) -> int:
    """Adapter parameters of one MoE layer's routed experts, all experts, where the framework adapts them (the
    `lora_adapts_experts` column): per expert r x (hidden + fc1 width) for the grouped fc1 (gate and up fused) and
    r x (expert_ffn + hidden) for fc2."""
    names = set() if targets == "all-linear" else set(targets)
    fc1 = targets == "all-linear" or bool(names & {"gate_proj", "up_proj", "gate_up_proj"})
    fc2 = targets == "all-linear" or "down_proj" in names
    fc1_width = spec.fc1_factor * spec.expert_ffn
    per_expert = rank * ((spec.hidden + fc1_width) * fc1 + (spec.expert_ffn + spec.hidden) * fc2)
    return spec.n_experts * per_expert


@lru_cache(maxsize=4096)  # bounded: custom models come and go (engine.caches.clear_caches empties it)
def _factored_per_layer(spec: ModelSpec, moe: bool, linear_attn: bool = False, block: str = "") -> float:
    linears = spec.layer_linears(moe, linear_attn, block)
    out = sum(lin.d_in + lin.d_out for lin in linears) + spec.small_params(moe, linear_attn, block)
    return out + (spec.n_experts * spec.expert_matrices * (spec.hidden + spec.expert_ffn) if moe else 0)


def stage_params(s: Scenario, spec: ModelSpec, layers: range, first: bool, last: bool,
                 groups: list[LayerGroup] | None = None) -> StageParams:
    tp, ep, etp = s.tp, s.ep, s.expert_tp
    trainable_dense = trainable_expert = frozen = quantized = lora = factored = released = trainable_linear = 0.0
    lora_expert = 0.0
    adapters_only = s.method in ADAPTER_METHODS
    expert_adapters = adapters_only and defaults_for(s.framework).lora_adapts_experts
    fmt = storage_format(s, spec)
    largest_unit = 0.0
    whole = whole_mla_down(s)  # MLA's down projections whole on every TP rank (Megatron-Core, torchtitan)
    for g in groups if groups is not None else layer_groups(s, spec, layers):
        linear_params = spec.tp_linear_params(g.moe, g.linear_attn, g.block, tp, whole)
        expert = spec.expert_params_per_layer() / (ep * etp) if g.moe else 0.0
        small = spec.small_params(g.moe, g.linear_attn, g.block)
        largest_unit = max(largest_unit, linear_params + expert + small)
        n = g.count
        if g.frozen:
            if s.method == "qlora":
                quantized += n * (linear_params + expert)
                frozen += n * small
            elif fmt:
                q_dense, q_expert = stored_values(spec, g.moe, g.linear_attn, fmt, g.block)
                q = q_dense / tp + (q_expert / (ep * etp) if g.moe else 0.0)
                released += n * q
                frozen += n * (linear_params + expert + small - q)
            else:
                frozen += n * (linear_params + expert + small)
        else:
            trainable_dense += n * (linear_params + small)
            trainable_linear += n * linear_params
            trainable_expert += n * expert
            factored += n * _factored_per_layer(spec, g.moe, g.linear_attn, g.block) / tp
        if adapters_only and g.adapted:
            lora += n * _lora_params_per_layer(spec, s.lora_targets, g.moe, s.lora_rank, g.linear_attn, g.block) / tp
            if expert_adapters and g.moe:
                lora_expert += n * expert_lora_params_per_layer(spec, s.lora_targets, s.lora_rank) / (ep * etp)
    lora += lora_expert
    units: list[tuple[float, bool]] = []  # (params, frozen)
    embed = spec.embedding_params / tp
    # Megatron keeps a tied copy on the last stage, and one on the stage of its MTP layers, which embed the tokens
    # again (megatron/core/models/gpt/gpt_model.py at d98e8a6: pre_process or mtp_process builds the embedding)
    mtp_here = groups is not None and any(g.mtp for g in groups)
    if first or (last and spec.tied_embeddings) or mtp_here:
        units.append((embed, embeddings_frozen(s)))
    if first and spec.vision is not None:  # the vision tower and projector run before the first decoder layer
        vision_tp = 1 if defaults_for(s.framework).vision_tower_replicated else tp
        units.append((spec.vision_params / vision_tp, not vision_tower_trains(s)))
    if last and not spec.tied_embeddings:
        if quantizes_head(s):  # Fabric's bitsandbytes plugin: every nn.Linear
            quantized += spec.head_params / tp
            largest_unit = max(largest_unit, spec.head_params / tp)
        else:
            units.append((spec.head_params / tp, adapters_only))
    for params, is_frozen in units:
        largest_unit = max(largest_unit, params)
        if is_frozen:
            frozen += params
        else:
            trainable_dense += params
            factored += spec.vocab / tp + spec.hidden
    # peft modules_to_save: a trainable copy of the module sits next to the frozen original.
    if adapters_only and first and "embed_tokens" in s.modules_to_save:
        trainable_dense += embed
        factored += spec.vocab / tp + spec.hidden
    if adapters_only and last and "lm_head" in s.modules_to_save:
        trainable_dense += (embed if spec.tied_embeddings else spec.head_params / tp)
        factored += spec.vocab / tp + spec.hidden
    if last:
        if adapters_only:
            frozen += spec.norm_params
        else:
            trainable_dense += spec.norm_params
    largest_param = max(embed, spec.ffn * spec.hidden / tp, spec.q_dim * spec.hidden / tp)
    return StageParams(trainable_dense, trainable_expert, frozen, quantized, lora, factored,
                       largest_unit, largest_param, released, bytes_per_value(fmt) if fmt else 0.0, fmt,
                       trainable_linear, lora_expert)


# Keys the parameters of one unsharded copy of the model never read: its layout is tp = pp = ep = 1 whatever the
# scenario's, and the batch does not count (tests/test_memo_keys.py checks it). Every candidate of a speed search then
# shares one count instead of copying its scenario to make it (~11 us of each estimate).
WHOLE_MODEL_MEMO = ScenarioMemo("whole model parameters", KEYS_WITHOUT_MEMORY_EFFECT | frozenset({
    "tp", "pp", "cp", "ep", "vpp", "pp_schedule", "sequence_parallel", "micro_batch", "grad_accum", "seq_len",
    "checkpointing", "offload", "zero_stage", "fsdp",
}))


def whole_model_params(s: Scenario, spec: ModelSpec) -> StageParams:
    """The parameters of one unsharded copy of the model (`spec` is the scenario's)."""
    key = WHOLE_MODEL_MEMO.key(s)
    p = WHOLE_MODEL_MEMO.get(key)
    if p is None:
        p = WHOLE_MODEL_MEMO.put(key, unsharded_params(s.with_unchecked(tp=1, pp=1, ep=1), spec))
    return p


def unsharded_params(whole: Scenario, spec: ModelSpec) -> StageParams:
    """Every layer, the embedding and the head of `whole`, a scenario with tp = pp = ep = 1."""
    layers = range(spec.layers)
    return stage_params(whole, spec, layers, True, True, layer_groups(whole, spec, layers))
