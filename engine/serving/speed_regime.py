"""Which regime a serving speed runs in, for its measured band (user audit 5 / h-serverows' open item): vLLM and
SGLang decode from captured CUDA graphs up to their capture size, and eagerly (each layer's kernels launched from
Python) with --enforce-eager / --disable-cuda-graph or for a batch beyond the largest captured one. The measured rows
split the same way: vLLM's graphs-on rows read its TPOT +8..+30% slower than the estimate, its one eager row +150%
(tests/data/published/serving_speed.json), so one band for both is too narrow for an eager scenario.

The regime is read from the speed itself: its `decode_host` term (engine/serving/host_iteration.py) is counted
exactly when the step runs without a graph, so a speed with host launches is "eager", one without "graphs". Engines
without CUDA graphs to switch (llama.cpp, ollama, mlx, transformers) have no regime: their band is the engine's.
No Qt."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP
from .speed import ServingSpeed

GRAPH_ENGINES = ("vllm", "sglang")  # engines whose decode runs from CUDA graphs unless told not to
GRAPHS, EAGER = "graphs", "eager"
REGIME_WORDS = {GRAPHS: QT_TRANSLATE_NOOP("engine", "with CUDA graphs"),
                EAGER: QT_TRANSLATE_NOOP("engine", "without CUDA graphs")}


def speed_regime(engine: str, speed: ServingSpeed) -> str:
    """GRAPHS or EAGER for vLLM / SGLang (eager where the step has host launches: no graph replays it), "" for an
    engine without CUDA graphs to switch."""
    if engine not in GRAPH_ENGINES:
        return ""
    host = sum(t.seconds for t in speed.decode_terms if t.key == "decode_host")
    return EAGER if host > 0 else GRAPHS


__all__ = ["EAGER", "GRAPHS", "GRAPH_ENGINES", "REGIME_WORDS", "speed_regime"]
