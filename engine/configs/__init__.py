"""Training configs of other frameworks: import them into a scenario, export a scenario as their launch config."""

from __future__ import annotations

from .exporting import CARRIED, EXPORT_FORMATS, FILE_NAMES, ExportError, export_config
from .importing import FORMATS, detect, import_files, import_texts
from .reading import MAX_CONFIG_BYTES, ConfigFileError
from .result import Assumed, ImportResult, Mapped, Unmapped

__all__ = [
    "CARRIED",
    "EXPORT_FORMATS",
    "FILE_NAMES",
    "FORMATS",
    "MAX_CONFIG_BYTES",
    "Assumed",
    "ConfigFileError",
    "ExportError",
    "ImportResult",
    "Mapped",
    "Unmapped",
    "detect",
    "export_config",
    "import_files",
    "import_texts",
]
