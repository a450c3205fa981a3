"""Vision towers of vision-language models (ViT patches, merger/projector), read from `vision_config`.

Parameter counts follow the transformers modules named in each function; activations are counted per tensor of
each tower's transformers modules and checked against traces of Gemma 3, Qwen2.5-VL, Llama 4 and Mistral 3 steps
with images (tests/data/ground_truth/*_img*, docs/accuracy.md); Qwen3-VL's / Qwen3.5's against a CPU trace of
transformers' modules (validation/qwen3_vl_tower_trace.py, tests/test_qwen3_vl_tower.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import ModelConfigError
from ..input_bounds import short_number
from ..messages import QT_TRANSLATE_NOOP

# vision model_type (or the parent's model_type) -> tower kind
_KINDS = {
    "siglip_vision_model": "siglip",  # Gemma 3
    "pixtral": "pixtral",  # Mistral Small 3.x (Mistral3ForConditionalGeneration)
    "qwen2_5_vl": "qwen2_5_vl",
    "llama4_vision_model": "llama4",
    # Qwen3-VL's tower (a SigLIP-2-shaped ViT, learned positions, deepstack mergers) and Qwen3.5's (the same without
    # deepstack): the released config.json names its vision_config after the parent (qwen3_5, qwen3_5_moe, qwen3_vl),
    # transformers 5.25.0 renames it on load (configuration_qwen3_5.py lines 186-188: qwen3_5 -> qwen3_5_vision)
    **{name: "qwen3_vl" for name in ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe")},
    **{f"{name}_vision": "qwen3_vl" for name in ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe")},
}


@dataclass(frozen=True, slots=True)
class VisionSpec:
    kind: str  # siglip | pixtral | qwen2_5_vl | llama4 | qwen3_vl (Qwen3-VL and Qwen3.5)
    hidden: int
    layers: int
    heads: int
    ffn: int
    patch: int
    image_size: int  # native resolution (pixels per side) of the tower
    text_hidden: int
    merge: int = 1  # patches merged per side into one language token (Qwen2.5-VL, Pixtral: 2)
    tokens_per_image_fixed: int = 0  # Gemma 3 pools every image to mm_tokens_per_image
    temporal_patch: int = 1  # Qwen2.5-VL: an image is two identical frames folded into one patch
    out_hidden: int = 0  # Qwen2.5-VL merger output / Llama 4 projector widths
    projector_in: int = 0
    gated_mlp: bool = False  # Pixtral and Qwen2.5-VL blocks use a SwiGLU MLP; SigLIP/Llama 4 use GELU fc1/fc2
    rms_norm: bool = False  # Pixtral and Qwen2.5-VL use RMSNorm; SigLIP/Llama 4 LayerNorm (weight + bias)
    position_embeddings: int = 0  # Qwen3-VL / Qwen3.5: a learned grid (num_position_embeddings), resampled per image
    deepstack_mergers: int = 0  # Qwen3-VL: one more patch merger per deepstack_visual_indexes entry (Qwen3.5: none)
    # Qwen2.5-VL: the blocks of fullatt_block_indexes attend over the whole image, the others within windows of
    # window_size // spatial_merge_size // patch_size merged tokens a side (the time model's, engine/timing/vision_time.py)
    full_attention_blocks: int = 0
    window_merged: int = 0

    # ---- parameters -----------------------------------------------------------------------------
    @property
    def block_params(self) -> int:
        d, f = self.hidden, self.ffn
        attn_bias = self.kind in ("siglip", "llama4", "qwen2_5_vl", "qwen3_vl")
        attn = 4 * d * d + (4 * d if attn_bias else 0)
        if self.gated_mlp:
            mlp = 3 * d * f + ((2 * f + d) if self.kind == "qwen2_5_vl" else 0)
        else:
            mlp = 2 * d * f + f + d
        norms = 2 * d if self.rms_norm else 4 * d
        return attn + mlp + norms

    @property
    def params(self) -> int:
        """Tower + projector parameters (everything outside the language model)."""
        d, p = self.hidden, self.patch
        grid = (self.image_size // p) ** 2
        if self.kind == "siglip":
            # SiglipVisionEmbeddings (conv with bias + learned positions), post_layernorm,
            # Gemma3MultiModalProjector (soft-embedding RMSNorm + d x text_hidden matrix).
            outside = 3 * p * p * d + d + grid * d + 2 * d + d + d * self.text_hidden
        elif self.kind == "pixtral":
            # patch_conv (no bias), ln_pre; Mistral3MultiModalProjector: norm, patch merger, linear_1, linear_2.
            outside = 3 * p * p * d + d + d + d * self.merge**2 * d + d * self.text_hidden
            outside += self.text_hidden * self.text_hidden
        elif self.kind == "qwen2_5_vl":
            # Conv3d patch embedding (no bias); PatchMerger: ln_q, Linear(4d, 4d), Linear(4d, out).
            wide = d * self.merge**2
            outside = 3 * self.temporal_patch * p * p * d + d + wide * wide + wide + wide * self.out_hidden
            outside += self.out_hidden
        elif self.kind == "qwen3_vl":
            # transformers 5.25.0 models/qwen3_vl/modeling_qwen3_vl.py (Qwen3.5's modeling_qwen3_5.py lines 1035-1066,
            # 1198-1233 are the same modules): Conv3d patch embedding with bias; pos_embed, an nn.Embedding of
            # num_position_embeddings x d; the PatchMerger (LayerNorm(d), Linear(4d, 4d), GELU, Linear(4d, out), with
            # biases); each deepstack merger the same with its LayerNorm over the merged 4d (use_postshuffle_norm).
            wide = d * self.merge**2
            merger = wide * wide + wide + wide * self.out_hidden + self.out_hidden
            outside = 3 * self.temporal_patch * p * p * d + d + self.position_embeddings * d + 2 * d + merger
            outside += self.deepstack_mergers * (2 * wide + merger)
        else:  # llama4
            # unfold-conv linear, class embedding, positions (+1 class token), pre/post LayerNorm,
            # pixel-shuffle MLP (fc1: ffn -> projector_in, fc2: out -> out), projector to the text width.
            outside = 3 * p * p * d + d + (grid + 1) * d + 4 * d
            outside += self.ffn * self.projector_in + self.out_hidden * self.out_hidden + self.out_hidden * self.text_hidden
        return self.layers * self.block_params + outside

    # ---- tokens -----------------------------------------------------------------------------------
    def patches_per_image(self, resolution: int) -> int:
        """ViT tokens one image of resolution x resolution pixels makes (towers with a fixed size resize)."""
        if self.kind in ("siglip", "llama4"):
            side = self.image_size
        elif self.kind == "qwen2_5_vl":
            side = qwen_resized_side(resolution, self.patch * self.merge)
        elif self.kind == "qwen3_vl":
            side = qwen_resized_side(resolution, self.patch * self.merge, QWEN3_MIN_PIXELS, QWEN3_MAX_PIXELS)
        else:
            side = max(resolution, self.patch * self.merge)
        per_side = side // self.patch
        if self.kind == "llama4":
            tiles = max(1, -(-resolution // self.image_size)) ** 2 if resolution > self.image_size else 1
            tiles += 1 if tiles > 1 else 0  # a global thumbnail tile joins the local tiles
            return tiles * (per_side**2 + 1)
        return per_side**2

    def tokens_per_image(self, resolution: int) -> int:
        """Language-model tokens one image becomes."""
        if self.tokens_per_image_fixed:
            return self.tokens_per_image_fixed
        if self.kind == "llama4":
            grid = (self.image_size // self.patch) ** 2
            return self.patches_per_image(resolution) // (grid + 1) * grid // 4
        return self.patches_per_image(resolution) // self.merge**2

    def summary(self) -> dict[str, Any]:
        return {"kind": self.kind, "layers": self.layers, "hidden": self.hidden, "params": self.params,
                "patch": self.patch, "image_size": self.image_size}


# Qwen2.5-VL's released preprocessor_config.json: min_pixels 3136 (56 x 56), max_pixels 12845056 (3584 x 3584).
QWEN_MIN_PIXELS = 56 * 56
QWEN_MAX_PIXELS = 12_845_056
# Qwen3-VL's and Qwen3.5's released preprocessor_config.json (Qwen2VLImageProcessorFast, patch 16, merge 2):
# size {"shortest_edge": 65536, "longest_edge": 16777216}, 256 x 256 to 4,096 x 4,096 pixels.
QWEN3_MIN_PIXELS = 65_536
QWEN3_MAX_PIXELS = 16_777_216


def qwen_resized_side(resolution: int, factor: int, min_pixels: int = QWEN_MIN_PIXELS,
                      max_pixels: int = QWEN_MAX_PIXELS) -> int:
    """The side a square image gets from the Qwen2-VL/2.5-VL/3-VL processor (transformers' smart_resize): the
    nearest multiple of `factor` (patch x merge: 28 px, Qwen3-VL 32 px), kept between min_pixels and max_pixels."""
    side = round(resolution / factor) * factor
    if side * side > max_pixels:
        return max(factor, math.floor(math.sqrt(max_pixels) / factor) * factor)
    if side * side < min_pixels:
        return math.ceil(math.sqrt(min_pixels) / factor) * factor
    return side


# The largest value of each vision_config count, as engine/input_bounds.py CONFIG_COUNTS bounds the text model's: far
# above any released tower (widths 1,024-1,280, 24-34 blocks, 16 heads, patch 14-16, merge 2, 2 frames a patch, 2,304
# learned positions) and low enough that no count of parameters, patches or bytes runs past 2^80 (10^18 blocks would).
VISION_MAXIMA = {"hidden_size": 1 << 20, "out_hidden_size": 1 << 20, "projector_input_dim": 1 << 20,
                 "projector_output_dim": 1 << 20, "intermediate_size": 1 << 24, "depth": 10_000,
                 "num_hidden_layers": 10_000, "num_heads": 65_536, "num_attention_heads": 65_536, "patch_size": 4_096,
                 "image_size": 65_536, "window_size": 65_536, "spatial_merge_size": 16, "temporal_patch_size": 64,
                 "num_position_embeddings": 1 << 24, "mm_tokens_per_image": 1 << 20}


def _int(cfg: dict[str, Any], key: str, default: int) -> int:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "vision_config '{key}' must be a positive whole number, not {value!r}."),
            key=key,
            value=value,
        )
    if value > VISION_MAXIMA.get(key, 1 << 20):
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be between {low} and {high}, "
                                                 "not {p}."), key=f"vision_config.{key}", low="1",
                               high=f"{VISION_MAXIMA.get(key, 1 << 20):,}", p=short_number(value))
    return value


def vision_from_config(config: dict[str, Any], text_hidden: int) -> VisionSpec | None:
    """The vision tower described by a multimodal config.json, or None for a text-only config."""
    vc = config.get("vision_config")
    if vc is None:
        return None
    if not isinstance(vc, dict):  # transformers keeps a text or a number there, then cannot build the tower from it
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "config.json 'vision_config' must be an object of the tower's settings, not {value!r}."), value=vc)
    parent = config.get("model_type")
    kind = _KINDS.get(str(vc.get("model_type"))) or _KINDS.get(str(parent))
    if parent == "gemma3":
        kind = "siglip"
    if kind is None:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "The vision tower '{kind}' of this model is not modelled yet."),
            kind=vc.get("model_type") or parent,
        )
    if kind == "siglip":  # transformers SiglipVisionConfig defaults for the keys Gemma 3 leaves out
        return _checked(VisionSpec(kind, _int(vc, "hidden_size", 768), _int(vc, "num_hidden_layers", 12),
                          _int(vc, "num_attention_heads", 12), _int(vc, "intermediate_size", 3072),
                          _int(vc, "patch_size", 16), _int(vc, "image_size", 224), text_hidden,
                          tokens_per_image_fixed=_int(config, "mm_tokens_per_image", 256)))
    if kind == "pixtral":  # PixtralVisionConfig defaults
        return VisionSpec(kind, _int(vc, "hidden_size", 1024), _int(vc, "num_hidden_layers", 24),
                          _int(vc, "num_attention_heads", 16), _int(vc, "intermediate_size", 4096),
                          _int(vc, "patch_size", 16), _int(vc, "image_size", 1024), text_hidden,
                          merge=_int(config, "spatial_merge_size", 2), gated_mlp=True, rms_norm=True)
    if kind == "qwen2_5_vl":  # Qwen2_5_VLVisionConfig defaults
        return _checked(VisionSpec(kind, _int(vc, "hidden_size", 1280), _int(vc, "depth", 32), _int(vc, "num_heads", 16),
                          _int(vc, "intermediate_size", 3420), _int(vc, "patch_size", 14), 14 * 32, text_hidden,
                          merge=_int(vc, "spatial_merge_size", 2), temporal_patch=_int(vc, "temporal_patch_size", 2),
                          out_hidden=_int(vc, "out_hidden_size", text_hidden), gated_mlp=True, rms_norm=True,
                          **_qwen2_5_vl_windows(vc)))
    if kind == "qwen3_vl":
        return _checked(_qwen3_vl_spec(vc, text_hidden, str(vc.get("model_type") or parent).startswith("qwen3_vl")))
    return VisionSpec(kind, _int(vc, "hidden_size", 768), _int(vc, "num_hidden_layers", 34),
                      _int(vc, "num_attention_heads", 16), _int(vc, "intermediate_size", 5632),
                      _int(vc, "patch_size", 14), _int(vc, "image_size", 448), text_hidden,
                      out_hidden=_int(vc, "projector_output_dim", 4096),
                      projector_in=_int(vc, "projector_input_dim", 4096))


def _checked(v: VisionSpec) -> VisionSpec:
    """A tower transformers can build and run with images, or one sentence. SigLIP's attention refuses a width its
    heads do not divide ("embed_dim must be divisible by num_heads"), and the Qwen towers' fused qkv is reshaped to
    (patches, 3, heads, -1), which fails the same way; the Qwen mergers' outputs replace the image tokens' embeddings
    (transformers models/qwen2_5_vl and qwen3_vl modeling get_placeholder_mask: `inputs_embeds[special_image_mask]
    .numel() != image_features.numel()` raises "Image features and image tokens do not match"), so out_hidden_size
    must be the language model's hidden_size."""
    if v.hidden % v.heads:
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "vision_config's {heads} heads do not divide its hidden_size {hidden}: transformers cannot split "
            "the tower's attention into heads."), heads=f"{v.heads:,}", hidden=f"{v.hidden:,}")
    if v.kind in ("qwen2_5_vl", "qwen3_vl") and v.out_hidden != v.text_hidden:
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "vision_config 'out_hidden_size' ({out}) is not the language model's hidden_size ({text}): the "
            "tower's outputs replace the image tokens' embeddings, so transformers refuses any batch with images."),
            out=f"{v.out_hidden:,}", text=f"{v.text_hidden:,}")
    return v


def _layer_list(vc: dict[str, Any], key: str, default: list[int], blocks: int) -> list[int]:
    """A vision_config list of block numbers (deepstack_visual_indexes, fullatt_block_indexes): distinct, each below the
    tower's depth. transformers builds one deepstack merger per entry but runs only the first for a block
    (`deepstack_visual_indexes.index(layer_num)`) and none for a number no block has, so a repeated or out-of-range
    entry adds a merger that never runs (10,000 of them at 4d x 4d would pass 2^80 bytes)."""
    value = vc.get(key, default)
    if not isinstance(value, list):
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "vision_config '{key}' must be a list, not {value!r}."),
                               key=key, value=value)
    if len(value) > blocks or len(set(map(repr, value))) != len(value) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < blocks for i in value):
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' must list distinct block numbers from 0 to {last} (the tower's depth less "
            "one)."), key=f"vision_config.{key}", last=f"{blocks - 1:,}")
    return value


def _qwen2_5_vl_windows(vc: dict[str, Any]) -> dict[str, int]:
    """Qwen2_5_VLVisionConfig's window attention (defaults window_size 112, fullatt_block_indexes [7, 15, 23, 31]):
    how many blocks attend over whole images, and a window's side in merged tokens."""
    full = _layer_list(vc, "fullatt_block_indexes", [7, 15, 23, 31], _int(vc, "depth", 32))
    window = _int(vc, "window_size", 112) // _int(vc, "spatial_merge_size", 2) // _int(vc, "patch_size", 14)
    return {"full_attention_blocks": len(full), "window_merged": window}


def _qwen3_vl_spec(vc: dict[str, Any], text_hidden: int, qwen3_vl: bool) -> VisionSpec:
    """Qwen3VLVisionConfig / Qwen3_5VisionConfig defaults (transformers 5.25.0 configuration_qwen3_vl.py lines 44-55,
    configuration_qwen3_5.py lines 136-146; Qwen3.5's class has no deepstack_visual_indexes, and its released
    config.json files say [] where they name it). The native size: the learned position grid, sqrt(positions) patches
    a side (48 x 16 = 768 px), which the tower resamples bilinearly to other sizes."""
    deepstack = _layer_list(vc, "deepstack_visual_indexes", [8, 16, 24] if qwen3_vl else [], _int(vc, "depth", 27))
    patch, positions = _int(vc, "patch_size", 16), _int(vc, "num_position_embeddings", 2304)
    return VisionSpec("qwen3_vl", _int(vc, "hidden_size", 1152), _int(vc, "depth", 27), _int(vc, "num_heads", 16),
                      _int(vc, "intermediate_size", 4304), patch, patch * math.isqrt(positions), text_hidden,
                      merge=_int(vc, "spatial_merge_size", 2), temporal_patch=_int(vc, "temporal_patch_size", 2),
                      out_hidden=_int(vc, "out_hidden_size", text_hidden), position_embeddings=positions,
                      deepstack_mergers=len(deepstack))


def tower_block_terms(v: VisionSpec, patches: float, compute_bytes: int) -> list[tuple[str, float]]:
    """Tensors one trained ViT block keeps for backward over `patches` tokens (SDPA, pre-norm).

    Per operation of the transformers modules, like the decoder layers (engine/memory/activations.py). Traced for SigLIP
    (Gemma 3), Qwen2.5-VL, Llama 4 and Pixtral (Mistral 3) (tests/data/ground_truth/*_img*).
    """
    n, d, f, c = patches, v.hidden, v.ffn, compute_bytes
    out: list[tuple[str, float]] = []
    for label in ("attention norm", "MLP norm"):
        if v.rms_norm:  # HF RMSNorm keeps its fp32 input and the normalised input for the weight's gradient
            out.append((f"vision {label}: fp32 input + normalised input", (4 + c) * n * d))
        else:  # LayerNorm keeps its input and fp32 mean/rstd per token
            out.append((f"vision {label}: input and statistics", c * n * d + 8 * n))
    out.append(("vision attention: norm output kept by the q/k/v projections", c * n * d))
    if v.kind in ("qwen2_5_vl", "qwen3_vl"):
        # One fused qkv projection: V is a view of its output, so SDPA keeps the whole 3·d output alive, plus
        # the rotated Q and K (new tensors). Window attention runs SDPA per window (cu_seqlens) and concatenates:
        # the per-window outputs (kept by SDPA) and their concatenation (kept by the output projection) both live.
        # Qwen3-VL / Qwen3.5 (modeling_qwen3_5.py lines 1085-1165) run the same code over one window per image.
        out.append(("vision attention: fused qkv output (V is a view of it) + rotated Q and K", 5 * c * n * d))
        out.append(("vision attention: per-window outputs (SDPA) + their concatenation (output projection) "
                    "+ logsumexp", 2 * c * n * d + 4 * n * v.heads))
    else:
        out.append(("vision attention: Q, K, V kept by SDPA", 3 * c * n * d))
        out.append(("vision attention: output (kept by SDPA and the output projection) + logsumexp",
                    c * n * d + 4 * n * v.heads))
    out.append(("vision MLP: norm output kept by the first projection", c * n * d))
    if v.gated_mlp:  # down(act(gate(x)) * up(x)): the product is a fourth tensor, kept by the down projection
        out.append(("vision MLP: gate output, activation output, up output, their product (SwiGLU)", 4 * c * n * f))
    else:
        out.append(("vision MLP: fc1 output and GELU output", 2 * c * n * f))
    return out


def tower_outside_bytes(v: VisionSpec, patches: float, compute_bytes: int) -> float:
    """What a trained tower keeps outside its blocks: patch embedding, norms, merger/projector inputs (traced for
    Gemma 3, Qwen2.5-VL, Llama 4 and Mistral 3's Pixtral)."""
    n, d, c = patches, v.hidden, compute_bytes
    if v.kind == "qwen2_5_vl":
        # PatchMerger: RMSNorm (fp32 input, normalised input, output kept by the first Linear), the first Linear's
        # output and the GELU output (kept by the second Linear); the 2-D rotary cos/sin tables (fp32, per patch).
        return (4 + 4 * c) * n * d + 2 * 4 * n * (d // v.heads)
    if v.kind == "qwen3_vl":
        return _qwen3_vl_outside_bytes(v, n, c)
    if v.kind == "llama4":
        # Per tile: `grid` patches + a class token. The unfold output (kept by the patch linear), the pre/post
        # LayerNorms' inputs and statistics, and the pixel-shuffle MLP (ratio 0.5: a quarter of the patches, four
        # times as wide): its fc1 input, fc1 and GELU outputs, fc2 and GELU outputs (the last kept by the projector).
        grid = (v.image_size // v.patch) ** 2
        n_patches = n * grid / (grid + 1)
        shuffled = n_patches / 4
        return (c * n_patches * 3 * v.patch**2 + 2 * (c * n * d + 8 * n) + c * n_patches * d
                + c * shuffled * 2 * (v.projector_in + v.out_hidden))
    if v.kind == "pixtral":
        # ln_pre (fp32 input + normalised), the block-diagonal attention mask over every patch of the micro-batch
        # (compute dtype, kept by each block's SDPA), the 2-D rotary cos/sin; Mistral3's projector: RMSNorm, the patch
        # merger's unfolded input (kept by its Linear), linear_1's input, and the GELU's input and output.
        merged = n / v.merge**2
        return ((4 + c) * n * d + c * n * n + 2 * c * n * (d // v.heads) + (4 + c) * n * d + c * n * d
                + c * merged * d + 2 * c * merged * v.text_hidden)
    return 2 * c * n * d


def _qwen3_vl_outside_bytes(v: VisionSpec, n: float, c: int) -> float:
    """Qwen3-VL / Qwen3.5 outside the blocks, per operation of transformers 5.25.0 modeling_qwen3_5.py lines
    1035-1066 and 1245-1268 (Qwen3-VL's modeling_qwen3_vl.py the same, plus its deepstack mergers)."""
    d = v.hidden
    # Conv3d keeps its input, the pixel patches cast to the weight's dtype (3 x temporal x patch^2 values a patch);
    # pos_embed keeps its 4 bilinear indices (int64, the lookup's) and weights (fp32, the product's) a patch
    # (vision_utils.py get_vision_interpolation_indices_and_weights); the 2-D rotary cos/sin (fp32, head_dim a patch).
    embed = c * n * 3 * v.temporal_patch * v.patch**2 + (8 + 4) * 4 * n + 2 * 4 * n * (d // v.heads)
    # PatchMerger: LayerNorm(d) keeps its input (the last block's output) and fp32 mean/rstd; its output (kept by
    # linear_fc1, as n/4 rows of 4d), linear_fc1's output (kept by the GELU) and the GELU's (kept by linear_fc2).
    merger = 4 * c * n * d + 8 * n
    # A deepstack merger reads a block's output that the next block's norm keeps already: its LayerNorm over 4d
    # (statistics per merged row), output, linear_fc1 and GELU outputs are its own.
    deepstack = v.deepstack_mergers * (3 * c * n * d + 8 * n / v.merge**2)
    return embed + merger + deepstack


def tower_activation_bytes(v: VisionSpec, patches: float, compute_bytes: int, checkpointed: bool = False) -> float:
    """All blocks of a trained tower plus what it keeps outside them (one micro-batch).

    Checkpointed (transformers' gradient checkpointing wraps every tower block too): each block keeps its input.
    """
    outside = tower_outside_bytes(v, patches, compute_bytes)
    if checkpointed:
        return v.layers * compute_bytes * patches * v.hidden + outside
    return v.layers * tower_block_bytes(v, patches, compute_bytes) + outside


def tower_block_bytes(v: VisionSpec, patches: float, compute_bytes: int) -> float:
    """One block's saved tensors (what checkpointing rebuilds during the tower's backward)."""
    return sum(b for _, b in tower_block_terms(v, patches, compute_bytes))


def tower_forward_peak_bytes(v: VisionSpec, patches: float, images: int, compute_bytes: int,
                             eager: bool = False) -> float:
    """The largest moment of a frozen tower's forward (no tensor saved for backward): one block's input (the residual)
    plus that block's largest working set over `patches` patches of `images` images (one micro-batch).

    Per operation of the transformers modules (5.25.0 modeling_qwen3_vl.py lines 193-204 apply_rotary_pos_emb_vision,
    244-330 the attention, 77-87 the MLP; Qwen2.5-VL's and Qwen3.5's the same code), the Qwen towers measured by
    validation/frozen_tower_forward_trace.py (bf16, one 768 px image: SDPA 32 x hidden bytes a patch above the input,
    eager 12 x hidden a patch + 10 bytes a score), and SigLIP's (Gemma 3) by the same script.
    """
    n, d, f, c = patches, v.hidden, v.ffn, compute_bytes
    per_image = n / max(images, 1)
    qwen = v.kind in ("qwen2_5_vl", "qwen3_vl")
    if qwen:
        # norm output (kept by the call), the fused qkv output (q, k, v are views of it) and, at k's rotation, six
        # fp32 q/k-sized tensors: q.float(), q's rotated result, k.float(), k * cos, rotate_half(k) and its product
        attention = c * 4 * d * n + 6 * 4 * d * n
    else:  # norm output, Q, K, V and the attention output (the towers' rotary copies are not counted)
        attention = c * 5 * d * n
    if eager:
        # eager_attention_forward's softmax(scores, dtype=float32): ATen's softmax (aten/src/ATen/native/SoftMax.cpp,
        # softmax with dtype) casts bf16 scores to an fp32 copy, then writes an fp32 output: scores + copy + output
        # alive at once (fp16 on CUDA takes a fused path, scores + output + the cast back: less). The Qwen towers loop
        # over the images (cu_seqlens), the others batch them (Pixtral: one block-diagonal sequence of all patches).
        scores = v.heads * (per_image**2 if qwen else (n**2 if v.kind == "pixtral" else per_image * n))
        # beside them: the norm output and q, k, v (the Qwen towers: qkv and the rotated q and k, compute dtype)
        attention = max(attention, c * (6 if qwen else 4) * d * n + (c + 8) * scores)
    # the MLP: the residual sum (the encoder loop still holds the block's input), the norm output and fc1 + activation
    # outputs, or SwiGLU's activation, up output and their product
    mlp = c * (2 * d + (3 * f if v.gated_mlp else 2 * f)) * n
    return c * d * n + max(attention, mlp)
