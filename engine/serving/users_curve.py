"""Users at once against context length: for the scenario's GPUs, engine and settings, how many sequences of each
length the engine serves together (the window's "users at once vs context length" chart).

Every point asks the serving memory model itself with only the context changed, so the curve is the estimate's own
answer at each length, never a separate formula:

- vLLM, SGLang, transformers, mlx: max_model_len = L; the engine's maximum concurrency at L (whole sequences), times
  the engine instances the GPUs hold (world size / (tp x pp)); 0 where the engine refuses to start at L.
- llama.cpp, ollama: the most n_parallel slots of L tokens each, n_ctx = slots x L, that the GPUs still start with
  (llama-server gives each slot n_ctx / n_parallel tokens, and n_ctx sizes the KV and compute buffers).

The memory-limited number is what the curve shows; the scheduler's own cap (max_num_seqs) is returned beside it."""

from __future__ import annotations

from dataclasses import dataclass

from ..monotone import largest_passing
from ..scenario import Scenario, resolve_model
from .engine_settings import scenario_engine_settings
from .layer_split import layer_split_gpus
from .result import REFUSED
from .scenario_estimate import GGUF_ENGINES, serving_memory

SHORTEST_CONTEXT = 1024
FALLBACK_LONGEST = 131_072  # a model without max_position_embeddings: up to 128K
MAX_SLOTS = 4096  # n_parallel's bound (engine/scenario/serving_keys.py)


@dataclass(frozen=True, slots=True)
class UsersPoint:
    context: int  # tokens per sequence (max_model_len, or llama.cpp's n_ctx / n_parallel)
    users: int  # whole sequences of that length served at once, over every engine instance


@dataclass(frozen=True, slots=True)
class UsersCurve:
    engine: str
    points: tuple[UsersPoint, ...]
    current: UsersPoint  # the scenario's own context and users
    scheduler_cap: int  # max_num_seqs x instances (the engine decodes no more at once); 0: no such cap
    instances: int
    # llama.cpp's slots as set (n_parallel): it decodes no more at once whatever the memory holds, so the points are
    # the slots the memory would hold at each length (what n_parallel could be), not users at once; 0: other engines
    slots_set: int = 0
    # a vision-language model on vLLM: the most tokens one image takes of a user's context (image tokens take KV
    # cache like text) and what vLLM's profile run kept from the KV cache to encode images (encoder_profile.py)
    tokens_per_image: int = 0
    image_encoder_bytes: float = 0.0


def slots_set(s: Scenario) -> int:
    """The slots an engine with a fixed number of them decodes at once (llama-server's n_parallel: each slot one
    request, a request beyond them waits for a free slot); 0 for an engine that schedules by memory (vLLM, SGLang)."""
    return max(1, s.n_parallel) if s.serving_engine in GGUF_ENGINES else 0


def instances(s: Scenario) -> int:
    """Engine instances the GPUs hold: each tp x pp group serves on its own; llama.cpp splits one model over all."""
    if s.serving_engine in GGUF_ENGINES:
        return 1
    if layer_split_gpus(s) > 1:  # transformers' device map: one model over each node's GPUs (layer_split.py)
        return max(1, s.nodes)
    return max(1, s.world_size // max(1, s.tp * s.pp))


def _starts(s: Scenario) -> bool:
    return serving_memory(s).verdict != REFUSED


def _slots(s: Scenario, context: int) -> int:
    """The most llama.cpp slots of `context` tokens whose shared n_ctx still starts (0 if not even one)."""
    if not _starts(s.with_unchecked(n_ctx=context, n_parallel=1)):
        return 0
    low, high = 1, 2
    while high <= MAX_SLOTS and _starts(s.with_unchecked(n_ctx=context * high, n_parallel=high)):
        low, high = high, high * 2
    # low starts; high does not (or is past the bound), so the answer is at most high - 1
    high = min(high, MAX_SLOTS + 1)
    return largest_passing(low, high - 1, lambda n: _starts(s.with_unchecked(n_ctx=context * n, n_parallel=n)))


def users_at(s: Scenario, context: int) -> int:
    """Whole sequences of `context` tokens the scenario's GPUs serve at once."""
    if s.serving_engine in GGUF_ENGINES:
        return _slots(s, context)
    memory = serving_memory(s.with_unchecked(max_model_len=context))
    if memory.verdict == REFUSED:
        return 0
    return int(memory.max_concurrent_sequences) * instances(s)


def context_lengths(longest: int, current: int) -> tuple[int, ...]:
    """Powers of two from 1K to the model's longest context, that context itself and the scenario's own."""
    lengths = {current, longest}
    length = SHORTEST_CONTEXT
    while length < longest:
        lengths.add(length)
        length *= 2
    return tuple(sorted(n for n in lengths if n > 0))


def engine_max_num_seqs(s: Scenario) -> int:
    """max_num_seqs of one engine instance as the engine resolves it (its default for this GPU when unset); 0 for
    llama.cpp (its slots are n_parallel) and for an engine without the setting left unset."""
    if s.serving_engine in GGUF_ENGINES:
        return 0
    if (settings := scenario_engine_settings(s)) is not None:
        return settings.max_num_seqs
    return s.max_num_seqs or 0


def users_vs_context(s: Scenario) -> UsersCurve:
    """The curve for the scenario as set; only its context (and llama.cpp's slots) vary."""
    longest = resolve_model(s).max_position or FALLBACK_LONGEST
    if s.serving_engine in GGUF_ENGINES:
        current_context = (s.n_ctx or longest) // max(1, s.n_parallel)
        current = UsersPoint(current_context, s.n_parallel if _starts(s) else 0)
    else:
        current_context = s.max_model_len or longest
        current = UsersPoint(current_context, users_at(s, current_context))
    # llama.cpp's point at the scenario's slot length is the most slots it could have, `current` the slots it has
    points = tuple(current if n == current.context and s.serving_engine not in GGUF_ENGINES
                   else UsersPoint(n, users_at(s, n)) for n in context_lengths(longest, current.context))
    tokens_per_image, encoder_bytes = _image_encoder(s, current.context)
    return UsersCurve(s.serving_engine, points, current, engine_max_num_seqs(s) * instances(s), instances(s),
                      slots_set(s), tokens_per_image, encoder_bytes)


def _image_encoder(s: Scenario, context: int) -> tuple[int, float]:
    """(tokens of the largest image, bytes of the encoder's profile-run term) at the scenario's context; (0, 0.0)
    for a text-only model or an engine without the term."""
    if s.serving_engine in GGUF_ENGINES or resolve_model(s).vision is None:
        return 0, 0.0
    term = serving_memory(s.with_unchecked(max_model_len=context)).component("encoder_profile")
    if term is None:
        return 0, 0.0
    return int(dict(term.inputs)["tokens_per_image"]), term.peak_bytes
