"""Fuzz class of session 20's surfaces (h-fuzz10): the served model's rent (`fit --objective cost` of an inference
scenario with --users / --prompt-tokens / --output-tokens / --max-tpot-ms / --max-ttft-s / --budget-per-hour /
--budget-per-million and the shared price list), apply_rope_fusion with a config's partial rotary factor,
cross_entropy megatron-unfused, gguf_batch_matmul's kq values, the MLX weight formats, a pre-training token budget, the
length spread of a rollout, and presets/gpus.json / host_overhead.json / weight_formats.json with this session's
fields damaged.

    .venv/bin/python tests/fuzz_surfaces10.py [--count 300] [--seed 21]

Families (case i takes family i % 5):
  rent     `fit --objective cost [--json]` of a vLLM / llama.cpp / MLX served model with the new flags at absurd values
           (users 0 / 10^18 / NaN / negative, TPOT target 0, budgets negative or 1e308) and half the time a price list
           with hostile entries (a currency with control characters or markup, negative / NaN / huge prices, text
           GPU ids, a 10 MB file)
  configs  a custom model from a rotary preset's config.json with partial_rotary_factor / rotary_pct /
           rotary_emb_fraction / rope_parameters.partial_rotary_factor at 0, 2, NaN, a string, ..., trained under
           Megatron with apply_rope_fusion on or off
  keys     one to three of the new keys (apply_rope_fusion, cross_entropy, gguf_batch_matmul, weight_format mlx-*,
           tokens_to_train, max_completion_len / completion_len) declared or hostile, on Megatron, llama.cpp, MLX,
           pre-training and GRPO plans; estimate, --json, fit --json, serve-fit
  spread   a GRPO rollout with max_completion_len far above completion_len (up to 10^18), and a pre-training plan with
           tokens_to_train up to 10^30: estimate, --json, fit --json, fit --objective cost
  presets  presets/gpus.json (an Apple GPU's metal_dispatch_seconds), host_overhead.json (decode_per_layer,
           qwen3_5_text) or weight_formats.json (the mlx-* formats, their engines) damaged, then a command reading it
Outcome of one case (tests/fuzz_surfaces8.py's, plus): a config whose rotary fraction transformers cannot apply (not a
number in [0, 1]) counted absurd when estimated, and a served rent whose cost is not finite and positive.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import suite_main  # noqa: E402
from fuzz_harness import count_cases, run_command  # noqa: E402
from fuzz_newest import HOSTILE, _file, declared  # noqa: E402
from fuzz_surfaces8 import _clear_engine_caches, _ranges_problem  # noqa: E402

from engine.models.presets import PRESETS_DIR, get_model_preset  # noqa: E402

CASE_SECONDS = 30
BAD = ("traceback", "hang", "absurd", "unnamed")
SERVING = [
    {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm",
     "max_model_len": 8192},
    {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
     "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 4096},
    {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_K_M", "n_ctx": 32768},
    {"model": "qwen2.5-7b", "gpu": "apple-m4-max-128gb", "workload": "inference", "serving_engine": "mlx",
     "weight_format": "mlx-4bit"},
    {"model": "llama-3.1-8b", "gpu": "apple-m2-ultra-192gb", "workload": "inference", "serving_engine": "llama.cpp",
     "weight_format": "Q4_0", "gguf_batch_matmul": "kq_per_score"}]
MEGATRON = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron", "tp": 2,
            "distributed_optimizer": True, "precision": "mixed-bf16", "seq_len": 4096, "apply_rope_fusion": False}
GRPO = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "framework": "verl", "training_objective": "grpo",
        "prompt_len": 512, "completion_len": 300, "num_generations": 5, "rollout_engine": "vllm"}
PRETRAIN = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "method": "full",
            "fsdp": True, "tokens_to_train": 10**13}
TRAINING = [MEGATRON, {**MEGATRON, "apply_rope_fusion": True, "cross_entropy": "megatron-unfused"},
            {**MEGATRON, "framework": "verl-megatron"}, {**MEGATRON, "framework": "megatron-2022"}, GRPO, PRETRAIN,
            {"model": "qwen2.5-0.5b", "gpu": "apple-m4-max-128gb", "method": "lora", "framework": "mlx"}]
NEW_KEYS = ["apply_rope_fusion", "cross_entropy", "gguf_batch_matmul", "weight_format", "tokens_to_train",
            "max_completion_len", "completion_len", "framework", "seq_len", "cp", "gpu"]
HUGE = [10**18, -(10**18), 10**30, 2**63, -1, 0, 1e308, float("nan"), "1e18", [10**18], {"a": 5}]
# each flag's values: in its range (the search runs) and out of it (argparse's refusal)
FLAG_VALUES = {"--users": (["1", "8", "1000000", "4096"], ["1000001", "0", "-3", "1e18", "1000000000000000000", "nan"]),
               "--prompt-tokens": (["1", "512", "100000000", "131072"], ["0", "-1", "10e30", "nan", ""]),
               "--output-tokens": (["1", "256", "100000000"], ["0", "-1", "inf"]),
               "--max-tpot-ms": (["0.001", "50", "1e6"], ["0", "-5", "nan", "inf", "1e308"]),
               "--max-ttft-s": (["0.0001", "2", "1e6"], ["0", "-1", "nan"]),
               "--budget-per-hour": (["1e-6", "10", "1e12"], ["0", "-10", "1e308", "nan"]),
               "--budget-per-million": (["1e-9", "0.5", "1e12"], ["0", "-1", "1e308", "inf"]),
               "--budget": (["5", "1e15"], ["0", "-5", "1e308", "nan"])}
ROTARY_KEYS = ["partial_rotary_factor", "rotary_pct", "rotary_emb_fraction", "rope_parameters"]
ROTARY_VALUES = [0, 0.0, 2, 1, 0.5, 0.25, -0.5, 1.0000001, 1e308, -1e308, float("nan"), float("inf"), "0.5", "x",
                 "\x1b[2J", True, False, None, [], [0.5], {}, 10**18]
ROTARY_PRESETS = ("llama-3-8b", "qwen2.5-7b", "qwen3-8b")


def _price_list(rng: random.Random, folder: Path) -> Path:
    """A price list with a hostile entry, or a huge one."""
    kind = rng.choice([0, 1, 2, 3, 4, 5, 5, 5, 6])
    data: Any = {"currency": "USD", "prices": {"h100-sxm-80gb": 2.5, "rtx-4090": 0.4, "a100-80gb": 1.6}}
    if kind == 0:
        data["currency"] = rng.choice(["US\x1b[2JD", "<b>USD</b>", "USD\n", "\u202eDSU", "", None, 5, "usd", "€"])
    elif kind == 1:
        data["prices"][rng.choice(list(data["prices"]))] = rng.choice([-1, 0, float("nan"), float("inf"), 1e308,
                                                                       "2.5", None, True, [], 1e-300])
    elif kind == 2:
        data["prices"][rng.choice(["\x1b[2Jh100", "<script>x</script>", "a" * 5000, "", "h100-sxm-80gb\n"])] = 1.0
    elif kind == 3:  # a 10 MB list: past the reader's cap
        data["prices"].update({f"gpu{i:07d}": 1.0 for i in range(rng.choice([20, 400_000]))})
    elif kind == 4:
        data = rng.choice([[], "x", None, 5, {"prices": []}, {"prices": "x"}])
    elif kind == 5:
        data["prices"] = {g: rng.choice([0.1, 1.0, 1e6]) for g in rng.sample(sorted(_gpu_ids()), 30)}
    path = folder / "prices.json"
    text = json.dumps(data, allow_nan=True)
    if kind == 6:
        text = rng.choice(["", "{", "\xff\xfe", '{"prices": {"h100-sxm-80gb": NaN}}', "[" * 100_000])
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def _gpu_ids() -> list[str]:
    from engine.models.presets import gpu_presets

    return list(gpu_presets())


def _rent_case(rng: random.Random, folder: Path) -> tuple[list[str], dict[str, Any]]:
    data = dict(rng.choice(SERVING))
    argv = ["fit", "--objective", "cost"]
    for flag in rng.sample(sorted(FLAG_VALUES), rng.choice([1, 2, 3, 4])):
        argv += [flag, rng.choice(FLAG_VALUES[flag][rng.random() < 0.2])]
    if rng.random() < 0.4:
        argv += ["--prices", str(_price_list(rng, folder))]
    return [*argv, *(["--json"] if rng.random() < 0.6 else []), "{file}"], data


def rotary_config(rng: random.Random) -> tuple[dict[str, Any], Any]:
    """A rotary preset's config.json with a partial rotary factor set (the value it was given)."""
    cfg = copy.deepcopy(get_model_preset(rng.choice(ROTARY_PRESETS)).hf_config)
    key, value = rng.choice(ROTARY_KEYS), rng.choice(ROTARY_VALUES)
    if key == "rope_parameters":
        rope = cfg.get("rope_parameters") if isinstance(cfg.get("rope_parameters"), dict) else {"rope_type": "default"}
        cfg["rope_parameters"] = {**rope, "partial_rotary_factor": value}
    else:
        cfg[key] = value
    # transformers' Llama / Qwen classes never read rotary_emb_fraction (flash-attn's and remote-code configs' name):
    # any value of it is a key the model ignores, as the engine does
    return cfg, None if key == "rotary_emb_fraction" or (key == "rotary_pct" and "partial_rotary_factor" in cfg) \
        else value


def rotary_refuses(value: Any) -> str:
    """Why transformers cannot apply this rotary fraction ("" where it can): it computes int(head_dim * factor) and
    rotates q[..., :rot_dim] (modeling_phi / modeling_gpt_neox / modeling_qwen3_next apply_rotary_pos_emb): a factor
    above 1 gives cos/sin wider than the head (a broadcast error), a negative one a negative slice, NaN / inf an int()
    error, text a repeated string."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "a rotary fraction that is not a number"
    if not (math.isfinite(value) and 0 <= value <= 1):
        return "a rotary fraction outside 0 to 1"
    return ""


def _configs_case(rng: random.Random) -> tuple[list[str], dict[str, Any], Any]:
    data = dict(rng.choice(TRAINING[:4]))
    cfg, value = rotary_config(rng)
    data["model"] = {"name": "rotary", "hf_config": cfg}
    argv = rng.choice([["estimate"], ["estimate", "--json"], ["estimate", "--json"], ["fit", "--json"]])
    return [*argv, "{file}"], data, value


def _keys_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    serving = rng.random() < 0.4
    data = dict(rng.choice(SERVING if serving else TRAINING))
    for key in rng.sample(NEW_KEYS, rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        data[key] = rng.choice(declared(key)) if roll < 0.6 else rng.choice(HUGE if roll < 0.8 else HOSTILE)
    commands = ([["estimate"]] * 3 + [["estimate", "--json"]] * 2 + [["serve-fit"], ["serve-fit", "--json"]]
                ) if serving else ([["estimate"]] * 3 + [["estimate", "--json"]] * 2 + [["fit", "--json"]])
    return [*rng.choice(commands), "{file}"], data


def _spread_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    if rng.random() < 0.5:
        data = {**GRPO, "max_completion_len": rng.choice([301, 4096, 10**6, 10**9, 2**31, 10**18]),
                "completion_len": rng.choice([1, 300, 2**20])}
        if rng.random() < 0.3:
            data["model"] = "qwen3-30b-a3b"  # a MoE: the spread, not the lone tail
    else:
        data = {**PRETRAIN, "tokens_to_train": rng.choice([10**12, 10**15, 10**18, 10**24, 10**30, 2**63, 1e308]),
                "model": rng.choice(["llama-3.1-8b", "llama-3.1-405b", "qwen2.5-0.5b"])}
    argv = rng.choice([["estimate"], ["estimate", "--json"], ["fit", "--json"], ["fit", "--objective", "cost"],
                       ["fit", "--objective", "cost", "--json"]])
    return [*argv, "{file}"], data


# presets files, this session's fields in them (a path of keys; an int picks a list entry by its id) and plans
APPLE = {"model": "llama-3.1-8b", "gpu": "apple-m2-ultra-192gb", "workload": "inference",
         "serving_engine": "llama.cpp", "weight_format": "Q4_0"}
MLX = {"model": "qwen2.5-7b", "gpu": "apple-m4-max-128gb", "workload": "inference", "serving_engine": "mlx"}
QWEN35_HF = {"model": "qwen3.5-9b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "transformers"}
DAMAGE_SITES = [("gpus.json", ["apple-m2-ultra-192gb", "metal_dispatch_seconds"], [APPLE]),
                ("gpus.json", ["apple-m4-max-128gb", "metal_dispatch_seconds"], [{**APPLE, "gpu": "apple-m4-max-128gb"}]),
                ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3_5_text"], [QWEN35_HF]),
                ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3_5_text", "*", "decode_per_layer"],
                 [QWEN35_HF]),
                ("weight_formats.json", ["formats", "mlx-4bit"], [{**MLX, "weight_format": "mlx-4bit"}]),
                ("weight_formats.json", ["formats", "mlx-8bit", "engines"], [{**MLX, "weight_format": "mlx-8bit"}]),
                ("weight_formats.json", ["formats", "mlx-6bit", "bits"], [{**MLX, "weight_format": "mlx-6bit"}]),
                ("weight_formats.json", None, [{**MLX, "weight_format": "mlx-4bit"}, APPLE]),
                ("gpus.json", None, [APPLE])]
DAMAGED = [None, 0, -1, 1e308, float("nan"), "x", [], {}, [[1, 2]], True, "\x1b[2J" * 40, [1, -1, "x"], 10**18]


def _node(data: Any, part: Any) -> Any:
    if isinstance(data, list):  # gpus.json: a list of presets by id
        return next(d for d in data if isinstance(d, dict) and d.get("id") == part)
    if part == "*":  # any entry of a table (the first with the next key)
        return next(v for v in data.values() if isinstance(v, dict))
    return data[part]


def damaged_presets(rng: random.Random, folder: Path, whole_gpus_file: bool = True
                    ) -> tuple[str, Path, list[dict[str, Any]]]:
    """A copy of presets/ with one of this session's fields damaged (or a file cut), and plans reading it."""
    name, path, plans = rng.choice([site for site in DAMAGE_SITES if whole_gpus_file or site[:2] != ("gpus.json", None)])
    target = folder / "presets"
    shutil.copytree(PRESETS_DIR, target)
    text = (PRESETS_DIR / name).read_text(encoding="utf-8")
    if path is None:
        damaged = text[: rng.randrange(len(text))]
    else:
        data = json.loads(text)
        node = data
        for part in path[:-1]:
            node = _node(node, part)
        if isinstance(node, dict) and "*" not in path and rng.random() < 0.25:
            node.pop(path[-1], None)
        elif isinstance(node, dict):
            node[path[-1]] = rng.choice(DAMAGED)
        damaged = json.dumps(data, allow_nan=True)
    (target / name).write_text(damaged, encoding="utf-8")
    return name, target, plans


@contextlib.contextmanager
def presets_folder(path: Path) -> Iterator[None]:
    """The engine reads presets from `path` while inside (each reader's folder or file, caches cleared)."""
    from engine.configs import models as config_models
    from engine.models import presets, weight_formats
    from engine.timing import host_table

    saved = (presets.PRESETS_DIR, config_models.PRESETS_DIR, host_table.HOST_FILE, weight_formats.data_dir)
    presets.PRESETS_DIR = config_models.PRESETS_DIR = path
    host_table.HOST_FILE = path / "host_overhead.json"
    weight_formats.data_dir = lambda _name: path
    _clear_engine_caches()
    try:
        yield
    finally:
        presets.PRESETS_DIR, config_models.PRESETS_DIR, host_table.HOST_FILE, weight_formats.data_dir = saved
        _clear_engine_caches()


def _rent_problem(argv: list[str], out: str) -> str | None:
    """A served rent's ranked rows: cost per hour finite and above 0, per million finite."""
    if argv[:3] != ["fit", "--objective", "cost"] or "--json" not in argv:
        return None
    report = json.loads(out)
    for row in report.get("ranked", []) if isinstance(report, dict) else []:
        for key in ("cost_per_hour", "cost_per_million_output_tokens"):
            value = row.get(key)
            if value is not None and not (isinstance(value, int | float) and 0 < value < 1e300):
                return f"ranked {key} {value!r}"
    return None


def _run(argv: list[str], data: dict[str, Any] | None, folder: Path, rng: random.Random, named: str = "",
         rotary: Any = None) -> tuple[str, str]:
    """One command in this process, classified as tests/fuzz_surfaces8.py does; a config whose rotary fraction
    transformers cannot apply must be refused; a refusal over a damaged preset must name its file."""
    if data is not None:
        (folder / "case.json").write_bytes(json.dumps(data, allow_nan=True).encode() if named or rotary is not None
                                           else _file(data, rng))
        argv = [str(folder / "case.json") if a == "{file}" else a for a in argv]

    def check(out: str) -> str | None:
        if problem := _ranges_problem(argv, out) or _rent_problem(argv, out):
            return problem
        return f"estimated {why} ({rotary!r})" if (why := rotary_refuses(rotary)) else None

    return run_command(argv, CASE_SECONDS, check, named)


def _one_case(family: str, rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    if family == "rent":
        argv, data = _rent_case(rng, folder)
        return (*_run(argv, data, folder, rng), argv, data)
    if family == "configs":
        argv, data, value = _configs_case(rng)
        return (*_run(argv, data, folder, rng, rotary=value), argv, data)
    if family in ("keys", "spread"):
        argv, data = (_keys_case if family == "keys" else _spread_case)(rng)
        return (*_run(argv, data, folder, rng), argv, data)
    name, path, plans = damaged_presets(rng, folder)
    data = dict(rng.choice(plans))
    command = rng.choice([["estimate"], ["estimate", "--json"], ["serve-fit"], ["fit", "--objective", "cost"]])
    with presets_folder(path):
        return (*_run([*command, "{file}"], data, folder, rng, named=name), command, data)


def fuzz_surfaces10(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: FAMILY"; prints what went wrong."""
    return count_cases(count, seed, ("rent", "configs", "keys", "spread", "presets"), _one_case, BAD, 40)


def main() -> int:
    return suite_main(__doc__, "session 20 serve rent, rotary, new keys and presets", fuzz_surfaces10, 300, 21, BAD)


if __name__ == "__main__":
    sys.exit(main())
