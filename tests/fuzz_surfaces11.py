"""Fuzz class of the older surfaces (h-fuzz11): every command and flag of the command line, the window's own options,
the presets files damaged whole, the scenario file's schema_version and its migration, training configs of every
importer made hostile, and diagnose's readers fed cut or binary input, in-process.

    .venv/bin/python tests/fuzz_surfaces11.py [--count 300] [--seed 31]

Families (case i takes family i % 5):
  cli       one command of main.py (estimate, fit, serve-fit, presets, kv-cache, import, export-config, diagnose,
            calibrate, schema, or the window's --size / --lang / --theme / --tab / --screenshot and unknown words) with
            its flags at absurd values (0, negatives, 1e308, NaN, inf, empty, 10 MB strings, escapes, markup) and its
            files paths to folders, /dev/null, /dev/zero, a FIFO, a missing file, a NUL or a 10 MB name
  presets   one presets/*.json file (or a model preset) damaged whole: cut, bytes that are not UTF-8, empty, [], null,
            text, a number, 100,000 '[', arrays nested past Python's limit; or (ENTRY_FILES) one value at any depth
            made hostile; then estimate / fit / serve-fit of a plan reading it (a refusal must name the file)
  scenario  schema_version from the future, negative, text, true, a float, 10^30; version-0 files (batch_size, gpus)
            with hostile values or both names; the file cut, in UTF-16, with a NUL, binary; estimate, fit, serve-fit,
            export-config, calibrate (a file from a newer version must be refused, never read)
  imports   a real config of tests/data/configs (DeepSpeed, accelerate, HF Trainer / TRL, torchtune, axolotl,
            LLaMA-Factory, ms-swift, torchtitan, Megatron, OpenRLHF, verl) or a preset's config.json with a value made
            hostile, the document nested deep, YAML anchors expanded a billion times, cut or binary; `import [--json]`,
            then the imported scenario estimated
  readers   diagnose's inputs (tests/fuzz_diagnose.py's OOM messages, GPU logs, memory timelines, snapshots) cut at a
            random byte, bytes flipped, NULs and invalid UTF-8 put in, beside no plan or one
Outcome of one case (tests/fuzz_newest.py's classify): ok, refused (one clean short line), absurd, traceback, hang;
plus "unnamed" where a damaged presets file's refusal does not name it, and "absurd" where a scenario of a newer
schema_version is read.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
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

import fuzz_diagnose  # noqa: E402
from fuzz_cli import Hang, suite_main, time_limit  # noqa: E402
from fuzz_harness import count_cases  # noqa: E402
from fuzz_newest import classify  # noqa: E402
from fuzz_surfaces8 import _clear_engine_caches  # noqa: E402

from engine.models.presets import PRESETS_DIR  # noqa: E402
from engine.scenario.format import SCHEMA_VERSION  # noqa: E402

CASE_SECONDS = 30
BAD = ("traceback", "hang", "absurd", "unnamed")
FAMILIES = ("cli", "presets", "scenario", "imports", "readers")
BIG = "a" * 10_000_000
ABSURD = ["0", "-1", "-0", "1e308", "-1e308", "nan", "NaN", "inf", "-inf", "", " ", "1e-320", "0x10", "1_000", "\u0663",
          "9" * 400, "\x1b[2J", "\u202eevil", "<b>x</b>", "$(id)", "a\nerror: fake", "5GiB", "\x00"]
FINE = {"--unit": ["GB", "GiB"], "--objective": ["fit", "throughput", "cost"], "--question": ["context", "users", "gpus"],
        "--deadline-days": ["30", "0.5"], "--budget": ["1000", "1e6"], "--users": ["1", "64"], "--batch": ["1", "8"],
        "--prompt-tokens": ["512"], "--output-tokens": ["256"], "--max-tpot-ms": ["50"], "--max-ttft-s": ["2"],
        "--budget-per-hour": ["10"], "--budget-per-million": ["1"], "--seq-len": ["4096", "131072"],
        "--bytes": ["1", "2"], "--to": ["deepspeed", "accelerate", "torchtune", "axolotl", "llama-factory", "torchtitan",
                                        "megatron", "trl", "verl", "ms-swift-megatron", "mlx-lm"]}
SWITCHES = {"estimate": ["--json", "--unit"], "serve-fit": ["--json", "--question"], "presets": ["--json", "--unit"],
            "fit": ["--json", "--unit", "--objective", "--deadline-days", "--budget", "--prices", "--users",
                    "--prompt-tokens", "--output-tokens", "--max-tpot-ms", "--max-ttft-s", "--budget-per-hour",
                    "--budget-per-million"],
            "kv-cache": ["--json", "--unit", "--batch", "--seq-len", "--bytes"], "import": ["--json"],
            "export-config": ["--to", "-o", "--force"], "diagnose": ["--json", "--unit"],
            "calibrate": ["--json", "--unit"], "schema": ["--markdown"]}
NO_VALUE = {"--json", "--force", "--markdown"}
WINDOW = {"--size": ["1366x768", "320x240", "0x0", "-5x-5", "1e308x5", "nanxnan", "99999999999999999999x5", "x", "5"],
          "--lang": ["en", "zh_CN", "zh", "../../etc/passwd"], "--theme": ["light", "dark", "blue"],
          "--tab": ["breakdown", "rent", "users", "nowhere"]}
PLANS = [{"model": "llama-3-8b", "gpu": "h100-sxm-80gb"},
         {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron", "tp": 2,
          "precision": "mixed-bf16", "tokens_to_train": 10**11},
         {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
          "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 4096},
         {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
          "weight_format": "Q4_K_M", "n_ctx": 32768},
         {"model": "qwen2.5-1.5b", "gpu": "h100-sxm-80gb", "framework": "verl", "training_objective": "grpo",
          "prompt_len": 512, "completion_len": 300, "num_generations": 5, "rollout_engine": "vllm"},
         {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "qlora"},
         {"model": "qwen2.5-0.5b", "gpu": "apple-m4-max-128gb", "method": "lora", "framework": "mlx"}]
PRESET_DAMAGE = [None, b"\xff\xfe\x00garbage", b"", b"[]", b"{}", b"null", b'"x"', b"1e999", b"NaN", b"[" * 100_000,
                 b"[" * 5000 + b"]" * 5000, b'{"bands": 5, "engines": [], "servers": null, "dequant": "x"}']
# the files whose entries h-fuzz11 checks (engine/models/presets.py checked_table); gpus.json, host_overhead.json,
# efficiency.json, weight_formats.json and the model presets are damaged entry by entry in fuzz_surfaces8/9/10 (a GPU id
# renamed is a plan naming a GPU the list no longer has; a transformers default changed is charged to the model)
ENTRY_FILES = ("bnb_4bit.json", "engine_startup_band.json", "mfu_ceilings.json", "posttraining_time_bands.json",
               "rent_servers.json", "serving_speed_bands.json", "time_error_bands.json")
VERSIONS: list[Any] = [0, 1, SCHEMA_VERSION, SCHEMA_VERSION + 1, 99, 2**31, 2**63, 10**29, -1, 1.0, 1.5, "1", "",
                       True, False, None, [], {}, 1e308, "\x1b[2J"]
CONFIGS = sorted(p for p in (REPO / "tests/data/configs").rglob("*") if p.is_file() and p.stat().st_size < 200_000)
LAUGHS = "a: &a [" + ",".join(["x"] * 10) + "]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(8))


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `main.py ARGV` (gui/launch.py: the window's options and the commands) run in
    this process."""
    from gui.launch import main

    out, err = io.StringIO(), io.StringIO()
    with time_limit(CASE_SECONDS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue().replace("错误：", "error: ")  # --lang zh_CN's own word for it


def classified(argv: list[str], named: str = "", newer: bool = False) -> tuple[str, str]:
    """The case's outcome: classify()'s, "unnamed" where a refusal should name `named` and does not, "absurd" where a
    scenario of a newer schema_version (`newer`) was read."""
    try:
        code, out, err = run_main(argv)
        outcome, detail = classify(code, out, err, "--json" in argv)
        if outcome == "refused" and named and named not in err:
            outcome, detail = "unnamed", err.strip()[:300]
        if outcome == "ok" and newer and argv[0] != "import":
            outcome, detail = "absurd", "a scenario of a newer schema_version was read"
    except Hang:
        outcome, detail = "hang", ""
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        outcome, detail = "traceback", f"{type(exc).__name__}: {exc}"[:300]
    return outcome, detail


def _paths(folder: Path) -> dict[str, str]:
    """Files a command may be given: plans, and what is not a file one can read."""
    out = {}
    for i, plan in enumerate(PLANS):
        (folder / f"plan{i}.json").write_text(json.dumps(plan))
        out[f"plan{i}"] = str(folder / f"plan{i}.json")
    (folder / "folder").mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "binary.json").write_bytes(bytes(range(256)) * 4)
    (folder / "oom.txt").write_text(fuzz_diagnose.OOMS[0], encoding="utf-8")
    os.symlink(folder / "loop", folder / "loop")
    return {**out, "folder": str(folder / "folder"), "null": "/dev/null", "zero": "/dev/zero",
            "fifo": str(folder / "fifo"), "missing": str(folder / "missing.json"), "nul": "a\x00b.json", "big": BIG,
            "empty": "", "deep": "/".join(["d"] * 3000) + ".json", "binary": str(folder / "binary.json"),
            "loop": str(folder / "loop"), "oom": str(folder / "oom.txt"), "escape": str(folder / "\x1b[2J.json")}


def _value(rng: random.Random, flag: str, paths: dict[str, str]) -> str:
    if flag in ("--prices", "-o"):
        return paths[rng.choice(list(paths))]
    if flag in FINE and rng.random() < 0.4:
        return rng.choice(FINE[flag])
    return BIG if rng.random() < 0.05 else rng.choice(ABSURD)


def _positionals(rng: random.Random, command: str, paths: dict[str, str]) -> list[str]:
    plan = paths[rng.choice([k for k in paths if k.startswith("plan")])]
    any_path = paths[rng.choice(list(paths))]
    scenario = plan if rng.random() < 0.6 else any_path
    if command == "presets":
        return [rng.choice(["models", "gpus", "models", rng.choice(ABSURD), BIG])]
    if command == "kv-cache":
        return [rng.choice(["llama-3-8b", "qwen3-32b", "deepseek-v3", rng.choice(ABSURD), BIG])]
    if command == "import":
        return [paths[rng.choice(list(paths))] for _ in range(rng.choice([1, 1, 2, 3]))]
    if command == "diagnose":
        return [rng.choice([paths["oom"], any_path]), *([scenario] if rng.random() < 0.5 else [])]
    if command == "calibrate":
        figure = rng.choice(["peak_reserved", "nvidia_smi", "peak_allocated", rng.choice(ABSURD)])
        measured = rng.choice(["70GiB", "20 GiB", "30000MB", "75000000000", *ABSURD, "1e308GiB", "NaNGiB", "-5GiB"])
        return [scenario, figure, measured, *([any_path] if rng.random() < 0.3 else [])]
    return [] if command == "schema" else [scenario]


def _window_opens(argv: list[str]) -> bool:
    from gui.launch import UsageError, parse_window_args

    try:
        parse_window_args(argv)
    except UsageError:
        return False
    return True


def cli_argv(rng: random.Random, folder: Path) -> list[str]:
    """One command line: a command with some of its flags, or the window's options."""
    paths = _paths(folder)
    if rng.random() < 0.15:
        argv: list[str] = []
        for flag in rng.sample(sorted(WINDOW), rng.choice([1, 1, 2])):
            argv += [flag, rng.choice(WINDOW[flag] + [rng.choice(ABSURD), BIG] if rng.random() < 0.5 else ABSURD)]
        if rng.random() < 0.5:
            return [rng.choice(["--bogus", "--\x1b[2J", "-" * 3, BIG, "estimat", "x\x1b[2J"])]
        if _window_opens(argv):  # options the window takes: rendered offscreen (the window itself would wait for a
            # person), to a hostile output path
            argv += ["--screenshot", rng.choice([str(folder / "w.png"), paths["folder"], "/dev/full",
                                                 paths["missing"] + "/x.png", paths["nul"], str(folder / "w.txt")])]
        return argv
    command = rng.choice(sorted(SWITCHES))
    argv = [command]
    for flag in rng.sample(SWITCHES[command], rng.randint(0, len(SWITCHES[command]))):
        argv += [flag] if flag in NO_VALUE else [flag, _value(rng, flag, paths)]
    if command == "export-config" and "--to" not in argv:
        argv += ["--to", rng.choice(FINE["--to"])]
    argv += _positionals(rng, command, paths)
    if rng.random() < 0.1:
        argv = ["--lang", rng.choice(["zh_CN", "en", "xx", BIG, "\x1b[2J"]), *argv]
    return argv


@contextlib.contextmanager
def presets_copy(folder: Path) -> Iterator[None]:
    """The engine reads presets from `folder` (a copy of presets/) while inside: every module global of the engine
    that is a path under presets/ (PRESETS_DIR, each reader's file), weight_formats' folder; caches cleared."""
    import importlib
    import pkgutil

    import engine
    from engine.models import weight_formats

    for info in pkgutil.walk_packages(engine.__path__, "engine."):  # a module imported inside would keep the copy's
        importlib.import_module(info.name)
    saved = [(module, attr, value) for name, module in list(sys.modules.items())
             if name == "engine" or name.startswith("engine.") for attr, value in list(vars(module).items())
             if isinstance(value, Path) and (value == PRESETS_DIR or PRESETS_DIR in value.parents)]
    for module, attr, value in saved:
        setattr(module, attr, folder / value.relative_to(PRESETS_DIR))
    data_dir, weight_formats.data_dir = weight_formats.data_dir, lambda _name: folder
    _clear_engine_caches()
    try:
        yield
    finally:
        for module, attr, value in saved:
            setattr(module, attr, value)
        weight_formats.data_dir = data_dir
        _clear_engine_caches()


def damaged_presets(rng: random.Random, folder: Path, spare: tuple[str, ...] = ()) -> tuple[str, Path]:
    """A copy of presets/ in `folder` with one file (not one of `spare`) damaged whole: (its name, the copy)."""
    copy = folder / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    name = rng.choice([p.name for p in sorted(PRESETS_DIR.glob("*.json")) if p.name not in spare]
                      + ["models/llama-3-8b.json", "models/qwen3-32b.json"])
    raw, damage = (PRESETS_DIR / name).read_bytes(), rng.choice(PRESET_DAMAGE)
    if name in ENTRY_FILES and rng.random() < 0.5:  # one value at any depth made hostile, the file still JSON
        (copy / name).write_text(json.dumps(_mutated(rng, json.loads(raw)), allow_nan=True))
        return name, copy
    (copy / name).write_bytes(raw[: rng.randrange(len(raw))] if damage is None else damage)
    return name, copy


def _presets_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    name, copy = damaged_presets(rng, folder)
    plan = rng.choice(PLANS)
    (folder / "plan.json").write_text(json.dumps(plan))
    serving = "serving_engine" in plan
    command = rng.choice([["estimate"], ["serve-fit"] if serving else ["fit"],
                          ["fit", "--objective", "cost"] if serving or "tokens_to_train" in plan else ["estimate"]])
    argv = [*command, *(["--json"] if rng.random() < 0.5 else []), str(folder / "plan.json")]
    with presets_copy(copy):
        return (*classified(argv, named=Path(name).name), argv, {"file": name, "plan": plan})


def scenario_bytes(rng: random.Random) -> tuple[bytes, bool, dict[str, Any]]:
    """A scenario file of some schema_version, an older layout, or damaged: (bytes, whether it is from a newer
    version than this app reads, the object)."""
    data: dict[str, Any] = dict(rng.choice(PLANS))
    version = rng.choice([*VERSIONS, "absent"]) if rng.random() < 0.5 else rng.choice(["absent", 0, SCHEMA_VERSION])
    if version != "absent":
        data["schema_version"] = version
    if rng.random() < 0.4:  # version 0's names for micro_batch and gpus_per_node, alone or beside today's
        for old, new in (("batch_size", "micro_batch"), ("gpus", "gpus_per_node")):
            if rng.random() < 0.6:
                data[old] = rng.choice([1, 2, 8, 0, -1, 10**30, 1e308, "2", None, [], True])
                if rng.random() < 0.3:
                    data[new] = 1
    newer = isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION
    raw = json.dumps(data, allow_nan=True).encode()
    kind = rng.randrange(10)
    if kind == 0:
        raw = raw[: rng.randrange(len(raw))]
    elif kind == 1:
        raw = json.dumps(data).encode("utf-16")
    elif kind == 2:
        at = rng.randrange(len(raw))
        raw = raw[:at] + rng.choice([b"\x00", b"\xff", b"\xc3", b"\x1b[2J", b"\xef\xbb\xbf"]) + raw[at:]
    elif kind == 3:
        raw = raw.replace(b"}", b', "deep": ' + b"[" * 5000 + b"]" * 5000 + b"}", 1)
    return raw, newer and kind > 3, data


def _scenario_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    raw, newer, data = scenario_bytes(rng)
    path = folder / "case.json"
    path.write_bytes(raw)
    (folder / "oom.txt").write_text(fuzz_diagnose.OOMS[0], encoding="utf-8")
    argv = rng.choice([["estimate", "--json"], ["estimate"], ["fit", "--json"], ["serve-fit", "--json"],
                       ["export-config", "--to", rng.choice(FINE["--to"])], ["calibrate", "--json"],
                       ["diagnose", "--json", str(folder / "oom.txt")]])
    argv = [*argv, str(path)] + (["peak_reserved", "70GiB"] if argv[0] == "calibrate" else [])
    return (*classified(argv, newer=newer), argv, data)


def _hostile_value(rng: random.Random) -> Any:
    return rng.choice([float("nan"), float("inf"), 1e308, -1, 0, 10**30, "", "x" * 100_000, "\x1b[2J\u202e", None, True,
                       [], {}, [[[[]]]], {"a": {"b": {"c": 1}}}, "${oc.env:HOME}", "$(touch /tmp/owned)", "<b>x</b>"])


def _mutated(rng: random.Random, data: Any) -> Any:
    """data with one value (at any depth) replaced by a hostile one."""
    node = data
    while isinstance(node, dict | list) and node:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        if isinstance(node[key], dict | list) and node[key] and rng.random() < 0.7:
            node = node[key]
            continue
        node[key] = _hostile_value(rng)
        break
    return data


def import_text(rng: random.Random) -> tuple[str, str]:
    """A config file of one importer made hostile: (file name, text)."""
    import tomllib

    import yaml

    from engine.models.presets import get_model_preset

    if rng.random() < 0.15:
        cfg = dict(get_model_preset(rng.choice(["llama-3-8b", "qwen3-32b", "deepseek-v3"])).hf_config)
        return "config.json", json.dumps(_mutated(rng, cfg), allow_nan=True)
    path = rng.choice(CONFIGS)
    text = path.read_text(encoding="utf-8", errors="replace")
    kind = rng.randrange(6)
    try:
        if kind < 3 and path.suffix == ".json":
            text = json.dumps(_mutated(rng, json.loads(text)), allow_nan=True)
        elif kind < 3 and path.suffix in (".yaml", ".yml"):
            text = yaml.safe_dump(_mutated(rng, yaml.safe_load(text)), allow_unicode=True)
        elif kind < 3 and path.suffix == ".toml":
            text = json.dumps(_mutated(rng, tomllib.loads(text)))  # TOML cannot hold NaN keys or null: as JSON
            return path.stem + ".json", text
    except (ValueError, yaml.YAMLError, RecursionError):
        pass
    if kind < 3 and rng.random() < 0.2 and path.suffix in (".json", ".yaml", ".yml"):  # nested deep (JSON is YAML)
        depth = rng.choice([50, 200, 5000])
        text = '{"a": ' * depth + json.dumps(yaml.safe_load(text) if path.suffix != ".json" else json.loads(text),
                                             allow_nan=True, default=str) + "}" * depth
    elif kind == 3 and path.suffix in (".yaml", ".yml"):
        text = LAUGHS + text
    elif kind == 4:
        text = text[: rng.randrange(len(text) + 1)]
    elif kind == 5:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(["\x00", "\udcff", "\x1b[2J", "\u202e", "\ufeff", "\r"]) + text[at:]
    return path.name, text


def _imports_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    name, text = import_text(rng)
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = ["import", "--json", str(path)] if rng.random() < 0.6 else ["import", str(path)]
    outcome, detail = classified(argv)
    if outcome == "ok" and "--json" in argv:  # the imported scenario is one this app reads: estimated, or refused
        _code, out, _err = run_main(argv)
        (folder / "imported.json").write_text(json.dumps(json.loads(out)["scenario"]))
        outcome, detail = classified(["estimate", "--json", str(folder / "imported.json")])
    return outcome, detail, argv, text[:300]


def reader_bytes(rng: random.Random) -> bytes:
    """One of diagnose's inputs, then cut or with bytes flipped or NUL / invalid UTF-8 put in."""
    kind = rng.randrange(4)
    raw = (fuzz_diagnose.oom_text(rng), fuzz_diagnose.gpu_log(rng), fuzz_diagnose.timeline(rng))[kind].encode(
        "utf-8", "surrogatepass") if kind < 3 else fuzz_diagnose.snapshot(rng)
    damage = rng.randrange(4)
    if damage == 0 and raw:
        raw = raw[: rng.randrange(len(raw))]
    elif damage == 1 and raw:
        data = bytearray(raw)
        for _ in range(rng.choice([1, 10, 100])):
            data[rng.randrange(len(data))] = rng.randrange(256)
        raw = bytes(data)
    elif damage == 2:
        at = rng.randrange(len(raw) + 1)
        raw = raw[:at] + rng.choice([b"\x00" * 10, b"\xff\xfe", b"\xc3", b"\x80\x04", os.urandom(64)]) + raw[at:]
    return raw


def _readers_case(rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    (folder / "input").write_bytes(reader_bytes(rng))
    plan = rng.choice([None, *PLANS[:6]])
    argv = ["diagnose", *(["--json"] if rng.random() < 0.5 else []), str(folder / "input")]
    if plan is not None:
        (folder / "plan.json").write_text(json.dumps(plan))
        argv.append(str(folder / "plan.json"))
    return (*classified(argv), argv, plan)


def one_case(family: str, rng: random.Random, folder: Path) -> tuple[str, str, list[str], Any]:
    if family == "cli":
        argv = cli_argv(rng, folder)
        return (*classified(argv), argv, None)
    return {"presets": _presets_case, "scenario": _scenario_case, "imports": _imports_case,
            "readers": _readers_case}[family](rng, folder)


def fuzz_surfaces11(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` cases, plus "cases: FAMILY" and "FAMILY OUTCOME"; prints what went wrong."""
    from PySide6.QtWidgets import QApplication

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # --screenshot renders the window offscreen
    QApplication.instance() or QApplication([])
    return count_cases(count, seed, FAMILIES, one_case, BAD, most_details=20)


def main() -> int:
    return suite_main(__doc__, "surfaces11", fuzz_surfaces11, 300, 31, BAD)


if __name__ == "__main__":
    sys.exit(main())
