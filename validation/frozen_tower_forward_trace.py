"""The largest working set of a frozen vision tower block's forward (Qwen3.5 / Qwen3-VL, SigLIP), measured on CPU.

Builds transformers' Qwen3_5VisionModel (transformers 5.25.0) at the released widths (as qwen3_vl_tower_trace.py) in
bf16 with SDPA and with eager attention, runs one 768 x 768 image (2,304 patches) under torch.no_grad() (a frozen
tower: nothing is saved for backward) and follows every tensor storage the ops make (TorchDispatchMode, a weakref
on each storage; parameters and buffers left out): the peak of the bytes alive at once during the block, less what
is alive when it starts (its input among them): one block's working set. Run with transformers 5.25.0 and torch:

    python validation/frozen_tower_forward_trace.py

Output at torch 2.14.1 (CPU) and transformers 5.25.0: sdpa 84,934,656 bytes (32 x 1,152 a patch), eager 881,197,060
(12 x 1,152 a patch + 10 bytes for each of 16 x 2,304^2 scores, + 4). Gemma 3's SigLIP tower (transformers'
SiglipVisionModel, 896 px: 4,096 patches): sdpa 89,391,104 (the MLP: 2 x (2 x 1,152 + 2 x 4,304) a patch), eager
2,722,103,296 (8 x 1,152 a patch + 10 bytes a score). tests/test_frozen_tower_forward.py holds
engine/models/vision.py tower_forward_peak_bytes to it.
"""

from __future__ import annotations

import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from transformers import SiglipVisionConfig, SiglipVisionModel
from transformers.models.qwen3_5.configuration_qwen3_5 import Qwen3_5VisionConfig
from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5VisionModel

WIDTHS = {"hidden_size": 1152, "intermediate_size": 4304, "num_heads": 16, "patch_size": 16, "temporal_patch_size": 2,
          "spatial_merge_size": 2, "out_hidden_size": 4096, "num_position_embeddings": 2304}


class LiveBytes(TorchDispatchMode):
    """Bytes of the storages the ops made that are still alive, and their peak."""

    def __init__(self, skip: set[int]) -> None:
        super().__init__()
        self.skip, self.live, self.now, self.peak = skip, {}, 0, 0

    def _freed(self, ptr: int) -> None:
        self.now -= self.live.pop(ptr, 0)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                storage = t.untyped_storage()
                ptr = storage.data_ptr()
                if ptr and ptr not in self.skip and ptr not in self.live:
                    self.live[ptr] = storage.nbytes()
                    self.now += storage.nbytes()
                    weakref.finalize(storage, self._freed, ptr)
        self.peak = max(self.peak, self.now)
        return out


def peak_in(model: torch.nn.Module, block: torch.nn.Module, *inputs, **kwargs) -> int:
    """The bytes `block` adds at its largest moment above what is alive when it starts, in a no_grad forward."""
    skip = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    mode, seen = LiveBytes(skip), {}

    def before(_module, _args) -> None:
        seen["start"] = mode.now
        mode.peak = mode.now

    def after(_module, _args, _out) -> None:
        seen["peak"] = mode.peak

    block.register_forward_pre_hook(before)
    block.register_forward_hook(after)
    with torch.no_grad(), mode:
        model(*inputs, **kwargs)
    return seen["peak"] - seen["start"]


def qwen35_block_peak(attention: str) -> int:
    config = Qwen3_5VisionConfig(depth=1, **WIDTHS)
    config._attn_implementation = attention
    model = Qwen3_5VisionModel(config).to(torch.bfloat16)
    return peak_in(model, model.blocks[0], torch.randn(48 * 48, 3 * 2 * 16 * 16), grid_thw=torch.tensor([[1, 48, 48]]))


def siglip_block_peak(attention: str) -> int:
    """Gemma 3's SigLIP tower (hidden 1152, MLP 4304, 16 heads, patch 14, 896 px: 4,096 patches), one image."""
    config = SiglipVisionConfig(hidden_size=1152, intermediate_size=4304, num_hidden_layers=1, num_attention_heads=16,
                                patch_size=14, image_size=896)
    config._attn_implementation = attention
    model = SiglipVisionModel(config).to(torch.bfloat16)
    block = next(module for name, module in model.named_modules() if name.endswith("layers.0"))
    return peak_in(model, block, torch.randn(1, 3, 896, 896, dtype=torch.bfloat16))


if __name__ == "__main__":
    for attention in ("sdpa", "eager"):
        print(f"Qwen3.5 block (2,304 patches, bf16, {attention}, no_grad): {qwen35_block_peak(attention):,} bytes "
              f"above what is alive at its start; SigLIP block (4,096 patches): {siglip_block_peak(attention):,}")
