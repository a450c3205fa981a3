"""Vision-language steps on fake tensors: the images' inputs and what makes transformers trace them.

A vision-language step takes `pixel_values` and a sequence whose image placeholder tokens receive the tower's
output. Three things in transformers 5.24 need real values, which fake tensors do not have; each work-around below
makes the fake run follow the path a real run takes:

- weight initialisation (`transformers.initialization.trunc_normal_`) reads a scalar: skipped; values never matter
  for memory.
- the placeholder check (`torch_compilable_check`: image tokens x width == image features) reads the count: skipped;
  the inputs are built so that it holds (one placeholder token per language-model image token).
- transformers 5.24's Llama4ForConditionalGeneration.forward reads `image_outputs` from its language model's output,
  which has no such field (AttributeError after the loss is computed, on real tensors too): the field is given a
  None default for the run. Nothing it changes is allocated.
- Qwen2.5-VL's tower computes its window order, `cu_seqlens` and 2-D positions from `image_grid_thw` with
  `.tolist()` and boolean indexing, and its 3-D rotary positions from the token ids. The grid and the token ids are
  therefore fake tensors that carry their real values (fake-tensor *constants*), the three `get_vision_*` helpers
  run on the real values, and fake-tensor constant propagation is allowed for index-sized tensors so that the
  arithmetic on them (split sizes, `argsort` of the window order) keeps its real values. Mistral 3 (Pixtral) reads
  `image_sizes` the same way: it is a constant too. Every tensor is still allocated and counted by the tracker like
  any other.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode, unset_fake_temporarily
from torch.utils._pytree import tree_map_only

# Constants propagate only through tensors up to this many elements (the index arithmetic of one batch of images);
# activations and weights are never constants.
CONSTANT_LIMIT_ELEMENTS = 1 << 20
TEXT_TOKEN_IDS = 1000  # ordinary tokens are drawn below this id (no special token there in either vocabulary)


def is_vision_config(hf_config: dict[str, Any]) -> bool:
    return isinstance(hf_config.get("vision_config"), dict)


def tower_modules(model: torch.nn.Module) -> list[torch.nn.Module]:
    """The vision tower and its projector/merger (what the scenario key vision_tower trains or freezes)."""
    found: list[torch.nn.Module] = []
    for owner in (model, getattr(model, "model", None)):  # Gemma 3 / Qwen2.5-VL nest them, Llama 4 does not
        for name in ("vision_tower", "vision_model", "multi_modal_projector", "visual"):
            module = getattr(owner, name, None) if owner is not None else None
            if isinstance(module, torch.nn.Module) and all(module is not m for m in found):
                found.append(module)
    return found


def _realise(fn: Any, fake_mode: FakeTensorMode) -> Any:
    """Run `fn` on the real values of its constant fake arguments; its tensors come back as fake constants."""
    conv = fake_mode.fake_tensor_converter

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        args = tuple(a.constant if isinstance(a, FakeTensor) and a.constant is not None else a for a in args)
        with unset_fake_temporarily():
            out = fn(*args, **kwargs)
        return tree_map_only(torch.Tensor, lambda t: conv.from_real_tensor(fake_mode, t, make_constant=True), out)

    return wrapper


@contextlib.contextmanager
def vision_tracing(fake_mode: FakeTensorMode) -> Iterator[None]:
    """The work-arounds above, undone on exit (other runs in the same process trace unpatched)."""
    import torch._subclasses.fake_tensor as ft
    import transformers.initialization as init
    import transformers.modeling_outputs as outputs
    import transformers.models.gemma3.modeling_gemma3 as gemma3
    import transformers.models.llama4.modeling_llama4 as llama4
    import transformers.models.mistral3.modeling_mistral3 as mistral3
    import transformers.models.qwen2_5_vl.modeling_qwen2_5_vl as qwen

    missing = object()
    saved: list[tuple[Any, str, Any]] = []

    def patch(obj: Any, name: str, value: Any) -> None:
        saved.append((obj, name, getattr(obj, name, missing)))
        setattr(obj, name, value)

    patch(init, "trunc_normal_", lambda tensor, *a, **k: tensor)
    for module in (gemma3, qwen, llama4, mistral3):
        patch(module, "torch_compilable_check", lambda *a, **k: None)
    for name in ("get_vision_position_ids", "get_vision_attention_seqlens", "get_vision_window_index"):
        patch(qwen, name, _realise(getattr(qwen, name), fake_mode))
    patch(ft, "CONSTANT_NUMEL_LIMIT", CONSTANT_LIMIT_ELEMENTS)
    patch(outputs.MoeCausalLMOutputWithPast, "image_outputs", None)
    try:
        yield
    finally:
        for obj, name, value in reversed(saved):
            if value is missing:
                delattr(obj, name)
            else:
                setattr(obj, name, value)


def _constant(fake_mode: FakeTensorMode, t: torch.Tensor) -> torch.Tensor:
    return fake_mode.fake_tensor_converter.from_real_tensor(fake_mode, t, make_constant=True)


def image_grid(hf_config: dict[str, Any], resolution: int) -> tuple[int, int]:
    """(patches, language-model tokens) of one square image, as the processors make them."""
    vc = hf_config["vision_config"]
    if hf_config.get("model_type") == "gemma3":  # every image resized to the tower's size, pooled to a fixed count
        side = vc["image_size"] // vc["patch_size"]
        return side * side, hf_config.get("mm_tokens_per_image", 256)
    if hf_config.get("model_type") == "llama4":  # one 336-pixel tile: its patches + a class token; pixel shuffle 0.5
        side = vc["image_size"] // vc["patch_size"]
        return side * side + 1, int(side * side * vc.get("pixel_shuffle_ratio", 0.5) ** 2)
    merge = hf_config.get("spatial_merge_size") or vc.get("spatial_merge_size", 2)  # Mistral 3 | Qwen2.5-VL
    unit = vc["patch_size"] * merge
    if resolution % unit:
        raise ValueError(f"images are multiples of {unit} pixels here, not {resolution}")
    side = resolution // vc["patch_size"]
    return side * side, side * side // merge**2


def vision_inputs(hf_config: dict[str, Any], micro_batch: int, seq_len: int, images: int, resolution: int,
                  fake_mode: FakeTensorMode, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """Model inputs: `images` images per sequence, their placeholder tokens first, then text."""
    patches, tokens = image_grid(hf_config, resolution)
    if images * tokens > seq_len:
        raise ValueError(f"{images} images of {tokens} tokens do not fit in {seq_len} tokens")
    kind = hf_config["model_type"]
    image_token = hf_config.get("image_token_index", hf_config.get("image_token_id"))
    with unset_fake_temporarily():  # the token ids are real values (see the module docstring)
        ids = torch.randint(0, TEXT_TOKEN_IDS, (micro_batch, seq_len))
        placeholder = torch.zeros(micro_batch, seq_len, dtype=torch.long)
        for i in range(images):  # one text token between images (the processors' start/end markers, simplified)
            start = 1 + i * (tokens + 1)
            placeholder[:, start:start + tokens] = 1
        ids[placeholder.bool()] = image_token
        grid = torch.tensor([[1, int(patches**0.5), int(patches**0.5)]] * (micro_batch * images))
    vc = hf_config["vision_config"]
    n = micro_batch * images
    with fake_mode:
        if kind in ("gemma3", "llama4"):
            pixels = torch.randn(n, 3, vc["image_size"], vc["image_size"], dtype=dtype)
        elif kind == "mistral3":  # Pixtral reads any size: one square image of `resolution` pixels
            pixels = torch.randn(n, 3, resolution, resolution, dtype=dtype)
        else:
            width = 3 * vc.get("temporal_patch_size", 2) * vc["patch_size"] ** 2
            pixels = torch.randn(n * patches, width, dtype=dtype)
    out: dict[str, torch.Tensor] = {"pixel_values": pixels}
    if kind == "gemma3":  # image tokens attend to each other both ways (the processor's token_type_ids)
        out["input_ids"] = _constant(fake_mode, ids)
        out["token_type_ids"] = _constant(fake_mode, placeholder)
    elif kind == "llama4":
        out["input_ids"] = _constant(fake_mode, ids)
    elif kind == "mistral3":  # image_sizes are read with Python arithmetic and .tolist(): real values (constants)
        out["input_ids"] = _constant(fake_mode, ids)
        with unset_fake_temporarily():
            sizes = torch.tensor([[resolution, resolution]] * n)
        out["image_sizes"] = _constant(fake_mode, sizes)
    else:
        out["input_ids"] = _constant(fake_mode, ids)
        out["image_grid_thw"] = _constant(fake_mode, grid)
    out["labels"] = out["input_ids"]
    return out
