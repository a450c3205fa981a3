"""What a plan card says: one paragraph a manager reads, time and cost, and only the inputs that differ from the
defaults and apply to this scenario (no LoRA rank on a full fine-tune). The window draws it (gui/plan_card.py);
the scenario rides inside the file (engine/scenario/card_file.py). Pure Python, no Qt."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import PlannerError
from .memory.breakdown import Estimate
from .messages import QT_TRANSLATE_NOOP, Message, message
from .range_words import band_multiples, likely_range_message, multiple_text
from .scenario import KEY_SPECS, Scenario, resolve_model
from .scenario.keys import KeySpec
from .scenario.serving_keys import ServingKeys
from .serving import REFUSED, serving_speed
from .serving.report import HOURS_A_MONTH, million_tokens_cost, month_cost
from .serving.speed import ServingSpeed, cost_per_million_output_tokens
from .serving.speed_band import speed_ranges
from .serving.users_curve import instances, slots_set
from .timing import StepTime
from .timing.ceiling import CEILING_NOTES
from .timing.step_result import run_range_words
from .units import format_bytes, format_cost, format_count, format_gpu_count, format_gpu_hours, format_money, format_seconds

SKIPPED_KEYS = ("schema_version", "name", "notes")  # the card's title and nothing a manager reads
SERVING_KEY_NAMES = frozenset(f.name for f in fields(ServingKeys))
SERVING_SHOWN = ("serving_engine", "weight_format")  # what a served plan is, default or not
SHARED_WITH_SERVING = ("model", "gpu", "gpus_per_node", "nodes", "tp", "pp", "ep", "host_memory_bytes")
# the file's own words and the price, which a served model's cost per million tokens reads too (gui/serve_mode.py)
EITHER_WORKLOAD = ("schema_version", "name", "notes", "gpu_hour_price", "currency")
# what the plan is, default or not; the method is listed where it differs from its declared default, like any input
# (user audit 15: "Method: full fine-tune" stood under "Inputs that differ from the defaults" of a pre-training plan)
ALWAYS_SHOWN = ("model", "gpu", "gpus_per_node", "nodes")
LOW_HEADROOM_FRACTION = 0.10  # under a tenth of the GPU free, allocator growth or a longer batch can tip it over
MODEL_KINDS = ("mixture-of-experts models", "vision-language models")


def _model_kind_applies(kind: str, s: Scenario) -> bool:
    try:
        spec = resolve_model(s)
    except Exception:  # noqa: BLE001 - an unresolvable model: show the key rather than hide a setting
        return True
    return spec.is_moe if kind == MODEL_KINDS[0] else spec.vision is not None


def condition_holds(condition: str, s: Scenario) -> bool | None:
    """One applies_to clause ("pp > 1", "method lora, qlora", "fsdp", a model kind) for this scenario; None when
    the clause is not one of these forms (the caller then shows the key)."""
    if condition in MODEL_KINDS:
        return _model_kind_applies(condition, s)
    words = condition.split(" ", 1)
    if words[0] not in KEY_SPECS:
        return None
    value = getattr(s, words[0])
    if len(words) == 1:
        return bool(value)
    rest = words[1].strip()
    if rest.startswith("other than "):  # "training_objective other than sft": it was read as the value "other than
        return str(value) not in {v.strip() for v in rest[len("other than "):].split(",")}  # sft", never held
    if rest.startswith("> "):
        try:
            return value > int(rest[2:])
        except (TypeError, ValueError):
            return None
    return str(value) in {v.strip() for v in rest.split(",")}


def key_applies(spec: KeySpec, s: Scenario) -> bool:
    """Whether the key counts for this scenario, read from its declared applies_to ("" = always)."""
    if not spec.applies_to:
        return True
    held = [condition_holds(c.strip(), s) for c in spec.applies_to.split(" or ")]
    return any(h is None or h for h in held)


def input_counts(s: Scenario, name: str) -> bool:
    """Whether a scenario key means anything for s: a served model reads the serving keys and the hardware and
    layout it shares with training, a training run no serving key but the workload; either only where the key's
    applies_to holds. (The Compare tab showed a served model's micro-batch, framework and objective.)"""
    spec = KEY_SPECS.get(name)
    if spec is None:
        return True
    if s.workload == "inference":
        counts = name in SERVING_KEY_NAMES or name in SHARED_WITH_SERVING or name in EITHER_WORKLOAD
    else:
        counts = name == "workload" or name not in SERVING_KEY_NAMES
    return counts and key_applies(spec, s)


def card_inputs(s: Scenario) -> list[tuple[str, object]]:
    """(key, value in file form) of what defines the plan and every input that differs from its default and
    applies to this scenario, in the format's order. A served model shows the serving keys and the hardware and
    layout it shares with training, never a training key (method, optimizer)."""
    data = s.to_dict()
    out = []
    for name, value in data.items():
        spec = KEY_SPECS.get(name)
        if name in SKIPPED_KEYS or spec is None or not key_applies(spec, s):
            continue
        if s.workload == "inference" and name not in (*SERVING_KEY_NAMES, *SHARED_WITH_SERVING, *EITHER_WORKLOAD):
            continue
        if name in ALWAYS_SHOWN or value != spec.default or (s.workload == "inference" and name in SERVING_SHOWN):
            out.append((name, value))
    return out


@dataclass(frozen=True)
class CardFacts:
    """The plan card's words: the paragraph's sentences, and (label, value) rows of time and cost."""

    sentences: tuple[Message, ...]
    time_rows: tuple[tuple[Message, Message | str], ...]  # a value is a Message when it is words
    no_time: Message | None = None  # why there is no time or cost, when there is none


def engine_gpus_apart(s: Scenario | None, est: Estimate) -> int:
    """The generation engine's own GPUs where it runs apart (rollout_placement separate) and was judged on them
    (RLEstimate.engine_gpu_bytes), else 0: the banner, the card and the Markdown then name both sets (after a split
    the card said "Fits on 1 × RTX 4090" of the trainer's GPUs alone, h-polish13)."""
    if s is None or est.rl is None or not est.rl.engine_gpu_bytes or s.rollout_placement != "separate":
        return 0
    return s.rollout_gpus or 0


def _machines(est: Estimate, s: Scenario | None = None) -> str | Message:
    engine = engine_gpus_apart(s, est)
    if engine:
        return message(QT_TRANSLATE_NOOP("engine", "{training} × {gpu} training and {engine} × {gpu} running the "
                                                   "generation engine"),
                       training=est.world_size, engine=engine, gpu=est.gpu_name)
    return f"{est.world_size} × {est.gpu_name}"  # spaced, as the window's banner: "16×NVIDIA" read as one word


def memory_sentence(est: Estimate, unit: str, s: Scenario | None = None) -> Message:
    """The card's first sentence: whether the plan fits on its GPUs (both sets where the engine runs apart)."""
    if est.fits:
        return message(QT_TRANSLATE_NOOP("engine", "Fits on {machines} with {free} spare per GPU."),
                       machines=_machines(est, s), free=format_bytes(est.headroom_bytes, unit))
    if est.serving is not None and est.serving.users_wait and not est.host_short:  # starts; not every user at once
        return message(QT_TRANSLATE_NOOP("engine", "Starts on {machines}, but not for every user at once: {why}"),
                       machines=_machines(est, s), why=est.room(unit))
    if est.verdict == "tight" and est.engine_may_refuse:  # the engine's start-up, not the reserve
        return message(QT_TRANSLATE_NOOP("engine", "Fits on {machines} only if the generation engine starts: its KV "
                                                   "cache is within the start-up accounting's uncertainty."),
                       machines=_machines(est, s))
    if est.verdict == "tight":
        return message(QT_TRANSLATE_NOOP("engine", "Fits on {machines} only by using part of the safety reserve."),
                       machines=_machines(est, s))
    if est.total_bytes > est.capacity_bytes:
        return message(QT_TRANSLATE_NOOP("engine", "Does not fit on {machines}: {over} over per GPU."),
                       machines=_machines(est, s), over=format_bytes(est.total_bytes - est.capacity_bytes, unit))
    # the GPUs hold its bytes (an "over" here was negative: "-42.10 GiB over per GPU"): the CPU memory or the engine's
    # own start-up check refuses it; the next sentences give the numbers (host_sentence) or the engine's reason
    # (serving_risk), and a post-training engine's refusal is said here (Estimate.room's order)
    if est.host_short:
        return message(QT_TRANSLATE_NOOP("engine", "Does not fit on {machines}: the CPU memory does not hold it."),
                       machines=_machines(est, s))
    if est.serving is not None:  # serving_time_facts says the engine does not start, serving_risk why
        return message(QT_TRANSLATE_NOOP("engine", "Does not fit on {machines}."), machines=_machines(est, s))
    return message(QT_TRANSLATE_NOOP("engine", "Does not fit on {machines}: {why}"), machines=_machines(est, s),
                   why=est.room(unit))


def host_sentence(est: Estimate, unit: str) -> Message | None:
    if est.host_bytes <= 0:
        return None
    if est.host_verdict == "does not fit":
        return message(QT_TRANSLATE_NOOP("engine", "Needs {host} CPU memory per node, more than the {cap} it has."),
                       host=format_bytes(est.host_bytes, unit), cap=format_bytes(est.host_capacity_bytes or 0, unit))
    return message(QT_TRANSLATE_NOOP("engine", "Needs {host} CPU memory per node."),
                   host=format_bytes(est.host_bytes, unit))


def serving_risk(est: Estimate, s: Scenario | None = None) -> Message:
    """A served model's risk: the engine not starting (its own reason), one request filling the KV cache, or fewer
    users at the full context than the engine is set to decode at once (max_num_seqs)."""
    m = est.serving
    if m.verdict != "fits":  # the engine's own sentence: why it refuses to start, or what it may run out of
        return m.reason
    asked = s.max_num_seqs if s is not None else None
    if asked and 2 <= m.max_concurrent_sequences < asked:  # "Serve 70B to 100 users" read FITS, no risk, with 59 held
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: at {length} tokens each the KV cache holds {held} "
                                                   "users at once, not the {asked} the engine is set to decode "
                                                   "(max_num_seqs); the others wait."),
                       length=f"{m.max_model_len:,}", held=int(m.max_concurrent_sequences), asked=asked)
    if s is not None and slots_set(s) == 1:  # one slot: every request takes it whole, at any length
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: one slot (n_parallel 1) answers one request at a time; "
                                                   "a second user waits until the first answer is done. Set more "
                                                   "slots to serve several at once."))
    if m.max_concurrent_sequences < 2:
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: one request at the full context ({length} tokens) "
                                                   "fills the KV cache; the next one waits."),
                       length=f"{m.max_model_len:,}")
    return message(NONE_STANDS_OUT)


# the card is read by people who do not open the repository: no file path (user audit 7: "the estimate's own error is
# stated in docs/accuracy.md"); the ranges the card gives are what measured runs came to
NONE_STANDS_OUT = QT_TRANSLATE_NOOP("engine", "Main risk: none stands out in memory; the times and costs are "
                                              "estimates, with the range 8 in 10 measured runs like it came within.")
SLOW_END_MULTIPLE = 1.5  # a band whose slow end is this many times the model's step: the time is the risk


def main_risk(s: Scenario, est: Estimate, t: StepTime | None = None) -> Message:
    """The one thing most likely to spoil the plan, worst first; where memory holds no risk, a step time whose
    measured runs came to 1.5 times the model's or more (post-training's 1.05-2.06x: a 14.5 h run likely 1.2 d)."""
    if est.serving is not None and est.host_verdict != "does not fit":
        return serving_risk(est, s)
    if est.verdict == "does not fit":
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: it does not fit in GPU memory as set up."))
    if est.host_verdict == "does not fit":
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: CPU memory runs out."))
    if est.verdict == "tight" and est.engine_may_refuse and est.rl is not None and est.rl.caution is not None:
        return est.rl.caution  # the engine's own sentence: it may refuse to start
    if est.verdict == "tight":
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: no headroom beyond the safety reserve."))
    if s.offload != "none" or s.activation_offload or s.activation_offload_layers:
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: offload speed (copies to CPU memory can make each "
                                                   "step several times slower)."))
    if est.headroom_bytes < LOW_HEADROOM_FRACTION * est.capacity_bytes:
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: little headroom ({free} per GPU)."),
                       free=format_bytes(est.headroom_bytes, "GiB"))
    if t is not None and t.band is not None and 1 + t.band.high >= SLOW_END_MULTIPLE:
        return message(QT_TRANSLATE_NOOP("engine", "Main risk: the time. Measured runs like this one took up to "
                                                   "{multiple}x the model's step time: plan for the slow end of the "
                                                   "range."), multiple=multiple_text(1 + t.band.high))
    return message(NONE_STANDS_OUT)


def _cost_text(cost: float, currency: str) -> str:
    return f"≈ {format_cost(cost, currency)}"


ALL_INSTANCES_ROW = QT_TRANSLATE_NOOP("engine", "Output tokens/s of all {n} engine instances ({users} sequences; the "
                                                "rows above are one instance's)")


def serving_time_facts(s: Scenario, est: Estimate) -> tuple[list[Message], list[tuple[Message, Message | str]]]:
    """A served model's rows: users at once and the engine's speed as set (engine/serving/speed.py)."""
    m = est.serving
    if m.verdict == REFUSED:
        return [message(QT_TRANSLATE_NOOP("engine", "No speed: the engine does not start."))], []
    speed = serving_speed(s, m)
    rows: list[tuple[Message, Message | str]] = [
        (message(QT_TRANSLATE_NOOP("engine", "Maximum concurrency at {length} tokens"), length=f"{m.max_model_len:,}"),
         f"{m.max_concurrent_sequences:,.2f}x"),
        (message(QT_TRANSLATE_NOOP("engine", "Time to first token")), format_seconds(speed.ttft_seconds)),
        (message(QT_TRANSLATE_NOOP("engine", "Time per output token")), format_seconds(speed.tpot_seconds)),
        (message(QT_TRANSLATE_NOOP("engine", "Output tokens/s at {users} sequences"), users=speed.concurrency)
         if speed.concurrency != 1 else message(QT_TRANSLATE_NOOP("engine", "Output tokens/s for one sequence")),
         format_count(speed.tokens_per_second))]
    if (n := instances(s)) > 1:  # the rows above are one engine instance's (user audit 12: 6 x H100 at tp 1)
        rows.append((message(ALL_INSTANCES_ROW, n=n, users=f"{speed.concurrency * n:,}"),
                     format_count(speed.tokens_per_second * n)))
    # the measured runs' spread (presets/serving_speed_bands.json), as `estimate` states it under the speed: the card
    # gave the roofline's 38 tokens/s alone where 8 in 10 measured runs put it at 16 to 26
    # a damaged presets/serving_speed_bands.json: the card without the ranges and one sentence naming the file, as
    # gui/serving_rows.py speed_words does (h-fuzz12 item d: exporting a served plan's card raised)
    try:
        ranges, notes = speed_ranges(m.engine, speed), []
    except PlannerError as exc:
        ranges, notes = {}, [exc.message]
    # each under its figure, from the bottom up; the first token's too, as `estimate` and the Users tab give it (user
    # audit 9: the card and the Markdown gave 14.4 s alone where `estimate` said likely 12.3 s to 21.5 s)
    for figure, label, show, after in (("tokens_per_second", LIKELY_TOKENS, format_count, 3),
                                       ("tpot_seconds", LIKELY_TPOT, format_seconds, 2),
                                       ("ttft_seconds", LIKELY_TTFT, format_seconds, 1)):
        if (r := ranges.get(figure)) is not None:  # the model's multiples, then the range (engine/range_words.py)
            value = float(getattr(speed, figure))
            rows.insert(after + 1, (message(label), likely_range_message(
                show(r.low), show(r.high), r.low / value, r.high / value)))
    # with a price, what a million output tokens cost and its range, as `estimate` and the Time tab say it (user
    # audit 6: the card of a served model with a price gave no cost, and left the price out of its inputs)
    if (cost := million_tokens_cost(s, speed) if not notes else _cost_alone(s, speed)) is not None:
        # what the rented GPUs cost an hour, beside the tokens' cost: the plan What should I rent? gave ranked by it
        # and budgeted per hour (user audit 12: the card of an applied plan gave no hourly figure)
        hour = format_money(s.world_size * s.gpu_hour_price, s.currency)
        rows.append((message(QT_TRANSLATE_NOOP("engine", "GPUs an hour ({n} x {price})"),
                             n=format_gpu_count(s.world_size), price=f"{s.gpu_hour_price:,.2f}"), hour))
        # and a month of it (user audit 16: a product manager asked what the chat service costs a month): a served
        # model runs on, so 365 x 24 / 12 = 730 hours, the month cloud price lists bill by
        rows.append((message(QT_TRANSLATE_NOOP("engine", "GPUs a month, running all the time ({hours} hours)"),
                             hours=HOURS_A_MONTH), format_money(month_cost(s) or 0.0, s.currency)))
        rows.append((message(QT_TRANSLATE_NOOP("engine", "A million output tokens")),
                     format_money(cost[0], s.currency)))
        if cost[1] != cost[2]:
            rows.append((message(LIKELY_MILLION), likely_range_message(
                f"{cost[1]:,.2f}", format_money(cost[2], s.currency), cost[1] / cost[0], cost[2] / cost[0])))
    return notes, rows


def _cost_alone(s: Scenario, speed: ServingSpeed) -> tuple[float, float, float] | None:
    """million_tokens_cost without its range (the measured runs' spread unreadable)."""
    cost = cost_per_million_output_tokens(s, speed)
    return None if cost is None else (cost, cost, cost)


LIKELY_STEP = QT_TRANSLATE_NOOP("engine", "Step time, measured runs like this one (8 in 10)")
LIKELY_TTFT = QT_TRANSLATE_NOOP("engine", "Time to first token, measured runs like this one (8 in 10)")
LIKELY_TPOT = QT_TRANSLATE_NOOP("engine", "Time per output token, measured runs like this one (8 in 10)")
LIKELY_TOKENS = QT_TRANSLATE_NOOP("engine", "Output tokens/s, measured runs like this one (8 in 10)")
LIKELY_MILLION = QT_TRANSLATE_NOOP("engine", "A million output tokens, as the tokens/s range")
LIKELY_RUN = QT_TRANSLATE_NOOP("engine", "Time to train and cost, as the step time's range")


def time_facts(s: Scenario, est: Estimate, t: StepTime | None) -> tuple[list[Message], list[tuple[Message, Message | str]]]:
    """Sentences and rows of time and cost; none for a run that cannot run (it does not fit) or cannot be timed."""
    if est.serving is not None:
        return serving_time_facts(s, est)
    if est.verdict == "does not fit":
        return [message(QT_TRANSLATE_NOOP("engine", "No time or cost: the run does not fit."))], []
    if t is None:
        return [message(QT_TRANSLATE_NOOP("engine", "No time or cost: the step time cannot be computed."))], []
    rows: list[tuple[Message, Message | str]] = [
            (message(QT_TRANSLATE_NOOP("engine", "Step time")), format_seconds(t.step_seconds)),
            (message(QT_TRANSLATE_NOOP("engine", "Tokens/s")), format_count(t.tokens_per_second)),
            (message(QT_TRANSLATE_NOOP("engine", "MFU")), f"{t.mfu:.0%}")]
    if t.mfu_attention_whole and f"{t.mfu_attention_whole:.0%}" != f"{t.mfu:.0%}":  # torchtitan's MFU (mfu.py)
        rows.append((message(QT_TRANSLATE_NOOP("engine", "MFU with attention counted whole (as torchtitan prints it)")),
                     f"{t.mfu_attention_whole:.0%}"))
    capped = next((n for n in t.notes if n.template in CEILING_NOTES), None)
    if capped is not None:  # the cap compares the MFU with attention counted whole: the card names it (ceiling.py)
        rows.append((message(QT_TRANSLATE_NOOP("engine", "Speed capped (MFU with attention counted whole, as the "
                                                         "published runs' ceiling was measured)")),
                     message(QT_TRANSLATE_NOOP("engine", "{mfu:.0%} lowered to {held:.0%} (at most {cap:.0%})"),
                             **{k: v for k, v in capped.params if k in ("mfu", "held", "cap")})))
    if t.band is not None:  # the regime's measured spread (engine/timing/bands.py), as `estimate` and the Time tab say
        low, high = t.seconds_range
        rows.insert(1, (message(LIKELY_STEP), likely_range_message(
            format_seconds(low), format_seconds(high), *band_multiples(t.band.low, t.band.high))))
    if t.time_to_train_seconds is None:
        rows.append((message(QT_TRANSLATE_NOOP("engine", "Time to train")),
                     message(QT_TRANSLATE_NOOP("engine", "not asked (no tokens to train set)"))))
        return [], rows
    # the paragraph a manager reads first: with the step's likely range where it has one, as the rows below give it
    # ("1.3 h to train" where measured runs like it took 1.6 h to 3.2 h read as a promise)
    low, high = t.run_range(t.time_to_train_seconds) if t.band is not None else (0.0, 0.0)
    sentences = [message(QT_TRANSLATE_NOOP("engine", "{time} to train on {tokens} tokens (likely {low} to {high})."),
                         time=format_seconds(t.time_to_train_seconds), tokens=format_count(s.tokens_to_train or 0),
                         low=format_seconds(low), high=format_seconds(high)) if t.band is not None else
                 message(QT_TRANSLATE_NOOP("engine", "{time} to train on {tokens} tokens."),
                         time=format_seconds(t.time_to_train_seconds), tokens=format_count(s.tokens_to_train or 0))]
    rows += [(message(QT_TRANSLATE_NOOP("engine", "Time to train")), format_seconds(t.time_to_train_seconds)),
             # the steps, as the Time tab and `estimate` say them (user audit 11: post-training is planned in steps)
             (message(QT_TRANSLATE_NOOP("engine", "Optimizer steps")),
              format_count(t.time_to_train_seconds / t.step_seconds if t.step_seconds else 0)),
             (message(QT_TRANSLATE_NOOP("engine", "GPU-hours")), format_gpu_hours(t.gpu_hours or 0))]
    if t.cost is not None:
        # in its currency: "Cost ≈ 217 EUR at 2.20 per GPU-hour" left the price's unit to be guessed (user audit 7)
        price = format_money(s.gpu_hour_price, s.currency)
        low, high = t.run_range(t.cost) if t.band is not None else (0.0, 0.0)
        sentences.append(message(QT_TRANSLATE_NOOP("engine", "Cost {cost} at {price} per GPU-hour (likely {low} to "
                                                             "{high})."),
                                 cost=_cost_text(t.cost, s.currency), price=price, low=format_cost(low, ""),
                                 high=format_cost(high, s.currency)) if t.band is not None else
                         message(QT_TRANSLATE_NOOP("engine", "Cost {cost} at {price} per GPU-hour."),
                                 cost=_cost_text(t.cost, s.currency), price=price))
        rows.append((message(QT_TRANSLATE_NOOP("engine", "Cost (at {price} per GPU-hour)"), price=price),
                     _cost_text(t.cost, s.currency)))
    if (spread := run_range_words(t, s.currency)) is not None:  # the step's range carried to the whole run
        rows.append((message(LIKELY_RUN), spread))
    return sentences, rows


def _joined_steps(steps: tuple[Message, ...]) -> Message:
    """"use X, use Y and use Z" as one message, each step translated where it is shown."""
    if len(steps) == 1:
        return steps[0]
    if len(steps) == 2:
        return message(QT_TRANSLATE_NOOP("engine", "{first} and {last}"), first=steps[0], last=steps[1])
    return message(QT_TRANSLATE_NOOP("engine", "{first}, {rest}"), first=steps[0], rest=_joined_steps(steps[1:]))


def change_sentence(s: Scenario, est: Estimate, unit: str) -> Message | None:
    """What to change, for a training run that does not fit: the first two plans of Make it fit
    (engine/planning/solver.py, least disruptive first) with the memory each leads to; None when it fits."""
    if est.verdict != "does not fit" or est.serving is not None:
        return None
    from .planning.solver import plans

    try:
        found = [p for p in plans(s, max_plans=2) if p.steps]
    except PlannerError:  # a scenario the solver cannot search (as Make it fit shows it, gui/search_panel.py): the card
        return None  # keeps its main risk and claims nothing about what would fit; any other error is a bug, not hidden
    if not found:
        return message(QT_TRANSLATE_NOOP("engine", "No change the planner tries makes it fit: see the limits in "
                                                   "Make it fit."))
    first = {"first": _joined_steps(found[0].steps), "first_total": format_bytes(found[0].total_bytes, unit)}
    if len(found) == 1:
        return message(QT_TRANSLATE_NOOP("engine", "To make it fit: {first} — {first_total} per GPU."), **first)
    return message(QT_TRANSLATE_NOOP("engine", "To make it fit: {first} — {first_total} per GPU; or "
                                               "{second} — {second_total} per GPU."),
                   **first, second=_joined_steps(found[1].steps),
                   second_total=format_bytes(found[1].total_bytes, unit))


def card_facts(s: Scenario, est: Estimate, t: StepTime | None, unit: str = "GiB") -> CardFacts:
    """The paragraph (fit, CPU memory, time, cost, main risk or, for a run that does not fit, what to change) and
    the time and cost rows."""
    sentences = [memory_sentence(est, unit, s)]
    host = host_sentence(est, unit)
    if host is not None:
        sentences.append(host)
    timed, rows = time_facts(s, est, t)
    sentences += timed
    change = change_sentence(s, est, unit)
    sentences.append(main_risk(s, est, t) if change is None else change)  # not fitting is the risk: say what fixes it
    return CardFacts(tuple(sentences), tuple(rows), timed[0] if timed and not rows else None)
