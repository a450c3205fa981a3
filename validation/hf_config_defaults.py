"""Write presets/hf_config_defaults.json: the defaults of transformers' config classes for the keys the engine reads.

A config.json that omits a key gets the default its model class defines (transformers PretrainedConfig subclasses),
not Llama's. Run with the validation environment's transformers (5.25): python validation/hf_config_defaults.py.
The keys that set a model's size (hidden size, layers, heads, vocabulary) are left out: a config.json without them
is not a model, and the engine names the missing key. Gemma 3 and Llama 4 keep their whole text config (their
multimodal config.json files spell out only what differs from it; engine/models/config_fields.py).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import transformers
from transformers import CONFIG_MAPPING

# every model_type the engine reads a config.json of (engine/models/hf_config.py SUPPORTED_MODEL_TYPES) that
# transformers defines; "deepseek" and "kimi_k2" are remote code (their released files state every key)
TYPES = ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "phi3",
         "olmoe", "deepseek_v2", "deepseek_v3", "gemma3_text", "llama4_text", "gpt_oss", "qwen3_next", "olmo2",
         "glm4_moe", "smollm3", "qwen2_5_vl_text", "mistral3", "mpt", "gpt_neox", "phi", "gpt2", "starcoder2", "nemotron",
         "nemotron_h", "qwen3_5_text", "qwen3_5_moe_text", "qwen3_vl_text", "qwen3_vl_moe_text")
SIZE_KEYS = {"hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size", "intermediate_size",
             "max_position_embeddings", "n_embd", "n_layer", "n_head", "d_model", "n_layers", "n_heads",
             "n_positions", "max_seq_len"}
KEYS = ("tie_word_embeddings", "num_key_value_heads", "head_dim", "attention_bias", "mlp_bias", "attention_dropout",
        "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size", "num_local_experts",
        "num_experts", "n_routed_experts", "n_shared_experts", "first_k_dense_replace", "moe_layer_freq",
        "decoder_sparse_step", "mlp_only_layers", "use_sliding_window", "sliding_window", "kv_lora_rank",
        "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "n_inner", "resid_pdrop", "embd_pdrop",
        "attn_pdrop", "activation_function", "hidden_act", "use_bias", "residual_dropout", "embedding_dropout",
        "use_parallel_residual", "qk_layernorm", "use_qk_norm", "attn_logit_softcapping", "final_logit_softcapping",
        "interleave_moe_layer_step", "attention_chunk_size", "intermediate_size_mlp", "full_attention_interval",
        "linear_conv_kernel_dim", "linear_key_head_dim", "linear_num_key_heads", "linear_num_value_heads",
        "linear_value_head_dim", "num_nextn_predict_layers", "sliding_window_pattern", "expansion_ratio",
        "learned_pos_emb", "no_bias",
        # Nemotron-H's Mamba-2 mixer (engine/models/mamba2.py mixer_from_config)
        "mamba_num_heads", "mamba_head_dim", "ssm_state_size", "n_groups", "conv_kernel", "chunk_size", "expand",
        "use_conv_bias", "mamba_proj_bias", "moe_shared_expert_intermediate_size")
WHOLE = ("gemma3_text", "llama4_text")


def declared(cls: type) -> dict:
    """The defaults the class's __init__ declares; None (derived from other keys when the instance is built, as
    head_dim = hidden_size // num_attention_heads) and factories are left out."""
    out = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if isinstance(p.default, (bool, int, float, str)) or (isinstance(p.default, list) and not p.default):
            out[name] = p.default
    return out


def rotary_default(cls: type) -> dict:
    """The share of each head the class rotates where a config.json names none: transformers 5 sets it in __init__
    (kwargs.setdefault("partial_rotary_factor", ...) or the class's rope standardisation), not as a declared
    parameter, so it is read off a default instance's rope_parameters (GPT-NeoX 0.25, Phi 0.5, Qwen3-Next / Qwen3.5
    0.25, ...); engine/models/hf_config.py rotary_fraction takes it after the config's own keys."""
    rope = getattr(cls(), "rope_parameters", None)
    factor = rope.get("partial_rotary_factor") if isinstance(rope, dict) else None
    return {"partial_rotary_factor": float(factor)} if isinstance(factor, (int, float)) and factor != 1 else {}


def defaults(model_type: str) -> dict:
    d = declared(CONFIG_MAPPING[model_type])
    if model_type == "mistral3":  # the text model's class (MistralConfig), and the outer config's tying
        d = {**declared(CONFIG_MAPPING["mistral"]), "tie_word_embeddings": d.get("tie_word_embeddings")}
    keep = set(KEYS) | (SIZE_KEYS if model_type in WHOLE else set())
    return {**{k: d[k] for k in sorted(keep) if k in d and d[k] is not None},
            **rotary_default(CONFIG_MAPPING["mistral" if model_type == "mistral3" else model_type])}


def main() -> None:
    table = {"source": f"transformers {transformers.__version__} configuration_*.py: CONFIG_MAPPING[model_type]() "
                       "defaults (validation/hf_config_defaults.py)",
             "defaults": {t: defaults(t) for t in TYPES}}
    out = Path(__file__).resolve().parent.parent / "presets" / "hf_config_defaults.json"
    out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(table['defaults'])} model types")


if __name__ == "__main__":
    main()
