"""Training configs of other frameworks: import them into a scenario, export a scenario as their launch config."""

from __future__ import annotations

from .importing import FORMATS, detect, import_files, import_texts
from .reading import MAX_CONFIG_BYTES, ConfigFileError
from .result import Assumed, ImportResult, Mapped, Unmapped

__all__ = ["FORMATS", "MAX_CONFIG_BYTES", "Assumed", "ConfigFileError", "ImportResult", "Mapped", "Unmapped",
           "detect", "import_files", "import_texts"]
