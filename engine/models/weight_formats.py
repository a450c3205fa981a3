"""Weight formats a serving engine loads (presets/weight_formats.json): bits per weight of each tensor, and which
tensors a format keeps at higher precision. GGUF types take their sizes from ggml's block structs and their
per-tensor choices from llama.cpp's llama_tensor_get_type (sources in the data file)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..paths import data_dir
from .presets import read_preset_json

CHECKPOINT = "checkpoint"


@dataclass(frozen=True, slots=True)
class GgufRule:
    """One llama_tensor_get_type override: tensors whose GGUF name holds `tensor` take `ggml_type` on the layers
    `layers` selects (all | use_more_bits | first_2 | after_2 | first_4 | first_eighth | first_sixteenth |
    after_sixteenth | gqa_4 | gqa_below_4)."""

    tensor: str
    ggml_type: str
    layers: str


@dataclass(frozen=True, slots=True)
class WeightFormat:
    """A deployed weight format. Dense formats: `bits` per linear weight plus `group_bits` per `group` weights, plus
    `column_bits` per output column and `row_bits` per input row; `only` "experts" quantizes the MoE experts alone.
    GGUF formats: `gguf` is the ftype's default ggml type, `output` the type of output.weight, `rules` the per-tensor
    overrides, `non_expert` the type of every tensor but the experts (MXFP4_MOE). `embeddings` "quantized": the token
    embedding and lm_head take the format's bits too (MLX's affine formats); `engines`: the serving engines that read
    the format (empty: any, as the consistency check of engine/scenario/serving_keys.py reads it)."""

    name: str
    bits: float = 16.0
    group: int = 0
    group_bits: float = 0.0
    column_bits: float = 0.0
    row_bits: float = 0.0
    only: str = ""
    gguf: str = ""
    output: str = "Q6_K"
    non_expert: str = ""
    rules: tuple[GgufRule, ...] = ()
    source: str = ""
    embeddings: str = ""
    engines: tuple[str, ...] = ()

    @property
    def is_gguf(self) -> bool:
        return bool(self.gguf)


def _read() -> dict[str, Any]:
    return read_preset_json(data_dir("presets") / "weight_formats.json")


@cache
def ggml_types() -> dict[str, tuple[int, int]]:
    """ggml type -> (elements per block, bytes per block)."""
    return {name: (int(v[0]), int(v[1])) for name, v in _read()["ggml_types"].items()}


def ggml_bits(ggml_type: str) -> float:
    """Bits per weight of a ggml type (Q4_K: 144 bytes per 256 weights = 4.5)."""
    elements, n_bytes = ggml_types()[ggml_type]
    return 8 * n_bytes / elements


def _format(name: str, raw: dict[str, Any]) -> WeightFormat:
    rules = tuple(GgufRule(*rule) for rule in raw.get("rules", ()))
    default_output = "F16" if raw.get("gguf") in ("F16", "BF16") else "Q6_K"
    return WeightFormat(name=name, bits=float(raw.get("bits", 16)), group=int(raw.get("group", 0)),
                        group_bits=float(raw.get("group_bits", 0)), column_bits=float(raw.get("column_bits", 0)),
                        row_bits=float(raw.get("row_bits", 0)), only=raw.get("only", ""), gguf=raw.get("gguf", ""),
                        output=raw.get("output", raw.get("gguf", "") if default_output == "F16" else default_output),
                        non_expert=raw.get("non_expert", ""), rules=rules, source=raw.get("source", ""),
                        embeddings=raw.get("embeddings", ""), engines=tuple(raw.get("engines", ())))


@cache
def weight_formats() -> dict[str, WeightFormat]:
    return {name: _format(name, raw) for name, raw in _read()["formats"].items()}


def weight_format_names() -> tuple[str, ...]:
    """The scenario's choices: the checkpoint's own format first, then the data file's formats in its order."""
    return (CHECKPOINT, *weight_formats())


def format_read_by(name: str, engine: str) -> bool:
    """Whether serving engine `engine` reads weight format `name`: a format that lists its engines (MLX's affine
    formats: mlx) is read by those alone; the others (and the checkpoint's own) by any."""
    f = weight_formats().get(name)
    return f is None or not f.engines or engine in f.engines


def gguf_format_names() -> tuple[str, ...]:
    return tuple(name for name, f in weight_formats().items() if f.is_gguf)


def attn_v_type_70b(ggml_type: str, model_type: str, layers: int, heads: int, kv_heads: int) -> str:
    """llama_tensor_get_type's bump of attn_v for a LLaMA 70B-class model (LLM_TYPE_70B: the llama architecture with
    the data file's layer count and grouped KV heads): Q3_K / Q4_K become Q5_K, as 8 heads share attn_v."""
    rule = _read().get("attn_v_70b", {})
    if (model_type in rule.get("model_types", ()) and layers == rule.get("layers") and kv_heads < heads
            and ggml_type in rule.get("from", ())):
        return str(rule["to"])
    return ggml_type


def use_more_bits(i_layer: int, n_layers: int) -> bool:
    """llama.cpp's use_more_bits: the first and last eighth of the layers and every third in between."""
    return i_layer < n_layers // 8 or i_layer >= 7 * n_layers // 8 or (i_layer - n_layers // 8) % 3 == 2


def rule_applies(layers: str, i_layer: int, n_layers: int, gqa: int) -> bool:
    """Whether a GgufRule's layer selector picks layer `i_layer` of `n_layers` (gqa = heads / kv_heads)."""
    if layers == "use_more_bits":
        return use_more_bits(i_layer, n_layers)
    selectors = {"all": True, "first_2": i_layer < 2, "after_2": i_layer >= 2, "first_4": i_layer < 4,
                 "first_eighth": i_layer < n_layers // 8, "first_sixteenth": i_layer < n_layers // 16,
                 "after_sixteenth": i_layer >= n_layers // 16, "gqa_4": gqa >= 4, "gqa_below_4": gqa < 4}
    return selectors.get(layers, False)
