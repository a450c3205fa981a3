"""The tensors a trained Qwen3.5 / Qwen3-VL vision tower saves for backward, measured on CPU (no GPU needed).

Builds transformers' Qwen3_5VisionModel and Qwen3VLVisionModel (transformers 5.25.0) at the released widths (1152, MLP
4304, 16 heads, patch 16, merge 2, 2,304 positions) in bf16 with SDPA, runs one 768 x 768 image (1 x 48 x 48 = 2,304
patches of fp32 pixel values, as the processor hands them over) and sums the storages autograd saves
(torch.autograd.graph.saved_tensors_hooks; parameters and buffers left out). One block = depth 2 minus depth 1;
outside the blocks = depth 1 minus that; a deepstack merger = a Qwen3-VL tower with one minus none. Run with
transformers 5.25.0 and torch:

    python validation/qwen3_vl_tower_trace.py

Output at torch 2.14.1 (CPU) and transformers 5.25.0: block 98,224,128 bytes, outside 29,758,464, one deepstack
merger 15,927,552 (both towers the same). tests/test_qwen3_vl_tower.py holds engine/models/vision.py to these: the
engine counts LayerNorm's mean / rstd in fp32 as CUDA's kernel keeps them; the CPU kernel keeps them in bf16, 4 bytes a
row less per LayerNorm.
"""

from __future__ import annotations

import torch
from transformers.models.qwen3_5.configuration_qwen3_5 import Qwen3_5VisionConfig
from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5VisionModel
from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLVisionConfig
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLVisionModel

WIDTHS = {"hidden_size": 1152, "intermediate_size": 4304, "num_heads": 16, "patch_size": 16, "temporal_patch_size": 2,
          "spatial_merge_size": 2, "out_hidden_size": 4096, "num_position_embeddings": 2304}


def saved_bytes(model_cls, config_cls, depth: int, deepstack: list[int] | None = None) -> int:
    extra = {} if deepstack is None else {"deepstack_visual_indexes": deepstack}
    config = config_cls(depth=depth, **WIDTHS, **extra)
    config._attn_implementation = "sdpa"
    model = model_cls(config).to(torch.bfloat16)
    skip = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    storages: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        if t.data_ptr() not in skip:
            storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    pixels = torch.randn(48 * 48, 3 * 2 * 16 * 16)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(pixels, grid_thw=torch.tensor([[1, 48, 48]]))
    return sum(storages.values())


def main() -> None:
    torch.manual_seed(0)
    for name, model_cls, config_cls, deepstack in (("Qwen3.5", Qwen3_5VisionModel, Qwen3_5VisionConfig, None),
                                                   ("Qwen3-VL", Qwen3VLVisionModel, Qwen3VLVisionConfig, [])):
        one, two = saved_bytes(model_cls, config_cls, 1, deepstack), saved_bytes(model_cls, config_cls, 2, deepstack)
        print(f"{name}: block {two - one:,} bytes, outside the blocks {2 * one - two:,}")
    merger = (saved_bytes(Qwen3VLVisionModel, Qwen3VLVisionConfig, 2, [0])
              - saved_bytes(Qwen3VLVisionModel, Qwen3VLVisionConfig, 2, []))
    print(f"one deepstack merger {merger:,} bytes")


if __name__ == "__main__":
    main()
