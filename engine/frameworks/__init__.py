"""Training frameworks: their facts, one row per framework with its sources (`defaults`), what they
build (`model`), Megatron's and Unsloth's layers, and PyTorch's allocator. How a scenario's framework resolves
into behaviour is engine/scenario/behaviour.py; the bytes it adds are in engine/memory/.
"""

from .defaults import CROSS_ENTROPIES, FRAMEWORKS, TABLE, FrameworkDefaults, defaults_for

__all__ = ["CROSS_ENTROPIES", "FRAMEWORKS", "TABLE", "FrameworkDefaults", "defaults_for"]
