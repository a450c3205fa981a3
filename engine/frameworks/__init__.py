"""Training frameworks: their defaults (with sources) and the mechanisms they add to a training step.

`defaults` holds one row per framework; `settings.behaviour()` merges it with a scenario's explicit keys;
`loss`, `checkpointing`, `allocator` and `loading` turn that behaviour into bytes.
"""

from .defaults import CROSS_ENTROPIES, FRAMEWORKS, TABLE, FrameworkDefaults, defaults_for
from .settings import Behaviour, behaviour

__all__ = ["CROSS_ENTROPIES", "FRAMEWORKS", "TABLE", "Behaviour", "FrameworkDefaults", "behaviour", "defaults_for"]
