"""The settings of a scenario its framework cannot run, in plain sentences: read from the framework's row
(engine/frameworks/parallelism.py for the layouts, engine/frameworks/runs.py for the checkpointing modes and training
methods, each fact with its source). A warning, never a refusal: saved scenarios and
published runs keep loading; the searches (engine/planning/) do not propose such layouts."""

from __future__ import annotations

from functools import lru_cache

from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism import ANY, Parallelism
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import get_gpu
from .format import Scenario
from .pipeline_split import refused_splits
from .shard_group import shard_replicas

_SENTENCES = {
    "pp": QT_TRANSLATE_NOOP("engine", "{framework} has no pipeline parallelism: pp {pp} cannot run in it."),
    "pp_schedule": QT_TRANSLATE_NOOP("engine", "{framework} has no {schedule} pipeline schedule: it runs {schedules}."),
    "zero_with_pp": QT_TRANSLATE_NOOP("engine", "{framework} cannot run {sharding} together with pipeline parallelism "
                                                "(pp {pp}): with a pipeline it shards at most as ZeRO-{most}."),
    # a schedule the framework runs with less sharding (Parallelism.schedule_max_zero, with its source: the Zero Bubble
    # fork refuses its distributed optimizer with zero bubble)
    "zero_with_schedule": QT_TRANSLATE_NOOP("engine", "{framework} cannot run {sharding} with the {schedule} pipeline "
                                                      "schedule: with that schedule it shards at most as ZeRO-{most} "
                                                      "(ZeRO-0 is plain data parallelism)."),
    "zero": QT_TRANSLATE_NOOP("engine", "{framework} has no {sharding}: it shards at most as ZeRO-{most}."),
    "tp": QT_TRANSLATE_NOOP("engine", "{framework} has no tensor parallelism: tp {tp} cannot run in it."),
    "cp": QT_TRANSLATE_NOOP("engine", "{framework} has no ring context parallelism: cp {cp} cannot run in it."),
    "ep": QT_TRANSLATE_NOOP("engine", "{framework} has no expert parallelism: ep {ep} cannot run in it."),
    # a shallower stage it lacks (FSDP only: torchtitan, torchtune ...), and an offload kind it has no code for
    "stage": QT_TRANSLATE_NOOP("engine", "{framework} has no {sharding}: it shards with {stages} only."),
    "offload": QT_TRANSLATE_NOOP("engine", "{framework} has no {offload} offload: it offloads {offloads}."),
    "no_offload": QT_TRANSLATE_NOOP("engine", "{framework} has no CPU offload: offload {offload} cannot run in it."),
    # a shard group (dp_shard) at a stage where it shards over every data-parallel rank (Parallelism.shard_group_stages,
    # with its sources: engine/frameworks/shard_group_facts.py), and one that has no groups at all
    "dp_shard": QT_TRANSLATE_NOOP("engine", "{framework} shards {sharding} over every data-parallel GPU: a shard group "
                                            "of {group} GPUs cannot run in it; it shards within groups with "
                                            "{group_stages} only."),
    "no_dp_shard": QT_TRANSLATE_NOOP("engine", "{framework} has no shard groups: {sharding} spans every data-parallel "
                                               "GPU, so a shard group of {group} GPUs cannot run in it."),
    # FSDP's CPU offload moves the weights with the optimizer (Parallelism.fsdp_offloads, with its sources)
    "fsdp_offload": QT_TRANSLATE_NOOP("engine", "{framework} has no optimizer-only offload with FSDP: FSDP's CPU offload "
                                                "moves the weights and gradients with the optimizer (offload "
                                                "optimizer+params); ZeRO-3 offloads the optimizer alone."),
}
# a setting the framework runs, but not with the scenario's training method (Parallelism.methods)
_WITH_METHOD = {
    "pp": QT_TRANSLATE_NOOP("engine", "{framework} runs no pipeline parallelism with {method}: pp {pp} cannot run in "
                                      "it."),
    "pp_schedule": QT_TRANSLATE_NOOP("engine", "{framework} has no {schedule} pipeline schedule with {method}: it runs "
                                               "{schedules}."),
    "zero_with_pp": QT_TRANSLATE_NOOP("engine", "{framework} cannot run {sharding} together with pipeline parallelism "
                                                "(pp {pp}) with {method}: with a pipeline it shards at most as "
                                                "ZeRO-{most}."),
    "zero": QT_TRANSLATE_NOOP("engine", "{framework} has no {sharding} with {method}: it shards at most as "
                                        "ZeRO-{most}."),
    "tp": QT_TRANSLATE_NOOP("engine", "{framework} runs no tensor parallelism with {method}: tp {tp} cannot run in "
                                      "it."),
    "cp": QT_TRANSLATE_NOOP("engine", "{framework} runs no ring context parallelism with {method}: cp {cp} cannot run "
                                      "in it."),
    "ep": QT_TRANSLATE_NOOP("engine", "{framework} runs no expert parallelism with {method}: ep {ep} cannot run in "
                                      "it."),
}
# QLoRA's base is 4-bit: what tensor parallelism would have to split where LoRA's is split (frameworks/parallelism.py
# _BNB_QLORA_TP)
_QLORA_TP = QT_TRANSLATE_NOOP("engine", "{framework} cannot shard a 4-bit QLoRA base by tensor parallelism: tp {tp} "
                                        "cannot run in it.")
# a checkpointing mode or training method it has no code for (engine/frameworks/runs.py)
_LAYERS_ONLY = QT_TRANSLATE_NOOP("engine", "{framework} recomputes whole layers only: checkpointing \"{checkpointing}\" "
                                           "cannot run in it.")
_NO_CHECKPOINTING = QT_TRANSLATE_NOOP("engine", "{framework} has no checkpointing \"{checkpointing}\": it runs "
                                                "{checkpointings}.")
# full checkpointing of only some layers (recompute_num_layers; Runs.recompute_methods)
_EVERY_LAYER = QT_TRANSLATE_NOOP("engine", "{framework} recomputes every layer or none: recomputing {n} layers per "
                                           "stage cannot run in it.")
_NO_RECOMPUTE_METHOD = QT_TRANSLATE_NOOP("engine", "{framework} has no recompute method \"{method}\": it runs "
                                                   "{methods}.")
# LoRA on the top lora_layers layers only, where its LoRA adapts every layer alike (Runs.lora_layer_choice)
_EVERY_LORA_LAYER = QT_TRANSLATE_NOOP("engine", "{framework} puts LoRA adapters on every layer: adapters on the top "
                                                "{n} layers only (lora_layers) cannot run in it.")
_NO_FP8_RECIPE = QT_TRANSLATE_NOOP("engine", "{framework} has no fp8 recipe \"{recipe}\": it runs {recipes}.")
_NO_METHOD = QT_TRANSLATE_NOOP("engine", "{framework} has no {method}.")
_ONE_GPU = QT_TRANSLATE_NOOP("engine", "{framework} runs {method} on one GPU only: {gpus:,} GPUs cannot run it.")
# a framework on its own Metal kernels (FrameworkDefaults.metal_only: MLX) on a GPU that does not run them
_METAL_ONLY = QT_TRANSLATE_NOOP("engine", "{framework} runs on Apple GPUs only (MLX's Metal kernels): the {gpu} "
                                          "cannot run it.")
# an optimizer or attention kernel it has no code for (Runs.optimizers, Runs.attentions: MLX's own)
_NO_CHOICE = {"optimizer": QT_TRANSLATE_NOOP("engine", "{framework} has no optimizer \"{value}\": it runs {values}."),
              "attention": QT_TRANSLATE_NOOP("engine", "{framework} has no attention kernel \"{value}\": it runs "
                                                       "{values}.")}
_METHOD_NAMES = {"freeze": message(QT_TRANSLATE_NOOP("engine", "frozen layers")), "lora": "LoRA", "qlora": "QLoRA"}


def method_name(method: str) -> Message:
    """The training method as the sentences name it: "frozen layers" (translatable), LoRA and QLoRA as they are."""
    name = _METHOD_NAMES.get(method, method)
    return name if isinstance(name, Message) else message(name)


def capabilities(s: Scenario) -> Parallelism:
    """What s's framework can run when it trains with s's method (its row's parallelism, Parallelism.for_method); any
    layout for a served scenario (a serving engine's layouts are engine/serving's)."""
    return ANY if s.workload == "inference" else defaults_for(s.framework).parallelism.for_method(s.method)


def cannot_run(s: Scenario) -> tuple[str, ...]:
    """The names of the settings of s its framework cannot run (Parallelism.cannot_run); () when it can run them all
    or s is served, not trained (a serving engine's layouts are engine/serving's)."""
    if s.workload == "inference":
        return ()
    names = _cannot_run(s.framework, s.tp, s.pp, s.pp_schedule, s.cp, s.ep, s.effective_zero, s.method, s.offload,
                        s.dp, s.checkpointing, s.world_size, s.fsdp) + _row_cannot_run(
        s.framework, s.checkpointing, s.recompute_num_layers, s.recompute_method, s.precision, s.fp8_recipe, s.method,
        s.lora_layers, s.optimizer, s.attention)
    if not runs_on_gpu(s):
        names += ("gpu",)
    if splits := refused_splits(s):  # Megatron's split and layout, ZB-V's: asserted (none at pp 1, most estimates)
        names += tuple(name for name, _ in splits)
    # the default (0, every rank) asks nothing more; a stage the framework lacks altogether is "zero"'s sentence alone
    if s.dp_shard and "zero" not in names and not runs_shard_group(s):
        names += ("dp_shard",)
    return names


def runs_on_gpu(s: Scenario) -> bool:
    """Whether s's framework runs on s's GPU: a framework on MLX's Metal kernels (metal_only) needs a GPU that runs
    them (GpuPreset.runs_mlx); a GPU typed in by hand is taken to run it."""
    return not defaults_for(s.framework).metal_only or not isinstance(s.gpu, str) or get_gpu(s.gpu).runs_mlx


def runs_shard_group(s: Scenario) -> bool:
    """Whether s's framework runs s's shard group (dp_shard) at s's sharding stage (Parallelism.runs_shard_group): true
    where s has no group smaller than its data-parallel x context-parallel ranks, or shards nothing, or is served."""
    return (s.workload == "inference" or shard_replicas(s) == 1
            or capabilities(s).runs_shard_group(s.effective_zero))


@lru_cache(maxsize=4096)  # every estimate asks (for its warnings): the answer is the row's
def _cannot_run(framework: str, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int, method: str,
                offload: str, dp: int, checkpointing: str, gpus: int, fsdp: bool) -> tuple[str, ...]:
    return (layout_cannot_run(framework, tp, pp, pp_schedule, cp, ep, zero, method, offload, dp, fsdp)
            + defaults_for(framework).runs.cannot_run(checkpointing, method, gpus))


@lru_cache(maxsize=1024)  # every estimate asks (for its warnings): the answer is the row's, for a few keys
def _row_cannot_run(framework: str, checkpointing: str, recompute_num_layers: int, recompute_method: str,
                    precision: str, fp8_recipe: str, method: str, lora_layers: int, optimizer: str,
                    attention: str) -> tuple[str, ...]:
    """The keys beyond the layout that the framework's row (engine/frameworks/runs.py) refuses, in cannot_run's
    order: recompute_method, fp8_recipe, lora_layers, optimizer, attention."""
    runs = defaults_for(framework).runs
    names: tuple[str, ...] = ()
    if not runs.runs_recompute(checkpointing, recompute_num_layers, recompute_method):
        names += ("recompute_method",)
    if not runs.runs_fp8_recipe(precision, fp8_recipe):
        names += ("fp8_recipe",)
    if not runs.runs_lora_layers(method, lora_layers):
        names += ("lora_layers",)
    return names + tuple(key for key, value in (("optimizer", optimizer), ("attention", attention))
                         if not runs.has_choice(key, value))


@lru_cache(maxsize=8192)  # the searches ask per layout and offload (search_candidates.framework_runs_layout)
def layout_cannot_run(framework: str, tp: int, pp: int, pp_schedule: str, cp: int, ep: int, zero: int, method: str,
                      offload: str, dp: int, fsdp: bool = False) -> tuple[str, ...]:
    """The layout settings the framework cannot run with the method (its row's Parallelism.cannot_run; zero is the
    effective stage, Scenario.effective_zero): what cannot_run asks of a scenario, and the searches of a layout; and
    "fsdp_offload", an offload kind it has but not on an FSDP layout (fsdp: the scenario's key; fsdp_refuses)."""
    caps = defaults_for(framework).parallelism
    out = caps.cannot_run(tp, pp, pp_schedule, cp, ep, zero, method, offload, dp)
    return out + ("fsdp_offload",) if caps.for_method(method).fsdp_refuses(fsdp, offload, dp) else out


def runs_checkpointing(s: Scenario, checkpointing: str) -> bool:
    """Whether s's framework runs the checkpointing mode (engine/frameworks/runs.py); any for a served scenario."""
    return s.workload == "inference" or checkpointing in defaults_for(s.framework).runs.checkpointings


def runs_method(s: Scenario, method: str) -> bool:
    """Whether s's framework runs the training method on s's GPUs (engine/frameworks/runs.py)."""
    return s.workload == "inference" or "method" not in defaults_for(s.framework).runs.cannot_run("none", method,
                                                                                                    s.world_size)


def distributed_optimizer_counts(s: Scenario) -> bool:
    """Whether s shards its optimizer by Megatron's --use-distributed-optimizer, its ZeRO-1 whatever zero_stage reads
    (Scenario.effective_zero): the key is read where the framework takes Megatron's arguments."""
    return s.distributed_optimizer and defaults_for(s.framework).takes_megatron_arguments


def framework_runs(s: Scenario) -> bool:
    """Whether the scenario's framework can run its layout: what a search may propose."""
    return not cannot_run(s)


def unsupported_settings(s: Scenario) -> list[Message]:
    """One sentence per setting of s that its framework cannot run, naming the setting and the framework."""
    names = cannot_run(s)
    if not names:
        return []
    row = defaults_for(s.framework)
    # the framework's own limits, and those with the method (the sentence then names the method)
    own = row.parallelism.cannot_run(s.tp, s.pp, s.pp_schedule, s.cp, s.ep, s.effective_zero, "full", s.offload,
                                     s.dp)
    caps = capabilities(s)
    # Megatron's --use-distributed-optimizer is its ZeRO-1 whatever zero_stage reads (Scenario.effective_zero)
    sharding = "FSDP" if s.fsdp else f"ZeRO-{s.effective_zero}" + (
        " (--use-distributed-optimizer)" if s.effective_zero > s.zero_stage else "")
    most = (caps.max_zero_with_pp if "zero_with_pp" in names else caps.most_zero_with(s.pp_schedule)
            if "zero_with_schedule" in names else caps.max_zero)
    fields = {"framework": row.label, "pp": s.pp, "tp": s.tp, "cp": s.cp, "ep": s.ep, "schedule": s.pp_schedule,
              "schedules": ", ".join(caps.pp_schedules), "sharding": sharding, "most": most,
              "method": _METHOD_NAMES.get(s.method, s.method)}
    # tp refused with QLoRA but run with LoRA: the 4-bit base is what cannot be split
    base_4bit = s.method == "qlora" and "tp" not in row.parallelism.cannot_run(s.tp, 1, "1f1b", 1, 1, 0, "lora")
    offloads: list[str] = []
    if "zero" in names or "offload" in names:  # only then (the estimate builds these sentences on every call)
        offloads = [o for o in caps.offloads + caps.one_gpu_offloads
                    if o != "none" and caps.has_offload(o, s.world_size)]
        fields.update(stages=", ".join(sharding_name(caps, z) for z in caps.zero_stages if 0 < z <= caps.max_zero),
                      offload=s.offload, offloads=", ".join(o + (f" ({n})" if (n := caps.offload_name(o)) else "")
                                                            for o in offloads))
    split_sentences = dict(refused_splits(s))
    out = []
    for name in names:
        if name in ("checkpointing", "method"):
            out.append(_runs_sentence(s, name))
            continue
        if name == "recompute_method":
            out.append(_recompute_sentence(s))
            continue
        if name in split_sentences:  # the split rules' own sentences (pipeline_split.py), whichever they name
            out.append(split_sentences[name])
            continue
        if name == "gpu":
            out.append(message(_METAL_ONLY, framework=row.label, gpu=s.gpu if isinstance(s.gpu, str) else ""))
            continue
        if name in _NO_CHOICE:
            offered = {"optimizer": row.runs.optimizers, "attention": row.runs.attentions}[name]
            out.append(message(_NO_CHOICE[name], framework=row.label, value=getattr(s, name),
                               values=", ".join(offered)))
            continue
        if name == "lora_layers":
            out.append(message(_EVERY_LORA_LAYER, framework=row.label, n=s.lora_layers))
            continue
        if name == "fp8_recipe":
            out.append(message(_NO_FP8_RECIPE, framework=row.label, recipe=s.fp8_recipe,
                               recipes=", ".join(row.runs.fp8_recipes)))
            continue
        if name == "zero" and s.effective_zero <= caps.max_zero:  # a shallower stage it lacks, not a deeper one
            name = "stage"
        elif name == "offload" and not offloads:
            name = "no_offload"
        elif name == "dp_shard":
            name = "dp_shard" if caps.shard_group_stages else "no_dp_shard"
            fields.update(group=s.dp_shard, group_stages=", ".join(sharding_name(caps, z)
                                                                   for z in caps.shard_group_stages))
        text = (_SENTENCES[name] if name in own or name not in _WITH_METHOD else _QLORA_TP if name == "tp" and base_4bit
                else _WITH_METHOD[name])
        out.append(message(text, **{k: v for k, v in fields.items() if "{" + k + "}" in text}))
    return out


def sharding_name(caps: Parallelism, stage: int) -> str:
    """A sharding stage as the framework spells it: FSDP where FSDP is its only sharding (Parallelism.sharding),
    ZeRO-n elsewhere."""
    return "FSDP" if caps.sharding(stage).get("fsdp") else f"ZeRO-{stage}"


def _recompute_sentence(s: Scenario) -> Message:
    """The sentence for full checkpointing of only some layers (or in groups) s's framework does not run."""
    row = defaults_for(s.framework)
    methods = row.runs.recompute_methods
    if not methods:
        return message(_EVERY_LAYER, framework=row.label, n=s.recompute_num_layers)
    return message(_NO_RECOMPUTE_METHOD, framework=row.label, method=s.recompute_method, methods=", ".join(methods))


def _runs_sentence(s: Scenario, name: str) -> Message:
    """The sentence for a checkpointing mode or a training method s's framework does not run (frameworks/runs.py)."""
    row = defaults_for(s.framework)
    if name == "method":
        text = _ONE_GPU if s.method in row.runs.one_gpu else _NO_METHOD
        return message(text, framework=row.label, method=method_name(s.method), **(
            {"gpus": s.world_size} if text == _ONE_GPU else {}))
    modes = row.runs.checkpointings
    if set(modes) <= {"none", "full"}:
        return message(_LAYERS_ONLY, framework=row.label, checkpointing=s.checkpointing)
    return message(_NO_CHECKPOINTING, framework=row.label, checkpointing=s.checkpointing,
                   checkpointings=", ".join(modes))
