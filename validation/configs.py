"""Released Hugging Face config dicts, hard-coded (no hub access on this machine).

Each dict is the model's released ``config.json`` (fields that only matter for
generation/tokenisation kept as released). The source URL is in the comment.
"""

from __future__ import annotations

import copy
from typing import Any

MODELS: dict[str, tuple[str, dict[str, Any]]] = {
    # https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json
    "llama-2-7b": ("Llama-2-7B", {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096,
        "initializer_range": 0.02, "intermediate_size": 11008, "max_position_embeddings": 4096,
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
        "tie_word_embeddings": False, "torch_dtype": "float16", "use_cache": True,
        "vocab_size": 32000,
    }),
    # https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json
    "llama-3-8b": ("Llama-3-8B", {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 128000,
        "eos_token_id": 128001, "hidden_act": "silu", "hidden_size": 4096,
        "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 8192,
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
        "rope_theta": 500000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
        "use_cache": True, "vocab_size": 128256,
    }),
    # https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json
    "qwen2.5-7b": ("Qwen2.5-7B", {
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
        "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151643,
        "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02,
        "intermediate_size": 18944, "max_position_embeddings": 131072, "max_window_layers": 28,
        "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
        "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 131072,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
        "use_sliding_window": False, "vocab_size": 152064,
    }),
    # https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json
    "qwen3-8b": ("Qwen3-8B", {
        "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
        "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 151643,
        "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu", "hidden_size": 4096,
        "initializer_range": 0.02, "intermediate_size": 12288, "max_position_embeddings": 40960,
        "max_window_layers": 36, "num_attention_heads": 32, "num_hidden_layers": 36,
        "num_key_value_heads": 8, "rms_norm_eps": 1e-06, "rope_scaling": None,
        "rope_theta": 1000000, "sliding_window": None, "tie_word_embeddings": False,
        "torch_dtype": "bfloat16", "use_cache": True, "use_sliding_window": False,
        "vocab_size": 151936,
    }),
    # https://huggingface.co/Qwen/Qwen2.5-0.5B/blob/main/config.json
    "qwen2.5-0.5b": ("Qwen2.5-0.5B", {
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
        "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151643,
        "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02,
        "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24,
        "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2,
        "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 32768,
        "tie_word_embeddings": True, "torch_dtype": "bfloat16", "use_cache": True,
        "use_sliding_window": False, "vocab_size": 151936,
    }),
    # https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json
    "llama-3.2-1b": ("Llama-3.2-1B", {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 128000,
        "eos_token_id": 128001, "head_dim": 64, "hidden_act": "silu", "hidden_size": 2048,
        "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 131072,
        "mlp_bias": False, "num_attention_heads": 32, "num_hidden_layers": 16,
        "num_key_value_heads": 8, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
        "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                         "original_max_position_embeddings": 8192, "rope_type": "llama3"},
        "rope_theta": 500000.0, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
        "use_cache": True, "vocab_size": 128256,
    }),
    # https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json
    "mistral-7b": ("Mistral-7B-v0.1", {
        "architectures": ["MistralForCausalLM"], "model_type": "mistral",
        "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096,
        "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 32768,
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "sliding_window": 4096,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
        "vocab_size": 32000,
    }),
    # https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json
    "mixtral-8x7b": ("Mixtral-8x7B-v0.1", {
        "architectures": ["MixtralForCausalLM"], "model_type": "mixtral",
        "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
        "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336,
        "max_position_embeddings": 32768, "num_attention_heads": 32, "num_experts_per_tok": 2,
        "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8,
        "output_router_logits": False, "rms_norm_eps": 1e-05, "rope_theta": 1000000.0,
        "router_aux_loss_coef": 0.02, "sliding_window": None, "tie_word_embeddings": False,
        "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 32000,
    }),
    # https://huggingface.co/EleutherAI/pythia-160m/blob/main/config.json (GPT-NeoX: parallel attention and GELU
    # MLP, rotary on 25% of each head, untied; github.com/EleutherAI/pythia models/160M/pythia-160m.yml)
    "pythia-160m": ("Pythia-160M", {
        "architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox", "bos_token_id": 0, "eos_token_id": 0,
        "hidden_act": "gelu", "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
        "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "num_attention_heads": 12,
        "num_hidden_layers": 12, "rotary_emb_base": 10000, "rotary_pct": 0.25, "tie_word_embeddings": False,
        "torch_dtype": "float16", "use_cache": True, "use_parallel_residual": True, "vocab_size": 50304,
    }),
    # https://huggingface.co/microsoft/phi-2/blob/main/config.json (one LayerNorm feeding attention and MLP, partial
    # rotary, NewGELU written out in Python, residual dropout 0.1, lm_head with a bias)
    "phi-2": ("Phi-2", {
        "architectures": ["PhiForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 50256, "embd_pdrop": 0.0,
        "eos_token_id": 50256, "hidden_act": "gelu_new", "hidden_size": 2560, "initializer_range": 0.02,
        "intermediate_size": 10240, "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "model_type": "phi",
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32, "partial_rotary_factor": 0.4,
        "qk_layernorm": False, "resid_pdrop": 0.1, "rope_scaling": None, "rope_theta": 10000.0,
        "tie_word_embeddings": False, "torch_dtype": "float16", "use_cache": True, "vocab_size": 51200,
    }),
    # https://huggingface.co/openai-community/gpt2/blob/main/config.json (Conv1D layers, learned positions, NewGELU,
    # dropout 0.1 on embeddings and block outputs, tied embeddings) with attn_pdrop 0: on the CPU, SDPA with dropout
    # falls back to the math kernel and keeps b·a·s² tensors that CUDA's flash and memory-efficient kernels never
    # make (they keep a random seed), so the released 0.1 would trace a different step than a GPU runs.
    "gpt2-attn-dropout-off": ("GPT-2", {
        "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.0,
        "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
        "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "vocab_size": 50257,
        "num_hidden_layers": 12,
    }),
    # transformers Starcoder2Config's defaults (StarCoder2-3B's shapes: hidden 3072, 30 layers, 24 heads, 2 KV heads,
    # intermediate 12288, vocabulary 49152) with the released models' dropout 0.1 on embeddings and block outputs
    # (attention dropout 0: CPU SDPA falls back to the math kernel with it, see gpt2 above)
    "starcoder2-3b-shapes": ("StarCoder2 (3B shapes)", {
        "architectures": ["Starcoder2ForCausalLM"], "model_type": "starcoder2", "hidden_size": 3072,
        "intermediate_size": 12288, "num_hidden_layers": 30, "num_attention_heads": 24, "num_key_value_heads": 2,
        "hidden_act": "gelu_pytorch_tanh", "max_position_embeddings": 16384, "vocab_size": 49152, "use_bias": True,
        "residual_dropout": 0.1, "embedding_dropout": 0.1, "attention_dropout": 0.0, "bos_token_id": 0,
        "eos_token_id": 0, "tie_word_embeddings": True,
    }),
    # https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json
    "qwen3-30b-a3b": ("Qwen3-30B-A3B", {
        "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe",
        "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 151643,
        "decoder_sparse_step": 1, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
        "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 6144,
        "max_position_embeddings": 40960, "max_window_layers": 48, "mlp_only_layers": [],
        "moe_intermediate_size": 768, "norm_topk_prob": True, "num_attention_heads": 32,
        "num_experts": 128, "num_experts_per_tok": 8, "num_hidden_layers": 48,
        "num_key_value_heads": 4, "output_router_logits": False, "rms_norm_eps": 1e-06,
        "rope_scaling": None, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
        "sliding_window": None, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
        "use_cache": True, "use_sliding_window": False, "vocab_size": 151936,
    }),
}


def _from_presets(keys: tuple[str, ...]) -> None:
    """More architectures, from the app's own preset files (each carries the source of its config.json)."""
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "presets" / "models"
    for key in keys:
        raw = json.loads((folder / f"{key}.json").read_text())
        MODELS.setdefault(key, (raw["name"], raw["hf_config"]))


_from_presets(("gemma-2-2b", "gemma-2-9b", "phi-3-mini", "olmoe-1b-7b", "tinyllama-1.1b"))


def _text_from_presets(keys: tuple[str, ...]) -> None:
    """Issue 12 families: the language model of each preset (a multimodal config's text_config)."""
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "presets" / "models"
    for key in keys:
        raw = json.loads((folder / f"{key}.json").read_text())
        cfg = raw["hf_config"]
        if isinstance(cfg.get("text_config"), dict):
            cfg = {**cfg["text_config"], "architectures": [cfg["architectures"][0].replace(
                "ForConditionalGeneration", "ForCausalLM")]}
        cfg = {k: v for k, v in cfg.items() if k not in ("quantization_config", "auto_map")}
        MODELS.setdefault(key, (raw["name"], cfg))


_text_from_presets(("gemma-3-1b", "olmo-2-7b", "smollm3-3b", "deepseek-v2-lite", "gpt-oss-20b",
                    "qwen3-next-80b-a3b", "llama-4-scout", "glm-4.5-air", "phi-4"))
_PER_LAYER_LISTS = ("layer_types", "no_rope_layers", "moe_layers")


def model_config(key: str, layers: int | None = None) -> tuple[str, dict[str, Any]]:
    """Return (display name, config dict); ``layers`` gives a reduced-depth copy."""
    name, cfg = MODELS[key]
    cfg = copy.deepcopy(cfg)
    if layers is not None and layers != cfg["num_hidden_layers"]:
        cfg["num_hidden_layers"] = layers
        if "n_layer" in cfg:  # GPT-2 names it n_layer (transformers maps num_hidden_layers onto it)
            cfg["n_layer"] = layers
        for k in ("max_window_layers",):
            if k in cfg:
                cfg[k] = layers
        for k in _PER_LAYER_LISTS:  # per-layer patterns keep their first `layers` entries
            if isinstance(cfg.get(k), list) and k != "moe_layers":
                cfg[k] = cfg[k][:layers]
        name = f"{name} ({layers} layers)"
    return name, cfg


def vision_model_config(key: str, text_layers: int, vision_layers: int) -> tuple[str, dict[str, Any]]:
    """A vision-language preset's released config with fewer language-model and tower layers (same shapes).

    The tower keeps its pattern: Qwen2.5-VL's full-attention blocks (every 8th) are re-indexed for the new depth.
    """
    import json
    from pathlib import Path

    raw = json.loads((Path(__file__).resolve().parent.parent / "presets" / "models" / f"{key}.json").read_text())
    cfg = copy.deepcopy(raw["hf_config"])
    text = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    text["num_hidden_layers"] = text_layers
    if "max_window_layers" in text:
        text["max_window_layers"] = text_layers
    vision = cfg["vision_config"]
    depth_key = "depth" if "depth" in vision else "num_hidden_layers"
    if "fullatt_block_indexes" in vision:
        vision["fullatt_block_indexes"] = [i for i in vision["fullatt_block_indexes"] if i < vision_layers]
    vision[depth_key] = vision_layers
    if cfg.get("model_type") == "mistral3":
        # transformers 5.24's Mistral3Config defaults tie_word_embeddings to True, which ties lm_head to the embedding
        # when the released config.json (no such key) is built; the release stores lm_head apart (24.01B parameters,
        # the preset's published total), so the traced model is built untied like the checkpoint.
        cfg.setdefault("tie_word_embeddings", False)
    return f"{raw['name']} ({text_layers} layers, {vision_layers} tower layers)", cfg
