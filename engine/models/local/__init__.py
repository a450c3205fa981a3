"""Models on this computer: the Hugging Face cache, user folders, and what safetensors headers say."""

from .checkpoint import CheckpointSummary, summarize, summarize_folder
from .hf_cache import (
    LocalModel,
    LocalScan,
    find_local_models,
    hub_cache_dirs,
    scan_folder,
    scan_hub_cache,
    scan_local_models,
    shown_name,
)
from .safetensors_header import SafetensorsError, SafetensorsHeader, TensorInfo, read_header

__all__ = ["CheckpointSummary", "LocalModel", "LocalScan", "SafetensorsError", "SafetensorsHeader", "TensorInfo",
           "find_local_models", "hub_cache_dirs", "read_header", "scan_folder", "scan_hub_cache", "scan_local_models",
           "shown_name", "summarize", "summarize_folder"]
