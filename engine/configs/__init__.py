"""Training configs of other frameworks: import them into a scenario, export a scenario as their launch config."""

from __future__ import annotations

from .exporting import CARRIED, EXPORT_FORMATS, FILE_NAMES, ExportError, export_config
from .hardware import HARDWARE_COUNTS, counts_for_import, layout_gpus
from .importing import FORMATS, detect, import_files, import_texts
from .reading import MAX_CONFIG_BYTES, ConfigFileError
from .result import Assumed, ImportResult, Mapped, Unmapped

__all__ = [
    "CARRIED",
    "EXPORT_FORMATS",
    "FILE_NAMES",
    "FORMATS",
    "HARDWARE_COUNTS",
    "MAX_CONFIG_BYTES",
    "Assumed",
    "ConfigFileError",
    "ExportError",
    "ImportResult",
    "Mapped",
    "Unmapped",
    "counts_for_import",
    "detect",
    "export_config",
    "import_files",
    "import_texts",
    "layout_gpus",
]
