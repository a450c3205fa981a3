"""Words for the serving keys (issue 26): control labels and the words of their choices, one place for the set-up
panel, undo entries, notices and the comparison (engine/scenario/key_words.py takes them in). No Qt: translated in
the "Fields" context where they are shown."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..models.weight_formats import gguf_format_names

SERVING_FIELD_LABELS: dict[str, str] = {
    "workload": QT_TRANSLATE_NOOP("Fields", "Mode"),
    "serving_engine": QT_TRANSLATE_NOOP("Fields", "Inference engine"),
    "weight_format": QT_TRANSLATE_NOOP("Fields", "Weights as deployed (format)"),
    "kv_cache_dtype": QT_TRANSLATE_NOOP("Fields", "KV cache elements"),
    "max_model_len": QT_TRANSLATE_NOOP("Fields", "Context per user (max_model_len)"),
    "max_num_seqs": QT_TRANSLATE_NOOP("Fields", "Users at once (max_num_seqs)"),
    "max_num_batched_tokens": QT_TRANSLATE_NOOP("Fields", "Tokens per scheduler step (max_num_batched_tokens)"),
    "gpu_memory_utilization": QT_TRANSLATE_NOOP("Fields", "Share of each GPU (gpu_memory_utilization)"),
    "block_size": QT_TRANSLATE_NOOP("Fields", "Tokens per KV block (block_size)"),
    "enforce_eager": QT_TRANSLATE_NOOP("Fields", "No CUDA graphs (enforce eager)"),
    "mm_images_per_prompt": QT_TRANSLATE_NOOP("Fields", "Images per prompt (limit_mm_per_prompt)"),
    "mm_max_pixels": QT_TRANSLATE_NOOP("Fields", "Largest image in pixels (max_pixels)"),
    "n_gpu_layers": QT_TRANSLATE_NOOP("Fields", "Layers on the GPUs (n_gpu_layers)"),
    "n_ctx": QT_TRANSLATE_NOOP("Fields", "KV cache size in tokens (n_ctx)"),
    "n_batch": QT_TRANSLATE_NOOP("Fields", "Logical batch (n_batch)"),
    "n_ubatch": QT_TRANSLATE_NOOP("Fields", "Physical batch (n_ubatch)"),
    "flash_attn": QT_TRANSLATE_NOOP("Fields", "Flash attention (flash_attn)"),
    "gguf_batch_matmul": QT_TRANSLATE_NOOP("Fields", "Build date (prompt kernels)"),
    "n_parallel": QT_TRANSLATE_NOOP("Fields", "Slots decoding at once (n_parallel)"),
}

SERVING_VALUE_WORDS: dict[str, dict[Any, str]] = {
    "workload": {"training": QT_TRANSLATE_NOOP("Fields", "train"), "inference": QT_TRANSLATE_NOOP("Fields", "serve")},
    "serving_engine": {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp", "ollama": "Ollama",
                       "transformers": QT_TRANSLATE_NOOP("Fields", "Transformers (generate)"), "mlx": "MLX (Apple)"},
    "weight_format": {
        "checkpoint": QT_TRANSLATE_NOOP("Fields", "as the checkpoint ships"),
        "bf16": "bf16", "fp16": "fp16", "fp8": QT_TRANSLATE_NOOP("Fields", "fp8 (8 bits)"),
        "int8": QT_TRANSLATE_NOOP("Fields", "int8 (8 bits)"),
        "awq-int4": QT_TRANSLATE_NOOP("Fields", "AWQ 4-bit"), "gptq-int4": QT_TRANSLATE_NOOP("Fields", "GPTQ 4-bit"),
        "mxfp4": "MXFP4", "nvfp4": "NVFP4", "bnb-nf4": QT_TRANSLATE_NOOP("Fields", "bitsandbytes NF4"),
        # mlx-community's files, as mlx_lm.convert -q writes them (presets/weight_formats.json mlx_affine)
        "mlx-4bit": QT_TRANSLATE_NOOP("Fields", "MLX 4-bit (mlx_lm.convert -q)"),
        "mlx-6bit": QT_TRANSLATE_NOOP("Fields", "MLX 6-bit (mlx_lm.convert -q --q-bits 6)"),
        "mlx-8bit": QT_TRANSLATE_NOOP("Fields", "MLX 8-bit (mlx_lm.convert -q --q-bits 8)"),
        **{name: f"GGUF {name}" for name in gguf_format_names()},  # every GGUF type presets/weight_formats.json has
    },
    "kv_cache_dtype": {"auto": QT_TRANSLATE_NOOP("Fields", "as the model's weights (auto)"),
                       "fp8": QT_TRANSLATE_NOOP("Fields", "fp8: half the bytes"),
                       "q8_0": QT_TRANSLATE_NOOP("Fields", "q8_0: about half the bytes"),
                       "q4_0": QT_TRANSLATE_NOOP("Fields", "q4_0: about a quarter")},
    "flash_attn": {"auto": QT_TRANSLATE_NOOP("Fields", "as the engine decides (auto)"),
                   "on": QT_TRANSLATE_NOOP("Fields", "on"), "off": QT_TRANSLATE_NOOP("Fields", "off")},
    "gguf_batch_matmul": {"mmq": QT_TRANSLATE_NOOP("Fields", "June 2024 or later"),
                          "dequantize_cublas": QT_TRANSLATE_NOOP("Fields", "October 2023 to June 2024"),
                          "kq_per_score": QT_TRANSLATE_NOOP("Fields", "before September 2023 (Metal)"),
                          "kq_four_rows": QT_TRANSLATE_NOOP("Fields", "September 1 to 8, 2023 (Metal)"),
                          "kq_key_row": QT_TRANSLATE_NOOP("Fields", "September 9 to 14, 2023 (Metal)")},
}
