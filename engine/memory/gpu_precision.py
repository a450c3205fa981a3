"""A low-precision plan on a GPU without the tensor cores it needs cannot run as stated: the libraries refuse it at
start, they do not fall back. Transformer Engine asserts its check inside fp8_autocast (NVIDIA/TransformerEngine at
d0067d0d transformer_engine/pytorch/quantization.py lines 149-175, 760-769: 'Device compute capability 8.9 or higher
required for FP8 execution', '10.0 or higher required for NVFP4 execution'), and torchtitan's torchao float8 raises
'float8 is only supported on NVIDIA SM89 or later, or AMD gfx942 (MI300) or later' (pytorch/torchtitan at b5bcd76c
torchtitan/components/quantization/float8.py lines 85-96). The memory verdict stays the memory's (it would fit); the
CLI's verdict and time lines and the window's banner and time say the plan cannot run as stated, with this sentence
in the warnings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import get_gpu

if TYPE_CHECKING:
    from ..scenario import Scenario


def precision_cannot_run(s: Scenario) -> Message | None:
    """The sentence for fp8 / NVFP4 training on a GPU without those tensor cores; None where it has them (a custom
    GPU, not a preset, is taken at its word)."""
    if not isinstance(s.gpu, str):
        return None
    gpu = get_gpu(s.gpu)
    if s.precision == "fp8" and not gpu.fp8:
        return message(QT_TRANSLATE_NOOP(
            "engine", "{gpu} has no fp8 tensor cores: fp8 training needs Hopper, Ada, Blackwell or MI300."),
            gpu=gpu.name)
    if s.precision == "nvfp4" and not gpu.nvfp4:
        return message(QT_TRANSLATE_NOOP(
            "engine", "{gpu} has no NVFP4 tensor cores: NVFP4 training needs an NVIDIA Blackwell GPU (B200, GB200, "
            "B300, GB300 or a GeForce / RTX PRO Blackwell card)."), gpu=gpu.name)
    return None
