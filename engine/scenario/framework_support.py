"""The settings of a scenario its framework cannot run, in plain sentences: read from the framework's row
(engine/frameworks/parallelism.py, each fact with its source). A warning, never a refusal: saved scenarios and
published runs keep loading; the searches (engine/planning/) do not propose such layouts."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism import ANY, Parallelism
from ..messages import QT_TRANSLATE_NOOP, Message, message
from .format import Scenario

_SENTENCES = {
    "pp": QT_TRANSLATE_NOOP("engine", "{framework} has no pipeline parallelism: pp {pp} cannot run in it."),
    "pp_schedule": QT_TRANSLATE_NOOP("engine", "{framework} has no {schedule} pipeline schedule: it runs {schedules}."),
    "zero_with_pp": QT_TRANSLATE_NOOP("engine", "{framework} cannot run {sharding} together with pipeline parallelism "
                                                "(pp {pp}): with a pipeline it shards at most as ZeRO-{most}."),
    "zero": QT_TRANSLATE_NOOP("engine", "{framework} has no {sharding}: it shards at most as ZeRO-{most}."),
    "tp": QT_TRANSLATE_NOOP("engine", "{framework} has no tensor parallelism: tp {tp} cannot run in it."),
    "cp": QT_TRANSLATE_NOOP("engine", "{framework} has no ring context parallelism: cp {cp} cannot run in it."),
    "ep": QT_TRANSLATE_NOOP("engine", "{framework} has no expert parallelism: ep {ep} cannot run in it."),
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
    return defaults_for(s.framework).parallelism.cannot_run(s.tp, s.pp, s.pp_schedule, s.cp, s.ep, s.effective_zero,
                                                            s.method)


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
    own = row.parallelism.cannot_run(s.tp, s.pp, s.pp_schedule, s.cp, s.ep, s.effective_zero, "full")
    caps = capabilities(s)
    # Megatron's --use-distributed-optimizer is its ZeRO-1 whatever zero_stage reads (Scenario.effective_zero)
    sharding = "FSDP" if s.fsdp else f"ZeRO-{s.effective_zero}" + (
        " (--use-distributed-optimizer)" if s.effective_zero > s.zero_stage else "")
    most = caps.max_zero_with_pp if "zero_with_pp" in names else caps.max_zero
    fields = {"framework": row.label, "pp": s.pp, "tp": s.tp, "cp": s.cp, "ep": s.ep, "schedule": s.pp_schedule,
              "schedules": ", ".join(caps.pp_schedules), "sharding": sharding, "most": most,
              "method": _METHOD_NAMES.get(s.method, s.method)}
    # tp refused with QLoRA but run with LoRA: the 4-bit base is what cannot be split
    base_4bit = s.method == "qlora" and "tp" not in row.parallelism.cannot_run(s.tp, 1, "1f1b", 1, 1, 0, "lora")
    out = []
    for name in names:
        text = _SENTENCES[name] if name in own else _QLORA_TP if name == "tp" and base_4bit else _WITH_METHOD[name]
        out.append(message(text, **{k: v for k, v in fields.items() if "{" + k + "}" in text}))
    return out
