"""vLLM and SGLang on an Apple silicon GPU (user audit 5): what the planner models of them is their CUDA engine
(CUDA graphs, torch.cuda.mem_get_info's budget, the CUDA context), which does not run on Metal, so such a scenario is
refused in one sentence instead of estimated as if it were an NVIDIA card.

- vLLM's own build on macOS runs on the CPU: "vLLM has experimental support for macOS with Apple Silicon ...
  Currently the CPU implementation for macOS supports FP32 and FP16 datatypes" and "On macOS the
  `VLLM_TARGET_DEVICE` is automatically set to `cpu`, which is currently the only supported device"
  (vllm-project/vllm docs/getting_started/installation/cpu.apple.inc.md, main; docs.vllm.ai/en/latest/
  getting_started/installation/cpu/). Its GPU path on Apple silicon is vllm-metal, "a community-maintained hardware
  plugin that uses MLX as the compute backend" (same page; github.com/vllm-project/vllm-metal), an engine with MLX's
  memory, not modelled here.
- SGLang on Apple silicon runs on MLX too (SGLANG_USE_MLX=1 with --disable-cuda-graph; docs.sglang.io/docs/
  hardware-platforms/apple_metal; sgl-project/sglang issue #19137, Feb 2026: "SGLang has no support for Apple
  Silicon" before that roadmap).
The planner's mlx engine (mlx-lm's server) and llama.cpp (Metal) model Apple silicon. No Qt."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import gpu_presets
from ..scenario import Scenario
from .result import engine_name

CUDA_ONLY_ENGINES = ("vllm", "sglang")
APPLE = "Apple"  # presets/gpus.json vendor of the Apple silicon presets


def apple_gpu_refusal(s: Scenario) -> Message | None:
    """The sentence refusing vLLM or SGLang on an Apple silicon preset; None elsewhere (a custom GPU has no vendor
    to tell)."""
    if s.serving_engine not in CUDA_ONLY_ENGINES or not isinstance(s.gpu, str):
        return None
    gpu = gpu_presets().get(s.gpu)
    if gpu is None or gpu.vendor != APPLE:
        return None
    return message(QT_TRANSLATE_NOOP(
        "engine", "{engine} does not run on an Apple silicon GPU as modelled here: its macOS build runs on the CPU "
        "only and its Metal path is a separate MLX-based engine; choose MLX or llama.cpp for this Mac."),
        engine=engine_name(s.serving_engine))


def metal_context_words(s: Scenario) -> tuple[str, str] | None:
    """The process overhead's (name, formula) on an Apple silicon preset, in Metal's words (GpuPreset.context_words);
    None elsewhere: the engine keeps its CUDA words (a custom GPU has no vendor to tell)."""
    gpu = gpu_presets().get(s.gpu) if isinstance(s.gpu, str) else None
    return gpu.context_words if gpu is not None and gpu.vendor == APPLE else None


__all__ = ["APPLE", "CUDA_ONLY_ENGINES", "apple_gpu_refusal", "metal_context_words"]
