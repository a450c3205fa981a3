"""Fuzz class of session 19's later surfaces (h-fuzz9): the Qwen3.5 / Qwen3-VL vision tower (presets qwen3-vl-8b /
qwen3-vl-30b-a3b, a released config.json's vision_config, the importers' freeze flags), vLLM's image-encoder profile
(mm_images_per_prompt, mm_max_pixels), the tower's step time, the framework rows trl-2025 / unsloth-2024 / axolotl and
Unsloth's dequant_buffer, llama.cpp's old-build prompt path (gguf_batch_matmul, the cuBLAS scratch), the 'triton'
attention kernel, and a damaged model preset of the new fields.

    .venv/bin/python tests/fuzz_surfaces9.py [--count 300] [--seed 20]

Families (case i takes family i % 5):
  keys     a vision-language training plan (Qwen3-VL 8B / 30B-A3B, Qwen2.5-VL, Gemma 3 with images; QLoRA under
           trl-2025 / unsloth-2024 / axolotl), a vLLM Qwen3-VL server or a llama.cpp GGUF server (V100, 3090, 4090)
           with one to three of the new keys and their neighbours declared (two thirds) or hostile (0, negatives,
           1e308, 10^18, NaN, text with escapes, lists, objects), through `estimate`, `estimate --json`, `fit --json`,
           `serve-fit`, `export-config --to trl|axolotl|llama-factory|verl`
  configs  a custom model from a Qwen3-VL / Qwen3.5 / Qwen2.5-VL config.json with its vision_config made absurd (depth
           0 to 2^63, patch_size 0, spatial_merge_size larger than the image, out_hidden_size not the text width, a
           deepstack list of 100,000 or of text, vision_config nested 40 deep or with 20,000 keys), trained with
           images or served by vLLM with images
  flags    `kv-cache` / `fit --objective` / `serve-fit --question` on the Qwen3-VL presets with hostile flags
  imports  LLaMA-Factory / ms-swift / axolotl / TRL / verl files naming Qwen/Qwen3-VL-8B-Instruct with hostile freeze
           flags, images and LoRA values, a llama-server launch script; half with HF_HUB_CACHE holding a hostile
           Qwen3-VL config.json for that id
  presets  presets/models/qwen3-vl-8b.json (or -30b-a3b) with a new field damaged (vision_config values, the whole
           vision_config, hf_config, id) or the file cut, then a command on a plan that reads it
Outcome of one case (tests/fuzz_surfaces8.py's, plus): a custom config whose tower transformers cannot build or run
with images (vision_refuses) counted absurd when estimated.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import shutil
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
from fuzz_surfaces8 import _clear_engine_caches, _ranges_problem  # noqa: E402

from engine.models.presets import PRESETS_DIR, get_model_preset  # noqa: E402

CASE_SECONDS = 30
BAD = ("traceback", "hang", "absurd", "unnamed")
TRAIN_KEYS = ["images_per_sample", "image_resolution", "vision_tower", "attention_kernel", "attention", "framework",
              "method", "micro_batch", "seq_len", "tp", "checkpointing", "lora_rank", "lora_layers", "gpu"]
SERVE_KEYS = ["mm_images_per_prompt", "mm_max_pixels", "max_num_batched_tokens", "max_num_seqs", "max_model_len",
              "gpu_memory_utilization", "tp", "gguf_batch_matmul", "n_ubatch", "n_batch", "n_ctx", "weight_format",
              "gpu"]
HUGE = [10**18, -(10**18), 2**63, -1, 0, 1e308, float("nan"), "1e18", [10**18], {"image": 5}]
VL = {"model": "qwen3-vl-8b", "gpu": "h100-sxm-80gb", "method": "lora", "framework": "huggingface",
      "images_per_sample": 2, "image_resolution": 1024, "seq_len": 4096}
TRAINING = [VL, {**VL, "method": "full", "vision_tower": "trained", "checkpointing": "full"},
            {**VL, "model": "qwen3-vl-30b-a3b", "gpus_per_node": 8, "framework": "megatron", "ep": 8, "tp": 2,
             "method": "full", "distributed_optimizer": True, "precision": "mixed-bf16"},
            {**VL, "gpu": "rtx-4090", "method": "qlora", "framework": "unsloth-2024", "seq_len": 2048},
            {**VL, "gpu": "rtx-4090", "method": "qlora", "framework": "trl-2025", "seq_len": 2048},
            {**VL, "gpu": "a100-80gb", "method": "qlora", "framework": "axolotl", "attention_kernel": "triton"},
            {**VL, "model": "qwen2.5-vl-7b", "images_per_sample": 1, "image_resolution": 980},
            {**VL, "model": "gemma-3-4b", "attention": "eager", "images_per_sample": 4},
            {**VL, "model": "qwen3.5-9b", "images_per_sample": 0, "framework": "unsloth", "method": "qlora"}]
SERVING = [
    {"model": "qwen3-vl-8b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm",
     "max_model_len": 32768, "mm_images_per_prompt": 2},
    {"model": "qwen3-vl-30b-a3b", "gpu": "l4", "gpus_per_node": 4, "tp": 4, "workload": "inference",
     "serving_engine": "vllm", "max_num_batched_tokens": 2048, "max_num_seqs": 256, "mm_max_pixels": 1_003_520},
    {"model": "qwen2.5-vl-7b", "gpu": "a100-80gb", "workload": "inference", "serving_engine": "vllm"},
    {"model": "llama-3.1-8b", "gpu": "v100-32gb", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_K_M", "n_ctx": 8192, "n_ubatch": 512},
    {"model": "llama-3.1-8b", "gpu": "rtx-3090", "workload": "inference", "serving_engine": "ollama",
     "weight_format": "Q4_0", "gguf_batch_matmul": "dequantize_cublas", "n_ctx": 8192},
    {"model": "qwen3-vl-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q8_0", "gguf_batch_matmul": "dequantize_cublas", "n_ubatch": 2048}]
VL_PRESETS = ("qwen3-vl-8b", "qwen3-vl-30b-a3b", "qwen2.5-vl-7b", "qwen3.5-9b")
# a Qwen3.5 preset is the text decoder: its released vision_config (transformers 5.25.0 Qwen3_5VisionConfig's
# defaults, out_hidden_size the text width) is added where a case asks for it
QWEN35_VISION = {"model_type": "qwen3_5", "depth": 27, "hidden_size": 1152, "intermediate_size": 4304,
                 "num_heads": 16, "patch_size": 16, "spatial_merge_size": 2, "temporal_patch_size": 2,
                 "num_position_embeddings": 2304, "out_hidden_size": 4096}
VISION_KEYS = ["depth", "hidden_size", "num_heads", "intermediate_size", "patch_size", "spatial_merge_size",
               "temporal_patch_size", "num_position_embeddings", "out_hidden_size", "deepstack_visual_indexes",
               "window_size", "fullatt_block_indexes", "model_type", "in_channels"]
VISION_VALUES = [0, -1, 1, 3, 7, 10**6, 10**18, 2**63, 1e308, 0.5, True, None, "x", "\x1b[2J", [], [1, 2], {}, 4095,
                 list(range(100_000)), ["a", None], [10**18]]
DAMAGED = [None, 0, -1, 10**18, 1e308, "x", [], {}, [[1, 2]], True, "\x1b[2J" * 40]


def _with_keys(rng: random.Random, data: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    for key in rng.sample(keys, rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        data[key] = rng.choice(declared(key)) if roll < 0.6 else rng.choice(HUGE if roll < 0.75 else HOSTILE)
    return data


def _keys_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    serving = rng.random() < 0.45
    data = _with_keys(rng, dict(rng.choice(SERVING if serving else TRAINING)), SERVE_KEYS if serving else TRAIN_KEYS)
    commands = ([["estimate"]] * 3 + [["estimate", "--json"]] * 2 + [["serve-fit"], ["serve-fit", "--json"]]
                ) if serving else ([["estimate"]] * 3 + [["estimate", "--json"]] * 2 + [
                    ["fit", "--json"], *(["export-config", "--to", t] for t in ("trl", "axolotl", "llama-factory",
                                                                                 "verl"))])
    return [*rng.choice(commands), "{file}"], data


def vl_config(rng: random.Random) -> dict[str, Any]:
    """A vision-language preset's config.json with its vision_config made absurd, nested or enlarged."""
    name = rng.choice(VL_PRESETS)
    cfg = copy.deepcopy(get_model_preset(name).hf_config)
    if "vision_config" not in cfg:  # the Qwen3.5 text decoder: wrap it as the released file is
        cfg = {"model_type": "qwen3_5", "text_config": cfg, "vision_config": dict(QWEN35_VISION)}
    vision = cfg["vision_config"]
    kind = rng.randrange(6)
    if kind <= 2:
        for key in rng.sample(VISION_KEYS, rng.choice([1, 1, 2])):
            vision[key] = rng.choice(VISION_VALUES)
    elif kind == 3:  # the merge larger than the image, or the tower's width not the text model's
        vision.update(rng.choice([{"spatial_merge_size": 4096}, {"spatial_merge_size": 300, "patch_size": 16},
                                  {"patch_size": 65_536}, {"out_hidden_size": 5}, {"out_hidden_size": 4095},
                                  {"hidden_size": 7, "num_heads": 16}, {"num_position_embeddings": 1}]))
    elif kind == 4:
        for _ in range(rng.choice([2, 40])):
            vision = {"model_type": vision.get("model_type"), "vision_config": vision}
        cfg["vision_config"] = vision
    else:
        vision.update({f"k{i}": rng.choice([1, "x", None, 10**18]) for i in range(rng.choice([100, 20_000]))})
    return cfg


def _hidden(cfg: dict[str, Any]) -> Any:
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    return text.get("hidden_size")


def vision_refuses(cfg: Any) -> str:
    """Why transformers cannot build this tower or run it with images ("" where it can, as far as these rules go):
    a Conv3d kernel or a Linear of width 0, heads that do not divide the width (the attention's reshape), and a merger
    whose output is not the text model's width (Qwen2.5-VL / Qwen3-VL get_placeholder_mask: "Image features and image
    tokens do not match")."""
    vision = cfg.get("vision_config") if isinstance(cfg, dict) else None
    if not isinstance(vision, dict):
        return ""
    # the keys the tower's config class reads: Qwen2.5-VL has no learned position grid (num_position_embeddings is an
    # unknown key there, kept and never read)
    qwen2_5 = "qwen2_5_vl" in (cfg.get("model_type"), vision.get("model_type"))
    ints = {k: vision.get(k) for k in VISION_KEYS[:9] if not (qwen2_5 and k == "num_position_embeddings")}
    if any(v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0) for v in ints.values()):
        return "a vision width or count that is not a positive whole number"
    hidden, heads = ints["hidden_size"], ints["num_heads"]
    if isinstance(hidden, int) and isinstance(heads, int) and hidden % heads:
        return "vision heads that do not divide its width"
    out = ints["out_hidden_size"]
    if out is not None and out != _hidden(cfg):
        return "a merger output that is not the text width"
    return ""


def _configs_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    base = rng.choice([TRAINING[0], TRAINING[1], TRAINING[3], SERVING[0]])
    data = dict(base)
    data["model"] = {"name": rng.choice(["qwen3-vl", *TEXT]), "hf_config": vl_config(rng)}
    if "workload" not in data:  # images at the declared extremes too: the tower's bounds times the scenario's
        data["images_per_sample"] = rng.choice([1, 2, 8, 10_000])
        data["image_resolution"] = rng.choice([0, 1, 1024, 65_536])
    else:
        data.update(rng.choice([{}, {"mm_max_pixels": rng.choice(declared("mm_max_pixels"))},
                                {"max_num_batched_tokens": rng.choice([1, 8192, 2**24])},
                                {"mm_images_per_prompt": rng.choice(declared("mm_images_per_prompt"))}]))
    argv = rng.choice([["estimate"], ["estimate", "--json"], ["estimate", "--json"]])
    return [*argv, "{file}"], data


def _flags_case(rng: random.Random) -> tuple[list[str], dict[str, Any] | None]:
    roll = rng.random()
    if roll < 0.4:
        argv = ["kv-cache", rng.choice(["qwen3-vl-8b", "qwen3-vl-30b-a3b", "qwen3-vl", "qwen3-vl-8b\x1b[2J"])]
        for flag, pool in (("--batch", [1, 64, 0, -1, 2**63, "1e308", "nan"]),
                           ("--seq-len", [1, 262144, 10**18, 0, -5, "inf"]), ("--bytes", [1, 2, 0, 3, "fp8"]),
                           ("--unit", ["GB", "GiB", "PB"])):
            if rng.random() < 0.6:
                argv += [flag, str(rng.choice(pool))]
        return argv + (["--json"] if rng.random() < 0.5 else []), None
    if roll < 0.7:
        data = dict(rng.choice(TRAINING[:6]))
        argv = ["fit", "--objective", rng.choice(["fit", "throughput", "cost", "x\x1b[2J"])]
        for flag, pool in (("--deadline-days", [1, 0, -1, 1e308, "nan"]), ("--budget", [100, 0, -5, 1e18, "x"])):
            if rng.random() < 0.4:
                argv += [flag, str(rng.choice(pool))]
        return [*argv, *(["--json"] if rng.random() < 0.5 else []), "{file}"], data
    data = dict(rng.choice(SERVING))
    return ["serve-fit", "--question", rng.choice(["context", "users", "gpus", "images", ""]),
            *(["--json"] if rng.random() < 0.5 else []), "{file}"], data


def _import_text(rng: random.Random) -> tuple[str, str]:
    model = rng.choice(["Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-30B-A3B-Instruct", "Qwen/Qwen3-VL-8B\x1b[2J"])
    flag = rng.choice(["true", "false", "0", "1", "null", "[1, 2]", "{a: 1}", "'yes'", "1e308", "\"\\e[2J\""])
    kind = rng.randrange(6)
    if kind == 0:
        return "llamafactory.yaml", (
            f"model_name_or_path: {json.dumps(model)}\nstage: sft\nfinetuning_type: {rng.choice(['lora', 'full'])}\n"
            f"freeze_vision_tower: {flag}\nfreeze_multi_modal_projector: {rng.choice(['true', 'false', flag])}\n"
            f"image_max_pixels: {rng.choice([262144, 0, -1, 10**18])}\ncutoff_len: {rng.choice([2048, 0, 10**18])}\n"
            f"quantization_bit: {rng.choice([4, 8, 3, 'x'])}\nper_device_train_batch_size: 1\n")
    if kind == 1:
        return "swift.sh", (f"swift sft --model {model} --tuner_type {rng.choice(['lora', 'full'])} --freeze_vit "
                            f"{flag} --freeze_aligner {rng.choice(['true', 'false', flag])} --max_length "
                            f"{rng.choice([4096, 0, 10**18])} --quant_bits {rng.choice([4, 0, 'x'])}\n")
    if kind == 2:
        return "axolotl.yaml", (f"base_model: {json.dumps(model)}\nadapter: {rng.choice(['qlora', 'lora', 'x'])}\n"
                                f"load_in_4bit: {flag}\nlora_r: {rng.choice([16, 0, -1, 10**18])}\nsequence_len: 4096\n"
                                f"micro_batch_size: {rng.choice([1, 0, 10**18])}\nprocessor_type: AutoProcessor\n")
    if kind == 3:
        return "trl.json", json.dumps({"model_name_or_path": model, "use_peft": True, "load_in_4bit": True,
                                       "lora_r": rng.choice([16, 0, 10**18, "x"]), "per_device_train_batch_size": 1,
                                       "max_length": rng.choice([2048, -1, 1e308]), "bf16": rng.choice([True, "x"])})
    if kind == 4:
        return "verl.yaml", (f"actor_rollout_ref:\n  model:\n    path: {json.dumps(model)}\n    lora_rank: "
                             f"{rng.choice([0, 32, -1, 10**18])}\n  rollout:\n    name: vllm\n    "
                             f"gpu_memory_utilization: {rng.choice([0.5, 0, 2, 'x'])}\n    limit_images: {flag}\n"
                             f"data:\n  max_prompt_length: {rng.choice([1024, 0, 10**18])}\n  "
                             f"max_response_length: 1024\n  train_batch_size: {rng.choice([256, 0, -1])}\n")
    return "serve.sh", (f"llama-server -m /models/qwen3-vl-8b-Q4_K_M.gguf --mmproj x.gguf -ngl "
                        f"{rng.choice([99, -1, 10**18])} -c {rng.choice([8192, 0, 10**18])} -ub "
                        f"{rng.choice([512, 0, 'x'])} --no-mmap\n")


def local_cache(rng: random.Random, folder: Path) -> AbstractContextManager[None]:
    """HF_HUB_CACHE holding models--Qwen--Qwen3-VL-8B-Instruct with a hostile config.json, while inside."""
    return hub_cache(folder, "Qwen--Qwen3-VL-8B-Instruct", vl_config(rng))


def damaged_model_preset(rng: random.Random, folder: Path) -> tuple[str, Path, list[dict[str, Any]]]:
    """A copy of presets/ whose qwen3-vl-8b.json or qwen3-vl-30b-a3b.json has a new field damaged (or is cut), and
    plans that read it."""
    target = folder / "presets"
    shutil.copytree(PRESETS_DIR, target)
    preset = rng.choice(["qwen3-vl-8b", "qwen3-vl-30b-a3b"])
    name = f"{preset}.json"
    text = (PRESETS_DIR / "models" / name).read_text(encoding="utf-8")
    data = json.loads(text)
    site = rng.randrange(5)
    if site == 0:
        damaged = text[: rng.randrange(len(text))]
    else:
        node, key = ((data["hf_config"]["vision_config"], rng.choice(VISION_KEYS[:10])) if site <= 2 else
                     (data["hf_config"], "vision_config") if site == 3 else (data, rng.choice(["hf_config", "id"])))
        if rng.random() < 0.25:
            node.pop(key, None)
        else:
            node[key] = rng.choice(DAMAGED)
        damaged = json.dumps(data, allow_nan=True)
    (target / "models" / name).write_text(damaged, encoding="utf-8")
    plans = [{**t, "model": preset} for t in TRAINING[:2]] + [{**SERVING[0], "model": preset}]
    return name, target, plans


@contextlib.contextmanager
def presets_folder(path: Path) -> Iterator[None]:
    """The engine reads model presets from `path`/models while inside (both readers' PRESETS_DIR, caches cleared)."""
    from engine.configs import models as config_models
    from engine.models import presets

    original = presets.PRESETS_DIR
    presets.PRESETS_DIR = config_models.PRESETS_DIR = path
    _clear_engine_caches()
    try:
        yield
    finally:
        presets.PRESETS_DIR = config_models.PRESETS_DIR = original
        _clear_engine_caches()


def _run(argv: list[str], data: dict[str, Any] | None, folder: Path, rng: random.Random,
         named: str = "") -> tuple[str, str]:
    """One command in this process, classified as tests/fuzz_surfaces8.py does; a custom config whose tower
    transformers refuses must be refused; a refusal over a damaged preset must name its file."""
    if data is not None:
        (folder / "case.json").write_bytes(json.dumps(data).encode() if named else _file(data, rng))
        argv = [str(folder / "case.json") if a == "{file}" else a for a in argv]
    model = (data or {}).get("model")

    def check(out: str) -> str | None:
        if problem := _ranges_problem(argv, out):
            return problem
        if isinstance(model, dict) and (why := vision_refuses(model.get("hf_config"))):
            return f"estimated a tower transformers refuses ({why})"
        return None

    outcome, detail = run_command(argv, CASE_SECONDS, check, named)
    if outcome in BAD and data is not None:  # the file as written (a non-finite number may have been put in)
        detail += " | file: " + (folder / "case.json").read_bytes()[:400].decode("utf-8", "replace")
    return outcome, detail


def _one_case(family: str, rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    data: dict[str, Any] | None = None
    if family in ("keys", "configs", "flags"):
        argv, data = {"keys": _keys_case, "configs": _configs_case, "flags": _flags_case}[family](rng)
        return (*_run(argv, data, folder, rng), argv, data)
    if family == "imports":
        return import_case(rng, folder, _import_text, local_cache, _run)
    return damaged_presets_case(rng, folder, damaged_model_preset, lambda _name, path: presets_folder(path), _run)


def fuzz_surfaces9(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: FAMILY"; prints what went wrong."""
    return count_cases(count, seed, ("keys", "configs", "flags", "imports", "presets"), _one_case, BAD, 30)


def main() -> int:
    return suite_main(__doc__, "session 19 vision, VLM serving, framework rows", fuzz_surfaces9, 300, 20, BAD)


if __name__ == "__main__":
    sys.exit(main())
