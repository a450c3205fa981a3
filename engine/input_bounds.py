"""Every number a user can hand the engine, checked in one place before it is used. Pure Python, no Qt.

Scenario keys and the values of an imported config.json (hf_config) are type- and range-checked here, so that
no value can make the estimator overflow, hang, allocate gigabytes or report negative memory. The upper bounds
are far above any real run or released model (they are listed in docs/scenario-format.md); a value beyond them
is a typo or damage, and is refused with one sentence naming the key.
"""

from __future__ import annotations

import math
from typing import Any

from .errors import ModelConfigError, ScenarioError
from .messages import QT_TRANSLATE_NOOP

# ---- scenario keys ---------------------------------------------------------------------------------------------

# The largest value of each scenario key is declared with the key (engine/scenario.py, SCENARIO_MAXIMA there).
ANY_COUNT_MAX = 2**60  # any other whole number in a scenario (bucket sizes, bytes): beyond it nothing is real
GPU_MEMORY_MAX_BYTES = 2**50  # 1 PiB per card
NAME_MAX_CHARS = 500
NOTES_MAX_CHARS = 1_000_000  # long notes are fine; the 8 MB file cap is the real bound


def short_number(value: Any) -> str:
    """A number as a user can read it in a message: 10^308 is not printed with 309 digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"{float(value):.3g}" if abs(value) < 10**300 else f"a number with {len(str(abs(value)))} digits"
    return repr(value)


def check_number_bound(key: str, value: Any, maximum: int | float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return  # types are checked by each key's own parser, with its own sentence
    if isinstance(value, float) and not math.isfinite(value):
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a finite number, not {p}."), p=repr(value))
    if value > maximum:
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be at most {maximum}, not {p}."),
                            maximum=f"{maximum:,}", p=short_number(value))


def check_scenario_numbers(data: dict[str, Any], maxima: dict[str, int | float]) -> None:
    """Upper bounds (`maxima`, ANY_COUNT_MAX for a key not in it) and finiteness of every number in a scenario
    object, before any key is parsed."""
    for key, value in data.items():
        check_number_bound(key, value, maxima.get(key, ANY_COUNT_MAX))
    for key, limit in (("name", NAME_MAX_CHARS), ("notes", NOTES_MAX_CHARS)):
        if isinstance(data.get(key), str) and len(data[key]) > limit:
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "is longer than {limit} characters."),
                                limit=f"{limit:,}")
    gpu = data.get("gpu")
    if isinstance(gpu, dict):
        check_number_bound("gpu", gpu.get("memory_bytes"), GPU_MEMORY_MAX_BYTES)
        if isinstance(gpu.get("name"), str) and len(gpu["name"]) > NAME_MAX_CHARS:
            raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "the name is longer than {limit} characters."),
                                limit=NAME_MAX_CHARS)


# ---- config.json (hf_config) ------------------------------------------------------------------------------------

# key -> (smallest, largest) accepted whole number. 0 means "absent, use the default" where the architecture code
# reads the key with `or`. Largest released models: hidden 18,432 (Llama-3.1-405B ~16k), 126 layers, 256 experts,
# vocab 256k, context 10M tokens; the bounds leave ample room.
CONFIG_COUNTS: dict[str, tuple[int, int]] = {
    "hidden_size": (1, 1 << 20),
    "d_model": (1, 1 << 20),  # MPT's names for hidden_size, num_attention_heads, num_hidden_layers and
    "n_heads": (1, 65_536),  # max_position_embeddings
    "n_layers": (1, 10_000),
    "max_seq_len": (0, 1 << 40),
    "n_embd": (1, 1 << 20),  # GPT-2's names for the same
    "n_head": (1, 65_536),
    "n_layer": (1, 10_000),
    "n_positions": (0, 1 << 40),
    "n_inner": (0, 1 << 24),
    "num_hidden_layers": (1, 10_000),
    "num_attention_heads": (1, 65_536),
    "num_key_value_heads": (0, 65_536),
    "head_dim": (0, 65_536),
    "intermediate_size": (0, 1 << 24),
    "moe_intermediate_size": (0, 1 << 24),
    "shared_expert_intermediate_size": (0, 1 << 24),
    "vocab_size": (1, 1 << 24),
    "num_local_experts": (0, 65_536),
    "num_experts": (0, 65_536),
    "n_routed_experts": (0, 65_536),
    "num_experts_per_tok": (0, 65_536),
    "n_shared_experts": (0, 65_536),
    "max_position_embeddings": (0, 1 << 40),
    "sliding_window": (0, 1 << 40),
    "decoder_sparse_step": (0, 10_000),
    "first_k_dense_replace": (0, 10_000),
    "moe_layer_freq": (0, 10_000),
    "kv_lora_rank": (0, 65_536),
    "q_lora_rank": (0, 65_536),
    "qk_nope_head_dim": (0, 65_536),
    "qk_rope_head_dim": (0, 65_536),
    "v_head_dim": (0, 65_536),
    # the gated DeltaNet layers of Qwen3-Next / Qwen3.5 (0 where no layer is one: engine/models/hf_families.py asks
    # for at least 1 where one is), bounded as the attention heads and widths above
    "linear_num_key_heads": (0, 65_536),
    "linear_num_value_heads": (0, 65_536),
    "linear_key_head_dim": (0, 65_536),
    "linear_value_head_dim": (0, 65_536),
    "linear_conv_kernel_dim": (0, 65_536),
}
CONFIG_FRACTIONS = ("attention_dropout",)  # 0 <= x <= 1
# Every dropout is a probability too (GPT-2's resid_pdrop/embd_pdrop/attn_pdrop, Phi's, StarCoder2's
# residual_dropout...): a key named so is checked as one, so a text or a list there is refused with a sentence
# instead of failing float() when the model is built.
DROPOUT_NAME_PARTS = ("dropout", "pdrop")
CONFIG_NONNEGATIVE = ("attn_logit_softcapping", "final_logit_softcapping")
CONFIG_FLAGS = ("tie_word_embeddings", "attention_bias", "mlp_bias", "output_router_logits", "use_sliding_window")
CONFIG_ANY_NUMBER_MAX = 2**53  # any other number (token ids, rope_theta...): beyond it a config is damaged


def _is_dropout(key: object) -> bool:
    return isinstance(key, str) and any(part in key for part in DROPOUT_NAME_PARTS)


def _config_error(key: str, template: str, **params: Any) -> ModelConfigError:
    return ModelConfigError(template, key=key, **params)


def check_hf_config(cfg: dict[str, Any]) -> None:
    """Type and range of every config.json value the architecture reads; ModelConfigError names the key."""
    for key, value in cfg.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a finite number, not {p}."),
                                p=repr(value))
        if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > CONFIG_ANY_NUMBER_MAX \
                and key not in CONFIG_COUNTS:
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' is {p}, far beyond any real model."),
                                p=short_number(value))
    for key, (low, high) in CONFIG_COUNTS.items():
        value = cfg.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or (
                isinstance(value, float) and not value.is_integer()):
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a whole number, not {p}."),
                                p=short_number(value)[:80])
        if not low <= value <= high:
            raise _config_error(
                key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be between {low} and {high}, not {p}."),
                low=f"{low:,}", high=f"{high:,}", p=short_number(value))
    for key in (*CONFIG_FRACTIONS, *(k for k in cfg if k not in CONFIG_FRACTIONS and _is_dropout(k))):
        value = cfg.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1):
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a number from 0 to 1, "
                                                       "not {p}."), p=repr(value)[:80])
    for key in CONFIG_NONNEGATIVE:
        value = cfg.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a number of at least 0 "
                                                       "or null, not {p}."), p=repr(value)[:80])
    for key in CONFIG_FLAGS:
        value = cfg.get(key)
        if value is not None and not isinstance(value, bool):
            raise _config_error(key, QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be true or false, not {p}."),
                                p=repr(value)[:80])
    dense_only = cfg.get("mlp_only_layers")
    if dense_only is not None and (not isinstance(dense_only, list) or len(dense_only) > 10_000 or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 10_000 for i in dense_only)):
        raise _config_error("mlp_only_layers", QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' must be a list of layer numbers from 0 to 9,999."))
    experts = max(int(cfg.get(k) or 0) for k in ("num_local_experts", "num_experts", "n_routed_experts"))
    top_k = int(cfg.get("num_experts_per_tok") or 0)
    if experts and top_k > experts:
        raise _config_error("num_experts_per_tok", QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' ({p}) cannot exceed the number of experts ({n})."), p=top_k, n=experts)
    hidden, heads = cfg.get("hidden_size"), cfg.get("num_attention_heads")
    if not cfg.get("head_dim") and isinstance(hidden, int) and isinstance(heads, int) and 0 < hidden < heads:
        raise _config_error("num_attention_heads", QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' ({p}) exceeds hidden_size ({h}), so each head would have no width; set "
            "head_dim."), p=heads, h=hidden)


def check_kv_heads(heads: int, kv_heads: int) -> None:
    """Grouped-query attention shares each K/V head among a whole number of query heads."""
    if heads % kv_heads:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP(
                "engine", "num_attention_heads ({heads}) is not a multiple of num_key_value_heads ({kv_heads})."
            ),
            heads=heads,
            kv_heads=kv_heads,
        )


# transformers' configuration_utils ALLOWED_LAYER_TYPES as the families the engine reads use them (gemma3, llama4,
# gpt_oss, qwen3_next, qwen3_5); layer_type_validation refuses any other entry and a list whose length is not
# num_hidden_layers ("`num_hidden_layers` (..) must be equal to the number of layer types (..)").
LAYER_TYPES = ("full_attention", "sliding_attention", "chunked_attention", "linear_attention")


def check_layer_types(given: Any, layers: int) -> None:
    """config.json layer_types, where a family reads it: one of LAYER_TYPES per layer, as transformers checks it."""
    if not isinstance(given, list) or not all(isinstance(k, str) and k in LAYER_TYPES for k in given):
        raise _config_error("layer_types", QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' must list one of full_attention, sliding_attention, chunked_attention or "
                      "linear_attention per layer."))
    if len(given) != layers:
        raise _config_error("layer_types", QT_TRANSLATE_NOOP(
            "engine", "config.json '{key}' names {n} layer types for {layers} layers (num_hidden_layers); "
                      "transformers refuses a config whose counts differ."), n=f"{len(given):,}", layers=f"{layers:,}")


def check_linear_heads(k_heads: int, v_heads: int) -> None:
    """A gated DeltaNet layer repeats each key head over a whole number of value heads (transformers'
    Qwen3NextGatedDeltaNet views its projections as num_k_heads groups of num_v_heads // num_k_heads)."""
    if v_heads % k_heads:
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "linear_num_value_heads ({v}) is not a multiple of linear_num_key_heads ({k})."), v=v_heads,
            k=k_heads)


def needed_config_number(value: Any, key: str, model_type: str, least: int = 1) -> int:
    """A config.json value the architecture needs: a whole number of at least `least` (1; 0 where the key may be
    off, as a count of experts); one sentence naming the key where it is missing or is not one."""
    if value is None:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json ({model_type}) has no '{key}', which the estimate needs."),
            model_type=model_type,
            key=key,
        )
    return config_whole_number(value, key, least)


def config_whole_number(value: Any, key: str, least: int = 1) -> int:
    """value where it is a whole number of at least `least` (a bool is not one), else one sentence naming the key."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a positive whole number, not {value!r}."),
            key=key,
            value=value,
        )
    return value
