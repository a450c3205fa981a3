"""Weight formats a serving engine loads (presets/weight_formats.json): bits per weight of each tensor, and which
tensors a format keeps at higher precision. GGUF types take their sizes from ggml's block structs and their
per-tensor choices from llama.cpp's llama_tensor_get_type (sources in the data file)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import PresetError
from ..messages import shown
from ..paths import data_dir
from .presets import DAMAGED, read_preset_json

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
    overrides, `non_expert` the type of every tensor but the experts (MXFP4_MOE)."""

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
    embeddings: str = ""  # "quantized": the token embeddings and lm_head take the format's bits (MLX's nn.quantize)
    engines: tuple[str, ...] = ()  # the serving engines that load the format (none named: any that is not GGUF's)

    @property
    def is_gguf(self) -> bool:
        return bool(self.gguf)


FILE_NAME = "weight_formats.json"
_NUMBERS = ("bits", "group", "group_bits", "column_bits", "row_bits")
_TEXTS = ("only", "gguf", "output", "non_expert", "source", "embeddings")


def _read() -> dict[str, Any]:
    data = read_preset_json(data_dir("presets") / FILE_NAME)
    if not isinstance(data, dict) or not isinstance(data.get("formats"), dict):
        raise PresetError(DAMAGED, name=FILE_NAME, entry="formats", found=shown(repr(
            data.get("formats") if isinstance(data, dict) else data))[:60])
    return data


def _damaged(entry: str, found: Any) -> PresetError:
    return PresetError(DAMAGED, name=FILE_NAME, entry=entry, found=shown(repr(found))[:60])


def _checked_format(name: str, raw: Any) -> dict[str, Any]:
    """A format's entry with the types _format reads (finite numbers >= 0, bits above 0, texts, a list of engine
    names, rules of three texts), or one sentence naming the file and the entry (a traceback or a NaN size before)."""
    if not isinstance(raw, dict):
        raise _damaged(f"formats.{name}", raw)
    for key in _NUMBERS:
        value = raw.get(key)
        if key in raw and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or not math.isfinite(value) or value < 0 or (key == "bits" and not 0 < value <= 64)
                                  or (key == "group" and value != int(value))):
            raise _damaged(f"formats.{name}.{key}", value)
    for key in _TEXTS:
        if not isinstance(raw.get(key, ""), str):
            raise _damaged(f"formats.{name}.{key}", raw[key])
    engines, rules = raw.get("engines", []), raw.get("rules", [])
    if not isinstance(engines, list) or not all(isinstance(e, str) and e for e in engines):
        raise _damaged(f"formats.{name}.engines", engines)
    if not isinstance(rules, list) or not all(isinstance(r, list) and len(r) == 3 and all(isinstance(t, str) for t in r)
                                              for r in rules):
        raise _damaged(f"formats.{name}.rules", rules)
    return raw


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
def _catalog() -> tuple[dict[str, WeightFormat], dict[str, PresetError]]:
    """The formats whose entries read as formats, and per name of the others (or "" for a file that cannot be read)
    the sentence naming the file: the scenario's choices are read at import, so a damaged entry raised there stopped
    every command and the window from starting; now a plan naming it is refused with the sentence and the window says
    it at start (gui/app.py)."""
    try:
        raw_formats = _read()["formats"]
    except PresetError as exc:
        return {}, {"": exc}
    formats: dict[str, WeightFormat] = {}
    damaged: dict[str, PresetError] = {}
    for name, raw in raw_formats.items():
        try:
            formats[name] = _format(name, _checked_format(name, raw))
        except PresetError as exc:
            damaged[name] = exc
    return formats, damaged


def weight_formats() -> dict[str, WeightFormat]:
    return _catalog()[0]


def damaged_weight_formats() -> tuple[PresetError, ...]:
    """One sentence per damaged entry of presets/weight_formats.json, or for the file (the window says them at start)."""
    return tuple(_catalog()[1].values())


def weight_format(name: str) -> WeightFormat:
    """A format of the data file; one sentence naming the file where the scenario's format is damaged there or gone
    from it (the scenario's choices were read at import)."""
    formats, damaged = _catalog()
    if name not in formats:
        raise damaged.get(name) or damaged.get("") or _damaged(f"formats.{name}", "no such entry")
    return formats[name]


def weight_format_names() -> tuple[str, ...]:
    """The scenario's choices: the checkpoint's own format first, then the data file's formats in its order (a damaged
    one too: a plan naming it is told which file and entry, not that the name is unknown)."""
    return (CHECKPOINT, *weight_formats(), *(name for name in _catalog()[1] if name))


def gguf_format_names() -> tuple[str, ...]:
    return tuple(name for name, f in weight_formats().items() if f.is_gguf)


@cache  # read on every inference scenario's check (serving_keys.py check_serving)
def format_engines() -> dict[str, tuple[str, ...]]:
    """The formats only some engines load (MLX's affine 4- and 8-bit: mlx-lm), format -> those engines."""
    return {name: f.engines for name, f in weight_formats().items() if f.engines}


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
