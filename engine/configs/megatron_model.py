"""The model of a Megatron-LM launch script, from its shape flags (--num-layers, --hidden-size, ...): a Llama-style
shape (--swiglu, RMSNorm, rotary positions) becomes a custom model (the Hugging Face config.json it would have); a
GPT-style or incomplete one is listed as not modelled. engine/configs/megatron.py reads the rest of the script.
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import model_presets
from .common import as_int
from .megatron_preset import preset_with_shape
from .result import Collector
from .rl_common import as_fraction

# tokenizer -> vocabulary size when --vocab-size is not given (the tokenizers' published sizes)
_TOKENIZER_VOCAB = {"GPT2BPETokenizer": 50257, "Llama2Tokenizer": 32000}


def flag_int(a: dict[str, Any], flag: str) -> int | None:
    """The flag's whole-number value, None where the script does not set it (or sets no number)."""
    return as_int(a.get(flag)) if flag in a else None


# the flags that describe the model's shape: read into a custom model, or listed as used when it is not modelled
_SHAPE_FLAGS = (
    "--num-layers",
    "--hidden-size",
    "--num-attention-heads",
    "--ffn-hidden-size",
    "--num-query-groups",
    "--group-query-attention",
    "--kv-channels",
    "--max-position-embeddings",
    "--vocab-size",
    "--swiglu",
    "--normalization",
    "--untie-embeddings-and-output-weights",
    "--disable-bias-linear",
    "--add-qkv-bias",
    "--position-embedding-type",
    "--num-experts",
    "--moe-router-topk",
    "--moe-ffn-hidden-size",
    "--rotary-base",
    "--rotary-percent",
    "--tokenizer-type",
)


def read_model(c: Collector, a: dict[str, Any]) -> None:
    """A Llama-style shape (SwiGLU, RMSNorm) becomes a custom model; a GPT-style one or an incomplete one is listed."""
    layers, hidden = flag_int(a, "--num-layers"), flag_int(a, "--hidden-size")
    heads = flag_int(a, "--num-attention-heads")
    if _shape_of_no_size(a):
        _shape_not_read(c, a)
        return
    # a SwiGLU shape with Megatron's default LayerNorm (NVIDIA's own llama3 8B example) is Llama's but for the norm,
    # whose weight and bias (2 x hidden per norm) and saved input are those of RMSNorm bar the bias: read as Llama's
    norm = str(a.get("--normalization", "LayerNorm"))
    llama_like = "--swiglu" in a and norm in ("RMSNorm", "LayerNorm")
    if not llama_like:
        c.skip(
            "--num-layers",
            message(
                QT_TRANSLATE_NOOP(
                    "engine", "a GPT-style model (LayerNorm, GELU MLP) is not modelled; pick the model in the planner"
                )
            ),
        )
        c.use(*[f for f in _SHAPE_FLAGS if f in a])
        return
    vocab_and_note = _vocab_size(a)
    if vocab_and_note is None:
        _shape_not_read(c, a, "--tokenizer-type", message(QT_TRANSLATE_NOOP(
            "engine", "the vocabulary size is unknown (no --vocab-size); pick the model in the planner")))
        return
    vocab, vocab_note = vocab_and_note
    cfg = _hf_config(a, layers, hidden, heads, vocab)
    _rotary_percent(c, a, cfg)
    c.use(*[f for f in _SHAPE_FLAGS if f in a], "--apply-layernorm-1p")
    if (preset := preset_with_shape(cfg)) is not None:
        c.assume("model", preset, _preset_note(preset, norm, "--apply-layernorm-1p" in a), "--num-layers")
        return
    experts = flag_int(a, "--num-experts")
    name = f"Megatron {'MoE ' if experts else ''}model ({layers} layers, hidden {hidden})"
    c.set("model", {"name": name, "hf_config": cfg}, "--num-layers")
    if vocab_note:
        c.assume("model", {"name": name, "hf_config": cfg}, vocab_note)
    if norm != "RMSNorm":
        c.assume("model", {"name": name, "hf_config": cfg}, message(QT_TRANSLATE_NOOP(
            "engine", "a SwiGLU model with LayerNorm: read as Llama's shape with RMSNorm (one bias of the model's width "
            "less per norm, the same saved input)")))


def _shape_not_read(c: Collector, a: dict[str, Any], anchor: str = "--num-layers", why: Message | None = None) -> None:
    """Each shape flag the script sets (and `anchor`) listed with why the shape is not read: `why`, else a flag
    missing, or one whose value is no whole number above 0 (h-fuzz12: "--hidden-size 0", "nan" or "--vocab-size 3.5"
    left the other shape flags listed as "not read by the planner", -5 as a rejected config.json, and a --vocab-size
    of no size as "no --vocab-size")."""
    bad = next((f for f in ("--num-layers", "--hidden-size", "--num-attention-heads", "--vocab-size")
                if f in a and not (flag_int(a, f) or 0) > 0), None)
    if why is None and bad is None:
        why = message(QT_TRANSLATE_NOOP(
            "engine", "the model's shape (--num-layers, --hidden-size, --num-attention-heads) is incomplete"))
    elif why is None:
        why = message(QT_TRANSLATE_NOOP("engine", "{flag} {value!r} is not a whole number of at least 1, so the "
                                                  "model's shape is not read; pick the model in the planner"),
                      flag=bad, value=a[bad])
    for flag in [anchor, *(f for f in _SHAPE_FLAGS if f in a and f != anchor)]:
        c.skip(flag, why)


def _shape_of_no_size(a: dict[str, Any]) -> bool:
    """Whether a shape flag the script sets is no whole number above 0, or one of the three it needs is missing."""
    return any(not (flag_int(a, f) or 0) > 0 for f in ("--num-layers", "--hidden-size", "--num-attention-heads")) or (
        "--vocab-size" in a and not (flag_int(a, "--vocab-size") or 0) > 0)


def _preset_note(preset: str, norm: str, one_plus: bool) -> Message:
    """Why the script's model is the preset: its shape, and the norm where the script's differs from the preset's."""
    name = model_presets()[preset].name
    if norm == "RMSNorm":
        return message(QT_TRANSLATE_NOOP("engine", "the script's shape (layers, widths, heads, vocabulary) is {name}'s"),
                       name=name)
    flag = "--apply-layernorm-1p" if one_plus else "no --normalization"
    return message(QT_TRANSLATE_NOOP(
        "engine", "the script's shape (layers, widths, heads, vocabulary) is {name}'s; its norm is LayerNorm ({flag}) "
        "where {name} has RMSNorm: one bias of the model's width more per norm, the same saved input"),
        name=name, flag=flag)


def _rotary_percent(c: Collector, a: dict[str, Any], cfg: dict[str, Any]) -> None:
    """--rotary-percent, the share of each head the rotary embedding rotates (a fraction despite its name: Megatron-LM
    arguments.py `--rotary-percent` type=float default 1.0; RotaryEmbedding's dim = int(kv_channels x rotary_percent),
    megatron/core/models/common/embeddings/rotary_pos_embedding.py at NVIDIA/Megatron-LM ba773259 lines 68-70), as
    the config.json's partial_rotary_factor the model reader takes (hf_config.rotary_fraction); a value outside
    (0, 1] is left out."""
    if "--rotary-percent" not in a:
        return
    fraction = as_fraction(a["--rotary-percent"])
    if fraction is None:
        c.skip("--rotary-percent", message(QT_TRANSLATE_NOOP(
            "engine", "expected a fraction above 0 and at most 1, found {value!r}"), value=a["--rotary-percent"]))
    elif fraction != 1.0:
        cfg["partial_rotary_factor"] = fraction


def _vocab_size(a: dict[str, Any]) -> tuple[int, str] | None:
    """(--vocab-size or the tokenizer's published size, a note when it came from the tokenizer); None: unknown."""
    vocab = flag_int(a, "--vocab-size")
    if vocab is not None:
        return vocab, ""
    tok = a.get("--tokenizer-type")
    vocab = _TOKENIZER_VOCAB.get(str(tok))
    if vocab is None:
        return None
    return vocab, f"vocabulary size {vocab} of {tok} (no --vocab-size)"


def _hf_config(a: dict[str, Any], layers: int, hidden: int, heads: int, vocab: int) -> dict[str, Any]:
    """The Hugging Face config.json the custom model is built from."""
    experts = flag_int(a, "--num-experts")
    cfg: dict[str, Any] = {
        # --add-qkv-bias: biases on q, k and v only, as Qwen2's attention has them (transformers Qwen2Attention)
        "model_type": "mixtral" if experts else "qwen2" if "--add-qkv-bias" in a else "llama",
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": flag_int(a, "--num-query-groups") if "--group-query-attention" in a else heads,
        "intermediate_size": flag_int(a, "--ffn-hidden-size") or 4 * hidden,
        "vocab_size": vocab,
        "max_position_embeddings": flag_int(a, "--max-position-embeddings") or flag_int(a, "--seq-length") or 4096,
        "tie_word_embeddings": "--untie-embeddings-and-output-weights" not in a,
    }
    if flag_int(a, "--kv-channels"):
        cfg["head_dim"] = flag_int(a, "--kv-channels")
    if experts:
        cfg["num_local_experts"] = experts
        cfg["num_experts_per_tok"] = flag_int(a, "--moe-router-topk") or 2
        if flag_int(a, "--moe-ffn-hidden-size"):
            cfg["intermediate_size"] = flag_int(a, "--moe-ffn-hidden-size")
    return cfg
