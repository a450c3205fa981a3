"""Fuzz class of the newest surfaces (h-fuzz6): the post-training and serving keys at their declared bounds and past
them, the rent search (`fit --objective cost` with its price list, deadline and budget) and serve-fit, in-process.

    .venv/bin/python tests/fuzz_newest.py [--count 400] [--seed 17]

Each case takes a post-training or serving scenario (GRPO / PPO / DPO under TRL, verl, NeMo-RL, OpenRLHF, Unsloth,
ms-swift; vLLM, SGLang, llama.cpp, ollama, mlx, transformers) and sets one to three of its section's keys, two thirds
of the time to a value the key's declaration admits (its samples, choices, minimum and maximum: engine/scenario/keys.py
Check.samples / choices, so deep paths run) and otherwise to a hostile one (0, negatives, 1e308, NaN, huge and
unicode text with escapes, lists, objects). Rent cases add tokens_to_train, gpu_hour_price, --deadline-days,
--budget and a price list file, fair or hostile.

A third of the other cases (h-fuzz7) set the layout and time keys (engine/scenario/memory_keys.py, time_keys.py:
pipeline_layout, dp_shard, recompute, offload fractions, calibrations) on Megatron with pp x vpp, DeepSeek-V3 with an
uneven layout, and HSDP under torchtitan, the same way.

Outcome of one case:
  ok         exit 0; JSON strict (no NaN / Infinity) and sane (tests/fuzz_hostile.py sane_json); no control character
  refused    exit 2 and one line "error: ..." on stderr, no control character, at most MAX_LINE characters
  absurd     exit 0 with output failing a check, or a refusal that is not one clean short line (a value echoed whole)
  traceback  an exception escaping the command, or exit 70
  hang       no answer within CASE_SECONDS
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fuzz_cli import Hang, run_cli, suite_main  # noqa: E402

from engine.models.presets import gpu_presets  # noqa: E402
from engine.scenario.format import KEYS  # noqa: E402
from engine.scenario.memory_keys import MemoryKeys  # noqa: E402
from engine.scenario.posttraining_keys import PostTrainingKeys  # noqa: E402
from engine.scenario.serving_keys import ServingKeys  # noqa: E402
from engine.scenario.time_keys import TimeKeys  # noqa: E402

CASE_SECONDS = 30  # the rent search over every priced GPU type takes a few seconds on a loaded machine
MAX_LINE = 600  # a refusal: the key, one sentence and a value cut to 120 characters (engine/messages.py shown)
BAD = ("traceback", "hang", "absurd")
SPEC = {k.name: k for k in KEYS}
RL_KEYS = [k for k in PostTrainingKeys.__dataclass_fields__ if k in SPEC]
SERVING_KEYS = [k for k in ServingKeys.__dataclass_fields__ if k in SPEC]
# h-fuzz7: the layout keys (pipeline_layout, dp_shard, recompute, offload fractions, ...) and the time keys, on bases
# where they count: Megatron with pp x vpp, DeepSeek-V3 with Megatron-Bridge's uneven layout, HSDP under torchtitan
PARALLEL_KEYS = [k for k in (*MemoryKeys.__dataclass_fields__, *TimeKeys.__dataclass_fields__) if k in SPEC]
PARALLEL_BASES = [
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron", "tp": 2, "pp": 4,
     "vpp": 2, "pp_schedule": "interleaved-1f1b", "distributed_optimizer": True, "precision": "mixed-bf16",
     "micro_batch": 1, "grad_accum": 8, "seq_len": 4096},
    {"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32, "framework": "megatron", "tp": 2,
     "pp": 16, "ep": 8, "distributed_optimizer": True, "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 32,
     "seq_len": 4096, "pipeline_layout": "Et*4|(t*4|)*14tmL"},
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "framework": "torchtitan",
     "fsdp": True, "dp_shard": 8, "micro_batch": 2, "seq_len": 8192, "checkpointing": "full"}]
GRPO = {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "method": "full", "precision": "bf16", "checkpointing": "full",
        "micro_batch": 8, "grad_accum": 4, "training_objective": "grpo", "prompt_len": 512, "completion_len": 1024,
        "num_generations": 8, "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.3}
RL_BASES = [{**GRPO, "framework": "trl"}, {**GRPO, "framework": "verl", "fsdp": True},
            {**GRPO, "framework": "verl", "fsdp": True, "training_objective": "ppo", "critic_model": "same",
             "rollout_engine": "sglang"},
            {**GRPO, "framework": "nemo-rl"}, {**GRPO, "framework": "unsloth", "method": "lora"},
            {**GRPO, "framework": "openrlhf", "rollout_placement": "separate", "rollout_gpus": 2, "gpus_per_node": 4},
            {**GRPO, "framework": "ms-swift"},
            {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "lora", "framework": "trl",
             "training_objective": "dpo", "reference_model": "adapter-off"}]
SERVE = {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
         "weight_format": "awq-int4", "max_model_len": 32768}
SERVING_BASES = [{**SERVE, "serving_engine": e} for e in ("vllm", "sglang", "transformers")] + [
    {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": e,
     "weight_format": "Q4_K_M", "n_ctx": 32768} for e in ("llama.cpp", "ollama")]
TEXT = ["", " ", "\x1b[2J\x1b[H", "line\nVerdict: FITS", "\u202eevil", "a" * 5000, "\x00", "名前", "🙂" * 50,
        "${oc.env:HOME}", "$(id)"]
NUMBERS = [0, -1, 1, 2, 7, 2**31, 2**53 + 1, 2**63, 10**15, 10**30, 1e308, -1e308, 0.5, 1.5, 1e-300, True, False,
           None]
HOSTILE = [*NUMBERS, *TEXT, [], [1], {}, {"a": 1}, [[[]]], list(range(3000)), "auto", "none", "same"]
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400"]  # written as bare JSON tokens into the file
GPUS = list(gpu_presets())


def declared(key: str) -> list[Any]:
    """Values the key's declaration admits: its samples and choices, and its bounds with one step past them."""
    check = SPEC[key].check
    out = [*check.samples(), *check.choices()]
    for attr in ("minimum", "maximum", "low", "high"):
        bound = getattr(check, attr, None)
        if isinstance(bound, int | float) and not isinstance(bound, bool) and abs(bound) < 1e300:
            out += [bound, bound - 1, bound + 1] if isinstance(bound, int) else [bound]
    return out or [SPEC[key].default]


def _file(data: dict[str, Any], rng: random.Random) -> bytes:
    text = json.dumps(data, ensure_ascii=False)
    if rng.random() < 0.05:  # a non-finite number where a key's value is
        numeric = [k for k, v in data.items() if isinstance(v, int | float) and not isinstance(v, bool)]
        key = rng.choice(numeric or ["micro_batch"])
        text = json.dumps({**data, key: "@@"}, ensure_ascii=False).replace('"@@"', rng.choice(NON_FINITE))
    return text.encode("utf-8", "surrogatepass")


def _parallel_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    data = dict(rng.choice(PARALLEL_BASES))
    for key in rng.sample(PARALLEL_KEYS, rng.choice([1, 1, 2, 3])):
        data[key] = rng.choice(declared(key)) if rng.random() < 0.65 else rng.choice(HOSTILE)
    commands = (["estimate", "--json"], ["estimate"], ["fit", "--json"], ["export-config", "--to", "megatron"])
    return [*rng.choice(commands), "{file}"], data


def _section_case(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    serving = rng.random() < 0.45
    data = dict(rng.choice(SERVING_BASES if serving else RL_BASES))
    for key in rng.sample(SERVING_KEYS if serving else RL_KEYS, rng.choice([1, 1, 2, 3])):
        data[key] = rng.choice(declared(key)) if rng.random() < 0.65 else rng.choice(HOSTILE)
    if rng.random() < 0.1:
        data["model"] = {"name": rng.choice(TEXT), "hf_config": {
            "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
            "intermediate_size": 1024, "vocab_size": 1000, "max_position_embeddings": rng.choice([1, 4096, *NUMBERS])}}
    commands = (["estimate", "--json"], ["estimate"], ["serve-fit", "--json"], ["serve-fit"]) if serving else (
        ["estimate", "--json"], ["estimate"], ["fit", "--json"], ["fit", "--objective", "throughput", "--json"],
        ["export-config", "--to", "verl"], ["export-config", "--to", "trl"])
    return [*rng.choice(commands), "{file}"], data


def _rent_case(rng: random.Random, folder: Path) -> tuple[list[str], dict[str, Any]]:
    data = dict(rng.choice([*RL_BASES[:2], SERVING_BASES[0], {
        "model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "fsdp": True, "seq_len": 4096},
        {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "ep": 8}]))
    fair = rng.random() < 0.7
    data["tokens_to_train"] = rng.choice([10**6, 10**9, 10**12, 10**15, 10**18]) if fair else rng.choice(HOSTILE)
    if rng.random() < 0.5:
        data["gpu_hour_price"] = rng.choice([1e-9, 0.01, 2.5, 1e6]) if fair else rng.choice(HOSTILE)
    argv = ["fit", "--objective", "cost", *(["--json"] if rng.random() < 0.5 else [])]
    if rng.random() < 0.5:
        argv += ["--deadline-days", str(rng.choice([1e-3, 0.5, 30, 99999.9, 0, -1, 1e6, "nan", "inf", "1e308"]))]
    if rng.random() < 0.5:
        argv += ["--budget", str(rng.choice([1e-6, 10, 1e4, 1e15, 0, -1, 1e16, "nan", "-inf", "x"]))]
    if rng.random() < 0.6:
        prices = {g: rng.choice([0.5, 2.5, 1e6, 1e-9]) for g in rng.sample(GPUS, rng.choice([1, 3, 10, len(GPUS)]))}
        if not fair:
            prices[rng.choice([*GPUS, *TEXT])] = rng.choice([*HOSTILE, "1"])
        raw = json.dumps({"currency": rng.choice(["USD", "EUR", None] if fair else ["", "XXX", 5, "\x1b"]),
                          "prices": prices}, ensure_ascii=False).encode("utf-8", "surrogatepass")
        if rng.random() < 0.2:
            raw = rng.choice([b"", b"[" * 100_000, b"\xff\xfe", b'{"prices": {"a100-80gb": NaN}}',
                              b'{"prices": {"a100-80gb": ' + b"9" * 5000 + b"}}", raw[: len(raw) // 2]])
        (folder / "prices.json").write_bytes(raw)
        argv += ["--prices", str(folder / "prices.json")]
    return [*argv, "{file}"], data


def _strict_json(text: str) -> Any:
    def refuse(token: str) -> None:
        raise ValueError(f"non-finite {token} in the JSON")

    return json.loads(text, parse_constant=refuse)


def run_case(argv: list[str], seconds: int, check_json: Callable[[str], str | None] | None = None) -> tuple[str, str]:
    """One command run in this process and classified (outcome, detail): a hang past `seconds` and a traceback are
    outcomes too; `check_json`, on a JSON answer classified ok, names what is absurd in it ("" where nothing is)."""
    try:
        code, out, err = run_cli(argv, seconds)
        outcome, detail = classify(code, out, err, "--json" in argv)
        if outcome == "ok" and check_json is not None and "--json" in argv and (problem := check_json(out)):
            outcome, detail = "absurd", problem
    except Hang:
        outcome, detail = "hang", ""
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        outcome, detail = "traceback", f"{type(exc).__name__}: {exc}"[:300]
    return outcome, detail


def classify(code: int, out: str, err: str, is_json: bool) -> tuple[str, str]:
    from fuzz_hostile import sane_json

    if code == 70 or "Traceback" in err:
        return "traceback", err.strip()[-300:]
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        clean = out == "" and sum("error: " in line for line in lines) == 1 and all(
            ch.isprintable() for line in lines for ch in line)
        if not clean or max(len(line) for line in lines) > MAX_LINE:
            return "absurd", f"refusal not one clean short line: {err[:200]!r}"
        return "refused", ""
    if code != 0:
        return "traceback", f"exit {code}: {err[-200:]}"
    if any(not ch.isprintable() and ch not in "\n\t" for ch in out):
        return "absurd", "a control character in the output"
    if is_json:
        try:
            problem = sane_json(json.dumps(_strict_json(out)))
        except ValueError as exc:
            return "absurd", str(exc)[:200]
        if problem:
            return "absurd", problem
    return "ok", ""


def fuzz_newest(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: sections" / "cases: rent"; prints what went wrong."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    details: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(count):
            family = "rent" if i % 4 == 3 else "parallel" if i % 4 == 1 else "sections"
            argv, data = (_rent_case(rng, folder) if family == "rent" else _parallel_case(rng) if family == "parallel"
                          else _section_case(rng))
            (folder / "case.json").write_bytes(_file(data, rng))
            argv = [str(folder / "case.json") if a == "{file}" else a for a in argv]
            outcome, detail = run_case(argv, CASE_SECONDS)
            counts[outcome] += 1
            counts[f"cases: {family}"] += 1
            if outcome in BAD:
                details.append(f"{outcome}: {' '.join(argv[:-1])} {json.dumps(data, default=str)[:300]}: {detail}")
    for line in details[:20]:
        print(line)
    return counts


def main() -> int:
    return suite_main(__doc__, "newest surfaces", fuzz_newest, 400, 17, BAD)


if __name__ == "__main__":
    sys.exit(main())
