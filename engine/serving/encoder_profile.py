"""What vLLM's profile run adds for a vision-language model's image encoder, per GPU, tensor by tensor.

Before the text forward of max_num_batched_tokens, vLLM's V1 profile run encodes a dummy batch of images of the
largest size the model's processor makes and keeps the outputs in its encoder cache through the text forward and
the sampler, freeing them only afterwards (vllm/v1/worker/gpu_model_runner.py profile_run: embed_multimodal on
`_get_mm_dummy_batch(modality, max_mm_items_per_batch)`, `self.encoder_cache["tmp"] = ...`, then `_dummy_run`,
`_dummy_sampler_run`, `self.encoder_cache.clear()`; the same at v0.22.1 lines 6104-6161). So the torch peak vLLM
measures is max(the encoder's own forward peak, its cached outputs + the text run's peak), and the KV pool shrinks
by what that exceeds the text run alone.

How many images (vllm-project/vllm commit 003ad86e237cfccb7846111921a0230a45005196
vllm/v1/core/encoder_cache_manager.py compute_mm_encoder_budget; commit 03ff0a31aacbbc2634e69cd16c23241b3b626738
vllm/multimodal/budget.py MultiModalBudget._get_max_items):
- the encoder budget (compute and cache, both unset by default) is max(max_num_batched_tokens, the most tokens one
  image makes);
- the dummy batch is max(1, min(budget // tokens per image, max_num_seqs x images per prompt)) images, images per
  prompt = max(1, min(limit_mm_per_prompt, max_model_len // tokens per image)), limit_mm_per_prompt 999 by default.
vLLM logs both: "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 1 image items
of the maximum feature size." (Qwen3-VL, vllm-project/vllm#38459; 32768 tokens and 2 images for a Qwen3.5 model at
max_num_batched_tokens 32768).

The largest image: Qwen2.5-VL's and Qwen3-VL's processors resize to at most max_pixels (12,845,056 = 3,584^2 and
16,777,216 = 4,096^2, their released preprocessor_config.json: engine/models/vision.py), 16,384 tokens either way.
Other towers (SigLIP, Pixtral, Llama 4) are not modelled here yet: no term.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..models.vision import QWEN3_MAX_PIXELS, QWEN_MAX_PIXELS, VisionSpec

DEFAULT_IMAGES_PER_PROMPT = 999  # vllm/config/multimodal.py get_limit_per_prompt: an unset modality's limit
PIXEL_BYTES = 4  # the processor's pixel_values are float32 and stay so on the GPU until the tower casts them
ROTARY_BYTES = 4  # the 2-D rotary cos/sin tables, fp32 (head_dim / 2 each) per patch
# the largest image side each tower's processor makes (sqrt of its max_pixels)
MAX_IMAGE_SIDE = {"qwen2_5_vl": math.isqrt(QWEN_MAX_PIXELS), "qwen3_vl": math.isqrt(QWEN3_MAX_PIXELS)}


@dataclass(frozen=True, slots=True)
class EncoderProfile:
    """The image part of vLLM's profile run on one GPU (bytes)."""

    tokens_per_image: int  # language-model tokens of the largest image (vLLM's max_tokens_per_mm_item)
    budget_tokens: int  # the encoder compute budget and cache size, in tokens
    images: int  # dummy images encoded at once
    forward_bytes: float  # the encoder's forward peak over those images
    cached_bytes: float  # their outputs, kept in the encoder cache through the text run

    def extra_bytes(self, text_peak_bytes: float) -> float:
        """What the profile run's peak gains over the text run alone."""
        return max(self.forward_bytes - text_peak_bytes, self.cached_bytes)


def dummy_images(tokens_per_image: int, max_num_batched_tokens: int, max_num_seqs: int, max_model_len: int,
                 images_per_prompt: int = DEFAULT_IMAGES_PER_PROMPT) -> tuple[int, int]:
    """(encoder budget in tokens, dummy images of the profile run): compute_mm_encoder_budget, _get_max_items."""
    budget = max(max_num_batched_tokens, tokens_per_image)
    per_prompt = max(1, min(images_per_prompt, max_model_len // tokens_per_image))
    return budget, max(1, min(budget // tokens_per_image, max_num_seqs * per_prompt))


def _block_peak_width(v: VisionSpec, tp: int) -> float:
    """Elements per patch alive at a block's widest moment on one rank, besides the residual stream: the norm output
    (held while the attention or MLP runs) and the larger of attention (fused qkv output, rotated q and k, the
    attention output, the output projection's full-width result) and MLP (fc1 or gate_up, the activated product,
    the down projection's result). vLLM shards the tower's linears over tensor parallelism (column-parallel qkv and
    fc1/gate_up, row-parallel proj and down: vllm/model_executor/models/qwen2_5_vl.py, qwen3_vl.py)."""
    d, f, tp = v.hidden, v.ffn, max(1, tp)
    attention = (3 + 2 + 1) * d / tp + d
    mlp = (3 if v.gated_mlp else 2) * f / tp + d
    return d + max(attention, mlp)


def largest_image_tokens(v: VisionSpec, max_pixels: int | None = None) -> int:
    """Tokens of the largest image the processor makes: its max_pixels, or the one mm_processor_kwargs sets. vLLM
    asks smart_resize for the size of a 9,999,999-pixel square (vllm/model_executor/models/qwen2_vl.py
    get_image_size_with_most_features), which lands on floor(sqrt(max_pixels) / factor) x factor pixels a side,
    factor = patch x merge (qwen_vl_utils smart_resize's floor branch when the image exceeds max_pixels)."""
    if max_pixels is None:
        return v.tokens_per_image(MAX_IMAGE_SIDE[v.kind])
    factor = v.patch * v.merge
    side = max(factor, math.isqrt(max_pixels) // factor * factor)
    return (side // v.patch) ** 2 // v.merge**2


def encoder_profile(v: VisionSpec | None, max_num_batched_tokens: int, max_num_seqs: int, max_model_len: int,
                    tp: int = 1, act_bytes: float = 2.0, *, images_per_prompt: int | None = None,
                    max_pixels: int | None = None) -> EncoderProfile | None:
    """The profile run's image encoder on one GPU, or None for a text-only model, a tower not modelled here, or
    images_per_prompt 0 (limit_mm_per_prompt disables every modality: compute_mm_encoder_budget returns 0, 0 and the
    profile run encodes nothing)."""
    if v is None or v.kind not in MAX_IMAGE_SIDE or images_per_prompt == 0:
        return None
    tokens = largest_image_tokens(v, max_pixels)
    limit = DEFAULT_IMAGES_PER_PROMPT if images_per_prompt is None else images_per_prompt
    budget, images = dummy_images(tokens, max_num_batched_tokens, max_num_seqs, max_model_len, limit)
    n = images * tokens * v.merge**2  # patches
    pixels = n * 3 * v.temporal_patch * v.patch**2 * PIXEL_BYTES
    rotary = n * (v.hidden // v.heads) * ROTARY_BYTES
    residual = n * v.hidden * act_bytes
    # Qwen3-VL keeps each deepstack merger's output (merged rows, the text width) to the end of the tower and
    # concatenates them with the main merger's: the output is (1 + deepstack) x out_hidden wide per token
    # (qwen3_vl.py Qwen3_VisionTransformer.forward, torch.cat([hidden_states] + deepstack_feature_lists, dim=1))
    width_out = (1 + v.deepstack_mergers) * (v.out_hidden or v.text_hidden)
    output = images * tokens * width_out * act_bytes
    deepstack = images * tokens * v.deepstack_mergers * (v.out_hidden or v.text_hidden) * act_bytes
    blocks = residual + n * _block_peak_width(v, tp) * act_bytes + deepstack
    # the end: the last block's output (the merger's input), the merged features and their concatenation
    end = residual + deepstack + output + images * tokens * (v.out_hidden or v.text_hidden) * act_bytes
    forward = pixels + rotary + max(blocks, end)
    return EncoderProfile(tokens_per_image=tokens, budget_tokens=budget, images=images, forward_bytes=forward,
                          cached_bytes=output)


__all__ = ["DEFAULT_IMAGES_PER_PROMPT", "MAX_IMAGE_SIDE", "EncoderProfile", "dummy_images", "encoder_profile",
           "largest_image_tokens"]
