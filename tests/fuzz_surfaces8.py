"""Fuzz class of session 19's surfaces (h-fuzz8): the llama.cpp prompt path's scenario key gguf_batch_matmul, the
'triton' attention kernel and the A100 attention rate curves, LoRA on the top layers (lora_layers), the Qwen3.5 presets
and their config.json (qwen3_5_text / qwen3_5_moe_text, the vision tower's refusal), the serving card's likely TTFT
range, the Apple / AMD context words, and presets/efficiency.json / host_overhead.json with their new fields damaged.

    .venv/bin/python tests/fuzz_surfaces8.py [--count 300] [--seed 19]

Families (case i takes family i % 5):
  keys     a training or serving base (Qwen3.5 9B / 27B / 397B-A17B presets, llama.cpp GGUF on CUDA and Apple, A100
           and MI300X training) with one to three of the new keys and their neighbours set to a declared value (two
           thirds) or a hostile one (0, negatives, 1e308, NaN, text with escapes, lists, objects), through `estimate`,
           `estimate --json`, `fit --json`, `serve-fit`, `export-config --to mlx-lm|axolotl|trl`
  configs  a custom model from a Qwen3.5 preset's config.json with absurd DeltaNet widths, layer_types of the wrong
           length or content, a qwen3_5 wrapper with or without its vision tower, text_config nested 40 deep, 100,000
           layer types or 20,000 extra keys
  flags    `kv-cache` and `presets` on the Qwen3.5 ids with hostile --batch / --seq-len / --bytes / --unit
  imports  a TRL / axolotl / mlx-lm file naming Qwen/Qwen3.5-9B with hostile LoRA layers, read by `import`, some with a
           local Hugging Face cache holding a hostile qwen3_5 config.json for that id
  presets  presets/efficiency.json or host_overhead.json with one of this session's fields damaged (the A100 curves,
           'triton', Qwen3's hf_eager_layers) or the whole file cut, then `estimate` of a scenario that reads it
Outcome of one case (as tests/fuzz_newest.py classifies it, plus the checks below):
  ok         exit 0; JSON strict and sane; every time line finite with MFU <= 100% (training); every "likely A to B"
             range of a served model finite with A <= B; a custom config transformers can build (transformers_refuses)
  refused    exit 2 and one clean line "error: ..." (no control character, at most MAX_LINE characters)
  absurd     exit 0 failing a check, or a refusal that is not one clean short line
  unnamed    a refusal over a damaged presets file that does not name the file
  traceback  an exception escaping the command, or exit 70
  hang       no answer within CASE_SECONDS
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import suite_main  # noqa: E402
from fuzz_harness import count_cases, damaged_presets_case, hub_cache, import_case, run_command  # noqa: E402
from fuzz_newest import HOSTILE, TEXT, _file, declared  # noqa: E402
from fuzz_time import check_output  # noqa: E402

from engine.models.presets import PRESETS_DIR, get_model_preset  # noqa: E402

CASE_SECONDS = 30
BAD = ("traceback", "hang", "absurd", "unnamed")
NEW_KEYS = ["gguf_batch_matmul", "attention_kernel", "lora_layers", "lora_rank", "lora_targets", "n_ubatch", "n_batch",
            "weight_format", "gpu", "host_cpu", "micro_batch", "seq_len", "n_ctx"]
QWEN35 = ("qwen3.5-9b", "qwen3.5-27b", "qwen3.5-397b-a17b")
TRAINING = [
    {"model": "qwen3.5-9b", "gpu": "rtx-4090", "method": "qlora", "framework": "trl", "lora_rank": 8, "seq_len": 512},
    {"model": "qwen3.5-9b", "gpu": "a100-80gb", "method": "lora", "framework": "huggingface", "lora_layers": 8},
    {"model": "qwen3.5-27b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "torchtitan", "fsdp": True},
    {"model": "qwen3.5-397b-a17b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 8, "framework": "megatron",
     "tp": 2, "ep": 8, "pp": 4, "distributed_optimizer": True, "precision": "mixed-bf16"},
    {"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "fsdp": True, "seq_len": 2048,
     "attention_kernel": "triton"},
    {"model": "llama-3-8b", "gpu": "a100-40gb", "framework": "internevo", "attention_kernel": "flash1"},
    {"model": "qwen3-8b", "gpu": "mi300x", "method": "lora", "framework": "huggingface"},
    {"model": "qwen2.5-0.5b", "gpu": "apple-m4-max-128gb", "method": "lora", "framework": "mlx", "lora_layers": 16}]
SERVING = [
    {"model": "llama-3.1-8b", "gpu": "rtx-3090", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_0", "n_ctx": 4096, "gguf_batch_matmul": "dequantize_cublas"},
    {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "ollama",
     "weight_format": "Q8_0", "n_ctx": 8192},
    {"model": "deepseek-r1", "gpu": "apple-m3-ultra-512gb", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q2_K", "n_ctx": 4096},
    {"model": "qwen3.5-9b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_K_M", "n_ctx": 32768},
    {"model": "qwen3.5-27b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm",
     "max_model_len": 32768},
    {"model": "qwen3.5-397b-a17b", "gpu": "mi300x", "gpus_per_node": 8, "tp": 8, "workload": "inference",
     "serving_engine": "sglang", "weight_format": "fp8"}]
LAYER_TYPES = [["full_attention"] * 3, ["linear_attention"] * 100_000, ["mamba"] * 32, [None] * 32, [[]] * 32, [],
               "full_attention", {"a": 1}, 5, ["full_attention"] * 33, ["sliding_attention"] * 32,
               ["linear_attention"] * 31 + ["\x1b[2J"]]
DELTANET_KEYS = ["linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
                 "linear_conv_kernel_dim", "full_attention_interval", "num_hidden_layers", "num_experts",
                 "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size", "mlp_only_layers",
                 "head_dim", "attn_output_gate", "mtp_num_hidden_layers", "rope_parameters", "partial_rotary_factor"]
# presets files, the fields of this session in them (None: the whole file cut) and plans that read each
A100 = {"model": "llama-3-8b", "gpu": "a100-80gb", "framework": "huggingface", "seq_len": 2048}
A100_PLANS = [{**A100, "attention_kernel": "flash2"}, {**A100, "gpu": "a100-40gb", "attention_kernel": "flash2"}]
FLASH1_PLANS = [{**A100, "attention_kernel": "flash1"}, {**A100, "gpu": "a100-40gb", "framework": "internevo",
                                                         "attention_kernel": "flash1"}]
QWEN3_PLANS = [{"model": "qwen3-8b", "gpu": "h200", "framework": "huggingface", "precision": p, "attention": a}
               for p in ("bf16", "amp-bf16") for a in ("sdpa", "eager")]
ANY_PLANS = [*A100_PLANS, *FLASH1_PLANS, *QWEN3_PLANS, {**A100, "attention_kernel": "triton"}]
DAMAGE_SITES = [("efficiency.json", ["attention_fraction_of_bf16_peak", "flash2", "_gpu", "a100-80gb"], A100_PLANS),
                ("efficiency.json", ["attention_fraction_of_bf16_peak", "triton"], [{**A100, "attention_kernel": "triton"}]),
                ("efficiency.json", ["attention_fraction_of_bf16_peak", "flash1", "_gpu"], FLASH1_PLANS),
                ("efficiency.json", ["attention_rate_by_work", "flash2", "a100-80gb"], A100_PLANS[:1]),
                ("efficiency.json", ["attention_rate_by_work", "flash1", "a100-40gb", "points"], FLASH1_PLANS[1:]),
                ("efficiency.json", ["attention_rate_by_work", "flash1"], FLASH1_PLANS),
                ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3"], QWEN3_PLANS),
                ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3", "bf16-sdpa", "per_layer"],
                 QWEN3_PLANS[:1]),
                ("efficiency.json", None, ANY_PLANS), ("host_overhead.json", None, [*QWEN3_PLANS, SERVING[0]])]
DAMAGED = [None, 0, -1, 1e308, "x", [], {}, [[1, 2]], [[512, -1, 1e308]], {"default": "fast"}, True]


def _with_keys(rng: random.Random, data: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    for key in rng.sample(keys, rng.choice([1, 1, 2, 3])):
        data[key] = rng.choice(declared(key)) if rng.random() < 0.65 else rng.choice(HOSTILE)
    return data


def _keys_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    serving = rng.random() < 0.45
    data = _with_keys(rng, dict(rng.choice(SERVING if serving else TRAINING)), NEW_KEYS)
    commands = ([["estimate"]] * 3 + [["estimate", "--json"], ["serve-fit"], ["serve-fit", "--json"]]) if serving else (
        [["estimate"]] * 3 + [["estimate", "--json"]] * 2 + [["fit", "--json"], ["export-config", "--to", "mlx-lm"],
                                                             ["export-config", "--to", "axolotl"]])
    return [*rng.choice(commands), "{file}"], data


def qwen35_config(rng: random.Random) -> dict[str, Any]:
    """A Qwen3.5 preset's config.json with hostile values, or wrapped, nested or enlarged."""
    cfg = copy.deepcopy(get_model_preset(rng.choice(QWEN35)).hf_config)
    kind = rng.randrange(6)
    if kind <= 1:
        for key in rng.sample(DELTANET_KEYS, rng.choice([1, 1, 2])):
            cfg[key] = rng.choice([*HOSTILE, 0, 1, 3, 24, 2**16, 2**31])
    elif kind == 2:
        cfg["layer_types"] = rng.choice(LAYER_TYPES)
    elif kind == 3:  # the released file: the text decoder under text_config, with or without the vision tower
        wrapper = {"model_type": cfg["model_type"].removesuffix("_text"), "text_config": cfg}
        if rng.random() < 0.5:
            wrapper["vision_config"] = rng.choice([{"depth": 27, "hidden_size": 1152}, {}, None, "x", []])
        cfg = wrapper
    elif kind == 4:
        for _ in range(rng.choice([2, 31, 40])):
            cfg = {"model_type": "qwen3_5", "text_config": cfg}
    else:
        cfg.update({f"k{i}": rng.choice([1, "x", None]) for i in range(rng.choice([100, 20_000]))})
    return cfg


def transformers_refuses(cfg: Any) -> str:
    """Why transformers cannot build this Qwen3.5 text config ("" where it can, as far as these rules go):
    configuration_utils.layer_type_validation (entries in ALLOWED_LAYER_TYPES, one per layer) and
    Qwen3NextGatedDeltaNet's views (num_v_heads // num_k_heads groups, no zero width)."""
    while isinstance(cfg, dict) and isinstance(cfg.get("text_config"), dict):
        cfg = cfg["text_config"]
    if not isinstance(cfg, dict):
        return ""
    kinds, layers = cfg.get("layer_types"), cfg.get("num_hidden_layers")
    allowed = ("full_attention", "sliding_attention", "chunked_attention", "linear_attention")
    if kinds is not None and (not isinstance(kinds, list) or any(k not in allowed for k in kinds)
                              or (isinstance(layers, int) and len(kinds) != layers)):
        return "layer_types"
    if isinstance(kinds, list) and "linear_attention" in kinds:
        widths = [cfg.get(k) for k in DELTANET_KEYS[:5]]
        if any(w == 0 for w in widths):
            return "a DeltaNet width of 0"
        k_heads, v_heads = widths[0], widths[1]
        if isinstance(k_heads, int) and isinstance(v_heads, int) and k_heads > 0 and v_heads % k_heads:
            return "value heads no multiple of key heads"
    return ""


def _configs_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    data = dict(rng.choice([TRAINING[0], TRAINING[1], SERVING[3], SERVING[4]]))
    data["model"] = {"name": rng.choice(["qwen35", *TEXT]), "hf_config": qwen35_config(rng)}
    argv = rng.choice([["estimate"], ["estimate", "--json"], ["estimate", "--json"]])
    return [*argv, "{file}"], data


def _flags_case(rng: random.Random) -> tuple[list[str], None]:
    if rng.random() < 0.2:
        return ["presets", rng.choice(["models", "gpus"]), *(["--json"] if rng.random() < 0.5 else [])], None
    argv = ["kv-cache", rng.choice([*QWEN35, "qwen3.5-9b\x1b[2J", "qwen3.5"])]
    for flag, pool in (("--batch", [1, 64, 0, -1, 2**63, "1e308", "nan", "x"]),
                       ("--seq-len", [1, 262144, 10**9, 0, -5, "inf", ""]), ("--bytes", [1, 2, 0, 3, "bf16"]),
                       ("--unit", ["GB", "GiB", "TB"])):
        if rng.random() < 0.6:
            argv += [flag, str(rng.choice(pool))]
    return argv + (["--json"] if rng.random() < 0.5 else []), None


def _import_text(rng: random.Random) -> tuple[str, str]:
    model = rng.choice(["Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-397B-A17B", "Qwen/Qwen3.5-9B\x1b[2J"])
    layers = rng.choice([1, 8, 32, 33, 0, -1, 10**9, "1e308", "all", "[0, 31]", "[-1, 100000]", "\x1b[2J"])
    kind = rng.randrange(3)
    if kind == 0:
        return "lora.yaml", (f"model: {json.dumps(model)}\ntrain: true\nfine_tune_type: lora\nnum_layers: {layers}\n"
                             f"lora_parameters: {{rank: {rng.choice([8, 0, -1, 10**9])}, scale: 20.0, dropout: 0.0}}\n")
    if kind == 1:
        return "axolotl.yaml", (f"base_model: {json.dumps(model)}\nadapter: lora\nlora_r: 16\n"
                                f"peft_layers_to_transform: {layers}\nsequence_len: 4096\nmicro_batch_size: 1\n")
    return "trl.json", json.dumps({"model_name_or_path": model, "use_peft": True, "lora_r": 16,
                                   "lora_target_modules": rng.choice(["all-linear", ["in_proj_qkv", "in_proj_z"], 5]),
                                   "layers_to_transform": layers, "per_device_train_batch_size": 1})


def local_cache(rng: random.Random, folder: Path) -> AbstractContextManager[None]:
    """HF_HUB_CACHE holding models--Qwen--Qwen3.5-9B with a hostile config.json, while inside."""
    return hub_cache(folder, "Qwen--Qwen3.5-9B", qwen35_config(rng))


def damaged_presets(rng: random.Random, folder: Path) -> tuple[str, Path, list[dict[str, Any]]]:
    """A copy of one presets file with one of this session's fields damaged (or the file cut), and plans reading it."""
    name, path, plans = rng.choice(DAMAGE_SITES)
    text = (PRESETS_DIR / name).read_text(encoding="utf-8")
    if path is None:
        damaged = text[: rng.randrange(len(text))]
    else:
        data = json.loads(text)
        node = data
        for part in path[:-1]:
            node = node[part]
        if rng.random() < 0.25:
            node.pop(path[-1], None)
        else:
            node[path[-1]] = rng.choice(DAMAGED)
        damaged = json.dumps(data, allow_nan=True)
    target = folder / name
    target.write_text(damaged, encoding="utf-8")
    return name, target, plans


@contextlib.contextmanager
def presets_file(name: str, path: Path) -> Iterator[None]:
    """The engine reads `path` for presets/`name` while inside (each reader's file constant, its cache cleared)."""
    from engine.timing import data, host_table

    module, attr = (data, "EFFICIENCY_FILE") if name == "efficiency.json" else (host_table, "HOST_FILE")
    original = getattr(module, attr)
    setattr(module, attr, path)
    _clear_engine_caches()
    try:
        yield
    finally:
        setattr(module, attr, original)
        _clear_engine_caches()


def _clear_engine_caches() -> None:
    """Every functools cache of the engine's modules and its scenario memo tables (engine/scenario/memo.py, keyed by
    preset id): the tables derived from a presets file are cached too."""
    from engine.scenario.memo import memo_tables

    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    for table in memo_tables():
        table.clear()


def _ranges_problem(argv: list[str], out: str) -> str | None:
    """A served model's likely ranges ("likely 12.3 s to 21.5 s") finite and ordered; a training estimate's time lines
    as tests/fuzz_time.py checks them."""
    if argv[0] != "estimate":
        return None
    if "--json" in argv:
        return check_output(argv, out) if '"time"' in out else None
    for low, high in re.findall(r"likely ([\d.,]+ ?[^\s;,]*) to ([\d.,]+ ?[^\s;,]*)", out):
        if not (_seconds(low) <= _seconds(high) < float("inf")):
            return f"likely range {low} to {high}"
    if re.search(r"\b(nan|inf)\b", out, re.IGNORECASE):
        return "nan or inf in the output"
    return check_output(argv, out) if any(line.startswith("Time:") for line in out.splitlines()) else None


def _seconds(text: str) -> float:
    """A range's end in one unit: seconds (ms, us, min, h) or a count (1.48K tokens/s)."""
    number, multiple, unit = re.fullmatch(r"([\d.]+) ?([KMGT]?)(\S*)", text.replace(",", "")).groups()
    scale = {"ms": 1e-3, "us": 1e-6, "µs": 1e-6, "min": 60, "h": 3600}.get(unit, 1)
    return float(number) * scale * 1000 ** " KMGT".index(multiple or " ")


def _run(argv: list[str], data: dict[str, Any] | None, folder: Path, rng: random.Random,
         named: str = "") -> tuple[str, str]:
    """One command in this process, classified as tests/fuzz_newest.py does, then its ranges and time lines checked;
    a refusal must name the file `named` where one is given (a damaged presets file)."""
    if data is not None:  # a plan beside a damaged presets file is written as it is (no non-finite value added)
        (folder / "case.json").write_bytes(json.dumps(data).encode() if named else _file(data, rng))
        argv = [str(folder / "case.json") if a == "{file}" else a for a in argv]
    model = (data or {}).get("model")

    def check(out: str) -> str | None:
        if problem := _ranges_problem(argv, out):
            return problem
        if isinstance(model, dict) and (why := transformers_refuses(model.get("hf_config"))):
            return f"estimated a config transformers refuses ({why})"
        return None

    return run_command(argv, CASE_SECONDS, check, named)


def _one_case(family: str, rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    data: dict[str, Any] | None = None
    if family in ("keys", "configs", "flags"):
        argv, data = {"keys": _keys_case, "configs": _configs_case, "flags": _flags_case}[family](rng)
        return (*_run(argv, data, folder, rng), argv, data)
    if family == "imports":
        outcome, detail, argv, _text = import_case(rng, folder, _import_text, local_cache, _run)
        return outcome, detail, argv, data
    return damaged_presets_case(rng, folder, damaged_presets, presets_file, _run)


def fuzz_surfaces8(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: FAMILY"; prints what went wrong."""
    return count_cases(count, seed, ("keys", "configs", "flags", "imports", "presets"), _one_case, BAD, 20)


def main() -> int:
    return suite_main(__doc__, "session 19 surfaces", fuzz_surfaces8, 300, 19, BAD)


if __name__ == "__main__":
    sys.exit(main())
