"""One-step suggestions in the seeds' decision order, each priced by the engine.

Seed 004's guide: (1) FlashAttention and activation checkpointing, (2) smaller micro-batch with
gradient accumulation, (3) full -> LoRA -> QLoRA, (4) shorter sequences; beyond: ZeRO-3/FSDP,
TP/PP, CPU offload (with its speed warning). The multi-step search is engine.solver.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import PlannerError
from ..memory.breakdown import Estimate
from ..memory.states import dtypes_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.architecture import ModelSpec
from ..models.presets import get_gpu
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import eight_bit_optimizer_runs, liger_can_patch
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.framework_support import capabilities, framework_runs
from ..scenario.optimizer_used import optimizer_used
from ..scenario.runnable import RunnableLayout, runnable_layouts
from ..workloads import estimate
from .fused_adamw import FUSED_ADAMW_NOTE, fused_adamw_setting
from .limits import min_seq_len
from .offload_suggest import offload_candidate
from .pretraining import is_pretraining
from .rl_suggest import rl_candidates
from .serve_suggest import serving_candidates, users_as_set


@dataclass(frozen=True)
class Suggestion:
    title: Message  # str(title) is the English sentence
    changes: dict[str, Any]
    saved_bytes: float  # reduction of total_bytes per GPU (negative: costs memory)
    estimate: Estimate
    cost_note: str
    effect: Message | None = None  # serving: users at once and context after the change (bytes say less there)

    @property
    def fits(self) -> bool:
        return self.estimate.fits


def _candidates(s: Scenario) -> list[tuple[Message, dict[str, Any], str]]:
    spec = resolve_model(s)
    return _same_training(s, spec) + _what_or_where_trained(s, spec)


def _same_training(s: Scenario, spec: ModelSpec) -> list[tuple[Message, dict[str, Any], str]]:
    """The changes listed first: post-training's engine and reference settings (rl_suggest.py), then those that keep
    what is trained and how it is laid out: a newer PyTorch, fused AdamW, checkpointing or FlashAttention, every layer
    recomputed, Liger kernels, a smaller micro-batch with more accumulation."""
    out: list[tuple[Message, dict[str, Any], str]] = []
    if s.training_objective != "sft":  # post-training: the engine and reference first (estimate: workloads)
        out += rl_candidates(s, dtypes_for(s).compute)
    if s.pytorch_version == "2.0" and optimizer_used(s) == "adamw":  # the same training, one state-sized temporary less
        out.append((message(QT_TRANSLATE_NOOP("engine", "Upgrade PyTorch to 2.1 or later (its foreach AdamW adds eps "
                                                        "in place)")), {"pytorch_version": "2.1+"},
                    QT_TRANSLATE_NOOP("engine", "the same training; check the torch release your other libraries "
                                                "pin")))
    if setting := fused_adamw_setting(s):  # the same AdamW, none of foreach's step temporaries
        out.append((message(QT_TRANSLATE_NOOP("engine", "Use fused AdamW ({setting})"), setting=setting),
                    {"optimizer": "adamw-fused"}, FUSED_ADAMW_NOTE))
    if s.checkpointing != "full" or s.attention == "eager":
        changes: dict[str, Any] = {"checkpointing": "full"}
        # from selective recomputation, checkpointing is on already: the step is to recompute whole layers; at full,
        # only FlashAttention changes
        title = (QT_TRANSLATE_NOOP("engine", "Turn on activation checkpointing") if s.checkpointing == "none" else
                 QT_TRANSLATE_NOOP("engine", "Recompute whole layers (full activation checkpointing)"))
        if s.attention == "eager":
            changes["attention"] = "flash"
            title = {"none": QT_TRANSLATE_NOOP("engine", "Turn on activation checkpointing and FlashAttention"),
                     "full": QT_TRANSLATE_NOOP("engine", "Use FlashAttention")}.get(s.checkpointing, QT_TRANSLATE_NOOP(
                         "engine", "Recompute whole layers (full activation checkpointing) and use FlashAttention"))
        out.append((message(title), changes,
                    QT_TRANSLATE_NOOP("engine", "recomputes each layer in backward: about 30-40% more compute")
                    if s.checkpointing != "full" else
                    QT_TRANSLATE_NOOP("engine", "the same maths in tiles: no attention-score matrix is kept")))
    if s.checkpointing == "full" and s.recompute_num_layers:  # only some layers recomputed (recompute_layers.py)
        out.append((message(QT_TRANSLATE_NOOP("engine", "Recompute every layer (full activation checkpointing)")),
                    {"recompute_num_layers": 0},
                    QT_TRANSLATE_NOOP("engine", "the layers kept whole are recomputed too: one more forward each")))
    if liger_can_patch(s, spec):
        # transformers' use_liger_kernel=True: Liger's RMSNorm, RoPE and SwiGLU, and its fused linear cross-entropy
        out.append((message(QT_TRANSLATE_NOOP("engine", "Use Liger kernels (fused, memory-saving training kernels)")),
                    {"liger_kernels": True, "cross_entropy": "fused-linear"},
                    QT_TRANSLATE_NOOP("engine", "pip install liger-kernel; the same training, usually a little faster")))
    if s.micro_batch > 1:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Halve the micro-batch to {micro_batch}, accumulate {steps} "
                                                        "steps"), micro_batch=s.micro_batch // 2, steps=s.grad_accum * 2),
                    {"micro_batch": s.micro_batch // 2, "grad_accum": s.grad_accum * 2},
                    QT_TRANSLATE_NOOP("engine", "same global batch; more, smaller steps are somewhat slower")))
    return out


def _what_or_where_trained(s: Scenario, spec: ModelSpec) -> list[tuple[Message, dict[str, Any], str]]:
    """The changes of what is trained (LoRA, QLoRA, 8-bit AdamW, shorter sequences) and of where (sharding, TP, PP,
    offload)."""
    out: list[tuple[Message, dict[str, Any], str]] = []
    if s.method not in ADAPTER_METHODS and not is_pretraining(s):  # adapters only fine-tune (pretraining.py)
        precision = "bf16" if s.precision.startswith(("amp", "mixed", "fp32", "fp8", "nvfp4")) else s.precision
        out.append((message(QT_TRANSLATE_NOOP("engine", "Train LoRA adapters (r=16, all linear layers) instead of all "
                                                        "weights")),
                    # the sharding kept: LoRA runs under ZeRO-3 and FSDP (huggingface/peft 5d602fdbff04
                    # docs/source/accelerate/deepspeed.md and fsdp.md, the published peft-docs-* runs)
                    {"method": "lora", "lora_rank": 16, "lora_targets": "all-linear", "precision": precision},
                    QT_TRANSLATE_NOOP("engine", "trains far fewer parameters; quality can differ from a full fine-tune")))
    base16 = {}
    if s.method == "lora" and dtypes_for(s).weight == 4:  # autocast or fp32 keeps the frozen base in 4 bytes
        base16 = {"precision": "bf16" if not isinstance(s.gpu, str) or get_gpu(s.gpu).bf16 else "fp16"}
        out.append((message(QT_TRANSLATE_NOOP("engine", "Load the base model in {dtype} (as most LoRA recipes do)"),
                            dtype=base16["precision"]), base16,
                    QT_TRANSLATE_NOOP("engine", "the frozen weights in 2 bytes instead of 4; the adapters train as "
                                                "before")))
    # QLoRA from there over the 16-bit base too, as Make it fit does (fit_options.py _method_axis): at amp-bf16 alone
    # it came out larger than the LoRA it replaced (a 7B on a 4090: 183.9 GiB against 171.8), so it was not listed
    if s.method == "lora":
        out.append((message(QT_TRANSLATE_NOOP("engine", "Quantise the base model to 4-bit (QLoRA)")),
                    {"method": "qlora", **base16},  # keeps its sharding: FSDP and ZeRO-3 run QLoRA (limits.with_gpus)
                    QT_TRANSLATE_NOOP("engine", "dequantisation makes steps ~30-40% slower than LoRA; small quality "
                                                "cost")))
    if optimizer_used(s) in ("adamw", "adamw-fused") and s.method not in ADAPTER_METHODS and eight_bit_optimizer_runs(s):
        out.append((message(QT_TRANSLATE_NOOP("engine", "Use an 8-bit optimizer (AdamW 8-bit)")),
                    {"optimizer": "adamw-8bit"},
                    QT_TRANSLATE_NOOP("engine", "bitsandbytes 8-bit states; usually the same quality")))
    if s.seq_len > 256 and s.seq_len // 2 >= min_seq_len(s):  # never shorter than the images' tokens
        out.append((message(QT_TRANSLATE_NOOP("engine", "Shorten sequences to {tokens} tokens"), tokens=s.seq_len // 2),
                    {"seq_len": s.seq_len // 2},
                    QT_TRANSLATE_NOOP("engine", "the model sees shorter contexts: changes what it learns")))
    if s.world_size > 1 and s.effective_zero < 3:  # QLoRA too: its packed 4-bit weights shard (limits.with_gpus)
        out.append((message(QT_TRANSLATE_NOOP("engine", "Shard weights, gradients and optimizer states (ZeRO-3 / "
                                                        "FSDP)")), dict(capabilities(s).sharding(3)),
                    QT_TRANSLATE_NOOP("engine", "more communication: needs a fast interconnect")))
    max_tp = min(s.gpus_per_node, 8)
    if s.tp * 2 <= max_tp and spec.heads % (s.tp * 2) == 0 and s.world_size % (s.tp * 2 * s.pp * s.cp) == 0:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Tensor parallelism TP={tp}"), tp=s.tp * 2), {"tp": s.tp * 2},
                    QT_TRANSLATE_NOOP("engine", "splits every layer across GPUs: needs NVLink-class bandwidth")))
    if s.pp * 2 <= spec.layers and s.world_size % (s.tp * s.pp * 2 * s.cp) == 0:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Pipeline parallelism PP={pp}"), pp=s.pp * 2),
                    {"pp": s.pp * 2, "grad_accum": max(s.grad_accum, s.pp * 2)},
                    QT_TRANSLATE_NOOP("engine", "pipeline bubbles cost throughput unless many micro-batches are in "
                                                "flight")))
    offload = offload_candidate(s)  # Megatron's: the smallest share of the optimizer that fits
    if offload is not None:
        out.append(offload)
    return out


MIN_SHARE_OF_SHORTFALL = 0.01


def _estimated(s: Scenario, candidates: list[Any]) -> Iterator[tuple[Any, dict[str, Any], Any, Scenario, Estimate]]:
    """(title, changes, note, changed scenario, its estimate) of each candidate change the scenario's checks and
    the estimator accept; a change they refuse (PlannerError) is no suggestion."""
    for title, changes, note in candidates:
        try:
            changed = s.replace(**changes)
            result = estimate(changed)
        except PlannerError:
            continue
        yield title, changes, note, changed, result


_RUNNABLE = QT_TRANSLATE_NOOP("engine", "the change its framework needs to run this layout")


def suggestions(s: Scenario) -> list[Suggestion]:
    """Each one-step change in the guide's order, with the memory it saves per GPU. A layout its framework cannot run
    (engine/scenario/runnable.py): the runnable layouts nearest to it first, then the changes made on top of the
    first of them, each with that layout's change in it; where there are two ways out (DeepSpeed's ZeRO-3 with a
    pipeline: drop the pipeline, or keep it with ZeRO-1), the best change on top of the second way too, after the
    first way's changes that come before it in that order or level with it."""
    if s.workload == "inference":
        return serving_suggestions(s)
    base = estimate(s)
    layouts = runnable_layouts(s)
    runnable = [Suggestion(lay.title, lay.changes, base.total_bytes - est.total_bytes, est, _RUNNABLE, lay.reasons[0])
                for lay in layouts for est in (estimate(lay.scenario),)]
    if not layouts:
        return [sug for _, sug, _ in _on_top(s, None, base)]
    out = _on_top(s, layouts[0], runnable[0].estimate)
    for other, other_sug in zip(layouts[1:], runnable[1:], strict=True):
        seen = [lay.scenario for lay in layouts] + [changed for _, _, changed in out]  # no duplicate outcome
        second = [x for x in _on_top(s, other, other_sug.estimate) if x[2] not in seen]
        if not second:
            continue
        # its best: the first (least disruptive, the guide's order) that fits, else the one that saves the most
        best = next((x for x in second if x[1].fits), max(second, key=lambda x: x[1].saved_bytes))
        at = max((i + 1 for i, (_, sug, _) in enumerate(out) if sug.title.template in best[0]), default=0)
        out.insert(at, best)
    return runnable + [sug for _, sug, _ in out]


def _on_top(s: Scenario, lay: RunnableLayout | None,
            lever: Estimate) -> list[tuple[frozenset[str], Suggestion, Scenario]]:
    """The guide's changes made on s (lay None) or on its runnable layout lay, each kept when its framework runs it
    and it saves enough: (the guide's changes up to it, the suggestion, the scenario it leads to)."""
    start = s if lay is None else lay.scenario
    out: list[tuple[frozenset[str], Suggestion, Scenario]] = []
    before: set[str] = set()  # the templates of the guide's changes up to this one (on this layout)
    for title, changes, note, changed, result in _estimated(start, _candidates(start)):
        before.add(title.template)
        upto = frozenset(before)
        if not framework_runs(changed):
            continue  # a layout its framework cannot run is no suggestion (engine/frameworks/parallelism.py)
        sug = Suggestion(title, {**lay.changes, **changes} if lay else changes, lever.total_bytes - result.total_bytes,
                         result, note, lay.with_it if lay else None)
        out.append((upto, sug, changed))
    # A change that saves less than 1% of what is missing is noise next to the others (shortening sequences by a
    # few tokens that saves 0.6 MiB of an 18 GiB shortfall); when it already fits, the shortfall is the reserve's size.
    shortfall = max(lever.total_bytes - lever.capacity_bytes, 0.0) or lever.verdict_reserve_bytes
    # a post-training engine short of KV cache starts with a larger share of the GPU: that change costs memory
    # but improves the verdict
    return [x for x in out if (x[1].saved_bytes > 0 and x[1].saved_bytes >= MIN_SHARE_OF_SHORTFALL * shortfall)
            or (lever.engine_may_refuse and VERDICT_RANK[x[1].estimate.verdict] > VERDICT_RANK[lever.verdict])]


VERDICT_RANK = {"does not fit": 0, "tight": 1, "fits": 2}


def serving_suggestions(s: Scenario) -> list[Suggestion]:
    """An inference scenario's changes (engine/planning/serve_suggest.py), each kept when it makes the engine start
    (or fit better), serves more users at once, or frees memory. vLLM and SGLang give whatever is left to the KV cache,
    so their total hardly moves: the effect says users at once at the context instead."""
    base = estimate(s)
    users = users_as_set(s)
    out = []
    for title, changes, note, changed, result in _estimated(s, serving_candidates(s)):
        after = users_as_set(changed)
        better = VERDICT_RANK[result.verdict] - VERDICT_RANK[base.verdict]
        saved = base.total_bytes - result.total_bytes
        # vLLM and SGLang that start fill the GPU whatever the change: freed bytes count only as more users
        frees = saved > 0 and (s.serving_engine not in ("vllm", "sglang") or base.verdict == "does not fit")
        if better < 0 or (better == 0 and after <= users and not frees):
            continue
        effect = message(QT_TRANSLATE_NOOP("engine", "{users} users at once at {tokens} tokens"), users=after,
                         tokens=f"{result.serving.max_model_len:,}")
        out.append(Suggestion(title, changes, saved, result, note, effect))
    return out
