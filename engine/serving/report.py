"""The serving estimate as JSON (the `serving` block of `estimate --json`) and as text for the terminal."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from ..memory.verdict_words import users_wait_words
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario
from ..scenario.serving_keys import GGUF_ENGINES
from ..units import format_bytes, format_count, format_money, format_seconds
from .result import REFUSED, TIGHT, ServingMemory
from .speed import ServingSpeed, cost_per_million_output_tokens
from .speed_band import speed_range_basis, speed_range_text, speed_ranges
from .users_curve import instances

BOUND_WORDS = {"memory": QT_TRANSLATE_NOOP("engine", "memory-bandwidth"),
               "compute": QT_TRANSLATE_NOOP("engine", "compute"),
               "host": QT_TRANSLATE_NOOP("engine", "host")}


COST_LINE = QT_TRANSLATE_NOOP("engine", "A million output tokens cost {cost} on {n:,} GPUs")
COST_LINE_ONE_GPU = QT_TRANSLATE_NOOP("engine", "A million output tokens cost {cost} on one GPU")
COST_LIKELY = QT_TRANSLATE_NOOP("engine", "{line} (likely {low} to {high}, as the tokens/s range)")
# the likely costs all above (below) the model's: "1.51 USD (likely 1.55 to 1.83 USD)" read as a cost below its own
# likely range (user audit 11 item c); the words name the model's figure and the side (engine/range_words.py)
COST_LIKELY_ABOVE = QT_TRANSLATE_NOOP("engine", "{line} by the model's estimate (likely {low} to {high}, above it, as "
                                                "the tokens/s range)")
COST_LIKELY_BELOW = QT_TRANSLATE_NOOP("engine", "{line} by the model's estimate (likely {low} to {high}, below it, as "
                                                "the tokens/s range)")


def million_tokens_cost(s: Scenario, speed: ServingSpeed) -> tuple[float, float, float] | None:
    """(cost, likely low, likely high) of a million output tokens at the scenario's price: the cost is GPU-hours /
    tokens/s, so its range is the tokens/s range's (speed_band.py) turned over (the fast end gives the low cost);
    None without a price or a speed."""
    cost = cost_per_million_output_tokens(s, speed)
    if cost is None:
        return None
    r = speed_ranges(s.serving_engine, speed).get("tokens_per_second")
    if r is None or r.low <= 0:
        return cost, cost, cost
    return cost, cost * speed.tokens_per_second / r.high, cost * speed.tokens_per_second / r.low


# a set-up of several engine instances (6 x H100 at tp 1) showed one instance's "1.26K tokens/s" without saying so
# (user audit 12); the cost of a million tokens already counts every instance (speed.py cost_per_million_output_tokens)
ALL_INSTANCES = QT_TRANSLATE_NOOP("engine", "These are one engine instance's figures: the {n} instances of this set-up "
                                            "serve {users} users at once together, {tps} tokens/s.")


def all_instances_words(s: Scenario, speed: ServingSpeed) -> Message | None:
    """What every engine instance serves together (users_curve.instances), or None with one instance."""
    n = instances(s)
    if n <= 1:
        return None
    return message(ALL_INSTANCES, n=n, users=f"{speed.concurrency * n:,}",
                   tps=format_count(speed.tokens_per_second * n))


# llama-server's first token at n users is one request's: its own prompt's prefill and one step, arriving while the
# others generate (speed.py serving_speed; no other prompt competes, arrivals.py counts none for llama.cpp). Sent at
# once, the prompts queue: update_slots adds the generating slots' tokens to the batch, then each slot's waiting prompt
# in slot order "while (slot.n_past < slot.n_prompt_tokens && batch.n_tokens < n_batch)" (ggml-org/llama.cpp
# examples/server/server.cpp of 2024 and tools/server/server-context.cpp of 2025 alike), so the last slot's prompt is
# processed after the others' (user audit 15: five friends read "first token after 3.2 s" as everyone's wait)
AT_ONCE = QT_TRANSLATE_NOOP("engine", "The first token is that of a request arriving while the others generate; if "
                                      "all {users} send at once, the server processes their prompts one slot after "
                                      "another and the last waits up to about {wait} ({users} prefills and one step).")


def all_at_once_words(s: Scenario, speed: ServingSpeed) -> Message | None:
    """What the first token's time is at several users of llama.cpp (or ollama, which runs it), and the last user's wait
    when all send at once: users x one prompt's prefill + one step, the most it can be (prompts shorter than a batch
    share its weight reads); None for one user or another engine."""
    if speed.concurrency <= 1 or s.serving_engine not in GGUF_ENGINES:
        return None
    prefill = sum(t.seconds for t in speed.prefill_terms)
    return message(AT_ONCE, users=f"{speed.concurrency:,}",
                   wait=format_seconds(speed.concurrency * prefill + speed.tpot_seconds))


HOURS_A_MONTH = 730  # 365 days x 24 hours / 12 months: a served model runs on, billed by the month
MONTH_LINE = QT_TRANSLATE_NOOP("engine", "Running all the time, the GPUs cost {cost} a month ({n:,} x {price} x {hours} "
                                         "hours)")


def month_cost(s: Scenario) -> float | None:
    """What the scenario's GPUs cost a month at its price, on all the time (user audit 16: a product manager asked
    what a chat service on 2 x H100 costs a month; only an hour and a million tokens were given)."""
    return None if not s.gpu_hour_price else s.world_size * s.gpu_hour_price * HOURS_A_MONTH


def month_cost_words(s: Scenario) -> Message | None:
    if (cost := month_cost(s)) is None:
        return None
    return message(MONTH_LINE, cost=format_money(cost, s.currency), n=s.world_size,
                   price=f"{s.gpu_hour_price:,.2f}", hours=HOURS_A_MONTH)


def million_tokens_cost_words(s: Scenario, speed: ServingSpeed) -> Message | None:
    """"A million output tokens cost 1.42 USD on 4 GPUs (likely 1.53 to 1.80 USD, as the tokens/s range)": the same
    words in `estimate` and the Time tab (user audit 6: the command line gave no cost at all, the window no range)."""
    figures = million_tokens_cost(s, speed)
    if figures is None:
        return None
    cost, low, high = figures
    money: Message | str = format_money(cost, s.currency) if s.currency else message(
        QT_TRANSLATE_NOOP("engine", "{cost} (in the price's currency)"), cost=f"{cost:,.2f}")
    line = message(COST_LINE, cost=money, n=s.world_size) if s.world_size != 1 else message(COST_LINE_ONE_GPU,
                                                                                            cost=money)
    if low == high:
        return line
    shown = [f"{v:,.2f}" for v in (low, cost, high)]
    words = (COST_LIKELY_ABOVE if low > cost and shown[0] != shown[1] else
             COST_LIKELY_BELOW if high < cost and shown[2] != shown[1] else COST_LIKELY)
    return message(words, line=line, low=shown[0], high=f"{shown[2]} {s.currency}".rstrip())


def _identity(text: str) -> str:
    return text


def _width(text: str) -> int:
    """Terminal columns: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def serving_to_json(memory: ServingMemory, speed: ServingSpeed | None = None,
                    scenario: Scenario | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "engine": memory.engine,
        "verdict": memory.verdict,
        "reason": str(memory.reason),
        # max_num_seqs where the KV cache holds fewer sequences of max_model_len at once (the estimate reads "tight");
        # 0 where it holds them all: "verdict" above is the engine's start-up
        "users_asked": memory.users_asked,
        "capacity_bytes": round(memory.capacity_bytes),
        "budget_bytes": round(memory.budget_bytes),
        "total_bytes": round(memory.total_bytes),
        "kv_pool_bytes": round(memory.kv_pool_bytes),
        "kv_bytes_per_token": round(memory.kv_bytes_per_token, 3),
        "kv_per_layer_kind": [
            {"kind": k.kind, "layers": k.layers, "bytes_per_token_per_layer": k.bytes_per_token_per_layer,
             "state_bytes_per_sequence_per_layer": k.state_bytes_per_sequence_per_layer, "window": k.window}
            for k in memory.kv_kinds],
        "block_size": memory.block_size,
        "blocks": memory.blocks,
        "kv_tokens": memory.kv_tokens,
        "kv_tokens_from_concurrency": memory.kv_tokens_from_concurrency,
        "max_model_len": memory.max_model_len,
        "max_concurrent_sequences": round(memory.max_concurrent_sequences, 3),
        "longest_context": memory.longest_context,
        "host_bytes": round(memory.host_bytes),
        # vLLM: the KV pool's margin over one request at max_model_len and the start-up band around it
        # (engine/serving/startup_band.py): "tight" within +-start_band_bytes
        "start_margin_bytes": None if memory.start_margin_bytes is None else round(memory.start_margin_bytes),
        "start_band_bytes": round(memory.start_band_bytes),
        "components": [{"key": c.key, "name": c.name, "bytes": round(c.peak_bytes), "category": c.category,
                        "formula": c.formula, "inputs": dict(c.inputs)} for c in memory.components],
    }
    if speed is not None:
        out["speed"] = {
            "concurrency": speed.concurrency, "context": speed.context, "prompt_tokens": speed.prompt_tokens,
            "ttft_seconds": speed.ttft_seconds, "tpot_seconds": speed.tpot_seconds,
            "tokens_per_second": speed.tokens_per_second, "bound": speed.bound, "notes": list(speed.notes),
            # the figures above are one engine instance's; the set-up's GPUs hold `instances` of them
            "instances": instances(scenario) if scenario is not None else 1,
            "terms": [{"key": t.key, "name": t.name, "seconds": t.seconds, "formula": t.formula}
                      for t in (*speed.decode_terms, *speed.prefill_terms)]}
        # how sure: each figure's 10th-90th percentile range from the measured serving runs (speed_band.py)
        ranges = speed_ranges(memory.engine, speed)
        out["speed"]["ranges"] = {f: [r.low, r.high] for f, r in ranges.items()}
        out["speed"]["range_basis"] = speed_range_basis(ranges)
        if scenario is not None and (cost := million_tokens_cost(scenario, speed)) is not None:
            out["speed"]["cost_per_million_output_tokens"] = cost[0]  # in the scenario's currency
            out["speed"]["cost_per_million_output_tokens_range"] = [cost[1], cost[2]]
        if scenario is not None and (month := month_cost(scenario)) is not None:
            out["speed"]["cost_per_month_always_on"] = month  # GPUs x price x HOURS_A_MONTH
    return out


def render_serving(memory: ServingMemory, speed: ServingSpeed | None, unit: str = "GiB",
                   tr: Callable[[str], str] = _identity, tr_engine: Callable[[str], str] = _identity,
                   title: str = "", scenario: Scenario | None = None) -> str:
    """The terminal text: components per GPU, the KV cache as the engine sizes it, the verdict, the speed."""
    rows = sorted(memory.components, key=lambda c: -c.peak_bytes)
    width = max(_width(tr_engine(c.name)) for c in rows)
    lines = [title, ""] if title else []
    lines += [f"{_pad(tr_engine(c.name), width)}  {format_bytes(c.peak_bytes, unit):>12}" for c in rows if c.peak_bytes]
    lines.append(tr(QT_TRANSLATE_NOOP("cli", "Per GPU: {total} of {capacity}")).format(
        total=format_bytes(memory.total_bytes, unit), capacity=format_bytes(memory.capacity_bytes, unit)))
    # blocks only where the engine pages its cache (as the window's line): "(0 blocks of 256)" for MLX, "(16.4K blocks
    # of 1)" for llama.cpp said nothing
    paged = memory.blocks > 0 and memory.block_size > 1
    lines.append(tr(QT_TRANSLATE_NOOP(
        "cli", "KV cache: {tokens} tokens ({blocks} blocks of {block}), {per_token} KiB per token; at {length} tokens "
        "per sequence {users} sequences at once; longest single sequence {longest} tokens") if paged else
        QT_TRANSLATE_NOOP("cli", "KV cache: {tokens} tokens, {per_token} KiB per token; at {length} tokens per "
                                 "sequence {users} sequences at once; longest single sequence {longest} tokens")).format(
        # whole token counts, as the window and the plan card print them: "41K" for Qwen3-32B's 40,960 read as more
        # than the model's context (user audit 9)
        tokens=f"{memory.kv_tokens:,}", blocks=f"{memory.blocks:,}", block=memory.block_size,
        per_token=f"{memory.kv_bytes_per_token / 1024:,.1f}", length=f"{memory.max_model_len:,}",
        users=f"{memory.max_concurrent_sequences:.2f}", longest=f"{memory.longest_context:,}"))
    # it starts but holds fewer users at once than asked: "tight" with how many wait, as the estimate's verdict
    reason = users_wait_words(memory) if memory.users_wait else memory.reason
    lines.append(tr(QT_TRANSLATE_NOOP("cli", "Verdict: {verdict} - {reason}")).format(
        verdict=tr_engine(TIGHT if memory.users_wait else memory.verdict).upper(),
        reason=reason.format_with(tr_engine)))
    if memory.host_bytes:
        # llama.cpp keeps the token embeddings in CPU memory even with every layer offloaded (llama_cpp.py)
        lines.append(tr(QT_TRANSLATE_NOOP("cli", "CPU memory (the token embeddings, and any layers kept off the GPU): "
                                                 "{host}")).format(
            host=format_bytes(memory.host_bytes, unit)))
    if speed is not None:
        if memory.verdict == REFUSED:  # the engine does not start: its speed is what it would be, as for training
            lines.append(tr(QT_TRANSLATE_NOOP("cli", "This plan does not fit: time shown for reference only.")))
        lines.append(tr(QT_TRANSLATE_NOOP(
            "cli", "Speed at {users} sequences of {context} tokens: time to first token {ttft}, {tpot} per output "
            "token, {tps} tokens/s ({bound}-bound)") if speed.concurrency != 1 else QT_TRANSLATE_NOOP(
            "cli", "Speed for one sequence of {context} tokens: time to first token {ttft}, {tpot} per output "
            "token, {tps} tokens/s ({bound}-bound)")).format(
            users=speed.concurrency, context=f"{speed.context:,}", ttft=format_seconds(speed.ttft_seconds),
            tpot=format_seconds(speed.tpot_seconds), tps=format_count(speed.tokens_per_second),
            bound=tr_engine(BOUND_WORDS[speed.bound])))
        if scenario is not None and (together := all_instances_words(scenario, speed)) is not None:
            lines.append(together.format_with(tr_engine))
        if scenario is not None and (at_once := all_at_once_words(scenario, speed)) is not None:
            lines.append(at_once.format_with(tr_engine))
        if likely := speed_range_text(memory.engine, speed, tr_engine):
            lines.append(likely)
        if scenario is not None and (cost := million_tokens_cost_words(scenario, speed)) is not None:
            lines.append(cost.format_with(tr_engine))
        if scenario is not None and (month_words := month_cost_words(scenario)) is not None:
            lines.append(month_words.format_with(tr_engine))
        lines += [tr_engine(note) for note in speed.notes]
    return "\n".join(lines)
