"""Fuzz class of the surfaces of sessions 21 and 22 (h-fuzz12), in-process through gui/launch.py main.

    .venv/bin/python tests/fuzz_surfaces12.py [--count 300] [--seed 41]

Families (case i takes family i % 6):
  mlog      diagnose's Megatron-LM training log reader (engine/diagnosis/megatron_log.py): memory reports and iteration
            lines with absurd numbers (0, 12 digits, NaN, negative, inf), iterations out of order or repeated, a 100 MB
            line, the log cut, binary bytes put in, an out-of-memory error at its end; beside no plan or one
  mscript   a Megatron-LM launch script of tests/data/configs/megatron with this session's flags (--grad-reduce-in-bf16,
            --tp-comm-overlap, --overlap-moe-expert-parallel-comm, --accumulate-allreduce-grads-in-fp32, --fp16) and
            its shape flags (matched to a preset) set absurd; `import`, then the imported scenario estimated
  swift     an ms-swift script or YAML with vit_gradient_checkpointing / freeze_vit / tp_comm_overlap of wrong types;
            `import`, then estimated
  rlexport  TRL with its engine on GPUs of its own (`trl vllm-serve`) and verl by token budget (use_dynamic_bsz,
            ppo_max_token_len_per_gpu) with hostile model names and budgets: the export parsed back as its framework
            reads it (YAML; bash -n and shlex for the server's command line, which must hold the name as one word),
            and imported again
  newkeys   sequence_len_std, max_tokens_per_micro_batch, optimizer_step, vision_tower at absurd values in scenario
            files; estimate, fit, fit --objective cost, export-config
  served    a served model asked for absurd users / context (max_num_seqs, max_model_len, n_ctx: the users_asked verdict)
            and the cost search with its flags (the ignored-flag warnings) and a hostile price list
Outcome of one case (tests/fuzz_newest.py's classify, tests/fuzz_surfaces11.py's classified): ok, refused, absurd,
traceback, hang; plus "injected" where an export's hostile name became syntax, and "absurd" where a command that ran
wrote a warning that is not one clean short line.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, suite_main  # noqa: E402
from fuzz_exports import TINY_CONFIG, hostile_text  # noqa: E402
from fuzz_harness import count_cases  # noqa: E402
from fuzz_newest import MAX_LINE, classify  # noqa: E402
from fuzz_surfaces11 import PLANS, classified, run_main  # noqa: E402

BAD = ("traceback", "hang", "absurd", "injected")
FAMILIES = ("mlog", "mscript", "swift", "rlexport", "newkeys", "served")
CONFIGS = REPO / "tests/data/configs"
NUMBERS = ["0", "0.0", "999999999999", "1" * 40, "nan", "NaN", "-5", "-0", "inf", "1e308", "3.5", "", "0x10", "\u0663"]
ODD = [0, -1, 1, 2, 10**30, 1e308, float("nan"), float("inf"), -1e308, 0.5, "", "x", "\x1b[2J", "a" * 100_000, None,
       True, False, [], {}, [1], {"a": 1}, "auto", "frozen", "trained", "frozen-backward", "megatron", "generic"]


def _memory_line(rng: random.Random, iteration: str) -> str:
    a, m, r, v = (rng.choice(NUMBERS) if rng.random() < 0.3 else f"{rng.uniform(1, 80000):.2f}" for _ in range(4))
    return (f"[Rank {rng.choice(['0', '7', '-1', 'x'])}] (after {iteration} iterations) memory (MB) | allocated: {a} | "
            f"max allocated: {m} | reserved: {r} | max reserved: {v}")


def _iteration_line(rng: random.Random, i: int) -> str:
    ms = rng.choice(NUMBERS) if rng.random() < 0.3 else f"{rng.uniform(1, 100000):.1f}"
    return (f" [2026-12-07 10:00:00] iteration {i:8d}/{rng.choice([100, 0, -1]):8d} | consumed samples: {i * 8} | "
            f"elapsed time per iteration (ms): {ms} | learning rate: 3.0E-04 | lm loss: {rng.choice(['2.5', 'nan'])} |")


def megatron_log(rng: random.Random) -> bytes:
    """A Megatron-LM log, its numbers absurd at times, its lines out of order, then damaged."""
    lines = ["using world size: 8, data-parallel size: 8", "> building GPT model ..."]
    for i in range(rng.choice([0, 1, 2, 10, 200])):
        lines.append(_iteration_line(rng, rng.choice([i, -i, 10**12, 0])))
        if rng.random() < 0.3:
            lines.append(_memory_line(rng, rng.choice([str(i), "0", "999999999999", "-3", "x"])))
    rng.shuffle(lines) if rng.random() < 0.3 else None
    if rng.random() < 0.1:
        lines.append("a" * 100_000_000 if rng.random() < 0.3 else "elapsed time per iteration (ms): " + "9" * 10_000)
    if rng.random() < 0.15:
        lines.append("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                     "capacity of 79.11 GiB of which 1.2 GiB is free.")
    raw = "\n".join(lines).encode()
    kind = rng.randrange(5)
    if kind == 0 and raw:
        raw = raw[: rng.randrange(len(raw))]
    elif kind == 1:
        at = rng.randrange(len(raw) + 1)
        raw = raw[:at] + rng.choice([b"\x00" * 10, b"\xff\xfe", b"\r", b"\x1b[2J", os.urandom(64)]) + raw[at:]
    elif kind == 2:
        raw = raw.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\x00", b"\n\n"]))
    return raw


def _mlog_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    (folder / "train.log").write_bytes(megatron_log(rng))
    argv = ["diagnose", *(["--json"] if rng.random() < 0.5 else []), str(folder / "train.log")]
    plan = rng.choice([None, PLANS[0], PLANS[1], PLANS[2], PLANS[4]])
    if plan is not None:
        (folder / "plan.json").write_text(json.dumps(plan))
        argv.append(str(folder / "plan.json"))
    return (*classified(argv), argv, plan)


MEGATRON_FLAGS = ["--grad-reduce-in-bf16", "--tp-comm-overlap", "--overlap-moe-expert-parallel-comm",
                  "--accumulate-allreduce-grads-in-fp32", "--fp16", "--bf16", "--overlap-grad-reduce",
                  "--overlap-param-gather", "--use-distributed-optimizer", "--sequence-parallel"]
SHAPE_FLAGS = ["--num-layers", "--hidden-size", "--ffn-hidden-size", "--num-attention-heads", "--num-query-groups",
               "--kv-channels", "--seq-length", "--max-position-embeddings", "--vocab-size", "--micro-batch-size",
               "--global-batch-size", "--tensor-model-parallel-size", "--num-experts"]
WORDS = [*NUMBERS, "$(id)", "`id`", "${HOME}", "'", '"', "\\", "; rm -rf x", "a\nb", "--bf16", "true", "None"]


def megatron_script(rng: random.Random) -> tuple[str, list[str]]:
    """One of the Megatron-LM scripts with new flags put in and shape flags made absurd: (text, the flags whose value
    was made absurd)."""
    text = rng.choice(sorted((CONFIGS / "megatron").glob("*.sh"))).read_text(encoding="utf-8")
    changed = []
    for flag in rng.sample(SHAPE_FLAGS, rng.choice([0, 1, 2, 3])):
        changed.append(flag)
        value = shlex.quote(rng.choice(WORDS)) if rng.random() < 0.5 else rng.choice(WORDS)
        text = re.sub(rf"({re.escape(flag)})([ =])(\S+)", lambda m, v=value: m.group(1) + m.group(2) + v, text)
    added = [f for f in rng.sample(MEGATRON_FLAGS, rng.randint(0, 4))]
    if added:
        extra = " ".join(f + (f" {rng.choice(WORDS)}" if rng.random() < 0.2 else "") for f in added)
        text = re.sub(r"(MODEL_ARGS=\(|GPT_MODEL_ARGS=\(|--num-layers )", lambda m: f"{m.group(1)}\n    {extra}\n    "
                      if m.group(1).endswith("(") else f"{extra} {m.group(1)}", text, count=1)
    return text, changed


def _unsaid(out: str, keys: list[str]) -> str:
    """The first of `keys` (given a value the importer cannot take) that the import --json answer `out` lists as
    "not read by the planner" or not at all: a silent or wrong reason ("" where each is said)."""
    answer = json.loads(out)
    why = {u["key"].split(": ", 1)[-1]: u["why"] for u in answer.get("unmapped", [])}
    mapped = {m["source"].split(": ", 1)[-1] for m in answer.get("mapped", [])}
    if any("rejected: config.json" in w for w in why.values()):  # a shape out of bounds: the model's config said it
        return ""
    return next((k for k in keys if k not in mapped and why.get(k, "not read by the planner") ==
                 "not read by the planner"), "")


def _import_then_estimate(name: str, text: str, folder: Path, rng: random.Random,
                          said: list[str]) -> tuple[str, str, list[str], Any]:
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = ["import", "--json", str(path)] if rng.random() < 0.7 else ["import", str(path)]
    outcome, detail = classified(argv)
    if outcome == "ok" and "--json" in argv:  # the imported scenario is one this app reads
        _code, out, _err = run_main(argv)
        if key := _unsaid(out, said):
            return "absurd", f"{key}: its value not read, and the import does not say why", argv, text[-300:]
        (folder / "imported.json").write_text(json.dumps(json.loads(out)["scenario"]))
        command = rng.choice([["estimate", "--json"], ["estimate"], ["fit", "--json"]])
        outcome, detail = classified([*command, str(folder / "imported.json")])
    return outcome, detail, argv, text[-300:]


def _mscript_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    text, changed = megatron_script(rng)
    # a shape flag of a value that is no size; a shape the importer never reads (GPT-style) lists them as used
    bad = [f for f in changed if f in ("--num-layers", "--hidden-size", "--num-attention-heads")
           and not _positive_word(text, f)]
    return _import_then_estimate("train.sh", text, folder, rng, bad if "--swiglu" in text else [])


def _positive_word(text: str, flag: str) -> bool:
    """Whether the script's value of `flag` (as shlex reads it) is a whole number above 0."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return True  # a script shlex cannot split: not judged
    value = words[words.index(flag) + 1] if flag in words and words.index(flag) + 1 < len(words) else ""
    return value.isdigit() and value.isascii() and int(value) > 0


SWIFT_KEYS = ("vit_gradient_checkpointing", "freeze_vit", "tp_comm_overlap", "freeze_aligner", "freeze_llm")
SWIFT_VALUES = ["true", "false", "True", "maybe", "2", "0", "", "nan", "1e308", "[]", "{}", "None", "$(id)", "\x1b[2J"]


def swift_config(rng: random.Random) -> tuple[str, str, list[str]]:
    """An ms-swift script or its YAML with the vision and overlap keys of wrong types: (file name, text, the keys of a
    value that is no true / false)."""
    from engine.configs.common import as_bool

    path = rng.choice(sorted(p for p in (CONFIGS / "ms-swift").iterdir() if p.suffix in (".sh", ".yaml")))
    text = path.read_text(encoding="utf-8")
    keys = rng.sample(SWIFT_KEYS, rng.randint(1, 3))
    if path.suffix == ".yaml":
        data = yaml.safe_load(text)
        for key in keys:
            data[key] = rng.choice([*ODD[:25], *SWIFT_VALUES])
        return path.name, yaml.safe_dump(data, allow_unicode=True), [k for k in keys if as_bool(data[k]) is None]
    values = {k: rng.choice(SWIFT_VALUES) if rng.random() < 0.8 else None for k in keys}
    args = " ".join(f"--{k} {shlex.quote(v)}" if v is not None else f"--{k}" for k, v in values.items())
    text, put = re.subn(r"((?:swift|megatron) (?:sft|pt|rlhf)|swift/cli/(?:_megatron/)?(?:sft|pt|rlhf)\.py) ",
                        lambda m: f"{m.group(1)} {args} ", text, count=1)
    values = values if put else {}  # a script that runs no ms-swift command line takes none of them
    if rng.random() < 0.2:  # a VL model, where the tower's keys count
        text = re.sub(r"--model \S+", "--model Qwen/Qwen2.5-VL-7B-Instruct", text, count=1)
    return path.name, text, [k for k, v in values.items() if v is not None and as_bool(v) is None]


def _swift_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    name, text, wrong = swift_config(rng)
    from engine.configs.swift_megatron import is_swift_megatron, is_swift_megatron_script

    megatron = is_swift_megatron_script(text) if name.endswith(".sh") else is_swift_megatron(yaml.safe_load(text))
    # freeze_llm is not read (a frozen language model is method "freeze"), and tp_comm_overlap only by the Megatron path
    said = [k for k in wrong if k != "freeze_llm" and (megatron or k != "tp_comm_overlap")]
    return _import_then_estimate(name, text, folder, rng, said)


TRL_SERVER = {"schema_version": 1, "model": "qwen2.5-7b", "gpu": "rtx-4090", "gpus_per_node": 1, "method": "lora",
              "precision": "bf16", "checkpointing": "full", "framework": "trl", "micro_batch": 4, "grad_accum": 8,
              "training_objective": "grpo", "prompt_len": 256, "completion_len": 512, "num_generations": 8,
              "rollout_engine": "vllm", "rollout_placement": "separate", "rollout_gpus": 1,
              "rollout_gpu_memory_utilization": 0.8}
VERL_BUDGET = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "verl", "fsdp": True,
               "training_objective": "grpo", "micro_batch": 20, "grad_accum": 1, "seq_len": 1536, "prompt_len": 512,
               "completion_len": 1024, "num_generations": 5, "rollout_engine": "vllm", "packing": "padding-free",
               "max_tokens_per_micro_batch": 12000}


def _server_words(text: str) -> list[str] | None:
    """The `trl vllm-serve` command line of a TRL export as a shell reads it (its comment's text), None for none."""
    line = next((x for x in text.splitlines() if "trl vllm-serve" in x), None)
    return None if line is None else shlex.split(line.split(": ", 1)[1])


def _rlexport_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    from engine.configs import import_texts
    from engine.configs.exporting import export_config
    from engine.errors import PlannerError
    from engine.scenario import scenario_from_dict

    fmt, base = rng.choice([("trl", TRL_SERVER), ("verl", VERL_BUDGET)])
    model = hostile_text(rng)
    if rng.random() < 0.7:  # mostly names a command line can carry (the others are refused in one sentence)
        model = "".join(ch for ch in model if ch.isprintable()) or "m"
    data = {**base, "name": hostile_text(rng), "model": {"name": model, "hf_config": TINY_CONFIG}}
    if rng.random() < 0.3:
        data.update({k: rng.choice(ODD) for k in rng.sample(["max_tokens_per_micro_batch", "rollout_gpus", "rollout_tp",
                                                             "sequence_len_std", "micro_batch"], 2)})
    argv = ["export-config", "--to", fmt]
    try:
        text = export_config(scenario_from_dict(data), fmt)
    except PlannerError as exc:  # one sentence, no more
        one = "\n" not in str(exc) and len(str(exc)) < MAX_LINE
        return ("refused" if one else "absurd"), f"refusal {str(exc)[:200]!r}", argv, data
    try:
        text.encode("utf-8")
        parsed = yaml.safe_load(text) if fmt == "trl" else shlex.split(text, comments=True)
        words = _server_words(text) if fmt == "trl" else None
        if fmt == "trl" and (not isinstance(parsed, dict) or parsed.get("model_name_or_path") != model):
            return "injected", f"the YAML reads {str(parsed)[:200]!r}", argv, data
        served = None if words is None else words[words.index("--model") + 1] if "--model" in words else next(
            (w.split("=", 1)[1] for w in words if w.startswith("--model=")), None)
        if words is not None and served != model:
            return "injected", f"the server's command line reads {words[:8]!r}", argv, data
        back = import_texts([("trl_config.yaml" if fmt == "trl" else "run_verl.sh", text)])
        json.dumps(back.scenario, allow_nan=False)
    except (ValueError, yaml.YAMLError, UnicodeError) as exc:  # the export no longer parses: text became syntax
        return "injected", f"{type(exc).__name__}: {exc}"[:300], argv, data
    except PlannerError as exc:
        return ("refused" if "\n" not in str(exc) else "absurd"), str(exc)[:200], argv, data
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{type(exc).__name__}: {exc}"[:300], argv, data
    return "ok", "", argv, data


NEW_KEYS = {"sequence_len_std": [1, 2, 256, 4096, 10**7, 10**7 + 1, 0, -1, 2**63, 1e308, float("nan"), "auto", None],
            "max_tokens_per_micro_batch": [0, 1, 2, 100, 1536, 12000, 10**8, 10**8 + 1, -5, 1.5, float("inf")],
            "optimizer_step": ["auto", "apex-distributed-fused-adam", "apex-distributed-fused-adam", "megatron", "",
                               "\x1b[2J", 5, None],
            "vision_tower": ["frozen", "trained", "frozen-backward", "frozen-backward", "lora", "", 0, None]}
NEW_BASES = [VERL_BUDGET, {**VERL_BUDGET, "packing": "none", "max_tokens_per_micro_batch": 0, "sequence_len_std": 300},
             {"model": "qwen2.5-vl-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "ms-swift",
              "vision_tower": "frozen-backward", "seq_len": 4096, "tokens_to_train": 10**9},
             {**PLANS[1], "optimizer_step": "apex-distributed-fused-adam"}, TRL_SERVER]


def _file_text(data: dict[str, Any], rng: random.Random) -> str:
    text = json.dumps(data, allow_nan=True)
    return text.replace("NaN", rng.choice(["NaN", "Infinity", "1e400"])) if rng.random() < 0.2 else text


def _newkeys_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    data = dict(rng.choice(NEW_BASES))
    for key in rng.sample(sorted(NEW_KEYS), rng.randint(1, 3)):
        data[key] = rng.choice(NEW_KEYS[key]) if rng.random() < 0.85 else rng.choice(ODD)
    (folder / "plan.json").write_text(_file_text(data, rng))
    command = rng.choice([["estimate", "--json"], ["estimate"], ["fit", "--json"], ["fit", "--objective", "throughput"],
                          ["fit", "--objective", "cost", "--json"], ["export-config", "--to",
                                                                     rng.choice(["verl", "trl", "ms-swift-megatron"])]])
    argv = [*command, str(folder / "plan.json")]
    return (*classified(argv), argv, {k: str(v)[:40] for k, v in data.items()})


SERVED = [PLANS[2], PLANS[3], {"model": "qwen2.5-7b", "gpu": "apple-m4-max-128gb", "workload": "inference",
                               "serving_engine": "mlx", "weight_format": "mlx-4bit"}]
COST_FLAGS = {"--users": ["1", "64", "1000000", "1000001", "0", "nan", "1e308"], "--prompt-tokens": ["1", "100000000",
              "0", "-1"], "--output-tokens": ["1", "256", "99999999999"], "--max-tpot-ms": ["0.001", "50", "1e308"],
              "--max-ttft-s": ["0.0001", "2", "inf"], "--budget-per-hour": ["1e-6", "10", "1e12"],
              "--budget-per-million": ["1e-9", "1"], "--budget": ["1000", "1e15", "nan"], "--deadline-days": ["30"]}


def _prices(rng: random.Random, folder: Path) -> str:
    from engine.models.presets import gpu_presets

    gpus = list(gpu_presets())
    prices: dict[str, Any] = {g: rng.choice([0.5, 2.5, 1e6, 1e-9]) for g in rng.sample(gpus, rng.choice([1, 5, 20]))}
    prices[rng.choice([*gpus, "\x1b[2J", "a" * 5000, ""])] = rng.choice(ODD)
    raw = json.dumps({"currency": rng.choice(["USD", "EUR", "", "\x1b[2J", 5, None, "X" * 1000]), "prices": prices},
                     allow_nan=True).encode()
    if rng.random() < 0.2:
        raw = rng.choice([b"", b"[" * 100_000, b'{"prices": {"rtx-4090": -Infinity}}', raw[: len(raw) // 2]])
    (folder / "prices.json").write_bytes(raw)
    return str(folder / "prices.json")


def _served_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    data = dict(rng.choice(SERVED))
    for key in rng.sample(["max_num_seqs", "max_model_len", "n_ctx", "max_num_batched_tokens"], rng.randint(0, 2)):
        data[key] = rng.choice([1, 2, 256, 10**6, 10**9, 2**31, 0, -1, 10**30, 1e308, "auto"])
    (folder / "plan.json").write_text(json.dumps(data))
    command = rng.choice([["estimate", "--json"], ["estimate"], ["serve-fit", "--question", "users", "--json"],
                          ["serve-fit", "--question", "context"], ["fit", "--objective", rng.choice(["cost", "fit"])]])
    if command[0] == "fit":
        for flag in rng.sample(sorted(COST_FLAGS), rng.randint(0, 4)):
            command += [flag, rng.choice(COST_FLAGS[flag])]
        command += ["--prices", _prices(rng, folder)] if rng.random() < 0.6 else []
        command += ["--json"] if rng.random() < 0.5 else []
    argv = [*command, str(folder / "plan.json")]
    return (*_warned(argv), argv, data)


def _warned(argv: list[str]) -> tuple[str, str]:
    """classified(argv), and where the command ran: each warning it wrote one clean short line."""
    try:
        code, out, err = run_main(argv)
    except Hang:
        return "hang", ""
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    outcome, detail = classify(code, out, err, "--json" in argv)
    bad = [line for line in err.splitlines() if len(line) > MAX_LINE or not line.isprintable()
           or not line.startswith("warning: ")]
    return ("absurd", f"stderr: {bad[0][:200]!r}") if outcome == "ok" and bad else (outcome, detail)


def one_case(family: str, rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    return {"mlog": _mlog_case, "mscript": _mscript_case, "swift": _swift_case, "rlexport": _rlexport_case,
            "newkeys": _newkeys_case, "served": _served_case}[family](rng, folder)


def fuzz_surfaces12(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: FAMILY" and "FAMILY OUTCOME"; prints what went wrong."""
    from PySide6.QtWidgets import QApplication

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    QApplication.instance() or QApplication([])
    return count_cases(count, seed, FAMILIES, one_case, BAD, most_details=30)


def main() -> int:
    return suite_main(__doc__, "surfaces12", fuzz_surfaces12, 300, 41, BAD)


if __name__ == "__main__":
    sys.exit(main())
