"""What a serving estimate says about one GPU: named components, the KV cache as the engine sizes it, and whether
the engine starts. Frozen dataclasses; every byte is a Component (engine/memory/breakdown.py) with formula and
inputs."""

from __future__ import annotations

from dataclasses import dataclass

from ..memory.breakdown import Component
from ..messages import Message

FITS, TIGHT, REFUSED = "fits", "tight", "does not fit"

# each engine as its project writes its name, for sentences ("vllm refuses" read as a typo)
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp", "ollama": "Ollama",
                "transformers": "Transformers", "mlx": "MLX"}


def engine_name(engine: str) -> str:
    """The engine's display name (the scenario's serving_engine where it has none)."""
    return ENGINE_NAMES.get(engine, engine)


@dataclass(frozen=True, slots=True)
class KvKind:
    """KV bytes per token of one layer kind on one GPU (state bytes per sequence for linear attention)."""

    kind: str
    layers: int
    bytes_per_token_per_layer: float
    state_bytes_per_sequence_per_layer: float = 0.0
    window: int = 0


@dataclass(frozen=True, slots=True)
class ServingMemory:
    """One GPU of a serving engine.

    `components` add up to what the engine's process holds on the GPU (weights, the profile's activation peak,
    CUDA graphs, non-torch memory, CUDA context, the KV pool); `kv_tokens` is what the engine logs as its KV cache
    size in tokens, `blocks` its blocks of `block_size` tokens, `max_concurrent_sequences` its "maximum
    concurrency" at `max_model_len`, `longest_context` the longest single sequence the pool holds. `verdict` is
    "does not fit" exactly when the engine refuses to start (or runs out of memory while starting), `reason` says
    why in one sentence."""

    engine: str
    components: tuple[Component, ...]
    capacity_bytes: float
    budget_bytes: float  # what the engine lets itself use (gpu_memory_utilization x capacity, or all of it)
    kv_pool_bytes: float
    kv_kinds: tuple[KvKind, ...]
    block_size: int
    blocks: int
    kv_tokens: int
    max_model_len: int
    max_concurrent_sequences: float
    longest_context: int
    verdict: str
    reason: Message
    notes: tuple[Message, ...] = ()
    host_bytes: float = 0.0  # llama.cpp's CPU memory: token embeddings, and layers kept off the GPU (partial offload)
    # vLLM: what its budget leaves for the KV cache before it is clamped at 0, what one request at max_model_len needs
    # to start, and the start-up accounting's measured uncertainty in bytes (engine/serving/startup_band.py)
    kv_pool_signed_bytes: float | None = None
    start_need_bytes: float = 0.0
    start_band_bytes: float = 0.0
    # vLLM/SGLang: the users the engine is set to decode at once (max_num_seqs) where its KV cache holds fewer of them
    # at max_model_len (2 or more, engine/serving/scenario_estimate.py); 0 where it holds them all or none was set
    users_asked: int = 0

    @property
    def users_wait(self) -> bool:
        """Fewer users fit at once at max_model_len than the engine is set to decode: the others wait, and the
        estimate reads "tight", not "fits" (a startup read FITS for 165 of its 500 users, user audit 13)."""
        return self.users_asked > 0

    @property
    def start_margin_bytes(self) -> float | None:
        """vLLM: the KV pool's margin over one request at max_model_len (negative: short); "tight" within
        +-start_band_bytes, "does not fit" below it."""
        return None if self.kv_pool_signed_bytes is None else self.kv_pool_signed_bytes - self.start_need_bytes

    @property
    def kv_bytes_per_token(self) -> float:
        """KV bytes one more token of context takes on this GPU, every attention layer counted."""
        return sum(k.layers * k.bytes_per_token_per_layer for k in self.kv_kinds)

    @property
    def kv_tokens_from_concurrency(self) -> int:
        """The KV size newer vLLM releases log: maximum concurrency x max_model_len (_report_kv_cache_config, which
        counts a sliding window's blocks once per request instead of dividing the blocks by the groups)."""
        return int(self.max_concurrent_sequences * self.max_model_len)

    @property
    def total_bytes(self) -> float:
        """Everything the engine holds on this GPU."""
        return sum(c.peak_bytes for c in self.components)

    def component(self, key: str) -> Component | None:
        return next((c for c in self.components if c.key == key), None)

    def bytes_of(self, key: str) -> float:
        found = self.component(key)
        return found.peak_bytes if found else 0.0
