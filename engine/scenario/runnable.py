"""The runnable layouts nearest to a scenario its framework cannot run, on the same GPUs and global batch: what the
plans and suggestions (engine/planning/) start from. Read from the framework's row (engine/frameworks/parallelism.py,
each fact with its source), never from its name; the reasons are the estimate's warnings (framework_support.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from .consistency import check_consistency, split_counted_layers
from .file_values import file_form
from .format import Scenario, resolve_model
from .framework_support import (
    cannot_run,
    capabilities,
    distributed_optimizer_counts,
    runs_shard_group,
    unsupported_settings,
)
from .pipeline_layout import trained_mtp_layers, uneven_layout
from .pipeline_split import splits_evenly, uneven_pipeline_split

# a pipeline that cannot run is folded into data parallelism, its schedule with it (one left with pp 1 has no effect:
# unused_pipeline.py); so are tensor, context and expert parallelism
_FOLD = {"pp": {"pp": 1, "vpp": 1, "pp_schedule": "1f1b"}, "tp": {"tp": 1, "sequence_parallel": False}, "cp": {"cp": 1},
         "ep": {"ep": 1}}
_STEP = QT_TRANSLATE_NOOP("engine", "set {settings} so {framework} can run the layout")
_TITLE = QT_TRANSLATE_NOOP("engine", "Set {settings} so {framework} can run the layout")
_WITH = QT_TRANSLATE_NOOP("engine", "with {settings}, so {framework} can run the layout")
# ... where only the checkpointing mode or the training method changes (engine/frameworks/runs.py)
_RUNS = (QT_TRANSLATE_NOOP("engine", "set {settings} so {framework} can run the training"),
         QT_TRANSLATE_NOOP("engine", "Set {settings} so {framework} can run the training"),
         QT_TRANSLATE_NOOP("engine", "with {settings}, so {framework} can run the training"))


@dataclass(frozen=True)
class RunnableLayout:
    scenario: Scenario  # the runnable layout
    changes: dict[str, Any]  # scenario key -> new value (file form), grad_accum included where dp moved
    reasons: tuple[Message, ...]  # the estimate's sentences: every setting s cannot run (each way changes them all)
    settings: str  # "pp=1, grad_accum=16"
    step: Message  # "set pp=1, grad_accum=16 so Hugging Face can run the layout" (a plan's step)
    title: Message  # the same as a suggestion's title
    with_it: Message  # "with pp=1, grad_accum=16, so Hugging Face can run the layout": a change made on top of it


def _sharding(s: Scenario, most: int) -> dict[str, Any]:
    """Sharding capped at ZeRO-most (FSDP, ZeRO-3 in effect, becomes ZeRO-most when most < 3; Megatron's distributed
    optimizer, its ZeRO-1, is turned off where the framework has no sharding at all), and a stage the framework lacks
    (FSDP-only frameworks: no ZeRO-1 or 2) the nearest deeper one it has: ZeRO-1 and 2 become FSDP keeping the gathered
    weights to backward (reshard_after_forward false, FSDP's SHARD_GRAD_OP: engine/frameworks/parallelism_row.py)."""
    caps = capabilities(s)
    stage = min(s.effective_zero, most)
    if stage == s.effective_zero and (s.dp == 1 or stage in caps.zero_stages):
        return {}
    deeper = [z for z in caps.zero_stages if stage <= z <= most] or [max(z for z in caps.zero_stages if z <= most)]
    keys: dict[str, Any] = dict(caps.sharding(deeper[0]))
    if keys["fsdp"] and s.effective_zero < 3:
        keys["reshard_after_forward"] = False
    return {**keys, **({"distributed_optimizer": False} if s.distributed_optimizer and most < 1 else {})}


def _offload(s: Scenario) -> dict[str, Any]:
    """The offload kind the framework has nearest to s's: the weights too where it offloads the optimizer only with
    them (FSDP's CPUOffloadPolicy, on FSDP), the optimizer alone where it has no weight offload (Megatron), else none."""
    caps = capabilities(s)
    near = [o for o in ((s.offload, "optimizer+params") if s.offload == "optimizer" else (s.offload, "optimizer"))
            if caps.has_offload(o, s.world_size)]
    if not near:
        return {"offload": "none"}
    return {"offload": near[0], **(caps.sharding(3) if near[0] == "optimizer+params" and s.effective_zero < 3 else {})}


def _fsdp_optimizer_offload(s: Scenario) -> dict[str, Any]:
    """FSDP's optimizer-only offload as it runs: ZeRO-3's offload_optimizer, the searches' spelling of it
    (Parallelism.offload_sharding; FSDP's own offload moves the weights too: the row's fsdp_offloads)."""
    return capabilities(s).offload_sharding(s.zero_stage, s.fsdp, s.offload, distributed_optimizer_counts(s))


def _even_split(s: Scenario) -> dict[str, Any]:
    """Megatron's even split (engine/scenario/pipeline_split.py): one chunk a rank, over the deepest pipeline up to
    s's whose stages divide the layers it counts and the GPUs beside tp x cp (s's own where it divides; 1 at worst)."""
    counted, ranks = split_counted_layers(s, resolve_model(s).layers), s.world_size // (s.tp * s.cp)
    pp = max(p for p in range(1, s.pp + 1) if splits_evenly(counted, p, 1) and ranks % p == 0)
    return {"pp": pp, "vpp": 1, "pp_schedule": "1f1b"}


def _runs_fix(s: Scenario, name: str) -> dict[str, Any]:
    """The nearest checkpointing mode or training method the framework runs (engine/frameworks/runs.py): selective
    and op-selective for each other, else full recomputation; QLoRA's adapters without the 4-bit base (LoRA), else
    full training (a change of what is trained, which the plans flag)."""
    runs = defaults_for(s.framework).runs
    if name == "checkpointing":
        return {"checkpointing": runs.nearest_checkpointing(s.checkpointing)}
    return {"method": runs.nearest_method(s.method, s.world_size)}


def _layout_keeping_pipeline(s: Scenario) -> str | None:
    """The pipeline layout that lets s's framework run s's pipeline as it is, where it takes layouts (Megatron-Core's
    pipeline_model_parallel_layout: Llama 3.1 405B's 126 layers over pp 16, DeepSeek-V3's 61 over any pp) and the
    layers do not split evenly: the layout Megatron-Bridge's recipes write (uneven_layout); None elsewhere (a layout
    of another chunk count over layers that split evenly is dropped: the even split needs none)."""
    if not defaults_for(s.framework).pipeline_layouts or not uneven_pipeline_split(s.with_unchecked(pipeline_layout="")):
        return None
    spec = resolve_model(s)
    return uneven_layout(spec.layers, s.pp * max(1, s.vpp), trained_mtp_layers(s, spec))


def _ways(s: Scenario, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The change sets that make s runnable: one, or two where the conflict is between two settings. Where the
    layers do not split over the pipeline and the framework takes a layout, the pipeline kept with that layout
    first, then the even split (a shallower pipeline): a 405B or DeepSeek-V3 run keeps its pp 16."""
    layout = _layout_keeping_pipeline(s) if {"pipeline_split", "pipeline_layout"} & set(names) else None
    return [*(_fixes(s, names, layout) if layout else []), *_fixes(s, names, None)]


def _fixes(s: Scenario, names: tuple[str, ...], layout: str | None) -> list[dict[str, Any]]:
    """_ways' change sets, with `layout` as the pipeline layout where the split needs one (None: split evenly)."""
    caps = capabilities(s)  # the method's limits too (LoRA, QLoRA)
    fix: dict[str, Any] = {}
    for name in names:
        if name in _FOLD:
            fix.update(_FOLD[name])
        elif name == "pp_schedule":  # an interleaved schedule it lacks: its first (1F1B where it has it), one chunk
            fix.update(pp_schedule="1f1b" if "1f1b" in caps.pp_schedules else caps.pp_schedules[0], vpp=1)
        elif name == "zero":
            fix.update(_sharding(s, caps.max_zero))
        elif name == "offload":
            fix.update(_offload(s))
        elif name == "fsdp_offload":
            fix.update(_fsdp_optimizer_offload(s))
        elif name in ("checkpointing", "method"):
            fix.update(_runs_fix(s, name))
        elif name == "recompute_method":  # every layer recomputed, each its own checkpoint: what "full" runs anywhere
            fix.update(recompute_num_layers=0)
        elif name == "lora_layers":  # adapters on chosen layers where its LoRA adapts every layer: every layer
            fix.update(lora_layers=0)
        elif name == "fp8_recipe":  # a recipe it has no code for: its own default
            fix.update(fp8_recipe="auto")
        elif name == "optimizer":  # an optimizer it has no code for (bitsandbytes' in MLX): the AdamW it builds
            fix.update(optimizer="auto")
        elif name == "attention":  # an attention kernel it lacks: the one its models call
            fix.update(attention=defaults_for(s.framework).runs.attentions[0])
        elif name == "zbv_layers":  # layers that do not split into its V's chunks: its 1F1B, one chunk a rank
            fix.update(pp_schedule="1f1b", vpp=1)
        elif name == "pipeline_split":
            fix.update({"pipeline_layout": layout} if layout else _even_split(s))
        elif name == "pipeline_layout" and layout:  # a layout of other chunks than pp x vpp: one of pp x vpp
            fix.update(pipeline_layout=layout)
        elif name == "pipeline_layout":  # ... or none, split evenly
            fix.update(pipeline_layout="", **_even_split(s) if uneven_pipeline_split(s.with_unchecked(
                pipeline_layout="")) else {})
    if "fsdp_offload" in names and caps.has_offload("optimizer+params", s.world_size):  # or FSDP's own offload
        return [fix, {**{k: v for k, v in fix.items() if k not in ("zero_stage", "fsdp")}, "offload": "optimizer+params"}]
    if "zero_with_schedule" in names:  # keep the sharding and run 1F1B; keep the schedule and shard as far as it runs
        return [{**fix, "pp_schedule": "1f1b", "vpp": 1}, {**fix, **_sharding(s, caps.most_zero_with(s.pp_schedule))}]
    if "zero_with_pp" not in names:
        return [fix]
    # both ways out: keep the sharding and drop the pipeline; keep the pipeline and shard as far as it runs with one
    return [{**fix, **_FOLD["pp"]}, {**fix, **_sharding(s, caps.max_zero_with_pp)}]


def _layout(s: Scenario, fix: dict[str, Any], reasons: tuple[Message, ...]) -> RunnableLayout | None:
    r = s.with_unchecked(**fix)
    if r.dp != s.dp:  # the global batch kept, as the searches keep it when they change dp (exactly where it divides)
        r = r.with_unchecked(grad_accum=max(1, s.grad_accum * s.dp // r.dp))
    # a shard group the framework does not run at the (new) stage, or that the new ranks no longer divide (a pipeline
    # folded): over every rank, as the searches settle it (engine/planning/shard_group_choice.py); a stage fixed to
    # one it runs a group at (torchtitan's ZeRO-2 to FSDP) keeps it
    if r.dp_shard and ((r.dp * r.cp) % r.dp_shard or not runs_shard_group(r)):
        fix = {**fix, "dp_shard": 0}
        r = r.with_unchecked(dp_shard=0)
    try:  # a layout the scenario's own checks refuse is none (none of the searches proposes one either)
        check_consistency(r, resolve_model(r))
    except ScenarioError:
        return None
    if cannot_run(r) == ("fsdp_offload",):  # more data-parallel ranks (a pipeline folded): FSDP now shards, and has
        fix = {**fix, **_fsdp_optimizer_offload(r)}  # no optimizer-only offload
        r = r.with_unchecked(**fix)
    if cannot_run(r):
        return None
    changes = {k: file_form(getattr(r, k)) for k in (*fix, "grad_accum") if getattr(r, k) != getattr(s, k)}
    settings = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changes.items())
    label = defaults_for(s.framework).label
    texts = _RUNS if set(fix) <= {"checkpointing", "method"} else (_STEP, _TITLE, _WITH)
    return RunnableLayout(r, changes, reasons, settings, *(message(t, settings=settings, framework=label)
                                                           for t in texts))


def runnable_layouts(s: Scenario) -> tuple[RunnableLayout, ...]:
    """The runnable layouts nearest to s on its GPUs with its global batch, most faithful first; () when its
    framework runs s as it is. A checkpointing mode or a training method it lacks becomes the nearest it runs
    (_runs_fix). Each unsupported dimension (pp, tp, cp, ep: the framework's, or with s's training
    method, as tp with Hugging Face's QLoRA) is folded into data parallelism, an
    unsupported schedule becomes one it runs (1F1B, one chunk), sharding deeper than it has is capped; ZeRO-2/3 with a
    pipeline where only shallower sharding runs with one gives both ways out: no pipeline (the sharding kept) first,
    then the pipeline kept with the sharding it allows."""
    names = cannot_run(s)
    if not names:
        return ()
    reasons = tuple(unsupported_settings(s))
    out: list[RunnableLayout] = []
    for fix in _ways(s, names):
        lay = _layout(s, fix, reasons)
        if lay is not None and all(lay.scenario != o.scenario for o in out):
            out.append(lay)
    return tuple(out)
