"""A model named in a config (Hub id, local path, torchtune builder, torchtitan flavour) -> a model preset id."""

from __future__ import annotations

import json
import re
from functools import cache

from ..models.presets import PRESETS_DIR, model_presets

# Suffixes that name a variant with the base model's architecture (chat/instruct tunes, dtype copies, dates).
_VARIANT = re.compile(r"(-(instruct|chat|hf|it|base|fp16|bf16|sft|dpo|\d{4}|v0\.\d|v\d(\.\d)?))+$")


def _norm(name: str) -> str:
    tail = name.strip().rstrip("/").split("/")[-1].lower().replace("_", "-")
    tail = tail.removeprefix("meta-")
    return _VARIANT.sub("", tail)


@cache
def _repos() -> dict[str, str]:
    """Hub repository (lower case) -> preset id, from the presets' "hf_repo" fields."""
    return {repo.lower(): preset_id for repo, preset_id in _repo_names().items()}


def hub_repo(preset_id: str) -> str | None:
    """The Hub repository a preset was taken from (for exported configs)."""
    return next((repo_id for repo_id, pid in _repo_names().items() if pid == preset_id), None)


@cache
def _repo_names() -> dict[str, str]:
    """Hub repository (as the preset spells it) -> preset id, read once from the presets' "hf_repo" fields."""
    out: dict[str, str] = {}
    for path in (PRESETS_DIR / "models").glob("*.json"):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(raw, dict) and isinstance(raw.get("hf_repo"), str) and isinstance(raw.get("id"), str):
            out[raw["hf_repo"]] = raw["id"]
    return out


def preset_for(name: str) -> tuple[str | None, bool]:
    """(preset id or None, exact?) for a Hub id or path; not exact = a variant (instruct, dtype copy) of the preset."""
    if not isinstance(name, str) or not name.strip():
        return None, False
    repos = _repos()
    if name.strip().lower() in repos:
        return repos[name.strip().lower()], True
    presets = model_presets()
    if name in presets:
        return name, True
    key = _norm(name)
    for repo, preset_id in repos.items():
        if _norm(repo) == key:
            return preset_id, False
    for preset_id in presets:
        if _norm(preset_id) == key:
            return preset_id, False
    return None, False


# torchtune model builders (torchtune/models/<family>/_model_builders.py) -> preset
TORCHTUNE_BUILDERS = {
    "llama2_7b": "llama-2-7b",
    "llama2_13b": "llama-2-13b",
    "llama2_70b": "llama-2-70b",
    "llama3_8b": "llama-3-8b",
    "llama3_70b": "llama-3-70b",
    "llama3_1_8b": "llama-3.1-8b",
    "llama3_1_70b": "llama-3.1-70b",
    "llama3_1_405b": "llama-3.1-405b",
    "llama3_2_1b": "llama-3.2-1b",
    "llama3_2_3b": "llama-3.2-3b",
    # torchtune/models/llama3_3/_model_builders.py: llama3_3_70b = llama3_1_70b (the same architecture)
    "llama3_3_70b": "llama-3.3-70b",
    # torchtune/models/llama4/_model_builders.py (Scout 16 experts, Maverick 128 experts)
    "llama4_scout_17b_16e": "llama-4-scout",
    "llama4_maverick_17b_128e": "llama-4-maverick",
    "mistral_7b": "mistral-7b",
    "qwen2_5_0_5b": "qwen2.5-0.5b",
    "qwen2_5_1_5b_base": "qwen2.5-1.5b",
    "qwen2_5_1_5b_instruct": "qwen2.5-1.5b",
    "qwen2_5_3b": "qwen2.5-3b",
    "qwen2_5_7b_base": "qwen2.5-7b",
    "qwen2_5_7b_instruct": "qwen2.5-7b",
    "qwen2_5_14b_base": "qwen2.5-14b",
    "qwen2_5_14b_instruct": "qwen2.5-14b",
    "qwen2_5_32b_base": "qwen2.5-32b",
    "qwen2_5_32b_instruct": "qwen2.5-32b",
    "qwen2_5_72b_base": "qwen2.5-72b",
    "qwen2_5_72b_instruct": "qwen2.5-72b",
    "qwen3_0_6b_base": "qwen3-0.6b",
    "qwen3_0_6b_instruct": "qwen3-0.6b",
    "qwen3_1_7b_base": "qwen3-1.7b",
    "qwen3_1_7b_instruct": "qwen3-1.7b",
    "qwen3_4b_base": "qwen3-4b",
    "qwen3_4b_instruct": "qwen3-4b",
    "qwen3_8b_base": "qwen3-8b",
    "qwen3_8b_instruct": "qwen3-8b",
    "qwen3_14b_base": "qwen3-14b",
    "qwen3_14b_instruct": "qwen3-14b",
    "qwen3_32b": "qwen3-32b",
    "gemma2_2b": "gemma-2-2b",
    "gemma2_9b": "gemma-2-9b",
    "gemma2_27b": "gemma-2-27b",
    "phi3_mini": "phi-3-mini",
    "phi4_14b": "phi-4",  # torchtune/models/phi4/_model_builders.py
}
# preset -> torchtune builder, for export (the first builder listed for a preset)
TORCHTUNE_MODULES = {
    "llama2": "llama2",
    "llama3": "llama3",
    "llama3_1": "llama3_1",
    "llama3_2": "llama3_2",
    "mistral": "mistral",
    "qwen2_5": "qwen2_5",
    "qwen3": "qwen3",
    "gemma2": "gemma2",
    "phi3": "phi3",
}

# torchtitan [model] name + flavor -> preset (torchtitan/models/<name>/__init__.py flavours; llama3 is Llama 3.1)
TORCHTITAN_FLAVORS = {
    ("llama3", "8B"): "llama-3.1-8b",
    ("llama3", "70B"): "llama-3.1-70b",
    ("llama3", "405B"): "llama-3.1-405b",
    ("qwen3", "0.6B"): "qwen3-0.6b",
    ("qwen3", "1.7B"): "qwen3-1.7b",
    ("qwen3", "4B"): "qwen3-4b",
    ("qwen3", "8B"): "qwen3-8b",
    ("qwen3", "14B"): "qwen3-14b",
    ("qwen3", "32B"): "qwen3-32b",
    ("qwen3", "30B-A3B"): "qwen3-30b-a3b",
    ("qwen3", "235B-A22B"): "qwen3-235b-a22b",
    # torchtitan/models/deepseek_v3/__init__.py "16B": dim 2048, 27 layers (1 dense), 16 heads, 64 experts top-6 + 2
    # shared, q_lora_rank 0, kv_lora_rank 512, vocabulary 102400: DeepSeek-V2-Lite's shapes
    ("deepseek_v3", "16B"): "deepseek-v2-lite",
    # torchtitan/models/deepseek_v3/__init__.py @238fa99 "671B": dim 7168, 61 layers (3 dense), 128 heads, 256 experts
    # top-8 + 1 shared, moe_inter_dim 2048, q_lora_rank 1536, kv_lora_rank 512, vocabulary 129280: DeepSeek-V3's shapes
    ("deepseek_v3", "671B"): "deepseek-v3",
}
