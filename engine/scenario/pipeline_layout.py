"""Megatron-Core's pipeline layout string (pipeline_model_parallel_layout), read as Megatron reads it.

megatron/core/transformer/pipeline_parallel_layer_layout.py at d98e8a6 (PipelineParallelLayerLayout.
parse_str_to_list): "|" separates the pipeline chunks (pp x vpp of them, chunk v * pp + r on rank r), "E" is the
embedding, "t" a decoder layer, "m" a multi-token-prediction layer, "L" the loss; "(...)*n" repeats a group and
"x*n" a letter; commas are cosmetic. Megatron-Bridge's DeepSeek-V3 recipes end it with "1 decoder + MTP + loss"
("Et*4|(t*4|)*14tmL": src/megatron/bridge/recipes/deepseek/deepseek_v3.py layout_map, v0.2.0 to v0.5.1).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..errors import ScenarioError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec

LAYOUT_LETTERS = "EtmL"
MAX_LAYOUT_CHUNKS = 4096  # pp x vpp of a layout: far above any run's (Megatron-Bridge's largest: 32)
_GROUP = re.compile(r"\(([^()]+)\)\*(\d+)")
_LETTER = re.compile(r"(.)\*(\d+)")


@lru_cache(maxsize=64)
def layout_chunks(layout: str) -> tuple[str, ...]:
    """The layout's chunks, one string of letters each ("" for no layout: none)."""
    if not layout:
        return ()
    text = layout.replace(",", "")
    for pattern in (_GROUP, _LETTER):  # Megatron unrolls the groups first, then the letters
        text = pattern.sub(lambda m: m.group(1) * min(int(m.group(2)), MAX_LAYOUT_CHUNKS), text)
        if len(text) > 64 * MAX_LAYOUT_CHUNKS:
            break
    return tuple(text.split("|"))


def parse_pipeline_layout(value: Any) -> str:
    """The layout as written, once its letters, repeats and shape are ones Megatron accepts."""
    if not isinstance(value, str):
        raise ScenarioError("pipeline_layout", QT_TRANSLATE_NOOP("engine", "must be text."))
    if not value:
        return value
    chunks = layout_chunks(value) if len(value) <= 1000 else ()
    flat = "".join(chunks)
    if (not chunks or len(chunks) > MAX_LAYOUT_CHUNKS or set(flat) - set(LAYOUT_LETTERS) or flat.count("E") != 1
            or flat.count("L") != 1 or not flat.startswith("E") or not flat.endswith("L")
            or "t" in flat[flat.find("m"):] and "m" in flat):
        raise ScenarioError("pipeline_layout", QT_TRANSLATE_NOOP(
            "engine", 'must be a Megatron pipeline layout: chunks of E (embedding, first), t (decoder layer), m (MTP '
                      'layer, after every t) and L (loss, last) separated by "|", with (...)*n and t*n repeats, e.g. '
                      '"Et*4|(t*4|)*14tmL", or "" for none; not {p!r}.'), p=value[:80])
    return value


def uneven_layout(layers: int, chunks: int, mtp: int) -> str | None:
    """The Megatron pipeline layout of `chunks` chunks that Megatron-Bridge's DeepSeek-V3 recipes write for a layer
    count that does not split evenly (deepseek_v3.py layout_map, and the performance presets' "Et|(tt|)*30mL"):
    ceil(layers / chunks) decoder layers a chunk, the embedding in the first, the rest with the MTP layers and the
    loss in the last; where the rest falls short of nothing, the first chunk gives up the difference (the H100
    preset's 32 chunks of 61 layers: 1, 2 x 30, 0). None where the first chunk would be left without a layer."""
    per = -(-layers // chunks)
    rest = layers - (chunks - 1) * per
    first = per + min(rest, 0)
    if chunks < 2 or first < 1:
        return None
    middle = "" if chunks == 2 else f"{_t(per)}|" if chunks == 3 else f"({_t(per)}|)*{chunks - 2}"
    return f"E{_t(first)}|{middle}{_t(max(rest, 0))}" + "m" * mtp + "L"


def _t(n: int) -> str:
    """n decoder layers as the recipes write them: "t", "tt", "t*4"."""
    return "t" * n if n < 3 else f"t*{n}"


def trained_mtp_layers(s: object, spec: ModelSpec) -> int:
    """MTP layers the step trains: Megatron's (Transformer Engine layers) in full training, the mtp_layers key's
    count or, on auto, the checkpoint's (num_nextn_predict_layers); 0 elsewhere (transformers does not build them)."""
    if not defaults_for(s.framework).te_layers or s.method != "full":  # type: ignore[attr-defined]
        return 0
    n = s.mtp_layers  # type: ignore[attr-defined]
    return spec.mtp_layers if n == "auto" else int(n)
