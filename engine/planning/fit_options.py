"""The changes Make it fit may propose (engine/planning/solver.py searches their combinations). No Qt.

Each axis is one lever (checkpointing, micro-batch, optimizer, method, sharding, layout, offload, ...) as a list of
options from the mildest dose to the strongest, each with its disruption (seed 004's decision guide sets the costs),
the sentence that says it and the note on what it costs; only the levers the scenario's framework has, named as it
names them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism import Parallelism
from ..memory.states import dtypes_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import get_gpu
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import eight_bit_optimizer_runs, liger_can_patch
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.framework_support import capabilities
from ..scenario.optimizer_used import optimizer_used
from ..scenario.shard_group import shard_replicas
from .fused_adamw import fused_adamw_options
from .limits import MAX_GPUS, counted, min_seq_len, seq_step, tp_ok
from .offload_suggest import HYBRID_OFFLOAD_COST
from .pretraining import is_pretraining
from .recompute_plans import RECOMPUTE_NOTE, RECOMPUTE_SOME, offers_some_layers
from .rl_suggest import rl_options


@dataclass(frozen=True)
class FitOption:
    axis: str
    cost: float  # disruption; for "seq" and "gpus" a lower bound, the outcome adds to it
    changes: tuple[tuple[str, Any], ...]
    phrase: Message | None  # None: the phrase comes from the outcome (sequence length, GPU count)
    note: str
    kind: str = ""  # "seq": longest sequence that fits; "zero3"/"tp_pp": fewest GPUs with that layout


MICRO_BATCH_AND_ACCUM = QT_TRANSLATE_NOOP("engine", "set micro-batch to {m} and gradient accumulation to {ga} (the "
                                                   "same global batch)")
MICRO_BATCH_ONLY = QT_TRANSLATE_NOOP("engine", "set micro-batch to {m}")
_CKPT = QT_TRANSLATE_NOOP("engine", "recomputation costs ~30-40% more compute")
_MB = QT_TRANSLATE_NOOP("engine", "smaller micro-batches use the GPU less efficiently; same global batch, same maths")
_OPT8 = QT_TRANSLATE_NOOP("engine", "8-bit AdamW (bitsandbytes): optimizer states quantised, quality close to 32-bit AdamW")
_LORA = QT_TRANSLATE_NOOP(
    "engine", "LoRA trains only the adapters (a small fraction of the parameters): close to, not equal to, full "
    "fine-tuning")
_QLORA = QT_TRANSLATE_NOOP("engine", "QLoRA is slower than LoRA (~+30-40% from dequantisation) and slightly lower quality")
_BASE16 = QT_TRANSLATE_NOOP("engine", "the frozen weights are rounded to 16 bits; the adapters train as before")
_SEQ = QT_TRANSLATE_NOOP("engine", "shorter sequences: less context per sample; long-context behaviour is not learned")
ZERO_NOTE = QT_TRANSLATE_NOOP("engine", "ZeRO adds communication (ZeRO-3/FSDP gathers weights every step)")
TP_NOTE = QT_TRANSLATE_NOOP("engine", "TP needs fast NVLink inside the node (communication in every layer)")
PP_NOTE = QT_TRANSLATE_NOOP("engine", "PP adds pipeline bubbles (idle ~ (pp-1)/(grad_accum+pp-1) of the time)")
_LIGER = QT_TRANSLATE_NOOP("engine", "Liger kernels (pip install liger-kernel): the same maths, usually a little faster")
_OFF = QT_TRANSLATE_NOOP("engine", "offload: steps several times (up to 10x) slower, bound by PCIe; needs ample CPU RAM")


def _checkpointing_axis(s: Scenario, layers: int) -> list[FitOption]:
    """Recomputation's doses: from no or selective checkpointing (a change of mode, not turning it on) the fewest
    layers recomputed that fit (recompute_plans.py) before every layer; from some layers, every layer."""
    if s.checkpointing != "full":
        some = [FitOption("ckpt", 0.75, (("checkpointing", "full"),), None, RECOMPUTE_NOTE, RECOMPUTE_SOME)] if (
            offers_some_layers(s, layers)) else []
        return [*some, FitOption("ckpt", 1.0, (("checkpointing", "full"),), message(
            QT_TRANSLATE_NOOP("engine", "turn on activation checkpointing") if s.checkpointing == "none" else
            QT_TRANSLATE_NOOP("engine", "recompute whole layers (full activation checkpointing)")), _CKPT)]
    if s.recompute_num_layers:
        return [FitOption("ckpt", 0.5, (("recompute_num_layers", 0),),
                        message(QT_TRANSLATE_NOOP("engine", "recompute every layer")), _CKPT)]
    return []


def option_axes(s: Scenario) -> list[list[FitOption]]:
    spec = resolve_model(s)
    gpn, world = s.gpus_per_node, s.world_size
    axes: list[list[FitOption]] = [_checkpointing_axis(s, spec.layers)]
    if s.attention != "flash":
        axes.append([FitOption("attn", 0.5, (("attention", "flash"),),
                               message(QT_TRANSLATE_NOOP("engine", "use FlashAttention")), "")])
    if liger_can_patch(s, spec):  # what transformers' use_liger_kernel=True patches in
        axes.append([FitOption("liger", 0.6, (("liger_kernels", True), ("cross_entropy", "fused-linear")),
                               message(QT_TRANSLATE_NOOP("engine",
                                                         "use Liger kernels (fused, memory-saving training kernels)")),
                               _LIGER)])
    mb = [m for m in range(s.micro_batch - 1, 0, -1) if s.micro_batch % m == 0]
    # Same maths, only less efficient kernels: cheaper than changing the method (seed 004 ranks it second).
    axes.append([FitOption("mb", 0.75 + 0.25 * math.log2(s.micro_batch / m),
                         (("micro_batch", m), ("grad_accum", s.grad_accum * s.micro_batch // m)),
                         # the values the user sets, not a ratio ("with 4x the gradient accumulation ... set gradient
                         # accumulation to 32" read as two changes, user audit 12); solver.py drops the second half
                         # where more GPUs set the gradient accumulation again
                         message(MICRO_BATCH_AND_ACCUM, m=m, ga=s.grad_accum * s.micro_batch // m), _MB) for m in mb])
    if optimizer_used(s) in ("adamw", "adamw-fused"):  # the 8-bit AdamW where bitsandbytes builds it
        eight_bit = [FitOption("opt", 2.5, (("optimizer", "adamw-8bit"),), message(QT_TRANSLATE_NOOP(
            "engine", "use the 8-bit AdamW optimizer")), _OPT8)] if eight_bit_optimizer_runs(s) else []
        if optimizer_axis := [*(FitOption(*o) for o in fused_adamw_options(s)), *eight_bit]:
            axes.append(optimizer_axis)
    if not is_pretraining(s):  # a pre-training budget keeps its method: adapters only fine-tune (pretraining.py)
        axes.append(_method_axis(s))
    # a shorter sequence the model takes (post-training reads prompt_len + completion_len, not seq_len)
    if s.training_objective == "sft" and (s.seq_len - 1) // seq_step(s) >= max(1, -(-min_seq_len(s) // seq_step(s))):
        axes.append([FitOption("seq", 5.0, (), None, _SEQ, "seq")])
    if s.dp > 1 and s.effective_zero < 3:  # the stages its framework has (FSDP only: no ZeRO-1 or 2), as it spells them
        caps = capabilities(s)
        names = {1: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-1 (optimizer states)"),
                 2: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-2 (optimizer states and gradients)"),
                 3: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-3 / FSDP full sharding")}
        fsdp = QT_TRANSLATE_NOOP("engine", "shard with FSDP (weights, gradients and optimizer states)")
        axes.append([FitOption("zero", 5.75 + 0.25 * z, tuple(caps.sharding(z).items()), message(
            fsdp if caps.sharding(z)["fsdp"] else names[z]), ZERO_NOTE)
                     for z in range(s.effective_zero + 1, 4) if z in caps.zero_stages])
    if s.effective_zero and shard_replicas(s) > 1:  # HSDP: sharding over every rank holds a smaller share
        axes.append([FitOption("group", 5.5, (("dp_shard", 0),), message(QT_TRANSLATE_NOOP(
            "engine", "shard over all {n} data-parallel GPUs instead of within groups of {group}"),
            n=s.dp * s.cp, group=s.dp_shard), ZERO_NOTE)])
    tps = [t for t in (2, 4, 8) if s.tp < t <= gpn and world % (t * s.pp * s.cp) == 0 and tp_ok(spec, t)]
    axes.append([FitOption("tp", 7.0 + 0.25 * math.log2(t / s.tp), (("tp", t), ("sequence_parallel", True)),
                         message(QT_TRANSLATE_NOOP("engine", "use tensor parallelism tp={tp} with sequence "
                                                             "parallelism"), tp=t), TP_NOTE) for t in tps])
    pps = [p for p in (2, 4, 8, 16, 32, 64) if s.pp < p <= spec.layers and world % (s.tp * p * s.cp) == 0]
    axes.append([FitOption("pp", 7.5 + 0.25 * math.log2(p / s.pp), (("pp", p),),
                         message(QT_TRANSLATE_NOOP("engine", "use pipeline parallelism pp={pp}"), pp=p), PP_NOTE)
                 for p in pps])
    if world < MAX_GPUS:
        # Two axes, not one: each is then ordered, which keeps "superset of a fitting plan" upward-closed.
        # (each only where its framework runs that kind of layout: limits.counted)
        axes += [[FitOption(axis, cost, (), None, "", kind)] for axis, cost, kind in
                 (("gpus", 9.0, "zero3"), ("gpus2", 9.5, "tp_pp")) if counted(s, kind) is not None]
    axes.append(offload_options(s))
    if s.training_objective != "sft":  # post-training: the engine's share, its sleep, the reference (rl_suggest)
        axes += [[FitOption(f"rl{i}", cost, tuple(changes.items()), phrase, note) for cost, changes, phrase, note in group]
                 for i, group in enumerate(rl_options(s, dtypes_for(s).compute))]
    return [a for a in axes if a]


def _method_axis(s: Scenario) -> list[FitOption]:
    """Training LoRA adapters, or QLoRA's over a quantised base, in 16-bit weights (bf16 where the card has it): the
    all-linear rank-16 adapters from a full or freeze fine-tune, the adapters' own rank from LoRA."""
    bf16 = not isinstance(s.gpu, str) or get_gpu(s.gpu).bf16
    prec = () if s.precision in ("bf16", "fp16") else (("precision", "bf16" if bf16 else "fp16"),)
    extra = 0.5 if prec else 0.0
    lora = (("lora_rank", 16), ("lora_targets", "all-linear")) if s.method not in ADAPTER_METHODS else ()
    rank = 16 if lora else s.lora_rank
    use_lora = (QT_TRANSLATE_NOOP("engine", "use LoRA (r={rank}, all linear layers)") if lora
                else QT_TRANSLATE_NOOP("engine", "use LoRA (r={rank})"))
    use_qlora = (QT_TRANSLATE_NOOP("engine", "use QLoRA ({bits}-bit base weights, r={rank}, all linear layers)") if lora
                 else QT_TRANSLATE_NOOP("engine", "use QLoRA ({bits}-bit base weights, r={rank})"))
    methods = []
    if s.method == "lora" and dtypes_for(s).weight == 4:  # autocast or fp32: the frozen base in 4-byte weights
        # the change estimate's warning asks for ("Most LoRA recipes load the model in bf16"): the same adapters
        # over a 2-byte base, milder than QLoRA's 4-bit one (which Make it fit offered alone: a 7B LoRA at amp-bf16
        # on a 24 GB card was told QLoRA or 8 GPUs where loading the base in bf16 and checkpointing fit)
        methods.append(FitOption("method", 0.5, prec, message(QT_TRANSLATE_NOOP(
            "engine", "load the base model in {dtype} (frozen weights in 2 bytes, as most LoRA recipes do)"),
            dtype="bf16" if bf16 else "fp16"), _BASE16))
    if s.method not in ADAPTER_METHODS:
        methods.append(FitOption("method", 3.0 + extra, (("method", "lora"), *lora, *prec),
                               message(use_lora, rank=rank), _LORA))
    if s.method != "qlora":
        methods.append(FitOption("method", (1.5 if s.method == "lora" else 4.5) + extra,
                               (("method", "qlora"), *lora, *prec),
                               message(use_qlora, bits=s.qlora_bits, rank=rank), _QLORA))
    return methods


# Megatron-Core's fractional optimizer offload, a quarter of the shard at a time (offload_suggest.py)
HYBRID_FRACTIONS = (0.25, 0.5, 0.75, 1.0)


def offload_options(s: Scenario) -> list[FitOption]:
    """The offload axis, weaker to stronger, only the kinds its framework has (engine/frameworks/parallelism.py
    offloads), named as it names them: under Megatron its hybrid optimizer's larger shares of the optimizer on the CPU
    (cheaper than the whole of it: the master weights stay) and no weight offload; elsewhere the whole optimizer, then
    the weights too (ZeRO-3's offload, FSDP's CPUOffloadPolicy)."""
    out = []
    caps = capabilities(s)
    current = s.optimizer_offload_fraction if s.offload == "optimizer" else 0.0
    has = {o: caps.has_offload(o, s.world_size) for o in ("optimizer", "optimizer+params")}
    if defaults_for(s.framework).takes_megatron_arguments and (s.offload == "none" or 0 < current < 1):
        if has["optimizer"]:
            out += [FitOption("offload", 11.0 + f, (("offload", "optimizer"), ("optimizer_offload_fraction", f)),
                            message(QT_TRANSLATE_NOOP("engine", "move {share} of the optimizer states to CPU memory "
                                                                "(Megatron's optimizer_offload_fraction)"),
                                    share=f"{f:.0%}"), HYBRID_OFFLOAD_COST) for f in HYBRID_FRACTIONS if f > current]
    elif s.offload == "none" and has["optimizer"]:
        out.append(FitOption("offload", 12.0, (("offload", "optimizer"),), _offload_phrase(caps, "optimizer"), _OFF))
    # QLoRA too: peft's FSDP-QLoRA runs with fsdp_offload_params (huggingface/peft 5d602fdbff04 docs/source/accelerate/
    # fsdp.md lines 169-181, 275: Llama 2 70B on 2 x 24 GB; the published peft-docs-fsdp-qlora-llama-2-70b-offload)
    if s.offload != "optimizer+params" and has["optimizer+params"]:
        out.append(FitOption("offload", 14.0, (("offload", "optimizer+params"),),
                           _offload_phrase(caps, "optimizer+params"), _OFF))
    return out


def _offload_phrase(caps: Parallelism, offload: str) -> Message:
    """The offload step, with the framework's own name for it where that is not DeepSpeed's ZeRO-Offload."""
    name = caps.offload_name(offload)
    if offload == "optimizer":
        return message(QT_TRANSLATE_NOOP("engine", "offload the optimizer states to CPU memory ({mechanism})"),
                       mechanism=name) if name else message(QT_TRANSLATE_NOOP(
                           "engine", "offload the optimizer states to CPU memory"))
    return message(QT_TRANSLATE_NOOP("engine", "offload weights, gradients and optimizer states to CPU memory "
                                               "({mechanism})"), mechanism=name) if name else message(
        QT_TRANSLATE_NOOP("engine", "offload optimizer states and weights to CPU memory"))

